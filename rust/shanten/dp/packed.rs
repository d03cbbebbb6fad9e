//! The programmes of [`super::entry`] and [`super::entry_masks`] for a group beside a
//! meld (at most three sets) without wilds (at most four copies of a kind).
//!
//! The eight lanes `2m + p` (`m <= 3` sets, `p` the pair) sit side by side in the bytes
//! of one word, lane `l` in byte `l`. A kind's choices from each state of the programme
//! are a fixed list ([`STEPS`]): `k` more sets move every lane `2k` bytes up, placing the
//! pair moves the lanes without it one byte further into those with it, and the kind's
//! cost is added to all lanes at once, so each choice is a mask, a shift, an or, an
//! addition and a bytewise minimum. As in [`super::entry_masks`], at most two equal chows
//! start at a kind (three take the very copies of three pungs).
//!
//! On x86-64 the words are the low halves of SSE2 registers (part of the baseline), whose
//! bytewise minimum is one instruction, and the improving masks ride in the high halves;
//! elsewhere they are `u64`s with [`super::min_bytes`].

use super::{Entry, Masks, INF, LANES};

/// One in every byte of a packed entry.
const ONES: u64 = 0x0101_0101_0101_0101;
/// [`INF`] in every lane of a packed entry.
const INF_LANES: u64 = ONES * INF as u64;
/// The lanes without the pair (even bytes).
const BARE: u64 = 0x00FF_00FF_00FF_00FF;
/// The state before the first kind: no set, no pair, at no cost.
const START: u64 = INF_LANES & !0xFF;

/// How a choice moves the lanes ([`Step::form`] `2k + p`: `k` more sets, the pair placed
/// here or not): the lanes kept, the bits they move up, and what no lane reaches
/// ([`INF`]: the lanes below `2k`, and with the pair also every lane without it and
/// those with it below `2k + 1`).
const MOVES: [(u64, u32, u64); 8] = {
    let mut t = [(0u64, 0u32, 0u64); 8];
    let mut k = 0;
    while k < 4 {
        let below = (1u64 << (16 * k)) - 1;
        t[2 * k] = (u64::MAX, 16 * k as u32, INF_LANES & below);
        let reached = !BARE & !((1u64 << (16 * k + 8)) - 1);
        t[2 * k + 1] = (BARE, 16 * k as u32 + 8, INF_LANES & !reached);
        k += 1;
    }
    t
};

/// One choice at a kind, from a state `3 p1 + p2` (`p1` chows started at the previous
/// kind, `p2` two kinds back) to the state `to`, taking `copies` copies of the kind and
/// moving the lanes as [`MOVES`]`[form]`.
#[derive(Debug, Clone, Copy)]
struct Step {
    to: u8,
    copies: u8,
    form: u8,
}

/// Most choices at one kind (four copies, three sets, chows allowed: 37).
const MAX_STEPS: usize = 40;

/// The choices at a kind allowing `lim` copies, `max_x` chows to start and `top` sets,
/// grouped by the state they leave: those of state `s` are `step[start[s]..start[s + 1]]`,
/// reaching the states `reach[s]` (bit per state). At a group's last kind only the
/// choices that leave no chow open are listed (the others lead nowhere).
#[derive(Debug, Clone, Copy)]
struct Steps {
    start: [u8; 10],
    reach: [u16; 9],
    step: [Step; MAX_STEPS],
}

impl Steps {
    const fn new(lim: usize, max_x: usize, top: usize, last: bool) -> Steps {
        let mut out = Steps {
            start: [0; 10],
            reach: [0; 9],
            step: [Step {
                to: 0,
                copies: 0,
                form: 0,
            }; MAX_STEPS],
        };
        let mut n = 0;
        let mut from = 0;
        while from < 9 {
            out.start[from] = n as u8;
            let (p1, p2) = (from / 3, from % 3);
            let mut x = 0;
            while x <= max_x && x <= top && p1 + p2 + x <= lim && !(last && 3 * x + p1 > 0) {
                let mut y = 0;
                while y <= top - x && p1 + p2 + x + 3 * y <= lim {
                    let copies = p1 + p2 + x + 3 * y;
                    let mut pair = 0;
                    while pair < 2 && copies + 2 * pair <= lim {
                        out.step[n] = Step {
                            to: (3 * x + p1) as u8,
                            copies: (copies + 2 * pair) as u8,
                            form: (2 * (x + y) + pair) as u8,
                        };
                        out.reach[from] |= 1 << (3 * x + p1);
                        n += 1;
                        pair += 1;
                    }
                    y += 1;
                }
                x += 1;
            }
            from += 1;
        }
        out.start[9] = n as u8;
        out
    }

    /// The choices leaving state `s`.
    #[inline(always)]
    fn from(&self, s: usize) -> &[Step] {
        &self.step[self.start[s] as usize..self.start[s + 1] as usize]
    }

    /// The states the choices from the states `live` reach (bit per state).
    #[inline(always)]
    fn reached(&self, mut live: u16) -> u16 {
        let mut out = 0;
        while live != 0 {
            out |= self.reach[live.trailing_zeros() as usize % 9];
            live &= live - 1;
        }
        out
    }
}

/// [`Steps`] for every limit up to four, number of chows (0-2, or 3 for a group's last
/// kind) and number of sets (0-3).
static STEPS: [[[Steps; 4]; 4]; 5] = {
    let empty = Steps::new(0, 0, 0, false);
    let mut t = [[[empty; 4]; 4]; 5];
    let mut lim = 0;
    while lim < 5 {
        let mut x = 0;
        while x < 4 {
            let mut top = 0;
            while top < 4 {
                t[lim][x][top] = if x < 3 {
                    Steps::new(lim, x, top, false)
                } else {
                    Steps::new(lim, 0, top, true)
                };
                top += 1;
            }
            x += 1;
        }
        lim += 1;
    }
    t
};

/// The choices at kind `i` of `n` (see [`Steps`]).
#[inline(always)]
fn steps_at(i: usize, n: usize, lim: u8, chows: bool, top: usize) -> &'static Steps {
    let shape = if i + 1 == n {
        3
    } else if chows && i + 2 < n {
        top.min(2)
    } else {
        0
    };
    &STEPS[lim as usize][shape][top]
}

/// The cost of using `c` copies of a kind held `have` times.
#[inline(always)]
fn cost(c: usize, have: u8) -> u64 {
    (c as u64).saturating_sub(have as u64)
}

/// Every limit is at most four (no wilds): the programmes here apply (with at most three
/// sets).
#[inline(always)]
pub(super) fn applies(limit: &[u8]) -> bool {
    limit.iter().all(|&l| l <= 4)
}

/// A packed entry's lanes up to `top` sets as an [`Entry`] (the others [`INF`]).
#[inline(always)]
fn unpack(word: u64, top: usize) -> Entry {
    let mut out = [INF; LANES];
    out[..2 * top + 2].copy_from_slice(&word.to_le_bytes()[..2 * top + 2]);
    out
}

/// The masks of the lanes of `cost` below [`INF`]: kinds 0-7 from the bytes of `short`,
/// kind 8 where `with_eight` (the costs with one more tile of kind 8) is cheaper.
#[inline(always)]
fn masks_of(cost: &Entry, short: u64, with_eight: &Entry, top: usize) -> Masks {
    let short = short.to_le_bytes();
    let mut masks = [0u16; LANES];
    for l in 0..2 * top + 2 {
        if cost[l] < INF {
            masks[l] = short[l] as u16 | u16::from(with_eight[l] < cost[l]) << 8;
        }
    }
    masks
}

/// [`super::entry`] for at most three sets and at most four copies of each kind.
pub(super) fn entry(v: &[u8], limit: &[u8], chows: bool, top: usize) -> Entry {
    debug_assert!(top <= 3 && applies(limit));
    #[cfg(target_arch = "x86_64")]
    {
        unpack(sse::entry(v, limit, chows, top), top)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        unpack(scalar::entry(v, limit, chows, top), top)
    }
}

/// [`super::entry_masks`] for at most three sets and at most four copies of each kind.
///
/// The short kinds of each lane's cheapest configurations are carried beside its cost,
/// kinds 0-7 as the bits of the lane's byte (moved like the costs, the pair's from the
/// lanes without it); kind 8, the last of a suit, lowers a lane exactly when one more
/// copy of it does (see [`super::entry_masks`]), which the last kind's choices give once
/// more with the count one higher. Every reachable lane costs at most 36 (four copies of
/// nine kinds), below [`INF`], so the unions gathered in unreachable lanes never reach a
/// reachable one; they are dropped at the end.
pub(super) fn entry_masks(v: &[u8], limit: &[u8], chows: bool, top: usize) -> (Entry, Masks) {
    debug_assert!(top <= 3 && applies(limit));
    #[cfg(target_arch = "x86_64")]
    let (cost, short, eight) = sse::entry_masks(v, limit, chows, top);
    #[cfg(not(target_arch = "x86_64"))]
    let (cost, short, eight) = scalar::entry_masks(v, limit, chows, top);
    let (cost, eight) = (unpack(cost, top), unpack(eight, top));
    (cost, masks_of(&cost, short, &eight, top))
}

/// The programmes on `u64` words.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod scalar {
    use super::super::min_bytes;
    use super::{cost, steps_at, Step, INF_LANES, MOVES, ONES, START};

    /// The lanes of a state after `step`, before the kind's cost is added.
    #[inline(always)]
    fn moved(word: u64, step: &Step) -> u64 {
        let (mask, shift, fill) = MOVES[step.form as usize];
        ((word & mask) << shift) | fill
    }

    /// Clamps the states back to [`super::INF`] in the lanes that gained a cost above it;
    /// returns the states some configuration reaches (bit per state).
    #[inline(always)]
    fn clamp_live(states: &mut [u64; 9]) -> u16 {
        let mut live = 0u16;
        for (s, c) in states.iter_mut().enumerate() {
            *c = min_bytes(*c, INF_LANES);
            live |= u16::from(*c != INF_LANES) << s;
        }
        live
    }

    /// The programme's states after kind `i` of `v`, from `dp` (the states `live`).
    #[inline(always)]
    fn kind(
        dp: &[u64; 9],
        mut live: u16,
        (i, have): (usize, u8),
        (v, limit, chows, top): (&[u8], &[u8], bool, usize),
    ) -> [u64; 9] {
        let steps = steps_at(i, v.len(), limit[i], chows, top);
        let mut next = [INF_LANES; 9];
        while live != 0 {
            let s = live.trailing_zeros() as usize;
            live &= live - 1;
            for st in steps.from(s) {
                let to = &mut next[st.to as usize];
                let c = cost(st.copies as usize, have) * ONES;
                *to = min_bytes(*to, moved(dp[s], st) + c);
            }
        }
        next
    }

    /// The packed lanes of [`super::entry`].
    pub(super) fn entry(v: &[u8], limit: &[u8], chows: bool, top: usize) -> u64 {
        let mut dp = [INF_LANES; 9];
        dp[0] = START;
        let mut live = 1u16;
        for i in 0..v.len() {
            dp = kind(&dp, live, (i, v[i]), (v, limit, chows, top));
            live = clamp_live(&mut dp);
        }
        dp[0]
    }

    /// The packed lanes of [`super::entry_masks`]: the costs, the short kinds 0-7, and
    /// for a suit the costs with one more tile of kind 8 (else the costs).
    pub(super) fn entry_masks(v: &[u8], limit: &[u8], chows: bool, top: usize) -> (u64, u64, u64) {
        let n = v.len();
        let mut dp = [INF_LANES; 9];
        let mut short = [0u64; 9];
        dp[0] = START;
        let mut live = 1u16;
        for i in 0..n.min(8) {
            let steps = steps_at(i, n, limit[i], chows, top);
            let mut next = [INF_LANES; 9];
            let mut next_short = [0u64; 9];
            let mut from = live;
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                for st in steps.from(s) {
                    let c = st.copies as usize;
                    let cand = moved(dp[s], st) + cost(c, v[i]) * ONES;
                    let bit = (ONES << i) * u64::from(c > v[i] as usize);
                    let cand_short = moved(short[s], st) | bit;
                    let to = st.to as usize;
                    // 0xFF in the bytes where the cell >= the choice, and where <=.
                    let ge = geq(next[to], cand);
                    let le = geq(cand, next[to]);
                    next[to] = (cand & ge) | (next[to] & !ge);
                    next_short[to] = (next_short[to] & le) | (cand_short & ge);
                }
            }
            dp = next;
            short = next_short;
            live = clamp_live(&mut dp);
        }
        if n < 9 {
            return (dp[0], short[0], dp[0]);
        }
        let last = kind(&dp, live, (8, v[8]), (v, limit, chows, top))[0];
        let eight = kind(&dp, live, (8, v[8] + 1), (v, limit, chows, top))[0];
        let cap = |w: u64| min_bytes(w, INF_LANES);
        // The short kinds of the last lanes: those of the states the cheapest choices
        // leave, over every such choice.
        let steps = steps_at(8, n, limit[8], chows, top);
        let mut kinds = 0u64;
        let mut from = live;
        while from != 0 {
            let s = from.trailing_zeros() as usize;
            from &= from - 1;
            for st in steps.from(s).iter().filter(|st| st.to == 0) {
                let cand = moved(dp[s], st) + cost(st.copies as usize, v[8]) * ONES;
                kinds |= moved(short[s], st) & geq(last, cand);
            }
        }
        (cap(last), kinds, cap(eight))
    }

    /// 0xFF in the bytes where `a >= b`, every byte below 128.
    #[inline(always)]
    fn geq(a: u64, b: u64) -> u64 {
        use super::super::HIGH_BYTES;
        ((((a | HIGH_BYTES) - b) & HIGH_BYTES) >> 7) * 0xFF
    }
}

/// The programmes in the low halves of SSE2 registers, the short kinds of
/// [`entry_masks`] in the high halves.
#[cfg(target_arch = "x86_64")]
mod sse {
    use super::{cost, steps_at, INF_LANES, MOVES, ONES, START};
    use std::arch::x86_64::*;

    /// A register of two words, `lo` in the low half.
    const fn pair(lo: u64, hi: u64) -> __m128i {
        // SAFETY: 16 bytes as 16 bytes.
        unsafe { std::mem::transmute::<[u64; 2], __m128i>([lo, hi]) }
    }

    /// [`MOVES`] in registers: the mask in both halves (the costs' and the short kinds'),
    /// the fill in the low half, the shift count.
    #[derive(Clone, Copy)]
    struct Move {
        mask: __m128i,
        fill: __m128i,
        shift: __m128i,
    }

    static REG_MOVES: [Move; 8] = {
        let mut t = [Move {
            mask: pair(0, 0),
            fill: pair(0, 0),
            shift: pair(0, 0),
        }; 8];
        let mut f = 0;
        while f < 8 {
            let (mask, shift, fill) = MOVES[f];
            t[f] = Move {
                mask: pair(mask, mask),
                fill: pair(fill, 0),
                shift: pair(shift as u64, 0),
            };
            f += 1;
        }
        t
    };

    /// [`INF`](super::INF) in the low half (no short kind in the high one).
    const EMPTY: __m128i = pair(INF_LANES, 0);

    /// The nine states `3 p1 + p2` of a programme, padded to sixteen so that an index
    /// masked to four bits needs no bounds check.
    ///
    /// The costs are not clamped to [`INF`](super::INF) from kind to kind: a lane grows by
    /// at most four a kind from at most `INF`, so nine kinds stay below 256, every
    /// reachable lane stays at most 36, every unreachable one at least `INF`; the last
    /// lanes are clamped once.
    type States = [__m128i; 16];

    /// The lanes of a state after the choice of form `form`, before the kind's cost.
    #[inline(always)]
    fn moved(state: __m128i, form: u8) -> __m128i {
        let m = &REG_MOVES[form as usize & 7];
        // SAFETY: SSE2 only, part of the x86-64 baseline.
        unsafe { _mm_or_si128(_mm_sll_epi64(_mm_and_si128(state, m.mask), m.shift), m.fill) }
    }

    /// The kind's cost of each number of copies (0-4, padded to eight) in every lane
    /// (low halves), and in the high halves `short` where the copies exceed the `have`
    /// held.
    #[inline(always)]
    fn costs(have: u8, short: u64) -> [__m128i; 8] {
        std::array::from_fn(|c| {
            let over = if c > have as usize { short } else { 0 };
            // SAFETY: SSE2 only.
            unsafe { _mm_set_epi64x(over as i64, (cost(c, have) * ONES) as i64) }
        })
    }

    /// Writes into `next` the states after kind `i` of `v` (the count held `have`) from
    /// `dp` (the states `live`), costs only; returns the states reached.
    #[inline(always)]
    fn kind(
        dp: &States,
        mut live: u16,
        (i, have): (usize, u8),
        (v, limit, chows, top): (&[u8], &[u8], bool, usize),
        next: &mut States,
    ) -> u16 {
        let steps = steps_at(i, v.len(), limit[i], chows, top);
        let costs = costs(have, 0);
        *next = [EMPTY; 16];
        let reached = steps.reached(live);
        while live != 0 {
            let s = live.trailing_zeros() as usize;
            live &= live - 1;
            let from = dp[s & 15];
            for st in steps.from(s) {
                let to = &mut next[st.to as usize & 15];
                // SAFETY: SSE2 only.
                unsafe {
                    let cand = _mm_add_epi8(moved(from, st.form), costs[st.copies as usize & 7]);
                    *to = _mm_min_epu8(*to, cand);
                }
            }
        }
        reached
    }

    /// The low half of `x`, clamped to [`INF`](super::INF).
    #[inline(always)]
    fn low(x: __m128i) -> u64 {
        // SAFETY: SSE2 only.
        unsafe { _mm_cvtsi128_si64(_mm_min_epu8(x, EMPTY)) as u64 }
    }

    /// The high half of `x`.
    #[inline(always)]
    fn high(x: __m128i) -> u64 {
        // SAFETY: SSE2 only.
        unsafe { _mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)) as u64 }
    }

    /// The state before the first kind, and room for the next.
    fn start() -> [States; 2] {
        let mut dp = [[EMPTY; 16]; 2];
        dp[0][0] = pair(START, 0);
        dp
    }

    /// The states before and after kind `i`, alternating between the two of `dp`.
    #[inline(always)]
    fn before_after(dp: &mut [States; 2], i: usize) -> (&States, &mut States) {
        let [a, b] = dp;
        if i % 2 == 0 {
            (a, b)
        } else {
            (b, a)
        }
    }

    /// The packed lanes of [`super::entry`].
    pub(super) fn entry(v: &[u8], limit: &[u8], chows: bool, top: usize) -> u64 {
        let mut dp = start();
        let mut live = 1u16;
        for i in 0..v.len() {
            let (before, after) = before_after(&mut dp, i);
            live = kind(before, live, (i, v[i]), (v, limit, chows, top), after);
        }
        low(dp[v.len() % 2][0])
    }

    /// Keeps, lane by lane, the cheaper of `cell` and `cand` (low halves), and in the high
    /// halves the short kinds of the cheaper, of both where they cost the same.
    #[inline(always)]
    fn merge(cell: &mut __m128i, cand: __m128i) {
        // SAFETY: SSE2 only.
        unsafe {
            let min = _mm_min_epu8(*cell, cand);
            let keep = _mm_cmpeq_epi8(min, *cell);
            let take = _mm_cmpeq_epi8(min, cand);
            let keep = _mm_unpacklo_epi64(keep, keep);
            let take = _mm_unpacklo_epi64(take, take);
            *cell = _mm_or_si128(_mm_and_si128(*cell, keep), _mm_and_si128(cand, take));
        }
    }

    /// The packed lanes of [`super::entry_masks`]: the costs, the short kinds 0-7, and
    /// for a suit the costs with one more tile of kind 8 (else the costs).
    pub(super) fn entry_masks(v: &[u8], limit: &[u8], chows: bool, top: usize) -> (u64, u64, u64) {
        let n = v.len();
        let mut dp = start();
        let mut live = 1u16;
        for i in 0..n.min(8) {
            let (before, after) = before_after(&mut dp, i);
            let steps = steps_at(i, n, limit[i], chows, top);
            let costs = costs(v[i], ONES << i);
            *after = [EMPTY; 16];
            let mut from = live;
            live = steps.reached(live);
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                let state = before[s & 15];
                for st in steps.from(s) {
                    // SAFETY: SSE2 only.
                    let cand = unsafe {
                        _mm_add_epi8(moved(state, st.form), costs[st.copies as usize & 7])
                    };
                    merge(&mut after[st.to as usize & 15], cand);
                }
            }
        }
        let dp = &dp[n.min(8) % 2];
        if n < 9 {
            return (low(dp[0]), high(dp[0]), low(dp[0]));
        }
        let ctx = (v, limit, chows, top);
        let mut last = [EMPTY; 16];
        let mut eight = [EMPTY; 16];
        kind(dp, live, (8, v[8]), ctx, &mut last);
        kind(dp, live, (8, v[8] + 1), ctx, &mut eight);
        // The short kinds of the last lanes: those of the states the cheapest choices
        // leave, over every such choice.
        let steps = steps_at(8, n, limit[8], chows, top);
        let costs = costs(v[8], 0);
        // SAFETY: SSE2 only.
        let kinds = unsafe {
            let mut kinds = _mm_setzero_si128();
            let mut from = live;
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                for st in steps.from(s) {
                    let cand =
                        _mm_add_epi8(moved(dp[s & 15], st.form), costs[st.copies as usize & 7]);
                    let cheapest = _mm_cmpeq_epi8(cand, last[0]);
                    let cheapest = _mm_unpacklo_epi64(cheapest, cheapest);
                    kinds = _mm_or_si128(kinds, _mm_and_si128(cand, cheapest));
                }
            }
            kinds
        };
        (low(last[0]), high(kinds), low(eight[0]))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{entry_masks_wide, entry_wide};
    use super::*;

    /// A small deterministic generator.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    /// The packed programmes (and on x86-64 both their forms) return exactly the wide
    /// ones: every lane and every mask, over random groups (counts within and beyond the
    /// limits), limits up to four and numbers of sets up to three.
    #[test]
    fn packed_entries_are_the_wide_entries() {
        let mut s = 23u64;
        for round in 0..30_000 {
            let n = if round % 3 == 0 { 7 } else { 9 };
            let chows = n == 9;
            let mut v = [0u8; 9];
            let mut lim = [4u8; 9];
            for l in &mut lim[..n] {
                if lcg(&mut s) % 3 == 0 {
                    *l = (lcg(&mut s) % 5) as u8;
                }
            }
            if round % 2 == 0 {
                // A hand: counts within the limits.
                for _ in 0..lcg(&mut s) % 15 {
                    let k = (lcg(&mut s) % n as u64) as usize;
                    if v[k] < lim[k] {
                        v[k] += 1;
                    }
                }
            } else {
                for x in &mut v[..n] {
                    *x = (lcg(&mut s) % 5) as u8;
                }
            }
            let top = (lcg(&mut s) % 4) as usize;
            let (v, lim) = (&v[..n], &lim[..n]);
            let want = entry_masks_wide(v, lim, chows, top);
            assert_eq!(entry(v, lim, chows, top), want.0, "{v:?} {lim:?} {top}");
            assert_eq!(entry_wide(v, lim, chows, top), want.0);
            assert_eq!(entry_masks(v, lim, chows, top), want, "{v:?} {lim:?} {top}");
            let (c, sh, e) = scalar::entry_masks(v, lim, chows, top);
            assert_eq!(scalar::entry(v, lim, chows, top), c);
            let (c, e) = (unpack(c, top), unpack(e, top));
            assert_eq!((c, masks_of(&c, sh, &e, top)), want);
        }
    }

    /// Every list of choices fits [`MAX_STEPS`], the largest fills 37, and every choice
    /// of a last kind leaves no chow open.
    #[test]
    fn the_choices_fit() {
        let most = STEPS.iter().flatten().flatten().map(|s| s.start[9]).max();
        assert_eq!(most, Some(37));
        let last = STEPS.iter().flat_map(|l| l[3].iter());
        assert!(last
            .flat_map(|s| &s.step[..s.start[9] as usize])
            .all(|st| st.to == 0));
    }
}
