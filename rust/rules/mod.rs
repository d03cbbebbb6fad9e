//! Rule sets, presets and their options.
//!
//! Every rule set is one [`RuleSetDef`] in the registry ([`registry::RULE_SETS`]): its name
//! and aliases, the option groups it plays, its hand forms, the engine that plays its hands,
//! its scoring unit, its defaults and its documentation page. Presets
//! ([`registry::PRESETS`]) are named option bundles over a rule set (`botzone` is gb on
//! Botzone's table). Nothing else in the crate lists the rule sets: the layers below take
//! their own option group ([`crate::fan::FanOptions`], [`crate::table::TableOptions`],
//! [`crate::huainan::HuainanOptions`]) or the rule set's forms, and the layers above ask the
//! definition (its [`Engine`], its groups).
//!
//! A [`Rules`] value is a rule set plus its option groups. Every decision docs/rules/
//! labels G-n, C-n or D-n is an option whose default is the documented one. Options are
//! read and written by name, so Python (`mj.RuleSet("gb", min_fan=6)`) and records can
//! carry them. A rule set has exactly the options of its groups: [`Rules::options`] lists
//! them and [`Rules::set`] refuses another rule set's option, an unknown name or a value
//! outside the option's domain.
//!
//! # Adding a rule set
//!
//! One module here with its [`RuleSetDef`] (and, when its hands play by rules no engine
//! has, an engine: a variant of [`Engine`] and its implementation of the round's rule-set
//! trait, `round::ruleset`), one line in [`registry::RULE_SETS`], one page in docs/rules/.
//! The compiler names the matches on [`Engine`]; the conformance tests run every
//! registered rule set and preset through play, scoring, records and the bots.

mod classic;
#[cfg(test)]
mod conformance;
mod gb;
mod huainan;
pub mod registry;
#[cfg(test)]
mod toy;

use crate::error::{MjError, MjResult};
use crate::fan::FanOptions;
use crate::huainan::HuainanOptions;
pub use crate::options::{Domain, Group, GroupSet, OptSpec, OptType, OptValue, OptionGroup};
use crate::shanten::Forms;
use crate::table::TableOptions;
pub use registry::{Engine, Preset, PresetValue, RuleSetDef, ScoreUnit, PRESETS, RULE_SETS};
use std::fmt;
use std::hash::{Hash, Hasher};

/// A registered rule set: a handle on its [`RuleSetDef`], compared and hashed by name.
#[derive(Clone, Copy)]
pub struct RuleSetId(&'static RuleSetDef);

impl RuleSetId {
    /// The rule set named `name` (a name or an alias), if registered.
    pub fn find(name: &str) -> Option<RuleSetId> {
        registry::find(name).map(RuleSetId)
    }
    /// Every registered rule set.
    pub fn all() -> impl Iterator<Item = RuleSetId> {
        RULE_SETS.iter().map(|d| RuleSetId(d))
    }
    /// The rule set's name.
    pub fn as_str(self) -> &'static str {
        self.0.name
    }
    /// Its definition.
    pub fn def(self) -> &'static RuleSetDef {
        self.0
    }
}

impl std::ops::Deref for RuleSetId {
    type Target = RuleSetDef;
    fn deref(&self) -> &RuleSetDef {
        self.0
    }
}

impl PartialEq for RuleSetId {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for RuleSetId {}

impl Hash for RuleSetId {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.name.hash(state)
    }
}

impl fmt::Debug for RuleSetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RuleSetId({:?})", self.0.name)
    }
}

/// A complete rule configuration: a rule set and the values of its options.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The rule set.
    pub kind: RuleSetId,
    /// The preset this configuration was built from, if any (kept for display; equality
    /// and hashing read the rule set and the option values only).
    pub preset: Option<&'static Preset>,
    /// Scoring options (group `Fans`).
    pub fan: FanOptions,
    /// Flow-of-play options (groups `Flow`, `Walls`, `FanPayments`, `Ready`).
    pub table: TableOptions,
    /// 宝 options (group `Bao`).
    pub huainan: HuainanOptions,
}

impl PartialEq for Rules {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.fan == other.fan
            && self.table == other.table
            && self.huainan == other.huainan
    }
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

/// `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names.split_last() {
        None => "no rule set".to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
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
    /// The rule set `kind` with every option at its documented default.
    pub fn preset(kind: RuleSetId) -> Self {
        let mut rules = Rules {
            kind,
            preset: None,
            fan: FanOptions::default(),
            table: TableOptions::default(),
            huainan: HuainanOptions::default(),
        };
        (kind.defaults)(&mut rules);
        rules
    }

    /// The rule set or preset named `name`: a registered rule set (by name or alias) at
    /// its defaults, or a preset's options over its rule set.
    pub fn named(name: &str) -> MjResult<Self> {
        if let Some(kind) = RuleSetId::find(name) {
            return Ok(Self::preset(kind));
        }
        match registry::preset(name) {
            Some(p) => p.rules(),
            None => Err(registry::unknown(name)),
        }
    }

    /// The gb rule set at its defaults.
    pub fn gb() -> Self {
        Self::named("gb").expect("gb is registered")
    }

    /// The rule set's definition.
    pub fn def(&self) -> &'static RuleSetDef {
        self.kind.def()
    }

    /// The hand forms the rule set's wins take.
    pub fn forms(&self) -> Forms {
        self.kind.forms
    }

    /// True if the rule set plays option group `g`.
    pub fn has(&self, g: Group) -> bool {
        self.kind.groups.contains(g)
    }

    /// A short name for people and messages: the preset's or the rule set's name, with the
    /// options that differ from it (`gb`, `botzone`, `gb (min_fan=6)`).
    pub fn label(&self) -> String {
        let base_name = self.preset.map_or(self.kind.as_str(), |p| p.name);
        let base = match self.preset {
            Some(p) => p.rules().unwrap_or_else(|_| Rules::preset(self.kind)),
            None => Rules::preset(self.kind),
        };
        let changed: Vec<String> = self
            .options()
            .into_iter()
            .zip(base.options())
            .filter(|(a, b)| a.1 != b.1)
            .map(|((k, v), _)| format!("{k}={v}"))
            .collect();
        if changed.is_empty() {
            base_name.to_string()
        } else {
            format!("{base_name} ({})", changed.join(", "))
        }
    }

    /// The 宝 options when the rule set plays wild tiles (group `Bao`).
    pub fn bao(&self) -> Option<&HuainanOptions> {
        self.has(Group::Bao).then_some(&self.huainan)
    }

    /// The option table of a rule set: the rows of its own options, group by group.
    pub fn specs(kind: RuleSetId) -> impl Iterator<Item = &'static OptSpec> {
        all_specs().filter(move |s| kind.groups.contains(s.group))
    }

    /// The row of option `key`, if it belongs to this rule set. An option of another rule
    /// set is an error naming the rule sets it belongs to; an unknown name is an error
    /// suggesting the closest names of this rule set.
    pub fn spec(&self, key: &str) -> MjResult<&'static OptSpec> {
        let kind = self.kind.as_str();
        if let Some(spec) = all_specs().find(|s| s.name == key) {
            if self.has(spec.group) {
                return Ok(spec);
            }
            let owners: Vec<&str> = RULE_SETS
                .iter()
                .filter(|d| d.groups.contains(spec.group))
                .map(|d| d.name)
                .collect();
            return Err(MjError::rule(format!(
                "option '{key}' belongs to {}, not {kind}",
                and_list(&owners)
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
            .filter(|(spec, _)| self.has(spec.group))
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
        assert_eq!(Rules::named("classic").unwrap().kind.as_str(), "classic");
        assert_eq!(Rules::named("mcr").unwrap(), Rules::gb());
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
        for kind in RuleSetId::all() {
            let r = Rules::preset(kind);
            for (spec, v) in rows(&r) {
                assert!(!spec.doc.trim().is_empty(), "{} has no doc", spec.name);
                assert!(spec.domain.accepts(&v), "{} = {v} in {kind:?}", spec.name);
            }
        }
    }

    #[test]
    fn integer_ranges_fit_their_fields_and_32_bit_results() {
        for kind in RuleSetId::all() {
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
        for kind in RuleSetId::all() {
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
        // The tests' own rule set (toy) plays the fan groups too.
        assert_eq!(
            e.message(),
            "option 'min_fan' belongs to gb, classic and toy, not huainan"
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
