//! Parallel batch simulation of whole hands, and the duplicate arena on the same machinery.
//!
//! # Seeding (results do not depend on the thread count)
//!
//! Hand `i` of a run with seed `S` is a pure function of `(S, i)`:
//!
//! - its wall is shuffled from `derive_seed(S, i)` ([`hand_seed`]);
//! - its dealer is `i mod 4` and its prevalent wind `(i / 4) mod 4` ([`deal_of`]), the
//!   rotation of a gb match;
//! - the policy of seat `s` is reseeded with [`policy_seed`]`(derive_seed(S, i), s)` before
//!   the hand.
//!
//! Threads only decide which hands they play, never what happens in them, so the arrays
//! of a run are the same on 1 thread, on 2, or split into shards over several machines
//! (run hands `start..start + count` and concatenate).
//!
//! # Arena
//!
//! [`ArenaSpec`] plays `bots` against each other. With `duplicate`, game `j` plays wall
//! `j / 4` with the seats rotated by `j mod 4` (bot `b` sits at seat `(b + j) mod 4`), so
//! every bot plays every seat of every wall; the dealer and the wind follow the wall.
//! [`ArenaDeal`] owns this dealing and seating for every arena, also one whose table holds
//! policies that are not built-in (the Python bots of the bindings).
//!
//! Every hand is driven through the one [`Round`](crate::round::Round) state machine by
//! [`play_out`](crate::policy::play_out); nothing here knows a rule.
//!
//! # Long runs
//!
//! [`run`] plays a range of hands (or arena games) in blocks handed out in index order to
//! the worker threads and gives the finished items back to the caller's thread in index
//! order, a block at a time. The caller is woken at least every [`TICK`] to look for an
//! interrupt, and may stop the run at any point: the workers finish the hand they are
//! playing and stop, and every item already given back is a prefix of what an
//! uninterrupted run would give. Workers never run more than a few blocks ahead of the
//! caller, so the memory of a run is bounded by what the caller keeps.
//!
//! [`run_in_order`] plays the same items one after another on the caller's thread, for a
//! table whose policies must stay on one thread and play one hand at a time.

mod arena;
mod batch;
mod checks;
mod outcome;
mod run;
mod table;

pub use crate::seed::{deal_of, hand_seed, policy_seed};
pub use arena::{arena, ArenaDeal, ArenaGame, ArenaSpec};
pub use batch::{default_threads, pool, simulate, simulate_checked, SimSpec, MAX_THREADS};
pub use checks::{
    check_result, check_state, complete_by_search, huainan_complete_by_search, play_checked,
    Violations,
};
pub use outcome::{fan_name, outcome, FanTally, HandOutcome, FAN_IDS, MAX_FANS};
pub use run::{run, run_in_order, RunEnd, RunHost, TICK};
pub use table::Table;

/// A simulation of `bots` (one policy name for every seat) under `rules`, seeded 42.
#[cfg(test)]
fn test_spec(bots: &str, rules: crate::rules::Rules) -> SimSpec {
    let k = crate::policy::PolicyKind::parse(bots).unwrap();
    SimSpec {
        rules,
        bots: [k; 4],
        seed: 42,
    }
}
