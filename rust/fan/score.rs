//! The detectors: the win-method fans, and scoring one regular
//! decomposition (set fans in [`super::principles`], special forms in [`super::special`]).
//!
//! Each function fills a [`Table`] (count per fan id, [`super::table`]). The order of the steps follows the
//! reference calculator so that every tie and every principle comes out the same way:
//! win-method fans, concealed pungs and kongs, per-pung fans, chow and pung relations
//! (non-identical and account-once), concealed / melded hand, pair fans, set fans, suit
//! fans, tile fans, rank fans, 四归一, waits, the 不计 exclusions, wind pungs, 无番和.

use super::catalog::*;
use super::divide::{self, Division, Pack, CHOW, KONG, PAIR, PUNG};
use super::principles::{
    apply_exclusions, kong_fans, score_four_chows, score_four_pungs, score_three_chows,
    score_three_pungs, two_chows, two_pungs, wind_pung,
};
use super::rtile::{self, Kinds, RTable, RTile};
use super::table::{clear, has, inc, set, Table};
use super::FanOptions;

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
    pub fixed_table: &'a RTable,
    /// Standing tiles with the winning tile.
    pub standing: &'a RTable,
    /// Every tile the player held before the winning tile (hand and melds).
    pub before: &'a RTable,
    /// Every kind of the hand (melds and winning tile included).
    pub kinds: Kinds,
    /// The kinds held four times (melds and winning tile included).
    pub fours: u8,
    /// The fans of the hand's tiles alone ([`Ctx::hand_tiles`]), once found: the same for
    /// every decomposition and both readings of one winning tile.
    pub tiles: std::cell::Cell<Option<HandTiles>>,
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
    /// Tiles that complete the hand before the win, over the regular form and (with no
    /// melds) seven pairs, as [`divide::completing_tiles`] reads them (bit = [`RTile`]):
    /// the winning tile of the first reading that needed them with the first other one
    /// found ([`divide::wait_witness`]), which tells whether any winning tile is the only
    /// one. Found on first use, since many hands never need it; the same for every
    /// winning tile of one waiting hand.
    pub wait: std::cell::Cell<Option<u128>>,
}

impl Ctx<'_> {
    /// True if the standing tiles before the win wait on the winning tile only, over the
    /// regular form and (with no melds) seven pairs.
    pub fn unique_wait(&self) -> bool {
        let set = match self.wait.get() {
            Some(set) => set,
            None => {
                let mut pre = *self.standing;
                pre[self.win as usize] -= 1;
                let dead = self.opts.mcr_exact_waits.then_some(self.before);
                let set = divide::wait_witness(&pre, self.win, self.fixed.is_empty(), dead);
                self.wait.set(Some(set));
                set
            }
        };
        set == 1u128 << self.win
    }

    /// The fans of the hand's tiles alone, found on first use and then shared by every
    /// decomposition and both readings (on a discard, self-drawn).
    pub fn hand_tiles(&self) -> HandTiles {
        match self.tiles.get() {
            Some(tiles) => tiles,
            None => {
                let tiles = HandTiles::of(self.kinds, self.fours);
                self.tiles.set(Some(tiles));
                tiles
            }
        }
    }
}

/// What the tiles of a whole hand score whatever its decomposition: the suit, tile and
/// rank fans of its distinct tiles, and its kinds held four times (for 四归一). Every
/// decomposition of the hand, on a discard or self-drawn, shares them.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandTiles {
    /// The suit, tile and rank fans of the distinct tiles (`suit_fans`, `tile_fans`,
    /// `rank_fans`).
    pub fans: Table,
    /// Kinds with all four copies in the hand (melds included).
    pub fours: u8,
}

impl HandTiles {
    /// The fans of a hand of the kinds `kinds`, `fours` of them held four times.
    pub fn of(kinds: Kinds, fours: u8) -> HandTiles {
        let mut fans = Table::default();
        suit_fans(kinds, &mut fans);
        tile_fans(kinds, &mut fans);
        rank_fans(kinds, &mut fans);
        HandTiles { fans, fours }
    }
}

// ---------------------------------------------------------------- win method --------

pub(super) fn win_flag_fans(flags: WinFlags, t: &mut Table) {
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

// ---------------------------------------------------------------- whole-hand fans ---

/// 门前清 / 不求人 / 全求人 / 自摸 by how many declared melds are exposed.
pub(super) fn concealment_fans(fixed: &[Pack], self_drawn: bool, t: &mut Table) {
    let melded = fixed.iter().filter(|p| p.melded).count();
    match melded {
        0 => set(
            t,
            if self_drawn {
                FULLY_CONCEALED_HAND
            } else {
                CONCEALED_HAND
            },
        ),
        4 => set(t, if self_drawn { SELF_DRAWN } else { MELDED_HAND }),
        _ => {
            if self_drawn {
                set(t, SELF_DRAWN);
            }
        }
    }
}

/// 平和, and the upgrades 双箭刻 → 小三元 and 三风刻 → 小四喜 by the pair.
pub(super) fn pair_fans(pair: RTile, n_chows: usize, t: &mut Table) {
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
pub(super) fn set_content_fans(packs: &Division, t: &mut Table) {
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

/// 无字, 缺一门, 混一色, 清一色, 五门齐, from the kinds of the hand.
pub(super) fn suit_fans(kinds: Kinds, t: &mut Table) {
    let honors = kinds & rtile::HONORS != 0;
    if !honors {
        set(t, NO_HONORS);
    }
    let missing = (1..=3)
        .filter(|&s| kinds & rtile::suit_kinds(s) == 0)
        .count();
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
    if missing == 0 && kinds & rtile::WINDS != 0 && kinds & rtile::DRAGONS != 0 {
        set(t, ALL_TYPES);
    }
}

/// 断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九, from the kinds of the hand.
pub(super) fn tile_fans(kinds: Kinds, t: &mut Table) {
    let outside = rtile::TERMINALS | rtile::HONORS;
    let only = |allowed: Kinds| kinds & !allowed == 0;
    let simples = kinds & outside == 0;
    if simples {
        set(t, ALL_SIMPLES);
    }
    if only(rtile::REVERSIBLE) {
        set(t, REVERSIBLE_TILES);
    }
    if only(rtile::GREEN) {
        set(t, ALL_GREEN);
    }
    if simples {
        return;
    }
    if only(rtile::HONORS) {
        set(t, ALL_HONORS);
    } else if only(rtile::TERMINALS) {
        set(t, ALL_TERMINALS);
    } else if only(outside) {
        set(t, ALL_TERMINALS_AND_HONORS);
    }
}

/// 大于五, 小于五, 全大, 全中, 全小, from the kinds of the hand.
pub(super) fn rank_fans(kinds: Kinds, t: &mut Table) {
    if kinds & rtile::HONORS != 0 {
        return;
    }
    // Bit r - 1 for rank r.
    let ranks = rtile::suited_ranks(kinds);
    if ranks & !0b1111 == 0 {
        set(
            t,
            if ranks & 1 << 3 != 0 {
                LOWER_FOUR
            } else {
                LOWER_TILES
            },
        );
    } else if ranks & !0b1_1110_0000 == 0 {
        set(
            t,
            if ranks & 1 << 5 != 0 {
                UPPER_FOUR
            } else {
                UPPER_TILES
            },
        );
    } else if ranks & !0b11_1000 == 0 {
        set(t, MIDDLE_TILES);
    }
}

/// 四归一: kinds with all four copies in the hand, minus the kongs.
pub(super) fn tile_hog(merged: &RTable, n_kongs: u8, t: &mut Table) {
    let fours = rtile::ALL
        .iter()
        .filter(|&&x| merged[x as usize] == 4)
        .count() as u8;
    t.put(TILE_HOG, fours.saturating_sub(n_kongs));
}

/// 边张 / 嵌张 / 单钓 from the position of the winning tile among the concealed groups
/// (only called when the wait is unique). Edge beats closed beats single.
pub(super) fn wait_fans(concealed: &[Pack], win: RTile, t: &mut Table) {
    if !wait_fan_counts(t) {
        return;
    }
    if let Some(f) = wait_place(concealed, win) {
        set(t, f);
    }
}

/// Whether a wait fan counts beside the fans in `t`: not with 全求人 or 四杠.
fn wait_fan_counts(t: &Table) -> bool {
    !has(t, MELDED_HAND) && !has(t, FOUR_KONGS)
}

/// The wait fan the winning tile's position among the concealed groups would give, if
/// the wait is unique (and the hand neither 全求人 nor 四杠).
fn wait_place(concealed: &[Pack], win: RTile) -> Option<Fan> {
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
        Some(EDGE_WAIT)
    } else if closed {
        Some(CLOSED_WAIT)
    } else if single {
        Some(SINGLE_WAIT)
    } else {
        None
    }
}

// ---------------------------------------------------------------- regular form ------

/// Scores one regular decomposition (declared melds first, pair in slot 4).
pub fn score_regular(packs: &Division, ctx: &Ctx<'_>, t: &mut Table) {
    score_reading(&DivisionFans::of(packs, ctx), ctx, t);
}

/// What one regular decomposition scores whatever the reading (on a discard or
/// self-drawn, with whichever flags): the fans of its sets, pair and tiles, and what the
/// reading needs to finish the count ([`score_reading`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct DivisionFans {
    /// The fans that do not depend on the reading.
    pub fans: Table,
    /// Concealed pungs (a discard may expose one, `exposed_on_discard`).
    pub concealed_pungs: u8,
    /// Concealed pungs of the winning tile a discard completes (it is in no concealed chow).
    pub exposed_on_discard: u8,
    /// Melded kongs.
    pub melded_kongs: u8,
    /// Concealed kongs.
    pub concealed_kongs: u8,
    /// The pungs and kongs (their tiles), the first `n_pungs`.
    pub pungs: [RTile; 4],
    /// Number of pungs and kongs.
    pub n_pungs: u8,
    /// The wait fan the winning tile's place among the concealed groups gives, if the wait
    /// is unique.
    pub wait: Option<Fan>,
}

impl DivisionFans {
    /// The reading-independent fans of `packs`; of `ctx` only the melds, the tiles and the
    /// winning tile are read, never the flags.
    #[inline(never)]
    pub fn of(packs: &Division, ctx: &Ctx<'_>) -> DivisionFans {
        let n_fixed = ctx.fixed.len();
        let mut chows = [0u8; 4];
        let mut pungs = [0u8; 4];
        let (mut nc, mut np) = (0usize, 0usize);
        let (mut cp, mut mk, mut ck) = (0u8, 0u8, 0u8);
        let mut pair = 0u8;
        for p in packs {
            match p.kind {
                CHOW => {
                    chows[nc] = p.tile;
                    nc += 1;
                }
                PUNG | KONG => {
                    pungs[np] = p.tile;
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
        let t = &mut Table::default();
        let exposed_on_discard = exposed_on_discard(packs, win);

        for &x in &pungs[..np] {
            if rtile::is_dragon(x) {
                inc(t, DRAGON_PUNG);
            } else if rtile::is_terminal(x) || rtile::is_wind(x) {
                inc(t, PUNG_OF_TERMINALS_OR_HONORS);
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

        pair_fans(pair, nc, t);
        set_content_fans(packs, t);
        // The suit, tile and rank fans: no step above sets any of them, and none of them
        // reads the table.
        let tiles = ctx.hand_tiles();
        t.merge(&tiles.fans);
        if !has(t, QUADRUPLE_CHOW) {
            // 四归一: kinds with all four copies in the hand, minus the kongs.
            t.put(TILE_HOG, tiles.fours.saturating_sub(mk + ck));
        }
        DivisionFans {
            fans: *t,
            concealed_pungs: cp,
            exposed_on_discard,
            melded_kongs: mk,
            concealed_kongs: ck,
            pungs,
            n_pungs: np as u8,
            wait: wait_place(&packs[n_fixed..], win),
        }
    }

    /// The fans of the same decomposition `packs` (of the same tiles and `n_fixed`
    /// declared melds) won with the tile `win` instead: only the pungs a discard exposes
    /// and the wait's place depend on the winning tile, so this equals
    /// [`DivisionFans::of`] with `win` as the context's winning tile.
    pub fn with_win(&self, packs: &Division, n_fixed: usize, win: RTile) -> DivisionFans {
        DivisionFans {
            exposed_on_discard: exposed_on_discard(packs, win),
            wait: wait_place(&packs[n_fixed..], win),
            ..*self
        }
    }
}

/// The concealed pungs and kongs of the winning tile `win` in `packs` that a discard
/// completes (and so exposes): none when `win` can be read as part of a concealed chow
/// of the decomposition.
fn exposed_on_discard(packs: &Division, win: RTile) -> u8 {
    let in_chow = packs.iter().any(|p| {
        p.kind == CHOW && !p.melded && (p.tile == win || p.tile + 1 == win || p.tile == win + 1)
    });
    if in_chow {
        return 0;
    }
    packs
        .iter()
        .filter(|p| (p.kind == PUNG || p.kind == KONG) && p.tile == win && !p.melded)
        .count() as u8
}

/// Finishes the count of one decomposition for the reading of `ctx` (its flags): the
/// win-method, concealed-pung, kong and concealment fans, the unique wait, the 不计
/// exclusions, the wind pungs and 无番和. None of the fans [`DivisionFans::of`] sets is set
/// here, and what each step reads is set before it, so the count equals the steps in the
/// reference order.
#[inline(never)]
pub fn score_reading(d: &DivisionFans, ctx: &Ctx<'_>, t: &mut Table) {
    *t = d.fans;
    win_flag_fans(ctx.flags, t);
    let mut cp = d.concealed_pungs;
    if !ctx.flags.self_drawn {
        cp = cp.saturating_sub(d.exposed_on_discard);
    }
    let pungs = &d.pungs[..d.n_pungs as usize];
    if !pungs.is_empty() {
        kong_fans(cp, d.melded_kongs, d.concealed_kongs, ctx.opts, t);
        if pungs.len() == 4 && !has(t, FOUR_KONGS) && !has(t, FOUR_CONCEALED_PUNGS) {
            set(t, ALL_PUNGS);
        }
    }
    concealment_fans(ctx.fixed, ctx.flags.self_drawn, t);
    if let Some(f) = d.wait {
        if wait_fan_counts(t) && ctx.unique_wait() {
            set(t, f);
        }
    }
    apply_exclusions(t, ctx.opts);
    if !has(t, BIG_FOUR_WINDS) {
        for &x in pungs {
            if rtile::is_wind(x) {
                wind_pung(x, ctx.prevalent, ctx.seat, t);
            }
        }
    }
    if t.is_empty() {
        set(t, CHICKEN_HAND);
    }
}

#[inline(never)]
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

#[inline(never)]
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
    (1..=3)
        .filter(|&s| s != rtile::suit(pair) as usize)
        .all(|s| low[s] > 0 && high[s] > 0)
}
