//! Knitted straight (组合龙): the nine knitted tiles of one permutation (147 / 258 / 369
//! spread over the three suits), plus one set and a pair, or plus a pair beside one
//! declared meld.
//!
//! For each of the six permutations the distance is `base + rest`: `base` = knitted tiles
//! not held, `rest` = the distance of the other tiles (one copy of each held knitted kind
//! goes to the straight) to a set and a pair, read from the group tables. Only three
//! residue classes exist per suit, so the nine possible suit remainders are looked up at
//! most once each. Without melds every kind has four copies and a knitted kind keeps three
//! for the rest, which one set and one pair never exceed (a pung and a pair of one kind
//! would need five), so the tables are exact; beside one meld only the pair is left, and it
//! is checked against the melded copies directly, as is the availability of each knitted
//! tile.
// Index loops over the six permutations and the groups read best here.
#![allow(clippy::needless_range_loop)]

use super::regular::group_entry;
use super::special::presence;
use super::tables::{self, Entry, Knit, INF};
use crate::tile::Counts;

/// The residue class (0 = 147, 1 = 258, 2 = 369) each suit takes, per permutation.
pub const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The nine tiles of each permutation's knitted straight, as bit masks.
pub const MASKS: [u64; 6] = masks();

const fn masks() -> [u64; 6] {
    let mut out = [0u64; 6];
    let mut p = 0;
    while p < 6 {
        let mut s = 0;
        while s < 3 {
            let mut r = PERMS[p][s];
            while r < 9 {
                out[p] |= 1 << (9 * s + r);
                r += 3;
            }
            s += 1;
        }
        p += 1;
    }
    out
}

/// Per-permutation analysis of a hand.
struct Analysis {
    base: [u8; 6],
    rest: [u8; 6],
}

/// The suit `s` remainder once the held knitted tiles of class `r` go to the straight.
#[inline(always)]
fn suit_rest(hand: &Counts, s: usize, r: usize) -> [u8; 9] {
    let mut v = [0u8; 9];
    v.copy_from_slice(&hand[9 * s..9 * s + 9]);
    let mut k = r;
    while k < 9 {
        v[k] = v[k].saturating_sub(1);
        k += 3;
    }
    v
}

/// Distance of four group entries to one set and one pair.
#[inline(always)]
fn set_and_pair(e: [&Entry; 4]) -> u8 {
    let mut best = INF;
    for a in 0..4 {
        best = best.min(e[a][3]);
        for b in 0..4 {
            if a != b {
                best = best.min(e[a][2] + e[b][1]);
            }
        }
    }
    best
}

/// [`set_and_pair`] from the packed lanes.
#[inline(always)]
fn knit_set_and_pair(k: &[Knit; 4]) -> u8 {
    let mut best = INF;
    for a in 0..4 {
        best = best.min(k[a].both);
        for b in 0..4 {
            if a != b {
                best = best.min(k[a].set + k[b].pair);
            }
        }
    }
    best
}

/// Distance of the rest (tiles beside the straight `p`) to a pair alone, next to one meld.
#[inline(always)]
fn pair_only(hand: &Counts, used: &Counts, wild: bool, p: usize, extra: Option<usize>) -> u8 {
    let k = MASKS[p];
    let mut best = INF;
    for t in 0..34 {
        let knit = (k >> t & 1) as u8;
        let mut r = hand[t].saturating_sub(knit);
        if extra == Some(t) {
            r += 1;
        }
        if !wild && 2 + knit + used[t] > 4 {
            continue;
        }
        best = best.min(2u8.saturating_sub(r));
    }
    best
}

/// True when a knitted tile of `p` can be neither held nor drawn (all four copies melded).
#[inline(always)]
fn blocked(held: u64, used: &Counts, wild: bool, p: usize) -> bool {
    if wild {
        return false;
    }
    MASKS[p] & !held & super::special::fours(used) != 0
}

fn analyse(
    hand: &Counts,
    used: &Counts,
    n_melds: u8,
    wild: bool,
    held: u64,
    bound: u8,
) -> Analysis {
    let mut a = Analysis {
        base: [INF; 6],
        rest: [INF; 6],
    };
    let mut best = bound;
    let z = [0u8; 9];
    let mut honors: Option<Entry> = None;
    let mut cache: [[Option<Entry>; 3]; 3] = [[None; 3]; 3];
    let mut order = [0usize, 1, 2, 3, 4, 5];
    for p in 0..6 {
        a.base[p] = 9 - (held & MASKS[p]).count_ones() as u8;
    }
    order.sort_by_key(|&p| a.base[p]);
    // Without wilds or melds the suit table already holds every remainder.
    let mut fast: Option<[[u8; 3]; 3]> = None;
    let mut fast_honors = Knit {
        pair: 0,
        set: 0,
        both: 0,
    };
    if !wild && n_melds == 0 && a.base.iter().any(|&b| b < best) {
        let st = tables::suit();
        let ht = tables::honors();
        let codes = [0, 1, 2].map(|s| st.knit_at(st.rank(&hand[9 * s..9 * s + 9])).copied());
        if let [Some(c0), Some(c1), Some(c2)] = codes {
            fast = Some([c0, c1, c2]);
            fast_honors = Knit::of(ht.get(&hand[27..34]));
        }
    }
    for p in order {
        // Ties are kept: the useful tiles need every optimal permutation.
        if a.base[p] > best || blocked(held, used, wild, p) {
            continue;
        }
        let rest = if n_melds == 1 {
            pair_only(hand, used, wild, p, None)
        } else if let Some(codes) = &fast {
            let k = [
                Knit::decode(codes[0][PERMS[p][0]]),
                Knit::decode(codes[1][PERMS[p][1]]),
                Knit::decode(codes[2][PERMS[p][2]]),
                fast_honors,
            ];
            knit_set_and_pair(&k)
        } else {
            let h = *honors.get_or_insert_with(|| group_entry(3, &hand[27..34], &z[..7], wild));
            let mut e = [h; 4];
            for s in 0..3 {
                let r = PERMS[p][s];
                e[s] = *cache[s][r]
                    .get_or_insert_with(|| group_entry(s, &suit_rest(hand, s, r), &z, wild));
            }
            set_and_pair([&e[0], &e[1], &e[2], &e[3]])
        };
        a.rest[p] = rest;
        best = best.min(a.base[p].saturating_add(rest));
    }
    a
}

/// The distance below `bound` of a hand without melds or wilds whose group ranks in the
/// limited tables are `ranks` (and honors entry `honors`); `None` if not below `bound`.
#[inline]
pub(crate) fn distance_fast(
    held: u64,
    ranks: &[usize; 4],
    honors: &Entry,
    bound: u8,
) -> Option<u8> {
    distance_fast_with(&missing_kinds(held), ranks, honors, bound)
}

/// The knitted kinds of each permutation's straight missing from the kinds `held`.
#[inline(always)]
pub(crate) fn missing_kinds(held: u64) -> [u8; 6] {
    let c = held_per_perm(held);
    std::array::from_fn(|p| 9 - (c >> (8 * p)) as u8)
}

/// `PERM_HELD[s][b]`: of the kinds `b` (nine bits, rank `r` at bit `r - 1`) held in suit
/// `s`, those in the residue class that permutation `p` gives the suit, counted in byte
/// `p` (the bytes above the sixth are zero).
const PERM_HELD: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut s = 0;
    while s < 3 {
        let mut b = 0;
        while b < 512 {
            let mut p = 0;
            while p < 6 {
                let mut r = PERMS[p][s];
                while r < 9 {
                    t[s][b] += ((b >> r) as u64 & 1) << (8 * p);
                    r += 3;
                }
                p += 1;
            }
            b += 1;
        }
        s += 1;
    }
    t
};

/// The kinds of each permutation's knitted straight among the kinds `held`, the count of
/// permutation `p` in byte `p`: `(held & MASKS[p]).count_ones()`, from one table lookup a
/// suit (each byte is at most 9, so the suits add without carries).
#[inline(always)]
pub(crate) fn held_per_perm(held: u64) -> u64 {
    PERM_HELD[0][(held & 0x1FF) as usize]
        + PERM_HELD[1][(held >> 9 & 0x1FF) as usize]
        + PERM_HELD[2][(held >> 18 & 0x1FF) as usize]
}

/// The most knitted kinds any permutation's straight has among the kinds `held`.
#[inline(always)]
pub(crate) fn most_held(held: u64) -> u8 {
    let c = held_per_perm(held);
    let mut best = 0u8;
    for p in 0..6 {
        best = best.max((c >> (8 * p)) as u8);
    }
    best
}

/// [`distance_fast`] with each permutation's missing knitted kinds `base`
/// ([`missing_kinds`]) already counted.
#[inline]
pub(crate) fn distance_fast_with(
    base: &[u8; 6],
    ranks: &[usize; 4],
    honors: &Entry,
    bound: u8,
) -> Option<u8> {
    if base.iter().all(|&b| b >= bound) {
        return None;
    }
    let st = tables::suit();
    let codes = [
        st.knit_at(ranks[0])?,
        st.knit_at(ranks[1])?,
        st.knit_at(ranks[2])?,
    ];
    let h = merge_code(Knit::of(honors));
    let mut best = bound;
    for p in 0..6 {
        if base[p] >= best {
            continue;
        }
        // [`knit_set_and_pair`] of the three suits' remainders and the honors, merged two
        // by two through the table.
        let low =
            KNIT_MERGE[merge_index(codes[0][PERMS[p][0]])][merge_index(codes[1][PERMS[p][1]])];
        let high = KNIT_MERGE[merge_index(codes[2][PERMS[p][2]])][h];
        let rest = KNIT_MERGE[merge_index(low)][merge_index(high)] / 12;
        best = best.min(base[p] + rest);
    }
    (best < bound).then_some(best)
}

/// The shares of a hand without melds (its group ranks in the limited tables and its
/// honors entry) in the knitted-straight distances of the hands that differ from it in
/// one group: per permutation, the hand's own remainder distance (a set and a pair, as
/// [`distance_fast_with`] reads it) and, per group, the other three groups' remainders
/// merged. A hand with one group replaced is then measured with one merge per
/// permutation: the merge is commutative and associative, so the order in which the
/// groups meet leaves the result unchanged.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KnitShares {
    /// `others[g][p]`: the [`KNIT_MERGE`] code of the groups other than `g` under
    /// permutation `p`.
    others: [[u8; 6]; 4],
    /// `rest[p]`: the hand's remainder distance under permutation `p`.
    rest: [u8; 6],
    /// Bit `g` (0-3): every suit other than `g` has remainders in the table (`others[g]`
    /// is known); bit 4: every suit has (`rest` is known).
    known: u8,
}

impl KnitShares {
    /// The shares of the hand with group ranks `ranks` and honors entry `honors`.
    #[inline]
    pub(crate) fn new(ranks: &[usize; 4], honors: &Entry) -> KnitShares {
        let st = tables::suit();
        let [a, b, c] = [
            st.knit_at(ranks[0]),
            st.knit_at(ranks[1]),
            st.knit_at(ranks[2]),
        ];
        let h = merge_code(Knit::of(honors));
        let mut others = [[0u8; 6]; 4];
        let mut rest = [0u8; 6];
        for p in 0..6 {
            // Suit `s`'s remainder code under this permutation (0 when it has none; then
            // nothing read from it is known).
            let class =
                |k: Option<&[u8; 3]>, s: usize| k.map_or(0, |k| merge_index(k[PERMS[p][s]]));
            let (a, b, c) = (class(a, 0), class(b, 1), class(c, 2));
            let low = merge_index(KNIT_MERGE[a][b]);
            let high = merge_index(KNIT_MERGE[c][h]);
            others[0][p] = KNIT_MERGE[b][high];
            others[1][p] = KNIT_MERGE[a][high];
            others[2][p] = KNIT_MERGE[low][h];
            others[3][p] = KNIT_MERGE[low][c];
            rest[p] = KNIT_MERGE[low][high] / 12;
        }
        let (a, b, c) = (a.is_some(), b.is_some(), c.is_some());
        let all = u8::from(a && b && c);
        let known =
            u8::from(b && c) | u8::from(a && c) << 1 | u8::from(a && b) << 2 | all << 3 | all << 4;
        KnitShares {
            others,
            rest,
            known,
        }
    }

    /// The permutations (bit `p`) whose straight is `d` tiles away in the hand itself,
    /// each lacking `base` knitted kinds (`base[p]` plus its remainder distance): none
    /// when a suit has no remainders in the table.
    #[inline]
    pub(crate) fn at_distance(&self, base: &[u8; 6], d: u8) -> u8 {
        if self.known >> 4 & 1 == 0 {
            return 0;
        }
        (0..6).fold(0, |m, p| m | u8::from(base[p] + self.rest[p] == d) << p)
    }

    /// The remainder distance under permutation `p` of the hand with group `g` replaced
    /// by the group of rank `rank` (a suit) or honors entry `honors` (`g` = 3); `None`
    /// when a suit has no remainders in the table (then [`distance_fast_with`] has no
    /// distance).
    #[inline(always)]
    pub(crate) fn rest_with(&self, g: usize, p: usize, rank: usize, honors: &Entry) -> Option<u8> {
        let g = g.min(3);
        if self.known >> g & 1 == 0 {
            return None;
        }
        let p = p.min(5);
        let own = if g < 3 {
            merge_index(tables::suit().knit_at(rank)?[PERMS[p][g]])
        } else {
            merge_code(Knit::of(honors))
        };
        Some(KNIT_MERGE[own][merge_index(self.others[g][p])] / 12)
    }
}

/// `PERMS_WITH[t]`: the permutations whose knitted straight has kind `t` (bit `p`).
pub(crate) const PERMS_WITH: [u8; 34] = {
    let mut t = [0u8; 34];
    let mut k = 0;
    while k < 34 {
        let mut p = 0;
        while p < 6 {
            t[k] |= ((MASKS[p] >> k & 1) as u8) << p;
            p += 1;
        }
        k += 1;
    }
    t
};

/// States of a [`KNIT_MERGE`] code: pair 0-2, set 0-3, both 0-5.
const MERGE_STATES: usize = 72;

/// A table index from a code (codes are below [`MERGE_STATES`]).
#[inline(always)]
fn merge_index(code: u8) -> usize {
    (code as usize).min(MERGE_STATES - 1)
}

/// The [`KNIT_MERGE`] code of a group's lanes (pair, set, both), each capped at the most
/// a group can lack (2, 3 and 5 tiles).
#[inline(always)]
fn merge_code(k: Knit) -> usize {
    (k.pair.min(2) + 3 * k.set.min(3) + 12 * k.both.min(5)) as usize
}

/// `KNIT_MERGE[a][b]`: the lanes of two groups taken together, as codes `pair + 3 set +
/// 12 both` (a suit's [`Knit`] code is one): the cheaper pair, the cheaper set, and the
/// cheapest set and pair from one group or from the two (a set from one and the pair
/// from the other). Merging is associative, so four groups' cheapest set and pair is the
/// `both` of three merges ([`knit_set_and_pair`]).
static KNIT_MERGE: [[u8; MERGE_STATES]; MERGE_STATES] = {
    let mut t = [[0u8; MERGE_STATES]; MERGE_STATES];
    let mut a = 0;
    while a < MERGE_STATES {
        let mut b = 0;
        while b < MERGE_STATES {
            let (pa, sa, ba) = (a % 3, a / 3 % 4, a / 12);
            let (pb, sb, bb) = (b % 3, b / 3 % 4, b / 12);
            let pair = if pa < pb { pa } else { pb };
            let set = if sa < sb { sa } else { sb };
            let mut both = if ba < bb { ba } else { bb };
            if sa + pb < both {
                both = sa + pb;
            }
            if sb + pa < both {
                both = sb + pa;
            }
            t[a][b] = (pair + 3 * set + 12 * both) as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// Distance of the knitted straight, or `None` with more than one meld.
pub fn distance(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8) -> Option<u8> {
    distance_below(hand, used, n_melds, wilds, u8::MAX)
}

/// The distance if it is below `bound` (`None` otherwise, or with more than one meld).
#[inline]
pub fn distance_below(
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
    if n_melds == 0 && wilds == 0 {
        let r = super::regular::ranks(hand);
        return distance_fast(held, &r, tables::honors().at(r[3]), bound.min(INF + 1));
    }
    // The straight's tiles missing from the hand are part of the distance.
    let missing = MASKS.map(|k| 9 - (held & k).count_ones() as u8);
    if missing.iter().all(|&m| m >= bound) {
        return None;
    }
    if wilds == 0 && super::regular::plain(used) {
        return one_meld_fast(hand, held, &missing, bound);
    }
    if wilds == 0 {
        return one_meld(hand, used, held, &missing, bound);
    }
    let a = analyse(hand, used, n_melds, wilds > 0, held, bound);
    let best = (0..6)
        .map(|p| a.base[p].saturating_add(a.rest[p]))
        .min()
        .unwrap_or(INF);
    (best < bound).then_some(best.min(INF))
}

/// [`distance_below`] beside one meld without wilds, its copies `used`: each straight's
/// missing tiles plus the tiles its pair lacks ([`pair_only`]), from bit sets. A straight
/// with a tile all of whose copies are melded is out of reach (its pair counted [`INF`]);
/// a kind may hold the pair when its copies in the meld leave room for the pair and, on
/// the straight, the straight's copy (at most two melded off the straight, one on it).
#[inline]
fn one_meld(hand: &Counts, used: &Counts, held: u64, missing: &[u8; 6], bound: u8) -> Option<u8> {
    use super::special::{fours, pairs_held, threes_held};
    const KINDS: u64 = (1 << 34) - 1;
    let twice = pairs_held(hand);
    let thrice = threes_held(hand);
    let gone = fours(used);
    let (room_off, room_on) = (KINDS & !threes_held(used), KINDS & !pairs_held(used));
    let mut best = u8::MAX;
    for (p, &k) in MASKS.iter().enumerate() {
        let room = (room_off & !k) | (room_on & k);
        let pair = if k & !held & gone != 0 || room == 0 {
            INF
        } else if ((twice & !k) | (thrice & k)) & room != 0 {
            0
        } else if ((held & !k) | (twice & k)) & room != 0 {
            1
        } else {
            2
        };
        best = best.min(missing[p].saturating_add(pair));
    }
    (best < bound).then_some(best.min(INF))
}

/// [`distance_below`] beside one meld whose copies are not counted (no wilds): each
/// straight's missing tiles plus the tiles its pair lacks, from bit sets of the kinds held
/// at least once, twice and three times. Beside the straight `p` (mask `k`) the rest
/// holds a pair when a kind off the straight is held twice or one on it three times, and
/// one tile of a pair when a kind off it is held or one on it twice; [`pair_only`] with no
/// copies used, as no kind is then blocked.
#[inline]
fn one_meld_fast(hand: &Counts, held: u64, missing: &[u8; 6], bound: u8) -> Option<u8> {
    let twice = super::special::pairs_held(hand);
    let thrice = super::special::threes_held(hand);
    one_meld_from(held, twice, thrice, missing, bound)
}

/// [`distance_below`] beside one meld whose copies are not counted (no wilds), from the
/// kinds held at least once (`held`), twice and three times, and each straight's missing
/// kinds `missing` ([`missing_kinds`]`(held)`); see [`one_meld_fast`].
#[inline(always)]
pub(crate) fn one_meld_from(
    held: u64,
    twice: u64,
    thrice: u64,
    missing: &[u8; 6],
    bound: u8,
) -> Option<u8> {
    let mut best = u8::MAX;
    for (p, &k) in MASKS.iter().enumerate() {
        let pair = if (twice & !k) | (thrice & k) != 0 {
            0
        } else if (held & !k) | (twice & k) != 0 {
            1
        } else {
            2
        };
        best = best.min(missing[p] + pair);
    }
    (best < bound).then_some(best.min(INF))
}

/// Kinds whose draw lowers the rest (`rest` = its set-and-pair distance) beside the
/// straight `p`, from the limited tables' improving masks: a draw helps exactly when it
/// lowers a lane that an optimal split of the set and the pair uses.
fn rest_improving(hand: &Counts, p: usize, rest: u8) -> u64 {
    let st = tables::suit();
    let ht = tables::honors();
    let mut rank = [0usize; 4];
    for s in 0..3 {
        rank[s] = st.rank(&suit_rest(hand, s, PERMS[p][s]));
    }
    rank[3] = ht.rank(&hand[27..34]);
    let table = |g: usize| if g < 3 { st } else { ht };
    let e: [Entry; 4] = [0, 1, 2, 3].map(|g| *table(g).at(rank[g]));
    // The improving masks of lanes 1 (a pair), 2 (a set) and 3 (both) of each group.
    let packed: [u128; 4] = [0, 1, 2, 3].map(|g| table(g).packed_masks_at(rank[g]).unwrap_or(0));
    let lane = |g: usize, l: usize| (packed[g] >> (9 * l)) as u64 & 0x1FF;
    let mut out = 0u64;
    for a in 0..4 {
        let start = if a < 3 { 9 * a } else { 27 };
        if e[a][3] == rest {
            out |= lane(a, 3) << start;
        }
        for b in 0..4 {
            if a != b && e[a][2] + e[b][1] == rest {
                let sb = if b < 3 { 9 * b } else { 27 };
                out |= lane(a, 2) << start | lane(b, 1) << sb;
            }
        }
    }
    out
}

/// Kinds among `allowed` whose draw lowers the knitted-straight distance.
pub fn improving(hand: &Counts, used: &Counts, n_melds: u8, wilds: u8, allowed: u64) -> u64 {
    if n_melds > 1 {
        return 0;
    }
    let wild = wilds > 0;
    let held = presence(hand);
    let a = analyse(hand, used, n_melds, wild, held, u8::MAX);
    let d = (0..6)
        .map(|p| a.base[p].saturating_add(a.rest[p]))
        .min()
        .unwrap_or(INF);
    if d == 0 || d >= INF {
        return 0;
    }
    let z = [0u8; 9];
    let mut out = 0u64;
    for p in 0..6 {
        if a.base[p].saturating_add(a.rest[p]) != d {
            continue;
        }
        // A missing knitted tile shortens the straight.
        out |= MASKS[p] & !held;
        if a.rest[p] == 0 {
            continue;
        }
        // Any other draw joins the rest.
        if n_melds == 1 {
            // The rest is a pair alone ([`pair_only`]): a draw lowers it exactly when its
            // kind may form the pair and its copies beside the straight, the draw
            // included, come closer to two than the rest is.
            let k = MASKS[p];
            for t in 0..34 {
                let knit = (k >> t & 1) as u8;
                let may_pair = wild || 2 + knit + used[t] <= 4;
                let closer = 2u8.saturating_sub(hand[t].saturating_sub(knit) + 1) < a.rest[p];
                if allowed >> t & 1 == 1 && out >> t & 1 == 0 && may_pair && closer {
                    out |= 1 << t;
                }
            }
            continue;
        }
        if !wild {
            out |= rest_improving(hand, p, a.rest[p]);
            continue;
        }
        let mut e = [group_entry(3, &hand[27..34], &z[..7], wild); 4];
        let mut vs = [[0u8; 9]; 4];
        for s in 0..3 {
            vs[s] = suit_rest(hand, s, PERMS[p][s]);
            e[s] = group_entry(s, &vs[s], &z, wild);
        }
        vs[3][..7].copy_from_slice(&hand[27..34]);
        for g in 0..4 {
            let len = if g < 3 { 9 } else { 7 };
            for j in 0..len {
                let t = if g < 3 { 9 * g + j } else { 27 + j };
                if allowed >> t & 1 == 0 || out >> t & 1 == 1 || vs[g][j] >= 4 {
                    continue;
                }
                let mut v = vs[g];
                v[j] += 1;
                let ne = group_entry(g, &v[..len], &z[..len], wild);
                let mut e2 = e;
                e2[g] = ne;
                if set_and_pair([&e2[0], &e2[1], &e2[2], &e2[3]]) < a.rest[p] {
                    out |= 1 << t;
                }
            }
        }
    }
    out & allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    /// Beside one meld of any kind, the bit-set distance is the per-straight analysis's,
    /// for every bound.
    #[test]
    fn the_held_kinds_per_permutation_are_the_masks_counts() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse and dense masks of the 34 kinds.
            let held = if round % 2 == 0 { x & x >> 5 } else { x } & ((1 << 34) - 1);
            let orphans = (held & super::super::special::ORPHAN_MASK).count_ones() as u8;
            assert_eq!(super::super::special::orphans_missing(held), 13 - orphans);
            let want = MASKS.map(|k| 9 - (held & k).count_ones() as u8);
            assert_eq!(missing_kinds(held), want, "{held:#x}");
            let most = MASKS.iter().map(|&k| (held & k).count_ones()).max();
            assert_eq!(Some(most_held(held) as u32), most);
            let hk = MASKS
                .iter()
                .map(|&k| (held & (k | super::super::special::HONOR_MASK)).count_ones())
                .max()
                .unwrap_or(0);
            assert_eq!(
                super::super::special::honors_knitted_held(held),
                14 - hk.min(14) as u8
            );
        }
    }

    #[test]
    fn merging_groups_through_the_table_equals_the_set_and_pair_of_four() {
        let knit = |c: usize| Knit {
            pair: (c % 3) as u8,
            set: (c / 3 % 4) as u8,
            both: (c / 12) as u8,
        };
        for a in 0..MERGE_STATES {
            for b in 0..MERGE_STATES {
                for c in (0..MERGE_STATES).step_by(5) {
                    for h in (0..MERGE_STATES).step_by(7) {
                        let low = KNIT_MERGE[a][b];
                        let high = KNIT_MERGE[c][h];
                        let merged = KNIT_MERGE[merge_index(low)][merge_index(high)] / 12;
                        let k = [knit(a), knit(b), knit(c), knit(h)];
                        assert_eq!(merged, knit_set_and_pair(&k), "{a} {b} {c} {h}");
                        assert_eq!(merge_code(knit(h)), h);
                    }
                }
            }
        }
    }

    #[test]
    fn merging_codes_is_commutative_and_associative() {
        for a in 0..MERGE_STATES {
            for b in 0..MERGE_STATES {
                let ab = merge_index(KNIT_MERGE[a][b]);
                assert_eq!(KNIT_MERGE[a][b], KNIT_MERGE[b][a], "{a} {b}");
                assert!((KNIT_MERGE[a][b] as usize) < MERGE_STATES, "{a} {b}");
                for c in 0..MERGE_STATES {
                    let bc = merge_index(KNIT_MERGE[b][c]);
                    assert_eq!(KNIT_MERGE[ab][c], KNIT_MERGE[a][bc], "{a} {b} {c}");
                }
            }
        }
    }

    #[test]
    fn one_meld_distances_are_the_analysis() {
        use crate::hand::{Meld, MeldKind};
        let mut s = 17u64;
        let mut next = |m: u64| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 33) % m
        };
        for _ in 0..20_000 {
            let kind = [MeldKind::Chow, MeldKind::Pung, MeldKind::Kong][next(3) as usize];
            let tile = if kind == MeldKind::Chow {
                (next(3) * 9 + next(7)) as u8
            } else {
                next(34) as u8
            };
            let used = crate::shanten::used_counts(&[Meld { kind, tile }]);
            let mut hand = [0u8; 34];
            let mut n = 0;
            while n < 10 + next(2) as usize {
                let t = next(34) as usize;
                if hand[t] + used[t] < 4 {
                    hand[t] += 1;
                    n += 1;
                }
            }
            let held = presence(&hand);
            let missing = MASKS.map(|k| 9 - (held & k).count_ones() as u8);
            for bound in [3, 6, u8::MAX] {
                let a = analyse(&hand, &used, 1, false, held, bound);
                let best = (0..6)
                    .map(|p| a.base[p].saturating_add(a.rest[p]))
                    .min()
                    .unwrap_or(INF);
                let want = (best < bound).then_some(best.min(INF));
                let want = want.filter(|_| missing.iter().any(|&m| m < bound));
                assert_eq!(
                    distance_below(&hand, &used, 1, 0, bound),
                    want,
                    "{hand:?} {kind:?} {tile}"
                );
            }
        }
    }

    fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn mask(s: &str) -> u64 {
        tile::parse(s).unwrap().iter().fold(0, |m, &t| m | 1 << t)
    }

    #[test]
    fn distances() {
        let z = [0u8; 34];
        assert_eq!(distance(&counts("147m258p369s23m12z"), &z, 0, 0), Some(2));
        assert_eq!(distance(&counts("147m258p369s234m11z"), &z, 0, 0), Some(0));
        assert_eq!(distance(&counts("147m258p369s2z"), &z, 1, 0), Some(1));
        assert_eq!(distance(&counts("147m258p369s2z"), &z, 2, 0), None);
        assert_eq!(distance(&counts("47m258p369s22z"), &z, 1, 0), Some(1));
        // A melded kong of 1m leaves no 1m for the 147m straight.
        let mut used = [0u8; 34];
        used[0] = 4;
        assert_eq!(distance(&counts("47m258p369s22z"), &used, 1, 0), Some(6));
        assert_eq!(
            distance_below(&counts("147m258p369s23m12z"), &z, 0, 0, 2),
            None
        );
    }

    #[test]
    fn improving_tiles() {
        let z = [0u8; 34];
        let all = u64::MAX >> 30;
        assert_eq!(
            improving(&counts("147m258p369s23m12z"), &z, 0, 0, all),
            mask("14m12z")
        );
        assert_eq!(
            improving(&counts("47m258p369s22z"), &z, 1, 0, all),
            mask("1m")
        );
        assert_eq!(
            improving(&counts("147m258p369s2z"), &z, 1, 0, all),
            mask("2z")
        );
    }

    #[test]
    fn beside_one_meld_a_draw_helps_when_it_lowers_the_pair() {
        // The definition: the rest beside the straight after the draw, kind by kind.
        let mut rng = crate::wall::Rng::new(0x4B17);
        let mut found = 0;
        for round in 0..4000 {
            let knit = MASKS[round % 6];
            let mut hand = [0u8; 34];
            let mut used = [0u8; 34];
            let mut k = 0;
            while k < 10 {
                let t = if rng.below(3) > 0 {
                    let mut bits = knit;
                    for _ in 0..rng.below(9) {
                        bits &= bits - 1;
                    }
                    bits.trailing_zeros() as usize
                } else {
                    rng.below(34) as usize
                };
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            if round % 2 == 1 {
                let t = rng.below(34) as usize;
                used[t] = (4 - hand[t]).min(3);
            }
            let wilds = (round % 5 == 4) as u8;
            let a = analyse(&hand, &used, 1, wilds > 0, presence(&hand), u8::MAX);
            let d = (0..6)
                .map(|p| a.base[p].saturating_add(a.rest[p]))
                .min()
                .unwrap();
            let mut want = 0u64;
            if d > 0 && d < INF {
                for p in 0..6 {
                    if a.base[p].saturating_add(a.rest[p]) != d {
                        continue;
                    }
                    want |= MASKS[p] & !presence(&hand);
                    if a.rest[p] == 0 {
                        continue;
                    }
                    for t in 0..34 {
                        if want >> t & 1 == 0
                            && pair_only(&hand, &used, wilds > 0, p, Some(t)) < a.rest[p]
                        {
                            want |= 1 << t;
                        }
                    }
                }
            }
            let full = distance(&hand, &used, 1, wilds);
            for bound in 0..10 {
                let below = distance_below(&hand, &used, 1, wilds, bound);
                assert_eq!(below, full.filter(|&d| d < bound), "{hand:?} {bound}");
            }
            let got = improving(&hand, &used, 1, wilds, u64::MAX >> 30);
            assert_eq!(got, want & (u64::MAX >> 30), "{hand:?} {used:?}");
            found += usize::from(got & !knit != 0);
        }
        assert!(found > 100, "{found} hands helped by a pair draw");
    }

    #[test]
    fn beside_one_meld_the_bit_sets_agree_with_the_pair_rule() {
        // Random 11-tile hands beside one meld: the distance read from bit sets equals the
        // straight's missing tiles plus the pair's, counted kind by kind.
        let z = [0u8; 34];
        let mut rng = crate::wall::Rng::new(0x51ED_2701);
        for _ in 0..3000 {
            let mut h = [0u8; 34];
            let mut n = 0;
            while n < 11 {
                // Mostly suited tiles, so that many hands come near a straight.
                let t = rng.below(if n % 4 == 0 { 34 } else { 27 }) as usize;
                if h[t] < 4 {
                    h[t] += 1;
                    n += 1;
                }
            }
            let held = presence(&h);
            let expect = (0..6)
                .map(|p| {
                    let missing = 9 - (held & MASKS[p]).count_ones() as u8;
                    missing + pair_only(&h, &z, false, p, None)
                })
                .min()
                .unwrap();
            for bound in [3, 5, u8::MAX] {
                let want = (expect < bound).then_some(expect.min(INF));
                assert_eq!(
                    distance_below(&h, &z, 1, 0, bound),
                    want,
                    "{h:?} below {bound}"
                );
            }
        }
    }

    #[test]
    fn brute_force_agrees() {
        // Compare the improving set with distance() after each draw.
        let z = [0u8; 34];
        for s in [
            "147m258p369s23m12z",
            "14m25p369s1133z55m",
            "1479m258p36s12345z",
            "147m2588p369s1z",
        ] {
            let h = counts(s);
            let d = distance(&h, &z, 0, 0).unwrap();
            let mut expect = 0u64;
            for t in 0..34 {
                if h[t] < 4 {
                    let mut h2 = h;
                    h2[t] += 1;
                    if distance(&h2, &z, 0, 0).unwrap() < d {
                        expect |= 1 << t;
                    }
                }
            }
            assert_eq!(improving(&h, &z, 0, 0, u64::MAX >> 30), expect, "{s}");
        }
    }
}
