//! Python bindings for the fan part of the core: `evaluate_fan`, `FanResult`, `Fan`,
//! `fan_catalog` and the numpy batch entry point.

use super::convert::{self, Flag};
use super::errors::InvalidHandError;
use super::runs;
use crate::error::MjError;
use crate::fan::{self, Fan, FanResult, WinInput, CATALOG, N_FANS};
use crate::hand::{Meld, MeldKind};
use crate::rules::{Rules, ScoreUnit, RULE_SETS};
use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};

/// Fan evaluation is for the rule sets whose wins are priced in fans.
fn check_rules(rules: &Rules) -> PyResult<()> {
    if rules.kind.unit != ScoreUnit::Fan {
        return Err(MjError::rule(format!(
            "fan evaluation covers the fan-priced rule sets ({}); {} scores in its own terms",
            fan_rule_sets().join(", "),
            rules.kind.as_str()
        ))
        .into());
    }
    Ok(())
}

/// The rule sets whose wins are priced in fans.
fn fan_rule_sets() -> Vec<&'static str> {
    RULE_SETS
        .iter()
        .filter(|d| d.unit == ScoreUnit::Fan)
        .map(|d| d.name)
        .collect()
}

/// Reads a wind: 0-3, or "E", "S", "W", "N".
fn wind(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return match text.to_ascii_uppercase().as_str() {
            "E" | "EAST" => Ok(0),
            "S" | "SOUTH" => Ok(1),
            "W" | "WEST" => Ok(2),
            "N" | "NORTH" => Ok(3),
            _ => Err(InvalidHandError::new_err(format!(
                "{what} {text:?} is not a wind (E, S, W, N or 0-3)"
            ))),
        };
    }
    small_int(obj, what, 3)
}

fn small_int(obj: &Bound<'_, PyAny>, what: &str, max: i64) -> PyResult<u8> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(InvalidHandError::new_err(format!(
            "{what} must be an int, not a bool"
        )));
    }
    let v: i64 = obj.extract().map_err(|_| {
        InvalidHandError::new_err(format!(
            "{what} must be an int, got {}",
            convert::type_name(obj)
        ))
    })?;
    if !(0..=max).contains(&v) {
        let range = if what.contains("wind") {
            "0-3 (E S W N)".to_string()
        } else {
            format!("0-{max}")
        };
        return Err(InvalidHandError::new_err(format!(
            "{what} {v} is out of range ({range})"
        )));
    }
    Ok(v as u8)
}

/// One fan of a result: `name` (English), `name_zh`, `points` (for one occurrence),
/// `count`, and `id` (the MCR number; 82 明暗杠, 83 听牌).
#[pyclass(name = "Fan", module = "majiang", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyFan {
    id: u8,
    count: u8,
}

#[pymethods]
impl PyFan {
    /// The id: the MCR fan number 1-81 (花牌 = 81), 82 明暗杠, 83 听牌.
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }
    /// English name (PyMahjongGB's).
    #[getter]
    fn name(&self) -> &'static str {
        Fan(self.id).name_en()
    }
    /// Chinese name (PyMahjongGB's).
    #[getter]
    fn name_zh(&self) -> &'static str {
        Fan(self.id).name_zh()
    }
    /// Points for one occurrence.
    #[getter]
    fn points(&self) -> u32 {
        Fan(self.id).points()
    }
    /// How many times the fan counts.
    #[getter]
    fn count(&self) -> u8 {
        self.count
    }
    /// `points * count`.
    #[getter]
    fn total(&self) -> u32 {
        Fan(self.id).points() * self.count as u32
    }
    fn __repr__(&self) -> String {
        format!(
            "Fan({:?}, {:?}, points={}, count={})",
            self.name(),
            self.name_zh(),
            self.points(),
            self.count
        )
    }
}

/// The fans of a winning hand: `fans` (list of `Fan`, catalog order), `total` (flowers
/// included), `total_without_flowers`, `meets_minimum`.
#[pyclass(name = "FanResult", module = "majiang", frozen, eq)]
#[derive(PartialEq)]
pub struct PyFanResult {
    inner: FanResult,
}

#[pymethods]
impl PyFanResult {
    /// Fans in catalog order (the reference calculator's row order).
    #[getter]
    fn fans(&self) -> Vec<PyFan> {
        self.inner
            .fans
            .iter()
            .map(|f| PyFan {
                id: f.fan.0,
                count: f.count,
            })
            .collect()
    }
    /// Total points, flowers included.
    #[getter]
    fn total(&self) -> u32 {
        self.inner.total
    }
    /// Total points without 花牌.
    #[getter]
    fn total_without_flowers(&self) -> u32 {
        self.inner.total_without_flowers
    }
    /// True if the hand reaches the rule set's minimum (flowers excluded unless the
    /// `flowers_count_toward_min` option is set).
    #[getter]
    fn meets_minimum(&self) -> bool {
        self.inner.meets_minimum
    }
    /// Pickles as its fans (id and count) and whether it met the minimum; the totals follow
    /// from the fans.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = &slf.get().inner;
        let fans: Vec<(u8, u8)> = r.fans.iter().map(|f| (f.fan.0, f.count)).collect();
        let rebuild = py.import("majiang._core")?.getattr("_fan_result")?;
        let args = (fans, r.meets_minimum).into_pyobject(py)?.into_any();
        PyTuple::new(py, [rebuild, args])
    }
    /// Results are immutable: a copy is the same result.
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    /// Results are immutable: a deep copy is the same result.
    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
    /// How many times a fan counts, by English or Chinese name or id (0 if absent).
    fn count(&self, fan: &Bound<'_, PyAny>) -> PyResult<u8> {
        let f = fan_of(fan)?;
        Ok(self.inner.count(f))
    }
    fn __contains__(&self, fan: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.count(fan)? > 0)
    }
    fn __len__(&self) -> usize {
        self.inner.fans.len()
    }
    /// A plain dict: `total`, `total_without_flowers`, `meets_minimum` and `fans` (a list of
    /// dicts with `id`, `name`, `name_zh`, `points`, `count`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let fans = PyList::empty(py);
        for f in self.inner.fans.iter() {
            let e = PyDict::new(py);
            e.set_item("id", f.fan.0)?;
            e.set_item("name", f.fan.name_en())?;
            e.set_item("name_zh", f.fan.name_zh())?;
            e.set_item("points", f.fan.points())?;
            e.set_item("count", f.count)?;
            fans.append(e)?;
        }
        d.set_item("fans", fans)?;
        d.set_item("total", self.inner.total)?;
        d.set_item("total_without_flowers", self.inner.total_without_flowers)?;
        d.set_item("meets_minimum", self.inner.meets_minimum)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .inner
            .fans
            .iter()
            .map(|f| {
                if f.count > 1 {
                    format!("{}×{}", f.fan.name_zh(), f.count)
                } else {
                    f.fan.name_zh().to_string()
                }
            })
            .collect();
        format!(
            "FanResult(total={}, meets_minimum={}, fans=[{}])",
            self.inner.total,
            if self.inner.meets_minimum {
                "True"
            } else {
                "False"
            },
            parts.join(", ")
        )
    }
}

/// Rebuilds a `FanResult` from `(id, count)` pairs in catalog order and whether it met the
/// minimum (what `FanResult.__reduce__` stores).
#[pyfunction]
fn _fan_result(fans: Vec<(u8, u8)>, meets_minimum: bool) -> PyResult<PyFanResult> {
    Ok(PyFanResult {
        inner: FanResult::from_fans(&fans, meets_minimum)?,
    })
}

fn fan_of(obj: &Bound<'_, PyAny>) -> PyResult<Fan> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return Fan::by_name(&text)
            .ok_or_else(|| MjError::argument(format!("fan: no fan named {text:?}")).into());
    }
    let id: i64 = obj.extract().map_err(|_| {
        super::errors::type_error(format!(
            "fan must be a name or an id 1-83, got {}",
            convert::type_name(obj)
        ))
    })?;
    if (1..N_FANS as i64).contains(&id) {
        Ok(Fan(id as u8))
    } else {
        Err(MjError::argument(format!("fan id must be 1-83, got {id}")).into())
    }
}

/// Scores a winning hand. `hand` is the concealed tiles WITHOUT the winning tile.
#[pyfunction]
#[pyo3(signature = (hand, win_tile, melds = None, *, self_drawn = Flag(false), fourth_tile = Flag(false),
    about_kong = Flag(false), wall_last = Flag(false), seat_wind = None, prevalent_wind = None,
    flowers = None, declared_ready = Flag(false), rules = None))]
#[pyo3(
    text_signature = "(hand, win_tile, melds=None, *, self_drawn=False, fourth_tile=False, about_kong=False, wall_last=False, seat_wind=None, prevalent_wind=None, flowers=None, declared_ready=False, rules=None)"
)]
#[allow(clippy::too_many_arguments)]
fn evaluate_fan(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    win_tile: &Bound<'_, PyAny>,
    melds: Option<&Bound<'_, PyAny>>,
    self_drawn: Flag,
    fourth_tile: Flag,
    about_kong: Flag,
    wall_last: Flag,
    seat_wind: Option<&Bound<'_, PyAny>>,
    prevalent_wind: Option<&Bound<'_, PyAny>>,
    flowers: Option<&Bound<'_, PyAny>>,
    declared_ready: Flag,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFanResult> {
    let counts = convert::counts(hand)?;
    let w = convert::tile_code(win_tile)?;
    let ms: Vec<Meld> = match melds {
        Some(m) => convert::melds(m)?,
        None => Vec::new(),
    };
    let mut input = WinInput::new(counts, &ms, w)?;
    input.self_drawn = self_drawn.0;
    input.fourth_tile = fourth_tile.0;
    input.about_kong = about_kong.0;
    input.wall_last = wall_last.0;
    if let Some(s) = seat_wind {
        input.seat_wind = wind(s, "seat_wind")?;
    }
    if let Some(s) = prevalent_wind {
        input.prevalent_wind = wind(s, "prevalent_wind")?;
    }
    if let Some(f) = flowers {
        input.flowers = small_int(f, "flowers", 255)?;
    }
    input.declared_ready = declared_ready.0;
    let eval = |r: &Rules| -> PyResult<FanResult> {
        check_rules(r)?;
        Ok(fan::evaluate(&input, &r.fan)?)
    };
    let inner = match rules {
        None => convert::with_rules_or_gb(None, eval)?,
        Some(obj) => convert::with_rules(obj, eval)?,
    };
    let _ = py;
    Ok(PyFanResult { inner })
}

/// The fan catalog: one dict per fan with `id`, `name`, `name_zh`, `points` and
/// `excludes` (English names of the fans it rules out).
#[pyfunction]
fn fan_catalog(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for row in CATALOG.iter().skip(1) {
        let d = PyDict::new(py);
        d.set_item("id", row.id)?;
        d.set_item("name", row.name_en)?;
        d.set_item("name_zh", row.name_zh)?;
        d.set_item("points", row.points)?;
        let ex: Vec<&str> = row
            .excludes
            .iter()
            .map(|&i| CATALOG[i as usize].name_en)
            .collect();
        d.set_item("excludes", ex)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Rows per parallel work item.
const CHUNK: usize = 2048;

/// Status of one batch row, before the error message is built.
enum RowError {
    Invalid(usize, MjError),
}

/// Scores row `i` of a batch.
#[allow(clippy::too_many_arguments)]
fn score_row(
    i: usize,
    h: &[u8],
    w: &[u8],
    m: &[u8],
    fl: &[u8],
    se: &[u8],
    pr: &[u8],
    fw: &[u8],
    rules: &Rules,
) -> Result<FanResult, MjError> {
    let mut hand = [0u8; 34];
    hand.copy_from_slice(&h[i * 34..i * 34 + 34]);
    let mut ms = [Meld {
        kind: MeldKind::Chow,
        tile: 0,
    }; 4];
    let mut k = 0usize;
    for j in 0..4 {
        let kind = match m[i * 8 + j * 2] {
            0 => continue,
            1 => MeldKind::Chow,
            2 => MeldKind::Pung,
            3 => MeldKind::Kong,
            4 => MeldKind::ConcealedKong,
            other => return Err(MjError::hand(format!("meld kind {other} is not 0-4"))),
        };
        ms[k] = Meld {
            kind,
            tile: m[i * 8 + j * 2 + 1],
        };
        k += 1;
    }
    let f = fl[i];
    let input = WinInput {
        hand,
        melds: ms,
        n_melds: k as u8,
        win_tile: w[i],
        self_drawn: f & 1 != 0,
        fourth_tile: f & 2 != 0,
        about_kong: f & 4 != 0,
        wall_last: f & 8 != 0,
        seat_wind: se[i],
        prevalent_wind: pr[i],
        flowers: fw[i],
        declared_ready: f & 16 != 0,
    };
    fan::evaluate(&input, &rules.fan)
}

/// Scores many hands (rows in parallel). Arrays (all C-contiguous, checked by the Python wrapper):
/// `hands` (N, 34) uint8 concealed counts without the winning tile, `win_tiles` (N,)
/// uint8, `melds` (N, 4, 2) uint8 of (kind, lowest tile) with kind 0 none, 1 chow,
/// 2 pung, 3 kong, 4 concealed kong, `flags` (N,) uint8 (1 self-drawn, 2 fourth tile,
/// 4 about kong, 8 wall last), `seat`, `prevalent`, `flowers` (N,) uint8.
/// Returns `(totals int32 (N,), fan counts uint8 (N, 84))`; total -1 = not a win.
#[pyfunction]
#[pyo3(signature = (hands, win_tiles, melds, flags, seat, prevalent, flowers, rules, threads = None))]
#[allow(clippy::too_many_arguments)]
fn _evaluate_fan_batch<'py>(
    py: Python<'py>,
    hands: PyReadonlyArray2<'py, u8>,
    win_tiles: PyReadonlyArray1<'py, u8>,
    melds: PyReadonlyArray3<'py, u8>,
    flags: PyReadonlyArray1<'py, u8>,
    seat: PyReadonlyArray1<'py, u8>,
    prevalent: PyReadonlyArray1<'py, u8>,
    flowers: PyReadonlyArray1<'py, u8>,
    rules: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyArray1<i32>>, Bound<'py, PyAny>)> {
    let threads = runs::threads_arg(threads)?;
    let n = hands.shape()[0];
    if hands.shape()[1] != 34 {
        return Err(InvalidHandError::new_err("hands must have shape (N, 34)"));
    }
    for (name, len) in [
        ("win_tiles", win_tiles.len()),
        ("flags", flags.len()),
        ("seat_wind", seat.len()),
        ("prevalent_wind", prevalent.len()),
        ("flowers", flowers.len()),
    ] {
        if len != n {
            return Err(InvalidHandError::new_err(format!(
                "{name} has {len} rows, hands has {n}"
            )));
        }
    }
    if melds.shape() != [n, 4, 2] {
        return Err(InvalidHandError::new_err(format!(
            "melds must have shape ({n}, 4, 2)"
        )));
    }
    let slice = |e: numpy::AsSliceError| {
        InvalidHandError::new_err(format!("batch arrays must be C-contiguous: {e}"))
    };
    let h = hands.as_slice().map_err(slice)?;
    let w = win_tiles.as_slice().map_err(slice)?;
    let m = melds.as_slice().map_err(slice)?;
    let fl = flags.as_slice().map_err(slice)?;
    let se = seat.as_slice().map_err(slice)?;
    let pr = prevalent.as_slice().map_err(slice)?;
    let fw = flowers.as_slice().map_err(slice)?;
    let (totals, table) = convert::with_rules(rules, |r| {
        check_rules(r)?;
        // Rows are independent: chunks are scored in parallel and the lowest failing row
        // is reported, so results and errors do not depend on the thread count.
        // Large batches run beside a thread that looks for Ctrl-C: chunks not yet started
        // when it comes are skipped and the call raises KeyboardInterrupt.
        let stopped = |stop: &AtomicBool| stop.load(Ordering::Relaxed);
        let score_chunk = |c: usize, tot: &mut [i32], tab: &mut [u8]| -> Option<RowError> {
            for (k, total) in tot.iter_mut().enumerate() {
                let i = c * CHUNK + k;
                match score_row(i, h, w, m, fl, se, pr, fw, r) {
                    Ok(res) => {
                        *total = res.total as i32;
                        for fc in res.fans.iter() {
                            tab[k * N_FANS + fc.fan.0 as usize] = fc.count;
                        }
                    }
                    Err(MjError::NotWinning(_)) => *total = -1,
                    Err(e) => return Some(RowError::Invalid(i, e)),
                }
            }
            None
        };
        let run = |stop: &AtomicBool| -> Result<(Vec<i32>, Vec<u8>), RowError> {
            use rayon::prelude::*;
            let mut totals = vec![0i32; n];
            let mut table = vec![0u8; n * N_FANS];
            let parallel = |totals: &mut [i32], table: &mut [u8]| {
                totals
                    .par_chunks_mut(CHUNK)
                    .zip(table.par_chunks_mut(CHUNK * N_FANS))
                    .enumerate()
                    .filter_map(|(c, (tot, tab))| {
                        if stopped(stop) {
                            return None;
                        }
                        score_chunk(c, tot, tab)
                    })
                    .min_by_key(|RowError::Invalid(i, _)| *i)
            };
            let first_error = match threads {
                Some(1) => totals
                    .chunks_mut(CHUNK)
                    .zip(table.chunks_mut(CHUNK * N_FANS))
                    .enumerate()
                    .take_while(|_| !stopped(stop))
                    .find_map(|(c, (tot, tab))| score_chunk(c, tot, tab)),
                Some(k) => match rayon::ThreadPoolBuilder::new().num_threads(k).build() {
                    Ok(pool) => pool.install(|| parallel(&mut totals, &mut table)),
                    Err(_) => parallel(&mut totals, &mut table),
                },
                None => parallel(&mut totals, &mut table),
            };
            match first_error {
                Some(e) => Err(e),
                None => Ok((totals, table)),
            }
        };
        match runs::interruptible(py, n <= 4 * CHUNK, run)? {
            Ok(v) => Ok(v),
            Err(RowError::Invalid(i, e)) => Err(InvalidHandError::new_err(format!(
                "row {i}: {}",
                e.message()
            ))),
        }
    })?;
    let totals = PyArray1::from_vec(py, totals);
    let table = PyArray1::from_vec(py, table).reshape([n, N_FANS])?;
    Ok((totals, table.into_any()))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFan>()?;
    m.add_class::<PyFanResult>()?;
    m.add_function(wrap_pyfunction!(evaluate_fan, m)?)?;
    m.add_function(wrap_pyfunction!(_fan_result, m)?)?;
    m.add_function(wrap_pyfunction!(fan_catalog, m)?)?;
    m.add_function(wrap_pyfunction!(_evaluate_fan_batch, m)?)?;
    m.add("N_FAN_IDS", N_FANS)?;
    Ok(())
}
