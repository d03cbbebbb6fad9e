//! Batch simulation: hands `start..start + count` of a [`SimSpec`] on a thread pool.

use super::checks::Violations;
use super::outcome::HandOutcome;
use super::table::Table;
use crate::error::{MjError, MjResult};
use crate::policy::PolicyKind;
use crate::rules::Rules;
use crate::seed::{deal_of, hand_seed, policy_seed};
use rayon::prelude::*;

/// A simulation: rules, one policy per seat and a seed.
#[derive(Clone)]
pub struct SimSpec {
    /// The rules.
    pub rules: Rules,
    /// The policy of each seat.
    pub bots: [PolicyKind; 4],
    /// The run's seed.
    pub seed: u64,
}

/// Most worker threads a run may ask for.
pub const MAX_THREADS: usize = 256;

impl SimSpec {
    /// Plays hand `index` on `table`; with `check`, every state is verified and the
    /// problems are returned beside the outcome.
    pub fn play(
        &self,
        table: &mut Table,
        index: u64,
        check: bool,
    ) -> MjResult<(HandOutcome, Violations)> {
        let ws = hand_seed(self.seed, index);
        let (dealer, wind) = deal_of(index);
        let seeds = std::array::from_fn(|s| policy_seed(ws, s as u8));
        let mut v = Violations::default();
        let o = table.play(
            ws,
            dealer,
            wind,
            [0, 1, 2, 3],
            seeds,
            check.then_some(&mut v),
        )?;
        Ok((o, v))
    }
}

/// The thread count used when none is given: `RAYON_NUM_THREADS` when it holds a positive
/// number (as for every rayon pool), else the cores available.
pub fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |c| c.get()))
        .min(MAX_THREADS)
}

/// A pool of `threads` worker threads named `majiang-<i>` (all cores when `None` or 0);
/// more than [`MAX_THREADS`] is an error.
pub fn pool(threads: Option<usize>) -> MjResult<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("majiang-{i}"));
    if let Some(n) = threads.filter(|&n| n > 0) {
        if n > MAX_THREADS {
            return Err(MjError::rule(format!(
                "threads must be between 1 and {MAX_THREADS}, got {n}"
            )));
        }
        b = b.num_threads(n);
    }
    b.build()
        .map_err(|e| MjError::rule(format!("cannot start the worker threads: {e}")))
}

/// Plays hands `start..start + count` of `spec` on `pool`, in hand order, each through
/// `play(table, wall seed, dealer, wind, policy seeds)` on a per-thread [`Table`].
fn par_hands<T: Send>(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
    play: impl Fn(&mut Table, u64, u8, u8, [u64; 4]) -> MjResult<T> + Sync + Send,
) -> MjResult<Vec<T>> {
    pool.install(|| {
        (0..count)
            .into_par_iter()
            .with_min_len(64)
            .map_init(
                || Table::new(&spec.rules, &spec.bots),
                |table, k| {
                    let i = start + k as u64;
                    let ws = hand_seed(spec.seed, i);
                    let (dealer, wind) = deal_of(i);
                    play(
                        table,
                        ws,
                        dealer,
                        wind,
                        std::array::from_fn(|s| policy_seed(ws, s as u8)),
                    )
                },
            )
            .collect()
    })
}

/// Plays hands `start..start + count` of `spec` on `pool`, in hand order.
pub fn simulate(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<Vec<HandOutcome>> {
    par_hands(
        spec,
        start,
        count,
        pool,
        |table, ws, dealer, wind, seeds| table.play(ws, dealer, wind, [0, 1, 2, 3], seeds, None),
    )
}

/// Like [`simulate`], verifying every state of every hand; returns the outcomes and what
/// was found wrong.
pub fn simulate_checked(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<(Vec<HandOutcome>, Violations)> {
    let parts = par_hands(
        spec,
        start,
        count,
        pool,
        |table, ws, dealer, wind, seeds| {
            let mut v = Violations::default();
            let o = table.play(ws, dealer, wind, [0, 1, 2, 3], seeds, Some(&mut v))?;
            Ok((o, v))
        },
    )?;
    let mut out = Vec::with_capacity(parts.len());
    let mut all = Violations::default();
    for (o, v) in parts {
        out.push(o);
        all = all.merge(v);
    }
    Ok((out, all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::test_spec as spec;

    #[test]
    fn same_seed_same_outcomes_whatever_the_threads_and_shards() {
        let s = spec("efficiency", Rules::gb());
        let one = simulate(&s, 0, 200, &pool(Some(1)).unwrap()).unwrap();
        let two = simulate(&s, 0, 200, &pool(Some(2)).unwrap()).unwrap();
        assert_eq!(one, two);
        let mut shards = simulate(&s, 0, 120, &pool(Some(2)).unwrap()).unwrap();
        shards.extend(simulate(&s, 120, 80, &pool(Some(1)).unwrap()).unwrap());
        assert_eq!(one, shards);
    }

    #[test]
    fn invariants_hold_for_every_bot_and_rule_set() {
        for rules in [
            Rules::gb(),
            Rules::named("classic").unwrap(),
            Rules::named("huainan").unwrap(),
        ] {
            for bots in ["random", "efficiency"] {
                let s = spec(bots, rules.clone());
                let (out, v) = simulate_checked(&s, 0, 300, &pool(Some(2)).unwrap()).unwrap();
                assert_eq!(v.count, 0, "{bots}: {:?}", v.first);
                assert_eq!(out.len(), 300);
                for o in &out {
                    assert_eq!(o.scores.iter().sum::<i32>(), 0);
                }
            }
        }
    }

    #[test]
    fn efficiency_bots_win_in_gb() {
        let s = spec("efficiency", Rules::gb());
        let out = simulate(&s, 0, 400, &pool(Some(2)).unwrap()).unwrap();
        let wins = out.iter().filter(|o| o.winner >= 0).count();
        assert!(wins > 100, "only {wins} wins in 400 hands");
        assert!(out
            .iter()
            .filter(|o| o.winner >= 0)
            .all(|o| o.fan_total >= 8));
    }

    #[test]
    fn huainan_plays_with_the_wild_aware_policy() {
        let s = spec("efficiency", Rules::named("huainan").unwrap());
        let a = simulate(&s, 0, 40, &pool(Some(2)).unwrap()).unwrap();
        let b = simulate(&s, 0, 40, &pool(Some(1)).unwrap()).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|h| h.scores.iter().sum::<i32>() == 0));
        assert!(a.iter().filter(|h| h.winner >= 0).count() > 20);
    }
}
