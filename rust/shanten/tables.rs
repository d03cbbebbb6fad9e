//! Replacement-number tables for one suit (9 kinds, chows allowed) and for the honors
//! (7 kinds, no chows).
//!
//! # What a table holds
//!
//! For a group of kinds and a count vector `v` of the hand's tiles in that group, the entry
//! for `v` holds ten numbers, one per target `(m, p)` with `m` = 0..=4 sets and `p` = 0 or 1
//! pair: the *replacement number*
//!
//! ```text
//! d(v; m, p) = min over configurations c of |c - v|+ ,   |x|+ = Σ_i max(x_i, 0)
//! ```
//!
//! where `c` ranges over the count vectors of `m` sets (chows and pungs) plus `p` pairs inside
//! the group, i.e. the number of tiles that must be added to `v` so that it contains such a
//! configuration. Summing these over the four groups (splitting the sets and the pair between
//! them) gives the number of tiles a hand is missing from the nearest complete hand; its
//! shanten is that number minus one.
//!
//! Two kinds of table exist:
//! * **limited** (`c_i <= 4` for every kind): the configuration must be buildable from real
//!   tiles, so a block that would need a fifth copy is never counted. This makes the result
//!   exact with respect to the four-copy limit when no copies of the group are in melds (the
//!   caller switches to [`super::dp`] when some are).
//! * **unlimited** (wild tiles): `c_i` may exceed 4, since a wild may stand for a fifth copy.
//!
//! # How the tables are generated ([`generate`])
//!
//! Entries are computed for the whole domain of vectors with digits 0..=4 (5^9 for a suit)
//! by two sweeps over a lattice, with all ten targets side by side in one 16-byte lane array:
//!
//! 1. **Seeds.** Every configuration (multisets of up to four sets plus at most one pair) is
//!    enumerated. A configuration `c` with digits above 4 (only in the unlimited table) is
//!    clipped to `w = min(c, 4)` and carries the cost `e = |c - 4|+` that no real tile can
//!    pay, since `|c - v|+ = |w - v|+ + e` for every `v <= 4`. `g(w) = min e`.
//! 2. **Up sweep** (increasing index, so `v - e_i` is done before `v`):
//!    `g(v) = min(g(v), g(v - e_i))`: the cheapest configuration already contained in `v`.
//! 3. **Down sweep** (decreasing index): `f(v) = min(g(v), 1 + min_i f(v + e_i))` over kinds
//!    with `v_i < 4`. If the best configuration is not contained in `v`, one of its missing
//!    tiles `i` lowers the distance by one, and adding any tile never lowers it by more, so
//!    this recurrence is exact.
//!
//! The finished entries are kept only for vectors with at most 14 tiles (a concealed hand
//! never has more), stored densely by their lexicographic rank ([`Ranker`]): 405,350 entries
//! for a suit and 43,130 for the honors. Generation runs once, lazily, on first use.

use std::sync::OnceLock;

/// Lanes per entry: targets `(m, p)` at lane `2 * m + p`.
pub const LANES: usize = 10;
/// An entry: the replacement number of each target.
pub type Entry = [u8; LANES];
/// Larger than any real replacement number; sums of a few stay far below 255.
pub const INF: u8 = 60;
/// The most tiles a group can hold in a hand.
const MAX_SUM: usize = 14;

/// Dense ranking of digit vectors (digits 0..=4, sum <= 14) of a fixed length.
pub struct Ranker {
    len: usize,
    /// `step[(i << 7) | (prefix << 3) | d]`: how many vectors with the same first `i`
    /// digits (summing to `prefix`) have digit `i` below `d`. Flat and padded to powers of
    /// two so that indexing needs no bounds checks.
    step: Box<[u32; 9 << 7]>,
    /// The first `len - 4` digits' share of the rank, by their base-5 code.
    head: Box<[u32]>,
    /// The last four digits' share, by `[sum of the first digits (0-15)][their code]`.
    tail: Box<[u32]>,
    size: usize,
}

/// Digits in the tail part of a [`Ranker`].
const TAIL: usize = 4;

impl Ranker {
    fn new(len: usize) -> Self {
        // count[n][s]: vectors of n digits 0..=4 with sum <= s.
        let mut count = [[0u64; MAX_SUM + 1]; 10];
        count[0] = [1; MAX_SUM + 1];
        for n in 1..=len {
            for s in 0..=MAX_SUM {
                count[n][s] = (0..=4.min(s)).map(|d| count[n - 1][s - d]).sum();
            }
        }
        let mut step = Box::new([0u32; 9 << 7]);
        for i in 0..len {
            let rest = len - i - 1;
            for prefix in 0..=MAX_SUM {
                let mut acc = 0u64;
                for d in 0..5 {
                    step[(i << 7) | (prefix << 3) | d] = acc as u32;
                    if prefix + d <= MAX_SUM {
                        acc += count[rest][MAX_SUM - prefix - d];
                    }
                }
            }
        }
        let mut r = Ranker {
            len,
            step,
            head: Box::default(),
            tail: Box::default(),
            size: count[len][MAX_SUM] as usize,
        };
        // Two lookups instead of `len` chained ones: the first digits' share depends on
        // them alone, the last four's on them and the sum before them.
        let a = len - TAIL;
        let mut head = vec![0u32; 5usize.pow(a as u32)];
        let mut tail = vec![0u32; 16 * 5usize.pow(TAIL as u32)];
        let mut digits = [0u8; 9];
        for (code, h) in head.iter_mut().enumerate() {
            let mut c = code;
            for d in digits[..a].iter_mut() {
                *d = (c % 5) as u8;
                c /= 5;
            }
            *h = r.partial(&digits[..a], 0, 0);
        }
        for prefix in 0..=MAX_SUM {
            for code in 0..5usize.pow(TAIL as u32) {
                let mut c = code;
                for d in digits[a..len].iter_mut() {
                    *d = (c % 5) as u8;
                    c /= 5;
                }
                tail[prefix * 5usize.pow(TAIL as u32) + code] =
                    r.partial(&digits[a..len], a, prefix);
            }
        }
        r.head = head.into_boxed_slice();
        r.tail = tail.into_boxed_slice();
        r
    }

    /// The share of the rank of digits `v` placed from position `first` on, after digits
    /// summing to `prefix` (the chained definition of the rank).
    fn partial(&self, v: &[u8], first: usize, prefix: usize) -> u32 {
        let mut r = 0u32;
        let mut prefix = prefix;
        for (i, &d) in v.iter().enumerate() {
            let d = d as usize;
            if prefix > MAX_SUM {
                break;
            }
            r += self.step[((first + i) << 7) | (prefix << 3) | d];
            prefix += d;
        }
        r
    }

    /// Number of ranked vectors.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Rank of `v` (length `len`, digits <= 4, sum <= 14).
    #[inline(always)]
    pub fn rank(&self, v: &[u8]) -> usize {
        debug_assert_eq!(v.len(), self.len);
        let a = self.len - TAIL;
        let (mut head, mut sum) = (0usize, 0usize);
        for &d in v[..a].iter().rev() {
            let d = d.min(4) as usize;
            head = head * 5 + d;
            sum += d;
        }
        let mut tail = 0usize;
        for &d in v[a..].iter().rev() {
            tail = tail * 5 + d.min(4) as usize;
        }
        self.rank_of_codes(head, sum, tail)
    }

    /// The rank from its two parts: the base-5 code of the first `len - 4` digits (digit
    /// `i` weighted `5^i`), their sum, and the base-5 code of the last four digits.
    #[inline(always)]
    pub fn rank_of_codes(&self, head: usize, sum: usize, tail: usize) -> usize {
        let h = self.head.get(head).copied().unwrap_or(0);
        let t = self
            .tail
            .get(sum.min(15) * 625 + tail)
            .copied()
            .unwrap_or(0);
        (h + t) as usize
    }

    /// [`Ranker::rank`] by the chained definition (for checking the two-lookup form).
    pub fn rank_chained(&self, v: &[u8]) -> usize {
        self.partial(v, 0, 0) as usize
    }
}

/// One group's table: entries by rank, and for the limited tables the masks of improving
/// kinds and (suits only) the knitted-straight remainders.
pub struct Table {
    ranker: Ranker,
    cells: Box<[Cell]>,
    /// True when the cells carry improving masks (limited tables).
    has_masks: bool,
    /// True when the cells carry knitted-straight remainders (limited suit table).
    has_knit: bool,
}

/// One table cell: 32 bytes, aligned so that it never straddles a cache line and one
/// access brings everything a shanten or a useful-tile query needs.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(32))]
struct Cell {
    lanes: Entry,
    /// `knit[r]`: the remainder once one copy of each held kind of residue class `r`
    /// (147 / 258 / 369) is taken out, as a [`Knit`] code (limited suit table only).
    knit: [u8; 3],
    /// The improving masks of the ten lanes, 9 bits each (bit `9 l + j`: one more tile of
    /// the group's kind `j` lowers lane `l`), limited tables only.
    masks: [u64; 2],
}

/// Packs ten 9-bit lane masks.
fn pack_masks(m: &[u16; LANES]) -> [u64; 2] {
    let mut x = 0u128;
    for (l, &bits) in m.iter().enumerate() {
        x |= ((bits & 0x1FF) as u128) << (9 * l);
    }
    [x as u64, (x >> 64) as u64]
}

/// Unpacks [`pack_masks`].
#[inline(always)]
fn unpack_masks(p: &[u64; 2]) -> [u16; LANES] {
    let x = p[0] as u128 | (p[1] as u128) << 64;
    std::array::from_fn(|l| ((x >> (9 * l)) & 0x1FF) as u16)
}

/// The pair, set and set-plus-pair distances of a group, packed in one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knit {
    /// Lane (0 sets, pair).
    pub pair: u8,
    /// Lane (1 set, no pair).
    pub set: u8,
    /// Lane (1 set, pair).
    pub both: u8,
}

impl Knit {
    /// From an entry's lanes 1, 2 and 3.
    #[inline(always)]
    pub fn of(e: &Entry) -> Knit {
        Knit {
            pair: e[1],
            set: e[2],
            both: e[3],
        }
    }
    fn encode(self) -> u8 {
        self.pair + 3 * self.set + 12 * self.both
    }
    /// Decodes what `Knit::encode` packed.
    #[inline(always)]
    pub fn decode(code: u8) -> Knit {
        Knit {
            pair: code % 3,
            set: code / 3 % 4,
            both: code / 12,
        }
    }
}

impl Table {
    /// The ranker of the table's count vectors.
    #[inline(always)]
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// The rank for [`Ranker::rank_of_codes`] parts, clamped like [`Table::rank`].
    #[inline(always)]
    pub fn rank_of_codes(&self, head: usize, sum: usize, tail: usize) -> usize {
        self.ranker
            .rank_of_codes(head, sum, tail)
            .min(self.cells.len() - 1)
    }

    /// The rank of count vector `v` (at most 14 tiles).
    #[inline(always)]
    pub fn rank(&self, v: &[u8]) -> usize {
        self.ranker.rank(v).min(self.cells.len() - 1)
    }

    /// The entry of count vector `v`.
    #[inline(always)]
    pub fn get(&self, v: &[u8]) -> &Entry {
        // A valid hand never has more than 14 tiles in a group; `rank` clamps rather than
        // read out of bounds if a caller breaks that contract.
        &self.cells[self.rank(v)].lanes
    }

    /// The entry at a rank.
    #[inline(always)]
    pub fn at(&self, rank: usize) -> &Entry {
        &self.cells[rank].lanes
    }

    /// The improving masks at a rank packed 9 bits per lane (lane `l` at bits `9 l ..`), as
    /// [`Table::masks_at`] without unpacking (limited tables).
    #[inline(always)]
    pub fn packed_masks_at(&self, rank: usize) -> Option<u128> {
        if self.has_masks {
            self.cells
                .get(rank)
                .map(|c| c.masks[0] as u128 | (c.masks[1] as u128) << 64)
        } else {
            None
        }
    }

    /// The improving masks at a rank (limited tables): bit `j` of lane `l` is set when
    /// one more tile of the group's kind `j` lowers that lane.
    #[inline(always)]
    pub fn masks_at(&self, rank: usize) -> Option<[u16; LANES]> {
        if self.has_masks {
            self.cells.get(rank).map(|c| unpack_masks(&c.masks))
        } else {
            None
        }
    }

    /// The knitted-straight remainders at a rank (limited suit table).
    #[inline(always)]
    pub fn knit_at(&self, rank: usize) -> Option<&[u8; 3]> {
        if self.has_knit {
            self.cells.get(rank).map(|c| &c.knit)
        } else {
            None
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True if the table has no entries (never, for a generated table).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// Steps `digits` (little-endian base 5) to the next vector; false after the last one.
fn odometer(digits: &mut [u8]) -> bool {
    for d in digits.iter_mut() {
        if *d < 4 {
            *d += 1;
            return true;
        }
        *d = 0;
    }
    false
}

/// `f(counts, rank, tiles)` for every group of `n` kinds of the table `t` with at most
/// [`MAX_SUM`] tiles, given its rank and its number of tiles: the work is split over the first two digits and runs on
/// all cores. `f` may change the counts while it runs but must leave them as it found them.
fn each_group_par<T: Send>(
    t: &Table,
    n: usize,
    f: impl Fn(&mut [u8], usize, usize) -> T + Sync,
) -> Vec<(usize, T)> {
    use rayon::prelude::*;
    let parts: Vec<Vec<(usize, T)>> = (0..25usize)
        .into_par_iter()
        .map(|prefix| {
            let mut out = Vec::new();
            let mut digits = [0u8; 9];
            digits[0] = (prefix % 5) as u8;
            digits[1] = (prefix / 5) as u8;
            loop {
                let v = &mut digits[..n];
                let sum: usize = v.iter().map(|&d| d as usize).sum();
                if sum <= MAX_SUM {
                    let r = t.ranker.rank(v);
                    let x = f(v, r, sum);
                    out.push((r, x));
                }
                if !odometer(&mut digits[2..n]) {
                    break;
                }
            }
            out
        })
        .collect();
    parts.into_iter().flatten().collect()
}

/// Fills the improving masks and (for suits) the knitted remainders of a limited table,
/// on all cores ([`each_group_par`]).
fn add_extras(t: &mut Table, n: usize, chows: bool) {
    let table = &*t;
    let extras = each_group_par(table, n, |v, r, sum| {
        let e = table.cells[r].lanes;
        let mut masks = [0u16; LANES];
        if sum < MAX_SUM {
            for j in 0..n {
                if v[j] < 4 {
                    v[j] += 1;
                    let f = table.cells[table.ranker.rank(v)].lanes;
                    v[j] -= 1;
                    for l in 0..LANES {
                        if f[l] < e[l] {
                            masks[l] |= 1 << j;
                        }
                    }
                }
            }
        }
        let mut knit = [0u8; 3];
        if chows {
            for (class, code) in knit.iter_mut().enumerate() {
                let mut rest = [0u8; 9];
                rest[..n].copy_from_slice(v);
                for k in (class..9).step_by(3) {
                    rest[k] = rest[k].saturating_sub(1);
                }
                *code = Knit::of(&table.cells[table.ranker.rank(&rest[..n])].lanes).encode();
            }
        }
        (masks, knit)
    });
    for (r, (m, k)) in extras {
        t.cells[r].masks = pack_masks(&m);
        t.cells[r].knit = k;
    }
    t.has_masks = true;
    t.has_knit = chows;
}

/// Generates the table of a group of `n` kinds (9 with chows for a suit, 7 without for
/// the honors); `limited` forbids configurations with a fifth copy of a kind. The method
/// is described in the module documentation.
pub fn generate(n: usize, chows: bool, limited: bool) -> Table {
    let pow: Vec<usize> = (0..=n).map(|i| 5usize.pow(i as u32)).collect();
    let full = pow[n];
    let mut f: Vec<[u8; 16]> = vec![[INF; 16]; full];

    // 1. Seeds: every multiset of up to four sets, with or without a pair.
    let mut sets: Vec<[u8; 9]> = Vec::new();
    for k in 0..n {
        let mut s = [0u8; 9];
        s[k] = 3;
        sets.push(s);
    }
    if chows {
        for k in 0..n.saturating_sub(2) {
            let mut s = [0u8; 9];
            s[k] = 1;
            s[k + 1] = 1;
            s[k + 2] = 1;
            sets.push(s);
        }
    }
    let mut stack: Vec<(usize, usize, [u8; 9])> = vec![(0, 0, [0u8; 9])];
    while let Some((m, first, c)) = stack.pop() {
        for pair in 0..=n {
            let mut cc = c;
            if pair < n {
                cc[pair] += 2;
            }
            let p = usize::from(pair < n);
            let mut excess = 0u8;
            let mut idx = 0usize;
            for i in 0..n {
                let over = cc[i].saturating_sub(4);
                excess += over;
                idx += (cc[i] - over) as usize * pow[i];
            }
            if limited && excess > 0 {
                continue;
            }
            let lane = 2 * m + p;
            f[idx][lane] = f[idx][lane].min(excess);
        }
        if m < 4 {
            for (j, s) in sets.iter().enumerate().skip(first) {
                let mut c2 = c;
                for i in 0..n {
                    c2[i] += s[i];
                }
                stack.push((m + 1, j, c2));
            }
        }
    }

    // 2. Up sweep: the cheapest configuration contained in v.
    let mut digits = [0u8; 9];
    for idx in 0..full {
        if idx > 0 {
            // Odometer increment of the base-5 digits.
            let mut i = 0;
            while digits[i] == 4 {
                digits[i] = 0;
                i += 1;
            }
            digits[i] += 1;
        }
        let mut acc = f[idx];
        for i in 0..n {
            if digits[i] > 0 {
                let other = &f[idx - pow[i]];
                for l in 0..16 {
                    acc[l] = acc[l].min(other[l]);
                }
            }
        }
        f[idx] = acc;
    }

    // 3. Down sweep: one more tile lowers the distance by at most one.
    let mut digits = [4u8; 9];
    for idx in (0..full).rev() {
        if idx + 1 < full {
            let mut i = 0;
            while digits[i] == 0 {
                digits[i] = 4;
                i += 1;
            }
            digits[i] -= 1;
        }
        let mut acc = f[idx];
        for i in 0..n {
            if digits[i] < 4 {
                let other = &f[idx + pow[i]];
                for l in 0..16 {
                    acc[l] = acc[l].min(other[l].saturating_add(1));
                }
            }
        }
        f[idx] = acc;
    }

    // Keep vectors with at most 14 tiles, by rank.
    let ranker = Ranker::new(n);
    let mut cells = vec![
        Cell {
            lanes: [INF; LANES],
            knit: [0; 3],
            masks: [0; 2]
        };
        ranker.size()
    ]
    .into_boxed_slice();
    let mut digits = [0u8; 9];
    for (idx, cell) in f.iter().enumerate() {
        if idx > 0 {
            let mut i = 0;
            while digits[i] == 4 {
                digits[i] = 0;
                i += 1;
            }
            digits[i] += 1;
        }
        let sum: usize = digits[..n].iter().map(|&d| d as usize).sum();
        if sum <= MAX_SUM {
            let mut e = [0u8; LANES];
            e.copy_from_slice(&cell[..LANES]);
            cells[ranker.rank(&digits[..n])].lanes = e;
        }
    }
    let mut t = Table {
        ranker,
        cells,
        has_masks: false,
        has_knit: false,
    };
    if limited {
        add_extras(&mut t, n, chows);
    }
    t
}

static SUIT: OnceLock<Table> = OnceLock::new();
static HONORS: OnceLock<Table> = OnceLock::new();
static SUIT_WILD: OnceLock<Table> = OnceLock::new();
static HONORS_WILD: OnceLock<Table> = OnceLock::new();

/// The limited suit table (generated on first use).
#[inline]
pub fn suit() -> &'static Table {
    SUIT.get_or_init(|| generate(9, true, true))
}
/// The limited honor table.
#[inline]
pub fn honors() -> &'static Table {
    HONORS.get_or_init(|| generate(7, false, true))
}
/// The unlimited suit table, for hands with wild tiles.
#[inline]
pub fn suit_wild() -> &'static Table {
    SUIT_WILD.get_or_init(|| generate(9, true, false))
}
/// The unlimited honor table, for hands with wild tiles.
#[inline]
pub fn honors_wild() -> &'static Table {
    HONORS_WILD.get_or_init(|| generate(7, false, false))
}

static SUIT_KEEP: OnceLock<Box<[u128]>> = OnceLock::new();
static HONORS_KEEP: OnceLock<Box<[u128]>> = OnceLock::new();

/// The keeping masks of the limited suit table by rank (generated on first use): bit
/// `9 l + j` is set when the group holds kind `j` and one copy of it less leaves lane `l`
/// as it is. A tile less never lowers a lane and raises it by at most one (the nearest
/// configuration of the group before lacks at most that tile more), so each held kind
/// whose bit is clear raises that lane by exactly one.
#[inline]
pub fn suit_keep() -> &'static [u128] {
    SUIT_KEEP.get_or_init(|| keep_masks(suit(), 9))
}

/// [`suit_keep`] of the limited honor table.
#[inline]
pub fn honors_keep() -> &'static [u128] {
    HONORS_KEEP.get_or_init(|| keep_masks(honors(), 7))
}

/// The keeping masks of every rank of the table `t` of groups of `n` kinds
/// ([`suit_keep`]), on all cores ([`each_group_par`]).
fn keep_masks(t: &Table, n: usize) -> Box<[u128]> {
    let masks = each_group_par(t, n, |v, r, _| {
        let e = t.cells[r].lanes;
        let mut keep = 0u128;
        for j in 0..n {
            if v[j] > 0 {
                v[j] -= 1;
                let f = t.cells[t.ranker.rank(v)].lanes;
                v[j] += 1;
                for l in 0..LANES {
                    if f[l] == e[l] {
                        keep |= 1 << (9 * l + j);
                    }
                }
            }
        }
        keep
    });
    let mut keep = vec![0u128; t.cells.len()].into_boxed_slice();
    for (r, k) in masks {
        keep[r] = k;
    }
    keep
}

/// Generates the limited tables now instead of on first use.
pub fn warm_up() {
    suit();
    honors();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranker_is_dense_and_ordered() {
        let r = Ranker::new(7);
        assert_eq!(r.size(), 43_130);
        assert_eq!(r.rank(&[0; 7]), 0);
        let s = Ranker::new(9);
        assert_eq!(s.size(), 405_350);
        let mut digits = [0u8; 9];
        let mut seen = 0;
        loop {
            if digits.iter().map(|&d| d as usize).sum::<usize>() <= 14 {
                assert_eq!(s.rank(&digits), s.rank_chained(&digits));
                assert_eq!(r.rank(&digits[..7]), r.rank_chained(&digits[..7]));
                seen += 1;
            }
            if !odometer(&mut digits) {
                break;
            }
        }
        assert_eq!(seen, 405_350);
        assert_eq!(s.rank(&[4, 4, 4, 2, 0, 0, 0, 0, 0]), s.size() - 1);
    }

    #[test]
    fn suit_entries() {
        let t = suit();
        // 123456789: three sets, no pair.
        let e = t.get(&[1; 9]);
        assert_eq!(e[6], 0);
        assert_eq!(e[7], 2); // 11 tiles from 9
        assert_eq!(e[8], 3); // e.g. 111 234 567 789
                             // Empty suit: a pung costs 3, a pair 2.
        let z = t.get(&[0; 9]);
        assert_eq!((z[0], z[1], z[2], z[3], z[9]), (0, 2, 3, 5, 14));
        // 1111: a pung and a pair of 1 would need a fifth copy.
        let k = t.get(&[4, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(k[3], 2); // 111 + pair of another kind (or 11 + 123 ...) needs two
        let w = suit_wild().get(&[4, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(w[3], 1); // a wild may be the fifth 1
    }

    /// Every group of both limited tables: a tile less raises each lane by zero or one,
    /// and the keeping masks tell which, for the held kinds only.
    #[test]
    fn a_tile_less_keeps_or_raises_each_lane_by_one_as_the_keeping_masks_say() {
        for (t, keep, n) in [(suit(), suit_keep(), 9), (honors(), honors_keep(), 7)] {
            assert_eq!(keep.len(), t.cells.len());
            let mut digits = [0u8; 9];
            let (mut kept, mut raised) = (0usize, 0usize);
            loop {
                let v = &mut digits[..n];
                if v.iter().map(|&d| d as usize).sum::<usize>() <= MAX_SUM {
                    let r = t.ranker.rank(v);
                    let e = *t.at(r);
                    for j in 0..9 {
                        let held = j < n && v[j] > 0;
                        let f = if held {
                            v[j] -= 1;
                            let f = *t.get(v);
                            v[j] += 1;
                            f
                        } else {
                            e
                        };
                        for l in 0..LANES {
                            let bit = keep[r] >> (9 * l + j) & 1 == 1;
                            if !held {
                                assert!(!bit, "{v:?} kind {j} lane {l}");
                                continue;
                            }
                            assert!(f[l] == e[l] || f[l] == e[l] + 1, "{v:?} {j} {l}");
                            assert_eq!(bit, f[l] == e[l], "{v:?} kind {j} lane {l}");
                            kept += usize::from(bit);
                            raised += usize::from(!bit);
                        }
                    }
                }
                if !odometer(&mut digits[..n]) {
                    break;
                }
            }
            assert!(kept > 100_000 && raised > 100_000, "{kept} {raised}");
        }
    }
}
