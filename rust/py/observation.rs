//! `Observation`: what one seat can see at one moment.

use super::action::action_list;
use super::events::{hand_list, melds_list};
use super::rules::PyRuleSet;
use crate::hand::Meld;
use crate::round::ruleset::SeatRuleView;
use crate::round::{Observation, HIDDEN};
use crate::tile;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

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
    /// The rules the hand is dealt under (a `RuleSet`): a bot built without `rules=`
    /// plays these.
    #[getter]
    fn rules(&self) -> PyRuleSet {
        PyRuleSet {
            inner: self.inner.rules.clone(),
        }
    }
    /// What the observer sees of the rule set's own per-hand state, as a dict, or None
    /// when the rule set keeps none (gb, classic; a Huainan hand before its 宝). With 宝:
    /// `kind` "bao", `bao` (the wild face), `indicator`, and the seat's own `bao_drawn`,
    /// `bao_discarded`, `in_bdt` (宝吊头), `passes` and `guo_hu` (the passed-win lock).
    #[getter]
    fn ruleset_view<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        match self.inner.ruleset_view {
            SeatRuleView::Plain => Ok(None),
            SeatRuleView::Bao(v) => {
                let d = PyDict::new(py);
                d.set_item("kind", "bao")?;
                d.set_item("bao", v.bao)?;
                d.set_item("indicator", v.indicator)?;
                d.set_item("bao_drawn", v.state.bao_drawn)?;
                d.set_item("bao_discarded", v.state.bao_discarded)?;
                d.set_item("in_bdt", v.state.in_bdt)?;
                d.set_item("passes", v.state.passes)?;
                d.set_item("guo_hu", v.state.guo_hu)?;
                Ok(Some(d))
            }
        }
    }
    /// The 宝 face (every copy is wild) in a hand played with 宝, else None
    /// (`ruleset_view["bao"]`).
    #[getter]
    fn bao(&self) -> Option<u32> {
        self.inner.ruleset_view.bao().map(|v| v.bao as u32)
    }
    /// The indicator tile turned up in the wall (the face before the 宝), else None
    /// (`ruleset_view["indicator"]`).
    #[getter]
    fn bao_indicator(&self) -> Option<u32> {
        self.inner.ruleset_view.bao().map(|v| v.indicator as u32)
    }
    /// 宝 tiles this seat has drawn from the wall (接宝 at 3, 四个宝 at 4); 0 without 宝
    /// (`ruleset_view["bao_drawn"]`).
    #[getter]
    fn bao_drawn(&self) -> u8 {
        self.inner
            .ruleset_view
            .bao()
            .map_or(0, |v| v.state.bao_drawn)
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
