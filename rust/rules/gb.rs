//! gb: Chinese Official / MCR (docs/rules/gb.md). The option structs' own defaults are gb's.

use super::registry::{Engine, RuleSetDef, ScoreUnit, FAN_PRICED};
use super::Rules;
use crate::shanten::Forms;

/// gb's definition.
pub static GB: RuleSetDef = RuleSetDef {
    name: "gb",
    aliases: &["mcr"],
    title: "Chinese Official (MCR)",
    summary: "144 tiles with 8 flowers, 81 fans, an 8-fan minimum",
    docs: "docs/rules/gb.md",
    groups: FAN_PRICED,
    forms: Forms::GB,
    engine: Engine::Fans,
    unit: ScoreUnit::Fan,
    defaults,
};

fn defaults(_: &mut Rules) {}
