//! Events and results of a hand as Python dicts, and the argument readers the play
//! bindings share.

use super::convert::Int;
use super::tiles::PyMeld;
use crate::error::MjError;
use crate::hand::Meld;
use crate::round::{Event, RoundResult, HIDDEN};
use crate::tile::{self, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pub(super) fn opt_tile(t: Tile) -> Option<u32> {
    (t != HIDDEN).then_some(t as u32)
}

pub(super) fn meld_obj(py: Python<'_>, m: Meld) -> PyResult<Py<PyMeld>> {
    Py::new(py, PyMeld { inner: m })
}

pub(super) fn hand_list(counts: &tile::Counts) -> Vec<u32> {
    let mut v = Vec::with_capacity(14);
    for (t, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            v.push(t as u32);
        }
    }
    v
}

/// One event as a dict (`type`, `seat`, and the event's fields; hidden tiles are None).
pub(super) fn event_dict<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("type", e.kind())?;
    if let Some(s) = e.seat() {
        d.set_item("seat", s)?;
    }
    match *e {
        Event::Dice {
            dice,
            break_seat,
            break_stack,
        } => {
            let thrown: Vec<u32> = dice.iter().filter(|&&x| x > 0).map(|&x| x as u32).collect();
            d.set_item("dice", thrown)?;
            d.set_item("break_seat", break_seat)?;
            d.set_item("break_stack", break_stack)?;
        }
        Event::Deal { tiles, n, .. } => {
            let v: Vec<Option<u32>> = tiles[..n as usize].iter().map(|&t| opt_tile(t)).collect();
            d.set_item("tiles", v)?;
        }
        Event::Draw { tile, tail, .. } => {
            d.set_item("tile", opt_tile(tile))?;
            d.set_item("tail", tail)?;
        }
        Event::Flower { tile, .. }
        | Event::ConcealedKong { tile, .. }
        | Event::AddedKong { tile, .. } => {
            d.set_item("tile", opt_tile(tile))?;
        }
        Event::Discard { tile, ready, .. } => {
            d.set_item("tile", opt_tile(tile))?;
            d.set_item("ready", ready)?;
        }
        Event::Chow {
            from, tile, low, ..
        } => {
            d.set_item("from", from)?;
            d.set_item("tile", tile)?;
            d.set_item("low", low)?;
        }
        Event::Pung { from, tile, .. } | Event::Kong { from, tile, .. } => {
            d.set_item("from", from)?;
            d.set_item("tile", tile)?;
        }
        Event::Win {
            from,
            tile,
            kind,
            fan,
            ..
        } => {
            d.set_item("from", from)?;
            d.set_item("tile", tile)?;
            d.set_item("how", kind.as_str())?;
            d.set_item("fan", fan)?;
        }
        Event::Penalty { each, .. } => {
            d.set_item("each", each)?;
        }
        Event::ExhaustiveDraw => {}
        Event::Bao {
            indicator,
            tile,
            throw,
        } => {
            d.set_item("indicator", indicator)?;
            d.set_item("tile", tile)?;
            d.set_item("throw", throw)?;
        }
    }
    Ok(d)
}

pub(super) fn melds_list<'py>(py: Python<'py>, melds: &[Meld]) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(melds.len());
    for &m in melds {
        v.push(meld_obj(py, m)?);
    }
    PyList::new(py, v)
}

/// The result of a hand as a dict (see `Round.result`).
pub(super) fn result_dict<'py>(py: Python<'py>, r: &RoundResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("exhaustive", r.exhaustive)?;
    d.set_item("deltas", r.deltas.to_vec())?;
    d.set_item("penalties", r.penalties.to_vec())?;
    let wins = PyList::empty(py);
    for w in &r.wins {
        let wd = PyDict::new(py);
        wd.set_item("seat", w.seat)?;
        wd.set_item("from", w.from)?;
        wd.set_item("tile", w.tile)?;
        wd.set_item("how", w.kind.as_str())?;
        wd.set_item("fan_total", w.value.total())?;
        let fans = PyList::empty(py);
        for f in w.value.fan_list() {
            let fd = PyDict::new(py);
            fd.set_item("name", f.fan.name_en())?;
            fd.set_item("name_zh", f.fan.name_zh())?;
            fd.set_item("points", f.fan.points())?;
            fd.set_item("count", f.count)?;
            fans.append(fd)?;
        }
        wd.set_item("fans", fans)?;
        wd.set_item("hand", hand_list(&w.hand))?;
        let melds: Vec<(String, String)> = w.melds[..w.n_melds as usize]
            .iter()
            .map(|m| (m.kind.as_str().to_string(), m.notation()))
            .collect();
        wd.set_item("melds", melds)?;
        wd.set_item("flowers", w.flowers)?;
        wd.set_item("deltas", w.deltas.to_vec())?;
        if let Some(h) = w.value.huainan() {
            wd.set_item("form", h.form.key())?;
            wd.set_item("form_zh", h.form.name_zh())?;
            let m: Vec<(&str, u64)> = h.multipliers.iter().map(|(m, f)| (m.key(), *f)).collect();
            wd.set_item("multipliers", m)?;
            wd.set_item("value", h.value)?;
        }
        wins.append(wd)?;
    }
    d.set_item("wins", wins)?;
    Ok(d)
}

/// Reads a seat argument, 0-3 (a `ValueError` naming the argument otherwise).
pub(super) fn seat_arg(what: &str, seat: Int<i128>) -> PyResult<u8> {
    let seat = seat.0;
    if (0..4).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(MjError::argument(format!("{what} must be a seat, 0-3, got {seat}")).into())
    }
}

/// Reads an event index, `since >= 0`.
pub(super) fn since_arg(since: Int<i128>) -> PyResult<usize> {
    let since = since.0;
    usize::try_from(since)
        .map_err(|_| MjError::argument(format!("since must be >= 0, got {since}")).into())
}
