//! `Match`: the hands of a match with dealer and wind rotation.

use super::convert::{self, Int};
use super::round::PyRound;
use super::rules::PyRuleSet;
use crate::error::MjError;
use crate::round::Match;
use pyo3::prelude::*;

/// The hands of a match: `Match("gb", seed=1)`; `start_hand()` deals the next hand as a
/// `Round`, `finish_hand(round)` records it (scores, dealer and wind rotation).
#[pyclass(name = "Match", module = "majiang")]
pub struct PyMatch {
    inner: Match,
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (rules = None, seed = Int(0), hands = None))]
    #[pyo3(text_signature = "(rules=None, seed=0, hands=None)")]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Int<i128>,
        hands: Option<Int<i128>>,
    ) -> PyResult<Self> {
        let seed = convert::seed("seed", seed.0)?;
        let hands = hands.map(|h| h.0);
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
    fn hand_seed_at(&self, index: Int<i128>) -> PyResult<u64> {
        let index = index.0;
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
        Ok(PyRound::from_round(self.inner.start_hand()?))
    }
    /// True while the round `start_hand` dealt waits for `finish_hand`.
    #[getter]
    fn hand_in_play(&self) -> bool {
        self.inner.hand_in_play()
    }
    /// Records the finished hand `start_hand` dealt (its payments, then the next dealer
    /// and wind). Raises `IllegalActionError` (a `ValueError`) for a hand not over yet, a
    /// round of another match, rule set or hand, or a round already recorded.
    fn finish_hand(&mut self, round: &Bound<'_, PyAny>) -> PyResult<()> {
        let round = round.cast::<PyRound>().map_err(|_| {
            super::errors::type_error(format!(
                "round must be the majiang.Round start_hand() dealt, got {}",
                convert::type_name(round)
            ))
        })?;
        self.inner.finish_round(&round.borrow().inner)?;
        Ok(())
    }
}

/// The seat wind names and tiles, for display.
#[pyfunction]
fn wind_name(w: Int<i128>) -> PyResult<&'static str> {
    let w = w.0;
    match w {
        0 => Ok("East"),
        1 => Ok("South"),
        2 => Ok("West"),
        3 => Ok("North"),
        _ => Err(MjError::argument(format!("wind must be 0-3 (E S W N), got {w}")).into()),
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<super::action::PyAction>()?;
    m.add_class::<super::observation::PyObservation>()?;
    m.add_class::<super::round::PyRound>()?;
    m.add_class::<PyMatch>()?;
    m.add_function(wrap_pyfunction!(wind_name, m)?)?;
    Ok(())
}
