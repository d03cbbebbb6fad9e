//! Tile efficiency with 宝 (huainan.md §6): what a policy needs to play Huainan well.
//! Shanten counts the 宝 as wilds (the oracle's Huainan forms); a 宝 is never discarded
//! while another tile can go; a discard that enters the 宝吊头 state (any tile wins) is
//! preferred; a plain self-drawn win is declined when a discard enters that state instead,
//! which pays double (宝吊头 2 against 平糊 1).

use super::shape;
use crate::hand::Meld;
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
}
