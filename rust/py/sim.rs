//! Python bindings for the built-in policies, `simulate` and `arena`: the batch entry points
//! release the GIL and return numpy arrays; `Policy` runs a built-in policy on an
//! `Observation` for the Python bots.

use super::convert;
use super::play::PyAction;
use crate::error::MjError;
use crate::hand::{Meld, MeldKind};
use crate::policy::{
    EfficiencyPolicy, Policy, PolicyKind, RandomPolicy, StrongConfig, StrongPolicy,
};
use crate::round::{ActionList, DiscardEntry, Observation, Phase, Round, HIDDEN};
use crate::sim::{self, ArenaSpec, SimSpec, MAX_FANS};
use crate::tile::Tile;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

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
            return Err(MjError::rule(format!(
                "bots must be a bot name or a sequence of four names, got {}",
                convert::type_name(obj)
            ))
            .into())
        }
    };
    kinds_of(&names)
}

fn kinds_of(names: &[String]) -> PyResult<[PolicyKind; 4]> {
    let kinds: Vec<PolicyKind> = names
        .iter()
        .map(|n| PolicyKind::parse(n))
        .collect::<Result<_, _>>()?;
    match kinds.len() {
        1 => Ok([kinds[0]; 4]),
        4 => Ok([kinds[0], kinds[1], kinds[2], kinds[3]]),
        n => Err(MjError::rule(format!(
            "bots needs one name or four (one per seat), got {n}"
        ))
        .into()),
    }
}

fn seed_arg(seed: i128) -> PyResult<u64> {
    u64::try_from(seed)
        .map_err(|_| MjError::rule(format!("seed must be 0 <= seed < 2**64, got {seed}")).into())
}

fn threads_arg(threads: Option<i64>) -> PyResult<Option<usize>> {
    match threads {
        None => Ok(None),
        Some(n) if (1..=1024).contains(&n) => Ok(Some(n as usize)),
        Some(n) => {
            Err(MjError::rule(format!("threads must be between 1 and 1024, got {n}")).into())
        }
    }
}

fn count_arg(what: &str, n: i64) -> PyResult<usize> {
    if n < 0 {
        return Err(MjError::rule(format!("{what} must be >= 0, got {n}")).into());
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

fn attr<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    obj.getattr(name).map_err(|_| {
        MjError::rule(format!(
            "the observation has no attribute {name:?} (got {})",
            convert::type_name(obj)
        ))
        .into()
    })
}

fn counts34(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 34]> {
    let v: Vec<i64> = obj
        .extract()
        .map_err(|_| MjError::rule(format!("observation.{what} must be 34 counts")))?;
    if v.len() != 34 || v.iter().any(|&c| !(0..=4).contains(&c)) {
        return Err(MjError::rule(format!("observation.{what} must be 34 counts of 0-4")).into());
    }
    let mut c = [0u8; 34];
    for (x, &y) in c.iter_mut().zip(&v) {
        *x = y as u8;
    }
    Ok(c)
}

fn small(obj: &Bound<'_, PyAny>, what: &str, max: i64) -> PyResult<u8> {
    let v: i64 = obj
        .extract()
        .map_err(|_| MjError::rule(format!("observation.{what} must be an int")))?;
    if !(0..=max).contains(&v) {
        return Err(MjError::rule(format!("observation.{what} must be 0-{max}, got {v}")).into());
    }
    Ok(v as u8)
}

/// A blank observation (seat 0 of a fresh gb hand) to fill in.
fn template() -> PyResult<Observation> {
    static T: std::sync::OnceLock<Option<Observation>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        Round::new(&crate::rules::Rules::gb(), 0, 0, 0)
            .ok()
            .map(|r| r.observe(0))
    })
    .clone()
    .ok_or_else(|| MjError::rule("cannot build an observation".to_string()).into())
}

/// Rebuilds the Rust observation from a Python `Observation` (its public attributes).
pub(super) fn read_observation<'py>(
    obs: &Bound<'py, PyAny>,
) -> PyResult<(Observation, Bound<'py, PyList>)> {
    let legal_obj = attr(obs, "legal_actions")?;
    let legal_list = legal_obj.cast_into::<PyList>().map_err(|_| {
        MjError::rule("observation.legal_actions must be a list of Action".to_string())
    })?;
    let mut legal = ActionList::default();
    for a in legal_list.iter() {
        let a = a.cast::<PyAction>().map_err(|_| {
            MjError::rule("observation.legal_actions must hold Action objects".to_string())
        })?;
        legal.push(a.get().inner);
    }
    let seat = small(&attr(obs, "seat")?, "seat", 3)?;
    let no_meld = Meld {
        kind: MeldKind::Chow,
        tile: 0,
    };
    let mut melds = [[no_meld; 4]; 4];
    let mut n_melds = [0u8; 4];
    let meld_lists = attr(obs, "melds")?;
    let hidden: Vec<i64> = attr(obs, "hidden_kongs")?.extract().unwrap_or_default();
    for s in 0..4usize {
        let ms = convert::melds(&meld_lists.get_item(s)?)?;
        for m in ms.iter().take(4) {
            melds[s][n_melds[s] as usize] = *m;
            n_melds[s] += 1;
        }
        let h = hidden.get(s).copied().unwrap_or(0).clamp(0, 4) as usize;
        for _ in 0..h {
            if (n_melds[s] as usize) < 4 {
                melds[s][n_melds[s] as usize] = Meld {
                    kind: MeldKind::ConcealedKong,
                    tile: HIDDEN,
                };
                n_melds[s] += 1;
            }
        }
    }
    let flowers: Vec<Vec<i64>> = attr(obs, "flowers")?.extract().unwrap_or_default();
    let mut n_flowers = [0u8; 4];
    for (s, f) in flowers.iter().take(4).enumerate() {
        n_flowers[s] = f.len().min(8) as u8;
    }
    let ready: Vec<bool> = attr(obs, "ready")?.extract().unwrap_or_default();
    let mut ready4 = [false; 4];
    for (s, &r) in ready.iter().take(4).enumerate() {
        ready4[s] = r;
    }
    let log: Vec<(u8, i64, bool, bool)> = attr(obs, "discard_log")?.extract().unwrap_or_default();
    let mut discards: [DiscardEntry; _] = std::array::from_fn(|_| DiscardEntry::default());
    let mut n_discards = 0u8;
    for &(s, t, claimed, r) in log.iter().take(discards.len()) {
        discards[n_discards as usize] = DiscardEntry {
            seat: s & 3,
            tile: t.clamp(0, 33) as Tile,
            claimed,
            ready: r,
        };
        n_discards += 1;
    }
    let claim: Option<(u8, i64)> = attr(obs, "claim")?.extract().unwrap_or(None);
    let drawn: Option<i64> = attr(obs, "drawn")?.extract().unwrap_or(None);
    let phase = match attr(obs, "phase")?
        .extract::<String>()
        .unwrap_or_default()
        .as_str()
    {
        "claim" => Phase::Claim,
        "rob_kong" => Phase::RobKong,
        "over" => Phase::Over,
        _ => Phase::Turn,
    };
    // Start from a real observation so that every field has a sound value, then take
    // what the Python observation says.
    let mut o = template()?;
    o.seat = seat;
    o.dealer = small(&attr(obs, "dealer")?, "dealer", 3)?;
    o.prevalent_wind = small(&attr(obs, "prevalent_wind")?, "prevalent_wind", 3)?;
    o.phase = phase;
    o.turn = small(&attr(obs, "turn")?, "turn", 3)?;
    o.hand = counts34(&attr(obs, "counts")?, "counts")?;
    o.drawn = drawn.map(|t| t.clamp(0, 33) as Tile);
    o.melds = melds;
    o.n_melds = n_melds;
    o.n_flowers = n_flowers;
    o.ready = ready4;
    o.discards = discards;
    o.n_discards = n_discards;
    o.visible = counts34(&attr(obs, "visible")?, "visible")?;
    o.wall_remaining = small(&attr(obs, "wall_remaining")?, "wall_remaining", 144)?;
    o.claim = claim.map(|(s, t)| (s & 3, t.clamp(0, 33) as Tile));
    o.legal = legal;
    Ok((o, legal_list))
}

/// A built-in policy (`"random"`, `"efficiency"`, `"strong"`, `"strong_lite"` or
/// `"strong_search"`) playing from Python observations:
/// `Policy("efficiency", rules="gb", seed=0).choose(observation)` returns one of
/// `observation.legal_actions`. The same Rust code plays inside `simulate`.
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
        let kind = PolicyKind::parse(name)?;
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

    /// One of `observation.legal_actions` (the same object).
    fn choose<'py>(&mut self, observation: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let (obs, legal) = read_observation(observation)?;
        if legal.is_empty() {
            return Err(MjError::action(
                "the observation has no legal action to choose from".to_string(),
            )
            .into());
        }
        let a = self.inner.act(&obs);
        for item in legal.iter() {
            if let Ok(x) = item.cast::<PyAction>() {
                if x.get().inner == a {
                    return Ok(item);
                }
            }
        }
        legal.get_item(0)
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
