//! classic: ClassicFour (docs/rules/classic.md): gb's fans on 136 tiles without flowers,
//! with declared ready (报听) and its 1-fan 听牌, the winner dealing next.

use super::registry::{Engine, RuleSetDef, ScoreUnit, FAN_PRICED};
use super::Rules;
use crate::shanten::Forms;
use crate::table::{BreakThrowOpt, DealerRotation, FirstDealer};

/// classic's definition.
pub static CLASSIC: RuleSetDef = RuleSetDef {
    name: "classic",
    aliases: &[],
    title: "Classic (ClassicFour)",
    summary: "136 tiles without flowers, the gb fans plus declared ready (报听)",
    docs: "docs/rules/classic.md",
    groups: FAN_PRICED,
    forms: Forms::GB,
    engine: Engine::Fans,
    unit: ScoreUnit::Fan,
    defaults,
};

fn defaults(r: &mut Rules) {
    r.fan.max_flowers = 0;
    r.fan.ready_fan = true;
    let t = &mut r.table;
    t.flowers = false;
    t.wall_stacks_per_side = 17;
    t.break_throw = BreakThrowOpt::Double;
    t.dealer_rotation = DealerRotation::WinnerDeals;
    t.first_dealer = FirstDealer::Random;
    t.ting_enabled = true;
}
