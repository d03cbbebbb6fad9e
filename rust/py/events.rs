//! Events and results of a hand as Python dicts, and the argument readers the play
//! bindings share.

use super::convert::Int;
use super::tiles::PyMeld;
use crate::error::MjError;
use crate::hand::Meld;
use crate::round::{Event, FieldType, FieldValue, RoundResult, HIDDEN};
use crate::tile::{self, Tile};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};

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

/// One field value as a Python object (hidden tiles are None).
fn value_obj<'py>(py: Python<'py>, v: FieldValue<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        FieldValue::Seat(x) | FieldValue::Byte(x) => x.into_pyobject(py)?.into_any(),
        FieldValue::Word(x) => x.into_pyobject(py)?.into_any(),
        FieldValue::Flag(b) => PyBool::new(py, b).to_owned().into_any(),
        FieldValue::WinKind(k) => PyString::new(py, k.as_str()).into_any(),
        FieldValue::Tile(t) => opt_tile(t).into_pyobject(py)?.into_any(),
        FieldValue::Tiles(ts) => {
            let v: Vec<Option<u32>> = ts.iter().map(|&t| opt_tile(t)).collect();
            PyList::new(py, v)?.into_any()
        }
        FieldValue::Dice(dice) => {
            let v: Vec<u32> = FieldValue::thrown(&dice).map(u32::from).collect();
            PyList::new(py, v)?.into_any()
        }
    })
}

/// One event as a dict: `type` and the event's fields, named and ordered by its schema
/// entry (hidden tiles are None).
pub(super) fn event_dict<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("type", e.kind())?;
    for (name, value) in e.fields() {
        d.set_item(name, value_obj(py, value)?)?;
    }
    Ok(d)
}

/// The event schema: every kind of event (`type`) with its fields after `type`, in the
/// order they are written, each mapped to its type's name (see `event_field_types`).
#[pyfunction]
fn event_schema(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    for spec in crate::round::event_schema() {
        let fields = PyDict::new(py);
        for &(name, ty) in spec.fields {
            fields.set_item(name, ty.name())?;
        }
        out.set_item(spec.kind, fields)?;
    }
    Ok(out)
}

/// What each field type of `event_schema` holds: `{"value": "int", "min", "max"}` for a
/// number, `{"value": "ints", "min", "max", "lengths"}` for a list of numbers (the
/// lengths it may have), `{"value": "bool"}` and `{"value": "name", "names"}`.
#[pyfunction]
fn event_field_types(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    for t in FieldType::ALL {
        let d = PyDict::new(py);
        let value = match (t.range(), t.lengths()) {
            (Some(_), Some(_)) => "ints",
            (Some(_), None) => "int",
            (None, _) if t.names().is_empty() => "bool",
            (None, _) => "name",
        };
        d.set_item("value", value)?;
        if let Some((lo, hi)) = t.range() {
            d.set_item("min", lo)?;
            d.set_item("max", hi)?;
        }
        if let Some(lengths) = t.lengths() {
            d.set_item("lengths", lengths.to_vec())?;
        }
        if !t.names().is_empty() {
            d.set_item("names", t.names().to_vec())?;
        }
        out.set_item(t.name(), d)?;
    }
    Ok(out)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(event_schema, m)?)?;
    m.add_function(wrap_pyfunction!(event_field_types, m)?)?;
    Ok(())
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
