//! Exact replacement numbers of one group under per-kind copy limits, by dynamic
//! programming over the kinds in order.
//!
//! The tables assume every kind may hold four copies. When some copies of a group's kinds
//! sit in melds, a configuration must keep `c_i <= 4 - used_i`, and this module computes
//! the group's entry directly: walking the kinds left to right, the state is the number of
//! chows started one and two kinds back (they still need this kind), the sets chosen so far
//! and whether the pair is placed; at each kind the choice is how many chows start here, a
//! pung or not, the pair or not. The cost of a kind is `max(c_i - v_i, 0)`.

mod packed;

use super::tables::{Entry, INF, LANES};
use std::cell::RefCell;

/// Slots of the per-thread cache of computed entries (a power of two).
const CACHE_SLOTS: usize = 1 << 13;

/// Improving masks of a group's lanes: bit `j` of lane `l` is set when one more tile of
/// the group's kind `j` lowers lane `l` (the layout of the tables' masks).
pub type Masks = [u16; LANES];

/// A cache slot: the key, the entry and its improving masks once computed.
type Slot = (u64, Entry, Option<Masks>);

thread_local! {
    /// Direct-mapped cache: bots and the simulator ask about the same group under the same
    /// melds again and again (every discard, every draw), so most answers are found here.
    static CACHE: RefCell<Vec<Slot>> =
        RefCell::new(vec![(0, [0; LANES], None); CACHE_SLOTS]);
}

/// The cache key of a group and the slot it maps to.
fn key_slot(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> (u64, usize) {
    let mut key = 1u64 << 63 | (chows as u64) << 62 | (max_sets.min(4) as u64) << 59;
    for (i, (&h, &l)) in v.iter().zip(limit).enumerate() {
        key |= ((h.min(7) as u64) | (l.min(7) as u64) << 3) << (6 * i);
    }
    (
        key,
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 13)) as usize,
    )
}

/// [`entry`] through the per-thread cache (allocated once per thread, never per call).
pub fn cached_entry(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
    let (key, slot) = key_slot(v, limit, chows, max_sets);
    let hit = CACHE.with(|c| {
        let c = c.borrow();
        let (k, e, _) = c[slot];
        (k == key).then_some(e)
    });
    if let Some(e) = hit {
        return e;
    }
    let e = entry(v, limit, chows, max_sets);
    CACHE.with(|c| c.borrow_mut()[slot] = (key, e, None));
    e
}

/// [`entry_masks`] through the per-thread cache (allocated once per thread, never per
/// call); an entry cached without its masks is computed again with them.
pub fn cached_entry_masks(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> (Entry, Masks) {
    let (key, slot) = key_slot(v, limit, chows, max_sets);
    let hit = CACHE.with(|c| {
        let c = c.borrow();
        match c[slot] {
            (k, e, Some(m)) if k == key => Some((e, m)),
            _ => None,
        }
    });
    if let Some(em) = hit {
        return em;
    }
    let (e, m) = entry_masks(v, limit, chows, max_sets);
    CACHE.with(|c| c.borrow_mut()[slot] = (key, e, Some(m)));
    (e, m)
}

/// The entry of `v` (one group, up to 9 kinds) when kind `i` may hold at most `limit[i]`
/// copies; `chows` is false for the honors. Lanes with more than `max_sets` sets are left
/// at [`INF`] (a hand beside `k` melds never needs more than `4 - k`).
///
/// Beside a meld (at most three sets) and without wilds (at most four copies of a kind)
/// the eight lanes fit the bytes of one word (`packed`); the other cases take
/// `entry_wide`.
pub fn entry(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
    if max_sets <= 3 && packed::applies(limit) {
        packed::entry(v, limit, chows, max_sets)
    } else {
        entry_wide(v, limit, chows, max_sets)
    }
}

/// [`entry`] for any number of sets and any limits.
///
/// The state after each kind is, for every number of chows started one and two kinds
/// back, the best cost of every number of sets chosen so far side by side in the bytes
/// of two words, one without the pair placed and one with it: choosing `x` chows and `y`
/// pungs starting here moves every byte `x + y` bytes up and adds the same cost to all,
/// and placing the pair moves the first word's bytes into the second, so each choice is a
/// shift, an addition and a bytewise minimum over all the targets together.
#[allow(clippy::needless_range_loop)]
fn entry_wide(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Entry {
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
pub(crate) const HIGH_BYTES: u64 = 0x8080_8080_8080_8080;

/// The bytewise minimum of `a` and `b`, every byte below 128.
#[inline(always)]
pub(crate) fn min_bytes(a: u64, b: u64) -> u64 {
    // A byte's high bit is set where a >= b (no borrow crosses a byte: a | 128 > b).
    let ge = (((a | HIGH_BYTES) - b) & HIGH_BYTES) >> 7;
    let mask = ge * 0xFF;
    (b & mask) | (a & !mask)
}

/// [`entry`] and the improving masks of its lanes.
///
/// One more tile of kind `j` lowers a lane by one exactly when some cheapest configuration
/// of that lane is short of kind `j` (`c_j > v_j`): such a configuration costs one less
/// with the tile, and no configuration can lose more than one. Every cheapest
/// configuration is made of cheapest partial ones (the cost of the rest depends only on
/// the state reached), so carrying beside each state's cost the union of the short kinds
/// of its cheapest partial configurations gives, at the end, the union over the cheapest
/// configurations of each lane.
pub fn entry_masks(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> (Entry, Masks) {
    if max_sets <= 3 && packed::applies(limit) {
        packed::entry_masks(v, limit, chows, max_sets)
    } else {
        entry_masks_wide(v, limit, chows, max_sets)
    }
}

/// [`entry_masks`] for any number of sets and any limits.
#[allow(clippy::needless_range_loop)]
fn entry_masks_wide(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> (Entry, Masks) {
    let top = max_sets.min(4);
    // cost[p1][p2][m][p]: p1 chows started at the previous kind, p2 two kinds back; short
    // the union of the short kinds of the configurations at that cost. Three equal chows
    // take the very copies of three pungs, so configurations with at most two equal
    // chows reach every multiset of copies (and with it every cost and short set): p1,
    // p2 and the chows started at a kind stay below 3.
    let mut cost = [[[[INF; 2]; 5]; 3]; 3];
    let mut short = [[[[0u16; 2]; 5]; 3]; 3];
    cost[0][0][0][0] = 0;
    let n = v.len();
    // Largest p1 + p2 reachable so far (0 without chows), to skip empty states.
    let mut open = 0usize;
    for i in 0..n {
        let mut next = [[[[INF; 2]; 5]; 3]; 3];
        let mut next_short = [[[[0u16; 2]; 5]; 3]; 3];
        let can_start = chows && i + 2 < n;
        let lim = limit[i] as usize;
        let have = v[i] as usize;
        let bit = 1u16 << i;
        let mut next_open = 0usize;
        for p1 in 0..=open.min(2) {
            for p2 in 0..=(open - p1).min(2) {
                let carried = p1 + p2;
                if carried > lim {
                    continue;
                }
                for m in carried..=top {
                    for p in 0..2usize {
                        let c0 = cost[p1][p2][m][p];
                        if c0 >= INF {
                            continue;
                        }
                        let s0 = short[p1][p2][m][p];
                        let max_x = if can_start { (top - m).min(2) } else { 0 };
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
                                    let (cell, mask) = (
                                        &mut next[x][p1][m + x + y][p + z],
                                        &mut next_short[x][p1][m + x + y][p + z],
                                    );
                                    let total = c0 + c.saturating_sub(have) as u8;
                                    let s = if c > have { s0 | bit } else { s0 };
                                    if total < *cell {
                                        *cell = total;
                                        *mask = s;
                                    } else if total == *cell {
                                        *mask |= s;
                                    }
                                    next_open = next_open.max(x + p1);
                                }
                            }
                        }
                    }
                }
            }
        }
        cost = next;
        short = next_short;
        open = next_open;
    }
    let mut out = [INF; LANES];
    let mut masks = [0u16; LANES];
    for m in 0..=top {
        for p in 0..2 {
            out[2 * m + p] = cost[0][0][m][p];
            masks[2 * m + p] = short[0][0][m][p];
        }
    }
    (out, masks)
}

#[cfg(test)]
mod tests {
    use super::super::tables;
    use super::*;

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

    /// The programme over up to four equal chows at a kind, as a reference for
    /// [`entry_masks`]' bound of two.
    #[allow(clippy::needless_range_loop)]
    fn reference(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> (Entry, Masks) {
        let top = max_sets.min(4);
        // cost[p1][p2][m][p]: p1 chows started at the previous kind, p2 two kinds back; short
        // the union of the short kinds of the configurations at that cost.
        let mut cost = [[[[INF; 2]; 5]; 5]; 5];
        let mut short = [[[[0u16; 2]; 5]; 5]; 5];
        cost[0][0][0][0] = 0;
        let n = v.len();
        // Largest p1 + p2 reachable so far (0 without chows), to skip empty states.
        let mut open = 0usize;
        for i in 0..n {
            let mut next = [[[[INF; 2]; 5]; 5]; 5];
            let mut next_short = [[[[0u16; 2]; 5]; 5]; 5];
            let can_start = chows && i + 2 < n;
            let lim = limit[i] as usize;
            let have = v[i] as usize;
            let bit = 1u16 << i;
            let mut next_open = 0usize;
            for p1 in 0..=open.min(4) {
                for p2 in 0..=(open - p1).min(4 - p1) {
                    let carried = p1 + p2;
                    if carried > lim {
                        continue;
                    }
                    for m in carried..=top {
                        for p in 0..2usize {
                            let c0 = cost[p1][p2][m][p];
                            if c0 >= INF {
                                continue;
                            }
                            let s0 = short[p1][p2][m][p];
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
                                        let (cell, mask) = (
                                            &mut next[x][p1][m + x + y][p + z],
                                            &mut next_short[x][p1][m + x + y][p + z],
                                        );
                                        let total = c0 + c.saturating_sub(have) as u8;
                                        let s = if c > have { s0 | bit } else { s0 };
                                        if total < *cell {
                                            *cell = total;
                                            *mask = s;
                                        } else if total == *cell {
                                            *mask |= s;
                                        }
                                        next_open = next_open.max(x + p1);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            cost = next;
            short = next_short;
            open = next_open;
        }
        let mut out = [INF; LANES];
        let mut masks = [0u16; LANES];
        for m in 0..=top {
            for p in 0..2 {
                out[2 * m + p] = cost[0][0][m][p];
                masks[2 * m + p] = short[0][0][m][p];
            }
        }
        (out, masks)
    }

    /// The masks by their definition: one more tile of kind `j` lowers the lane.
    fn masks_by_adding(v: &[u8], limit: &[u8], chows: bool, max_sets: usize) -> Masks {
        let e = entry(v, limit, chows, max_sets);
        let mut out = [0u16; LANES];
        for j in 0..v.len() {
            if v[j] >= 4 {
                continue;
            }
            let mut w = v.to_vec();
            w[j] += 1;
            let f = entry(&w, limit, chows, max_sets);
            for l in 0..LANES {
                if f[l] < e[l] {
                    assert_eq!(f[l] + 1, e[l], "a tile lowers a lane by one at most");
                    out[l] |= 1 << j;
                }
            }
        }
        out
    }

    #[test]
    fn masks_are_the_kinds_that_lower_each_lane() {
        let mut s = 11u64;
        for round in 0..4000 {
            let n = if round % 3 == 0 { 7 } else { 9 };
            let chows = n == 9;
            let mut v = [0u8; 9];
            let mut limit = [4u8; 9];
            // Melded copies on a few kinds (a pung, a kong or a chow's share).
            for _ in 0..lcg(&mut s) % 4 {
                let k = (lcg(&mut s) % n as u64) as usize;
                limit[k] = limit[k].min([0, 1, 3, 2][(lcg(&mut s) % 4) as usize]);
            }
            let tiles = lcg(&mut s) % 14;
            for _ in 0..tiles {
                let k = (lcg(&mut s) % n as u64) as usize;
                if v[k] < limit[k] {
                    v[k] += 1;
                }
            }
            let max_sets = 1 + (lcg(&mut s) % 4) as usize;
            let (e, m) = entry_masks(&v[..n], &limit[..n], chows, max_sets);
            assert_eq!((e, m), reference(&v[..n], &limit[..n], chows, max_sets));
            assert_eq!(e, entry(&v[..n], &limit[..n], chows, max_sets));
            assert_eq!(
                m,
                masks_by_adding(&v[..n], &limit[..n], chows, max_sets),
                "{v:?} {limit:?} {max_sets}"
            );
            assert_eq!(
                cached_entry_masks(&v[..n], &limit[..n], chows, max_sets),
                (e, m)
            );
        }
    }

    #[test]
    fn unlimited_masks_match_the_tables() {
        let mut s = 5u64;
        let table = tables::suit();
        for _ in 0..2000 {
            let mut v = [0u8; 9];
            let n = lcg(&mut s) % 14;
            let mut placed = 0;
            while placed < n {
                let k = (lcg(&mut s) % 9) as usize;
                if v[k] < 4 {
                    v[k] += 1;
                    placed += 1;
                }
            }
            if let Some(masks) = table.masks_at(table.rank(&v)) {
                assert_eq!(entry_masks(&v, &[4; 9], true, 4).1, masks, "{v:?}");
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
                reference(&v[..n], &lim[..n], chows, max_sets).0,
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
