//! The special GB forms, as replacement numbers (tiles missing from the nearest complete
//! hand of the form; shanten is that number minus the wilds minus one).
//!
//! * seven pairs (七对): seven pairs, a four of a kind counting as two pairs, no melds;
//! * thirteen orphans (十三幺): the thirteen terminals and honors plus a second copy of one;
//! * honors and knitted tiles (全不靠 / 七星不靠): fourteen different tiles among the seven
//!   honors and the nine tiles of one knitted straight (147 / 258 / 369 in the three suits);
//! * knitted straight (组合龙): the nine knitted tiles plus a set and a pair, or plus a pair
//!   beside one declared meld.
//!
//! None of these forms needs a copy that could be missing when the tile is drawn, except a
//! knitted straight beside a melded pung or kong, which [`knitted_straight`] checks.

use super::regular::{combine, finish, group_entry};
use super::tables::INF;
use crate::tile::Counts;

/// Bit mask of the honors (kinds 27-33).
pub const HONOR_MASK: u64 = 0x7F << 27;
/// Bit mask of the thirteen terminals and honors.
pub const ORPHAN_MASK: u64 =
    1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | HONOR_MASK;

/// The nine tiles of each knitted straight: suit `s` takes ranks `≡ perm[s] (mod 3)`.
pub const KNITTED: [u64; 6] = knitted_masks();

const fn knitted_masks() -> [u64; 6] {
    const PERMS: [[u32; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut out = [0u64; 6];
    let mut p = 0;
    while p < 6 {
        let mut s = 0;
        while s < 3 {
            let mut r = PERMS[p][s];
            while r < 9 {
                out[p] |= 1 << (9 * s as u32 + r);
                r += 3;
            }
            s += 1;
        }
        p += 1;
    }
    out
}

/// Bit `t` set when the hand holds kind `t`.
#[inline(always)]
pub fn presence(hand: &Counts) -> u64 {
    let mut m = 0u64;
    for (t, &c) in hand.iter().enumerate() {
        m |= u64::from(c > 0) << t;
    }
    m
}

/// Seven pairs from the number of pairs held (a four counts as two) and of odd counts.
#[inline(always)]
fn seven_pairs_from(pairs: u32, odd: u32) -> u8 {
    if pairs >= 7 {
        return 0;
    }
    let need = 7 - pairs;
    if odd >= need {
        need as u8
    } else {
        (odd + 2 * (need - odd)) as u8
    }
}

/// Seven pairs: each missing pair costs one tile when a single (or a third copy) is there
/// to pair, two otherwise.
#[inline]
pub fn seven_pairs(hand: &Counts) -> u8 {
    let (mut pairs, mut odd) = (0u32, 0u32);
    for &c in hand {
        pairs += (c / 2) as u32;
        odd += (c & 1) as u32;
    }
    seven_pairs_from(pairs, odd)
}

/// Kinds whose draw lowers [`seven_pairs`].
pub fn seven_pairs_improving(hand: &Counts, allowed: u64) -> u64 {
    let (mut pairs, mut odd) = (0u32, 0u32);
    for &c in hand {
        pairs += (c / 2) as u32;
        odd += (c & 1) as u32;
    }
    let d = seven_pairs_from(pairs, odd);
    let mut out = 0;
    for (t, &c) in hand.iter().enumerate() {
        if allowed >> t & 1 == 0 || c >= 4 {
            continue;
        }
        let nd = if c & 1 == 1 {
            seven_pairs_from(pairs + 1, odd - 1)
        } else {
            seven_pairs_from(pairs, odd + 1)
        };
        if nd < d {
            out |= 1 << t;
        }
    }
    out
}

/// Thirteen orphans: one copy of each of the 13 kinds, one of them twice.
#[inline]
pub fn thirteen_orphans(hand: &Counts) -> u8 {
    let mut distinct = 0u8;
    let mut pair = false;
    for t in [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33] {
        distinct += u8::from(hand[t] > 0);
        pair |= hand[t] >= 2;
    }
    13 - distinct + u8::from(!pair)
}

/// Kinds whose draw lowers [`thirteen_orphans`].
pub fn thirteen_orphans_improving(hand: &Counts, allowed: u64) -> u64 {
    let held = presence(hand) & ORPHAN_MASK;
    let pair = [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33].iter().any(|&t| hand[t] >= 2);
    let useful = if pair { ORPHAN_MASK & !held } else { ORPHAN_MASK };
    let avail: u64 = (0..34).filter(|&t| hand[t] < 4).fold(0, |m, t| m | 1 << t);
    useful & allowed & avail
}

/// Honors and knitted tiles: fourteen different kinds out of the seven honors and one
/// knitted straight's nine tiles.
#[inline]
pub fn honors_knitted(hand: &Counts) -> u8 {
    let held = presence(hand);
    let best = KNITTED.iter().map(|&k| (held & (k | HONOR_MASK)).count_ones()).max().unwrap_or(0);
    14 - best.min(14) as u8
}

/// Kinds whose draw lowers [`honors_knitted`].
pub fn honors_knitted_improving(hand: &Counts, allowed: u64) -> u64 {
    let held = presence(hand);
    let best = KNITTED.iter().map(|&k| (held & (k | HONOR_MASK)).count_ones()).max().unwrap_or(0);
    if best >= 14 {
        return 0;
    }
    let mut out = 0;
    for &k in &KNITTED {
        let set = k | HONOR_MASK;
        if (held & set).count_ones() == best {
            out |= set & !held;
        }
    }
    out & allowed
}

/// Knitted straight: the nine knitted tiles of one permutation, plus one set and a pair
/// (no melds) or a pair (one meld). `None` with more than one meld. Without wilds, a
/// knitted tile needs a copy outside the melds and the pair must fit beside melded copies.
pub fn knitted_straight(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> Option<u8> {
    if n_melds > 1 {
        return None;
    }
    let held = presence(hand);
    let wild = wilds > 0;
    let mut best = INF;
    for &k in &KNITTED {
        let present = (held & k).count_ones() as u8;
        let base = 9 - present;
        if base >= best {
            continue;
        }
        let rest_cost = knitted_rest(hand, used, n_melds, wild, k);
        best = best.min(base.saturating_add(rest_cost));
    }
    Some(best)
}

/// Cheapest knitted-straight distance once `bound` is known not to be beaten below it:
/// returns `None` when every permutation costs at least `bound`.
pub fn knitted_straight_below(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
    bound: u8,
) -> Option<u8> {
    if n_melds > 1 {
        return None;
    }
    let held = presence(hand);
    let wild = wilds > 0;
    let mut best = bound;
    for &k in &KNITTED {
        let base = 9 - (held & k).count_ones() as u8;
        if base >= best {
            continue;
        }
        best = best.min(base.saturating_add(knitted_rest(hand, used, n_melds, wild, k)));
    }
    (best < bound).then_some(best)
}

/// The cost of the part beside the knitted tiles `k` (one copy of each held knitted kind
/// goes to the straight).
#[inline]
fn knitted_rest(hand: &Counts, used: &Counts, n_melds: u8, wild: bool, k: u64) -> u8 {
    let mut rest = *hand;
    for (t, r) in rest.iter_mut().enumerate().take(27) {
        if k >> t & 1 == 1 {
            if *r > 0 {
                *r -= 1;
            } else if !wild && used[t] >= 4 {
                // All four copies are melded: this knitted tile cannot be had.
                return INF;
            }
        }
    }
    if n_melds == 1 {
        // Only the pair: at most two missing, and it must fit beside melded copies.
        let mut best = INF;
        for (t, &c) in rest.iter().enumerate() {
            let knit = (k >> t & 1) as u8;
            if !wild && 2 + knit + used[t] > 4 {
                continue;
            }
            best = best.min(2u8.saturating_sub(c));
        }
        return best;
    }
    // One set and a pair: with no melds every kind has four copies; a knitted kind keeps
    // three for the rest, which one set and one pair never exceed (a pung and a pair of
    // one kind would need five).
    let z = [0u8; 9];
    let e0 = group_entry(0, &rest[0..9], &z, wild);
    let e1 = group_entry(1, &rest[9..18], &z, wild);
    let e2 = group_entry(2, &rest[18..27], &z, wild);
    let e3 = group_entry(3, &rest[27..34], &z[..7], wild);
    finish(&combine(&e0, &e1), &combine(&e2, &e3), 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn seven_pairs_counts_fours_as_two_pairs() {
        assert_eq!(seven_pairs(&counts("11112233445566m")), 0);
        assert_eq!(seven_pairs(&counts("1111223344556m")), 1);
        assert_eq!(seven_pairs(&counts("1112223334446m")), 3);
        assert_eq!(seven_pairs(&counts("19m19p19s1234567z")), 7);
        let h = counts("1111223344556m");
        assert_eq!(seven_pairs_improving(&h, u64::MAX), 1 << 5);
    }

    #[test]
    fn thirteen_orphans_distance() {
        assert_eq!(thirteen_orphans(&counts("19m19p19s12345677z")), 0);
        assert_eq!(thirteen_orphans(&counts("19m19p19s1234567z")), 1);
        assert_eq!(thirteen_orphans(&counts("19m19p19s1234566z")), 1);
        let h = counts("19m19p19s1234566z");
        assert_eq!(thirteen_orphans_improving(&h, u64::MAX), 1 << 33);
        assert_eq!(thirteen_orphans(&counts("2345678m2345678p")), 14);
    }

    #[test]
    fn honors_knitted_distance() {
        assert_eq!(honors_knitted(&counts("147m258p369s1234z")), 1);
        assert_eq!(honors_knitted(&counts("147m258p36s1234567z")), 0);
        assert_eq!(honors_knitted(&counts("147m258p36s12344z")), 2);
        let h = counts("147m258p36s12345z");
        assert_eq!(honors_knitted_improving(&h, u64::MAX), 1 << 26 | 1 << 32 | 1 << 33);
    }

    #[test]
    fn knitted_straight_distance() {
        let z = [0u8; 34];
        assert_eq!(knitted_straight(&counts("147m258p369s23m12z"), &z, 0, 0), Some(2));
        assert_eq!(knitted_straight(&counts("147m258p369s234m11z"), &z, 0, 0), Some(0));
        assert_eq!(knitted_straight(&counts("147m258p369s2z"), &z, 1, 0), Some(1));
        assert_eq!(knitted_straight(&counts("147m258p369s2z"), &z, 2, 0), None);
        // A melded kong of 1m leaves no 1m for the 147m straight.
        let mut used = [0u8; 34];
        used[0] = 4;
        assert_eq!(knitted_straight(&counts("47m258p369s22z"), &z, 1, 0), Some(1));
        assert_eq!(knitted_straight(&counts("47m258p369s22z"), &used, 1, 0), Some(6));
    }
}
