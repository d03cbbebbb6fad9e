//! Binding of the defense's ground truth: `_core.danger_samples` plays self-play hands
//! and returns the learned defense's features and labels as numpy arrays
//! ([`crate::policy::strong::danger_data`]).

use super::convert::{self, Flag};
use super::{runs, sim};
use crate::error::MjError;
use crate::policy::strong::danger_data;
use crate::policy::strong::danger_model::{
    N_SEAT, N_TILE, PASSED_WAIT, READY_WEIGHTS, SEAT_FEATURES, TILE_FEATURES, WAIT_WEIGHTS,
};
use crate::rules::ScoreUnit;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Most hands one call plays: about 168 kB of rows a hand (530 kB with `all_kinds`), so
/// at most about 3.4 GB (2.7 GB); more data comes from further calls with other seeds.
const MAX_HANDS: i128 = 20_000;
/// Most hands with `all_kinds`.
const MAX_HANDS_ALL_KINDS: i128 = 5_000;

/// Plays `hands` hands of `bots` (hand `i` as `simulate` plays it from `seed`) and
/// returns, for every own-turn discard decision, a row per opponent (`seat_x`, `ready`,
/// `h_ready`, `p_ready`, `hand`, `seats`) and a row per opponent and kind (`tile_x`,
/// `seat_row`, `tile`, `deal_in`, `h_danger`, `p_wait`): features from the deciding seat's view, labels from
/// the full round. Only the kinds the seat holds unless `all_kinds`.
#[pyfunction]
#[pyo3(signature = (hands, seed, *, rules=None, bots=None, all_kinds=Flag(false), threads=None))]
#[pyo3(text_signature = "(hands, seed, *, rules=None, bots=None, all_kinds=False, threads=None)")]
fn danger_samples<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    bots: Option<&Bound<'py, PyAny>>,
    all_kinds: Flag,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let all_kinds = all_kinds.0;
    let most = if all_kinds {
        MAX_HANDS_ALL_KINDS
    } else {
        MAX_HANDS
    };
    let hands = runs::ranged_arg(hands, "hands", 0, most)? as u64;
    let seed = runs::u64_arg(seed, "seed")?;
    let rules = match rules {
        Some(r) if !r.is_none() => convert::rules(r)?,
        _ => crate::rules::Rules::gb(),
    };
    if rules.kind.unit != ScoreUnit::Fan {
        return Err(MjError::argument(format!(
            "danger_samples reads fan wins: rules must be a fan-priced rule set, not {}",
            rules.kind.as_str()
        ))
        .into());
    }
    let bots = match bots {
        Some(b) if !b.is_none() => sim::bot_kinds(b)?,
        _ => [crate::policy::PolicyKind::Expert; 4],
    };
    let pool = crate::sim::pool(runs::threads_arg(threads)?)?;
    // A few hands per thread at a time (tens of milliseconds), checking for Ctrl-C in
    // between.
    let piece = 2 * pool.current_num_threads() as u64;
    let mut s = danger_data::Samples::default();
    let mut start = 0u64;
    while start < hands {
        let end = (start + piece).min(hands);
        let part =
            py.detach(|| danger_data::samples(&rules, &bots, start..end, seed, all_kinds, &pool))?;
        s.append(part);
        py.check_signals()?;
        start = end;
    }
    let n_seat = s.ready.len();
    let n_tile = s.deal_in.len();
    let d = PyDict::new(py);
    d.set_item(
        "seat_x",
        PyArray1::from_vec(py, s.seat_x).reshape([n_seat, N_SEAT])?,
    )?;
    d.set_item("ready", PyArray1::from_vec(py, s.ready))?;
    d.set_item("h_ready", PyArray1::from_vec(py, s.h_ready))?;
    d.set_item("p_ready", PyArray1::from_vec(py, s.p_ready))?;
    d.set_item("hand", PyArray1::from_vec(py, s.hand))?;
    let seats: Vec<u8> = s.seats.iter().flatten().copied().collect();
    d.set_item("seats", PyArray1::from_vec(py, seats).reshape([n_seat, 2])?)?;
    d.set_item(
        "tile_x",
        PyArray1::from_vec(py, s.tile_x).reshape([n_tile, N_TILE])?,
    )?;
    d.set_item("seat_row", PyArray1::from_vec(py, s.seat_row))?;
    d.set_item("tile", PyArray1::from_vec(py, s.tile))?;
    d.set_item("deal_in", PyArray1::from_vec(py, s.deal_in))?;
    d.set_item("h_danger", PyArray1::from_vec(py, s.h_danger))?;
    d.set_item("p_wait", PyArray1::from_vec(py, s.p_wait))?;
    d.set_item("seat_features", SEAT_FEATURES.to_vec())?;
    d.set_item("tile_features", TILE_FEATURES.to_vec())?;
    Ok(d)
}

/// The shipped weights of the learned defense: the ready model's (one per seat feature),
/// the wait model's (the seat features' then the tile features') and the wait chance of
/// a passed kind.
#[pyfunction]
fn danger_model_weights() -> (Vec<f32>, Vec<f32>, f32) {
    (READY_WEIGHTS.to_vec(), WAIT_WEIGHTS.to_vec(), PASSED_WAIT)
}

/// Registers `danger_samples` and `danger_model_weights`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(danger_samples, m)?)?;
    m.add_function(wrap_pyfunction!(danger_model_weights, m)?)?;
    Ok(())
}
