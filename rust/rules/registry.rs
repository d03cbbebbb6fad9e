//! The registry: one [`RuleSetDef`] per rule set and one [`Preset`] per named option
//! bundle. These two lists are the only places that enumerate rule sets.

use super::{classic, gb, huainan, Rules};
use crate::error::{MjError, MjResult};
use crate::options::{Group, GroupSet, OptValue};
use crate::shanten::Forms;

/// How a rule set's hands are played and priced: the implementation of the round's
/// rule-set trait that a round of this rule set runs (`round::ruleset`). Rule sets that
/// share an engine differ only in their options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Standard shapes without wild tiles, priced in fans (the 81-fan catalog and its
    /// minimum) and paid by a fan formula.
    Fans,
    /// Wild 宝 tiles turned up after the deal, wins priced by Huainan's forms and
    /// multipliers.
    Huainan,
}

/// What a win's value counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreUnit {
    /// Fans (番): a win's value is its fan total.
    Fan,
    /// Points: a win's value is its payment per loser.
    Point,
}

impl ScoreUnit {
    /// `fan` or `points`, as tables show a win's value.
    pub fn as_str(self) -> &'static str {
        match self {
            ScoreUnit::Fan => "fan",
            ScoreUnit::Point => "points",
        }
    }
}

/// Everything the engine knows of one rule set.
#[derive(Debug)]
pub struct RuleSetDef {
    /// The name rule sets are chosen by (`gb`).
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// A label for people (`Chinese Official (MCR)`).
    pub title: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Its page in the repository, which the conformance tests check exists.
    pub docs: &'static str,
    /// The option groups it plays: it has exactly their options.
    pub groups: GroupSet,
    /// The hand forms its wins take (the shanten oracle's forms).
    pub forms: Forms,
    /// How its hands are played and priced.
    pub engine: Engine,
    /// What a win's value counts.
    pub unit: ScoreUnit,
    /// Sets the rule set's defaults over the option structs' own (which are gb's).
    pub defaults: fn(&mut Rules),
}

impl RuleSetDef {
    /// True when the rule set's hands take wild tiles (an indicator names them).
    pub fn has_wilds(&self) -> bool {
        self.groups.contains(crate::options::Group::Bao)
    }
}

/// The option groups of a rule set whose hands are priced in fans and paid by a fan
/// formula, with walls, flowers and declared ready as the gb table has them.
pub const FAN_PRICED: GroupSet = GroupSet::of(&[
    Group::Flow,
    Group::Walls,
    Group::Fans,
    Group::FanPayments,
    Group::Ready,
]);

/// Every rule set, in the order of the documentation.
#[cfg(not(test))]
pub static RULE_SETS: &[&RuleSetDef] = &[&gb::GB, &classic::CLASSIC, &huainan::HUAINAN];

/// Every rule set, and the tests' own (`toy`).
#[cfg(test)]
pub static RULE_SETS: &[&RuleSetDef] = &[
    &gb::GB,
    &classic::CLASSIC,
    &huainan::HUAINAN,
    &super::toy::TOY,
];

/// An option value a preset sets (a constant form of [`OptValue`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PresetValue {
    /// A switch.
    Bool(bool),
    /// A number.
    Int(i64),
    /// A name.
    Str(&'static str),
}

impl PresetValue {
    /// The value as an [`OptValue`].
    pub fn to_opt(self) -> OptValue {
        match self {
            PresetValue::Bool(b) => OptValue::Bool(b),
            PresetValue::Int(i) => OptValue::Int(i),
            PresetValue::Str(s) => OptValue::Str(s.to_string()),
        }
    }
}

/// A named bundle of options over a rule set: a table's house rules or a platform's
/// rules, chosen by name like a rule set.
#[derive(Debug)]
pub struct Preset {
    /// The name it is chosen by (`botzone`).
    pub name: &'static str,
    /// The rule set it sets options of.
    pub rule_set: &'static str,
    /// A label for people.
    pub title: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Its page in the repository.
    pub docs: &'static str,
    /// The options it sets, in order.
    pub options: &'static [(&'static str, PresetValue)],
}

impl Preset {
    /// The rule set with the preset's options.
    pub fn rules(&'static self) -> MjResult<Rules> {
        let mut rules = Rules::named(self.rule_set)?;
        for (key, v) in self.options {
            rules.set(key, &v.to_opt())?;
        }
        rules.preset = Some(self);
        Ok(rules)
    }
}

/// Every preset.
pub static PRESETS: &[Preset] = &[Preset {
    name: "botzone",
    rule_set: "gb",
    title: "Botzone (gb)",
    summary: "gb on the Botzone judge's table: four private walls, no flowers, one hand, \
              a false win ends the hand with the judge's penalty, the 2020 calculator's wait fans",
    docs: "docs/rules/botzone.md",
    options: &[
        ("private_walls", PresetValue::Bool(true)),
        ("penalty_mode", PresetValue::Str("botzone")),
        ("flowers", PresetValue::Bool(false)),
        ("hands_per_match", PresetValue::Int(1)),
        ("wait_fans_on_knitted_tile", PresetValue::Bool(false)),
    ],
}];

/// The rule set named `name` (a name or an alias).
pub fn find(name: &str) -> Option<&'static RuleSetDef> {
    RULE_SETS
        .iter()
        .copied()
        .find(|d| d.name == name || d.aliases.contains(&name))
}

/// The preset named `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// Every name a rule set can be chosen by: the rule sets, then the presets.
pub fn names() -> Vec<&'static str> {
    RULE_SETS
        .iter()
        .map(|d| d.name)
        .chain(PRESETS.iter().map(|p| p.name))
        .collect()
}

/// The error for a name that is neither a rule set nor a preset.
pub fn unknown(name: &str) -> MjError {
    MjError::rule(format!(
        "unknown rule set {name:?} (expected {})",
        names().join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_across_rule_sets_aliases_and_presets() {
        let mut seen = HashSet::new();
        for d in RULE_SETS {
            for n in std::iter::once(&d.name).chain(d.aliases) {
                assert!(seen.insert(*n), "{n} is registered twice");
            }
        }
        for p in PRESETS {
            assert!(seen.insert(p.name), "{} is registered twice", p.name);
            assert!(find(p.rule_set).is_some(), "{} has no rule set", p.name);
        }
    }

    #[test]
    fn every_preset_builds_and_keeps_its_options() {
        for p in PRESETS {
            let r = p.rules().unwrap();
            assert_eq!(r.kind.as_str(), p.rule_set);
            for (k, v) in p.options {
                assert!(r.options().contains(&(k, v.to_opt())), "{} {k}", p.name);
            }
            assert_eq!(Rules::named(p.name).unwrap(), r);
        }
    }

    #[test]
    fn an_unknown_name_lists_every_choice() {
        let e = Rules::named("riichi").unwrap_err();
        assert_eq!(
            e.message(),
            r#"unknown rule set "riichi" (expected gb, classic, huainan, toy, botzone)"#
        );
        assert_eq!(
            unknown("x").message().matches(", ").count(),
            names().len() - 1
        );
    }
}
