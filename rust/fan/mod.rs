//! GB / classic fan evaluation: the fan catalog (data), the decomposition search and the
//! combination principles.

use crate::rules::RuleSetKind;

crate::option_group! {
    /// Scoring options.
    pub struct FanOptions {
        /// The minimum fan total a win needs (8 in gb; see classic.md §7.2 for classic).
        pub min_fan: u8 = 8,
        /// Count flowers toward the minimum (Botzone's Python environment); MCR does not.
        pub flowers_count_toward_min: bool = false,
    }
}

impl FanOptions {
    /// The defaults of a rule set.
    pub fn for_rules(_kind: RuleSetKind) -> Self {
        Self::default()
    }
}
