//! Determinized Monte Carlo search over a few candidate actions.
//!
//! One *determinization* rebuilds the hand from the deciding seat's view with every
//! unseen tile drawn at random ([`Round::redeal_from`]). Every candidate action is tried
//! on the same determinization (common random numbers: the same hidden tiles, the same
//! wall, the same seeds for the rollout policies), and the hand is played to its end by
//! fast policies ([`EfficiencyPolicy`] at every seat). A candidate's value is the mean
//! score change of the deciding seat over the determinizations.
//!
//! The work is counted in rollouts, so the result depends only on the seed and the
//! budget; an optional wall-clock cap stops early (documented in [`super::StrongConfig`]).

use crate::policy::{play_out, EfficiencyPolicy, Policy};
use crate::round::{Action, Observation, Round};
use crate::rules::Rules;
use crate::wall::{derive_seed, Rng};
use std::time::Instant;

/// Most candidates compared at once.
pub const MAX_CANDIDATES: usize = 6;

/// The reusable state of a search: a scratch round and the rollout policies.
#[derive(Clone)]
pub struct Search {
    work: Round,
    pols: [Box<dyn Policy>; 4],
}

/// What a search found for each candidate.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchResult {
    /// Mean score change of the deciding seat per candidate.
    pub mean: [f32; MAX_CANDIDATES],
    /// Determinizations played (each plays every candidate once).
    pub samples: u32,
}

impl Search {
    /// A search for `rules` (fails for a rule set without table play).
    pub fn new(rules: &Rules) -> crate::MjResult<Search> {
        let mut work = Round::new(rules, 0, 0, 0)?;
        work.set_record_events(false);
        let pols: [Box<dyn Policy>; 4] =
            std::array::from_fn(|_| Box::new(EfficiencyPolicy::new(rules, 0)) as Box<dyn Policy>);
        Ok(Search { work, pols })
    }

    /// Plays `samples` determinizations of `obs`, each with every action of `cands`
    /// applied for `obs.seat` and the hand played out; stops early once `deadline` has
    /// passed (checked between determinizations). `seed` fixes the samples.
    pub fn run(
        &mut self,
        obs: &Observation,
        cands: &[Action],
        samples: u32,
        seed: u64,
        deadline: Option<Instant>,
    ) -> SearchResult {
        let mut res = SearchResult::default();
        let n = cands.len().min(MAX_CANDIDATES);
        if n == 0 {
            return res;
        }
        let me = obs.seat;
        let mut sum = [0f64; MAX_CANDIDATES];
        let mut done = 0u32;
        for i in 0..samples {
            if let Some(d) = deadline {
                if done > 0 && Instant::now() >= d {
                    break;
                }
            }
            let ds = derive_seed(seed, i as u64);
            let mut ok = true;
            let mut vals = [0f64; MAX_CANDIDATES];
            for (k, &a) in cands[..n].iter().enumerate() {
                let mut rng = Rng::new(ds);
                if self.work.redeal_from(obs, &mut rng).is_err() {
                    ok = false;
                    break;
                }
                if self.work.apply(me, a).is_err() {
                    ok = false;
                    break;
                }
                for (s, p) in self.pols.iter_mut().enumerate() {
                    p.begin_hand(derive_seed(ds, 16 + s as u64));
                }
                if play_out(&mut self.work, &mut self.pols).is_err() {
                    ok = false;
                    break;
                }
                vals[k] = self
                    .work
                    .result()
                    .map(|r| r.deltas[me as usize & 3] as f64)
                    .unwrap_or(0.0);
            }
            if !ok {
                break;
            }
            for (acc, v) in sum.iter_mut().zip(&vals).take(n) {
                *acc += v;
            }
            done += 1;
        }
        res.samples = done;
        if done > 0 {
            for (m, acc) in res.mean.iter_mut().zip(&sum).take(n) {
                *m = (acc / done as f64) as f32;
            }
        }
        res
    }
}
