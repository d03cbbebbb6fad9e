//! Python binding of the strong policy: `_core.StrongPolicy(rules=, seed=, budget_ms=)`
//! chooses among a Python observation's legal actions with the Rust [`StrongPolicy`], and
//! `explain` says why ([`explanation_dict`]).

use super::action::action_obj;
use super::bound::ForRules;
use super::convert::{self, Flag, Int};
use super::round::PyRound;
use super::rules::PyRuleSet;
use super::sim::{check_has_choice, checked_choice, live_view, observation_of};
use crate::error::MjError;
use crate::policy::plans::Evaluator;
use crate::policy::strong::explain::Explanation;
use crate::policy::strong::search::{Search, ValueSpec};
use crate::policy::strong::{danger, unseen_of};
use crate::policy::{Policy, StrongConfig, StrongPolicy, TableView};
use crate::round::Observation;
use crate::rules::Rules;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The strong policy on Python observations (see `majiang.bots.StrongBot`). Without
/// `rules=` it plays the rules each observation was dealt under; with `rules=` only those
/// (another observation raises `RuleError`).
#[pyclass(name = "StrongPolicy", module = "majiang")]
pub struct PyStrongPolicy {
    cfg: StrongConfig,
    seed: u64,
    /// The seed of the last `reseed`, applied to a policy built after it.
    reseeded: Option<u64>,
    policy: ForRules<StrongPolicy>,
}

impl PyStrongPolicy {
    /// The policy for an observation dealt under `rules`.
    fn for_rules(&mut self, rules: &Rules) -> PyResult<&mut StrongPolicy> {
        let (cfg, seed, reseeded) = (self.cfg, self.seed, self.reseeded);
        self.policy.get("strong", rules, |r| {
            let mut p = StrongPolicy::new(r, seed, cfg);
            if let Some(s) = reseeded {
                p.begin_hand(s);
            }
            p
        })
    }
}

#[pymethods]
impl PyStrongPolicy {
    #[new]
    #[pyo3(signature = (*, rules=None, seed=Int(0), budget_ms=Int(50), rollouts=None, time_cap=Flag(true)))]
    #[pyo3(text_signature = "(*, rules=None, seed=0, budget_ms=50, rollouts=None, time_cap=True)")]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Int<i128>,
        budget_ms: Int<i128>,
        rollouts: Option<Int<i128>>,
        time_cap: Flag,
    ) -> PyResult<Self> {
        let (seed, budget_ms, time_cap) = (seed.0, budget_ms.0, time_cap.0);
        let rollouts = rollouts.map(|r| r.0);
        let fixed = match rules {
            Some(r) if !r.is_none() => Some(convert::rules(r)?),
            _ => None,
        };
        let seed = convert::seed("seed", seed)?;
        if !(0..=60_000).contains(&budget_ms) {
            return Err(MjError::argument(format!(
                "budget_ms must be between 0 and 60000, got {budget_ms}"
            ))
            .into());
        }
        // The search is off unless rollouts are asked for; the budget caps it.
        let mut cfg = StrongConfig::from_budget_ms(budget_ms as u32, time_cap);
        cfg.rollouts = 0;
        if let Some(r) = rollouts {
            if !(0..=1_000_000).contains(&r) {
                return Err(MjError::argument(format!(
                    "rollouts must be between 0 and 1000000, got {r}"
                ))
                .into());
            }
            cfg.rollouts = r as u32;
        }
        Ok(PyStrongPolicy {
            cfg,
            seed,
            reseeded: None,
            policy: ForRules::new(fixed),
        })
    }

    /// Rollouts per searched decision.
    #[getter]
    fn rollouts(&self) -> u32 {
        self.cfg.rollouts
    }

    /// The wall-clock cap of a search in milliseconds (0 = none).
    #[getter]
    fn time_cap_ms(&self) -> u32 {
        self.cfg.time_cap_ms
    }

    /// The rules it was built for (`rules=`), or None when it plays the rules of each
    /// observation.
    #[getter]
    fn rules(&self) -> Option<PyRuleSet> {
        self.policy.fixed().map(|r| PyRuleSet { inner: r.clone() })
    }

    /// Reseeds the policy (a new hand).
    fn reseed(&mut self, seed: Int<i128>) -> PyResult<()> {
        let seed = convert::seed("seed", seed.0)?;
        self.reseeded = Some(seed);
        if let Some(p) = self.policy.current() {
            p.begin_hand(seed);
        }
        Ok(())
    }

    /// The policy's choice, one of `observation.legal_actions` (the same object). The
    /// GIL is released while the policy thinks. `observation` must be a majiang
    /// `Observation` (a `TypeError` otherwise); an observation without legal actions, or a
    /// choice outside them, raises `IllegalActionError`.
    fn choose<'py>(
        &mut self,
        py: Python<'py>,
        observation: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let obs = &observation_of(observation)?.get().inner;
        check_has_choice(obs)?;
        let inner = self.for_rules(&obs.rules)?;
        let a = py.detach(|| inner.act(&**obs));
        checked_choice(py, "strong", obs, a)
    }

    /// The policy's choice for `seat` read from the live round (the view `simulate`
    /// plays from) instead of an `Observation` snapshot: lets tests check that both
    /// views lead to the same play.
    fn _choose_live<'py>(
        &mut self,
        py: Python<'py>,
        round: PyRef<'_, PyRound>,
        seat: Int<i128>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = live_view(&round, seat)?;
        let obs = round.inner.observe(view.seat);
        check_has_choice(&obs)?;
        let a = self.for_rules(&obs.rules)?.act(&view);
        checked_choice(py, "strong", &obs, a)
    }

    /// The choice `choose` makes, with the reasons, as a dict (see
    /// [`explanation_dict`]); the policy's state advances as in `choose`. Errors as in
    /// `choose`.
    fn explain<'py>(
        &mut self,
        py: Python<'py>,
        observation: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let obs = &observation_of(observation)?.get().inner;
        check_has_choice(obs)?;
        let inner = self.for_rules(&obs.rules)?;
        let (_, e) = py.detach(|| inner.explain(&**obs))?;
        explanation_dict(py, "strong", obs, &e)
    }
}

/// A chance, a value or a search mean that may be missing, as a float or `None`.
fn opt(py: Python<'_>, v: Option<f32>) -> PyResult<Bound<'_, PyAny>> {
    Ok(match v {
        Some(v) => v.into_pyobject(py)?.into_any(),
        None => py.None().into_bound(py),
    })
}

/// An [`Explanation`] as plain Python data: `action` (one of the observation's legal
/// actions, checked like a choice), `mode`, `seat`, `stake`, `threats` (a dict per
/// opponent: `seat`, `ready`, `flush_suit` 0-2 or None, `pungs`, `sets`), `discards`
/// (best first, a dict each: `tile`, `plan`, `distance`, `fan`, `useful`, `chance`,
/// `danger`, `attack`, `value`, `search`; the optional figures None when not computed)
/// and `claims` (the pass first: `action`, `plan_value`, `chance`, `discard`, `search`).
pub(super) fn explanation_dict<'py>(
    py: Python<'py>,
    policy: &str,
    obs: &Observation,
    e: &Explanation,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("action", checked_choice(py, policy, obs, e.action)?)?;
    d.set_item("mode", e.mode.as_str())?;
    d.set_item("seat", e.seat)?;
    d.set_item("stake", e.stake)?;
    let threats = PyList::empty(py);
    for t in &e.threats {
        let x = PyDict::new(py);
        x.set_item("seat", t.seat)?;
        x.set_item("ready", t.ready)?;
        x.set_item("flush_suit", t.flush_suit)?;
        x.set_item("pungs", t.pungs)?;
        x.set_item("sets", t.sets)?;
        threats.append(x)?;
    }
    d.set_item("threats", threats)?;
    let discards = PyList::empty(py);
    for c in &e.discards {
        let x = PyDict::new(py);
        x.set_item("tile", c.tile)?;
        x.set_item("plan", &c.plan)?;
        x.set_item("distance", c.distance)?;
        x.set_item("fan", c.fan)?;
        x.set_item("useful", c.useful)?;
        x.set_item("chance", opt(py, c.chance)?)?;
        x.set_item("danger", c.danger)?;
        x.set_item("attack", opt(py, c.attack)?)?;
        x.set_item("value", opt(py, c.value)?)?;
        x.set_item("search", opt(py, c.search)?)?;
        discards.append(x)?;
    }
    d.set_item("discards", discards)?;
    let claims = PyList::empty(py);
    for c in &e.claims {
        let x = PyDict::new(py);
        x.set_item("action", action_obj(py, c.action)?)?;
        x.set_item("plan_value", c.plan_value)?;
        x.set_item("chance", opt(py, c.chance)?)?;
        x.set_item("discard", c.discard)?;
        x.set_item("search", opt(py, c.search)?)?;
        claims.append(x)?;
    }
    d.set_item("claims", claims)?;
    Ok(d)
}

/// Most determinizations `option_values` plays per option.
pub const MAX_OPTION_SAMPLES: u32 = 100_000;

/// The value of every legal action of `observation` for its seat, estimated by
/// playouts: `samples` determinizations of the view (the unseen tiles drawn at random,
/// fixed by `seed`), every action tried on each and the hand played to its end by the
/// policy named `player` at the seat (`"efficiency"`, `"strong"`, `"expert"`...) and the
/// efficiency policy at the others. Returns the determinizations played, whether the
/// rules' private walls were played as one shared wall (which tiles stand in whose wall
/// is not in a view, so they cannot be sampled) and, per legal
/// action in the observation's order, `(action, mean, std_err, loss, loss_se, gap,
/// gap_se)`: the mean score change in points and its standard error, the highest mean
/// minus this one and the standard error of that paired difference, and the same
/// against the legal action `reference` (the best when None). `threads` splits the
/// deals over that many threads (the values do not depend on it). `RuleError` when the view cannot be
/// rebuilt (a finished hand, huainan's hidden 宝 state), `InvalidArgumentError` for
/// a sample count outside 2-100,000 (a standard error needs two).
#[pyfunction]
#[pyo3(signature = (observation, samples, seed=Int(0), player="efficiency", reference=None, threads=1))]
#[pyo3(
    text_signature = "(observation, samples, seed=0, player='efficiency', reference=None, threads=1)"
)]
#[allow(clippy::type_complexity)]
fn option_values<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    samples: Int<i128>,
    seed: Int<i128>,
    player: &str,
    reference: Option<&Bound<'py, PyAny>>,
    threads: usize,
) -> PyResult<(
    u32,
    bool,
    Vec<(Bound<'py, PyAny>, f64, f64, f64, f64, f64, f64)>,
)> {
    let obs = &observation_of(observation)?.get().inner;
    let own = crate::policy::PolicyKind::parse(player)?;
    let n = samples.0;
    if !(2..=MAX_OPTION_SAMPLES as i128).contains(&n) {
        return Err(MjError::argument(format!(
            "samples must be 2 to {MAX_OPTION_SAMPLES} (a standard error needs two), got {n}"
        ))
        .into());
    }
    let seed = convert::seed("seed", seed.0)?;
    if !(1..=crate::sim::MAX_THREADS).contains(&threads) {
        return Err(MjError::argument(format!(
            "threads must be 1 to {}, got {threads}",
            crate::sim::MAX_THREADS
        ))
        .into());
    }
    let legal: Vec<crate::round::Action> = obs.legal.as_slice().to_vec();
    let refi = match reference {
        Some(r) if !r.is_none() => {
            let a = r
                .cast::<super::action::PyAction>()
                .map_err(|_| {
                    super::errors::type_error(format!(
                        "reference must be a majiang.Action, got {}",
                        convert::type_name(r)
                    ))
                })?
                .get()
                .inner;
            Some(legal.iter().position(|&x| x == a).ok_or_else(|| {
                MjError::action(format!(
                    "the reference {} is not one of the legal actions",
                    a.describe()
                ))
            })?)
        }
        _ => None,
    };
    let mut obs_copy: Observation = (**obs).clone();
    // Private walls are not rebuilt from a view (which tiles stand in whose wall is not
    // shown): the playouts then draw the same unseen tiles from one shared wall.
    let shared = obs_copy.rules.table.private_walls;
    obs_copy.rules.table.private_walls = false;
    let values = py.detach(move || -> crate::MjResult<_> {
        let mut search = Search::new(&obs_copy.rules)?;
        search.value_all(
            &obs_copy,
            &legal,
            ValueSpec {
                samples: n as u32,
                seed,
                own,
                reference: refi,
                threads,
            },
        )
    })?;
    let mut out = Vec::with_capacity(values.options.len());
    for o in &values.options {
        let a = action_obj(py, o.action)?.into_bound(py).into_any();
        out.push((a, o.mean, o.std_err, o.loss, o.loss_se, o.gap, o.gap_se));
    }
    Ok((values.samples, shared, out))
}

/// The strong policy's defensive reading of the table from `observation`'s seat: for each
/// seat the chance that it is ready now (0 for the observer), and for each of the 34 kinds
/// the chance that discarding it deals in to some opponent. Read only from what the seat
/// sees (discards, exposed sets, declared ready, unseen copies).
#[pyfunction]
fn danger_reading(observation: &Bound<'_, PyAny>) -> PyResult<(Vec<f32>, Vec<f32>)> {
    let obs = &*observation_of(observation)?.get().inner;
    let (m, n) = obs.melds(obs.seat());
    let unseen = unseen_of(obs, &m[..n]);
    let (deal_in, threats) = danger::danger(obs, &unseen);
    Ok((threats.iter().map(|t| t.ready).collect(), deal_in.to_vec()))
}

/// Registers the strong policy class.
/// The fan plan the strong policy reads in a waiting hand (`13 - 3k` concealed tiles
/// beside `k` melds): a dict with `plan` (its name, as in `StrongPolicy.explain`),
/// `distance` (tiles missing from its nearest complete hand: 1 = ready), `fan` (what the
/// plan is counted as worth, honors and melds included) and `fans` (the catalog ids of
/// the fans it aims at: the plan's own and the honor pungs it keeps; names and points in
/// `fan_catalog()`). `rules` gives the minimum fan the plans are weighed against.
#[pyfunction]
#[pyo3(signature = (hand, melds=None, *, seat_wind=0, prevalent_wind=0, rules=None))]
fn fan_plan<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    melds: Option<&Bound<'py, PyAny>>,
    seat_wind: i64,
    prevalent_wind: i64,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let counts = convert::counts(hand)?;
    let melds = match melds {
        Some(m) if !m.is_none() => convert::melds(m)?,
        _ => Vec::new(),
    };
    let rules = match rules {
        Some(r) if !r.is_none() => convert::rules(r)?,
        _ => crate::rules::Rules::gb(),
    };
    let wind = |what: &str, w: i64| -> PyResult<u8> {
        u8::try_from(w)
            .ok()
            .filter(|&w| w < 4)
            .ok_or_else(|| MjError::argument(format!("{what} must be a wind, 0-3, got {w}")).into())
    };
    let (seat_wind, prevalent_wind) = (
        wind("seat_wind", seat_wind)?,
        wind("prevalent_wind", prevalent_wind)?,
    );
    let n: usize = counts[..34].iter().map(|&c| c as usize).sum();
    if n + 3 * melds.len() != 13 || counts[34..].iter().any(|&c| c > 0) {
        return Err(MjError::hand(format!(
            "a fan plan is read from a waiting hand of 13 - 3k tiles beside k melds, got {n} \
             tiles beside {} melds",
            melds.len()
        ))
        .into());
    }
    let mut ev = Evaluator::new(&melds, seat_wind, prevalent_wind, rules.fan.min_fan);
    ev.select_chow_plans(&counts);
    let score = ev.score(&counts);
    let d = PyDict::new(py);
    d.set_item("plan", ev.plan_name(score.plan))?;
    d.set_item("distance", score.distance)?;
    d.set_item("fan", ev.plan_fan(&counts, score.plan))?;
    let fans: Vec<u32> = ev
        .plan_fans(&counts, score.plan, seat_wind, prevalent_wind)
        .iter()
        .map(|f| u32::from(f.0))
        .collect();
    d.set_item("fans", fans)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStrongPolicy>()?;
    m.add_function(wrap_pyfunction!(danger_reading, m)?)?;
    m.add_function(wrap_pyfunction!(fan_plan, m)?)?;
    m.add_function(wrap_pyfunction!(option_values, m)?)?;
    Ok(())
}
