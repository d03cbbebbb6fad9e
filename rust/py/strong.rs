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
use crate::policy::strong::explain::Explanation;
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
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStrongPolicy>()?;
    m.add_function(wrap_pyfunction!(danger_reading, m)?)?;
    Ok(())
}
