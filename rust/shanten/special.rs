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
//! None of the first three needs a copy that could be missing when the tile is drawn (they
//! take no melds). The knitted straight lives in [`super::knitted`].

use super::swar;
use crate::tile::Counts;

/// Bit mask of the honors (kinds 27-33).
pub const HONOR_MASK: u64 = 0x7F << 27;
/// Bit mask of the thirteen terminals and honors.
pub const ORPHAN_MASK: u64 = 1 | 1 << 8 | 1 << 9 | 1 << 17 | 1 << 18 | 1 << 26 | HONOR_MASK;

/// The nine tiles of each knitted straight (see [`super::knitted::MASKS`]).
pub const KNITTED: [u64; 6] = super::knitted::MASKS;

/// Bit `t` set when the hand holds kind `t`.
#[inline(always)]
pub fn presence(hand: &Counts) -> u64 {
    kinds_above(hand, 0)
}

/// Bit `t` set when the hand holds at least two of kind `t`.
#[inline(always)]
pub fn pairs_held(hand: &Counts) -> u64 {
    kinds_above(hand, 1)
}

/// Bit `t` set when the hand holds at least three of kind `t` (counts are at most 4).
#[inline(always)]
pub fn threes_held(hand: &Counts) -> u64 {
    kinds_above(hand, 2)
}

/// Bit `t` set when kind `t` counts four (counts are at most 4).
#[inline(always)]
pub fn fours(counts: &Counts) -> u64 {
    kinds_above(counts, 3)
}

/// Bit `t` set when kind `t` counts more than `k` (counts at most 7): sixteen counts
/// compared at a time and their flags gathered by one SSE2 `movemask` on x86-64; elsewhere
/// eight at a time through [`kinds_where`].
#[inline(always)]
fn kinds_above(hand: &Counts, k: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let (a, rest) = hand.split_at(16);
        let (b, c) = rest.split_at(16);
        let a: [u8; 16] = a.try_into().unwrap_or([0; 16]);
        let b: [u8; 16] = b.try_into().unwrap_or([0; 16]);
        let tail = u64::from(c.first().map_or(0, |&x| u8::from(x > k)))
            | u64::from(c.get(1).map_or(0, |&x| u8::from(x > k))) << 1;
        // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the two 16-byte
        // arrays above. Counts are at most 7, so the signed comparison is exact.
        unsafe {
            let kk = _mm_set1_epi8(k as i8);
            let va = _mm_loadu_si128(a.as_ptr() as *const __m128i);
            let vb = _mm_loadu_si128(b.as_ptr() as *const __m128i);
            let ma = _mm_movemask_epi8(_mm_cmpgt_epi8(va, kk)) as u32 as u64;
            let mb = _mm_movemask_epi8(_mm_cmpgt_epi8(vb, kk)) as u32 as u64;
            ma | mb << 16 | tail << 32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        kinds_above_word_wise(hand, k)
    }
}

/// [`kinds_above`] for `k` at most 3, eight counts at a time through [`kinds_where`]: the
/// form off x86-64 (and the one the tests compare the SSE2 form with).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn kinds_above_word_wise(hand: &Counts, k: u8) -> u64 {
    // A count of at most 7 is above 0 when one of its low three bits is set, above 1 when
    // bit 1 or 2 is, above 2 when bits 0 and 1 or bit 2 are, above 3 when bit 2 is.
    match k {
        0 => kinds_where(hand, |x| x | x >> 1 | x >> 2),
        1 => kinds_where(hand, |x| x >> 1 | x >> 2),
        2 => kinds_where(hand, |x| (x & x >> 1) | x >> 2),
        _ => kinds_where(hand, |x| x >> 2),
    }
}

/// Bit `t` set when bit 0 of `flag(count)` is set for kind `t`, eight counts at a time:
/// `flag` works on a word of eight counts and the multiply gathers the eight flags into
/// one byte.
#[inline(always)]
fn kinds_where(hand: &Counts, flag: impl Fn(u64) -> u64) -> u64 {
    // The fifth word's empty bytes flag nothing: every `flag` here maps 0 to 0.
    swar::words(hand).iter().enumerate().fold(0, |m, (c, &x)| {
        let f = flag(x) & 0x0101_0101_0101_0101;
        m | swar::gather_high_bits(f << 7) << (8 * c)
    })
}

/// Seven pairs from the number of pairs held (a four counts as two) and of odd counts.
#[inline(always)]
pub(crate) fn seven_pairs_from(pairs: u32, odd: u32) -> u8 {
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
    let (pairs, odd) = pair_stats(hand);
    seven_pairs_from(pairs, odd)
}

/// Pairs held (a four counts as two) and kinds held an odd number of times.
#[inline(always)]
pub(crate) fn pair_stats(hand: &Counts) -> (u32, u32) {
    let (mut pairs, mut odd) = (0u64, 0u64);
    for x in swar::words(hand) {
        // Each word's byte sums stay below 256.
        pairs += swar::byte_sum((x >> 1) & 0x0303_0303_0303_0303);
        odd += swar::byte_sum(x & 0x0101_0101_0101_0101);
    }
    (pairs as u32, odd as u32)
}

/// Kinds whose draw lowers [`seven_pairs`].
pub fn seven_pairs_improving(hand: &Counts, allowed: u64) -> u64 {
    let (pairs, odd) = pair_stats(hand);
    let d = seven_pairs_from(pairs, odd);
    // A draw of a kind held an odd number of times makes one more pair (a four counts as
    // two); a draw of a kind held 0 or 2 times makes one more odd kind.
    let odd_kinds = kinds_where(hand, |x| x);
    let four_kinds = fours(hand);
    let all = (1u64 << 34) - 1;
    let mut out = 0;
    if odd > 0 && seven_pairs_from(pairs + 1, odd - 1) < d {
        out |= odd_kinds;
    }
    if seven_pairs_from(pairs, odd + 1) < d {
        out |= all & !odd_kinds & !four_kinds;
    }
    out & allowed
}

/// Thirteen orphans: one copy of each of the 13 kinds, one of them twice.
#[inline]
pub fn thirteen_orphans(hand: &Counts) -> u8 {
    thirteen_orphans_held(presence(hand), pairs_held(hand))
}

/// The orphan kinds (terminals and honors) not among the kinds `held`: a lower bound of
/// [`thirteen_orphans_held`] (which adds one when no orphan is held twice).
#[inline(always)]
pub fn orphans_missing(held: u64) -> u8 {
    // The six suit terminals gathered into the seven bits above the honors' count.
    let ends = (held & 1)
        | (held >> 7 & 2)
        | (held >> 7 & 4)
        | (held >> 14 & 8)
        | (held >> 14 & 16)
        | (held >> 21 & 32);
    13 - HONOR_COUNT[(held >> 27 & 0x7F) as usize] - HONOR_COUNT[ends as usize]
}

/// [`thirteen_orphans`] from the kinds held ([`presence`]) and held twice ([`pairs_held`]).
#[inline(always)]
pub fn thirteen_orphans_held(held: u64, pairs: u64) -> u8 {
    orphans_missing(held) + u8::from(pairs & ORPHAN_MASK == 0)
}

/// Kinds whose draw lowers [`thirteen_orphans`].
pub fn thirteen_orphans_improving(hand: &Counts, allowed: u64) -> u64 {
    let held = presence(hand) & ORPHAN_MASK;
    let pair = [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        .iter()
        .any(|&t| hand[t] >= 2);
    let useful = if pair {
        ORPHAN_MASK & !held
    } else {
        ORPHAN_MASK
    };
    let avail: u64 = (0..34).filter(|&t| hand[t] < 4).fold(0, |m, t| m | 1 << t);
    useful & allowed & avail
}

/// Honors and knitted tiles: fourteen different kinds out of the seven honors and one
/// knitted straight's nine tiles.
#[inline]
pub fn honors_knitted(hand: &Counts) -> u8 {
    honors_knitted_held(presence(hand))
}

/// [`honors_knitted`] from the [`presence`] mask.
#[inline(always)]
pub fn honors_knitted_held(held: u64) -> u8 {
    // The honors held count for every permutation alike.
    let honors = HONOR_COUNT[(held >> 27 & 0x7F) as usize];
    let best = super::knitted::most_held(held) + honors;
    14 - best.min(14)
}

/// `HONOR_COUNT[b]`: the number of bits set in the seven bits `b`.
const HONOR_COUNT: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    t
};

/// Kinds whose draw lowers [`honors_knitted`].
pub fn honors_knitted_improving(hand: &Counts, allowed: u64) -> u64 {
    let held = presence(hand);
    let best = KNITTED
        .iter()
        .map(|&k| (held & (k | HONOR_MASK)).count_ones())
        .max()
        .unwrap_or(0);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    #[test]
    fn kinds_above_a_count_agree_with_reading_each_count() {
        let mut rng = crate::wall::Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..5_000 {
            let mut c = [0u8; 34];
            for v in c.iter_mut() {
                // Mostly 0-4, some 5-7 (the counts the forms allow at most).
                let top = if rng.below(16) == 0 { 8 } else { 5 };
                *v = rng.below(top) as u8;
            }
            for k in 0..4u8 {
                let want = (0..34).fold(0u64, |m, t| m | u64::from(c[t] > k) << t);
                assert_eq!(kinds_above(&c, k), want, "{c:?} above {k}");
            }
            assert_eq!(presence(&c), kinds_above(&c, 0));
            assert_eq!(pairs_held(&c), kinds_above(&c, 1));
            assert_eq!(threes_held(&c), kinds_above(&c, 2));
            assert_eq!(fours(&c), kinds_above(&c, 3));
            // The word-wise form the other targets run.
            for k in 0..4u8 {
                assert_eq!(
                    kinds_above_word_wise(&c, k),
                    kinds_above(&c, k),
                    "{c:?} above {k}"
                );
            }
        }
    }

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn bit_tricks_match_loops() {
        let mut s = 99u64;
        for _ in 0..2000 {
            let mut h = [0u8; 34];
            for c in h.iter_mut() {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *c = ((s >> 33) % 5) as u8;
            }
            let naive = (0..34).fold(0u64, |m, t| m | u64::from(h[t] > 0) << t);
            assert_eq!(presence(&h), naive);
            let twice = (0..34).fold(0u64, |m, t| m | u64::from(h[t] >= 2) << t);
            assert_eq!(
                fours(&h),
                (0..34).fold(0u64, |m, t| m | u64::from(h[t] == 4) << t)
            );
            assert_eq!(pairs_held(&h), twice);
            let orphans = [0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
            let distinct = orphans.iter().filter(|&&t| h[t] > 0).count() as u8;
            let pair = orphans.iter().any(|&t| h[t] >= 2);
            assert_eq!(thirteen_orphans(&h), 13 - distinct + u8::from(!pair));
            let pairs: u32 = h.iter().map(|&c| (c / 2) as u32).sum();
            let odd: u32 = h.iter().map(|&c| (c & 1) as u32).sum();
            assert_eq!(pair_stats(&h), (pairs, odd));
        }
    }

    #[test]
    fn seven_pairs_improving_matches_trying_every_draw() {
        let mut s = 7u64;
        for _ in 0..20_000 {
            // 13 tiles over few kinds, so that pairs, triples and fours are common.
            let mut h = [0u8; 34];
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let kinds = 4 + (s >> 40) as usize % 10;
            let mut n = 0;
            while n < 13 {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let t = (s >> 33) as usize % kinds * 2;
                if h[t] < 4 {
                    h[t] += 1;
                    n += 1;
                }
            }
            let d = seven_pairs(&h);
            let lowering = (0..34).filter(|&t| h[t] < 4).fold(0u64, |m, t| {
                let mut more = h;
                more[t] += 1;
                m | u64::from(seven_pairs(&more) < d) << t
            });
            assert_eq!(seven_pairs_improving(&h, u64::MAX), lowering, "{h:?}");
        }
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
        assert_eq!(
            honors_knitted_improving(&h, u64::MAX),
            1 << 26 | 1 << 32 | 1 << 33
        );
    }
}
