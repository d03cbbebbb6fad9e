//! Short paths for the arguments and results of the most frequent oracle calls: a
//! concealed hand given as a list or tuple of int codes or as MPSZ text, and a list of
//! tile codes built from a bit mask. The reader returns `None` for anything unusual, and
//! the caller then goes through [`super::convert`], which reads every form and names
//! every problem.

use crate::tile::{self, Counts};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

/// The most tiles a concealed hand can hold.
const MAX_TILES: usize = 18;

/// Adds one tile given as a plain int code 0-33; false for anything else or a fifth copy.
#[inline]
fn add_code(c: &mut Counts, item: &Bound<'_, PyAny>) -> bool {
    if !item.is_exact_instance_of::<PyInt>() {
        return false;
    }
    let t = match item.extract::<i64>() {
        Ok(t @ 0..=33) => t as usize,
        _ => return false,
    };
    if c[t] >= 4 {
        return false;
    }
    c[t] += 1;
    true
}

/// Adds every item of an iterator of int codes; the number of tiles, or `None` when an
/// item is not a plain code, a kind reaches a fifth copy or there are too many tiles.
#[inline]
fn add_codes<'py>(
    c: &mut Counts,
    n: usize,
    items: impl Iterator<Item = Bound<'py, PyAny>>,
) -> Option<usize> {
    if n > MAX_TILES {
        return None;
    }
    for item in items {
        if !add_code(c, &item) {
            return None;
        }
    }
    Some(n)
}

/// The counts and the number of tiles of a concealed hand given as a list or tuple of
/// plain int codes 0-33 or as MPSZ text without flowers, at most four copies of a kind
/// and at most 18 tiles; `None` for anything else.
pub fn counts(obj: &Bound<'_, PyAny>) -> Option<(Counts, usize)> {
    let mut c = [0u8; 34];
    let n = if let Ok(l) = obj.cast::<PyList>() {
        add_codes(&mut c, l.len(), l.iter())?
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        add_codes(&mut c, t.len(), t.iter())?
    } else if let Ok(s) = obj.cast::<PyString>() {
        // The one MPSZ parser; flowers and fifth copies are left to the full reader.
        let tiles = tile::parse(s.to_str().ok()?).ok()?;
        if tiles.len() > MAX_TILES {
            return None;
        }
        c = tile::to_counts(&tiles).ok()?;
        tiles.len()
    } else {
        return None;
    };
    Some((c, n))
}

/// The kinds in a bit mask (bit `t` for kind `t`) as a Python list of tile codes, in
/// order.
pub fn mask_list<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyList>> {
    let mut bits = mask & ((1u64 << 34) - 1);
    let mut codes = Vec::with_capacity(bits.count_ones() as usize);
    while bits != 0 {
        codes.push(bits.trailing_zeros());
        bits &= bits - 1;
    }
    PyList::new(py, codes)
}
