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

use crate::policy::{play_out, EfficiencyPolicy, Policy, PolicyKind};
use crate::round::{Action, Observation, Round};
use crate::rules::Rules;
use crate::wall::{derive_seed, Rng};
use crate::MjResult;
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
                match self.play_one(obs, a, ds) {
                    Ok(v) => vals[k] = v,
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
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

    /// One playout: the determinization of `obs` drawn from `ds`, `a` applied for
    /// `obs.seat`, the hand played to its end by the efficiency policies (seeded from
    /// `ds`); the seat's score change.
    fn play_one(&mut self, obs: &Observation, a: Action, ds: u64) -> MjResult<f64> {
        let me = obs.seat;
        let mut rng = Rng::new(ds);
        self.work.redeal_from(obs, &mut rng)?;
        self.work.apply(me, a)?;
        for (s, p) in self.pols.iter_mut().enumerate() {
            p.begin_hand(derive_seed(ds, 16 + s as u64));
        }
        play_out(&mut self.work, &mut self.pols)?;
        Ok(self
            .work
            .result()
            .map(|r| r.deltas[me as usize & 3] as f64)
            .unwrap_or(0.0))
    }

    /// The value of every action of `acts` for `obs.seat`, each tried on the same
    /// `spec.samples` determinizations of `obs` (common random numbers, as in
    /// [`Search::run`]; `spec.seed` fixes them) and played out, `spec.own` at the seat
    /// and the efficiency policy at the others.
    ///
    /// Each [`OptionValue`] holds the mean score change and its standard error, the loss
    /// against the option with the highest mean and the gap to the option at index
    /// `spec.reference` of `acts` (the best when None or out of range), each with the
    /// standard error of that paired difference (the deals both options faced are the
    /// same, so the noise they share drops out). `spec.threads` (at least 1) splits the
    /// determinizations over that many threads; the values do not depend on it. Fails
    /// when the view cannot be rebuilt (a finished hand, private walls, a rule set whose
    /// hidden state the view does not show) or an action is not legal.
    pub fn value_all(
        &mut self,
        obs: &Observation,
        acts: &[Action],
        spec: ValueSpec,
    ) -> MjResult<OptionValues> {
        let me = obs.seat as usize & 3;
        let mut own_pol = spec.own.build(&obs.rules);
        std::mem::swap(&mut self.pols[me], &mut own_pol);
        let res = self.value_each(obs, acts, spec);
        std::mem::swap(&mut self.pols[me], &mut own_pol);
        res
    }

    /// Plays the determinizations `first..` of `obs` (as many as `out` holds rows of
    /// `acts.len()` values), every action on each, into `out`.
    fn fill_rows(
        &mut self,
        obs: &Observation,
        acts: &[Action],
        seed: u64,
        first: usize,
        out: &mut [f64],
    ) -> MjResult<()> {
        let n = acts.len();
        for (r, row) in out.chunks_mut(n).enumerate() {
            let ds = derive_seed(seed, (first + r) as u64);
            for (v, &a) in row.iter_mut().zip(acts) {
                *v = self.play_one(obs, a, ds)?;
            }
        }
        Ok(())
    }

    /// [`Search::value_all`] with the policies in place.
    fn value_each(
        &mut self,
        obs: &Observation,
        acts: &[Action],
        spec: ValueSpec,
    ) -> MjResult<OptionValues> {
        let ValueSpec {
            samples,
            seed,
            reference,
            threads,
            ..
        } = spec;
        let n = acts.len();
        let m = samples.max(1) as usize;
        if n == 0 {
            return Ok(OptionValues {
                options: Vec::new(),
                samples: 0,
            });
        }
        // vals[i * n + k]: determinization i, action k. Each playout depends only on the
        // observation, the action and its determinization's seed (every policy is
        // reseeded before it), so the rows split over threads give the same values.
        let mut vals = vec![0f64; m * n];
        let threads = threads.clamp(1, m);
        let rows = m.div_ceil(threads);
        if threads == 1 {
            self.fill_rows(obs, acts, seed, 0, &mut vals)?;
        } else {
            let mut helpers: Vec<Search> = (1..threads).map(|_| self.clone()).collect();
            let mut chunks = vals.chunks_mut(rows * n);
            let first = chunks.next().unwrap_or_default();
            std::thread::scope(|scope| -> MjResult<()> {
                let handles: Vec<_> = helpers
                    .iter_mut()
                    .zip(chunks)
                    .enumerate()
                    .map(|(t, (h, chunk))| {
                        scope.spawn(move || h.fill_rows(obs, acts, seed, (t + 1) * rows, chunk))
                    })
                    .collect();
                let mine = self.fill_rows(obs, acts, seed, 0, first);
                for h in handles {
                    h.join()
                        .map_err(|_| crate::MjError::rule("a playout thread failed"))??;
                }
                mine
            })?;
        }
        let mean_of = |k: usize| (0..m).map(|i| vals[i * n + k]).sum::<f64>() / m as f64;
        let means: Vec<f64> = (0..n).map(mean_of).collect();
        let best = (0..n).fold(0, |b, k| if means[k] > means[b] { k } else { b });
        let refi = reference.filter(|&r| r < n).unwrap_or(best);
        let se = |f: &dyn Fn(usize) -> f64, mean: f64| {
            if m < 2 {
                return 0.0;
            }
            let ss: f64 = (0..m).map(|i| (f(i) - mean).powi(2)).sum();
            (ss / (m as f64 - 1.0) / m as f64).sqrt()
        };
        let options = (0..n)
            .map(|k| {
                let loss = means[best] - means[k];
                let gap = means[refi] - means[k];
                OptionValue {
                    action: acts[k],
                    mean: means[k],
                    std_err: se(&|i| vals[i * n + k], means[k]),
                    loss,
                    loss_se: se(&|i| vals[i * n + best] - vals[i * n + k], loss),
                    gap,
                    gap_se: se(&|i| vals[i * n + refi] - vals[i * n + k], gap),
                }
            })
            .collect();
        Ok(OptionValues {
            options,
            samples: m as u32,
        })
    }
}

/// How [`Search::value_all`] values the options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueSpec {
    /// Determinizations (each plays every option once).
    pub samples: u32,
    /// The seed of the determinizations and of the playout policies.
    pub seed: u64,
    /// The policy that plays the deciding seat after its action.
    pub own: PolicyKind,
    /// The option the gaps are measured from (None: the best).
    pub reference: Option<usize>,
    /// Threads the determinizations are split over.
    pub threads: usize,
}

impl ValueSpec {
    /// `samples` determinizations seeded with `seed`, played on by the efficiency policy,
    /// gaps from the best, one thread.
    pub fn new(samples: u32, seed: u64) -> ValueSpec {
        ValueSpec {
            samples,
            seed,
            own: PolicyKind::Efficiency,
            reference: None,
            threads: 1,
        }
    }
}

/// The value of one option for the deciding seat (see [`Search::value_all`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionValue {
    /// The action.
    pub action: Action,
    /// Mean score change of the seat over the playouts, in points.
    pub mean: f64,
    /// Standard error of `mean`.
    pub std_err: f64,
    /// The best option's mean minus this one's (0 for the best).
    pub loss: f64,
    /// Standard error of `loss` (from the paired differences on the same deals).
    pub loss_se: f64,
    /// The reference option's mean minus this one's (see [`Search::value_all`]).
    pub gap: f64,
    /// Standard error of `gap`.
    pub gap_se: f64,
}

/// Every option's value and the determinizations played (each plays every option once).
#[derive(Debug, Clone, PartialEq)]
pub struct OptionValues {
    /// One per action, in the order asked.
    pub options: Vec<OptionValue>,
    /// Determinizations played.
    pub samples: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_valued_on_the_same_deals_and_the_seed_fixes_them() {
        let rules = Rules::gb();
        let round = Round::new(&rules, 7, 0, 0).unwrap();
        let obs = round.observe(round.pending().trailing_zeros() as u8);
        let acts: Vec<Action> = obs.legal.as_slice().to_vec();
        let mut s = Search::new(&rules).unwrap();
        let a = s.value_all(&obs, &acts, ValueSpec::new(6, 11)).unwrap();
        let b = s.value_all(&obs, &acts, ValueSpec::new(6, 11)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.samples, 6);
        assert_eq!(a.options.len(), acts.len());
        let best = a.options.iter().map(|o| o.mean).fold(f64::MIN, f64::max);
        for (o, &act) in a.options.iter().zip(&acts) {
            assert_eq!(o.action, act);
            assert!((o.loss - (best - o.mean)).abs() < 1e-9);
            assert!(o.std_err >= 0.0 && o.loss_se >= 0.0);
        }
        assert!(a.options.iter().any(|o| o.loss == 0.0));
        let c = s.value_all(&obs, &acts, ValueSpec::new(6, 12)).unwrap();
        assert_ne!(a, c, "another seed samples other deals");
        for threads in [2, 3, 8] {
            let t = s
                .value_all(
                    &obs,
                    &acts,
                    ValueSpec {
                        threads,
                        ..ValueSpec::new(6, 11)
                    },
                )
                .unwrap();
            assert_eq!(a, t, "{threads} threads");
        }
    }

    #[test]
    fn an_illegal_option_is_an_error() {
        let rules = Rules::gb();
        let round = Round::new(&rules, 7, 0, 0).unwrap();
        let seat = round.pending().trailing_zeros() as u8;
        let obs = round.observe(seat);
        let mut s = Search::new(&rules).unwrap();
        let e = s.value_all(&obs, &[Action::Pass], ValueSpec::new(2, 0));
        assert!(e.is_err());
    }
}
