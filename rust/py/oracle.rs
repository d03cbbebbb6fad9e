//! Python bindings for the oracle: shanten, forms, useful tiles, waits, wins, batches.

use super::convert::{self, Text};
use super::errors::InvalidHandError;
use super::quick;
use super::runs;
use crate::error::MjError;
use crate::huainan::oracle::{Oracle, ShapeOptions};
use crate::rules::RULE_SETS;
use crate::shanten::checked::Hand;
use crate::shanten::{self as engine, Form};
use numpy::{PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Reads and validates the common arguments.
fn prepare(
    hand: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    wild: Option<&Bound<'_, PyAny>>,
) -> PyResult<Oracle> {
    convert::with_rules_or_gb(rules, |rules| {
        let forms = rules.forms();
        // A 宝 rule set's shape options (D-7, D-15) change how the wilds read.
        let opts = rules.bao();
        let wild = match wild {
            Some(w) if !w.is_none() => Some(convert::tile_code(w)?),
            _ => None,
        };
        if let Some(w) = wild {
            if !rules.kind.has_wilds() {
                let with: Vec<&str> = RULE_SETS
                    .iter()
                    .filter(|d| d.has_wilds())
                    .map(|d| d.name)
                    .collect();
                return Err(MjError::rule(format!(
                    "wild tiles exist only in {}, not in {} (wild={})",
                    with.join(", "),
                    rules.kind.as_str(),
                    crate::tile::name(w)
                ))
                .into());
            }
        }
        // The short reader first; the full one (which names every problem) for anything it
        // declines.
        let quick = quick::counts(hand);
        if let Some((counts, n @ (13 | 14))) = quick {
            let default_shapes = opts.map_or(true, |o| ShapeOptions::of(o).is_default());
            if default_shapes && melds.is_none() && wild.is_none() {
                // The common query, a bare concealed hand: the short reader has already
                // checked every count, so only the size was left to check.
                return Ok(Oracle::Plain(Hand::concealed(counts, forms, n == 14)));
            }
        }
        let counts = match quick {
            Some((counts, _)) => counts,
            None => convert::counts(hand)?,
        };
        let melds = match melds {
            Some(m) => convert::melds(m)?,
            None => Vec::new(),
        };
        Ok(Oracle::new(&counts, &melds, forms, wild, opts)?)
    })
}

/// Shanten of a hand: 13-3k tiles give the distance to ready (0 = ready), 14-3k tiles
/// the distance to complete (-1 = complete); the minimum over the rule set's hand forms.
/// Exact with respect to the four-copy limit, counting copies in the hand and the melds.
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, rules=None, wild=None))]
fn shanten(
    hand: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    wild: Option<&Bound<'_, PyAny>>,
) -> PyResult<i8> {
    Ok(prepare(hand, melds, rules, wild)?.shanten())
}

/// Shanten per hand form: keys `regular`, `seven_pairs`, `thirteen_orphans`,
/// `honors_knitted`, `knitted_straight` (huainan: `regular`, `seven_pairs`, `shisanlang`,
/// `jiuyao`); a form that
/// cannot apply (e.g. seven pairs with melds) is absent.
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, rules=None, wild=None))]
fn shanten_forms<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    wild: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let h = prepare(hand, melds, rules, wild)?;
    let d = PyDict::new(py);
    for (form, s) in h.forms() {
        d.set_item(form.as_str(), s)?;
    }
    Ok(d)
}

/// Useful tiles of a waiting hand (13-3k tiles): the kinds whose draw lowers the shanten,
/// sorted; a kind whose four copies are all in the hand and its melds is left out.
/// `form` restricts the question to one hand form (a key of `shanten_forms`).
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, rules=None, wild=None, form=None))]
fn useful_tiles<'py>(
    hand: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    wild: Option<&Bound<'py, PyAny>>,
    form: Option<Text>,
) -> PyResult<Bound<'py, PyList>> {
    let h = prepare(hand, melds, rules, wild)?;
    let form = form.map(|f| Form::parse(&f)).transpose()?;
    quick::mask_list(hand.py(), h.useful_mask(form)?)
}

/// Waits of a waiting hand (13-3k tiles): the kinds that complete it in some form (fan
/// minimum not applied), sorted; `[]` if the hand is not ready.
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, rules=None, wild=None))]
fn waits<'py>(
    hand: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    wild: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    quick::mask_list(hand.py(), prepare(hand, melds, rules, wild)?.waits_mask()?)
}

/// True if a full hand (14-3k tiles) is complete in one of the rule set's forms.
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, rules=None, wild=None))]
fn is_win(
    hand: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    wild: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    Ok(prepare(hand, melds, rules, wild)?.is_win()?)
}

/// Shanten of many hands at once: `counts` is an `(N, 34)` uint8 array of concealed-tile
/// counts, each row 13-3k or 14-3k tiles (k melds assumed, their tiles unknown); returns
/// an `(N,)` int8 array with the meaning of `shanten(..., rules="gb")`. Releases the GIL
/// and uses every core for large batches.
#[pyfunction]
fn shanten_batch<'py>(
    py: Python<'py>,
    counts: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArray1<i8>>> {
    let arr: PyReadonlyArray2<'py, u8> = counts.extract().map_err(|_| {
        InvalidHandError::new_err(format!(
            "counts must be a 2-D numpy array of uint8 with 34 columns, got {}",
            convert::type_name(counts)
        ))
    })?;
    let view = arr.as_array();
    if view.ncols() != 34 {
        return Err(InvalidHandError::new_err(format!(
            "counts must have 34 columns (one per tile kind), got {}",
            view.ncols()
        )));
    }
    let n = view.nrows();
    // A C-contiguous array is read in place; any other layout is copied once.
    let copy: Vec<u8>;
    let flat: &[u8] = match view.as_slice() {
        Some(s) => s,
        None => {
            copy = view.iter().copied().collect();
            &copy
        }
    };
    // Large batches run beside a thread that looks for Ctrl-C; blocks not yet started
    // when it comes are skipped and the call raises KeyboardInterrupt.
    const BLOCK: usize = 1024;
    let result = runs::interruptible(py, n < 16 * BLOCK, |stop| -> Result<Vec<i8>, String> {
        let mut out = vec![0i8; n];
        // Rows are checked and scored together, in blocks shared out over all cores; the
        // first bad row (lowest index) is the one reported.
        let first_error = if n >= 4 * BLOCK {
            use rayon::prelude::*;
            flat.par_chunks(34 * BLOCK)
                .zip(out.par_chunks_mut(BLOCK))
                .enumerate()
                .filter_map(|(b, (rows, o))| {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return None;
                    }
                    engine::shanten_flat(rows, o)
                        .err()
                        .map(|(i, e)| (b * BLOCK + i, e))
                })
                .min_by_key(|(i, _)| *i)
        } else {
            engine::shanten_flat(flat, &mut out).err()
        };
        match first_error {
            Some((i, e)) => Err(format!("row {i}: {e}")),
            None => Ok(out),
        }
    })?;
    match result {
        Ok(v) => Ok(PyArray1::from_vec(py, v)),
        Err(e) => Err(InvalidHandError::new_err(e)),
    }
}

/// Builds the lookup tables now (they are otherwise built on first use).
#[pyfunction]
fn _warm_up(py: Python<'_>) {
    py.detach(engine::tables::warm_up);
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(shanten, m)?)?;
    m.add_function(wrap_pyfunction!(shanten_forms, m)?)?;
    m.add_function(wrap_pyfunction!(useful_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(waits, m)?)?;
    m.add_function(wrap_pyfunction!(is_win, m)?)?;
    m.add_function(wrap_pyfunction!(shanten_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_warm_up, m)?)?;
    Ok(())
}
