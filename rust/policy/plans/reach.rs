//! The reach tests of the knitted forms and thirteen orphans in
//! [`super::Evaluator::select_chow_plans`], read from counts of kinds held: one table
//! lookup per suit gives the kinds it holds in each residue class (147, 258, 369) and at
//! its two ends, so that the tests add a few bytes instead of clearing the bits of each
//! form's missing kinds one by one (the baseline x86-64 target has no population count).

use crate::shanten::knitted::PERMS;

/// For a suit's kinds held (bit `i` for its kind `i`): the kinds held in each residue class
/// (kinds `r`, `r + 3`, `r + 6`) in bytes 0-2, and among its 1 and 9 in byte 3.
static SUIT_HELD: [[u8; 4]; 512] = {
    let mut t = [[0u8; 4]; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut i = 0;
        while i < 9 {
            if bits >> i & 1 == 1 {
                t[bits][i % 3] += 1;
                if i == 0 || i == 8 {
                    t[bits][3] += 1;
                }
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

/// The counts of the kinds `held` (bit `t` for kind `t`) that the reach tests compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reach {
    suits: [[u8; 4]; 3],
    /// Honor kinds held.
    pub honors: u8,
}

impl Reach {
    #[inline(always)]
    pub(super) fn new(held: u64) -> Reach {
        let suit = |s: usize| SUIT_HELD[(held >> (9 * s)) as usize & 0x1FF];
        let honors = held >> 27 & 0x7F;
        // The set bits of each half counted by a nibble of a constant.
        let low = (0x4332_3221_3221_2110u64 >> (4 * (honors & 0xF))) & 0xF;
        let high = (0x3221_2110u64 >> (4 * (honors >> 4))) & 0xF;
        Reach {
            suits: [suit(0), suit(1), suit(2)],
            honors: (low + high) as u8,
        }
    }

    /// Kinds of permutation `p`'s knitted straight held ([`crate::shanten::knitted::MASKS`]).
    #[inline(always)]
    pub(super) fn knitted(&self, p: usize) -> u8 {
        let r = PERMS[p];
        self.suits[0][r[0]] + self.suits[1][r[1]] + self.suits[2][r[2]]
    }

    /// Orphan kinds held (the suits' ends and the honors).
    #[inline(always)]
    pub(super) fn orphans(&self) -> u8 {
        self.suits[0][3] + self.suits[1][3] + self.suits[2][3] + self.honors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shanten::knitted::MASKS;
    use crate::shanten::special::{HONOR_MASK, ORPHAN_MASK};

    #[test]
    fn the_counts_equal_the_kinds_counted_in_the_bit_sets() {
        let mut rng = crate::wall::Rng::new(0x0004_EAC4);
        for _ in 0..20_000 {
            let held = rng.below(1 << 34) & rng.below(1 << 34) | rng.below(1 << 34);
            let r = Reach::new(held);
            for (p, k) in MASKS.iter().enumerate() {
                assert_eq!(r.knitted(p) as u32, (held & k).count_ones());
            }
            assert_eq!(r.honors as u32, (held & HONOR_MASK).count_ones());
            assert_eq!(r.orphans() as u32, (held & ORPHAN_MASK).count_ones());
        }
    }
}
