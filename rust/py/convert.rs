//! Reading Python arguments: hands (MPSZ text or tile codes), single tiles, melds and
//! rule sets. Every failure names the problem: bad tiles or melds raise `InvalidHandError`,
//! an unknown rule set `RuleError`, an argument of the wrong type `TypeError`.
// Shared by every binding module; not each one uses every reader.
#![allow(dead_code)]

use super::errors::InvalidHandError;
use super::rules::PyRuleSet;
use super::tiles::PyMeld;
use crate::error::MjError;
use crate::hand::Meld;
use crate::rules::{registry, Rules};
use crate::tile::{self, Counts, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
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
