//! The round's use of the oracle and the fan evaluator: shape checks (is a hand
//! complete, how far from ready) and fan evaluation of a win.

use crate::error::MjResult;
use crate::hand::Meld;
use crate::rules::Rules;
use crate::tile::Counts;

use super::shim as fan_api;
use super::shim as shanten_api;

pub use fan_api::{FanResult, WinInput};

/// True if the concealed tiles (14 - 3k, winning tile included) with `melds` form a
/// winning shape of the rule set (the fan minimum is not checked here).
#[inline]
pub fn complete(concealed: &Counts, melds: &[Meld]) -> bool {
    let used = shanten_api::used_counts(melds);
    shanten_api::is_win(concealed, &used, melds.len() as u8, 0)
}

/// Shanten of 13 - 3k or 14 - 3k concealed tiles beside `melds` (-1 complete, 0 ready).
#[inline]
pub fn shanten(concealed: &Counts, melds: &[Meld]) -> i8 {
    let used = shanten_api::used_counts(melds);
    shanten_api::shanten(concealed, &used, melds.len() as u8, 0)
}

/// Fan evaluation of a win.
#[inline]
pub fn evaluate(input: &WinInput, rules: &Rules) -> MjResult<FanResult> {
    fan_api::evaluate(input, rules)
}

/// True if a declared ready (报听) scores its fan under these rules (classic's 听牌).
#[inline]
pub fn ready_scores(rules: &Rules) -> bool {
    fan_api::ready_fan(rules)
}
