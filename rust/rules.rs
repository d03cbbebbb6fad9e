//! Rule sets and their options.
//!
//! A [`Rules`] value is a preset (`gb`, `classic`, `huainan`) plus option groups, one per
//! part of the engine: [`crate::fan::FanOptions`] for scoring,
//! [`crate::round::TableOptions`] for the flow of play and
//! [`crate::huainan::HuainanOptions`] for the 宝 rules. Every decision docs/rules/ labels
//! G-n, C-n or D-n is an option whose default is the documented one. Options are read and written
//! by name, so Python (`mj.RuleSet("gb", min_fan=6)`) and records can carry them.
//!
//! Options are scoped: each row of the option tables ([`OptSpec`], declared beside its
//! field with [`crate::option_group!`]) names the rule sets it belongs to and the values it
//! takes. [`Rules::options`] lists only the rule set's own options and [`Rules::set`]
//! refuses another rule set's option, an unknown name or a value outside the domain. The
//! fan options belong to gb and classic; the flow options to all three rule sets, except
//! those huainan plays differently (flower replacement, the fan-based payments and
//! penalties, declared ready); the 宝 options to huainan. The machinery lives in
//! [`crate::options`], which the groups import; this module composes the groups.

use crate::error::{MjError, MjResult};
use crate::fan::FanOptions;
use crate::huainan::HuainanOptions;
pub use crate::options::{Domain, OptSpec, OptType, OptValue, OptionGroup, RuleSetKind, Scope};
use crate::round::TableOptions;

/// A complete rule configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// Which preset this configuration starts from.
    pub kind: RuleSetKind,
    /// Scoring options.
    pub fan: FanOptions,
    /// Flow-of-play options (wall, claims, settlement, match length).
    pub table: TableOptions,
    /// Huainan 宝 options (used when `kind` is Huainan).
    pub huainan: HuainanOptions,
}

/// Every option of every group, with the group's current values in `rules`.
fn rows(rules: &Rules) -> impl Iterator<Item = (&'static OptSpec, OptValue)> {
    let fan = FanOptions::SPECS.iter().zip(rules.fan.list());
    let table = TableOptions::SPECS.iter().zip(rules.table.list());
    let huainan = HuainanOptions::SPECS.iter().zip(rules.huainan.list());
    fan.chain(table)
        .chain(huainan)
        .map(|(spec, (_, v))| (spec, v))
}

/// Every row of the three option tables.
fn all_specs() -> impl Iterator<Item = &'static OptSpec> {
    FanOptions::SPECS
        .iter()
        .chain(TableOptions::SPECS)
        .chain(HuainanOptions::SPECS)
}

/// Edit distance between two option names (for suggestions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + (ca != *cb) as usize).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

impl Rules {
    /// The preset with every option at the documented default.
    pub fn preset(kind: RuleSetKind) -> Self {
        Rules {
            kind,
            fan: FanOptions::for_rules(kind),
            table: TableOptions::for_rules(kind),
            huainan: HuainanOptions::default(),
        }
    }

    /// The preset named `name`.
    pub fn named(name: &str) -> MjResult<Self> {
        Ok(Self::preset(RuleSetKind::parse(name)?))
    }

    /// The GB preset.
    pub fn gb() -> Self {
        Self::preset(RuleSetKind::Gb)
    }

    /// The option table of a rule set: the rows of its own options, group by group.
    pub fn specs(kind: RuleSetKind) -> impl Iterator<Item = &'static OptSpec> {
        all_specs().filter(move |s| s.scope.contains(kind))
    }

    /// The row of option `key`, if it belongs to this rule set. An option of another rule
    /// set is an error naming the rule sets it belongs to; an unknown name is an error
    /// suggesting the closest names of this rule set.
    pub fn spec(&self, key: &str) -> MjResult<&'static OptSpec> {
        let kind = self.kind.as_str();
        if let Some(spec) = all_specs().find(|s| s.name == key) {
            if spec.scope.contains(self.kind) {
                return Ok(spec);
            }
            return Err(MjError::rule(format!(
                "option '{key}' belongs to {}, not {kind}",
                spec.scope
            )));
        }
        let mut close: Vec<(usize, &str)> = Self::specs(self.kind)
            .map(|s| (distance(key, s.name), s.name))
            .filter(|(d, name)| *d <= 2.max(name.len() / 4))
            .collect();
        close.sort();
        let hint = match close.as_slice() {
            [] => String::new(),
            [(_, a)] => format!(" (did you mean '{a}'?)"),
            [(_, a), (_, b), ..] => format!(" (did you mean '{a}' or '{b}'?)"),
        };
        Err(MjError::rule(format!(
            "unknown option '{key}' for rule set {kind}{hint}"
        )))
    }

    /// Every option of this rule set with its value, group by group.
    pub fn options(&self) -> Vec<(&'static str, OptValue)> {
        rows(self)
            .filter(|(spec, _)| spec.scope.contains(self.kind))
            .map(|(spec, v)| (spec.name, v))
            .collect()
    }

    /// Sets one option of this rule set by name, checking its value against the option's
    /// domain.
    pub fn set(&mut self, key: &str, v: &OptValue) -> MjResult<()> {
        self.spec(key)?.check(v)?;
        let applied = self
            .fan
            .set(key, v)
            .or_else(|| self.table.set(key, v))
            .or_else(|| self.huainan.set(key, v));
        applied.unwrap_or_else(|| Err(MjError::rule(format!("unknown option '{key}'"))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn presets_by_name() {
        assert_eq!(Rules::named("classic").unwrap().kind, RuleSetKind::Classic);
        assert!(Rules::named("riichi")
            .unwrap_err()
            .message()
            .contains("riichi"));
    }

    #[test]
    fn option_names_are_unique_across_groups() {
        let mut seen = HashSet::new();
        for s in all_specs() {
            assert!(seen.insert(s.name), "{} is in two groups", s.name);
        }
    }

    #[test]
    fn every_option_is_documented_and_its_default_is_in_range() {
        for kind in RuleSetKind::ALL {
            let r = Rules::preset(kind);
            for (spec, v) in rows(&r) {
                assert!(!spec.doc.trim().is_empty(), "{} has no doc", spec.name);
                assert!(spec.domain.accepts(&v), "{} = {v} in {kind:?}", spec.name);
            }
        }
    }

    #[test]
    fn integer_ranges_fit_their_fields_and_32_bit_results() {
        for kind in RuleSetKind::ALL {
            for spec in Rules::specs(kind) {
                let Domain::Int { min, max } = spec.domain else {
                    continue;
                };
                assert!(min <= max && min >= 0, "{}", spec.name);
                assert!(max <= 100_000, "{} allows {max}", spec.name);
                // Both ends can be stored (the field's type holds the whole range).
                for v in [min, max] {
                    let mut r = Rules::preset(kind);
                    r.set(spec.name, &OptValue::Int(v)).unwrap();
                    assert!(r.options().contains(&(spec.name, OptValue::Int(v))));
                    let e = r.set(
                        spec.name,
                        &OptValue::Int(if v == min { min - 1 } else { max + 1 }),
                    );
                    let msg = e.unwrap_err().message().to_string();
                    assert!(
                        msg.contains(spec.name) && msg.contains(&format!("from {min} to {max}")),
                        "{msg}"
                    );
                }
            }
        }
    }

    #[test]
    fn each_rule_set_lists_and_sets_only_its_own_options() {
        let gb = Rules::gb();
        let names: Vec<&str> = gb.options().iter().map(|(k, _)| *k).collect();
        assert!(names.contains(&"min_fan") && names.contains(&"settlement"));
        assert!(!names.contains(&"cap") && !names.contains(&"bao_in_melds"));
        let hn = Rules::named("huainan").unwrap();
        let names: Vec<&str> = hn.options().iter().map(|(k, _)| *k).collect();
        assert!(names.contains(&"cap") && names.contains(&"reserved_tiles"));
        assert!(!names.contains(&"min_fan") && !names.contains(&"ting_enabled"));
        for kind in RuleSetKind::ALL {
            let r = Rules::preset(kind);
            let listed: Vec<&str> = r.options().iter().map(|(k, _)| *k).collect();
            let table: Vec<&str> = Rules::specs(kind).map(|s| s.name).collect();
            assert_eq!(listed, table);
            // Every listed option takes its own value back.
            let mut again = r.clone();
            for (k, v) in r.options() {
                again.set(k, &v).unwrap();
            }
            assert_eq!(again, r);
        }
    }

    #[test]
    fn a_foreign_option_names_its_rule_sets() {
        let mut gb = Rules::gb();
        let e = gb.set("cap", &OptValue::Int(32)).unwrap_err();
        assert_eq!(e.message(), "option 'cap' belongs to huainan, not gb");
        let mut hn = Rules::named("huainan").unwrap();
        let e = hn.set("min_fan", &OptValue::Int(6)).unwrap_err();
        assert_eq!(
            e.message(),
            "option 'min_fan' belongs to gb and classic, not huainan"
        );
        // A foreign option is refused even at its default, and nothing changes.
        assert!(gb.set("cap", &OptValue::Int(64)).is_err());
        assert_eq!(gb, Rules::gb());
    }

    #[test]
    fn an_unknown_option_suggests_close_names() {
        let mut r = Rules::gb();
        let e = r.set("min_fna", &OptValue::Int(6)).unwrap_err();
        assert_eq!(
            e.message(),
            "unknown option 'min_fna' for rule set gb (did you mean 'min_fan'?)"
        );
        let e = r.set("no_such_option", &OptValue::Bool(true)).unwrap_err();
        assert_eq!(
            e.message(),
            "unknown option 'no_such_option' for rule set gb"
        );
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn values_are_checked_before_anything_changes() {
        let mut r = Rules::named("huainan").unwrap();
        for (k, v) in [
            ("cap", OptValue::Int(4_294_967_295)),
            ("cap", OptValue::Int(0)),
            ("base_points", OptValue::Bool(true)),
            ("jiebao", OptValue::Int(1)),
            ("scoring_mode", OptValue::Str("MULTIPLICATIVE".into())),
        ] {
            let e = r.set(k, &v).unwrap_err();
            assert!(
                e.message().starts_with(&format!("option '{k}' takes ")),
                "{e}"
            );
        }
        assert_eq!(r, Rules::named("huainan").unwrap());
    }
}
