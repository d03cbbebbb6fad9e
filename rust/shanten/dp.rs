//! Exact replacement numbers of one group under per-kind copy limits, by dynamic
//! programming over the kinds in order.
//!
//! The tables assume every kind may hold four copies. When some copies of a group's kinds
//! sit in melds, a configuration must keep `c_i <= 4 - used_i`, and this module computes
//! the group's entry directly: walking the kinds left to right, the state is the number of
//! chows started one and two kinds back (they still need this kind), the sets chosen so far
//! and whether the pair is placed; at each kind the choice is how many chows start here, a
//! pung or not, the pair or not. The cost of a kind is `max(c_i - v_i, 0)`.

use super::tables::{Entry, INF, LANES};
use std::cell::RefCell;

/// Slots of the per-thread cache of computed entries (a power of two).
const CACHE_SLOTS: usize = 1 << 13;

thread_local! {
    /// Direct-mapped cache: bots and the simulator ask about the same group under the same
    /// melds again and again (every discard, every draw), so most answers are found here.
    static CACHE: RefCell<Vec<(u64, Entry)>> = RefCell::new(vec![(0, [0; LANES]); CACHE_SLOTS]);
}

/// [`entry`] through the per-thread cache (allocated once per thread, never per call).
pub fn cached_entry(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
    let mut key = 1u64 << 63 | (chows as u64) << 62 | (max_sets.min(4) as u64) << 59;
    for (i, (&h, &l)) in v.iter().zip(limit).enumerate() {
        key |= ((h.min(7) as u64) | (l.min(7) as u64) << 3) << (6 * i);
    }
    let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 13)) as usize;
    let hit = CACHE.with(|c| {
        let c = c.borrow();
        let (k, e) = c[slot];
        (k == key).then_some(e)
    });
    if let Some(e) = hit {
        return e;
    }
    let e = entry(v, limit, chows, max_sets);
    CACHE.with(|c| c.borrow_mut()[slot] = (key, e));
    e
}

/// The entry of `v` (one group, up to 9 kinds) when kind `i` may hold at most `limit[i]`
/// copies; `chows` is false for the honors. Lanes with more than `max_sets` sets are left
/// at [`INF`] (a hand beside `k` melds never needs more than `4 - k`).
///
/// The state after each kind is, for every number of chows started one and two kinds
/// back, the best cost of every number of sets chosen so far side by side in the bytes
/// of two words, one without the pair placed and one with it: choosing `x` chows and `y`
/// pungs starting here moves every byte `x + y` bytes up and adds the same cost to all,
/// and placing the pair moves the first word's bytes into the second, so each choice is a
/// shift, an addition and a bytewise minimum over all the targets together.
#[allow(clippy::needless_range_loop)]
pub fn entry(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
    let top = max_sets.min(4);
    // Bytes `0..=top` exist; the others stay at INF.
    let valid = SETS >> (8 * (4 - top));
    // [chows started at the previous kind][two kinds back]: (no pair, pair).
    let mut dp = [[(INF_SETS, INF_SETS); 5]; 5];
    dp[0][0].0 = INF_SETS & !0xFF;
    let n = v.len();
    for i in 0..n {
        let mut next = [[(INF_SETS, INF_SETS); 5]; 5];
        let can_start = chows && i + 2 < n;
        let lim = limit[i] as usize;
        let have = v[i] as usize;
        // The cells given a cost at this kind (bit 5x + p1).
        let mut written = 0u32;
        for p1 in 0..=4usize {
            for p2 in 0..=4 - p1 {
                let (bare, paired) = dp[p1][p2];
                let carried = p1 + p2;
                if carried > lim || bare == INF_SETS && paired == INF_SETS {
                    continue;
                }
                let max_x = if can_start { top } else { 0 };
                for x in 0..=max_x {
                    let cx = carried + x;
                    if cx > lim {
                        break;
                    }
                    for y in 0..=top - x {
                        let cy = cx + 3 * y;
                        if cy > lim {
                            break;
                        }
                        // Sets past the last target and the counts left below are
                        // unreachable.
                        let up = 8 * (x + y);
                        let keep = valid & (SETS << up);
                        let gone = INF_SETS & !keep;
                        let cell = &mut next[x][p1];
                        written |= 1 << (5 * x + p1);
                        let add = cy.saturating_sub(have) as u64 * ONE_SETS;
                        cell.0 = min_bytes(cell.0, ((bare << up) & keep | gone) + add);
                        cell.1 = min_bytes(cell.1, ((paired << up) & keep | gone) + add);
                        if cy + 2 <= lim {
                            let add = (cy + 2).saturating_sub(have) as u64 * ONE_SETS;
                            cell.1 = min_bytes(cell.1, ((bare << up) & keep | gone) + add);
                        }
                    }
                }
            }
        }
        // Unreachable targets may have gained a cost above INF: back to INF.
        while written != 0 {
            let b = written.trailing_zeros() as usize;
            written &= written - 1;
            let cell = &mut next[b / 5][b % 5];
            cell.0 = min_bytes(cell.0, INF_SETS);
            cell.1 = min_bytes(cell.1, INF_SETS);
        }
        dp = next;
    }
    let mut out = [INF; LANES];
    for m in 0..=4 {
        out[2 * m] = (dp[0][0].0 >> (8 * m)) as u8;
        out[2 * m + 1] = (dp[0][0].1 >> (8 * m)) as u8;
    }
    out
}

/// The five bytes of the numbers of sets 0 to 4.
const SETS: u64 = (1 << 40) - 1;
/// One in every byte of [`SETS`].
const ONE_SETS: u64 = SETS / 0xFF;
/// [`INF`] in every byte of [`SETS`].
const INF_SETS: u64 = ONE_SETS * INF as u64;
/// The high bit of every byte.
const HIGH_BYTES: u64 = 0x8080_8080_8080_8080;

/// The bytewise minimum of `a` and `b`, every byte below 128.
#[inline(always)]
fn min_bytes(a: u64, b: u64) -> u64 {
    // A byte's high bit is set where a >= b (no borrow crosses a byte: a | 128 > b).
    let ge = (((a | HIGH_BYTES) - b) & HIGH_BYTES) >> 7;
    let mask = ge * 0xFF;
    (b & mask) | (a & !mask)
}

#[cfg(test)]
mod tests {
    use super::super::tables;
    use super::*;

    /// The DP state by state, as first written (the reference of [`entry`]): the entry of `v` (one group, up to 9 kinds) when kind `i` may hold at most `limit[i]`
    /// copies; `chows` is false for the honors. Lanes with more than `max_sets` sets are left
    /// at [`INF`] (a hand beside `k` melds never needs more than `4 - k`).
    #[allow(clippy::needless_range_loop)]
    fn reference_entry(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
        let top = max_sets.min(4);
        // dp[p1][p2][m][p]: p1 chows started at the previous kind, p2 two kinds back.
        let mut dp = [[[[INF; 2]; 5]; 5]; 5];
        dp[0][0][0][0] = 0;
        let n = v.len();
        // Largest p1 + p2 reachable so far (0 without chows), to skip empty states.
        let mut open = 0usize;
        for i in 0..n {
            let mut next = [[[[INF; 2]; 5]; 5]; 5];
            let can_start = chows && i + 2 < n;
            let lim = limit[i] as usize;
            let have = v[i] as usize;
            let mut next_open = 0usize;
            for p1 in 0..=open.min(4) {
                for p2 in 0..=(open - p1).min(4 - p1) {
                    let carried = p1 + p2;
                    if carried > lim {
                        continue;
                    }
                    for m in carried..=top {
                        for p in 0..2usize {
                            let cost = dp[p1][p2][m][p];
                            if cost >= INF {
                                continue;
                            }
                            let max_x = if can_start { top - m } else { 0 };
                            for x in 0..=max_x {
                                let cx = carried + x;
                                if cx > lim {
                                    break;
                                }
                                for y in 0..=(top - m - x) {
                                    let cy = cx + 3 * y;
                                    if cy > lim {
                                        break;
                                    }
                                    for z in 0..=(1 - p) {
                                        let c = cy + 2 * z;
                                        if c > lim {
                                            break;
                                        }
                                        let add = c.saturating_sub(have) as u8;
                                        let cell = &mut next[x][p1][m + x + y][p + z];
                                        *cell = (*cell).min(cost + add);
                                        next_open = next_open.max(x + p1);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            dp = next;
            open = next_open;
        }
        let mut out = [INF; LANES];
        for m in 0..=top {
            for p in 0..2 {
                out[2 * m + p] = dp[0][0][m][p];
            }
        }
        out
    }

    /// A small deterministic generator for the cross-checks.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn dp_matches_the_tables() {
        let mut s = 7u64;
        for _ in 0..3000 {
            let mut v = [0u8; 9];
            let n = lcg(&mut s) % 15;
            let mut placed = 0;
            while placed < n {
                let k = (lcg(&mut s) % 9) as usize;
                if v[k] < 4 {
                    v[k] += 1;
                    placed += 1;
                }
            }
            assert_eq!(
                entry(&v, &[4; 9], true, 4),
                *tables::suit().get(&v),
                "{v:?}"
            );
            assert_eq!(
                entry(&v, &[14; 9], true, 4),
                *tables::suit_wild().get(&v),
                "{v:?}"
            );
            let h = &v[..7];
            if h.iter().map(|&x| x as u32).sum::<u32>() <= 14 {
                assert_eq!(
                    entry(h, &[4; 7], false, 4),
                    *tables::honors().get(h),
                    "{h:?}"
                );
                assert_eq!(
                    entry(h, &[14; 7], false, 4),
                    *tables::honors_wild().get(h),
                    "{h:?}"
                );
            }
        }
    }

    #[test]
    fn the_lanes_dp_is_the_state_by_state_dp() {
        let mut s = 11u64;
        for round in 0..40_000 {
            let n = if round % 3 == 0 { 7 } else { 9 };
            let mut v = [0u8; 9];
            let mut lim = [4u8; 9];
            for k in 0..n {
                lim[k] = match lcg(&mut s) % 6 {
                    0 => 14,
                    r => (r - 1) as u8,
                };
                v[k] = (lcg(&mut s) % 5) as u8;
            }
            let chows = n == 9;
            let max_sets = (lcg(&mut s) % 6) as usize;
            assert_eq!(
                entry(&v[..n], &lim[..n], chows, max_sets),
                reference_entry(&v[..n], &lim[..n], chows, max_sets),
                "{v:?} {lim:?} {max_sets}"
            );
        }
    }

    #[test]
    fn cache_returns_the_same_entries() {
        let v = [1u8, 1, 1, 0, 2, 0, 0, 0, 1];
        let lim = [3u8, 3, 3, 4, 4, 4, 4, 4, 4];
        assert_eq!(cached_entry(&v, &lim, true, 3), entry(&v, &lim, true, 3));
        assert_eq!(cached_entry(&v, &lim, true, 3), entry(&v, &lim, true, 3));
        assert_eq!(cached_entry(&v, &lim, true, 2), entry(&v, &lim, true, 2));
        assert_eq!(
            cached_entry(&v[..7], &lim[..7], false, 3),
            entry(&v[..7], &lim[..7], false, 3)
        );
    }

    #[test]
    fn limits_forbid_blocks() {
        // One 1m in hand, a pung of 1m melded: no pair of 1m is possible.
        let mut v = [0u8; 9];
        v[0] = 1;
        let mut lim = [4u8; 9];
        lim[0] = 1;
        let e = entry(&v, &lim, true, 4);
        assert_eq!(e[1], 2); // a pair elsewhere costs two
        assert_eq!(entry(&v, &[4; 9], true, 4)[1], 1);
    }
}
