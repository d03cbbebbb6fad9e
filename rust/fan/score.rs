//! The detectors: scoring one decomposition, the special forms (seven pairs, thirteen
//! orphans, the knitted forms, nine gates) and the combination principles.
//!
//! Each function fills a [`Table`] (count per fan id). The order of the steps follows the
//! reference calculator so that every tie and every principle comes out the same way:
//! win-method fans, concealed pungs and kongs, per-pung fans, chow and pung relations
//! (non-identical and account-once), concealed / melded hand, pair fans, set fans, suit
//! fans, tile fans, rank fans, 四归一, waits, the 不计 exclusions, wind pungs, 无番和.

use super::catalog::*;
use super::divide::{self, Division, Pack, CHOW, KONG, PAIR, PUNG};
use super::rtile::{self, RTable, RTile, R_EAST};
use super::FanOptions;

/// Count per fan id, with a bit mask of the nonzero entries so that totals, exclusions
/// and listings visit only the fans present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    counts: [u8; N_FANS],
    mask: u128,
}

impl Default for Table {
    fn default() -> Self {
        Table { counts: [0; N_FANS], mask: 0 }
    }
}

impl Table {
    /// Count of fan `f`.
    #[inline]
    pub fn get(&self, f: Fan) -> u8 {
        self.counts[f.0 as usize % N_FANS]
    }
    /// Sets the count of fan `f`.
    #[inline]
    pub fn put(&mut self, f: Fan, n: u8) {
        let i = f.0 as usize % N_FANS;
        self.counts[i] = n;
        if n == 0 {
            self.mask &= !(1u128 << i);
        } else {
            self.mask |= 1u128 << i;
        }
    }
    /// True if no fan is present.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }
    /// The fans present, in id order, with their counts.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        let mut m = self.mask;
        std::iter::from_fn(move || {
            if m == 0 {
                return None;
            }
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some((Fan(i as u8), self.counts[i]))
        })
    }
}

/// How the hand was won, after the flag corrections.
#[derive(Debug, Clone, Copy, Default)]
pub struct WinFlags {
    /// Won on a self-drawn tile.
    pub self_drawn: bool,
    /// The winning tile is the last copy (和绝张).
    pub fourth_tile: bool,
    /// Kong replacement (self-drawn) or robbing a kong (discard).
    pub about_kong: bool,
    /// Last tile of the wall (self-drawn) or the discard after it.
    pub wall_last: bool,
}

/// What every detector needs to know about the hand.
pub struct Ctx<'a> {
    /// Declared melds.
    pub fixed: &'a [Pack],
    /// Tiles of the declared melds.
    pub fixed_table: RTable,
    /// Standing tiles with the winning tile.
    pub standing: RTable,
    /// `standing` plus `fixed_table`: every tile of the hand.
    pub merged: RTable,
    /// Every distinct tile of the hand, in scoring order.
    pub unique: [RTile; 18],
    /// Number of entries in `unique`.
    pub n_unique: usize,
    /// The winning tile.
    pub win: RTile,
    /// Corrected flags.
    pub flags: WinFlags,
    /// Seat wind 0-3.
    pub seat: u8,
    /// Prevalent wind 0-3.
    pub prevalent: u8,
    /// Scoring options.
    pub opts: &'a FanOptions,
}

impl Ctx<'_> {
    #[inline]
    fn uniques(&self) -> &[RTile] {
        &self.unique[..self.n_unique]
    }
    /// Every tile the player held before the winning tile (hand and melds).
    pub fn held_before_win(&self) -> RTable {
        let mut h = self.merged;
        h[self.win as usize] -= 1;
        h
    }
}

/// Sum of points of a table.
pub fn points(t: &Table) -> u32 {
    t.iter().map(|(f, c)| POINTS[f.0 as usize] as u32 * c as u32).sum()
}

#[inline]
fn set(t: &mut Table, f: Fan) {
    t.put(f, 1);
}
#[inline]
fn inc(t: &mut Table, f: Fan) {
    t.put(f, t.get(f).saturating_add(1));
}
#[inline]
fn has(t: &Table, f: Fan) -> bool {
    t.get(f) != 0
}
#[inline]
fn clear(t: &mut Table, f: Fan) {
    t.put(f, 0);
}

// ---------------------------------------------------------------- win method --------

fn win_flag_fans(flags: WinFlags, t: &mut Table) {
    if flags.fourth_tile {
        set(t, LAST_TILE);
    }
    if flags.self_drawn {
        set(t, SELF_DRAWN);
        if flags.wall_last {
            set(t, LAST_TILE_DRAW);
            clear(t, SELF_DRAWN);
        }
        if flags.about_kong {
            set(t, OUT_WITH_REPLACEMENT_TILE);
            clear(t, SELF_DRAWN);
        }
    } else {
        if flags.wall_last {
            set(t, LAST_TILE_CLAIM);
        }
        if flags.about_kong {
            set(t, ROBBING_THE_KONG);
            clear(t, LAST_TILE);
        }
    }
}

// ---------------------------------------------------------------- set relations -----

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
fn two_chows(a: RTile, b: RTile) -> Option<Fan> {
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
    let found = [two_chows(a, spare), two_chows(b, spare), two_chows(c, spare)];
    [PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS]
        .into_iter()
        .find(|f| found.contains(&Some(*f)))
}

/// The four 1-fan chow relations in table order.
const CHOW_PAIR_FANS: [Fan; 4] = [PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS];

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

fn score_four_chows(m: &[RTile; 4], t: &mut Table) {
    if let Some(f) = four_chows(m) {
        set(t, f);
        return;
    }
    const TRIPLES: [(usize, usize, usize, usize); 4] = [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];
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

fn score_three_chows(m: &[RTile; 3], t: &mut Table) {
    if let Some(f) = three_chows(m[0], m[1], m[2]) {
        set(t, f);
        return;
    }
    let found = [two_chows(m[0], m[1]), two_chows(m[0], m[2]), two_chows(m[1], m[2])];
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

fn two_pungs(a: RTile, b: RTile) -> Option<Fan> {
    if rtile::is_suited(a) && rtile::is_suited(b) {
        if rtile::rank(a) == rtile::rank(b) {
            return Some(DOUBLE_PUNG);
        }
    } else if rtile::is_dragon(a) && rtile::is_dragon(b) {
        return Some(TWO_DRAGONS_PUNGS);
    }
    None
}

fn score_four_pungs(m: &[RTile; 4], t: &mut Table) {
    if let Some(f) = four_pungs(m) {
        set(t, f);
        return;
    }
    const TRIPLES: [(usize, usize, usize, usize); 4] = [(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)];
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

fn score_three_pungs(m: &[RTile; 3], t: &mut Table) {
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
fn kong_fans(cp: u8, mk: u8, ck: u8, opts: &FanOptions, t: &mut Table) {
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

// ---------------------------------------------------------------- whole-hand fans ---

/// 门前清 / 不求人 / 全求人 / 自摸 by how many declared melds are exposed.
fn concealment_fans(fixed: &[Pack], self_drawn: bool, t: &mut Table) {
    let melded = fixed.iter().filter(|p| p.melded).count();
    match melded {
        0 => set(t, if self_drawn { FULLY_CONCEALED_HAND } else { CONCEALED_HAND }),
        4 => set(t, if self_drawn { SELF_DRAWN } else { MELDED_HAND }),
        _ => {
            if self_drawn {
                set(t, SELF_DRAWN);
            }
        }
    }
}

/// 平和, and the upgrades 双箭刻 → 小三元 and 三风刻 → 小四喜 by the pair.
fn pair_fans(pair: RTile, n_chows: usize, t: &mut Table) {
    if n_chows == 4 {
        if rtile::is_suited(pair) {
            set(t, ALL_CHOWS);
        }
        return;
    }
    if has(t, TWO_DRAGONS_PUNGS) {
        if rtile::is_dragon(pair) {
            set(t, LITTLE_THREE_DRAGONS);
            clear(t, TWO_DRAGONS_PUNGS);
        }
        return;
    }
    if has(t, BIG_THREE_WINDS) && rtile::is_wind(pair) {
        set(t, LITTLE_FOUR_WINDS);
        clear(t, BIG_THREE_WINDS);
    }
}

/// 全带幺, 全带五, 全双刻: what every set and the pair contain.
fn set_content_fans(packs: &Division, t: &mut Table) {
    let (mut outside, mut five, mut even) = (0, 0, 0);
    for p in packs {
        if rtile::is_suited(p.tile) {
            let r = rtile::rank(p.tile);
            if p.kind == CHOW {
                match r {
                    2 | 8 => outside += 1,
                    4..=6 => five += 1,
                    _ => {}
                }
            } else {
                match r {
                    1 | 9 => outside += 1,
                    5 => five += 1,
                    2 | 4 | 6 | 8 => even += 1,
                    _ => {}
                }
            }
        } else {
            outside += 1;
        }
    }
    if outside == 5 {
        set(t, OUTSIDE_HAND);
    } else if five == 5 {
        set(t, ALL_FIVE);
    } else if even == 5 {
        set(t, ALL_EVEN_PUNGS);
    }
}

/// 无字, 缺一门, 混一色, 清一色, 五门齐.
fn suit_fans(tiles: &[RTile], t: &mut Table) {
    let mut flags = 0u8;
    for &x in tiles {
        flags |= 1 << rtile::suit(x);
    }
    let honors = flags & (1 << 4) != 0;
    if !honors {
        set(t, NO_HONORS);
    }
    let missing = (1..=3).filter(|s| flags & (1 << s) == 0).count();
    if missing == 1 {
        set(t, ONE_VOIDED_SUIT);
    } else if missing == 2 {
        if honors {
            set(t, HALF_FLUSH);
        } else {
            set(t, FULL_FLUSH);
            clear(t, NO_HONORS);
        }
    }
    if flags == 0b1_1110 && tiles.iter().any(|&x| rtile::is_wind(x)) && tiles.iter().any(|&x| rtile::is_dragon(x)) {
        set(t, ALL_TYPES);
    }
}

/// 断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九.
fn tile_fans(tiles: &[RTile], t: &mut Table) {
    let simples = !tiles.iter().any(|&x| rtile::is_terminal_or_honor(x));
    if simples {
        set(t, ALL_SIMPLES);
    }
    if tiles.iter().all(|&x| rtile::is_reversible(x)) {
        set(t, REVERSIBLE_TILES);
    }
    if tiles.iter().all(|&x| rtile::is_green(x)) {
        set(t, ALL_GREEN);
    }
    if simples {
        return;
    }
    if tiles.iter().all(|&x| rtile::is_honor(x)) {
        set(t, ALL_HONORS);
    } else if tiles.iter().all(|&x| rtile::is_terminal(x)) {
        set(t, ALL_TERMINALS);
    } else if tiles.iter().all(|&x| rtile::is_terminal_or_honor(x)) {
        set(t, ALL_TERMINALS_AND_HONORS);
    }
}

/// 大于五, 小于五, 全大, 全中, 全小.
fn rank_fans(tiles: &[RTile], t: &mut Table) {
    let mut ranks = 0u16;
    for &x in tiles {
        if !rtile::is_suited(x) {
            return;
        }
        ranks |= 1 << rtile::rank(x);
    }
    if ranks & !0b1_1110 == 0 {
        set(t, if ranks & (1 << 4) != 0 { LOWER_FOUR } else { LOWER_TILES });
    } else if ranks & !0b11_1100_0000 == 0 {
        set(t, if ranks & (1 << 6) != 0 { UPPER_FOUR } else { UPPER_TILES });
    } else if ranks & !0b111_0000 == 0 {
        set(t, MIDDLE_TILES);
    }
}

/// 四归一: kinds with all four copies in the hand, minus the kongs.
fn tile_hog(merged: &RTable, n_kongs: u8, t: &mut Table) {
    let fours = rtile::ALL.iter().filter(|&&x| merged[x as usize] == 4).count() as u8;
    t.put(TILE_HOG, fours.saturating_sub(n_kongs));
}

/// 边张 / 嵌张 / 单钓 from the position of the winning tile among the concealed groups
/// (only called when the wait is unique). Edge beats closed beats single.
fn wait_fans(concealed: &[Pack], win: RTile, t: &mut Table) {
    if has(t, MELDED_HAND) || has(t, FOUR_KONGS) {
        return;
    }
    let (mut edge, mut closed, mut single) = (false, false, false);
    for p in concealed {
        match p.kind {
            CHOW => {
                if p.tile == win {
                    closed = true;
                } else if p.tile + 1 == win || p.tile == win + 1 {
                    edge = true;
                }
            }
            PAIR if p.tile == win => single = true,
            _ => {}
        }
    }
    if edge {
        set(t, EDGE_WAIT);
    } else if closed {
        set(t, CLOSED_WAIT);
    } else if single {
        set(t, SINGLE_WAIT);
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
    let mut kill = 0u128;
    for (f, _) in t.iter() {
        kill |= EXCLUDE_MASKS[f.0 as usize];
    }
    if opts.mcr_all_terminals_no_triple_pung && has(t, ALL_TERMINALS) {
        kill |= 1 << TRIPLE_PUNG.0;
    }
    kill &= t.mask;
    while kill != 0 {
        let i = kill.trailing_zeros() as usize;
        t.put(Fan(i as u8), 0);
        kill &= kill - 1;
    }
    // 三风刻 takes the 幺九刻 of its three wind pungs (already gone under 字一色 / 混幺九).
    if has(t, BIG_THREE_WINDS) && !has(t, ALL_HONORS) && !has(t, ALL_TERMINALS_AND_HONORS) {
        t.put(PUNG_OF_TERMINALS_OR_HONORS, t.get(PUNG_OF_TERMINALS_OR_HONORS).saturating_sub(3));
    }
}

/// 圈风刻 / 门风刻 for one wind pung; each replaces that pung's 幺九刻.
fn wind_pung(tile: RTile, prevalent: u8, seat: u8, t: &mut Table) {
    let deducted = has(t, BIG_THREE_WINDS) || has(t, ALL_TERMINALS_AND_HONORS) || has(t, ALL_HONORS) || has(t, LITTLE_FOUR_WINDS);
    let w = tile - R_EAST;
    let drop_one = |t: &mut Table| {
        t.put(PUNG_OF_TERMINALS_OR_HONORS, t.get(PUNG_OF_TERMINALS_OR_HONORS).saturating_sub(1));
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

// ---------------------------------------------------------------- regular form ------

/// Scores one regular decomposition (declared melds first, pair in slot 4).
pub fn score_regular(packs: &Division, ctx: &Ctx<'_>, unique_wait: bool, t: &mut Table) {
    let n_fixed = ctx.fixed.len();
    let mut chows = [0u8; 4];
    let mut pungs = [0u8; 4];
    let mut pung_melded = [false; 4];
    let (mut nc, mut np) = (0usize, 0usize);
    let (mut cp, mut mk, mut ck) = (0u8, 0u8, 0u8);
    let mut pair = 0u8;
    let mut chow_concealed = [false; 4];
    for p in packs {
        match p.kind {
            CHOW => {
                chows[nc] = p.tile;
                chow_concealed[nc] = !p.melded;
                nc += 1;
            }
            PUNG | KONG => {
                pungs[np] = p.tile;
                pung_melded[np] = p.melded;
                np += 1;
                if p.kind == PUNG {
                    if !p.melded {
                        cp += 1;
                    }
                } else if p.melded {
                    mk += 1;
                } else {
                    ck += 1;
                }
            }
            _ => pair = p.tile,
        }
    }
    let win = ctx.win;
    win_flag_fans(ctx.flags, t);

    // A discard completes a pung (making it exposed) unless it can be read as part of a
    // concealed chow of this decomposition.
    if !ctx.flags.self_drawn {
        let in_chow = (0..nc).any(|i| chow_concealed[i] && (chows[i] == win || chows[i] + 1 == win || chows[i] == win + 1));
        if !in_chow {
            for i in 0..np {
                if pungs[i] == win && !pung_melded[i] {
                    cp = cp.saturating_sub(1);
                }
            }
        }
    }

    if np > 0 {
        kong_fans(cp, mk, ck, ctx.opts, t);
        if np == 4 && !has(t, FOUR_KONGS) && !has(t, FOUR_CONCEALED_PUNGS) {
            set(t, ALL_PUNGS);
        }
        for &x in &pungs[..np] {
            if rtile::is_dragon(x) {
                inc(t, DRAGON_PUNG);
            } else if rtile::is_terminal(x) || rtile::is_wind(x) {
                inc(t, PUNG_OF_TERMINALS_OR_HONORS);
            }
        }
    }

    match nc {
        4 => {
            if three_suited_terminal_chows(&chows, pair) {
                set(t, THREE_SUITED_TERMINAL_CHOWS);
            } else if pure_terminal_chows(&chows, pair) {
                set(t, PURE_TERMINAL_CHOWS);
            } else {
                let mut m = chows;
                m.sort_unstable();
                score_four_chows(&m, t);
            }
        }
        3 => {
            let mut m = [chows[0], chows[1], chows[2]];
            m.sort_unstable();
            score_three_chows(&m, t);
        }
        2 => {
            if let Some(f) = two_chows(chows[0], chows[1]) {
                inc(t, f);
            }
            if let Some(f) = two_pungs(pungs[0].min(pungs[1]), pungs[0].max(pungs[1])) {
                inc(t, f);
            }
        }
        1 => {
            let mut m = [pungs[0], pungs[1], pungs[2]];
            m.sort_unstable();
            score_three_pungs(&m, t);
        }
        _ => {
            let mut m = pungs;
            m.sort_unstable();
            score_four_pungs(&m, t);
        }
    }

    concealment_fans(ctx.fixed, ctx.flags.self_drawn, t);
    pair_fans(pair, nc, t);
    set_content_fans(packs, t);
    suit_fans(ctx.uniques(), t);
    tile_fans(ctx.uniques(), t);
    rank_fans(ctx.uniques(), t);
    if !has(t, QUADRUPLE_CHOW) {
        tile_hog(&ctx.merged, mk + ck, t);
    }
    if unique_wait {
        wait_fans(&packs[n_fixed..], win, t);
    }
    apply_exclusions(t, ctx.opts);
    if !has(t, BIG_FOUR_WINDS) {
        for &x in &pungs[..np] {
            if rtile::is_wind(x) {
                wind_pung(x, ctx.prevalent, ctx.seat, t);
            }
        }
    }
    if t.is_empty() {
        set(t, CHICKEN_HAND);
    }
}

fn pure_terminal_chows(chows: &[RTile; 4], pair: RTile) -> bool {
    if !rtile::is_suited(pair) || rtile::rank(pair) != 5 {
        return false;
    }
    let (mut low, mut high) = (0, 0);
    for &c in chows {
        if rtile::suit(c) != rtile::suit(pair) {
            return false;
        }
        match rtile::rank(c) {
            2 => low += 1,
            8 => high += 1,
            _ => return false,
        }
    }
    low == 2 && high == 2
}

fn three_suited_terminal_chows(chows: &[RTile; 4], pair: RTile) -> bool {
    if !rtile::is_suited(pair) || rtile::rank(pair) != 5 {
        return false;
    }
    let mut low = [0u8; 5];
    let mut high = [0u8; 5];
    for &c in chows {
        let s = rtile::suit(c) as usize;
        if s == rtile::suit(pair) as usize {
            return false;
        }
        match rtile::rank(c) {
            2 => low[s] += 1,
            8 => high[s] += 1,
            _ => return false,
        }
    }
    (1..=3).filter(|&s| s != rtile::suit(pair) as usize).all(|s| low[s] > 0 && high[s] > 0)
}

// ---------------------------------------------------------------- special forms -----

/// The six knitted straights (147 / 258 / 369 over the three suits), in reference order.
const KNITTED: [[RTile; 9]; 6] = [
    [0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39],
    [0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38],
    [0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39],
    [0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37],
    [0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38],
    [0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37],
];

const ORPHANS: [RTile; 13] = [0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47];

fn has_pair(table: &RTable) -> bool {
    rtile::ALL.iter().any(|&x| table[x as usize] >= 2)
}

/// 七对 / 连七对, 全不靠 / 七星不靠, 十三幺 (no declared melds).
pub fn score_special(ctx: &Ctx<'_>, t: &mut Table) -> bool {
    let st = &ctx.standing;
    if rtile::ALL.iter().all(|&x| st[x as usize] % 2 == 0) {
        let s = rtile::suit(ctx.win);
        if s <= 3 && seven_shifted(st, s) {
            set(t, SEVEN_SHIFTED_PAIRS);
            if st[(s << 4 | 1) as usize] == 0 && st[(s << 4 | 9) as usize] == 0 {
                set(t, ALL_SIMPLES);
            }
            win_flag_fans(ctx.flags, t);
        } else {
            set(t, SEVEN_PAIRS);
            suit_fans(ctx.uniques(), t);
            tile_fans(ctx.uniques(), t);
            rank_fans(ctx.uniques(), t);
            tile_hog(st, 0, t);
            win_flag_fans(ctx.flags, t);
            apply_exclusions(t, ctx.opts);
        }
        return true;
    }
    if honors_and_knitted(ctx.uniques(), t) {
        win_flag_fans(ctx.flags, t);
        return true;
    }
    if ctx.uniques() == ORPHANS {
        set(t, THIRTEEN_ORPHANS);
        win_flag_fans(ctx.flags, t);
        return true;
    }
    false
}

fn seven_shifted(st: &RTable, s: u8) -> bool {
    let t3 = (s << 4 | 3) as usize;
    if (0..5).all(|k| st[t3 + k] == 2) {
        if st[t3 - 1] == 2 {
            return st[t3 - 2] == 2 || st[t3 + 5] == 2;
        }
        return st[t3 + 5] == 2 && st[t3 + 6] == 2;
    }
    false
}

fn honors_and_knitted(uniques: &[RTile], t: &mut Table) -> bool {
    if uniques.len() != 14 {
        return false;
    }
    let suited = uniques.iter().take_while(|&&x| rtile::is_suited(x)).count();
    if !(7..=9).contains(&suited) {
        return false;
    }
    let knitted = KNITTED.iter().any(|seq| uniques[..suited].iter().all(|x| seq.contains(x)));
    if !knitted {
        return false;
    }
    if suited == 7 {
        set(t, GREATER_HONORS_AND_KNITTED_TILES);
    } else {
        set(t, LESSER_HONORS_AND_KNITTED_TILES);
        if suited == 9 {
            set(t, KNITTED_STRAIGHT);
        }
    }
    true
}

/// 组合龙 with one more set and a pair (no melds, or one declared meld as the set).
pub fn score_knitted_straight(ctx: &Ctx<'_>, t: &mut Table) -> bool {
    if !has_pair(&ctx.standing) {
        return false;
    }
    let Some(seq) = KNITTED.iter().find(|seq| seq.iter().all(|&x| ctx.standing[x as usize] > 0)) else {
        return false;
    };
    let mut rest = ctx.standing;
    for &x in seq {
        rest[x as usize] -= 1;
    }
    // The knitted tiles stand for three sets; what is left is the fourth set and the pair.
    let mut fixed = [Pack::default(); 4];
    let n = 3 + ctx.fixed.len();
    if ctx.fixed.len() == 1 {
        fixed[3] = ctx.fixed[0];
    }
    let mut divs = divide::Divisions::new();
    let mut work = rest;
    divide::divide(&mut work, &fixed[..n], &mut divs);
    if divs.len != 1 {
        return false;
    }
    let packs = divs.items[0];
    let fourth = packs[3];
    let pair = packs[4].tile;
    let fx = &ctx.fixed_table;
    let st = &ctx.standing;

    set(t, KNITTED_STRAIGHT);
    if fourth.kind == CHOW {
        if rtile::is_suited(pair) {
            set(t, ALL_CHOWS);
        }
        if fx[pair as usize] + st[pair as usize] == 4 {
            set(t, TILE_HOG);
        }
    } else {
        let x = fourth.tile;
        if rtile::is_honor(x) {
            if rtile::is_wind(x) {
                set(t, PUNG_OF_TERMINALS_OR_HONORS);
                wind_pung(x, ctx.prevalent, ctx.seat, t);
                if rtile::is_dragon(pair) {
                    set(t, ALL_TYPES);
                }
            } else {
                set(t, DRAGON_PUNG);
                if rtile::is_wind(pair) {
                    set(t, ALL_TYPES);
                }
            }
        } else {
            if rtile::is_terminal(x) {
                set(t, PUNG_OF_TERMINALS_OR_HONORS);
            }
            if !rtile::is_honor(pair) {
                set(t, NO_HONORS);
            }
            if fourth.kind != KONG && fx[x as usize] + st[x as usize] == 4 {
                set(t, TILE_HOG);
            }
        }
    }
    win_flag_fans(ctx.flags, t);
    if fourth.melded {
        if fourth.kind == KONG {
            set(t, MELDED_KONG);
        }
    } else {
        if fourth.kind == KONG {
            set(t, CONCEALED_KONG);
        }
        if ctx.flags.self_drawn {
            set(t, FULLY_CONCEALED_HAND);
            clear(t, SELF_DRAWN);
        } else {
            set(t, CONCEALED_HAND);
        }
    }
    // Waits are read on the fourth set and the pair, whenever the winning tile can be
    // placed there, even if it also belongs to the knitted straight. With a declared meld
    // the tiles left beside the knitted straight are just the pair: a single wait.
    if rest[ctx.win as usize] > 0 {
        if ctx.fixed.is_empty() {
            let mut rem = rest;
            rem[ctx.win as usize] -= 1;
            let held = ctx.held_before_win();
            let dead = ctx.opts.mcr_exact_waits.then_some(&held);
            if divide::is_unique_wait(&mut rem, ctx.win, false, dead) {
                wait_fans(&packs[3..5], ctx.win, t);
            }
        } else {
            set(t, SINGLE_WAIT);
        }
    }
    apply_exclusions(t, ctx.opts);
    true
}

/// 九莲宝灯 (no melds), with the reference's fixed extras by winning rank.
pub fn score_nine_gates(ctx: &Ctx<'_>, t: &mut Table) -> bool {
    let st = &ctx.standing;
    let w = ctx.win;
    let s = rtile::suit(w);
    if s > 3 {
        return false;
    }
    let r = rtile::rank(w);
    let at = |k: u8| st[(s << 4 | k) as usize];
    let ok = match r {
        1 => at(1) == 4 && at(9) == 3 && (2..9).all(|k| at(k) == 1),
        9 => at(9) == 4 && at(1) == 3 && (2..9).all(|k| at(k) == 1),
        _ => at(r) == 2 && at(1) == 3 && at(9) == 3 && (2..9).filter(|&k| k != r).all(|k| at(k) == 1),
    };
    if !ok {
        return false;
    }
    set(t, NINE_GATES);
    match r {
        1 | 9 => {
            set(t, PURE_STRAIGHT);
            set(t, TILE_HOG);
        }
        2 | 8 => {
            set(t, TWO_CONCEALED_PUNGS);
            set(t, SHORT_STRAIGHT);
            set(t, PUNG_OF_TERMINALS_OR_HONORS);
        }
        5 => {
            set(t, TWO_CONCEALED_PUNGS);
            set(t, PUNG_OF_TERMINALS_OR_HONORS);
        }
        _ => set(t, SHORT_STRAIGHT),
    }
    win_flag_fans(ctx.flags, t);
    true
}
