//! [`RandomPolicy`]: a uniformly random legal action.

use super::{Policy, TableView};
use crate::round::Action;
use crate::wall::Rng;

/// Plays a legal action chosen uniformly at random (wins, claims and passes alike).
#[derive(Debug, Clone)]
pub struct RandomPolicy {
    rng: Rng,
}

impl RandomPolicy {
    /// A random policy seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPolicy {
            rng: Rng::new(seed),
        }
    }
}

impl Policy for RandomPolicy {
    fn name(&self) -> &'static str {
        "random"
    }
    fn begin_hand(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        // Read by position: a turn's discards need not be listed.
        view.legal_uniform(&mut self.rng)
    }
    #[inline]
    fn act_on(&mut self, round: &crate::round::Round, seat: u8) -> Action {
        // What `act` draws through the round's view, read from the round itself.
        round.legal_uniform(seat, &mut self.rng)
    }
    fn reads_legal_by_position(&self) -> bool {
        true
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
