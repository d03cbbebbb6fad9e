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

/// The entry of `v` (one group, up to 9 kinds) when kind `i` may hold at most `limit[i]`
/// copies; `chows` is false for the honors.
#[allow(clippy::needless_range_loop)]
pub fn entry(v: &[u8], limit: &[u8], chows: bool) -> Entry {
    // dp[p1][p2][m][p]: p1 chows started at the previous kind, p2 two kinds back.
    let mut dp = [[[[INF; 2]; 5]; 5]; 5];
    dp[0][0][0][0] = 0;
    let n = v.len();
    for i in 0..n {
        let mut next = [[[[INF; 2]; 5]; 5]; 5];
        let can_start = chows && i + 2 < n;
        for p1 in 0..5usize {
            for p2 in 0..5usize - p1 {
                for m in (p1 + p2)..5usize {
                    for p in 0..2usize {
                        let cost = dp[p1][p2][m][p];
                        if cost >= INF {
                            continue;
                        }
                        let max_x = if can_start { 4 - m } else { 0 };
                        for x in 0..=max_x {
                            for y in 0..=(4 - m - x) {
                                for z in 0..=(1 - p) {
                                    let c = p1 + p2 + x + 3 * y + 2 * z;
                                    if c > limit[i] as usize {
                                        continue;
                                    }
                                    let add = c.saturating_sub(v[i] as usize) as u8;
                                    let cell = &mut next[x][p1][m + x + y][p + z];
                                    *cell = (*cell).min(cost + add);
                                }
                            }
                        }
                    }
                }
            }
        }
        dp = next;
    }
    let mut out = [INF; LANES];
    for m in 0..5 {
        for p in 0..2 {
            out[2 * m + p] = dp[0][0][m][p];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::tables;
    use super::*;

    /// A small deterministic generator for the cross-checks.
    fn lcg(state: &mut u64) -> u64 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
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
            assert_eq!(entry(&v, &[4; 9], true), *tables::suit().get(&v), "{v:?}");
            assert_eq!(entry(&v, &[14; 9], true), *tables::suit_wild().get(&v), "{v:?}");
            let h = &v[..7];
            if h.iter().map(|&x| x as u32).sum::<u32>() <= 14 {
                assert_eq!(entry(h, &[4; 7], false), *tables::honors().get(h), "{h:?}");
                assert_eq!(entry(h, &[14; 7], false), *tables::honors_wild().get(h), "{h:?}");
            }
        }
    }

    #[test]
    fn limits_forbid_blocks() {
        // One 1m in hand, a pung of 1m melded: no pair of 1m is possible.
        let mut v = [0u8; 9];
        v[0] = 1;
        let mut lim = [4u8; 9];
        lim[0] = 1;
        let e = entry(&v, &lim, true);
        assert_eq!(e[1], 2); // a pair elsewhere costs two
        assert_eq!(entry(&v, &[4; 9], true)[1], 1);
    }
}
