//! Decomposition search: every way to split the standing tiles into sets and one pair,
//! and the wait search used for the unique-wait fans (边张 / 嵌张 / 单钓).

use super::rtile::{self, RTable, RTile, ALL};

/// Kind of a group inside a decomposition.
pub const CHOW: u8 = 1;
/// A pung (three identical tiles).
pub const PUNG: u8 = 2;
/// A kong (four identical tiles, only as a declared meld).
pub const KONG: u8 = 3;
/// The pair.
pub const PAIR: u8 = 4;

/// One group: a set or the pair. A chow is named by its middle tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pack {
    /// [`CHOW`], [`PUNG`], [`KONG`] or [`PAIR`].
    pub kind: u8,
    /// The tile (a chow's middle tile).
    pub tile: RTile,
    /// Claimed from a discard (chow, pung, exposed kong).
    pub melded: bool,
}

impl Pack {
    /// A concealed group.
    #[inline]
    pub const fn new(kind: u8, tile: RTile) -> Self {
        Pack {
            kind,
            tile,
            melded: false,
        }
    }
    /// Order of the reference search: by lowest tile, a pung before the chow that starts
    /// on the same tile.
    #[inline]
    fn order_key(&self) -> u16 {
        let low = if self.kind == CHOW {
            self.tile - 1
        } else {
            self.tile
        };
        (low as u16) << 1 | u16::from(self.kind == CHOW)
    }
}

/// At most this many decompositions are kept (no 14 tiles have more than a handful).
pub const MAX_DIVISIONS: usize = 24;

/// A full decomposition: slots 0..n_fixed are the declared melds, then the concealed
/// sets, then the pair in slot 4.
pub type Division = [Pack; 5];

/// The decompositions of a hand, in the reference calculator's order.
#[derive(Clone)]
pub struct Divisions {
    /// Storage; the first `len` are valid.
    pub items: [Division; MAX_DIVISIONS],
    /// Number found.
    pub len: usize,
}

impl Divisions {
    /// No decompositions yet.
    pub fn new() -> Self {
        Divisions {
            items: [[Pack::default(); 5]; MAX_DIVISIONS],
            len: 0,
        }
    }
}

impl Default for Divisions {
    fn default() -> Self {
        Self::new()
    }
}

/// Splits `table` (the standing tiles, winning tile included) into `4 - fixed.len()` sets
/// plus a pair. Results are ordered as the reference calculator visits them: by the
/// sorted sequence of concealed sets, lexicographically.
pub fn divide(table: &mut RTable, fixed: &[Pack], out: &mut Divisions) {
    out.len = 0;
    let mut work = [Pack::default(); 5];
    work[..fixed.len()].copy_from_slice(fixed);
    let remaining: u32 = ALL.iter().map(|&t| table[t as usize] as u32).sum();
    recurse(
        table,
        ALL[0] as usize,
        fixed.len(),
        false,
        remaining,
        &mut work,
        out,
    );
    let n_fixed = fixed.len();
    // Sort concealed sets inside each division, then the divisions.
    for d in out.items[..out.len].iter_mut() {
        d[n_fixed..4].sort_unstable_by_key(|p| p.order_key());
    }
    out.items[..out.len].sort_by(|a, b| {
        let ka = a[n_fixed..4].iter().map(|p| p.order_key());
        let kb = b[n_fixed..4].iter().map(|p| p.order_key());
        ka.cmp(kb)
    });
    // The pair may be taken before or after a set of the same tiles: drop repeats.
    let mut kept = 0;
    for i in 0..out.len {
        if kept == 0 || out.items[kept - 1] != out.items[i] {
            out.items[kept] = out.items[i];
            kept += 1;
        }
    }
    out.len = kept;
}

/// The bytes of a table's word `i` (positions `8i` to `8i + 7`) that are tiles.
const TILE_BYTES: [u64; 10] = {
    let mut m = [0u64; 10];
    let mut k = 0;
    while k < ALL.len() {
        let x = ALL[k] as usize;
        m[x / 8] |= 0xFF << (8 * (x % 8));
        k += 1;
    }
    m
};

/// The first tile at or after the position `from` that `table` holds: eight positions a
/// word, the tiles' bytes only.
#[inline(always)]
fn next_held(table: &RTable, from: usize) -> Option<usize> {
    let mut i = from / 8;
    let mut mask = TILE_BYTES[i] & (!0u64 << (8 * (from % 8)));
    loop {
        let mut b = [0u8; 8];
        b.copy_from_slice(&table[8 * i..8 * i + 8]);
        let x = u64::from_le_bytes(b) & mask;
        if x != 0 {
            return Some(8 * i + (x.trailing_zeros() / 8) as usize);
        }
        i += 1;
        if i == TILE_BYTES.len() {
            return None;
        }
        mask = TILE_BYTES[i];
    }
}

/// Lowest-tile-first search from the tile position `from`: the lowest remaining tile is
/// in the pair, a pung or the chow it starts.
fn recurse(
    table: &mut RTable,
    from: usize,
    idx: usize,
    have_pair: bool,
    remaining: u32,
    work: &mut Division,
    out: &mut Divisions,
) {
    if remaining == 0 {
        if idx == 4 && have_pair && out.len < MAX_DIVISIONS {
            out.items[out.len] = *work;
            out.len += 1;
        }
        return;
    }
    let Some(ti) = next_held(table, from) else {
        return;
    };
    let t = ti as RTile;
    if !have_pair && table[ti] >= 2 {
        table[ti] -= 2;
        work[4] = Pack::new(PAIR, t);
        recurse(table, ti, idx, true, remaining - 2, work, out);
        table[ti] += 2;
    }
    if idx < 4 {
        if table[ti] >= 3 {
            table[ti] -= 3;
            work[idx] = Pack::new(PUNG, t);
            recurse(table, ti, idx + 1, have_pair, remaining - 3, work, out);
            table[ti] += 3;
        }
        if rtile::is_suited(t) && rtile::rank(t) <= 7 && table[ti + 1] > 0 && table[ti + 2] > 0 {
            table[ti] -= 1;
            table[ti + 1] -= 1;
            table[ti + 2] -= 1;
            work[idx] = Pack::new(CHOW, t + 1);
            recurse(table, ti, idx + 1, have_pair, remaining - 3, work, out);
            table[ti] += 1;
            table[ti + 1] += 1;
            table[ti + 2] += 1;
        }
    }
}

/// True if the tiles of `table` (3k + 2 of them) form k sets and a pair.
///
/// Suit by suit: one suit must split into sets and the pair, every other one into sets.
pub fn is_complete(table: &RTable) -> bool {
    let mut pairs = 0;
    for s in 1..=4u8 {
        let shape = SuitShape::of(&suit_counts(table, s), s == 4);
        if shape.with_pair {
            pairs += 1;
        } else if !shape.sets_only {
            return false;
        }
    }
    pairs == 1
}

/// The counts of suit `s` (1-4) of `table`, rank r at index r - 1.
#[inline]
fn suit_counts(table: &RTable, s: u8) -> [u8; 9] {
    let base = (s << 4 | 1) as usize;
    let mut c = [0u8; 9];
    c.copy_from_slice(&table[base..base + 9]);
    c
}

/// Whether one suit's counts (rank r at index r - 1) split into pungs and (unless
/// `honors`) chows. Greedy from the lowest rank: what the chows begun below leave of a
/// rank makes a pung when three or more, and the rest begins as many chows.
#[inline]
fn splits_into_sets(c: &[u8; 9], honors: bool) -> bool {
    // Chows begun one and two ranks below, which still need this rank.
    let (mut one, mut two) = (0u8, 0u8);
    for (i, &n) in c.iter().enumerate() {
        let need = one + two;
        if n < need {
            return false;
        }
        // What is left of the rank (at most 5), mod 3.
        let begin = [0, 1, 2, 0, 1, 2, 0, 1][(n - need) as usize & 7];
        if begin != 0 && (honors || i >= 7) {
            return false;
        }
        two = one;
        one = begin;
    }
    true
}

/// The seven-pairs wait of 13 concealed tiles, read as the reference calculator does:
/// six pairs (a triple counts as one, four of a kind as two) and the first tile held once
/// or three times.
pub fn seven_pairs_wait(table: &RTable) -> Option<RTile> {
    let mut pairs = 0;
    for &t in ALL.iter() {
        match table[t as usize] {
            2 | 3 => pairs += 1,
            4 => pairs += 2,
            _ => {}
        }
    }
    if pairs != 6 {
        return None;
    }
    ALL.iter()
        .copied()
        .find(|&t| matches!(table[t as usize], 1 | 3))
}

/// True if the hand in `table` (standing tiles without the winning tile, 3k + 1 of them)
/// is completed by `win` and by no other tile kind: [`completing_tiles`] is `win` alone.
/// `win` must complete the hand.
pub fn is_unique_wait(
    table: &RTable,
    win: RTile,
    seven_pairs: bool,
    dead: Option<&RTable>,
) -> bool {
    wait_witness(table, win, seven_pairs, dead) == 1u128 << win
}

/// The tile kinds (bit = [`RTile`]) that complete the hand in `table` (standing tiles
/// without the winning tile, 3k + 1 of them) into sets and a pair. `seven_pairs` adds the
/// seven-pairs wait as the reference reads it ([`seven_pairs_wait`]; 13 tiles, no melds).
/// `dead` lists kinds whose four copies the player already holds; they are left out
/// (`None` = keep them, as the reference does).
pub fn completing_tiles(table: &RTable, seven_pairs: bool, dead: Option<&RTable>) -> u128 {
    completing(table, seven_pairs, dead, None)
}

/// `win`, a tile kind completing the hand in `table` (as [`completing_tiles`] reads it),
/// with the first other completing kind found, if any: `1 << win` exactly when `win` is
/// the only one, else two kinds of [`completing_tiles`], which then tell that no tile
/// is the only one.
pub fn wait_witness(table: &RTable, win: RTile, seven_pairs: bool, dead: Option<&RTable>) -> u128 {
    completing(table, seven_pairs, dead, Some(win)) | 1u128 << win
}

/// [`completing_tiles`], stopping at the first kind other than `beside` when given.
fn completing(
    table: &RTable,
    seven_pairs: bool,
    dead: Option<&RTable>,
    beside: Option<RTile>,
) -> u128 {
    let is_dead = |t: RTile| dead.is_some_and(|d| d[t as usize] >= 4);
    let others = !beside.map_or(0, |w| 1u128 << w);
    let mut set = 0u128;
    if seven_pairs {
        if let Some(w) = seven_pairs_wait(table) {
            if !is_dead(w) {
                set |= 1u128 << w;
            }
        }
    }
    if beside.is_some() && set & others != 0 {
        return set;
    }
    // Per suit: can it be split into sets only, or into sets and the pair?
    let mut counts = [[0u8; 9]; 5];
    let mut shape = [SuitShape::default(); 5];
    for s in 1..=4u8 {
        counts[s as usize] = suit_counts(table, s);
        shape[s as usize] = SuitShape::of(&counts[s as usize], s == 4);
    }
    // The completing tile's suit must take the pair if every other suit splits into sets,
    // or split into sets itself if exactly one other suit holds the pair.
    let mut needs_pair = [None; 5];
    for (s, need) in needs_pair.iter_mut().enumerate().skip(1) {
        let (mut pairs, mut bad) = (0, 0);
        for (o, sh) in shape.iter().enumerate().skip(1) {
            if o == s || sh.sets_only {
                continue;
            }
            if sh.with_pair {
                pairs += 1;
            } else {
                bad += 1;
            }
        }
        if bad == 0 && pairs <= 1 {
            *need = Some(pairs == 0);
        }
    }
    for s in 1..=4u8 {
        let Some(need_pair) = needs_pair[s as usize] else {
            continue;
        };
        let c = &counts[s as usize];
        let weighted: u32 = (1..=9).map(|r| r as u32 * c[r - 1] as u32).sum();
        let top = if s == 4 { 7 } else { 9 };
        for r in 1..=top {
            let x = s << 4 | r as u8;
            // Sets alone keep a suit's rank sum at 0 mod 3.
            if !need_pair && (weighted + r as u32) % 3 != 0 {
                continue;
            }
            if is_dead(x) || !could_complete(table, x) {
                continue;
            }
            let mut with = *c;
            with[r - 1] += 1;
            let mine = SuitShape::of(&with, s == 4);
            if (need_pair && mine.with_pair) || (!need_pair && mine.sets_only) {
                set |= 1u128 << x;
                if beside.is_some() && set & others != 0 {
                    return set;
                }
            }
        }
    }
    set
}

/// How one suit of a hand can be split.
#[derive(Debug, Clone, Copy, Default)]
struct SuitShape {
    /// Into sets only (an empty suit too).
    sets_only: bool,
    /// Into sets and one pair.
    with_pair: bool,
}

impl SuitShape {
    /// The shape of one suit's counts (rank r at index r - 1).
    #[inline(never)]
    fn of(c: &[u8; 9], honors: bool) -> Self {
        let n: u32 = c.iter().map(|&x| x as u32).sum();
        if n == 0 {
            return SuitShape {
                sets_only: true,
                with_pair: false,
            };
        }
        match n % 3 {
            0 => SuitShape {
                sets_only: splits_into_sets(c, honors),
                with_pair: false,
            },
            2 => {
                // Sets keep the rank sum at 0 mod 3, so the pair's rank r has 2r = sum.
                let weighted: u32 = (1..=9).map(|r| r as u32 * c[r - 1] as u32).sum();
                let first = match (2 * weighted) % 3 {
                    0 => 3,
                    k => k as usize,
                };
                let mut c = *c;
                let mut with_pair = false;
                for r in (first..=9).step_by(3) {
                    if c[r - 1] >= 2 {
                        c[r - 1] -= 2;
                        with_pair = splits_into_sets(&c, honors);
                        c[r - 1] += 2;
                        if with_pair {
                            break;
                        }
                    }
                }
                SuitShape {
                    sets_only: false,
                    with_pair,
                }
            }
            _ => SuitShape::default(),
        }
    }
}

/// A tile can only complete the hand if it pairs or joins a run with a held tile.
#[inline]
fn could_complete(table: &RTable, x: RTile) -> bool {
    let xi = x as usize;
    if table[xi] > 0 {
        return true;
    }
    if !rtile::is_suited(x) {
        return false;
    }
    let r = rtile::rank(x);
    (r >= 2 && table[xi - 1] > 0)
        || (r >= 3 && table[xi - 2] > 0)
        || (r <= 8 && table[xi + 1] > 0)
        || (r <= 7 && table[xi + 2] > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn table(s: &str) -> RTable {
        let mut t = [0u8; 0x50];
        for c in tile::parse(s).unwrap() {
            t[rtile::from_code(c) as usize] += 1;
        }
        t
    }

    #[test]
    fn divisions_of_three_shifted_triplets() {
        let mut t = table("222333444m55p678s");
        let mut d = Divisions::new();
        divide(&mut t, &[], &mut d);
        assert_eq!(d.len, 2);
        assert_eq!(d.items[0][0].kind, PUNG); // 222 333 444 read first
        assert_eq!(d.items[1][0].kind, CHOW);
        let mut t = table("11122233344455m");
        divide(&mut t, &[], &mut d);
        assert!(d.len >= 3);
    }

    #[test]
    fn completing_tiles_of_waiting_hands() {
        let bits = |tiles: &str| {
            let t = table(tiles);
            rtile::ALL
                .iter()
                .filter(|&&x| t[x as usize] > 0)
                .fold(0u128, |m, &x| m | 1u128 << x)
        };
        // Nine gates: every character completes it.
        let t = table("1112345678999m");
        assert_eq!(completing_tiles(&t, true, None), bits("123456789m"));
        // Six pairs and a single: the single's kind, by seven pairs only.
        let t = table("112233m5566p779s");
        assert_eq!(completing_tiles(&t, true, None), bits("9s"));
        assert_eq!(completing_tiles(&t, false, None), 0);
        // A dead tile (four held with the melds) is left out when asked.
        let t = table("1233m456p789s777z");
        let mut dead = [0u8; 0x50];
        dead[rtile::from_code(2) as usize] = 4;
        assert_eq!(completing_tiles(&t, false, None), bits("3m"));
        assert_eq!(completing_tiles(&t, false, Some(&dead)), 0);
        // The witness of a wait: the winning tile alone when it is the only wait, else
        // two waits.
        let t = table("1112345678999m");
        let w = wait_witness(&t, rtile::from_code(4), true, None);
        assert_eq!(w.count_ones(), 2);
        assert_eq!(w & !completing_tiles(&t, true, None), 0);
        let t = table("1233m456p789s777z");
        let three = rtile::from_code(2);
        assert_eq!(wait_witness(&t, three, false, None), 1 << three);
    }

    #[test]
    fn waits() {
        // 1233m + ... waits only on 3m (P18).
        let t = table("1233m456p789s777z");
        assert!(!is_complete(&t));
        assert!(is_unique_wait(&t, rtile::from_code(2), false, None));
        // 12345m waits on 3m and 6m.
        let t = table("12345m456p789s11z");
        assert!(!is_unique_wait(&t, rtile::from_code(2), false, None));
        // Complete hands: the pair in a suit or in the honors, and the greedy pung first.
        assert!(is_complete(&table("12333m456p789s777z")));
        assert!(is_complete(&table("111222333m456p11z")));
        assert!(is_complete(&table("123m456p789s11122z")));
        assert!(!is_complete(&table("123m456p789s11123z")));
        assert!(!is_complete(&table("1234m456p789s1122z")));
    }

    /// The next held tile is the first tile position at or after `from` with a count, as
    /// a walk over the tiles finds it, whatever the table holds between the tiles.
    #[test]
    fn the_next_held_tile_is_the_first_tile_with_a_count() {
        let mut rng = crate::wall::Rng::new(0xD1_71DE);
        for round in 0..5000 {
            let mut t: RTable = [0; 0x50];
            for x in t.iter_mut() {
                // Sparse counts, and now and then something between the tiles too.
                if rng.below(6) == 0 {
                    *x = 1 + rng.below(4) as u8;
                }
            }
            if round % 2 == 0 {
                for (x, c) in t.iter_mut().enumerate() {
                    if !ALL.contains(&(x as RTile)) {
                        *c = 0;
                    }
                }
            }
            for &from in ALL.iter() {
                let want = ALL
                    .iter()
                    .map(|&x| x as usize)
                    .find(|&x| x >= from as usize && t[x] > 0);
                assert_eq!(next_held(&t, from as usize), want, "{t:?} {from}");
            }
        }
    }
}
