//! gb: Chinese Official / MCR (docs/rules/gb.md). The option structs' own defaults are gb's.

use super::registry::{Engine, RuleSetDef, ScoreUnit};
use super::Rules;
use crate::options::{Group, GroupSet};
use crate::shanten::Forms;

/// gb's definition.
pub static GB: RuleSetDef = RuleSetDef {
    name: "gb",
    aliases: &["mcr"],
    title: "Chinese Official (MCR)",
    summary: "144 tiles with 8 flowers, 81 fans, an 8-fan minimum",
    docs: "docs/rules/gb.md",
    groups: GroupSet::of(&[
        Group::Flow,
        Group::Walls,
        Group::Fans,
        Group::FanPayments,
        Group::Ready,
    ]),
    forms: Forms::GB,
    engine: Engine::Fans,
    unit: ScoreUnit::Fan,
    defaults,
};

fn defaults(_: &mut Rules) {}
