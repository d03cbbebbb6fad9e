//! The option machinery every option struct is built from: the option groups, option
//! values, their domains and the per-option table.
//!
//! This module is a leaf: the option structs (`FanOptions` in `fan`, `TableOptions` in
//! `table`, `HuainanOptions` in `huainan`) are declared with
//! [`option_group!`](crate::option_group) and [`str_option!`](crate::str_option) from
//! here, and `rules::Rules` composes them. Each option carries an [`OptSpec`]: its name,
//! the [`Group`] it belongs to, the values it accepts ([`Domain`]) and its documentation,
//! so the checks read a table instead of per-option code. A rule set plays a set of groups
//! ([`GroupSet`]) and has exactly their options.

use crate::error::{MjError, MjResult};
use std::fmt;

/// The option groups. Every option belongs to one group, and a rule set lists the groups
/// it plays ([`crate::rules::RuleSetDef::groups`]): a rule set has exactly the options of
/// its groups. Groups name parts of the rules, never rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// The flow of play every rule set shares: the wall, claims, kongs, the dealer and
    /// the winds, the match length.
    Flow,
    /// The table variants of the fan-priced rule sets: private walls, how the opening
    /// flowers are replaced.
    Walls,
    /// Fan scoring: the minimum, flowers, the MCR readings.
    Fans,
    /// Payments priced in fans: the settlement formula, its base, false-win penalties.
    FanPayments,
    /// Declared ready (报听) and what it locks.
    Ready,
    /// Wild tiles turned up by an indicator (宝): the indicator, where wilds count, the
    /// forms and multipliers they price.
    Bao,
}

impl Group {
    /// Every group, in the order of the option tables.
    pub const ALL: [Group; 6] = [
        Group::Flow,
        Group::Walls,
        Group::Fans,
        Group::FanPayments,
        Group::Ready,
        Group::Bao,
    ];

    /// The group's name, as option tables and errors show it.
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Flow => "flow",
            Group::Walls => "walls",
            Group::Fans => "fans",
            Group::FanPayments => "fan_payments",
            Group::Ready => "ready",
            Group::Bao => "bao",
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of option groups (the groups a rule set plays).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct GroupSet(u8);

impl GroupSet {
    /// The set of `groups`.
    pub const fn of(groups: &[Group]) -> GroupSet {
        let mut bits = 0u8;
        let mut i = 0;
        while i < groups.len() {
            bits |= 1 << groups[i] as u8;
            i += 1;
        }
        GroupSet(bits)
    }

    /// True if `g` is in the set.
    pub fn contains(self, g: Group) -> bool {
        self.0 & g.bit() != 0
    }

    /// The groups in the set, in [`Group::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Group> {
        Group::ALL.into_iter().filter(move |g| self.contains(*g))
    }
}

/// The value of one option.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OptValue {
    /// A switch.
    Bool(bool),
    /// A number.
    Int(i64),
    /// One of a fixed set of names.
    Str(String),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Bool(b) => write!(f, "{b}"),
            OptValue::Int(i) => write!(f, "{i}"),
            OptValue::Str(s) => write!(f, "{s:?}"),
        }
    }
}

/// The values an option accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// `true` or `false`.
    Bool,
    /// An integer from `min` to `max`, both included.
    Int {
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// One of these names.
    Choice(&'static [&'static str]),
}

impl Domain {
    /// True if `v` is one of the accepted values.
    pub fn accepts(&self, v: &OptValue) -> bool {
        match (self, v) {
            (Domain::Bool, OptValue::Bool(_)) => true,
            (Domain::Int { min, max }, OptValue::Int(i)) => (*min..=*max).contains(i),
            (Domain::Choice(names), OptValue::Str(s)) => names.contains(&s.as_str()),
            _ => false,
        }
    }
}

impl fmt::Display for Domain {
    /// What the option takes, as a phrase: `true or false`, `an integer from 1 to 64`,
    /// `one of "a", "b"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Domain::Bool => f.write_str("true or false"),
            Domain::Int { min, max } => write!(f, "an integer from {min} to {max}"),
            Domain::Choice(names) => {
                f.write_str("one of ")?;
                for (i, n) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{n:?}")?;
                }
                Ok(())
            }
        }
    }
}

/// One row of an option table: everything known about an option besides its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptSpec {
    /// The option's name (its field name in the group).
    pub name: &'static str,
    /// The group it belongs to.
    pub group: Group,
    /// The values it accepts.
    pub domain: Domain,
    /// Its documentation (the field's doc comment).
    pub doc: &'static str,
}

impl OptSpec {
    /// The error for a value this option does not accept; `got` describes the value.
    pub fn reject(&self, got: &str) -> MjError {
        MjError::rule(format!(
            "option '{}' takes {}, got {got}",
            self.name, self.domain
        ))
    }

    /// Checks `v` against the domain.
    pub fn check(&self, v: &OptValue) -> MjResult<()> {
        if self.domain.accepts(v) {
            Ok(())
        } else {
            Err(self.reject(&v.to_string()))
        }
    }
}

/// A type an option can hold: its domain and the conversions to and from [`OptValue`].
pub trait OptType: Sized {
    /// The values of the type, before an option narrows an integer range.
    const DOMAIN: Domain;
    /// The value as an [`OptValue`].
    fn to_opt(&self) -> OptValue;
    /// Reads the value, naming `key` in the error.
    fn from_opt(key: &str, v: &OptValue) -> MjResult<Self>;
}

impl OptType for bool {
    const DOMAIN: Domain = Domain::Bool;
    fn to_opt(&self) -> OptValue {
        OptValue::Bool(*self)
    }
    fn from_opt(key: &str, v: &OptValue) -> MjResult<Self> {
        match v {
            OptValue::Bool(b) => Ok(*b),
            other => Err(MjError::rule(format!(
                "option '{key}' takes true or false, got {other}"
            ))),
        }
    }
}

macro_rules! int_opt_type {
    ($($t:ty),*) => {$(
        impl OptType for $t {
            const DOMAIN: Domain = Domain::Int { min: <$t>::MIN as i64, max: <$t>::MAX as i64 };
            fn to_opt(&self) -> OptValue {
                OptValue::Int(*self as i64)
            }
            fn from_opt(key: &str, v: &OptValue) -> MjResult<Self> {
                match v {
                    OptValue::Int(i) => <$t>::try_from(*i).map_err(|_| {
                        MjError::rule(format!(
                            "option '{key}' takes {}, got {i}", Self::DOMAIN
                        ))
                    }),
                    other => Err(MjError::rule(format!(
                        "option '{key}' takes {}, got {other}", Self::DOMAIN
                    ))),
                }
            }
        }
    )*};
}
int_opt_type!(u8, u16, u32, i32);

/// Declares an enum whose variants are option values written as names
/// (`str_option! { pub enum Mode { A = "a", B = "b" } }`).
#[macro_export]
macro_rules! str_option {
    ($(#[$m:meta])* pub enum $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $var),+ }
        impl $name {
            /// The option value's name.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }
        }
        impl $crate::options::OptType for $name {
            const DOMAIN: $crate::options::Domain = $crate::options::Domain::Choice(&[$($s),+]);
            fn to_opt(&self) -> $crate::options::OptValue {
                $crate::options::OptValue::Str(self.as_str().to_string())
            }
            fn from_opt(key: &str, v: &$crate::options::OptValue) -> $crate::error::MjResult<Self> {
                match v {
                    $($crate::options::OptValue::Str(s) if s == $s => Ok($name::$var),)+
                    other => Err($crate::error::MjError::rule(format!(
                        "option '{key}' takes {}, got {other}",
                        <Self as $crate::options::OptType>::DOMAIN
                    ))),
                }
            }
        }
    };
}

/// The domain of an option of type `$ty`, narrowed to `$lo..=$hi` when given.
#[doc(hidden)]
#[macro_export]
macro_rules! option_domain {
    ($ty:ty) => {
        <$ty as $crate::options::OptType>::DOMAIN
    };
    ($ty:ty, $lo:literal, $hi:literal) => {
        $crate::options::Domain::Int { min: $lo, max: $hi }
    };
}

/// Declares an option group: a struct whose fields are options with their defaults, and
/// the [`OptionGroup`] impl with the group's option table.
///
/// Each field reads `pub name: Type = default => Group` or, for an integer,
/// `pub name: Type = default => Group in lo..=hi`, where `Group` is a [`Group`] variant
/// (the part of the rules the option belongs to) and `lo..=hi` the values it accepts. The
/// doc comment of a field is the option's documentation.
#[macro_export]
macro_rules! option_group {
    ($(#[$m:meta])* pub struct $name:ident {
        $($(#[doc = $doc:literal])* pub $field:ident : $ty:ty = $default:expr
            => $group:ident $(in $lo:literal ..= $hi:literal)?),* $(,)?
    }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name { $($(#[doc = $doc])* pub $field: $ty),* }
        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default),* }
            }
        }
        impl $crate::options::OptionGroup for $name {
            const SPECS: &'static [$crate::options::OptSpec] = &[$(
                $crate::options::OptSpec {
                    name: stringify!($field),
                    group: $crate::options::Group::$group,
                    domain: $crate::option_domain!($ty $(, $lo, $hi)?),
                    doc: concat!($($doc, "\n"),*),
                }
            ),*];
            fn list(&self) -> Vec<(&'static str, $crate::options::OptValue)> {
                vec![$((stringify!($field), $crate::options::OptType::to_opt(&self.$field))),*]
            }
            #[allow(unused_variables)]
            fn set(
                &mut self,
                key: &str,
                v: &$crate::options::OptValue,
            ) -> Option<$crate::error::MjResult<()>> {
                let i = Self::SPECS.iter().position(|s| s.name == key)?;
                if let Err(e) = Self::SPECS[i].check(v) {
                    return Some(Err(e));
                }
                match key {
                    $(stringify!($field) => Some(
                        <$ty as $crate::options::OptType>::from_opt(key, v).map(|x| self.$field = x)
                    ),)*
                    _ => None,
                }
            }
        }
    };
}

/// A group of named options with its option table.
pub trait OptionGroup {
    /// The option table: one row per option, in declaration order.
    const SPECS: &'static [OptSpec];
    /// Every option of the group with its current value, in the order of [`Self::SPECS`].
    fn list(&self) -> Vec<(&'static str, OptValue)>;
    /// Sets `key` if it belongs to this group (`None` if it does not); the value is
    /// checked against the option's domain. Whether the rule set plays the option's group
    /// is the caller's business ([`crate::rules::Rules::set`] checks it).
    fn set(&mut self, key: &str, v: &OptValue) -> Option<MjResult<()>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::option_group! {
        /// A group for testing the macros.
        pub struct Demo {
            /// A switch.
            pub flag: bool = true => Flow,
            /// A number.
            /// On two lines.
            pub n: u8 = 8 => Fans in 1..=16,
            /// A number with the type's range.
            pub wide: u16 = 3 => Bao,
            /// A choice.
            pub mode: DemoMode = DemoMode::A => Ready,
        }
    }
    crate::str_option! {
        /// A choice for testing.
        pub enum DemoMode { A = "a", B = "b" }
    }

    #[test]
    fn the_macro_builds_the_table() {
        let specs = Demo::SPECS;
        assert_eq!(specs.len(), 4);
        assert_eq!(specs[0].domain, Domain::Bool);
        assert_eq!(specs[1].domain, Domain::Int { min: 1, max: 16 });
        assert_eq!(specs[1].doc, " A number.\n On two lines.\n");
        assert_eq!(specs[1].group, Group::Fans);
        assert_eq!(specs[2].domain, Domain::Int { min: 0, max: 65535 });
        assert_eq!(specs[3].domain, Domain::Choice(&["a", "b"]));
        let names: Vec<&str> = Demo::default().list().iter().map(|(k, _)| *k).collect();
        let table: Vec<&str> = specs.iter().map(|s| s.name).collect();
        assert_eq!(names, table);
    }

    #[test]
    fn set_checks_the_domain_and_names_the_option() {
        let mut d = Demo::default();
        d.set("n", &OptValue::Int(6)).unwrap().unwrap();
        assert_eq!(d.n, 6);
        d.set("mode", &OptValue::Str("b".into())).unwrap().unwrap();
        assert_eq!(d.mode, DemoMode::B);
        let err = |k: &str, v: OptValue| d.clone().set(k, &v).unwrap().unwrap_err();
        let e = err("mode", OptValue::Str("c".into()));
        assert_eq!(
            e.message(),
            r#"option 'mode' takes one of "a", "b", got "c""#
        );
        let e = err("n", OptValue::Int(17));
        assert_eq!(
            e.message(),
            "option 'n' takes an integer from 1 to 16, got 17"
        );
        assert!(err("n", OptValue::Int(0))
            .message()
            .contains("from 1 to 16"));
        assert!(err("n", OptValue::Bool(true)).message().contains("integer"));
        let e = err("flag", OptValue::Int(1));
        assert_eq!(e.message(), "option 'flag' takes true or false, got 1");
        assert!(err("wide", OptValue::Int(65536))
            .message()
            .contains("0 to 65535"));
        assert!(d.set("nope", &OptValue::Int(1)).is_none());
        let expected = Demo {
            n: 6,
            mode: DemoMode::B,
            ..Demo::default()
        };
        assert_eq!(d, expected);
    }

    #[test]
    fn group_sets_hold_their_groups() {
        let set = GroupSet::of(&[Group::Flow, Group::Bao]);
        assert!(set.contains(Group::Flow) && set.contains(Group::Bao));
        assert!(!set.contains(Group::Fans));
        assert_eq!(set.iter().collect::<Vec<_>>(), [Group::Flow, Group::Bao]);
        assert_eq!(GroupSet::of(&Group::ALL).iter().count(), Group::ALL.len());
        let names: Vec<&str> = Group::ALL.iter().map(|g| g.as_str()).collect();
        assert_eq!(
            names,
            ["flow", "walls", "fans", "fan_payments", "ready", "bao"]
        );
    }

    #[test]
    fn type_conversions_refuse_what_does_not_fit() {
        assert!(u8::from_opt("k", &OptValue::Int(256)).is_err());
        assert!(u32::from_opt("k", &OptValue::Int(-1)).is_err());
        assert_eq!(i32::from_opt("k", &OptValue::Int(-5)).unwrap(), -5);
        assert!(bool::from_opt("k", &OptValue::Str("true".into())).is_err());
        assert!(DemoMode::from_opt("k", &OptValue::Int(0)).is_err());
    }
}
