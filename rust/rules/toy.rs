//! toy: a rule set registered for the tests only, which keeps the registry's claim true —
//! a rule set is one definition, one registry line and one docs page. It is gb without
//! flowers, with a 6-fan minimum, no chows and a dealer bonus of 4 on every payment
//! between the dealer and another seat: every difference is an option of a group it
//! plays, so the flow and the engines are untouched. The conformance tests
//! (`rules::conformance`) play it like every other rule set.

use super::registry::{Engine, RuleSetDef, ScoreUnit, FAN_PRICED};
use super::Rules;
use crate::shanten::Forms;

/// The toy rule set's definition.
pub static TOY: RuleSetDef = RuleSetDef {
    name: "toy",
    aliases: &[],
    title: "Toy (tests only)",
    summary: "gb without flowers, a 6-fan minimum, no chows, a dealer bonus of 4",
    docs: "docs/rules/adding-a-rule-set.md",
    groups: FAN_PRICED,
    forms: Forms::GB,
    engine: Engine::Fans,
    unit: ScoreUnit::Fan,
    defaults,
};

fn defaults(r: &mut Rules) {
    r.fan.min_fan = 6;
    r.fan.max_flowers = 0;
    r.table.flowers = false;
    r.table.chows = false;
    r.table.dealer_bonus = 4;
}
