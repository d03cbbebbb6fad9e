//! The seeding of a run: wall seeds, policy seeds, dealer and wind of hand `i`. Below the
//! policies and the simulator, so that both derive their seeds from one place.

use crate::wall::derive_seed;

const POLICY_STREAM: u64 = 0x5EED_B075_0000_0001;

/// The wall seed of hand `index` of a run seeded `seed`.
#[inline]
pub fn hand_seed(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index)
}

/// The seed of seat `seat`'s policy for a hand whose wall seed is `hand_seed`.
#[inline]
pub fn policy_seed(hand_seed: u64, seat: u8) -> u64 {
    derive_seed(hand_seed ^ POLICY_STREAM, seat as u64)
}

/// Dealer and prevalent wind of hand `index`: the dealer moves every hand, the wind every
/// four.
#[inline]
pub fn deal_of(index: u64) -> (u8, u8) {
    ((index % 4) as u8, ((index / 4) % 4) as u8)
}
