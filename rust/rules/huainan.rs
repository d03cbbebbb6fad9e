//! huainan: Huainan mahjong (docs/rules/huainan.md): 136 tiles, four wild 宝 tiles named
//! by an indicator, its own forms and multipliers. The 宝 rules are the `Bao` group
//! (`crate::huainan::HuainanOptions`).

use super::registry::{Engine, RuleSetDef, ScoreUnit};
use super::Rules;
use crate::options::{Group, GroupSet};
use crate::shanten::Forms;
use crate::table::{BreakThrowOpt, DealerRotation, FirstDealer};

/// huainan's definition.
pub static HUAINAN: RuleSetDef = RuleSetDef {
    name: "huainan",
    aliases: &[],
    title: "Huainan (宝 wild tiles)",
    summary: "136 tiles, four wild 宝 tiles chosen by an indicator, its own special hands",
    docs: "docs/rules/huainan.md",
    groups: GroupSet::of(&[Group::Flow, Group::Bao]),
    forms: Forms::HUAINAN,
    engine: Engine::Huainan,
    unit: ScoreUnit::Point,
    defaults,
};

fn defaults(r: &mut Rules) {
    let t = &mut r.table;
    t.flowers = false;
    t.wall_stacks_per_side = 17;
    t.break_throw = BreakThrowOpt::Single;
    t.dealer_rotation = DealerRotation::WinnerDeals;
    t.first_dealer = FirstDealer::Random;
    t.multi_winner_on_rob = true;
}
