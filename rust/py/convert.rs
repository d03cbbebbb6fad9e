//! Reading Python arguments: hands (MPSZ text or tile codes), single tiles, melds, rule
//! sets, and the strict readers of plain arguments ([`Int`], [`Flag`], [`Text`]) the
//! bindings take in place of PyO3's own conversions. Every failure names the problem: bad
//! tiles or melds raise `InvalidHandError`, an unknown rule set `RuleError`, an argument of
//! the wrong type `InvalidTypeError`, an integer out of range `InvalidArgumentError`.
// Shared by every binding module; not each one uses every reader.
#![allow(dead_code)]

use super::errors::{InvalidArgumentError, InvalidHandError};
use super::rules::PyRuleSet;
use super::tiles::PyMeld;
use crate::error::MjError;
use crate::hand::Meld;
use crate::rules::{registry, Rules};
use crate::tile::{self, Counts, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyFloat, PyString};
use std::sync::OnceLock;

/// Reads a list of tiles from MPSZ text or an iterable of integer codes (flowers allowed).
pub fn tiles(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(tile::parse(&s.to_cow()?)?);
    }
    if obj.is_instance_of::<PyBytes>() {
        return Err(InvalidHandError::new_err(
            "a hand is MPSZ text or a sequence of tile codes, not bytes",
        ));
    }
    let iter = obj.try_iter().map_err(|_| {
        InvalidHandError::new_err(format!(
            "a hand is MPSZ text or a sequence of tile codes, got {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::with_capacity(14);
    for (i, item) in iter.enumerate() {
        let item = item?;
        out.push(tile_code(&item).map_err(|e| {
            InvalidHandError::new_err(format!("item {i} of the hand: {}", e.value(obj.py())))
        })?);
        if out.len() > 64 {
            return Err(InvalidHandError::new_err(
                "a hand has at most 18 tiles; got more than 64",
            ));
        }
    }
    Ok(out)
}

/// Reads one tile: an integer code 0-41 or MPSZ text of one tile (`"5m"`).
pub fn tile_code(obj: &Bound<'_, PyAny>) -> PyResult<Tile> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        let t = tile::parse(&text)?;
        if t.len() != 1 {
            return Err(InvalidHandError::new_err(format!(
                "{text:?} is not a single tile"
            )));
        }
        return Ok(t[0]);
    }
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(InvalidHandError::new_err(
            "a tile is an int code or MPSZ text, not a bool",
        ));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(tile::check(v)?),
        Err(_) => Err(InvalidHandError::new_err(format!(
            "a tile is an int code 0-41 or MPSZ text, got {}",
            type_name(obj)
        ))),
    }
}

/// Reads concealed tiles into counts (no flowers, at most four copies).
pub fn counts(obj: &Bound<'_, PyAny>) -> PyResult<Counts> {
    Ok(tile::to_counts(&tiles(obj)?)?)
}

/// Reads a sequence of `Meld` objects.
pub fn melds(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Meld>> {
    if obj.is_instance_of::<PyString>() {
        return Err(InvalidHandError::new_err(
            "melds are a sequence of majiang.Meld, not a string",
        ));
    }
    let iter = obj.try_iter().map_err(|_| {
        InvalidHandError::new_err(format!(
            "melds must be a sequence of majiang.Meld, got {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::with_capacity(4);
    for (i, item) in iter.enumerate() {
        let item = item?;
        let m = item.cast::<PyMeld>().map_err(|_| {
            InvalidHandError::new_err(format!(
                "meld {i} is a {}, not a majiang.Meld",
                type_name(&item)
            ))
        })?;
        out.push(m.get().inner);
        if out.len() > 4 {
            return Err(InvalidHandError::new_err("more than 4 melds"));
        }
    }
    Ok(out)
}

/// Reads `rules`: a preset name or a `RuleSet`.
pub fn rules(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    with_rules(obj, |r| Ok(r.clone()))
}

/// The rules of every registered name (rule sets and presets) at their defaults, built
/// once.
fn named_rules(name: &str) -> PyResult<&'static Rules> {
    static NAMED: OnceLock<Vec<(&'static str, Rules)>> = OnceLock::new();
    let table = NAMED.get_or_init(|| {
        registry::names()
            .into_iter()
            .filter_map(|n| Rules::named(n).ok().map(|r| (n, r)))
            .collect()
    });
    match table.iter().find(|(n, _)| *n == name) {
        Some((_, r)) => Ok(r),
        None => Err(registry::unknown(name).into()),
    }
}

/// Calls `f` with the rules `obj` names (a rule set or preset name, or a `RuleSet`),
/// without copying them.
pub fn with_rules<T>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&Rules) -> PyResult<T>) -> PyResult<T> {
    if let Ok(s) = obj.cast::<PyString>() {
        return f(named_rules(&s.to_cow()?)?);
    }
    if let Ok(r) = obj.cast::<PyRuleSet>() {
        return f(&r.get().inner);
    }
    Err(rules_type_error(obj))
}

/// [`with_rules`] for an optional argument (`None` is gb).
pub fn with_rules_or_gb<T>(
    obj: Option<&Bound<'_, PyAny>>,
    f: impl FnOnce(&Rules) -> PyResult<T>,
) -> PyResult<T> {
    match obj {
        Some(o) if !o.is_none() => with_rules(o, f),
        _ => f(named_rules("gb")?),
    }
}

/// The `TypeError` for a `rules` argument that is neither a name nor a `RuleSet`.
pub fn rules_type_error(obj: &Bound<'_, PyAny>) -> PyErr {
    super::errors::type_error(format!(
        "rules must be a rule set name ({}) or a RuleSet, got {}",
        registry::names().join(", "),
        type_name(obj)
    ))
}

/// Reads a seed argument, `0 <= seed < 2**64` (a `ValueError` naming `what` otherwise; a
/// non-int is a `TypeError` from the argument's extraction).
pub fn seed(what: &str, value: i128) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| {
        MjError::argument(format!("{what} must be 0 <= {what} < 2**64, got {value}")).into()
    })
}

/// Tile codes as a list of Python ints (a `Vec<u8>` would become `bytes`).
pub fn codes(tiles: &[Tile]) -> Vec<u32> {
    tiles.iter().map(|&t| t as u32).collect()
}

/// The Python type name of an object, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string())
}

// ---- strict plain arguments --------------------------------------------------------------
//
// PyO3's own conversions take a bool for an int (`True` is 1), raise its plain `TypeError`
// and `OverflowError`, and say nothing of the range. These readers raise majiang's errors
// instead; PyO3 adds the argument's name as a note ("while processing 'seed'").

/// The range of an integer type an [`Int`] argument is read into.
pub trait IntRange: Sized + Copy + TryFrom<i128> {
    /// The smallest value.
    const LO: i128;
    /// The largest value.
    const HI: i128;
}

macro_rules! int_range {
    ($($t:ty),*) => {$(
        impl IntRange for $t {
            const LO: i128 = <$t>::MIN as i128;
            const HI: i128 = <$t>::MAX as i128;
        }
    )*};
}
int_range!(u8, u16, u32, u64, usize, i8, i16, i32, i64, i128);

/// Reads an integer strictly: an `int` or an object with `__index__` (numpy integers), never
/// a bool, a float (not rounded) or a complex (`InvalidTypeError`); an integer beyond
/// 128 bits is out of range (`InvalidArgumentError`).
pub fn strict_int(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() {
        return Err(super::errors::type_error(
            "an int is needed, not a bool (True is not 1 here)",
        ));
    }
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyComplex>() {
        return Err(super::errors::type_error(format!(
            "an int is needed, not a {} (no rounding)",
            type_name(obj)
        )));
    }
    if !obj.hasattr("__index__").unwrap_or(false) {
        return Err(super::errors::type_error(format!(
            "an int is needed, not {}",
            type_name(obj)
        )));
    }
    obj.extract::<i128>().map_err(|e| {
        if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) {
            InvalidArgumentError::new_err(format!(
                "out of range: an int of {} bits, larger than any argument takes",
                obj.call_method0("bit_length")
                    .and_then(|b| b.extract::<u64>())
                    .unwrap_or(0)
            ))
        } else if e.is_instance_of::<pyo3::exceptions::PyTypeError>(obj.py()) {
            super::errors::type_error(format!("an int is needed, not {}", type_name(obj)))
        } else {
            e
        }
    })
}

/// An integer argument of type `T`, read by [`strict_int`] and checked against `T`'s
/// range (`InvalidArgumentError` naming the range; an argument with a narrower range
/// checks it after, with its own name).
#[derive(Clone, Copy, Debug)]
pub struct Int<T>(pub T);

impl<'a, 'py, T: IntRange> FromPyObject<'a, 'py> for Int<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let v = strict_int(&obj)?;
        T::try_from(v).map(Int).map_err(|_| {
            InvalidArgumentError::new_err(format!(
                "{v} is out of range: an int between {} and {} is needed",
                T::LO,
                T::HI
            ))
        })
    }
}

/// A flag argument: `True` or `False` (a numpy bool too), never an int or a string
/// (`InvalidTypeError`).
#[derive(Clone, Copy, Debug)]
pub struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        obj.extract::<bool>().map(Flag).map_err(|_| {
            super::errors::type_error(format!(
                "a bool (True or False) is needed, not {}",
                type_name(&obj)
            ))
        })
    }
}

/// A text argument: a `str`, never bytes or a number (`InvalidTypeError`).
#[derive(Clone, Debug)]
pub struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.cast::<PyString>() {
            Ok(s) => Ok(Text(s.to_cow()?.into_owned())),
            Err(_) => Err(super::errors::type_error(format!(
                "a str is needed, not {}",
                type_name(&obj)
            ))),
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}
