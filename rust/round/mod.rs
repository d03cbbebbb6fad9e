//! One hand's state machine: draws, discards, claims and their priority, kongs, wins and
//! settlement. The single source of truth for play.

use crate::rules::RuleSetKind;

crate::option_group! {
    /// Flow-of-play options.
    pub struct TableOptions {
        /// Hands in a match (gb: 16, four rounds of four).
        pub hands_per_match: u16 = 16,
    }
}

impl TableOptions {
    /// The defaults of a rule set.
    pub fn for_rules(_kind: RuleSetKind) -> Self {
        Self::default()
    }
}
