//! Python binding of the strong policy: `_core.StrongPolicy(rules=, seed=, budget_ms=)`
//! chooses among a Python observation's legal actions with the Rust [`StrongPolicy`].

use super::convert;
use super::play::PyRound;
use super::sim::{check_has_choice, checked_choice, live_view, observation_of};
use crate::error::MjError;
use crate::policy::strong::{danger, unseen_of};
use crate::policy::{Policy, StrongConfig, StrongPolicy, TableView};
use pyo3::prelude::*;

/// The strong policy on Python observations (see `majiang.bots.StrongBot`).
#[pyclass(name = "StrongPolicy", module = "majiang")]
pub struct PyStrongPolicy {
    inner: StrongPolicy,
}

#[pymethods]
impl PyStrongPolicy {
    #[new]
    #[pyo3(signature = (*, rules=None, seed=0, budget_ms=50, rollouts=None, time_cap=true))]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: i128,
        budget_ms: i64,
        rollouts: Option<i64>,
        time_cap: bool,
    ) -> PyResult<Self> {
        let rules = match rules {
            Some(r) if !r.is_none() => convert::rules(r)?,
            _ => crate::rules::Rules::gb(),
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
            inner: StrongPolicy::new(&rules, seed, cfg),
        })
    }

    /// Rollouts per searched decision.
    #[getter]
    fn rollouts(&self) -> u32 {
        self.inner.config().rollouts
    }

    /// The wall-clock cap of a search in milliseconds (0 = none).
    #[getter]
    fn time_cap_ms(&self) -> u32 {
        self.inner.config().time_cap_ms
    }

    /// Reseeds the policy (a new hand).
    fn reseed(&mut self, seed: i128) -> PyResult<()> {
        self.inner.begin_hand(convert::seed("seed", seed)?);
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
        let inner = &mut self.inner;
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
        seat: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = live_view(&round, seat)?;
        let obs = round.inner.observe(view.seat);
        check_has_choice(&obs)?;
        let a = self.inner.act(&view);
        checked_choice(py, "strong", &obs, a)
    }
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
