//! Python bindings for play: `Action`, `Observation`, `Round` (one hand, driven step by
//! step) and `Match` (the sequence of hands with dealer and wind rotation).

use super::convert;
use super::rules::PyRuleSet;
use super::tiles::PyMeld;
use crate::error::MjError;
use crate::hand::Meld;
use crate::round::{Action, Event, Match, Observation, Round, RoundResult, HIDDEN};
use crate::tile::{self, Tile};
use crate::wall::{BreakThrow, Wall};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyTuple};

// ---- Action ---------------------------------------------------------------------------

/// One decision: `Action("discard", "5m")`, `Action("ready", 4)`, `Action("win")`,
/// `Action("chow", "3m")` (named by the chow's lowest tile), `Action("pung", "5z")`,
/// `Action("kong", 31)`, `Action("concealed_kong", 9)`, `Action("added_kong", 9)`,
/// `Action("pass")`. Bots return one of `observation.legal_actions`.
#[pyclass(name = "Action", module = "majiang", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyAction {
    pub inner: Action,
}

/// The 16 possible `pending` tuples, built once.
static PENDING: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

static ACTIONS: PyOnceLock<Vec<Option<Py<PyAction>>>> = PyOnceLock::new();

/// The shared Python object of an action (built once per action).
pub(super) fn action_obj(py: Python<'_>, a: Action) -> PyResult<Py<PyAction>> {
    let table = ACTIONS.get_or_init(py, || {
        (0..9 * 64u16)
            .map(|code| {
                Action::from_code(code).and_then(|a| Py::new(py, PyAction { inner: a }).ok())
            })
            .collect()
    });
    match table.get(a.code() as usize).and_then(|o| o.as_ref()) {
        Some(obj) => Ok(obj.clone_ref(py)),
        None => Py::new(py, PyAction { inner: a }),
    }
}

fn action_list<'py>(py: Python<'py>, actions: &[Action]) -> PyResult<Bound<'py, PyList>> {
    let mut objs = Vec::with_capacity(actions.len());
    for &a in actions {
        objs.push(action_obj(py, a)?);
    }
    PyList::new(py, objs)
}

#[pymethods]
impl PyAction {
    #[new]
    #[pyo3(signature = (kind, tile = None))]
    fn new(kind: &str, tile: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let t = match tile {
            Some(obj) if !obj.is_none() => Some(convert::tile_code(obj)?),
            _ => None,
        };
        Ok(PyAction {
            inner: Action::from_parts(kind, t)?,
        })
    }

    /// `discard`, `ready`, `win`, `concealed_kong`, `added_kong`, `chow`, `pung`, `kong`
    /// or `pass`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    /// The tile code the action names (a chow's lowest tile), or None.
    #[getter]
    fn tile(&self) -> Option<u32> {
        self.inner.tile().map(u32::from)
    }

    /// A unique small integer for the action (`kind * 64 + tile`).
    #[getter]
    fn code(&self) -> u16 {
        self.inner.code()
    }

    /// The action from its `code`.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: i64) -> PyResult<Py<PyAction>> {
        match u16::try_from(code).ok().and_then(Action::from_code) {
            Some(a) => action_obj(py, a),
            None => Err(MjError::action(format!("code {code} is not an action code")).into()),
        }
    }

    fn __repr__(&self) -> String {
        match self.inner.tile() {
            Some(t) => format!("Action({:?}, {:?})", self.inner.kind(), tile::name(t)),
            None => format!("Action({:?})", self.inner.kind()),
        }
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Option<u32>))> {
        let me = slf.get();
        Ok((
            slf.get_type().into_any(),
            (me.inner.kind().to_string(), me.inner.tile().map(u32::from)),
        ))
    }
}

// ---- helpers --------------------------------------------------------------------------

fn opt_tile(t: Tile) -> Option<u32> {
    (t != HIDDEN).then_some(t as u32)
}

fn meld_obj(py: Python<'_>, m: Meld) -> PyResult<Py<PyMeld>> {
    Py::new(py, PyMeld { inner: m })
}

fn hand_list(counts: &tile::Counts) -> Vec<u32> {
    let mut v = Vec::with_capacity(14);
    for (t, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            v.push(t as u32);
        }
    }
    v
}

/// One event as a dict (`type`, `seat`, and the event's fields; hidden tiles are None).
fn event_dict<'py>(py: Python<'py>, e: &Event) -> PyResult<Bound<'py, PyDict>> {
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

fn melds_list<'py>(py: Python<'py>, melds: &[Meld]) -> PyResult<Bound<'py, PyList>> {
    let mut v = Vec::with_capacity(melds.len());
    for &m in melds {
        v.push(meld_obj(py, m)?);
    }
    PyList::new(py, v)
}

/// The result of a hand as a dict (see `Round.result`).
fn result_dict<'py>(py: Python<'py>, r: &RoundResult) -> PyResult<Bound<'py, PyDict>> {
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
pub(super) fn seat_arg(what: &str, seat: i64) -> PyResult<u8> {
    if (0..4).contains(&seat) {
        Ok(seat as u8)
    } else {
        Err(MjError::argument(format!("{what} must be a seat, 0-3, got {seat}")).into())
    }
}

/// Reads an event index, `since >= 0`.
fn since_arg(since: i64) -> PyResult<usize> {
    usize::try_from(since)
        .map_err(|_| MjError::argument(format!("since must be >= 0, got {since}")).into())
}

// ---- Observation ----------------------------------------------------------------------

/// What one seat can see at one moment, with its legal actions. A snapshot: it does not
/// change when the hand moves on. Another seat's concealed kong is not shown (its count is
/// in `hidden_kongs`).
#[pyclass(name = "Observation", module = "majiang", frozen)]
pub struct PyObservation {
    /// The round's own snapshot of the seat's view; the built-in policies read it as is.
    pub(super) inner: Box<Observation>,
}

#[pymethods]
impl PyObservation {
    /// The observing seat, 0-3.
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.seat
    }
    /// The dealer (East) this hand.
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer
    }
    /// The observer's seat wind, 0-3 (E S W N).
    #[getter]
    fn seat_wind(&self) -> u8 {
        self.inner.seat_wind()
    }
    /// The prevalent wind, 0-3.
    #[getter]
    fn prevalent_wind(&self) -> u8 {
        self.inner.prevalent_wind
    }
    /// `turn`, `claim`, `rob_kong` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase.as_str()
    }
    /// Whose turn it is (the discarder or konger during a claim window).
    #[getter]
    fn turn(&self) -> u8 {
        self.inner.turn
    }
    /// The observer's concealed tiles, sorted.
    #[getter]
    fn hand(&self) -> Vec<u32> {
        hand_list(&self.inner.hand)
    }
    /// The observer's concealed tiles as 34 counts.
    #[getter]
    fn counts(&self) -> Vec<u32> {
        self.inner.hand.iter().map(|&c| c as u32).collect()
    }
    /// The tile just drawn on the observer's own turn, else None.
    #[getter]
    fn drawn(&self) -> Option<u32> {
        self.inner.drawn.map(u32::from)
    }
    /// Every seat's visible melds (index = seat).
    #[getter]
    fn melds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for s in 0..4u8 {
            let shown: Vec<Meld> = self
                .inner
                .melds_of(s)
                .iter()
                .copied()
                .filter(|m| m.tile != HIDDEN)
                .collect();
            out.append(melds_list(py, &shown)?)?;
        }
        Ok(out)
    }
    /// Concealed kongs per seat whose tiles the observer cannot see.
    #[getter]
    fn hidden_kongs(&self) -> Vec<usize> {
        (0..4u8)
            .map(|s| {
                self.inner
                    .melds_of(s)
                    .iter()
                    .filter(|m| m.tile == HIDDEN)
                    .count()
            })
            .collect()
    }
    /// Every seat's flowers.
    #[getter]
    fn flowers(&self) -> Vec<Vec<u32>> {
        (0..4)
            .map(|s| {
                self.inner.flowers[s][..self.inner.n_flowers[s] as usize]
                    .iter()
                    .map(|&t| t as u32)
                    .collect()
            })
            .collect()
    }
    /// Concealed tiles per seat (counts only).
    #[getter]
    fn hand_sizes(&self) -> Vec<u32> {
        self.inner.hand_sizes.iter().map(|&c| c as u32).collect()
    }
    /// Which seats declared ready.
    #[getter]
    fn ready(&self) -> Vec<bool> {
        self.inner.ready.to_vec()
    }
    /// Which seats may not win this hand (penalised false declarations, G-7).
    #[getter]
    fn barred(&self) -> Vec<bool> {
        self.inner.barred.to_vec()
    }
    /// Each seat's discards still on the table (claimed ones removed), in order.
    #[getter]
    fn discards(&self) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new(); 4];
        for d in self.inner.discards() {
            if !d.claimed {
                out[d.seat as usize].push(d.tile as u32);
            }
        }
        out
    }
    /// Every discard in order as `(seat, tile, claimed, ready)`.
    #[getter]
    fn discard_log(&self) -> Vec<(u8, u32, bool, bool)> {
        self.inner
            .discards()
            .iter()
            .map(|d| (d.seat, d.tile as u32, d.claimed, d.ready))
            .collect()
    }
    /// Copies of each of the 34 kinds visible to everyone (discards and exposed melds).
    #[getter]
    fn visible(&self) -> Vec<u32> {
        self.inner.visible.iter().map(|&c| c as u32).collect()
    }
    /// Tiles left in the wall.
    #[getter]
    fn wall_remaining(&self) -> u8 {
        self.inner.wall_remaining
    }
    /// `(seat, tile)` of the discard or added kong under claim, else None.
    #[getter]
    fn claim(&self) -> Option<(u8, u32)> {
        self.inner.claim.map(|(s, t)| (s, t as u32))
    }
    /// Match scores before this hand.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.inner.scores.to_vec()
    }
    /// Huainan: the 宝 face (every copy is wild), else None.
    #[getter]
    fn bao(&self) -> Option<u32> {
        self.inner.bao.map(|(b, _)| b as u32)
    }
    /// Huainan: the indicator tile turned up in the wall (the face before the 宝).
    #[getter]
    fn bao_indicator(&self) -> Option<u32> {
        self.inner.bao.map(|(_, i)| i as u32)
    }
    /// Huainan: 宝 tiles this seat has drawn from the wall (接宝 at 3, 四个宝 at 4).
    #[getter]
    fn bao_drawn(&self) -> u8 {
        self.inner.bao_state.bao_drawn
    }
    /// The observer's legal actions (empty when it has nothing to decide).
    #[getter]
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.inner.legal.as_slice())
    }

    fn __repr__(&self) -> String {
        format!(
            "Observation(seat={}, phase={:?}, hand={:?}, legal={})",
            self.inner.seat,
            self.inner.phase.as_str(),
            tile::format_counts(&self.inner.hand),
            self.inner.legal.len()
        )
    }
}

// ---- Round ----------------------------------------------------------------------------

/// One hand, driven step by step: `pending` seats decide, `apply(seat, action)` moves
/// the hand on. `Round("gb", seed=1)` shuffles a wall; `hands=[...]` (with optional
/// `draws` and `replacements`) arranges one for a scenario.
#[pyclass(name = "Round", module = "majiang")]
pub struct PyRound {
    pub inner: Round,
    cursors: [usize; 5],
}

/// Reads a run of wall tiles (MPSZ text or codes, up to a whole wall).
fn wall_tiles(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Tile>> {
    if let Ok(s) = obj.cast::<pyo3::types::PyString>() {
        return Ok(tile::parse(&s.to_cow()?)?);
    }
    let mut out = Vec::with_capacity(144);
    for (i, item) in obj.try_iter()?.enumerate() {
        out.push(
            convert::tile_code(&item?)
                .map_err(|e| MjError::hand(format!("item {i} of {what}: {}", e.value(obj.py()))))?,
        );
        if out.len() > 144 {
            return Err(MjError::hand(format!("{what}: more tiles than a wall holds")).into());
        }
    }
    Ok(out)
}

fn arranged_wall(
    rules: &crate::rules::Rules,
    dealer: u8,
    hands: &Bound<'_, PyAny>,
    draws: Option<&Bound<'_, PyAny>>,
    replacements: Option<&Bound<'_, PyAny>>,
    seed: u64,
) -> PyResult<Wall> {
    let items: Vec<Bound<'_, PyAny>> = hands.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != 4 {
        return Err(MjError::hand(format!(
            "hands takes four hands (one per seat), got {}",
            items.len()
        ))
        .into());
    }
    let mut hs: Vec<Vec<Tile>> = Vec::with_capacity(4);
    for k in 0..4 {
        let seat = (dealer as usize + k) % 4;
        hs.push(convert::tiles(&items[seat])?);
    }
    let head = match draws {
        Some(d) => wall_tiles(d, "draws")?,
        None => Vec::new(),
    };
    let tail = match replacements {
        Some(d) => wall_tiles(d, "replacements")?,
        None => Vec::new(),
    };
    let throw = match rules.table.break_throw {
        crate::round::BreakThrowOpt::Single => BreakThrow::Single,
        crate::round::BreakThrowOpt::Double => BreakThrow::Double,
    };
    Ok(Wall::arranged(
        [&hs[0], &hs[1], &hs[2], &hs[3]],
        &head,
        &tail,
        rules.table.flowers,
        seed,
        throw,
    )?)
}

impl PyRound {
    /// Wraps a round built in Rust (an environment's finished hand).
    pub(super) fn from_round(inner: Round) -> PyRound {
        PyRound {
            inner,
            cursors: [0; 5],
        }
    }
}

#[pymethods]
impl PyRound {
    /// A round standing at the decision one seat reports (a protocol bot's view), the
    /// tiles it cannot see sampled with `seed`; its legal actions come from the round.
    ///
    /// `view` is a dict: `seat`, `hand` (concealed tiles, the drawn one included), `melds`
    /// (per seat, `(kind, tile, from_seat)`; a chow by its lowest tile, another seat's
    /// concealed kong with tile `None`), `discards` (`(seat, tile, claimed)` in order),
    /// `wall_remaining`, `phase` (`turn`, `claim` or `rob_kong`), `turn` (the observer on
    /// its turn, else the discarder or konger); optional `drawn`, `kong_replacement`,
    /// `claim` (the tile under decision), `flowers` (per seat), `dealer`,
    /// `prevalent_wind`, `scores`. Raises `InvalidHandError` or `RuleError` for a view
    /// that is malformed or does not add up.
    #[staticmethod]
    #[pyo3(signature = (rules, view, seed = 0))]
    fn from_view(
        rules: &Bound<'_, PyAny>,
        view: &Bound<'_, pyo3::types::PyDict>,
        seed: i128,
    ) -> PyResult<Self> {
        let rules = convert::rules(rules)?;
        let view = super::view::seat_view(view)?;
        let seed = convert::seed("seed", seed)?;
        Ok(PyRound {
            inner: Round::from_view(&rules, &view, seed)?,
            cursors: [0; 5],
        })
    }

    #[new]
    #[pyo3(signature = (rules = None, seed = 0, dealer = 0, prevalent_wind = 0, *, hands = None, draws = None, replacements = None, scores = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: i128,
        dealer: i64,
        prevalent_wind: i64,
        hands: Option<&Bound<'_, PyAny>>,
        draws: Option<&Bound<'_, PyAny>>,
        replacements: Option<&Bound<'_, PyAny>>,
        scores: Option<[i32; 4]>,
    ) -> PyResult<Self> {
        let rules = match rules {
            Some(r) => convert::rules(r)?,
            None => crate::rules::Rules::gb(),
        };
        let seed = convert::seed("seed", seed)?;
        let dealer = seat_arg("dealer", dealer)?;
        let prevalent = u8::try_from(prevalent_wind)
            .ok()
            .filter(|&p| p < 4)
            .ok_or_else(|| {
                MjError::argument(format!(
                    "prevalent_wind must be 0-3 (E S W N), got {prevalent_wind}"
                ))
            })?;
        let mut round = match hands {
            Some(h) if !h.is_none() => {
                let wall = arranged_wall(&rules, dealer, h, draws, replacements, seed)?;
                Round::with_wall(&rules, wall, dealer, prevalent)?
            }
            _ => {
                if draws.is_some() || replacements.is_some() {
                    return Err(MjError::hand("draws and replacements need hands").into());
                }
                Round::new(&rules, seed, dealer, prevalent)?
            }
        };
        if let Some(s) = scores {
            round.set_scores(s);
        }
        Ok(PyRound {
            inner: round,
            cursors: [0; 5],
        })
    }

    /// `turn`, `claim`, `rob_kong` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase().as_str()
    }
    /// True once the hand has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// The seats that must decide now (one on a turn, several in a claim window).
    #[getter]
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let table = PENDING.get_or_init(py, || {
            (0..16u8)
                .map(|mask| {
                    let seats: Vec<u8> = (0..4u8).filter(|s| mask >> s & 1 == 1).collect();
                    PyTuple::new(py, seats)
                        .map(|t| t.unbind())
                        .unwrap_or_else(|_| PyTuple::empty(py).unbind())
                })
                .collect()
        });
        Ok(table[(self.inner.pending() & 15) as usize].bind(py).clone())
    }
    /// Whose turn it is (the discarder or konger during a claim window).
    #[getter]
    fn turn(&self) -> u8 {
        self.inner.turn()
    }
    /// The dealer (East).
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer()
    }
    /// The prevalent wind, 0-3.
    #[getter]
    fn prevalent_wind(&self) -> u8 {
        self.inner.prevalent_wind()
    }
    /// Tiles left in the wall.
    #[getter]
    fn wall_remaining(&self) -> usize {
        self.inner.wall().remaining()
    }
    /// Private walls (gb's `private_walls`): the tiles left in each seat's own wall,
    /// indexed by seat; None when the seats share one wall.
    #[getter]
    fn seat_walls(&self) -> Option<[usize; 4]> {
        let wall = self.inner.wall();
        let dealer = self.inner.dealer();
        wall.is_private()
            .then(|| std::array::from_fn(|s| wall.remaining_in((s as u8 + 4 - dealer) % 4)))
    }
    /// The tile the current turn drew, if the turn began with a draw.
    #[getter]
    fn drawn(&self) -> Option<u32> {
        self.inner.drawn().map(u32::from)
    }
    /// `(seat, tile)` of the discard or added kong under claim, else None.
    #[getter]
    fn claim(&self) -> Option<(u8, u32)> {
        self.inner.claim().map(|(s, t)| (s, t as u32))
    }
    /// The dice thrown to break the wall.
    #[getter]
    fn dice(&self) -> Vec<u32> {
        self.inner
            .wall()
            .dice()
            .thrown()
            .iter()
            .map(|&d| d as u32)
            .collect()
    }
    /// The whole wall in draw order (referee view).
    #[getter]
    fn wall(&self) -> Vec<u32> {
        convert::codes(self.inner.wall().order())
    }
    /// The rules of this hand.
    #[getter]
    fn rules(&self) -> PyRuleSet {
        PyRuleSet {
            inner: self.inner.rules().clone(),
        }
    }

    /// The legal actions of `seat` now (empty if it has nothing to decide).
    fn legal_actions<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.inner.legal_actions(seat_arg("seat", seat)?))
    }

    /// What `seat` can see now, with its legal actions.
    fn observation(&self, seat: i64) -> PyResult<PyObservation> {
        Ok(PyObservation {
            inner: Box::new(self.inner.observe(seat_arg("seat", seat)?)),
        })
    }

    /// Applies `seat`'s action; raises IllegalActionError (changing nothing) if it is not
    /// legal now.
    fn apply(&mut self, seat: i64, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let seat = seat_arg("seat", seat)?;
        let a = match action.cast::<PyAction>() {
            Ok(a) => a.get().inner,
            Err(_) => {
                return Err(super::errors::type_error(format!(
                    "action must be a majiang.Action (one of observation.legal_actions), got {}",
                    convert::type_name(action)
                )))
            }
        };
        self.inner.apply(seat, a)?;
        Ok(())
    }

    /// The events so far as dicts, from index `since`; as `seat` sees them (hidden tiles
    /// are None), or everything when `seat` is None.
    #[pyo3(signature = (seat = None, since = 0))]
    fn events<'py>(
        &self,
        py: Python<'py>,
        seat: Option<i64>,
        since: i64,
    ) -> PyResult<Bound<'py, PyList>> {
        let viewer = seat.map(|s| seat_arg("seat", s)).transpose()?;
        let since = since_arg(since)?;
        let out = PyList::empty(py);
        for e in self.inner.events().iter().skip(since) {
            out.append(event_dict(py, &e.seen_by(viewer))?)?;
        }
        Ok(out)
    }

    /// The events since the previous call with the same `seat` (each viewer has its own
    /// cursor), as `events` shows them.
    #[pyo3(signature = (seat = None))]
    fn poll_events<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<i64>,
    ) -> PyResult<Bound<'py, PyList>> {
        let viewer = seat.map(|s| seat_arg("seat", s)).transpose()?;
        let k = viewer.map(|s| s as usize).unwrap_or(4);
        let since = self.cursors[k];
        self.cursors[k] = self.inner.events().len();
        self.events(py, seat, since as i64)
    }

    /// The full events as JSON objects, one string per event.
    #[pyo3(signature = (since = 0))]
    fn events_json(&self, since: i64) -> PyResult<Vec<String>> {
        let since = since_arg(since)?;
        let mut out = Vec::with_capacity(self.inner.events().len().saturating_sub(since));
        for e in self.inner.events().iter().skip(since) {
            let mut s = String::with_capacity(64);
            e.write_json(&mut s);
            out.push(s);
        }
        Ok(out)
    }

    /// Number of events so far.
    #[getter]
    fn n_events(&self) -> usize {
        self.inner.events().len()
    }

    /// How the hand ended (None while it is running): a dict with `exhaustive`,
    /// `deltas` (per seat, sum 0), `penalties` and `wins` (each with `seat`, `from`, `tile`,
    /// `how`, `fan_total`, `fans`, `hand`, `melds`, `flowers`, `deltas`).
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner.result().map(|r| result_dict(py, r)).transpose()
    }

    /// A seat's concealed tiles (referee view: everything is shown).
    fn hand(&self, seat: i64) -> PyResult<Vec<u32>> {
        Ok(hand_list(&self.inner.seat(seat_arg("seat", seat)?).hand))
    }
    /// A seat's melds, concealed kongs included (referee view).
    fn melds<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Bound<'py, PyList>> {
        melds_list(py, self.inner.seat(seat_arg("seat", seat)?).melds())
    }
    /// A seat's flowers.
    fn flowers(&self, seat: i64) -> PyResult<Vec<u32>> {
        Ok(convert::codes(
            self.inner.seat(seat_arg("seat", seat)?).flowers(),
        ))
    }

    /// An independent copy of the hand in its current state (for look-ahead search).
    fn clone(&self) -> PyRound {
        PyRound {
            inner: self.inner.clone(),
            cursors: self.cursors,
        }
    }

    fn __copy__(&self) -> PyRound {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyRound {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let pending: Vec<String> = self.inner.pending_seats().map(|s| s.to_string()).collect();
        format!(
            "Round({:?}, phase={:?}, turn={}, pending=[{}], wall={})",
            self.inner.rules().kind.as_str(),
            self.inner.phase().as_str(),
            self.inner.turn(),
            pending.join(", "),
            self.inner.wall().remaining()
        )
    }
}

// ---- Match ----------------------------------------------------------------------------

/// The hands of a match: `Match("gb", seed=1)`; `start_hand()` deals the next hand as a
/// `Round`, `finish_hand(round)` records it (scores, dealer and wind rotation).
#[pyclass(name = "Match", module = "majiang")]
pub struct PyMatch {
    inner: Match,
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (rules = None, seed = 0, hands = None))]
    fn new(rules: Option<&Bound<'_, PyAny>>, seed: i128, hands: Option<i64>) -> PyResult<Self> {
        let seed = convert::seed("seed", seed)?;
        let rules = match rules {
            Some(r) => convert::rules(r)?,
            None => crate::rules::Rules::gb(),
        };
        let hands = match hands {
            Some(h) => Some(
                u16::try_from(h)
                    .ok()
                    .filter(|&h| h > 0)
                    .ok_or_else(|| MjError::argument(format!("hands must be 1-65535, got {h}")))?,
            ),
            None => None,
        };
        Ok(PyMatch {
            inner: Match::new(&rules, seed, hands)?,
        })
    }
    /// The match seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// Hands in the match.
    #[getter]
    fn hands(&self) -> u16 {
        self.inner.hands()
    }
    /// Hands played so far (the index of the next hand).
    #[getter]
    fn hand_index(&self) -> u16 {
        self.inner.hand_index()
    }
    /// True when every hand has been played.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// The dealer of the next hand.
    #[getter]
    fn dealer(&self) -> u8 {
        self.inner.dealer()
    }
    /// The prevalent wind of the next hand.
    #[getter]
    fn prevalent_wind(&self) -> u8 {
        self.inner.prevalent_wind()
    }
    /// The wall seed of the next hand.
    #[getter]
    fn hand_seed(&self) -> u64 {
        self.inner.hand_seed()
    }
    /// The wall seed of hand `index` (0-based) of the match, played or not.
    fn hand_seed_at(&self, index: i64) -> PyResult<u64> {
        let i = u16::try_from(index).map_err(|_| {
            MjError::rule(format!(
                "hand {index} is not a hand of a {}-hand match",
                self.inner.hands()
            ))
        })?;
        Ok(self.inner.hand_seed_at(i)?)
    }
    /// Running scores.
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.inner.scores().to_vec()
    }
    /// The rules.
    #[getter]
    fn rules(&self) -> PyRuleSet {
        PyRuleSet {
            inner: self.inner.rules().clone(),
        }
    }
    /// Deals the next hand; `finish_hand` accepts only this round, once.
    fn start_hand(&mut self) -> PyResult<PyRound> {
        Ok(PyRound {
            inner: self.inner.start_hand()?,
            cursors: [0; 5],
        })
    }
    /// True while the round `start_hand` dealt waits for `finish_hand`.
    #[getter]
    fn hand_in_play(&self) -> bool {
        self.inner.hand_in_play()
    }
    /// Records the finished hand `start_hand` dealt (its payments, then the next dealer
    /// and wind). Raises `IllegalActionError` (a `ValueError`) for a hand not over yet, a
    /// round of another match, rule set or hand, or a round already recorded.
    fn finish_hand(&mut self, round: PyRef<'_, PyRound>) -> PyResult<()> {
        self.inner.finish_round(&round.inner)?;
        Ok(())
    }
}

/// The seat wind names and tiles, for display.
#[pyfunction]
fn wind_name(w: i64) -> PyResult<&'static str> {
    match w {
        0 => Ok("East"),
        1 => Ok("South"),
        2 => Ok("West"),
        3 => Ok("North"),
        _ => Err(MjError::argument(format!("wind must be 0-3 (E S W N), got {w}")).into()),
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAction>()?;
    m.add_class::<PyObservation>()?;
    m.add_class::<PyRound>()?;
    m.add_class::<PyMatch>()?;
    m.add_function(wrap_pyfunction!(wind_name, m)?)?;
    Ok(())
}
