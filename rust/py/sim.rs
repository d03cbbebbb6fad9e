//! Python bindings for the built-in policies, `simulate` and `arena`: the batch entry points
//! release the GIL and return numpy arrays; `Policy` runs a built-in policy on an
//! `Observation` for the Python bots.

use super::convert;
use super::play::{action_obj, seat_arg, PyObservation, PyRound};
use crate::error::MjError;
use crate::policy::{
    EfficiencyPolicy, Policy, PolicyKind, RandomPolicy, RoundView, StrongConfig, StrongPolicy,
};
use crate::round::{Action, Observation};
use crate::sim::{self, ArenaSpec, SimSpec, MAX_FANS};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// Reads `bots`: one name, or a sequence of four names.
fn bot_kinds(obj: &Bound<'_, PyAny>) -> PyResult<[PolicyKind; 4]> {
    if let Ok(s) = obj.cast::<PyString>() {
        let names: Vec<String> = s
            .to_cow()?
            .split(',')
            .map(|x| x.trim().to_string())
            .collect();
        return kinds_of(&names);
    }
    let names: Vec<String> = match obj.extract() {
        Ok(v) => v,
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "bots must be a bot name or a sequence of four names, got {}",
                convert::type_name(obj)
            )))
        }
    };
    kinds_of(&names)
}

/// A policy name (a `ValueError` naming the built-in bots for an unknown one).
fn policy_kind(name: &str) -> PyResult<PolicyKind> {
    PolicyKind::parse(name).map_err(|e| MjError::argument(e.message()).into())
}

fn kinds_of(names: &[String]) -> PyResult<[PolicyKind; 4]> {
    let kinds: Vec<PolicyKind> = names
        .iter()
        .map(|n| policy_kind(n))
        .collect::<Result<_, _>>()?;
    match kinds.len() {
        1 => Ok([kinds[0]; 4]),
        4 => Ok([kinds[0], kinds[1], kinds[2], kinds[3]]),
        n => Err(MjError::argument(format!(
            "bots needs one name or four (one per seat), got {n}"
        ))
        .into()),
    }
}

fn seed_arg(seed: i128) -> PyResult<u64> {
    convert::seed("seed", seed)
}

fn threads_arg(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n) if (1..=1024).contains(&n) => Ok(Some(n as usize)),
        Some(n) => {
            Err(MjError::argument(format!("threads must be between 1 and 1024, got {n}")).into())
        }
    }
}

fn count_arg(what: &str, n: i64) -> PyResult<usize> {
    if n < 0 {
        return Err(MjError::argument(format!("{what} must be >= 0, got {n}")).into());
    }
    Ok(n as usize)
}

/// Plays hands `start .. start + n_hands` of a simulation in Rust (GIL released) and
/// returns a dict of numpy arrays: `winner`, `discarder` (int8, -1 none), `fan_total`
/// (int32), `turns` (uint16), `dealer` (int8), `scores` (n, 4) int32 and `fans` (n, 16)
/// uint8 (the winner's fan ids, 0 = none).
#[pyfunction]
#[pyo3(signature = (n_hands, *, rules, bots, seed=0, start=0, threads=None, check=false))]
#[allow(clippy::too_many_arguments)]
fn simulate_hands<'py>(
    py: Python<'py>,
    n_hands: i64,
    rules: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    seed: i128,
    start: i128,
    threads: Option<i64>,
    check: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let n = count_arg("n_hands", n_hands)?;
    let spec = SimSpec {
        rules: convert::rules(rules)?,
        bots: bot_kinds(bots)?,
        seed: seed_arg(seed)?,
    };
    let start = seed_arg(start)
        .map_err(|_| MjError::rule(format!("start must be 0 <= start < 2**64, got {start}")))?;
    if start.checked_add(n as u64).is_none() {
        return Err(MjError::rule("start + n_hands must stay below 2**64".to_string()).into());
    }
    let threads = threads_arg(threads)?;
    let (out, violations) = py.detach(|| -> Result<_, MjError> {
        let pool = sim::pool(threads)?;
        if check {
            let (o, v) = sim::simulate_checked(&spec, start, n, &pool)?;
            Ok((o, Some(v)))
        } else {
            Ok((sim::simulate(&spec, start, n, &pool)?, None))
        }
    })?;
    let mut winner = Vec::with_capacity(n);
    let mut discarder = Vec::with_capacity(n);
    let mut fan_total = Vec::with_capacity(n);
    let mut turns = Vec::with_capacity(n);
    let mut dealer = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(4 * n);
    let mut fans = Vec::with_capacity(MAX_FANS * n);
    for o in &out {
        winner.push(o.winner);
        discarder.push(o.discarder);
        fan_total.push(o.fan_total);
        turns.push(o.turns);
        dealer.push(o.dealer as i8);
        scores.extend_from_slice(&o.scores);
        fans.extend_from_slice(&o.fans);
    }
    let d = PyDict::new(py);
    d.set_item("winner", PyArray1::from_vec(py, winner))?;
    d.set_item("discarder", PyArray1::from_vec(py, discarder))?;
    d.set_item("fan_total", PyArray1::from_vec(py, fan_total))?;
    d.set_item("turns", PyArray1::from_vec(py, turns))?;
    d.set_item("dealer", PyArray1::from_vec(py, dealer))?;
    d.set_item("scores", PyArray1::from_vec(py, scores).reshape([n, 4])?)?;
    d.set_item("fans", PyArray1::from_vec(py, fans).reshape([n, MAX_FANS])?)?;
    if let Some(v) = violations {
        d.set_item("violations", v.count)?;
        d.set_item("violation_examples", v.first)?;
    }
    Ok(d)
}

/// Plays arena games `start .. start + n_games` (GIL released) and returns a dict of numpy
/// arrays, per game and indexed by bot (the position in `bots`): `wall` (int64), `seats`
/// (n, 4) int8 (each bot's seat), `winner` and `discarder` (int8 bot index, -1 none),
/// `fan_total` (int32), `scores` (n, 4) int32.
#[pyfunction]
#[pyo3(signature = (n_games, *, rules, bots, seed=0, start=0, duplicate=true, threads=None))]
#[allow(clippy::too_many_arguments)]
fn arena_games<'py>(
    py: Python<'py>,
    n_games: i64,
    rules: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    seed: i128,
    start: i128,
    duplicate: bool,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = count_arg("n_games", n_games)?;
    let spec = ArenaSpec {
        rules: convert::rules(rules)?,
        bots: bot_kinds(bots)?,
        seed: seed_arg(seed)?,
        duplicate,
    };
    let start = seed_arg(start)
        .map_err(|_| MjError::rule(format!("start must be 0 <= start < 2**64, got {start}")))?;
    if start.checked_add(n as u64).is_none() {
        return Err(MjError::rule("start + n_games must stay below 2**64".to_string()).into());
    }
    let threads = threads_arg(threads)?;
    let games = py.detach(|| -> Result<_, MjError> {
        let pool = sim::pool(threads)?;
        sim::arena(&spec, start, n, &pool)
    })?;
    let mut wall = Vec::with_capacity(n);
    let mut seats = Vec::with_capacity(4 * n);
    let mut winner = Vec::with_capacity(n);
    let mut discarder = Vec::with_capacity(n);
    let mut fan_total = Vec::with_capacity(n);
    let mut scores = Vec::with_capacity(4 * n);
    for g in &games {
        wall.push(g.wall as i64);
        seats.extend(g.seats.iter().map(|&s| s as i8));
        winner.push(g.winner);
        discarder.push(g.discarder);
        fan_total.push(g.fan_total);
        scores.extend_from_slice(&g.scores);
    }
    let d = PyDict::new(py);
    d.set_item("wall", PyArray1::from_vec(py, wall))?;
    d.set_item("seats", PyArray1::from_vec(py, seats).reshape([n, 4])?)?;
    d.set_item("winner", PyArray1::from_vec(py, winner))?;
    d.set_item("discarder", PyArray1::from_vec(py, discarder))?;
    d.set_item("fan_total", PyArray1::from_vec(py, fan_total))?;
    d.set_item("scores", PyArray1::from_vec(py, scores).reshape([n, 4])?)?;
    Ok(d)
}

/// Fan ids (as in `simulate_hands(...)["fans"]`) to `(english, chinese)` names.
#[pyfunction]
fn fan_names(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for id in 1..=u8::MAX {
        if let Some((en, zh)) = sim::fan_name(id) {
            d.set_item(id, (en, zh))?;
        }
    }
    Ok(d)
}

/// The names of the built-in policies.
#[pyfunction]
fn policy_names() -> Vec<&'static str> {
    PolicyKind::ALL.iter().map(|k| k.as_str()).collect()
}

// ---- a built-in policy on a Python observation ---------------------------------------

/// The Rust observation inside a majiang `Observation` (a `TypeError` for anything else).
pub(super) fn observation_of<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
) -> PyResult<&'a Bound<'py, PyObservation>> {
    obj.cast::<PyObservation>().map_err(|_| {
        PyTypeError::new_err(format!(
            "observation must be a majiang.Observation (from Round.observation), got {}",
            convert::type_name(obj)
        ))
    })
}

/// The action a policy chose, checked against the observation's legal actions: the shared
/// `Action` object, or `IllegalActionError` naming the policy and its choice.
pub(super) fn checked_choice<'py>(
    py: Python<'py>,
    policy: &str,
    obs: &Observation,
    chosen: Action,
) -> PyResult<Bound<'py, PyAny>> {
    let chosen = legal_choice(policy, obs, chosen)?;
    Ok(action_obj(py, chosen)?.into_bound(py).into_any())
}

/// `chosen` if it is one of the observation's legal actions, else the error naming the
/// policy and its choice.
fn legal_choice(policy: &str, obs: &Observation, chosen: Action) -> Result<Action, MjError> {
    if obs.legal.as_slice().contains(&chosen) {
        Ok(chosen)
    } else {
        Err(MjError::action(format!(
            "the {policy} policy chose {}, which is not one of the legal actions",
            chosen.describe()
        )))
    }
}

/// Fails with `IllegalActionError` when the observation leaves nothing to decide.
pub(super) fn check_has_choice(obs: &Observation) -> PyResult<()> {
    if obs.legal.as_slice().is_empty() {
        return Err(MjError::action(format!(
            "seat {} has no legal action to choose from in this observation",
            obs.seat
        ))
        .into());
    }
    Ok(())
}

/// The live view of `seat` in `round` (the view `simulate` plays from).
pub(super) fn live_view<'a>(round: &'a PyRound, seat: i64) -> PyResult<RoundView<'a>> {
    Ok(RoundView {
        round: &round.inner,
        seat: seat_arg("seat", seat)?,
    })
}

/// A built-in policy (`"random"`, `"efficiency"`, `"strong"`, `"strong_lite"` or
/// `"strong_search"`) playing from Python observations:
/// `Policy("efficiency", rules="gb", seed=0).choose(observation)` returns one of
/// `observation.legal_actions`. It reads the round's own snapshot inside the
/// `Observation` (the 宝 included), so it plays exactly as inside `simulate`.
#[pyclass(name = "Policy", module = "majiang")]
pub struct PyPolicy {
    inner: Box<dyn Policy>,
    name: &'static str,
}

#[pymethods]
impl PyPolicy {
    #[new]
    #[pyo3(signature = (name, *, rules=None, seed=0))]
    fn new(name: &str, rules: Option<&Bound<'_, PyAny>>, seed: i128) -> PyResult<Self> {
        let rules = match rules {
            Some(r) if !r.is_none() => convert::rules(r)?,
            _ => crate::rules::Rules::gb(),
        };
        let seed = seed_arg(seed)?;
        let kind = policy_kind(name)?;
        let inner: Box<dyn Policy> = match kind {
            PolicyKind::Random => Box::new(RandomPolicy::new(seed)),
            PolicyKind::Efficiency => Box::new(EfficiencyPolicy::new(&rules, seed)),
            PolicyKind::Strong => {
                Box::new(StrongPolicy::new(&rules, seed, StrongConfig::default()))
            }
            PolicyKind::StrongLite => {
                Box::new(StrongPolicy::new(&rules, seed, StrongConfig::lite()))
            }
            PolicyKind::StrongSearch => Box::new(StrongPolicy::new(
                &rules,
                seed,
                StrongConfig::from_budget_ms(crate::policy::strong::DEFAULT_BUDGET_MS, false),
            )),
        };
        Ok(PyPolicy {
            inner,
            name: kind.as_str(),
        })
    }

    /// The policy's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// Reseeds the policy's random choices.
    fn reseed(&mut self, seed: i128) -> PyResult<()> {
        self.inner.begin_hand(seed_arg(seed)?);
        Ok(())
    }

    /// The policy's choice, one of `observation.legal_actions` (the same object).
    /// `observation` must be a majiang `Observation` (a `TypeError` otherwise); an
    /// observation without legal actions, or a choice outside them, raises
    /// `IllegalActionError`.
    fn choose<'py>(&mut self, observation: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let obs = &observation_of(observation)?.get().inner;
        check_has_choice(obs)?;
        let a = self.inner.act(&**obs);
        checked_choice(observation.py(), self.name, obs, a)
    }

    /// The policy's choice for `seat` read from the live round (the view `simulate`
    /// plays from) instead of an `Observation` snapshot: lets tests check that both
    /// views lead to the same play.
    fn _choose_live<'py>(
        &mut self,
        py: Python<'py>,
        round: PyRef<'_, PyRound>,
        seat: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = live_view(&round, seat)?;
        let obs = round.inner.observe(view.seat);
        check_has_choice(&obs)?;
        let a = self.inner.act(&view);
        checked_choice(py, self.name, &obs, a)
    }

    fn __repr__(&self) -> String {
        format!("Policy({:?})", self.name)
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPolicy>()?;
    m.add_function(wrap_pyfunction!(simulate_hands, m)?)?;
    m.add_function(wrap_pyfunction!(arena_games, m)?)?;
    m.add_function(wrap_pyfunction!(fan_names, m)?)?;
    m.add_function(wrap_pyfunction!(policy_names, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Round;
    use crate::rules::Rules;

    #[test]
    fn a_choice_outside_the_legal_actions_is_an_error() {
        let round = Round::new(&Rules::gb(), 1, 0, 0).unwrap();
        let obs = round.observe(0);
        let legal = obs.legal.as_slice()[0];
        assert_eq!(legal_choice("test", &obs, legal), Ok(legal));
        let win = Action::from_parts("win", None).unwrap();
        let pass = Action::from_parts("pass", None).unwrap();
        let illegal = [win, pass]
            .into_iter()
            .find(|a| !obs.legal.as_slice().contains(a))
            .unwrap();
        let e = legal_choice("test", &obs, illegal).unwrap_err();
        assert!(matches!(e, MjError::IllegalAction(_)), "{e:?}");
        assert!(e.message().contains("the test policy chose"), "{e}");
    }
}
