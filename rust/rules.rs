//! Rule sets and their options.
//!
//! A [`Rules`] value is a preset (`gb`, `classic`, `huainan`) plus option groups, one per
//! part of the engine: [`crate::fan::FanOptions`] for scoring,
//! [`crate::round::TableOptions`] for the flow of play and
//! [`crate::huainan::HuainanOptions`] for the 宝 rules. Every decision docs/rules/ labels
//! G-n, C-n or D-n is an option whose default is the documented one. Options are read and written
//! by name, so Python (`mj.RuleSet("gb", min_fan=6)`) and records can carry them.

use crate::error::{MjError, MjResult};
use std::fmt;

/// The three rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSetKind {
    /// Chinese Official / MCR: 144 tiles with flowers, 81 fans, 8-fan minimum.
    Gb,
    /// ClassicFour (docs/rules/classic.md): 136 tiles, no flowers, declared ready.
    Classic,
    /// Huainan: 136 tiles, four wild 宝 tiles, its own forms.
    Huainan,
}

impl RuleSetKind {
    /// The preset's name.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSetKind::Gb => "gb",
            RuleSetKind::Classic => "classic",
            RuleSetKind::Huainan => "huainan",
        }
    }
    /// Parses a preset name.
    pub fn parse(s: &str) -> MjResult<Self> {
        match s {
            "gb" => Ok(RuleSetKind::Gb),
            "classic" => Ok(RuleSetKind::Classic),
            "huainan" => Ok(RuleSetKind::Huainan),
            _ => Err(MjError::rule(format!(
                "unknown rule set {s:?} (expected gb, classic or huainan)"
            ))),
        }
    }
}

/// The value of one option.
#[derive(Debug, Clone, PartialEq, Eq)]
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
            OptValue::Str(s) => write!(f, "{s}"),
        }
    }
}

/// A type an option can hold: converts to and from [`OptValue`].
pub trait OptType: Sized {
    /// The value as an [`OptValue`].
    fn to_opt(&self) -> OptValue;
    /// Reads the value, naming `key` in the error.
    fn from_opt(key: &str, v: &OptValue) -> MjResult<Self>;
}

impl OptType for bool {
    fn to_opt(&self) -> OptValue {
        OptValue::Bool(*self)
    }
    fn from_opt(key: &str, v: &OptValue) -> MjResult<Self> {
        match v {
            OptValue::Bool(b) => Ok(*b),
            other => Err(MjError::rule(format!(
                "option {key} takes true or false, got {other}"
            ))),
        }
    }
}

macro_rules! int_opt_type {
    ($($t:ty),*) => {$(
        impl OptType for $t {
            fn to_opt(&self) -> OptValue {
                OptValue::Int(*self as i64)
            }
            fn from_opt(key: &str, v: &OptValue) -> MjResult<Self> {
                match v {
                    OptValue::Int(i) => <$t>::try_from(*i).map_err(|_| {
                        MjError::rule(format!("option {key}: {i} is out of range for {}", stringify!($t)))
                    }),
                    other => Err(MjError::rule(format!("option {key} takes a number, got {other}"))),
                }
            }
        }
    )*};
}
int_opt_type!(u8, u16, u32, i32, i64);

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
        impl $crate::rules::OptType for $name {
            fn to_opt(&self) -> $crate::rules::OptValue {
                $crate::rules::OptValue::Str(self.as_str().to_string())
            }
            fn from_opt(key: &str, v: &$crate::rules::OptValue) -> $crate::error::MjResult<Self> {
                let names: &[&str] = &[$($s),+];
                match v {
                    $($crate::rules::OptValue::Str(s) if s == $s => Ok($name::$var),)+
                    other => Err($crate::error::MjError::rule(format!(
                        "option {key}: {other} is not one of {}", names.join(", ")
                    ))),
                }
            }
        }
    };
}

/// Declares an option group: a struct whose fields are options with their defaults, and
/// the [`OptionGroup`] impl that lists and sets them by field name. Doc comments on the
/// fields are the options' documentation.
#[macro_export]
macro_rules! option_group {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* pub $field:ident : $ty:ty = $default:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name { $($(#[$fm])* pub $field: $ty),* }
        impl Default for $name {
            fn default() -> Self {
                Self { $($field: $default),* }
            }
        }
        impl $crate::rules::OptionGroup for $name {
            fn list(&self) -> Vec<(&'static str, $crate::rules::OptValue)> {
                vec![$((stringify!($field), $crate::rules::OptType::to_opt(&self.$field))),*]
            }
            #[allow(unused_variables)]
            fn set(&mut self, key: &str, v: &$crate::rules::OptValue) -> Option<$crate::error::MjResult<()>> {
                match key {
                    $(stringify!($field) => Some(
                        <$ty as $crate::rules::OptType>::from_opt(key, v).map(|x| self.$field = x)
                    ),)*
                    _ => None,
                }
            }
        }
    };
}

/// A group of named options.
pub trait OptionGroup {
    /// Every option of the group with its current value.
    fn list(&self) -> Vec<(&'static str, OptValue)>;
    /// Sets `key` if it belongs to this group (`None` if it does not).
    fn set(&mut self, key: &str, v: &OptValue) -> Option<MjResult<()>>;
}

/// A complete rule configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// Which preset this configuration starts from.
    pub kind: RuleSetKind,
    /// Scoring options.
    pub fan: crate::fan::FanOptions,
    /// Flow-of-play options (wall, claims, settlement, match length).
    pub table: crate::round::TableOptions,
    /// Huainan 宝 options (used when `kind` is Huainan).
    pub huainan: crate::huainan::HuainanOptions,
}

impl Rules {
    /// The preset with every option at the spec's default.
    pub fn preset(kind: RuleSetKind) -> Self {
        Rules {
            kind,
            fan: crate::fan::FanOptions::for_rules(kind),
            table: crate::round::TableOptions::for_rules(kind),
            huainan: crate::huainan::HuainanOptions::default(),
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

    /// Every option with its value, group by group.
    pub fn options(&self) -> Vec<(&'static str, OptValue)> {
        let mut v = self.fan.list();
        v.extend(self.table.list());
        v.extend(self.huainan.list());
        v
    }

    /// Sets one option by name.
    pub fn set(&mut self, key: &str, v: &OptValue) -> MjResult<()> {
        if let Some(r) = self.fan.set(key, v) {
            return r;
        }
        if let Some(r) = self.table.set(key, v) {
            return r;
        }
        if let Some(r) = self.huainan.set(key, v) {
            return r;
        }
        Err(MjError::rule(format!(
            "unknown option {key:?} for rule set {}",
            self.kind.as_str()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    option_group! {
        /// A group for testing the macros.
        pub struct Demo {
            /// A switch.
            pub flag: bool = true,
            /// A number.
            pub n: u8 = 8,
            /// A choice.
            pub mode: DemoMode = DemoMode::A,
        }
    }
    str_option! {
        /// A choice for testing.
        pub enum DemoMode { A = "a", B = "b" }
    }

    #[test]
    fn option_groups_list_and_set() {
        let mut d = Demo::default();
        assert_eq!(d.list().len(), 3);
        d.set("n", &OptValue::Int(6)).unwrap().unwrap();
        assert_eq!(d.n, 6);
        d.set("mode", &OptValue::Str("b".into())).unwrap().unwrap();
        assert_eq!(d.mode, DemoMode::B);
        assert!(d.set("mode", &OptValue::Str("c".into())).unwrap().is_err());
        assert!(d.set("n", &OptValue::Int(300)).unwrap().is_err());
        assert!(d.set("flag", &OptValue::Int(1)).unwrap().is_err());
        assert!(d.set("nope", &OptValue::Int(1)).is_none());
    }

    #[test]
    fn presets_by_name() {
        assert_eq!(Rules::named("classic").unwrap().kind, RuleSetKind::Classic);
        assert!(Rules::named("riichi")
            .unwrap_err()
            .message()
            .contains("riichi"));
        let mut r = Rules::gb();
        assert!(r.set("no_such_option", &OptValue::Bool(true)).is_err());
    }
}
