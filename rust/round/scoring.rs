//! The round's use of the oracle and the fan evaluator: shape checks (is a hand
//! complete, is it ready) and fan evaluation of a win.

use crate::error::MjResult;
use crate::hand::Meld;
use crate::rules::Rules;
use crate::tile::Counts;

use crate::fan as fan_api;
use crate::shanten as shanten_api;
use crate::shanten::knitted::{self, MASKS as KNITTED_MASKS};
use crate::shanten::special::ORPHAN_MASK;

pub use fan_api::{FanResult, WinInput};

const NONE_USED: Counts = [0; 34];

/// Every kind (bit `t` for kind `t`).
const ALL: u64 = (1 << 34) - 1;
/// The suited kinds.
const SUITED: u64 = (1 << 27) - 1;
/// The suited kinds at rank 0, 1, 7 and 8 of their suit.
const R0: u64 = 1 | 1 << 9 | 1 << 18;
const R1: u64 = R0 << 1;
const R7: u64 = R0 << 7;
const R8: u64 = R0 << 8;

/// True if the concealed tiles (14 - 3k, winning tile included) with `melds` form a
/// winning shape of the rule set (the fan minimum is not checked here).
///
/// The copies in the melds only limit which tiles a hand could still *draw*; whether
/// tiles actually held form a complete hand does not depend on them, so the oracle is
/// asked with no copies used (its fast path).
/// A cheap necessary condition ([`may_be_complete`]) rejects most hands before the
/// oracle is asked.
#[inline]
pub fn complete(concealed: &Counts, melds: &[Meld]) -> bool {
    may_be_complete(concealed, melds.len())
        && shanten_api::is_win(concealed, &NONE_USED, melds.len() as u8, 0)
}

/// [`complete`] without the filter (for callers that filtered already).
#[inline]
pub fn complete_unfiltered(concealed: &Counts, melds: &[Meld]) -> bool {
    shanten_api::is_win(concealed, &NONE_USED, melds.len() as u8, 0)
}

/// The six knitted straights (147/258/369 spread over the three suits, in the order of
/// [`knitted::PERMS`]), as tile lists.
const KNITTED: [[u8; 9]; 6] = {
    let perms = knitted::PERMS;
    let mut out = [[0u8; 9]; 6];
    let mut p = 0;
    while p < 6 {
        let mut suit = 0;
        while suit < 3 {
            let start = perms[p][suit];
            let mut k = 0;
            while k < 3 {
                out[p][suit * 3 + k] = (suit * 9 + start + 3 * k) as u8;
                k += 1;
            }
            suit += 1;
        }
        p += 1;
    }
    out
};

/// A necessary condition for a complete hand in some GB form, checked in a few dozen
/// operations: the regular form needs each suit's count to be a multiple of three except
/// for the one holding the pair, and honors in pungs or the pair; seven pairs, thirteen
/// orphans and honors-knitted need no melds and, respectively, even counts, only terminals
/// and honors, or no repeated tile; a knitted straight needs its nine tiles.
pub fn may_be_complete(c: &Counts, n_melds: usize) -> bool {
    // One pass: suit sums, honor shapes, and the flags the special forms need.
    let mut sums = [0u32; 3];
    for (suit, sum) in sums.iter_mut().enumerate() {
        let s = &c[suit * 9..suit * 9 + 9];
        *sum = s.iter().map(|&x| x as u32).sum();
    }
    let mut pairs = 0u32;
    let mut regular = true;
    for &x in &c[27..34] {
        match x {
            0 | 3 => {}
            2 => pairs += 1,
            _ => regular = false,
        }
    }
    for &n in &sums {
        match n % 3 {
            0 => {}
            2 => pairs += 1,
            _ => regular = false,
        }
    }
    if regular && pairs == 1 {
        return true;
    }
    if n_melds > 1 {
        return false;
    }
    let mut or_all = 0u8;
    let mut distinct_suited = 0u32;
    for &x in &c[..27] {
        or_all |= x;
        distinct_suited += u32::from(x > 0);
    }
    for &x in &c[27..] {
        or_all |= x;
    }
    let odd = c.iter().fold(0u8, |a, &x| a | (x & 1)) != 0;
    let repeated = or_all > 1;
    let inner = c[1..8]
        .iter()
        .chain(&c[10..17])
        .chain(&c[19..26])
        .any(|&x| x > 0);
    if n_melds == 0 && (!odd || !inner || !repeated) {
        return true;
    }
    distinct_suited >= 9 && KNITTED.iter().any(|k| k.iter().all(|&t| c[t as usize] > 0))
}

/// Shanten of 13 - 3k or 14 - 3k concealed tiles beside `n_melds` melds whose copies are
/// ignored (they may only make a hand look closer than it is). A complete hand (-1) is
/// exactly one [`complete`] accepts.
#[inline]
pub fn shanten_ignoring_melds(concealed: &Counts, n_melds: u8) -> i8 {
    shanten_api::shanten(concealed, &NONE_USED, n_melds, 0)
}

/// Shanten of 13 - 3k or 14 - 3k concealed tiles beside `melds` (-1 complete, 0 ready),
/// exact with respect to the copies in the melds.
#[inline]
pub fn shanten(concealed: &Counts, melds: &[Meld]) -> i8 {
    // Ignoring the melds' copies can only make a hand look closer; only a hand that
    // looks ready needs the exact (slower) answer.
    let fast = shanten_ignoring_melds(concealed, melds.len() as u8);
    if fast > 0 || melds.is_empty() {
        return fast;
    }
    shanten_counting_melds(concealed, melds)
}

/// The shanten of `concealed` beside `melds` with the melds' copies counted from the
/// start: what [`shanten`] returns once [`shanten_ignoring_melds`] is found at most 0,
/// for a caller that has that bound already (above 0, [`shanten`] returns the bound).
#[inline]
pub fn shanten_counting_melds(concealed: &Counts, melds: &[Meld]) -> i8 {
    let used = shanten_api::used_counts(melds);
    shanten_api::shanten(concealed, &used, melds.len() as u8, 0)
}

/// The kinds held in `concealed` (`14 - 3k` tiles beside `melds`) whose discard leaves a
/// ready hand: bit `t` set exactly when [`shanten`]`(concealed - t, melds)` is 0. The
/// discards are tested together with the melds' copies ignored
/// ([`shanten_api::ready_discards`]); only those that pass are measured exactly beside
/// melds.
pub fn ready_discards(concealed: &Counts, melds: &[Meld]) -> u64 {
    let n_melds = melds.len() as u8;
    let Some(fast) = shanten_api::ready_discards(concealed, n_melds) else {
        // Another tile count (or a count above four): each kind held measured as
        // `shanten` does.
        let held = (0..34)
            .filter(|&t| concealed[t] > 0)
            .fold(0u64, |m, t| m | 1 << t);
        return discards_where(concealed, held, |c| shanten(c, melds) == 0);
    };
    if melds.is_empty() || fast == 0 {
        return fast;
    }
    let used = shanten_api::used_counts(melds);
    discards_where(concealed, fast, |c| {
        shanten_api::shanten(c, &used, n_melds, 0) == 0
    })
}

/// The kinds among `kinds` (bit `t` for kind `t`, each held in `hand`) whose discard
/// leaves tiles that pass `test`.
#[inline]
fn discards_where(hand: &Counts, kinds: u64, test: impl Fn(&Counts) -> bool) -> u64 {
    let mut c = *hand;
    let mut out = 0u64;
    let mut rest = kinds;
    while rest != 0 {
        let t = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        c[t] -= 1;
        out |= u64::from(test(&c)) << t;
        c[t] += 1;
    }
    out
}

/// Fan evaluation of a win.
#[inline]
pub fn evaluate(input: &WinInput, rules: &Rules) -> MjResult<FanResult> {
    fan_api::evaluate(input, &rules.fan)
}

/// True if a declared ready (报听) scores its fan under these rules (classic's 听牌).
#[inline]
pub fn ready_scores(rules: &Rules) -> bool {
    rules.fan.ready_fan
}

/// Running summaries of a concealed hand, kept up to date tile by tile, from which
/// [`ShapeStats::may_be_complete`] answers the same necessary condition as
/// [`may_be_complete`] in a few operations (and [`ShapeStats::completing`] for the hand
/// plus any one tile), which kinds are held (a bit set) and how many are held four times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ShapeStats {
    /// Eleven counters of one byte each, at the byte positions named below ([`SUITS`] to
    /// [`DISTINCT`]): kept as one number so that a kind's change is one table lookup and
    /// one addition ([`STEP`]).
    packed: u128,
    present: u64,
}

/// Byte of [`ShapeStats::packed`]: tiles of each suit (bytes 0, 1, 2).
const SUITS: u32 = 0;
/// Byte: honor kinds held once or four times (they break the regular shape).
const HONOR_BAD: u32 = 3;
/// Byte: honor kinds held twice.
const HONOR_PAIRS: u32 = 4;
/// Byte: kinds held an odd number of times.
const ODD: u32 = 5;
/// Byte: suited 2-8 tiles held.
const INNER: u32 = 6;
/// Byte: kinds held more than once.
const REPEATED: u32 = 7;
/// Byte: suited kinds held.
const DISTINCT_SUITED: u32 = 8;
/// Byte: kinds held four times.
const QUADS: u32 = 9;
/// Byte: kinds held.
const DISTINCT: u32 = 10;

/// `ONE_EXCHANGE[b][p][code]`: whether one exchange (a tile given up, then one taken)
/// can leave a hand whose honor kinds held once are `b` (3 for three or more), whose honor
/// pairs are `p` (3 for three or more) and whose suits' residue code is `code` with the
/// regular shape's summaries of [`ShapeStats::may_be_complete`] (no honor held once or
/// four times, no suit holding 1 mod 3, one pair). Each end of the exchange moves one
/// honor kind between counts (0, 1, 2, 3) or one suit's residue; kinds whose presence the
/// summaries do not tell (an honor held three times or not at all, a suited tile) are
/// taken as present, so that a `false` here is a proof.
const ONE_EXCHANGE: [[[bool; 27]; 4]; 4] = {
    const fn minus_one(code: usize, j: usize) -> usize {
        let w = POW3[j] as usize;
        if code / w % 3 == 0 {
            code + 2 * w
        } else {
            code - w
        }
    }
    let mut out = [[[false; 27]; 4]; 4];
    let mut hb = 0;
    while hb < 4 {
        let mut hp = 0;
        while hp < 4 {
            let mut code = 0;
            while code < 27 {
                // The hand as it is (a tile given up and taken back).
                let mut ok = hb == 0 && PAIR_SUITS[code] as i32 + hp as i32 == 1;
                // Give up: an honor held 1, 2 or 3 times; a suited tile.
                let mut r = 1;
                while r < 7 {
                    let (mut b, mut p, mut c, mut avail) = (hb as i32, hp as i32, code, true);
                    match r {
                        1 => {
                            avail = b >= 1;
                            b -= 1;
                        }
                        2 => {
                            avail = p >= 1;
                            p -= 1;
                            b += 1;
                        }
                        3 => p += 1,
                        _ => c = minus_one(c, r - 4),
                    }
                    // Take: an honor held 0, 1 or 2 times; a suited tile.
                    let mut a = 1;
                    while avail && a < 7 {
                        let (mut b2, mut p2, mut c2, mut avail2) = (b, p, c, true);
                        match a {
                            1 => b2 += 1,
                            2 => {
                                avail2 = b2 >= 1;
                                b2 -= 1;
                                p2 += 1;
                            }
                            3 => {
                                avail2 = p2 >= 1;
                                p2 -= 1;
                            }
                            _ => c2 = PLUS_ONE[c2][a - 4] as usize,
                        }
                        if avail2 && b2 == 0 && PAIR_SUITS[c2] as i32 + p2 == 1 {
                            ok = true;
                        }
                        a += 1;
                    }
                    r += 1;
                }
                out[hb][hp][code] = ok;
                code += 1;
            }
            hp += 1;
        }
        hb += 1;
    }
    out
};

/// `STEP[t][c]`: what kind `t` held `c` times adds to [`ShapeStats::packed`] (entries past
/// four copies repeat four's). Every counter is a sum over the kinds, so a kind going from
/// `b` to `a` copies changes the packed counters by `STEP[t][a] - STEP[t][b]`; added before
/// subtracting, no byte ever borrows from its neighbour.
const STEP: [[u128; 8]; 34] = {
    const fn byte(pos: u32, v: u128) -> u128 {
        v << (8 * pos)
    }
    let mut out = [[0u128; 8]; 34];
    let mut t = 0;
    while t < 34 {
        let mut i = 0;
        while i < 8 {
            let c = if i > 4 { 4 } else { i } as u128;
            let mut v = byte(ODD, c & 1)
                + byte(REPEATED, (c > 1) as u128)
                + byte(QUADS, (c == 4) as u128)
                + byte(DISTINCT, (c > 0) as u128);
            if t < 27 {
                v += byte(SUITS + (t / 9) as u32, c) + byte(DISTINCT_SUITED, (c > 0) as u128);
                if t % 9 != 0 && t % 9 != 8 {
                    v += byte(INNER, c);
                }
            } else {
                v += byte(HONOR_BAD, (c == 1 || c == 4) as u128)
                    + byte(HONOR_PAIRS, (c == 2) as u128);
            }
            out[t][i] = v;
            i += 1;
        }
        t += 1;
    }
    out
};

/// Powers of three: the weight of suit `j` in a residue code `r0 + 3 r1 + 9 r2` (the
/// suits' tile counts modulo 3).
const POW3: [u8; 3] = [1, 3, 9];

/// `RESIDUE[n][j]`: suit `j` holding `n` tiles, as its term of a residue code.
const RESIDUE: [[u8; 3]; 256] = {
    let mut out = [[0u8; 3]; 256];
    let mut n = 0;
    while n < 256 {
        let mut j = 0;
        while j < 3 {
            out[n][j] = (n % 3) as u8 * POW3[j];
            j += 1;
        }
        n += 1;
    }
    out
};

/// For each residue code: how many suits hold a pair's worth (count 2 mod 3), or a
/// value far above 1 when some suit holds 1 mod 3 (no regular shape then).
const PAIR_SUITS: [u8; 27] = {
    let mut out = [0u8; 27];
    let mut code = 0;
    while code < 27 {
        let digits = [code % 3, code / 3 % 3, code / 9];
        let mut twos = 0;
        let mut ones = 0;
        let mut j = 0;
        while j < 3 {
            if digits[j] == 2 {
                twos += 1;
            }
            if digits[j] == 1 {
                ones += 1;
            }
            j += 1;
        }
        out[code] = if ones > 0 { 100 } else { twos };
        code += 1;
    }
    out
};

/// Residue code after one more tile of suit `j`: `PLUS_ONE[code][j]`.
const PLUS_ONE: [[u8; 3]; 27] = {
    let mut out = [[0u8; 3]; 27];
    let mut code = 0;
    while code < 27 {
        let mut j = 0;
        while j < 3 {
            let w = POW3[j] as usize;
            let digit = code / w % 3;
            out[code][j] = if digit == 2 { code - 2 * w } else { code + w } as u8;
            j += 1;
        }
        code += 1;
    }
    out
};

/// `UP[t][c]`: what one more copy of kind `t` held `c` times adds to the summaries,
/// `STEP[t][c + 1] - STEP[t][c]` (modulo 2^128: a counter may go down).
const UP: [[u128; 8]; 34] = {
    let mut out = [[0u128; 8]; 34];
    let mut t = 0;
    while t < 34 {
        let mut c = 0;
        while c < 7 {
            out[t][c] = STEP[t][c + 1].wrapping_sub(STEP[t][c]);
            c += 1;
        }
        t += 1;
    }
    out
};

impl ShapeStats {
    /// Accounts for one more copy of kind `t`, held `before` times: [`ShapeStats::change`]
    /// from `before` to `before + 1` with one table entry.
    #[inline(always)]
    pub fn add_one(&mut self, t: u8, before: u8) {
        self.packed = self
            .packed
            .wrapping_add(UP[t as usize][before as usize & 7]);
        let bit = 1u64 << t;
        self.present |= bit;
    }

    /// Accounts for one copy of kind `t` fewer, held `before` (at least 1) times:
    /// [`ShapeStats::change`] from `before` to `before - 1` with one table entry.
    #[inline(always)]
    pub fn remove_one(&mut self, t: u8, before: u8) {
        let after = before.wrapping_sub(1);
        self.packed = self.packed.wrapping_sub(UP[t as usize][after as usize & 7]);
        self.present &= !(u64::from(after == 0) << t);
    }

    /// Accounts for a kind going from `before` to `after` copies.
    #[inline(always)]
    pub fn change(&mut self, t: u8, before: u8, after: u8) {
        let step = &STEP[t as usize];
        self.packed = self.packed + step[after as usize & 7] - step[before as usize & 7];
        let bit = 1u64 << t;
        self.present = self.present & !bit | u64::from(after > 0) << t;
    }

    /// The counter at byte `pos` of [`ShapeStats::packed`].
    #[inline(always)]
    fn byte(&self, pos: u32) -> u8 {
        (self.packed >> (8 * pos)) as u8
    }

    /// Bit `t` is set when the hand holds kind `t`.
    #[inline]
    pub fn present(&self) -> u64 {
        self.present
    }

    /// How many kinds the hand holds (the bits of [`ShapeStats::present`]).
    #[inline]
    pub fn distinct(&self) -> u32 {
        self.byte(DISTINCT) as u32
    }

    /// How many kinds the hand holds more than once.
    #[inline]
    pub fn repeated(&self) -> u8 {
        self.byte(REPEATED)
    }

    /// How many kinds the hand holds all four copies of.
    #[inline]
    pub fn quads(&self) -> u8 {
        self.byte(QUADS)
    }

    /// The summaries of `c` (every counter is a sum over the kinds, so they are the ones
    /// its tiles added one by one give): what the tests check the running summaries
    /// against.
    #[cfg(test)]
    pub fn of(c: &Counts) -> Self {
        let mut s = ShapeStats::default();
        for (t, &x) in c.iter().enumerate() {
            if x != 0 {
                s.packed += STEP[t][x as usize & 7];
                s.present |= 1 << t;
            }
        }
        s
    }

    /// The residue code of the suits' tile counts.
    #[inline(always)]
    fn residues(&self) -> usize {
        let r = |j: usize| RESIDUE[self.byte(SUITS + j as u32) as usize][j] as usize;
        r(0) + r(1) + r(2)
    }

    /// [`may_be_complete`] for the hand these summaries describe.
    #[inline]
    pub fn may_be_complete(&self, n_melds: usize) -> bool {
        if self.byte(HONOR_BAD) == 0 && PAIR_SUITS[self.residues()] + self.byte(HONOR_PAIRS) == 1 {
            return true;
        }
        self.special_forms(n_melds)
    }

    /// The kinds `t` (bit set) one more copy of which may complete the hand `hand` (the one
    /// these summaries describe): those that make it pass [`may_be_complete`], less the
    /// suited kinds that pass by the regular form alone and join no held tile in a set or
    /// a pair ([`ShapeStats::joining`]). Every kind held fewer than four times that
    /// completes the hand is among them. Kept out of line: its one caller in play
    /// ([`super::seat::SeatState`]'s search of the completing kinds) is answered by the
    /// shanten floor most of the time, and inlined this search made that path costlier.
    #[inline(never)]
    pub fn completing(&self, hand: &Counts, n_melds: usize) -> u64 {
        // The regular form, read from its summaries at once (`REGULAR`): the suits one more
        // tile of which completes it, and whether an honor pair becoming a pung or the one
        // single honor becoming a pair does.
        let hb = (self.byte(HONOR_BAD) as usize).min(2);
        let hp = (self.byte(HONOR_PAIRS) as usize).min(3);
        let r = REGULAR[self.residues()][hb][hp];
        // A suited tile completing the regular form sits in a set or the pair with tiles
        // held: the suits' filter alone lets through every kind of the suit.
        let mut out = SUIT_MASKS[(r & 7) as usize] & self.joining();
        if r & (PAIR_TO_PUNG | SINGLE_TO_PAIR) != 0 {
            let want = if r & PAIR_TO_PUNG != 0 { 2 } else { 1 };
            for (i, &x) in hand[27..].iter().enumerate() {
                if x == want {
                    out |= 1 << (27 + i);
                }
            }
        }
        if n_melds > 1 {
            return out;
        }
        if n_melds == 0 {
            // Seven pairs: the one kind held an odd number of times.
            if self.byte(ODD) == 1 {
                for (t, &x) in hand.iter().enumerate() {
                    if x & 1 == 1 {
                        out |= 1 << t;
                    }
                }
            }
            // Thirteen orphans: no suited 2-8 held, and none added.
            if self.byte(INNER) == 0 {
                out |= ORPHAN_MASK;
            }
            // Honors and knitted: no kind held twice, and none added twice.
            if self.byte(REPEATED) == 0 {
                out |= !self.present & ALL;
            }
        }
        // Knitted straight: at most one of a straight's nine kinds missing, and nine
        // distinct suited kinds after the tile.
        if self.byte(DISTINCT_SUITED) >= 8 && knitted_within(self.present, 1) {
            out |= self.completing_knitted();
        }
        out
    }

    /// The suited kinds one more copy of which can join the held tiles in a set or a pair
    /// of the regular form (bit `t` for kind `t`): the kinds held, and those with two held
    /// neighbours making a chow with them (`t-2, t-1`, `t-1, t+1` or `t+1, t+2` in their
    /// suit). A tile that joins none would stand alone in any reading of the hand.
    #[inline(always)]
    fn joining(&self) -> u64 {
        // The suited kinds at ranks 2-8, 1-7 and 0-6 of their suit (counting from 0).
        const FROM_2: u64 = SUITED & !(R0 | R1);
        const INNER_RANKS: u64 = SUITED & !(R0 | R8);
        const TO_6: u64 = SUITED & !(R7 | R8);
        let s = self.present & SUITED;
        let (below, above) = (s << 1, s >> 1);
        s | (below & s << 2 & FROM_2) | (below & above & INNER_RANKS) | (above & s >> 2 & TO_6)
    }

    /// The knitted straight's part of [`ShapeStats::completing`].
    #[inline(never)]
    fn completing_knitted(&self) -> u64 {
        let new_suited = SUITED & !self.present;
        let mut out = 0;
        for k in KNITTED_MASKS {
            let missing = k & !self.present;
            if missing == 0 {
                out |= if self.byte(DISTINCT_SUITED) >= 9 {
                    ALL
                } else {
                    new_suited
                };
            } else if missing & (missing - 1) == 0 {
                out |= missing;
            }
        }
        out
    }

    /// False when no exchange of one tile (one given up, one taken) makes the hand these
    /// summaries describe pass [`may_be_complete`] beside `n_melds` melds, for a hand
    /// holding no kind four times (taking a fifth copy is then impossible). A 14 - 3k tile
    /// hand within one tile of ready passes. An exchange changes the counts of at most two
    /// kinds by one: the regular shape's summaries after it are read from [`ONE_EXCHANGE`];
    /// it flips the parity of at most two kinds
    /// (seven pairs), gives up at most one suited 2-8 (thirteen orphans) or one copy of one
    /// repeated kind (honors and knitted), and adds at most one kind (knitted straight).
    #[inline]
    pub fn may_be_one_exchange_from_complete(&self, n_melds: usize) -> bool {
        let b = self.byte(HONOR_BAD).min(3) as usize;
        let p = self.byte(HONOR_PAIRS).min(3) as usize;
        if ONE_EXCHANGE[b][p][self.residues()] {
            return true;
        }
        if n_melds > 1 {
            return false;
        }
        if n_melds == 0
            && (self.byte(ODD) <= 2 || self.byte(INNER) <= 1 || self.byte(REPEATED) <= 1)
        {
            return true;
        }
        self.byte(DISTINCT_SUITED) >= 8
            && knitted_within(self.present, 1)
            && KNITTED_MASKS
                .iter()
                .any(|&k| (k & !self.present).count_ones() <= 1)
    }

    /// A lower bound on the shanten (melds' copies ignored, as
    /// [`shanten_ignoring_melds`] counts it) of the waiting hand `hand` (13 - 3k tiles beside
    /// `n_melds` = k melds) these summaries describe, from counts alone, or a value at most
    /// 0 when it proves nothing.
    ///
    /// Each form's replacement number `d` (the tiles a nearest complete hand of the form has
    /// that `hand` lacks; shanten `d - 1`) is `14 - 3k - u`, where `u` counts the held tiles
    /// the complete hand uses, so `d = 1 + (held tiles it leaves unused)`. Copy limits are
    /// never used below, so each bound also holds with the melds' copies ignored.
    ///
    /// - Regular form: call a kind *lone* when it is held once and no other kind within two
    ///   of it in its suit is held (an honor held once). A set or pair using a lone tile
    ///   lacks all its other tiles (any tile of it is within two of the lone kind, and the
    ///   one copy held is taken), and holds no second lone kind (two lone kinds are not
    ///   within two of each other). If `j` of the `i` lone tiles are used, their `j` groups
    ///   lack at least `2j - 1` tiles (one of them at most is the pair), and the `i - j`
    ///   others are unused: `d >= max(2j - 1, 1 + i - j)` (`1 + i` for `j = 0`), whose least
    ///   over `j` gives shanten `>= floor(2i / 3)`. When that proves nothing (at most one
    ///   lone tile), the pairs held apart are counted too ([`REGULAR_FLOOR`]).
    /// - Seven pairs (no meld): a pair of the hand is a kind held twice or three times, or
    ///   half of one held four times; each of the seven pairs not held lacks a tile, so
    ///   shanten `>= 6 - pairs held`.
    /// - Thirteen orphans (no meld): no suited 2-8 tile is used, so shanten `>=` the 2-8
    ///   tiles held.
    /// - Honors and knitted (no meld): at most one tile of each kind is used, and of each
    ///   suit only one knitted class (1-4-7, 2-5-8, 3-6-9), so `u <=` the honor kinds held
    ///   plus each suit's best class ([`CLASS_BEST`]): shanten `>= 13 - u`.
    /// - Knitted straight (at most one meld): its nine kinds take one class of each suit,
    ///   and the rest (a set and a pair, or a pair beside one meld) holds `5 - 3k` tiles, so
    ///   `u <=` the best classes' sum plus `5 - 3k`: shanten `>= 8 -` that sum.
    ///
    /// The least of the bounds of the forms possible beside `n_melds` melds is returned.
    #[inline]
    pub fn shanten_floor(&self, hand: &Counts, n_melds: usize) -> i8 {
        let p = self.present;
        let s = p & SUITED;
        // Kinds with another held kind within two of them in their suit.
        let near = (s & !R8) << 1 | (s & !(R7 | R8)) << 2 | (s & !R0) >> 1 | (s & !(R0 | R1)) >> 2;
        let lone = kinds_in(held_exactly(hand, 1) & !near) as usize;
        let mut regular = REGULAR_FLOOR[lone & 15][0];
        if regular <= 0 {
            // Too few lone tiles to prove anything: the pairs held apart may.
            let pairs = kinds_in(held_exactly(hand, 2) & !near) as usize;
            regular = REGULAR_FLOOR[lone & 15][pairs & 7];
        }
        if n_melds > 1 || regular <= 0 {
            return regular;
        }
        let best = |j: u32| CLASS_BEST[(p >> (9 * j)) as usize & 0x1FF] as i8;
        let classes = best(0) + best(1) + best(2);
        let mut floor = regular.min(8 - classes);
        if n_melds == 0 {
            let pairs = (self.byte(REPEATED) + self.byte(QUADS)) as i8;
            let honors = (self.byte(DISTINCT) - self.byte(DISTINCT_SUITED)) as i8;
            floor = floor
                .min(6 - pairs)
                .min(self.byte(INNER).min(13) as i8)
                .min(13 - honors - classes);
        }
        floor
    }

    /// The part of the filter for the forms other than the regular one (seven pairs,
    /// thirteen orphans, honors-knitted, knitted straight), from their summaries.
    #[inline(always)]
    fn special_forms(&self, n_melds: usize) -> bool {
        if n_melds > 1 {
            return false;
        }
        if n_melds == 0
            && (self.byte(ODD) == 0 || self.byte(INNER) == 0 || self.byte(REPEATED) == 0)
        {
            return true;
        }
        if self.byte(DISTINCT_SUITED) < 9 || !knitted_within(self.present, 0) {
            return false;
        }
        for k in KNITTED_MASKS {
            if self.present & k == k {
                return true;
            }
        }
        false
    }
}

/// How many kinds the bit set `set` (over the 34 kinds) holds: `count_ones`, which on the
/// x86-64 baseline (no popcount instruction) is a dozen and a half operations, read here
/// from a table of the counts of 12 bits at a time.
#[inline(always)]
fn kinds_in(set: u64) -> u32 {
    #[cfg(target_feature = "popcnt")]
    {
        set.count_ones()
    }
    #[cfg(not(target_feature = "popcnt"))]
    {
        // `BITS[b]`: the set bits of the 12-bit `b`.
        const BITS: [u8; 4096] = {
            let mut out = [0u8; 4096];
            let mut b = 0;
            while b < 4096 {
                out[b] = (b as u32).count_ones() as u8;
                b += 1;
            }
            out
        };
        let at = |shift: u32| BITS[(set >> shift) as usize & 0xFFF] as u32;
        at(0) + at(12) + at(24)
    }
}

/// The kinds `hand` holds exactly `n` times, as a bit set: on x86-64 three SSE2 byte
/// comparisons (part of the base instruction set) of the counts, elsewhere one per kind.
#[inline(always)]
fn held_exactly(hand: &Counts, n: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let at = |i: usize| {
            let bytes: &[u8; 16] = hand[i..i + 16].try_into().unwrap_or(&[0; 16]);
            // SAFETY: `bytes` is 16 readable bytes; SSE2 is part of the x86-64 baseline.
            unsafe {
                let v = _mm_loadu_si128(bytes.as_ptr() as *const __m128i);
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(n as i8))) as u32 as u64
            }
        };
        // Kinds 0-15, 16-31, and 18-33 of which the top two are 32 and 33.
        at(0) | at(16) << 16 | at(18) >> 14 << 32
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        hand.iter()
            .enumerate()
            .fold(0, |m, (t, &x)| m | u64::from(x == n) << t)
    }
}

/// `REGULAR_FLOOR[i][q]`: the regular form's bound on the shanten of a waiting hand with `i`
/// lone tiles and `q` pairs held apart (kinds held twice with no other kind within two of
/// them in their suit held; an honor held twice), as [`ShapeStats::shanten_floor`] counts
/// them; floor(2i / 3) for `q` = 0. A set or pair using an apart pair's kind lacks every
/// other tile of it and holds no other lone or apart kind, so each such kind costs the
/// complete hand at least as follows, apart from the one pair: a lone tile used lacks two
/// tiles, unused it is a tile unused; an apart pair made a pung lacks a tile, and otherwise
/// leaves both copies unused (or one, in a chow lacking two). With `L` tiles lacked and `U`
/// held tiles unused, `d = L = 1 + U`: the bound is the least of `max(L, U + 1) - 1` over the
/// choices of the pair (none of them, a lone tile or an apart pair), the lone tiles used
/// and the apart pairs made pungs.
const REGULAR_FLOOR: [[i8; 8]; 16] = {
    let mut out = [[0i8; 8]; 16];
    let mut i = 0;
    while i < 16 {
        let mut q = 0;
        while q < 8 {
            let mut best = i32::MAX;
            // The pair: none of them (0), a lone tile (1) or an apart pair (2).
            let mut eye = 0;
            while eye < 3 {
                if (eye == 1 && i == 0) || (eye == 2 && q == 0) {
                    eye += 1;
                    continue;
                }
                let lone = i - (eye == 1) as usize;
                let pairs = q - (eye == 2) as usize;
                let mut used = 0;
                while used <= lone {
                    let mut pungs = 0;
                    while pungs <= pairs {
                        let lacked = (eye == 1) as i32 + 2 * used as i32 + pungs as i32;
                        let unused = (lone - used) as i32 + 2 * (pairs - pungs) as i32;
                        let d = if lacked > unused + 1 {
                            lacked
                        } else {
                            unused + 1
                        };
                        if d - 1 < best {
                            best = d - 1;
                        }
                        pungs += 1;
                    }
                    used += 1;
                }
                eye += 1;
            }
            out[i][q] = best as i8;
            q += 1;
        }
        i += 1;
    }
    out
};

/// [`REGULAR`]: an honor pair becoming a pung completes the regular form.
const PAIR_TO_PUNG: u8 = 8;
/// [`REGULAR`]: the one single honor becoming a pair completes the regular form.
const SINGLE_TO_PAIR: u8 = 16;

/// The kinds of the suits named by the three bits of the index.
const SUIT_MASKS: [u64; 8] = {
    let mut out = [0u64; 8];
    let mut b = 0;
    while b < 8 {
        let mut j = 0;
        while j < 3 {
            if b >> j & 1 == 1 {
                out[b] |= 0x1FF << (9 * j);
            }
            j += 1;
        }
        b += 1;
    }
    out
};

/// `REGULAR[code][b][p]`: for a hand whose suits' residue code is `code`, with `b` honor
/// kinds held once or four times (2 for two or more) and `p` honor pairs (3 for three or
/// more), what one more tile does to the regular form's filter of
/// [`ShapeStats::may_be_complete`]: bit `j` (0-2) when a tile of suit `j` makes it pass
/// (only that suit's residue moves), [`PAIR_TO_PUNG`] when an honor held twice does (no
/// bad honor, one pair left) and [`SINGLE_TO_PAIR`] when the one honor held once does (no
/// pair anywhere else).
const REGULAR: [[[u8; 4]; 3]; 27] = {
    let mut out = [[[0u8; 4]; 3]; 27];
    let mut code = 0;
    while code < 27 {
        let mut hb = 0;
        while hb < 3 {
            let mut hp = 0;
            while hp < 4 {
                let mut r = 0u8;
                if hb == 0 {
                    let mut j = 0;
                    while j < 3 {
                        if PAIR_SUITS[PLUS_ONE[code][j] as usize] as usize + hp == 1 {
                            r |= 1 << j;
                        }
                        j += 1;
                    }
                }
                let suit_pairs = PAIR_SUITS[code] as usize;
                if hb == 0 && suit_pairs + hp == 2 {
                    r |= PAIR_TO_PUNG;
                } else if hb == 1 && suit_pairs == 0 && hp == 0 {
                    r |= SINGLE_TO_PAIR;
                }
                out[code][hb][hp] = r;
                hp += 1;
            }
            hb += 1;
        }
        code += 1;
    }
    out
};

/// `CLASS_BEST[b]`: for the nine kinds of one suit held as the bits of `b`, the most
/// kinds held of one of its knitted classes (1-4-7, 2-5-8 or 3-6-9), 0-3.
const CLASS_BEST: [u8; 512] = {
    let mut out = [0u8; 512];
    let mut b = 0;
    while b < 512 {
        let mut c = 0;
        while c < 3 {
            let n = (b >> c & 1) + (b >> (c + 3) & 1) + (b >> (c + 6) & 1);
            if n as u8 > out[b] {
                out[b] = n as u8;
            }
            c += 1;
        }
        b += 1;
    }
    out
};

/// False when every knitted straight misses more than `missing` of its nine kinds among
/// `present` (a bit set of kinds held), told from each suit's best class: a necessary
/// condition for some straight of [`KNITTED_MASKS`] to miss at most `missing`.
#[inline(always)]
fn knitted_within(present: u64, missing: u8) -> bool {
    let best = |j: u32| CLASS_BEST[(present >> (9 * j)) as usize & 0x1FF];
    best(0) + best(1) + best(2) + missing >= 9
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{parse, to_counts};
    use crate::wall::Rng;

    #[test]
    fn ready_discards_equal_each_discard_measured_beside_melds() {
        use crate::hand::MeldKind;
        let mut rng = Rng::new(0x5EAD_1E55);
        let mut ready = 0;
        for i in 0..20_000 {
            // Melds first (chows and pungs, whose copies then limit the concealed tiles),
            // then the concealed tiles from the copies left.
            let k = i % 5;
            let mut left = [4u8; 34];
            let mut melds = Vec::new();
            while melds.len() < k {
                let t = rng.below(34) as usize;
                let chow = t < 27 && t % 9 < 7 && rng.below(2) == 0;
                if chow && (0..3).all(|j| left[t + j] > 0) {
                    (0..3).for_each(|j| left[t + j] -= 1);
                    melds.push(Meld {
                        kind: MeldKind::Chow,
                        tile: t as u8,
                    });
                } else if !chow && left[t] >= 3 {
                    left[t] -= 3;
                    melds.push(Meld {
                        kind: MeldKind::Pung,
                        tile: t as u8,
                    });
                }
            }
            let near = rng.below(34) as usize;
            let mut c = [0u8; 34];
            let mut n = 0;
            while n < 14 - 3 * k {
                // Half the tiles near one kind, to reach ready shapes beside the melds.
                let t = if rng.below(2) == 0 {
                    (near / 9 * 9 + rng.below(if near < 27 { 9 } else { 7 }) as usize).min(33)
                } else {
                    rng.below(34) as usize
                };
                if left[t] > 0 {
                    left[t] -= 1;
                    c[t] += 1;
                    n += 1;
                }
            }
            let mut want = 0u64;
            let mut h = c;
            for t in 0..34 {
                if h[t] > 0 {
                    h[t] -= 1;
                    want |= u64::from(shanten(&h, &melds) == 0) << t;
                    h[t] += 1;
                }
            }
            ready += usize::from(want != 0);
            assert_eq!(ready_discards(&c, &melds), want, "{c:?} beside {melds:?}");
        }
        assert!(ready > 2_000, "{ready}");
        // Another tile count (here 13 beside no meld) is measured discard by discard.
        let odd = to_counts(&parse("1112345678999m").unwrap()).unwrap();
        let mut want = 0u64;
        for t in 0..9 {
            let mut h = odd;
            if h[t] > 0 {
                h[t] -= 1;
                want |= u64::from(shanten(&h, &[]) == 0) << t;
            }
        }
        assert_eq!(ready_discards(&odd, &[]), want);
    }

    #[test]
    fn one_copy_more_or_fewer_reads_as_the_general_change() {
        let mut rng = Rng::new(11);
        for _ in 0..200 {
            // A random hand, then every kind taken one copy up or down from it.
            let mut c = [0u8; 34];
            for _ in 0..14 {
                let t = rng.below(34) as usize;
                if c[t] < 4 {
                    c[t] += 1;
                }
            }
            let base = ShapeStats::of(&c);
            for t in 0..34u8 {
                let n = c[t as usize];
                if n < 4 {
                    let (mut a, mut b) = (base, base);
                    a.add_one(t, n);
                    b.change(t, n, n + 1);
                    assert_eq!(a, b, "add {t} at {n}");
                }
                if n > 0 {
                    let (mut a, mut b) = (base, base);
                    a.remove_one(t, n);
                    b.change(t, n, n - 1);
                    assert_eq!(a, b, "remove {t} at {n}");
                }
            }
        }
    }

    /// A random hand of `n` tiles, at most `max` copies of a kind, biased toward the nine
    /// kinds from a random start (one tile in `one_in` drawn from every kind) so that many
    /// hands are complete or nearly.
    fn biased_hand(rng: &mut Rng, n: usize, one_in: u64, max: u8) -> Counts {
        let mut c = [0u8; 34];
        let base = rng.below(27) as usize;
        let mut k = 0;
        while k < n {
            let t = if rng.below(one_in) == 0 {
                rng.below(34) as usize
            } else {
                (base + rng.below(9) as usize) % 34
            };
            if c[t] < max {
                c[t] += 1;
                k += 1;
            }
        }
        c
    }

    /// [`ShapeStats::completing`] by its definition, kind `t` of the hand `c` beside `m`
    /// melds: one more copy passes [`may_be_complete`], and a suited kind that passes by
    /// the regular form alone joins a held tile in a set or a pair (held itself, or two
    /// held neighbours in its suit making a chow with it).
    fn completing_by_definition(c: &Counts, t: usize, m: usize) -> bool {
        let mut plus = *c;
        plus[t] += 1;
        if !may_be_complete(&plus, m) {
            return false;
        }
        if t >= 27 || c[t] > 0 || ShapeStats::of(&plus).special_forms(m) {
            return true;
        }
        let r = t % 9;
        let held = |x: usize| c[x] > 0;
        (r >= 2 && held(t - 2) && held(t - 1))
            || ((1..=7).contains(&r) && held(t - 1) && held(t + 1))
            || (r <= 6 && held(t + 1) && held(t + 2))
    }

    #[test]
    fn every_kind_that_completes_a_hand_is_among_its_completing_kinds() {
        // Random waiting hands (13 - 3k tiles, biased toward one suit so that many are
        // ready): every kind whose copy makes the tiles complete (shanten -1, as the win
        // test reads them) is kept, and the joining test leaves some passing kinds out.
        let mut rng = Rng::new(21);
        let (mut completing_seen, mut left_out) = (0, 0);
        for i in 0..100_000 {
            let n_melds = i % 3;
            let c = biased_hand(&mut rng, 13 - 3 * n_melds, 4, 4);
            let st = ShapeStats::of(&c);
            if st.shanten_floor(&c, n_melds) > 0 {
                continue;
            }
            let all = st.completing(&c, n_melds);
            for t in (0..34).filter(|&t| c[t] < 4) {
                let mut plus = c;
                plus[t] += 1;
                if shanten_ignoring_melds(&plus, n_melds as u8) == -1 {
                    completing_seen += 1;
                    assert!(all >> t & 1 == 1, "{c:?} + {t}, {n_melds} melds");
                } else if all >> t & 1 == 0 && may_be_complete(&plus, n_melds) {
                    left_out += 1;
                }
            }
        }
        assert!(completing_seen > 1000, "{completing_seen}");
        assert!(left_out > 1000, "{left_out}");
    }

    #[test]
    fn the_filter_never_rejects_a_complete_hand() {
        // Random full hands (with 0-2 melds' worth of tiles removed): whenever the oracle
        // says complete, the filter must have let it through.
        let mut rng = Rng::new(5);
        let mut complete_seen = 0;
        for i in 0..200_000 {
            let n_melds = i % 3;
            // Biased toward few kinds so complete hands appear.
            let c = biased_hand(&mut rng, 14 - 3 * n_melds, 4, 4);
            let win = shanten_api::is_win(&c, &NONE_USED, n_melds as u8, 0);
            if win {
                complete_seen += 1;
                assert!(may_be_complete(&c, n_melds), "{c:?}");
            }
        }
        assert!(complete_seen > 100, "{complete_seen}");
        let mut rng = Rng::new(9);
        for _ in 0..20_000 {
            let mut c = [0u8; 34];
            let mut st = ShapeStats::default();
            let n = 2 + rng.below(13) as usize;
            let mut k = 0;
            while k < n {
                let t = rng.below(34) as usize;
                if c[t] < 4 {
                    st.change(t as u8, c[t], c[t] + 1);
                    c[t] += 1;
                    k += 1;
                }
            }
            assert_eq!(st, ShapeStats::of(&c));
            assert_eq!(st.distinct(), st.present().count_ones());
            assert_eq!(st.quads() as usize, c.iter().filter(|&&x| x == 4).count());
            for m in 0..3 {
                assert_eq!(st.may_be_complete(m), may_be_complete(&c, m), "{c:?}");
                let all = st.completing(&c, m);
                for t in 0..34 {
                    if c[t] < 4 {
                        assert_eq!(
                            all >> t & 1 == 1,
                            completing_by_definition(&c, t, m),
                            "{c:?} + {t}, {m} melds"
                        );
                    }
                }
            }
        }
        // One exchange from complete: every 14 - 3k tile hand without a kind held four
        // times that some exchange (one tile given up, one taken) completes passes.
        let mut rng = Rng::new(13);
        let mut near = 0;
        for i in 0..40_000 {
            let n_melds = i % 3;
            let c = biased_hand(&mut rng, 14 - 3 * n_melds, 3, 3);
            let st = ShapeStats::of(&c);
            if shanten_ignoring_melds(&c, n_melds as u8) <= 0 {
                near += 1;
                assert!(st.may_be_one_exchange_from_complete(n_melds), "{c:?}");
            }
        }
        assert!(near > 1000, "{near}");
        for s in [
            "147m258p369s1234z5z",
            "147m258p36s123456z",
            "11223344556677m",
            "19m19p19s1234567z",
            "1m9m19p19s1234567z",
        ] {
            let c = to_counts(&parse(s).unwrap()).unwrap();
            assert!(
                ShapeStats::of(&c).may_be_one_exchange_from_complete(0),
                "{s}"
            );
        }
        // Three honors held once: no regular shape; with pairs and 2-8 tiles, no special
        // one either.
        let far = to_counts(&parse("22558m3366p48s123z").unwrap()).unwrap();
        assert!(!ShapeStats::of(&far).may_be_one_exchange_from_complete(0));
        assert!(shanten_ignoring_melds(&far, 0) > 0);
        // Knitted straights one or two kinds short, and other near-special shapes.
        for s in [
            "147m258p369s1234z",
            "147m258p36s12345z",
            "147m25p369s1122z",
            "14m258p369s147p1z",
            "1122334455667m",
            "19m19p19s123456z",
        ] {
            let c = to_counts(&parse(s).unwrap()).unwrap();
            let st = ShapeStats::of(&c);
            for m in 0..2 {
                let all = st.completing(&c, m);
                for t in (0..34).filter(|&t| c[t] < 4) {
                    assert_eq!(
                        all >> t & 1 == 1,
                        completing_by_definition(&c, t, m),
                        "{s} + {t}, {m} melds"
                    );
                }
            }
        }
        for s in [
            "19m19p19s1234567z1m",
            "147m258p369s12345z",
            "11223344556677m",
            "147m258p369s11z234m",
        ] {
            let c = to_counts(&parse(s).unwrap()).unwrap();
            assert!(may_be_complete(&c, 0), "{s}");
            assert!(complete(&c, &[]), "{s}");
        }
    }

    #[test]
    fn the_shanten_floor_never_exceeds_the_shanten() {
        // Waiting hands (13 - 3k tiles, 0-4 melds), drawn from all kinds, from a few kinds
        // (pairs, sets and near-complete shapes), and from the terminals, honors and one
        // knitted class per suit (the special forms' material).
        let mut rng = Rng::new(17);
        let (mut proved, mut exact) = (0, 0);
        for i in 0..60_000 {
            let n_melds = [0, 0, 0, 1, 1, 2, 3, 4][i % 8];
            let mut c = [0u8; 34];
            let base = rng.below(34) as usize;
            let mode = i / 8 % 3;
            let mut k = 0;
            while k < 13 - 3 * n_melds {
                let t = match mode {
                    0 => rng.below(34) as usize,
                    1 => (base + rng.below(9) as usize) % 34,
                    _ => {
                        let outer = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
                        if rng.below(2) == 0 {
                            outer[rng.below(13) as usize]
                        } else {
                            let suit = rng.below(3) as usize;
                            suit * 9 + (base + suit) % 3 + 3 * rng.below(3) as usize
                        }
                    }
                };
                if c[t] < 4 {
                    c[t] += 1;
                    k += 1;
                }
            }
            let once = (0..34).fold(0u64, |m, t| m | u64::from(c[t] == 1) << t);
            let twice = (0..34).fold(0u64, |m, t| m | u64::from(c[t] == 2) << t);
            assert_eq!(held_exactly(&c, 1), once, "{c:?}");
            assert_eq!(held_exactly(&c, 2), twice, "{c:?}");
            assert_eq!(kinds_in(once), once.count_ones(), "{c:?}");
            let floor = ShapeStats::of(&c).shanten_floor(&c, n_melds);
            let s = shanten_ignoring_melds(&c, n_melds as u8);
            assert!(floor <= s, "{c:?}, {n_melds} melds: floor {floor} > {s}");
            proved += usize::from(floor > 0);
            exact += usize::from(floor > 0 && floor == s);
        }
        assert!(proved > 20_000 && exact > 5_000, "{proved} {exact}");
        // Hands whose floor is their shanten: honors and knitted (seven lone honors and
        // one tile of a class per suit: 13 - 10), two sets' lone honors beside three melds
        // (four lone tiles: 2), three honor pairs apart and a lone honor beside two melds
        // (two pungs to complete: 1), and a pair's wait beside four melds (nothing proved).
        for (h, m, want) in [
            ("1234567z159m26p3s", 0, 3),
            ("1357z", 3, 2),
            ("1133557z", 2, 1),
            ("1z", 4, 0),
        ] {
            let c = to_counts(&parse(h).unwrap()).unwrap();
            let floor = ShapeStats::of(&c).shanten_floor(&c, m);
            assert_eq!(floor, want, "{h}");
            assert_eq!(shanten_ignoring_melds(&c, m as u8), want, "{h}");
        }
    }

    #[test]
    fn shanten_moves_by_at_most_one_per_tile_drawn_and_never_down_per_tile_given_up() {
        // The seat bound of the round relies on this: a tile added lowers the shanten
        // (melds' copies ignored) by at most one, a tile removed never lowers it, and -1 is
        // exactly a complete hand. Random walks of draws and discards, 0-2 melds.
        let mut rng = Rng::new(11);
        let mut wall = [0u8; 34];
        for walk in 0..3_000 {
            let n_melds = (walk % 3) as u8;
            let melds = vec![
                Meld {
                    kind: crate::hand::MeldKind::Pung,
                    tile: 0
                };
                n_melds as usize
            ];
            wall.fill(4);
            let mut hand = [0u8; 34];
            // Bias toward a few kinds so ready and complete hands appear.
            let base = rng.below(34) as usize;
            let pick = |rng: &mut Rng, wall: &mut [u8; 34]| loop {
                let t = if rng.below(3) == 0 {
                    rng.below(34) as usize
                } else {
                    (base + rng.below(7) as usize) % 34
                };
                if wall[t] > 0 {
                    wall[t] -= 1;
                    return t;
                }
            };
            for _ in 0..13 - 3 * n_melds {
                let t = pick(&mut rng, &mut wall);
                hand[t] += 1;
            }
            let mut s = shanten_ignoring_melds(&hand, n_melds);
            for _ in 0..12 {
                let t = pick(&mut rng, &mut wall);
                hand[t] += 1;
                let drawn = shanten_ignoring_melds(&hand, n_melds);
                assert!(drawn >= s - 1, "{hand:?}: {s} -> {drawn}");
                assert_eq!(drawn == -1, complete(&hand, &melds), "{hand:?}");
                let held: Vec<usize> = (0..34).filter(|&x| hand[x] > 0).collect();
                let out = held[rng.below(held.len() as u64) as usize];
                hand[out] -= 1;
                s = shanten_ignoring_melds(&hand, n_melds);
                assert!(s >= drawn, "{hand:?}: {drawn} -> {s}");
            }
        }
    }
}
