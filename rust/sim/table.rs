//! One thread's table: a reusable round and four policies, playing one hand at a time.

use super::checks::{play_checked, Violations};
use super::outcome::{outcome, HandOutcome};
use crate::error::{MjError, MjResult};
use crate::policy::{play_out, Policy, PolicyKind};
use crate::round::Round;
use crate::rules::Rules;

/// One thread's table: a reusable round (events not recorded: nothing here reads them)
/// and four policies.
pub struct Table {
    rules: Rules,
    round: Option<Round>,
    policies: [Box<dyn Policy>; 4],
}

impl Table {
    /// A table for `rules` with the policies of `kinds` (seat order).
    pub fn new(rules: &Rules, kinds: &[PolicyKind; 4]) -> Table {
        Table {
            rules: rules.clone(),
            round: None,
            policies: std::array::from_fn(|s| kinds[s].build(rules)),
        }
    }

    /// A table for `rules` with the caller's `policies` (seat order in the first game; an
    /// arena permutes them per game). For policies that are not built-in, such as the
    /// Python bindings' adapter for Python bots.
    pub fn with_policies(rules: &Rules, policies: [Box<dyn Policy>; 4]) -> Table {
        Table {
            rules: rules.clone(),
            round: None,
            policies,
        }
    }

    /// The round of the last hand played.
    pub fn round(&self) -> Option<&Round> {
        self.round.as_ref()
    }

    /// Plays one hand on the wall `wall_seed` with `dealer` and `wind`; seat `s`'s policy
    /// is `order[s]` of this table's policies, reseeded with `seeds[s]`. With `check`,
    /// every state is verified ([`check_state`](super::check_state)) and problems are added
    /// to `violations`.
    pub fn play(
        &mut self,
        wall_seed: u64,
        dealer: u8,
        wind: u8,
        order: [usize; 4],
        seeds: [u64; 4],
        violations: Option<&mut Violations>,
    ) -> MjResult<HandOutcome> {
        // Policies that choose by position or read the discards as kinds let the turns
        // leave their discards unlisted.
        let defer = self
            .policies
            .iter()
            .all(|p| p.reads_legal_by_position() || p.reads_turn_discards_as_kinds());
        match self.round.as_mut() {
            Some(r) => {
                r.set_defer_discards(defer);
                r.reset(wall_seed, dealer, wind)?
            }
            None => {
                let mut r = Round::new(&self.rules, wall_seed, dealer, wind)?;
                r.set_record_events(false);
                r.set_defer_discards(defer);
                self.round = Some(r);
            }
        }
        let Some(round) = self.round.as_mut() else {
            return Err(MjError::rule("no round".to_string()));
        };
        for s in 0..4 {
            self.policies[order[s]].begin_hand(seeds[s]);
        }
        // Seat order view of the policies: swap them into place, play, swap back.
        permute(&mut self.policies, order);
        let played = match violations {
            Some(v) => play_checked(round, &mut self.policies, v),
            None => play_out(round, &mut self.policies).map(|_| ()),
        };
        permute(&mut self.policies, inverse(order));
        played?;
        Ok(outcome(round))
    }
}

/// Reorders `items` in place so that position `s` holds what was at `order[s]` (a
/// permutation of 0..4).
fn permute<T>(items: &mut [T; 4], order: [usize; 4]) {
    let mut at = [0, 1, 2, 3];
    for (s, &want) in order.iter().enumerate() {
        if let Some(j) = (s..4).find(|&j| at[j] == want) {
            items.swap(s, j);
            at.swap(s, j);
        }
    }
}

/// The permutation that undoes [`permute`] by `order`.
fn inverse(order: [usize; 4]) -> [usize; 4] {
    let mut back = [0; 4];
    for (s, &p) in order.iter().enumerate() {
        back[p] = s;
    }
    back
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_places_and_restores() {
        for order in [[0, 1, 2, 3], [1, 2, 3, 0], [3, 2, 1, 0], [2, 0, 3, 1]] {
            let mut items = ['a', 'b', 'c', 'd'];
            permute(&mut items, order);
            for s in 0..4 {
                assert_eq!(items[s], ['a', 'b', 'c', 'd'][order[s]]);
            }
            permute(&mut items, inverse(order));
            assert_eq!(items, ['a', 'b', 'c', 'd']);
        }
    }
}
