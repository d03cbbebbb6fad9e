//! Tile efficiency with 宝 (huainan.md §6): what a policy needs to play Huainan well.
//! Shanten counts the 宝 as wilds (the oracle's Huainan forms); a 宝 is never discarded
//! while another tile can go; a discard that enters the 宝吊头 state (any tile wins) is
//! preferred; a plain self-drawn win is declined when a discard enters that state instead,
//! which pays double (宝吊头 2 against 平糊 1).

use super::forms::{self, WinFacts};
use super::state::BaoState;
use super::{shape, HuainanOptions};
use crate::hand::Meld;
use crate::round::Action;
use crate::shanten::{self, Forms};
use crate::tile::{Counts, Tile, N_KINDS};

/// Wild-aware shanten of concealed tiles (13 − 3k or 14 − 3k) with `melds` and 宝 `bao`.
pub fn shanten(hand: &Counts, melds: &[Meld], bao: Tile) -> i8 {
    let w = shape::Wild::new(hand, Some(bao));
    let used = shanten::used_counts(melds);
    shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, melds.len() as u8, w.w)
}

/// A discard and how good the hand is after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The tile to discard.
    pub tile: Tile,
    /// Wild-aware shanten after the discard.
    pub shanten: i8,
    /// Unseen copies of the kinds that lower the shanten (a 宝 draw included).
    pub useful: u32,
    /// The discard enters the 宝吊头 state.
    pub bdt: bool,
}

impl Choice {
    fn key(&self) -> (bool, i8, u32) {
        // Entering 宝吊头 first, then lower shanten, then more useful tiles.
        (self.bdt, -self.shanten, self.useful)
    }
}

/// The best discard from a full hand (14 − 3k concealed tiles): never a 宝 while another
/// tile can go; ties go to the lowest code. `unseen` counts the copies of each kind the
/// player has not seen; `allowed` is a bit mask of the kinds that may be discarded.
pub fn best_discard(hand: &Counts, melds: &[Meld], bao: Tile, unseen: &Counts, allowed: u64) -> Option<Choice> {
    let used = shanten::used_counts(melds);
    let k = melds.len() as u8;
    let only_bao = (0..N_KINDS).all(|t| t == bao as usize || hand[t] == 0 || allowed >> t & 1 == 0);
    let mut best: Option<Choice> = None;
    let mut h = *hand;
    for t in 0..N_KINDS {
        if h[t] == 0 || allowed >> t & 1 == 0 || (t == bao as usize && !only_bao) {
            continue;
        }
        h[t] -= 1;
        let w = shape::Wild::new(&h, Some(bao));
        let s = shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let mask = shanten::useful_tiles_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let mut useful: u32 = (0..N_KINDS).filter(|&x| mask >> x & 1 == 1 && x != bao as usize).map(|x| unseen[x] as u32).sum();
        if w.w < 4 {
            useful += unseen[bao as usize] as u32;
        }
        let bdt = shape::is_bdt(&h, bao, None);
        h[t] += 1;
        let c = Choice { tile: t as Tile, shanten: s, useful, bdt };
        if best.map_or(true, |b| c.key() > b.key()) {
            best = Some(c);
        }
    }
    best
}

/// Whether to take a self-drawn win worth `value` (the hand's own value, 14 − 3k tiles in
/// `hand`), or decline it and discard into the 宝吊头 state, which pays more once any tile
/// is drawn: declined only for a win worth less than `bdt_value` that some discard turns
/// into the 宝吊头 state, with at least `min_wall` tiles left to draw.
pub fn take_self_draw(hand: &Counts, bao: Tile, value: u64, bdt_value: u64, wall_left: usize, min_wall: usize) -> bool {
    if value >= bdt_value || wall_left < min_wall || hand[bao as usize] == 0 {
        return true;
    }
    let mut h = *hand;
    for t in 0..N_KINDS {
        if h[t] == 0 || t == bao as usize {
            continue;
        }
        h[t] -= 1;
        let bdt = shape::is_bdt(&h, bao, None);
        h[t] += 1;
        if bdt {
            return false;
        }
    }
    true
}

/// What one Huainan decision sees: the deciding seat's own tiles and 宝 state, its legal
/// actions, the tile under claim and the wall.
#[derive(Debug, Clone, Copy)]
pub struct Decision<'a> {
    /// Concealed tiles (14 − 3k on the seat's turn, the drawn tile included).
    pub hand: &'a Counts,
    /// The seat's melds.
    pub melds: &'a [Meld],
    /// The 宝.
    pub bao: Tile,
    /// The seat's 宝 state.
    pub state: BaoState,
    /// The legal actions.
    pub legal: &'a [Action],
    /// The discard or added kong under claim (claim and robbing windows).
    pub claim: Option<Tile>,
    /// The tile just drawn (own turn after a draw).
    pub drawn: Option<Tile>,
    /// Tiles left in the wall.
    pub wall_remaining: usize,
    /// The rules.
    pub opts: &'a HuainanOptions,
}

/// How well a tile connects to the rest of the hand: copies and suited neighbours within
/// two ranks (a lower score is a better discard).
fn connectivity(h: &Counts, t: usize) -> u32 {
    let mut c = 3 * h[t].saturating_sub(1) as u32;
    if t < 27 {
        let r = (t % 9) as i32;
        for d in [-2i32, -1, 1, 2] {
            let q = r + d;
            if (0..9).contains(&q) {
                c += h[(t as i32 + d) as usize] as u32 * if d.abs() == 1 { 2 } else { 1 };
            }
        }
    }
    c
}

/// A fast discard: the lowest wild-aware shanten; among equals, one that enters the 宝吊头
/// state, then the least connected tile. Never a 宝 while another tile can go.
/// `allowed` is a bit mask of the kinds that may be discarded.
pub fn fast_discard(hand: &Counts, melds: &[Meld], bao: Tile, allowed: u64) -> Option<(Tile, i8)> {
    let used = shanten::used_counts(melds);
    let k = melds.len() as u8;
    let can = |t: usize| allowed >> t & 1 == 1;
    let only_bao = (0..N_KINDS).all(|t| t == bao as usize || hand[t] == 0 || !can(t));
    let mut best: Option<(i8, bool, u32, Tile)> = None;
    let mut h = *hand;
    for t in 0..N_KINDS {
        if h[t] == 0 || !can(t) || (t == bao as usize && !only_bao) {
            continue;
        }
        let conn = connectivity(&h, t);
        h[t] -= 1;
        let w = shape::Wild::new(&h, Some(bao));
        let s = shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let bdt = s == 0 && w.w > 0 && shape::is_bdt(&h, bao, None);
        h[t] += 1;
        let better = match best {
            None => true,
            Some((bs, bb, bc, _)) => (s, !bdt, conn) < (bs, !bb, bc),
        };
        if better {
            best = Some((s, bdt, conn, t as Tile));
        }
    }
    best.map(|(s, _, _, t)| (t, s))
}

/// The decision of the wild-aware efficiency policy (huainan.md §6, §9): wins when offered,
/// except that it declines a self-drawn win worth less than 宝吊头 when a discard enters the
/// 宝吊头 state, and passes once in that state for 偷机 while the wall is long; discards by
/// wild-aware shanten keeping the 宝; claims a pung or chow only when it lowers the shanten.
pub fn decide(d: &Decision) -> Action {
    let has = |a: Action| d.legal.contains(&a);
    let first = d.legal.first().copied().unwrap_or(Action::Pass);
    if has(Action::Win) {
        if d.claim.is_some() {
            return Action::Win;
        }
        if let Some(drawn) = d.drawn {
            // In the 宝吊头 state every draw wins: pass once for 偷机 when the wall is long.
            if d.state.in_bdt && d.state.passes == 0 && drawn != d.bao && d.wall_remaining >= 16 && has(Action::Discard(drawn)) {
                return Action::Discard(drawn);
            }
            let facts = WinFacts { self_drawn: true, passes: d.state.passes, bao_discarded: d.state.bao_discarded, ..Default::default() };
            let value = forms::score(d.hand, d.melds, Some(drawn), d.bao, &facts, d.opts).map(|s| s.form_value);
            if let Ok(v) = value {
                if !take_self_draw(d.hand, d.bao, v as u64, d.opts.form_baodiaotou as u64, d.wall_remaining, 8) {
                    if let Some(c) = best_discard(d.hand, d.melds, d.bao, &[0; 34], u64::MAX).filter(|c| c.bdt) {
                        if has(Action::Discard(c.tile)) {
                            return Action::Discard(c.tile);
                        }
                    }
                }
            }
        }
        return Action::Win;
    }
    if let Some(t) = d.claim {
        return claim(d, t).unwrap_or(if has(Action::Pass) { Action::Pass } else { first });
    }
    let allowed = d.legal.iter().fold(0u64, |m, a| match a {
        Action::Discard(t) => m | 1 << t,
        _ => m,
    });
    match fast_discard(d.hand, d.melds, d.bao, allowed) {
        Some((t, _)) => Action::Discard(t),
        None => first,
    }
}

/// A pung or chow worth taking: the hand after the claim and its best discard is closer to
/// a win than the hand now.
fn claim(d: &Decision, t: Tile) -> Option<Action> {
    let now = shanten(d.hand, d.melds, d.bao);
    let mut best: Option<(i8, Action)> = None;
    for &a in d.legal {
        let (meld, take): (Meld, [Tile; 2]) = match a {
            Action::Pung(x) => (Meld { kind: crate::hand::MeldKind::Pung, tile: x }, [x, x]),
            Action::Chow(low) if (low..low + 3).contains(&t) => {
                let mut others = [low; 2];
                let mut n = 0;
                for y in low..low + 3 {
                    if y != t && n < 2 {
                        others[n] = y;
                        n += 1;
                    }
                }
                (Meld { kind: crate::hand::MeldKind::Chow, tile: low }, others)
            }
            _ => continue,
        };
        let mut h = *d.hand;
        if h[take[0] as usize] == 0 {
            continue;
        }
        h[take[0] as usize] -= 1;
        if h[take[1] as usize] == 0 {
            continue;
        }
        h[take[1] as usize] -= 1;
        let mut melds = [meld; 4];
        melds[..d.melds.len()].copy_from_slice(d.melds);
        melds[d.melds.len()] = meld;
        if let Some((_, s)) = fast_discard(&h, &melds[..d.melds.len() + 1], d.bao, u64::MAX) {
            if s < now && best.map_or(true, |(bs, _)| s < bs) {
                best = Some((s, a));
            }
        }
    }
    best.map(|(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile;

    fn c(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }
    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    #[test]
    fn wild_shanten_and_discards() {
        let unseen = [4u8; 34];
        // H4: 5p* 9p + four sets: discarding 9p enters 宝吊头.
        let h = c("5p123m456m789s234s9p");
        assert_eq!(shanten(&h, &[], t("5p")), -1);
        let ch = best_discard(&h, &[], t("5p"), &unseen, u64::MAX).unwrap();
        assert_eq!((ch.tile, ch.bdt, ch.shanten), (t("9p"), true, 0));
        assert!(!take_self_draw(&h, t("5p"), 1, 2, 30, 8));
        assert!(take_self_draw(&h, t("5p"), 2, 2, 30, 8));
        assert!(take_self_draw(&h, t("5p"), 1, 2, 4, 8));
        // The 宝 is kept: shanten counts it as a wild.
        let h = c("5p1m123m456m789s23s7z");
        assert_eq!(shanten(&h, &[], t("5p")), 0);
        let ch = best_discard(&h, &[], t("5p"), &unseen, u64::MAX).unwrap();
        assert_ne!(ch.tile, t("5p"));
        // Only 宝 left to discard: one goes.
        let melds = [Meld::pung(0).unwrap(), Meld::pung(1).unwrap(), Meld::pung(2).unwrap(), Meld::pung(3).unwrap()];
        let ch = best_discard(&c("5p5p"), &melds, t("5p"), &unseen, u64::MAX).unwrap();
        assert_eq!(ch.tile, t("5p"));
    }

    #[test]
    fn decisions_take_bao_diaotou_when_it_pays() {
        let o = HuainanOptions::default();
        let legal_for = |h: &Counts| -> Vec<Action> {
            let mut v = vec![Action::Win];
            v.extend((0..34u8).filter(|&x| h[x as usize] > 0).map(Action::Discard));
            v
        };
        // H4: a plain win (worth 1) on 4s; discarding 9p enters 宝吊头 (worth 2).
        let h = c("5p123m456m789s234s9p");
        let legal = legal_for(&h);
        let mut d = Decision {
            hand: &h,
            melds: &[],
            bao: t("5p"),
            state: BaoState::default(),
            legal: &legal,
            claim: None,
            drawn: Some(t("4s")),
            wall_remaining: 40,
            opts: &o,
        };
        assert_eq!(decide(&d), Action::Discard(t("9p")));
        d.wall_remaining = 4;
        assert_eq!(decide(&d), Action::Win);
        // In the 宝吊头 state: pass once for 偷机 while the wall is long, then win.
        let h2 = c("5p123m456m789s234s7z");
        let legal2 = legal_for(&h2);
        let st = BaoState { in_bdt: true, ..Default::default() };
        let d2 = Decision { hand: &h2, legal: &legal2, drawn: Some(t("7z")), state: st, wall_remaining: 40, ..d };
        assert_eq!(decide(&d2), Action::Discard(t("7z")));
        let d3 = Decision { state: BaoState { in_bdt: true, passes: 1, ..Default::default() }, ..d2 };
        assert_eq!(decide(&d3), Action::Win);
        // A claim window with a win (a discard win or 接宝) is always taken.
        let d4 = Decision { claim: Some(t("7z")), drawn: None, ..d3 };
        assert_eq!(decide(&d4), Action::Win);
        // Without a win: discard by wild-aware shanten, keeping the 宝.
        let h5 = c("5p1m123m456m789s23s7z");
        let legal5: Vec<Action> = legal_for(&h5).into_iter().filter(|a| *a != Action::Win).collect();
        let d5 = Decision { hand: &h5, legal: &legal5, drawn: Some(t("7z")), state: BaoState::default(), claim: None, ..d };
        assert!(matches!(decide(&d5), Action::Discard(x) if x == t("1m") || x == t("7z")));
    }
}
