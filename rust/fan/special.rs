//! The special forms: seven pairs and seven shifted pairs, thirteen orphans, lesser and
//! greater honors and knitted tiles, the knitted straight with a set and a pair, and nine
//! gates.

use super::catalog::*;
use super::divide::{self, Pack, CHOW, KONG};
use super::principles::{apply_exclusions, wind_pung};
use super::rtile::{self, Kinds, RTable, RTile};
use super::score::{rank_fans, suit_fans, tile_fans, tile_hog, wait_fans, win_flag_fans, Ctx};
use super::table::{clear, set, Table};

/// The six knitted straights (147 / 258 / 369 over the three suits), in reference order.
const KNITTED: [[RTile; 9]; 6] = [
    [0x11, 0x14, 0x17, 0x22, 0x25, 0x28, 0x33, 0x36, 0x39],
    [0x11, 0x14, 0x17, 0x23, 0x26, 0x29, 0x32, 0x35, 0x38],
    [0x12, 0x15, 0x18, 0x21, 0x24, 0x27, 0x33, 0x36, 0x39],
    [0x12, 0x15, 0x18, 0x23, 0x26, 0x29, 0x31, 0x34, 0x37],
    [0x13, 0x16, 0x19, 0x21, 0x24, 0x27, 0x32, 0x35, 0x38],
    [0x13, 0x16, 0x19, 0x22, 0x25, 0x28, 0x31, 0x34, 0x37],
];

/// The kinds of each knitted straight.
const KNITTED_KINDS: [Kinds; 6] = {
    let mut m = [0; 6];
    let mut i = 0;
    while i < 6 {
        m[i] = rtile::kinds_of(&KNITTED[i]);
        i += 1;
    }
    m
};

/// The thirteen orphans.
const ORPHANS: Kinds = rtile::kinds_of(&[
    0x11, 0x19, 0x21, 0x29, 0x31, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
]);

fn has_pair(table: &RTable) -> bool {
    rtile::ALL.iter().any(|&x| table[x as usize] >= 2)
}

/// 七对 / 连七对, 全不靠 / 七星不靠, 十三幺 (no declared melds).
#[inline(never)]
pub fn score_special(ctx: &Ctx<'_>, t: &mut Table) -> bool {
    let st = ctx.standing;
    // Fourteen tiles all held an even number of times are of seven kinds at most.
    if ctx.kinds.count_ones() <= 7 && rtile::ALL.iter().all(|&x| st[x as usize] % 2 == 0) {
        let s = rtile::suit(ctx.win);
        if s <= 3 && seven_shifted(st, s) {
            set(t, SEVEN_SHIFTED_PAIRS);
            if st[(s << 4 | 1) as usize] == 0 && st[(s << 4 | 9) as usize] == 0 {
                set(t, ALL_SIMPLES);
            }
            win_flag_fans(ctx.flags, t);
        } else {
            set(t, SEVEN_PAIRS);
            suit_fans(ctx.kinds, t);
            tile_fans(ctx.kinds, t);
            rank_fans(ctx.kinds, t);
            tile_hog(st, 0, t);
            win_flag_fans(ctx.flags, t);
            apply_exclusions(t, ctx.opts);
        }
        return true;
    }
    if honors_and_knitted(ctx.kinds, t) {
        win_flag_fans(ctx.flags, t);
        return true;
    }
    if ctx.kinds == ORPHANS {
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

fn honors_and_knitted(kinds: Kinds, t: &mut Table) -> bool {
    if kinds.count_ones() != 14 {
        return false;
    }
    let suited = kinds & rtile::SUITED;
    let n_suited = suited.count_ones();
    if !(7..=9).contains(&n_suited) {
        return false;
    }
    if !KNITTED_KINDS.iter().any(|&seq| suited & !seq == 0) {
        return false;
    }
    if n_suited == 7 {
        set(t, GREATER_HONORS_AND_KNITTED_TILES);
    } else {
        set(t, LESSER_HONORS_AND_KNITTED_TILES);
        if n_suited == 9 {
            set(t, KNITTED_STRAIGHT);
        }
    }
    true
}

/// 组合龙 with one more set and a pair (no melds, or one declared meld as the set).
pub fn score_knitted_straight(ctx: &Ctx<'_>, t: &mut Table) -> bool {
    // The hand's kinds hold those of some knitted straight first (a cheaper test).
    if !KNITTED_KINDS.iter().any(|&seq| seq & !ctx.kinds == 0) || !has_pair(ctx.standing) {
        return false;
    }
    let Some(seq) = KNITTED
        .iter()
        .find(|seq| seq.iter().all(|&x| ctx.standing[x as usize] > 0))
    else {
        return false;
    };
    let mut rest = *ctx.standing;
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
    let fx = ctx.fixed_table;
    let st = ctx.standing;

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
    // placed there, even if it also belongs to the knitted straight (unless
    // `wait_fans_on_knitted_tile` is off, B-5). With a declared meld the tiles left beside
    // the knitted straight are just the pair: a single wait.
    let knitted_tile = seq.contains(&ctx.win);
    if rest[ctx.win as usize] > 0 && (ctx.opts.wait_fans_on_knitted_tile || !knitted_tile) {
        if ctx.fixed.is_empty() {
            let mut rem = rest;
            rem[ctx.win as usize] -= 1;
            let dead = ctx.opts.mcr_exact_waits.then_some(ctx.before);
            if divide::is_unique_wait(&rem, ctx.win, false, dead) {
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
    let st = ctx.standing;
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
        _ => {
            at(r) == 2 && at(1) == 3 && at(9) == 3 && (2..9).filter(|&k| k != r).all(|k| at(k) == 1)
        }
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
