//! `Round`: one hand, driven step by step.

use super::action::{action_list, PyAction, PENDING};
use super::convert::{self, Int};
use super::events::{event_dict, hand_list, melds_list, result_dict, seat_arg, since_arg};
use super::observation::PyObservation;
use super::rules::PyRuleSet;
use crate::error::MjError;
use crate::round::Round;
use crate::tile::{self, Tile};
use crate::wall::{BreakThrow, Wall};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

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

/// Reads `scores`: four ints (each seat's score before the hand).
fn scores_arg(obj: &Bound<'_, PyAny>) -> PyResult<[i32; 4]> {
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(super::errors::type_error(
            "scores must be a sequence of four ints, not a str",
        ));
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .map_err(|_| {
            super::errors::type_error(format!(
                "scores must be a sequence of four ints, got {}",
                convert::type_name(obj)
            ))
        })?
        .take(5)
        .collect::<PyResult<_>>()?;
    if items.len() != 4 {
        return Err(MjError::argument(format!(
            "scores takes four ints (one per seat), got {}",
            if items.len() > 4 { "more" } else { "fewer" }
        ))
        .into());
    }
    let mut out = [0i32; 4];
    for (i, item) in items.iter().enumerate() {
        let v = convert::strict_int(item).map_err(|e| {
            super::errors::type_error(format!("scores[{i}]: {}", e.value(obj.py())))
        })?;
        out[i] = i32::try_from(v).map_err(|_| {
            MjError::argument(format!(
                "scores[{i}] must be between {} and {}, got {v}",
                i32::MIN,
                i32::MAX
            ))
        })?;
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
    /// Wraps a round built in Rust (a match's next hand, an environment's finished hand).
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
    #[pyo3(signature = (rules, view, seed = Int(0)))]
    #[pyo3(text_signature = "(rules, view, seed=0)")]
    fn from_view(
        rules: &Bound<'_, PyAny>,
        view: &Bound<'_, PyAny>,
        seed: Int<i128>,
    ) -> PyResult<Self> {
        let rules = convert::rules(rules)?;
        let view = view.cast::<pyo3::types::PyDict>().map_err(|_| {
            super::errors::type_error(format!(
                "view must be a dict (see Round.from_view), got {}",
                convert::type_name(view)
            ))
        })?;
        let view = super::view::seat_view(view)?;
        let seed = convert::seed("seed", seed.0)?;
        Ok(PyRound {
            inner: Round::from_view(&rules, &view, seed)?,
            cursors: [0; 5],
        })
    }

    #[new]
    #[pyo3(signature = (rules = None, seed = Int(0), dealer = Int(0), prevalent_wind = Int(0), *, hands = None, draws = None, replacements = None, scores = None))]
    #[pyo3(
        text_signature = "(rules=None, seed=0, dealer=0, prevalent_wind=0, *, hands=None, draws=None, replacements=None, scores=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Int<i128>,
        dealer: Int<i128>,
        prevalent_wind: Int<i128>,
        hands: Option<&Bound<'_, PyAny>>,
        draws: Option<&Bound<'_, PyAny>>,
        replacements: Option<&Bound<'_, PyAny>>,
        scores: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let scores = scores
            .filter(|s| !s.is_none())
            .map(scores_arg)
            .transpose()?;
        let prevalent_wind = prevalent_wind.0;
        let rules = match rules {
            Some(r) => convert::rules(r)?,
            None => crate::rules::Rules::gb(),
        };
        let seed = convert::seed("seed", seed.0)?;
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
    fn legal_actions<'py>(&self, py: Python<'py>, seat: Int<i128>) -> PyResult<Bound<'py, PyList>> {
        action_list(py, self.inner.legal_actions(seat_arg("seat", seat)?))
    }

    /// What `seat` can see now, with its legal actions.
    fn observation(&self, seat: Int<i128>) -> PyResult<PyObservation> {
        Ok(PyObservation {
            inner: Box::new(self.inner.observe(seat_arg("seat", seat)?)),
        })
    }

    /// Applies `seat`'s action; raises IllegalActionError (changing nothing) if it is not
    /// legal now.
    fn apply(&mut self, seat: Int<i128>, action: &Bound<'_, PyAny>) -> PyResult<()> {
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
    #[pyo3(signature = (seat = None, since = Int(0)))]
    #[pyo3(text_signature = "($self, seat=None, since=0)")]
    fn events<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Int<i128>>,
        since: Int<i128>,
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
        seat: Option<Int<i128>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let viewer = seat.map(|s| seat_arg("seat", s)).transpose()?;
        let k = viewer.map(|s| s as usize).unwrap_or(4);
        let since = self.cursors[k];
        self.cursors[k] = self.inner.events().len();
        self.events(py, seat, Int(since as i128))
    }

    /// The full events as JSON objects, one string per event.
    #[pyo3(signature = (since = Int(0)))]
    #[pyo3(text_signature = "($self, since=0)")]
    fn events_json(&self, since: Int<i128>) -> PyResult<Vec<String>> {
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
    fn hand(&self, seat: Int<i128>) -> PyResult<Vec<u32>> {
        Ok(hand_list(&self.inner.seat(seat_arg("seat", seat)?).hand))
    }
    /// A seat's melds, concealed kongs included (referee view).
    fn melds<'py>(&self, py: Python<'py>, seat: Int<i128>) -> PyResult<Bound<'py, PyList>> {
        melds_list(py, self.inner.seat(seat_arg("seat", seat)?).melds())
    }
    /// A seat's flowers.
    fn flowers(&self, seat: Int<i128>) -> PyResult<Vec<u32>> {
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
