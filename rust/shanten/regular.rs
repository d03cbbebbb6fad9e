//! The regular form: `4 - k` sets and a pair beside `k` declared melds.
//!
//! The hand splits into four groups (three suits and the honors). Each group's entry (from
//! [`super::tables`], or from [`super::dp`] when melds hold copies of its kinds) gives the
//! replacement number of every target `(m, p)`; [`combine`] merges two groups by trying every
//! split of the sets and the pair, and [`finish`] reads the one target the hand needs.

use super::dp;
use super::swar;
use super::tables::{self, Entry, INF, LANES};
use crate::tile::Counts;

/// The kinds of group `g`: 0-2 the suits, 3 the honors.
#[inline(always)]
pub(crate) fn span(g: usize) -> std::ops::Range<usize> {
    if g < 3 {
        g * 9..g * 9 + 9
    } else {
        27..34
    }
}

/// The entry of group `g` for the counts `v` of its kinds, with `used` copies in melds.
/// With wilds the unlimited tables apply and melded copies do not matter.
#[inline(always)]
pub(crate) fn group_entry(g: usize, v: &[u8], used: &[u8], wild: bool) -> Entry {
    group_entry_upto(g, v, used, wild, 4)
}

/// [`group_entry`] when at most `max_sets` sets are needed (lanes above may be [`INF`]).
#[inline(always)]
pub(crate) fn group_entry_upto(
    g: usize,
    v: &[u8],
    used: &[u8],
    wild: bool,
    max_sets: usize,
) -> Entry {
    let suit = g < 3;
    if wild {
        return if suit {
            *tables::suit_wild().get(v)
        } else {
            *tables::honors_wild().get(v)
        };
    }
    if used.iter().all(|&u| u == 0) {
        return if suit {
            *tables::suit().get(v)
        } else {
            *tables::honors().get(v)
        };
    }
    let mut limit = [4u8; 9];
    for (l, &u) in limit.iter_mut().zip(used) {
        *l = 4u8.saturating_sub(u);
    }
    dp::cached_entry(v, &limit[..v.len()], suit, max_sets)
}

/// Merges two groups: the best cost of every target over all splits between them.
///
/// A min-plus convolution over the lanes `2m + p`: lane `s` of `a` plus lane `t` of `b`
/// lands in lane `s + t`, except that two pairs never meet (an odd `s` takes only an
/// even `t`). On x86-64 it runs as ten byte-wise SIMD shift-add-min steps (SSE2, part of
/// the base instruction set; on the costs' complements, where an addition is a saturating
/// subtraction); elsewhere as the scalar loops of [`combine_scalar`].
#[inline(always)]
pub fn combine(a: &Entry, b: &Entry) -> Entry {
    #[cfg(target_arch = "x86_64")]
    {
        simd::combine(a, b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        combine_scalar(a, b)
    }
}

/// [`combine`] written lane by lane (the reference for the SIMD form).
#[inline(always)]
pub fn combine_scalar(a: &Entry, b: &Entry) -> Entry {
    let mut out = [INF; LANES];
    for m1 in 0..5 {
        for m2 in 0..5 - m1 {
            let m = m1 + m2;
            let none = a[2 * m1] + b[2 * m2];
            let pair = (a[2 * m1 + 1] + b[2 * m2]).min(a[2 * m1] + b[2 * m2 + 1]);
            out[2 * m] = out[2 * m].min(none);
            out[2 * m + 1] = out[2 * m + 1].min(pair);
        }
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Entry, INF, LANES};
    use std::arch::x86_64::*;

    /// An entry's ten lanes in the low bytes of a vector (the bytes above are zero), read
    /// as an eight-byte and a two-byte piece: the widths an entry is written with (here
    /// and by a copy), so that a load soon after the store is forwarded from it. A
    /// 16-byte load over the entry copied into a zeroed buffer spans three stores, which
    /// the processor cannot forward: it waits until they reach the cache.
    #[inline(always)]
    fn load(e: &Entry) -> __m128i {
        let (low, high) = e.split_at(8);
        let low = u64::from_le_bytes(low.try_into().unwrap_or([INF; 8]));
        let high = u16::from_le_bytes(high.try_into().unwrap_or([INF; 2]));
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe { _mm_insert_epi16::<4>(_mm_cvtsi64_si128(low as i64), i32::from(high)) }
    }

    /// Lane `$s` of `a` added to `$src` moved up by `$s` lanes, into `$out`, all in
    /// complements (`255 - x`: a sum is a saturating difference, a minimum a maximum, and
    /// the zero bytes a shift brings in stand for a cost above any); `$quad` holds each
    /// lane of `a` four times (lanes `4q .. 4q + 4` for quad `q = $s / 4`), so that the
    /// broadcast of lane `$s` is one shuffle of its 32-bit field.
    macro_rules! step {
        ($out:ident, $quad:expr, $src:ident, $s:literal) => {
            // SAFETY: SSE2 only.
            unsafe {
                let x = _mm_shuffle_epi32::<{ ($s % 4) * 0x55 }>($quad);
                $out = _mm_max_epu8($out, _mm_subs_epu8(_mm_slli_si128::<$s>($src), x));
            }
        };
    }

    #[inline(always)]
    pub(super) fn combine(a: &Entry, b: &Entry) -> Entry {
        // SAFETY: SSE2 only. Each lane of `a` spread over four bytes: lanes 0-3, 4-7, 8-9.
        let quads = unsafe {
            let v = load(a);
            let (low, high) = (_mm_unpacklo_epi8(v, v), _mm_unpackhi_epi8(v, v));
            [
                _mm_unpacklo_epi16(low, low),
                _mm_unpackhi_epi16(low, low),
                _mm_unpacklo_epi16(high, high),
            ]
        };
        // SAFETY: SSE2 only. `b` in complements (its bytes above lane 9 only ever reach
        // lanes above 9, which are dropped); without its pair lanes, those are zero (no
        // cost is that high); the result starts at the complement of INF.
        let (wide, no_pair, mut out) = unsafe {
            let wide = _mm_xor_si128(load(b), _mm_set1_epi8(-1));
            let even = _mm_set1_epi16(0x00FF);
            (
                wide,
                _mm_and_si128(wide, even),
                _mm_set1_epi8((255 - INF) as i8),
            )
        };
        step!(out, quads[0], wide, 0);
        step!(out, quads[0], no_pair, 1);
        step!(out, quads[0], wide, 2);
        step!(out, quads[0], no_pair, 3);
        step!(out, quads[1], wide, 4);
        step!(out, quads[1], no_pair, 5);
        step!(out, quads[1], wide, 6);
        step!(out, quads[1], no_pair, 7);
        step!(out, quads[2], wide, 8);
        step!(out, quads[2], no_pair, 9);
        // Written back in the two pieces `load` reads. SAFETY: SSE2 only.
        let (low, high) = unsafe {
            let v = _mm_xor_si128(out, _mm_set1_epi8(-1));
            (
                _mm_cvtsi128_si64(v) as u64,
                _mm_extract_epi16::<4>(v) as u16,
            )
        };
        let mut e = [INF; LANES];
        e[..8].copy_from_slice(&low.to_le_bytes());
        e[8..].copy_from_slice(&high.to_le_bytes());
        e
    }

    /// The least of the sixteen bytes of `x`, or [`INF`] when all are above it.
    #[inline(always)]
    pub(super) fn least_byte(x: u128) -> u8 {
        // SAFETY: SSE2 only.
        unsafe {
            let mut v = _mm_set_epi64x((x >> 64) as i64, x as i64);
            v = _mm_min_epu8(v, _mm_srli_si128::<8>(v));
            v = _mm_min_epu8(v, _mm_srli_si128::<4>(v));
            v = _mm_min_epu8(v, _mm_srli_si128::<2>(v));
            v = _mm_min_epu8(v, _mm_srli_si128::<1>(v));
            (_mm_cvtsi128_si32(v) as u8).min(INF)
        }
    }
}

/// The cost of `m` sets and one pair split between two merged halves: the least
/// `a[l] + b[2m + 1 - l]` (the pair on one side or the other), at most [`INF`]. On x86-64
/// all splits are added at once in the bytes of a `u128` (`b` reversed) and the least is
/// found by SSE2 byte minima; elsewhere by the loop of [`finish_scalar`].
#[inline(always)]
pub fn finish(a: &Entry, b: &Entry, m: usize) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        let m = m.min(4);
        // Byte `l` of `other` is `b[2m + 1 - l]` for `l <= 2m + 1`, zero above.
        let other = entry_bits(b).swap_bytes() >> (8 * (6 + 8 - 2 * m));
        // Every byte is at most 2 * INF < 128: the bytes add without carries.
        let sum = entry_bits(a) + other;
        simd::least_byte(sum | FINISH_ABOVE[m])
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        finish_scalar(a, b, m)
    }
}

/// `FINISH_ABOVE[m]`: bytes above `2m + 1` set to [`INF`], which no split of [`finish`]
/// may go below (they hold no split).
#[cfg(target_arch = "x86_64")]
const FINISH_ABOVE: [u128; 5] = {
    let mut t = [0u128; 5];
    let mut m = 0;
    while m < 5 {
        let mut l = 2 * m + 2;
        while l < 16 {
            t[m] |= (INF as u128) << (8 * l);
            l += 1;
        }
        m += 1;
    }
    t
};

/// [`finish`] written split by split (the reference for the byte-wise form).
#[inline(always)]
pub fn finish_scalar(a: &Entry, b: &Entry, m: usize) -> u8 {
    // At most four sets: the lanes below are then in bounds without checks.
    let m = m.min(4);
    let mut best = INF;
    for m1 in 0..=m {
        let m2 = m - m1;
        best = best
            .min(a[2 * m1] + b[2 * m2 + 1])
            .min(a[2 * m1 + 1] + b[2 * m2]);
    }
    best
}

/// The four group entries of a hand.
#[inline(always)]
pub(crate) fn entries(hand: &Counts, used: &Counts, wild: bool, max_sets: usize) -> [Entry; 4] {
    [
        group_entry_upto(0, &hand[0..9], &used[0..9], wild, max_sets),
        group_entry_upto(1, &hand[9..18], &used[9..18], wild, max_sets),
        group_entry_upto(2, &hand[18..27], &used[18..27], wild, max_sets),
        group_entry_upto(3, &hand[27..34], &used[27..34], wild, max_sets),
    ]
}

/// True when no copy is in a meld, so the tables apply as they are.
#[inline(always)]
pub(crate) fn plain(used: &Counts) -> bool {
    swar::words(used).iter().fold(0, |a, &w| a | w) == 0
}

/// The table ranks of the four groups (limited tables). Equal to [`tables::Table::rank`]
/// of each group; the base-5 codes are computed eight counts at a time
/// ([`swar::base5_quads`]).
#[inline(always)]
pub(crate) fn ranks(hand: &Counts) -> [usize; 4] {
    ranks_of(&codes(hand))
}

/// The table ranks of the four groups from their [`codes`].
#[inline(always)]
pub(crate) fn ranks_of(c: &[(usize, usize, usize); 4]) -> [usize; 4] {
    let (s, h) = (tables::suit(), tables::honors());
    [
        s.rank_of_codes(c[0].0, c[0].1, c[0].2),
        s.rank_of_codes(c[1].0, c[1].1, c[1].2),
        s.rank_of_codes(c[2].0, c[2].1, c[2].2),
        h.rank_of_codes(c[3].0, c[3].1, c[3].2),
    ]
}

/// The rank codes of the four groups ([`tables::Table::rank_of_codes`]): for each, the
/// base-5 code of its head (the first five counts of a suit, the first three honors;
/// count `i` weighted `5^i`), the head's sum, and the base-5 code of the last four counts.
#[inline(always)]
pub(crate) fn codes(hand: &Counts) -> [(usize, usize, usize); 4] {
    let word = |at: usize| swar::word(hand, at);
    let suit = |at: usize| {
        // Head: counts 0-4 (the first four from one word, the fifth weighted 5^4); tail:
        // counts 5-8, the upper four bytes of the word one count further on.
        let first = word(at);
        let head = (swar::base5_quads(first) & 0xFFFF_FFFF) as usize + 625 * hand[at + 4] as usize;
        let sum = swar::byte_sum(first & 0xFF_FFFF_FFFF) as usize;
        let tail = (swar::base5_quads(word(at + 1)) >> 32) as usize;
        (head, sum, tail)
    };
    // Honors: counts 27-29 are the head, 30-33 the tail (the word starts at kind 26).
    let last = word(26);
    let head3 = (last >> 8) & 0xFF_FFFF;
    let honors = (
        (swar::base5_quads(head3) & 0xFFFF_FFFF) as usize,
        swar::byte_sum(head3) as usize,
        (swar::base5_quads(last) >> 32) as usize,
    );
    [suit(0), suit(9), suit(18), honors]
}

/// The table entry of group `g`'s counts `v` with no copy in melds and no wild (the
/// limited tables).
#[inline(always)]
pub(crate) fn table_entry(g: usize, v: &[u8]) -> Entry {
    if g < 3 {
        *tables::suit().get(v)
    } else {
        *tables::honors().get(v)
    }
}

/// Digits of a group's rank code in its head; the last four are its tail (see [`codes`]).
const fn head_digits(g: usize) -> usize {
    if g < 3 {
        5
    } else {
        3
    }
}

/// The rank codes (see [`codes`]) of group `g` with one copy of its kind `i` more (`up`)
/// or less (the group must then hold one): one digit of the head or the tail changes.
#[inline(always)]
pub(crate) fn code_step(
    code: &(usize, usize, usize),
    g: usize,
    i: usize,
    up: bool,
) -> (usize, usize, usize) {
    let (head, sum, tail) = *code;
    let (dh, ds, dt) = digit_step(g, i);
    if up {
        (head + dh, sum + ds, tail + dt)
    } else {
        (head - dh, sum - ds, tail - dt)
    }
}

/// What one copy of kind `i` of group `g` adds to its rank codes ([`codes`]): a power of
/// five to the head and one to its tile count for the head's kinds, a power of five to
/// the tail for the others. Read from a table, so that a step takes no branch on which
/// part the kind falls in.
#[inline(always)]
fn digit_step(g: usize, i: usize) -> (usize, usize, usize) {
    DIGIT_STEPS[usize::from(g >= 3)][i.min(8)]
}

/// [`digit_step`] by group kind (suits, honors) and kind within the group.
const DIGIT_STEPS: [[(usize, usize, usize); 9]; 2] = {
    let mut steps = [[(0, 0, 0); 9]; 2];
    let mut k = 0;
    while k < 2 {
        let (a, n) = if k == 0 {
            (head_digits(0), 9)
        } else {
            (head_digits(3), 7)
        };
        let mut i = 0;
        while i < n {
            steps[k][i] = if i < a {
                (POW5[i], 1, 0)
            } else {
                (0, 0, POW5[i - a])
            };
            i += 1;
        }
        k += 1;
    }
    steps
};

/// Powers of 5 by exponent.
const POW5: [usize; 5] = [1, 5, 25, 125, 625];

/// The limited tables (no copy in melds, no wild), fetched once for a run of lookups,
/// without the first-use check of [`tables::suit`] and [`tables::honors`] per lookup.
#[derive(Clone, Copy)]
pub(crate) struct Limited {
    suit: &'static tables::Table,
    honors: &'static tables::Table,
}

impl Limited {
    /// The limited tables (built on first use).
    #[inline(always)]
    pub(crate) fn get() -> Limited {
        Limited {
            suit: tables::suit(),
            honors: tables::honors(),
        }
    }

    /// The table of group `g`.
    #[inline(always)]
    fn of(&self, g: usize) -> &'static tables::Table {
        if g < 3 {
            self.suit
        } else {
            self.honors
        }
    }

    /// The table rank of group `g` (codes `code`, see [`codes`]) with one copy of its
    /// kind `i` less (the group must hold one): the codes change by one digit, so the rank
    /// is two lookups (equal to the table's `rank` of the group's counts).
    #[inline(always)]
    pub(crate) fn rank_without_one(
        &self,
        code: &(usize, usize, usize),
        g: usize,
        i: usize,
    ) -> usize {
        let (head, sum, tail) = code_step(code, g, i, false);
        self.of(g).rank_of_codes(head, sum, tail)
    }

    /// The table rank of group `g` (codes `code`, see [`codes`]) with one copy of its
    /// kind `i` more (the group must hold at most three of it, and at most 13 tiles): the
    /// codes change by one digit, as in [`Limited::rank_without_one`].
    #[inline(always)]
    pub(crate) fn rank_with_one_more(
        &self,
        code: &(usize, usize, usize),
        g: usize,
        i: usize,
    ) -> usize {
        let (head, sum, tail) = code_step(code, g, i, true);
        self.of(g).rank_of_codes(head, sum, tail)
    }

    /// The table rank of group `g` at the rank codes `code` ([`codes`], [`code_step`]).
    #[inline(always)]
    pub(crate) fn rank_at_codes(&self, g: usize, code: &(usize, usize, usize)) -> usize {
        self.of(g).rank_of_codes(code.0, code.1, code.2)
    }

    /// The limited table entry of group `g` at rank `r`.
    #[inline(always)]
    pub(crate) fn entry_at(&self, g: usize, r: usize) -> &'static Entry {
        self.of(g).at(r)
    }

    /// [`improving_in`].
    #[inline(always)]
    pub(crate) fn improving_in(
        &self,
        g: usize,
        r: usize,
        e: &Entry,
        rest: &Entry,
        m: usize,
        d: u8,
    ) -> u64 {
        let Some(packed) = self.of(g).packed_masks_at(r) else {
            return 0;
        };
        fold_lanes(packed, optimal_lanes(e, rest, m, d)) << span(g).start
    }
}

/// The union of the 9-bit lane masks of `packed` (lane `l` at bits `9 l ..`) over the
/// lanes set in `lanes`.
#[inline(always)]
fn fold_lanes(packed: u128, lanes: u32) -> u64 {
    let lanes = lanes as usize;
    // Keep the 9-bit masks of the chosen lanes, the first five lanes and the last five
    // in two 64-bit words, then fold the ten fields onto one.
    // (The spread masks select bits below 45 only.)
    let (low, high) = (packed as u64, (packed >> 45) as u64);
    let mut x = (low & SPREAD[lanes & 31]) | (high & SPREAD[(lanes >> 5) & 31]);
    x |= x >> 27;
    x |= x >> 18;
    x |= x >> 9;
    x & 0x1FF
}

/// The kinds of group `g` (bits at their tile codes) whose one copy less leaves a hand at
/// its regular distance `d`, when the group's entry in the limited tables is `e` at rank
/// `r`, the rest of the hand's merged entry `rest` and `m` sets are to be made; every
/// other held kind of the group puts the hand one tile further. `keep` is
/// [`tables::suit_keep`] for a suit and [`tables::honors_keep`] for the honors.
///
/// A tile less raises each lane of its group by zero or one ([`tables::suit_keep`]), so
/// the distance without it stays `d` exactly when one of the splits that make `d` keeps its
/// group's lane.
#[inline(always)]
pub(crate) fn keeping_in(
    keep: &[u128],
    g: usize,
    r: usize,
    e: &Entry,
    rest: &Entry,
    m: usize,
    d: u8,
) -> u64 {
    let packed = keep.get(r).copied().unwrap_or(0);
    fold_lanes(packed, optimal_lanes(e, rest, m, d)) << span(g).start
}

impl std::fmt::Debug for Limited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Limited")
    }
}

/// The limited table entry of group `g` at rank `r`.
#[cfg(test)]
pub(crate) fn entry_at(g: usize, r: usize) -> &'static Entry {
    Limited::get().entry_at(g, r)
}

/// The four group entries at known ranks.
#[inline(always)]
pub(crate) fn entries_at(r: &[usize; 4]) -> [Entry; 4] {
    let s = tables::suit();
    [
        *s.at(r[0]),
        *s.at(r[1]),
        *s.at(r[2]),
        *tables::honors().at(r[3]),
    ]
}

/// Replacement number of the regular form: tiles missing from the nearest complete hand
/// (before wilds fill any of them).
#[inline]
pub fn distance(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> u8 {
    if wilds == 0 {
        return distance_with(hand, used, n_melds, &entries_at(&ranks(hand)));
    }
    let m = 4 - n_melds.min(4) as usize;
    let e = entries(hand, used, true, m);
    let ab = combine(&e[0], &e[1]);
    let ch = combine(&e[2], &e[3]);
    finish(&ab, &ch, m)
}

/// [`distance`] without wilds, from the hand's four group entries in the tables without
/// melded copies (`entries_at(&ranks(hand))`).
pub(crate) fn distance_with(hand: &Counts, used: &Counts, n_melds: u8, tables: &[Entry; 4]) -> u8 {
    let m = 4 - n_melds.min(4) as usize;
    let e = tables;
    if plain(used) {
        return finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m);
    }
    if let Some(d) = distance_from_tables(hand, used, m, e) {
        return d;
    }
    let e = entries(hand, used, false, m);
    let ab = combine(&e[0], &e[1]);
    let ch = combine(&e[2], &e[3]);
    finish(&ab, &ch, m)
}

/// The four group entries of `hand` in the tables without melded copies or wilds.
pub(crate) fn table_entries(hand: &Counts) -> [Entry; 4] {
    entries_at(&ranks(hand))
}

/// [`distance`] beside melds (no wilds) read from the tables without melded copies, when
/// they settle it (`None` when they do not).
///
/// A group's table entry is a lower bound of its exact entry (the tables allow every
/// configuration the melds allow, and more). A lane is exact when its cost is at most the
/// group's slack, the fewest further copies a melded kind of the group has room for: a
/// cheapest configuration then misses at most that many tiles, so it takes no more copies
/// of any kind than the melds leave. Read with the other lanes at [`INF`] the groups give
/// an upper bound of the distance; when it meets the lower bound, that is the distance.
fn distance_from_tables(hand: &Counts, used: &Counts, m: usize, e: &[Entry; 4]) -> Option<u8> {
    let mut exact = *e;
    for (g, x) in exact.iter_mut().enumerate() {
        let mut slack = u8::MAX;
        for t in span(g).filter(|&t| used[t] != 0) {
            let room = 4u8.checked_sub(used[t])?.checked_sub(hand[t])?;
            slack = slack.min(room);
        }
        for lane in x.iter_mut().filter(|l| **l > slack) {
            *lane = INF;
        }
    }
    let lower = finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m);
    let upper = finish(
        &combine(&exact[0], &exact[1]),
        &combine(&exact[2], &exact[3]),
        m,
    );
    (upper == lower).then_some(lower)
}

/// The rest of the hand seen from each group: `rest[g]` merges the other three groups.
#[inline]
pub(crate) fn rests(e: &[Entry; 4]) -> [Entry; 4] {
    rests_and_halves(e).0
}

/// [`rests`], and the two halves they are built from: groups 0 and 1 merged, groups 2 and
/// 3 merged.
#[inline]
pub(crate) fn rests_and_halves(e: &[Entry; 4]) -> ([Entry; 4], [Entry; 2]) {
    let halves = halves(e);
    (rests_of_halves(e, &halves), halves)
}

/// The two halves of [`rests_and_halves`]: groups 0 and 1 merged, groups 2 and 3 merged.
#[inline(always)]
pub(crate) fn halves(e: &[Entry; 4]) -> [Entry; 2] {
    [combine(&e[0], &e[1]), combine(&e[2], &e[3])]
}

/// The rests of [`rests_and_halves`] from the halves already merged.
#[inline(always)]
pub(crate) fn rests_of_halves(e: &[Entry; 4], halves: &[Entry; 2]) -> [Entry; 4] {
    [
        rest_of_halves(e, halves, 0),
        rest_of_halves(e, halves, 1),
        rest_of_halves(e, halves, 2),
        rest_of_halves(e, halves, 3),
    ]
}

/// Rest `g` of [`rests_of_halves`]: the three groups other than `g` merged, the group
/// beside it in its half meeting the other half.
#[inline(always)]
pub(crate) fn rest_of_halves(e: &[Entry; 4], halves: &[Entry; 2], g: usize) -> Entry {
    // The merge is symmetric: the group beside `g` meets the other half, whichever `g` is
    // (chosen by index, with no branch on it).
    let g = g.min(3);
    combine(&e[g ^ 1], &halves[1 - g / 2])
}

/// Kinds whose draw lowers the regular distance `d` of a hand without melds or wilds,
/// given its group ranks, entries and rests. Each table entry carries, per lane, the kinds
/// that lower it: a draw lowers the distance exactly when it lowers a lane that an optimum
/// uses.
#[inline]
pub(crate) fn improving_at(
    r: &[usize; 4],
    e: &[Entry; 4],
    rest: &[Entry; 4],
    m: usize,
    d: u8,
) -> u64 {
    let mut out = 0u64;
    for g in 0..4 {
        out |= improving_in(g, r[g], &e[g], &rest[g], m, d);
    }
    out
}

/// The part of [`improving_at`] in group `g`: the kinds of the group (bits at their kind)
/// whose draw lowers the distance `d`, given the group's rank `r`, entry `e` and rest
/// `rest` (the other groups merged).
#[inline(always)]
pub(crate) fn improving_in(g: usize, r: usize, e: &Entry, rest: &Entry, m: usize, d: u8) -> u64 {
    Limited::get().improving_in(g, r, e, rest, m, d)
}

/// `SPREAD[b]`: bits `9 l .. 9 l + 9` set for each of the five lanes `l` set in `b`.
const SPREAD: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut b = 0;
    while b < 32 {
        let mut l = 0;
        while l < 5 {
            if b >> l & 1 == 1 {
                t[b] |= 0x1FF << (9 * l);
            }
            l += 1;
        }
        b += 1;
    }
    t
};

/// The lanes of a group that an optimum of `m` sets and a pair uses (bit `l` for lane
/// `l`): those where `e[l] + rest[2m + 1 - l] == d`, the rest taking the sets and the
/// pair the group leaves. All lanes are compared at once in the bytes of a `u128`.
#[inline(always)]
fn optimal_lanes(e: &Entry, rest: &Entry, m: usize, d: u8) -> u32 {
    let own = entry_bits(e);
    // `rest` reversed around lane 15 (its lane 9 lands in lane 6), then moved down to
    // reverse it around lane 2m + 1; the lanes above 2m + 1 are left out below.
    let other = entry_bits(rest).swap_bytes() >> (8 * (6 + 8 - 2 * m.min(4)));
    // Every byte is at most 2 * INF < 128, so the bytes add without carries.
    let sum = own + other;
    let hit = sum ^ (u128::from(d) * 0x0101_0101_0101_0101_0101_0101_0101_0101);
    let lanes = swar::zero_bytes(hit as u64) | swar::zero_bytes((hit >> 64) as u64) << 8;
    (lanes & ((1 << (2 * m.min(4) + 2)) - 1)) as u32
}

/// An entry's lanes as the low ten bytes of a `u128` (lane `l` in byte `l`, the bytes
/// above zero).
#[inline(always)]
fn entry_bits(e: &Entry) -> u128 {
    let (low, high) = e.split_at(8);
    let low = u64::from_le_bytes(low.try_into().unwrap_or([INF; 8]));
    let high = u16::from_le_bytes(high.try_into().unwrap_or([INF; 2]));
    u128::from(low) | u128::from(high) << 64
}

/// Kinds whose draw lowers the regular distance of a `13 - 3k` hand (bit `t` for kind `t`),
/// among the kinds in `allowed`.
pub fn improving(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8, allowed: u64) -> u64 {
    improving_with(hand, used, n_melds, wilds, allowed, false).1
}

/// [`distance`] and [`improving`] of the same hand, which share its groups' entries.
pub fn distance_improving(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
    allowed: u64,
) -> (u8, u64) {
    improving_with(hand, used, n_melds, wilds, allowed, true)
}

/// [`improving`], and with `with_distance` the hand's [`distance`] (else 0), computed from
/// the same entries as [`distance`] computes it.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn improving_with(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wilds: u8,
    allowed: u64,
    with_distance: bool,
) -> (u8, u64) {
    let wild = wilds > 0;
    let m = 4 - n_melds.min(4) as usize;
    let whole = |e: &[Entry; 4]| {
        if with_distance {
            finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m)
        } else {
            0
        }
    };
    if !wild && plain(used) {
        let r = ranks(hand);
        let e = entries_at(&r);
        let rest = rests(&e);
        let d = finish(&e[0], &rest[0], m);
        return (whole(&e), improving_at(&r, &e, &rest, m, d) & allowed);
    }
    // The groups holding melded copies: their exact entries and improving masks in one
    // pass each (the entries below then come from the cache).
    let mut melded: [Option<dp::Masks>; 4] = [None; 4];
    if !wild {
        for (g, slot) in melded.iter_mut().enumerate() {
            let r = span(g);
            let v = &hand[r.clone()];
            let held: u32 = v.iter().map(|&x| x as u32).sum();
            if held < 14 && used[r.clone()].iter().any(|&u| u != 0) {
                let mut limit = [4u8; 9];
                for (l, &u) in limit.iter_mut().zip(&used[r.clone()]) {
                    *l = 4u8.saturating_sub(u);
                }
                *slot = Some(dp::cached_entry_masks(v, &limit[..v.len()], g < 3, m).1);
            }
        }
    }
    let e = entries(hand, used, wild, m);
    let rest = rests(&e);
    let d = finish(&e[0], &rest[0], m);
    let mut out = 0u64;
    for g in 0..4 {
        let r = span(g);
        let mut v = [0u8; 9];
        let len = r.len();
        v[..len].copy_from_slice(&hand[r.clone()]);
        let sum: u32 = v.iter().map(|&x| x as u32).sum();
        if sum >= 14 {
            continue;
        }
        let table = if g < 3 {
            tables::suit()
        } else {
            tables::honors()
        };
        // A tile of the group lowers the hand's distance exactly when it lowers a lane
        // that makes the distance (a tight lane): the lanes' improving masks answer for
        // all the group's kinds at once, from the table without melded copies in the
        // group, else from the group's exact entry under its copy limits.
        let lane_masks = if wild {
            None
        } else if used[r.clone()].iter().all(|&u| u == 0) {
            table.masks_at(table.rank(&v[..len]))
        } else {
            melded[g]
        };
        if let Some(masks) = lane_masks {
            let mut mask = 0u16;
            for m1 in 0..=m {
                for p1 in 0..2 {
                    let lane = 2 * m1 + p1;
                    if e[g][lane] + rest[g][2 * (m - m1) + 1 - p1] == d {
                        mask |= masks[lane];
                    }
                }
            }
            out |= ((mask as u64) << r.start) & allowed;
            continue;
        }
        for (j, t) in r.clone().enumerate() {
            if allowed >> t & 1 == 0 || v[j] >= 4 {
                continue;
            }
            v[j] += 1;
            let ne = group_entry_upto(g, &v[..len], &used[r.clone()], wild, m);
            v[j] -= 1;
            if finish(&ne, &rest[g], m) < d {
                out |= 1 << t;
            }
        }
    }
    (whole(&e), out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn complete_and_ready_hands() {
        let z = [0u8; 34];
        assert_eq!(distance(&counts("123m456p789s11122z"), &z, 0, 0), 0);
        assert_eq!(distance(&counts("123m456p789s1112z"), &z, 0, 0), 1);
        assert_eq!(distance(&counts("19m19p19s1234567z"), &z, 0, 0), 9);
    }

    /// Beside random melds, the distance (from the tables where they settle it) is the
    /// distance from the exact group entries, for hands of every size and crowded ones.
    #[test]
    fn distances_beside_melds_are_the_exact_entries() {
        use crate::hand::{Meld, MeldKind};
        let mut s = 29u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        let mut settled = 0;
        for round in 0..30_000 {
            let k = 1 + next(4) as usize;
            let mut melds = Vec::new();
            let mut used = [0u8; 34];
            while melds.len() < k {
                let kind = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong][next(3) as usize];
                let tile = if kind == MeldKind::Chow {
                    (next(3) * 9 + next(7)) as u8
                } else {
                    // Crowd a few kinds of the first suit.
                    [next(34), next(5)][round % 2] as u8
                };
                let m = Meld { kind, tile };
                let mut u = used;
                m.add_to(&mut u);
                if u.iter().all(|&c| c <= 4) {
                    used = u;
                    melds.push(m);
                }
            }
            let size = 13 - 3 * k + next(2) as usize;
            let mut hand = [0u8; 34];
            let mut n = 0;
            while n < size {
                let t = [next(34), next(9)][round % 3 / 2] as usize;
                if hand[t] + used[t] < 4 {
                    hand[t] += 1;
                    n += 1;
                }
            }
            let m = 4 - k;
            let e = entries(&hand, &used, false, m);
            let want = finish(&combine(&e[0], &e[1]), &combine(&e[2], &e[3]), m);
            assert_eq!(
                distance(&hand, &used, k as u8, 0),
                want,
                "{hand:?} {melds:?}"
            );
            settled +=
                distance_from_tables(&hand, &used, m, &table_entries(&hand)).is_some() as u32;
        }
        assert!(settled > 10_000, "{settled}");
    }

    /// Beside random melds, the kinds whose draw lowers the distance of a waiting hand
    /// are those found by drawing each kind.
    #[test]
    fn improving_beside_melds_is_trying_every_draw() {
        use crate::hand::{Meld, MeldKind};
        let mut s = 31u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        for round in 0..6_000 {
            let k = 1 + next(3) as usize;
            let mut used = [0u8; 34];
            let mut n_melds = 0;
            while n_melds < k {
                let kind = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong][next(3) as usize];
                let tile = if kind == MeldKind::Chow {
                    (next(3) * 9 + next(7)) as u8
                } else {
                    [next(34), next(5)][round % 2] as u8
                };
                let mut u = used;
                Meld { kind, tile }.add_to(&mut u);
                if u.iter().all(|&c| c <= 4) {
                    used = u;
                    n_melds += 1;
                }
            }
            let mut hand = [0u8; 34];
            let mut n = 0;
            while n < 13 - 3 * k {
                let t = [next(34), next(9)][round % 3 / 2] as usize;
                if hand[t] + used[t] < 4 {
                    hand[t] += 1;
                    n += 1;
                }
            }
            let d = distance(&hand, &used, k as u8, 0);
            let mut want = 0u64;
            for t in (0..34).filter(|&t| hand[t] + used[t] < 4) {
                let mut h = hand;
                h[t] += 1;
                if distance(&h, &used, k as u8, 0) < d {
                    want |= 1 << t;
                }
            }
            assert_eq!(
                improving(&hand, &used, k as u8, 0, u64::MAX),
                want,
                "{hand:?} {used:?}"
            );
        }
    }

    #[test]
    fn four_copy_limit_in_hand_and_melds() {
        let z = [0u8; 34];
        // 1111m + 123456789p: the only "wait" is a fifth 1m, so not ready.
        assert_eq!(distance(&counts("1111m123456789p"), &z, 0, 0), 2);
        // 1m single beside a melded pung of 1m: the pair must be built elsewhere.
        let mut used = [0u8; 34];
        used[0] = 3;
        assert_eq!(distance(&counts("1m123p456p789p"), &z, 1, 0), 1);
        assert_eq!(distance(&counts("1m123p456p789p"), &used, 1, 0), 2);
        let hand = counts("1m123p456p789p");
        assert_eq!(improving(&hand, &z, 1, 0, u64::MAX), 1);
        let better = improving(&hand, &used, 1, 0, u64::MAX);
        assert_eq!(better & 1, 0);
        assert_ne!(better, 0);
    }

    #[test]
    fn ranks_match_the_table_ranks() {
        let mut x = 0x853C_49E6_748F_EA9Bu64;
        for _ in 0..50_000 {
            let mut hand = [0u8; 34];
            // Up to 14 tiles, often crowded into one group.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let group = (x % 4) as usize;
            for k in 0..14 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let t = if k % 3 == 0 {
                    (x >> 8) as usize % 34
                } else {
                    span(group).start + (x >> 8) as usize % span(group).len()
                };
                if hand[t] < 4 {
                    hand[t] += 1;
                }
            }
            let want = [
                tables::suit().rank(&hand[0..9]),
                tables::suit().rank(&hand[9..18]),
                tables::suit().rank(&hand[18..27]),
                tables::honors().rank(&hand[27..34]),
            ];
            assert_eq!(ranks(&hand), want, "{hand:?}");
        }
    }

    /// Two random lane arrays from the xorshift state `x`: one lane in `inf_every` out of
    /// reach, the others below `below`.
    fn random_lanes(x: &mut u64, inf_every: u64, below: u8) -> ([u8; LANES], [u8; LANES]) {
        let mut a = [0u8; LANES];
        let mut b = [0u8; LANES];
        for v in a.iter_mut().chain(b.iter_mut()) {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            *v = if *x % inf_every == 0 {
                INF
            } else {
                (*x >> 8) as u8 % below
            };
        }
        (a, b)
    }

    #[test]
    fn finish_matches_the_scalar_form() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            let (a, b) = random_lanes(&mut x, 5, 40);
            for m in 0..6 {
                assert_eq!(
                    finish(&a, &b, m),
                    finish_scalar(&a, &b, m),
                    "{a:?} {b:?} {m}"
                );
            }
        }
    }

    #[test]
    fn combine_matches_the_scalar_form() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            let (a, b) = random_lanes(&mut x, 7, 15);
            assert_eq!(combine(&a, &b), combine_scalar(&a, &b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn wilds_fill_missing_tiles() {
        let z = [0u8; 34];
        // 123m456p789s1z + 1 wild: complete with the wild as the second 1z.
        assert_eq!(distance(&counts("123m456p789s111z1z"), &z, 0, 1), 1);
        let h = counts("123m456p789s1z");
        assert_eq!(distance(&h, &z, 0, 3), 4);
        // 1111m + wilds may stand for a fifth 1m.
        assert_eq!(distance(&counts("1111m"), &z, 3, 0), 2);
        assert_eq!(distance(&counts("1111m"), &z, 3, 1), 1);
    }
}
