//! The combination principles: how sets combine into fans (non-repeat, non-separation,
//! non-identical, account-once, as PyMahjongGB applies them to chows and pungs), the
//! concealed-pung and kong table, the 不计 exclusions and the wind pungs.

use super::catalog::*;
use super::rtile::{self, RTile, R_EAST};
use super::table::{clear, has, inc, set, Table};
use super::FanOptions;

#[inline]
fn shifted1(a: u8, b: u8, c: u8) -> bool {
    a + 1 == b && b + 1 == c
}
#[inline]
fn shifted2(a: u8, b: u8, c: u8) -> bool {
    a + 2 == b && b + 2 == c
}
#[inline]
fn three_suits(a: u8, b: u8, c: u8) -> bool {
    a != b && a != c && b != c
}
/// Three ranks that are n, n+1, n+2 in some order.
#[inline]
fn shifted1_any(a: u8, b: u8, c: u8) -> bool {
    let lo = a.min(b).min(c);
    let hi = a.max(b).max(c);
    hi == lo + 2 && a != b && a != c && b != c
}

/// Fan of four chows (sorted middle tiles), if any.
fn four_chows(m: &[RTile; 4]) -> Option<Fan> {
    let (a, b, c, d) = (m[0], m[1], m[2], m[3]);
    if (a + 2 == b && b + 2 == c && c + 2 == d) || (a + 1 == b && b + 1 == c && c + 1 == d) {
        return Some(FOUR_PURE_SHIFTED_CHOWS);
    }
    if a == b && a == c && a == d {
        return Some(QUADRUPLE_CHOW);
    }
    None
}

/// Fan of three chows (sorted middle tiles), if any.
fn three_chows(a: RTile, b: RTile, c: RTile) -> Option<Fan> {
    let (sa, sb, sc) = (rtile::suit(a), rtile::suit(b), rtile::suit(c));
    let (ra, rb, rc) = (rtile::rank(a), rtile::rank(b), rtile::rank(c));
    if three_suits(sa, sb, sc) {
        if shifted1_any(ra, rb, rc) {
            return Some(MIXED_SHIFTED_CHOWS);
        }
        if ra == rb && rb == rc {
            return Some(MIXED_TRIPLE_CHOW);
        }
        let mut r = [ra, rb, rc];
        r.sort_unstable();
        if r == [2, 5, 8] {
            return Some(MIXED_STRAIGHT);
        }
    } else {
        if a + 3 == b && b + 3 == c {
            return Some(PURE_STRAIGHT);
        }
        if shifted2(a, b, c) || shifted1(a, b, c) {
            return Some(PURE_SHIFTED_CHOWS);
        }
        if a == b && a == c {
            return Some(PURE_TRIPLE_CHOW);
        }
    }
    None
}

/// The 1-fan relation of two chows, if any.
pub(super) fn two_chows(a: RTile, b: RTile) -> Option<Fan> {
    if rtile::suit(a) != rtile::suit(b) {
        if rtile::rank(a) == rtile::rank(b) {
            return Some(MIXED_DOUBLE_CHOW);
        }
    } else {
        if a + 3 == b || b + 3 == a {
            return Some(SHORT_STRAIGHT);
        }
        let (ra, rb) = (rtile::rank(a), rtile::rank(b));
        if (ra == 2 && rb == 8) || (ra == 8 && rb == 2) {
            return Some(TWO_TERMINAL_CHOWS);
        }
        if a == b {
            return Some(PURE_DOUBLE_CHOW);
        }
    }
    None
}

/// The one relation the spare chow may add to a three-chow fan (account-once), by
/// priority 一般高 > 喜相逢 > 连六 > 老少副.
fn spare_chow(a: RTile, b: RTile, c: RTile, spare: RTile) -> Option<Fan> {
    let found = [
        two_chows(a, spare),
        two_chows(b, spare),
        two_chows(c, spare),
    ];
    [
        PURE_DOUBLE_CHOW,
        MIXED_DOUBLE_CHOW,
        SHORT_STRAIGHT,
        TWO_TERMINAL_CHOWS,
    ]
    .into_iter()
    .find(|f| found.contains(&Some(*f)))
}

/// The four 1-fan chow relations in table order.
const CHOW_PAIR_FANS: [Fan; 4] = [
    PURE_DOUBLE_CHOW,
    MIXED_DOUBLE_CHOW,
    SHORT_STRAIGHT,
    TWO_TERMINAL_CHOWS,
];

/// Non-identical / account-once for pairwise chow relations: at most `max` relations,
/// trimming repeats first, starting from 老少副.
fn cap_pair_relations(found: &[Option<Fan>], max: u8, t: &mut Table) {
    let mut per = [0u8; 4];
    let mut cnt = 0u8;
    for f in found.iter().flatten() {
        if let Some(i) = CHOW_PAIR_FANS.iter().position(|x| x == f) {
            per[i] += 1;
            cnt += 1;
        }
    }
    let mut limit: i8 = 1;
    while cnt > max && limit >= 0 {
        for i in (0..4).rev() {
            while per[i] as i8 > limit && cnt > max {
                per[i] -= 1;
                cnt -= 1;
            }
            if cnt <= max {
                break;
            }
        }
        limit -= 1;
    }
    for (i, f) in CHOW_PAIR_FANS.iter().enumerate() {
        t.put(*f, per[i]);
    }
}

#[inline(never)]
pub(super) fn score_four_chows(m: &[RTile; 4], t: &mut Table) {
    if let Some(f) = four_chows(m) {
        set(t, f);
        return;
    }
    const TRIPLES: [(usize, usize, usize, usize); 4] =
        [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];
    for (i, j, k, s) in TRIPLES {
        if let Some(f) = three_chows(m[i], m[j], m[k]) {
            set(t, f);
            if let Some(e) = spare_chow(m[i], m[j], m[k], m[s]) {
                set(t, e);
            }
            return;
        }
    }
    let found = [
        two_chows(m[0], m[1]),
        two_chows(m[0], m[2]),
        two_chows(m[0], m[3]),
        two_chows(m[1], m[2]),
        two_chows(m[1], m[3]),
        two_chows(m[2], m[3]),
    ];
    let mut max: i8 = 3;
    // A chow related to none of the others lowers the cap by one.
    for (x, y, z) in [(0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5)] {
        if found[x].is_none() && found[y].is_none() && found[z].is_none() {
            max -= 1;
        }
    }
    if max > 0 {
        cap_pair_relations(&found, max as u8, t);
    }
}

pub(super) fn score_three_chows(m: &[RTile; 3], t: &mut Table) {
    if let Some(f) = three_chows(m[0], m[1], m[2]) {
        set(t, f);
        return;
    }
    let found = [
        two_chows(m[0], m[1]),
        two_chows(m[0], m[2]),
        two_chows(m[1], m[2]),
    ];
    cap_pair_relations(&found, 2, t);
}

fn four_pungs(m: &[RTile; 4]) -> Option<Fan> {
    if rtile::is_suited(m[0]) && m[0] + 1 == m[1] && m[1] + 1 == m[2] && m[2] + 1 == m[3] {
        return Some(FOUR_PURE_SHIFTED_PUNGS);
    }
    if *m == [0x41, 0x42, 0x43, 0x44] {
        return Some(BIG_FOUR_WINDS);
    }
    None
}

fn three_pungs(a: RTile, b: RTile, c: RTile) -> Option<Fan> {
    if rtile::is_suited(a) && rtile::is_suited(b) && rtile::is_suited(c) {
        let (ra, rb, rc) = (rtile::rank(a), rtile::rank(b), rtile::rank(c));
        if three_suits(rtile::suit(a), rtile::suit(b), rtile::suit(c)) {
            if shifted1_any(ra, rb, rc) {
                return Some(MIXED_SHIFTED_PUNGS);
            }
            if ra == rb && rb == rc {
                return Some(TRIPLE_PUNG);
            }
        } else if a + 1 == b && b + 1 == c {
            return Some(PURE_SHIFTED_PUNGS);
        }
    } else {
        if rtile::is_wind(a) && rtile::is_wind(b) && rtile::is_wind(c) {
            return Some(BIG_THREE_WINDS);
        }
        if (a, b, c) == (0x45, 0x46, 0x47) {
            return Some(BIG_THREE_DRAGONS);
        }
    }
    None
}

pub(super) fn two_pungs(a: RTile, b: RTile) -> Option<Fan> {
    if rtile::is_suited(a) && rtile::is_suited(b) {
        if rtile::rank(a) == rtile::rank(b) {
            return Some(DOUBLE_PUNG);
        }
    } else if rtile::is_dragon(a) && rtile::is_dragon(b) {
        return Some(TWO_DRAGONS_PUNGS);
    }
    None
}

pub(super) fn score_four_pungs(m: &[RTile; 4], t: &mut Table) {
    if let Some(f) = four_pungs(m) {
        set(t, f);
        return;
    }
    const TRIPLES: [(usize, usize, usize, usize); 4] =
        [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];
    for (i, j, k, s) in TRIPLES {
        if let Some(f) = three_pungs(m[i], m[j], m[k]) {
            set(t, f);
            // The spare pung combines once (account-once).
            for x in [i, j, k] {
                if let Some(g) = two_pungs(m[x].min(m[s]), m[x].max(m[s])) {
                    inc(t, g);
                    break;
                }
            }
            return;
        }
    }
    for (x, y) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        if let Some(g) = two_pungs(m[x], m[y]) {
            inc(t, g);
        }
    }
}

pub(super) fn score_three_pungs(m: &[RTile; 3], t: &mut Table) {
    if let Some(f) = three_pungs(m[0], m[1], m[2]) {
        set(t, f);
        return;
    }
    for (x, y) in [(0, 1), (0, 2), (1, 2)] {
        if let Some(g) = two_pungs(m[x], m[y]) {
            inc(t, g);
        }
    }
}

/// 暗刻 / kong fans from the numbers of concealed pungs, melded kongs and concealed kongs.
pub(super) fn kong_fans(cp: u8, mk: u8, ck: u8, opts: &FanOptions, t: &mut Table) {
    let by_pungs = |t: &mut Table, n: u8| match n {
        2 => set(t, TWO_CONCEALED_PUNGS),
        3 => set(t, THREE_CONCEALED_PUNGS),
        4 => set(t, FOUR_CONCEALED_PUNGS),
        _ => {}
    };
    match mk + ck {
        0 => by_pungs(t, cp),
        1 => {
            if mk == 1 {
                set(t, MELDED_KONG);
                if cp < 4 {
                    by_pungs(t, cp);
                }
            } else {
                set(t, CONCEALED_KONG);
                by_pungs(t, cp + 1);
            }
        }
        2 => match ck {
            0 => {
                set(t, TWO_MELDED_KONGS);
                if cp == 2 {
                    set(t, TWO_CONCEALED_PUNGS);
                }
            }
            1 => {
                if opts.mcr_separate_mixed_kongs {
                    set(t, MELDED_KONG);
                    set(t, CONCEALED_KONG);
                } else {
                    set(t, CONCEALED_KONG_AND_MELDED_KONG);
                }
                if cp <= 2 {
                    by_pungs(t, cp + 1);
                }
            }
            _ => {
                set(t, TWO_CONCEALED_KONGS);
                if cp >= 1 {
                    by_pungs(t, cp + 2);
                }
            }
        },
        3 => {
            set(t, THREE_KONGS);
            match ck {
                1 if cp > 0 => set(t, TWO_CONCEALED_PUNGS),
                2 => by_pungs(t, if cp == 0 { 2 } else { 3 }),
                3 => by_pungs(t, if cp == 0 { 3 } else { 4 }),
                _ => {}
            }
        }
        _ => {
            set(t, FOUR_KONGS);
            if ck >= 2 {
                by_pungs(t, ck);
            }
        }
    }
}

/// The 不计 rules: strikes every fan excluded by a fan present (by the catalog), with
/// the two partial rules done here.
pub fn apply_exclusions(t: &mut Table, opts: &FanOptions) {
    // 四暗刻 implies concealment: a self-drawn one keeps only 自摸.
    if has(t, FOUR_CONCEALED_PUNGS) && has(t, FULLY_CONCEALED_HAND) {
        clear(t, FULLY_CONCEALED_HAND);
        set(t, SELF_DRAWN);
    }
    let mut kill = t.union_over(&EXCLUDE_MASKS);
    if opts.mcr_all_terminals_no_triple_pung && has(t, ALL_TERMINALS) {
        kill |= 1 << TRIPLE_PUNG.0;
    }
    t.clear_all(kill);
    // 三风刻 takes the 幺九刻 of its three wind pungs (already gone under 字一色 / 混幺九).
    if has(t, BIG_THREE_WINDS) && !has(t, ALL_HONORS) && !has(t, ALL_TERMINALS_AND_HONORS) {
        t.put(
            PUNG_OF_TERMINALS_OR_HONORS,
            t.get(PUNG_OF_TERMINALS_OR_HONORS).saturating_sub(3),
        );
    }
}

/// 圈风刻 / 门风刻 for one wind pung; each replaces that pung's 幺九刻.
pub(super) fn wind_pung(tile: RTile, prevalent: u8, seat: u8, t: &mut Table) {
    let deducted = has(t, BIG_THREE_WINDS)
        || has(t, ALL_TERMINALS_AND_HONORS)
        || has(t, ALL_HONORS)
        || has(t, LITTLE_FOUR_WINDS);
    let w = tile - R_EAST;
    let drop_one = |t: &mut Table| {
        t.put(
            PUNG_OF_TERMINALS_OR_HONORS,
            t.get(PUNG_OF_TERMINALS_OR_HONORS).saturating_sub(1),
        );
    };
    if w == prevalent {
        set(t, PREVALENT_WIND);
        if !deducted {
            drop_one(t);
        }
    }
    if w == seat {
        set(t, SEAT_WIND);
        if seat != prevalent && !deducted {
            drop_one(t);
        }
    }
}
