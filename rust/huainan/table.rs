//! The Huainan part of one hand of play, kept by the round state machine
//! ([`crate::round`]): the 宝 and its indicator, each seat's [`BaoState`], which claims a
//! 宝 allows, and the value of a win with its legality (§5-§10).
//!
//! The round's Huainan rule set ([`crate::round::ruleset::huainan`]) calls these hooks at
//! the round's events (a tile from the wall, a draw, a claim, a discard, a declined win)
//! and asks [`HuainanHand::win`] whether a seat may win and for how much. Nothing here
//! knows the round.

use super::forms::{self, Form, Score, WinFacts};
use super::state::BaoState;
use super::{bao, DihuDefinition, HuainanOptions};
use crate::error::MjResult;
use crate::hand::{Meld, WinKind};
use crate::shanten::wild::{self, Limit};
use crate::tile::{Counts, Tile};

/// What the round knows about the moment of a win besides the tiles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WinMoment {
    /// The dealer's first decision on the dealt tiles (天糊).
    pub dealer_first_turn: bool,
    /// The winning tile is the dealer's first discard of the hand (地糊 by default).
    pub dealer_first_discard: bool,
    /// A non-dealer's first own draw, before any claim or kong (地糊 under
    /// `dihu_definition = first_self_draw`).
    pub first_own_draw: bool,
    /// The winning tile is a replacement drawn after the winner's own kong (杠开).
    pub replacement: bool,
}

/// The 宝 state of one hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HuainanHand {
    /// The 宝 face.
    pub bao: Tile,
    /// The indicator tile (turned up in the wall; not a 宝).
    pub indicator: Tile,
    /// The indicator's linear index in the wall.
    pub indicator_index: u8,
    /// The dice throw `s2` that placed the indicator.
    pub throw: u8,
    /// Each seat's 宝 state.
    pub seats: [BaoState; 4],
}

impl HuainanHand {
    /// The 宝 chosen by a throw `s2` on a wall whose tile at the indicator's index is
    /// `indicator` (D-5, D-6: the upper tile of the `s2`-th stack from the tail).
    pub fn new(s2: u8, wall_len: usize, indicator: Tile) -> MjResult<Self> {
        Self::at(s2, bao::indicator_index(s2, wall_len)?, indicator)
    }

    /// The 宝 chosen by a throw `s2` that turned up `indicator` at wall index `index`
    /// (wherever the D-5 options put it).
    pub fn at(s2: u8, index: usize, indicator: Tile) -> MjResult<Self> {
        Ok(HuainanHand {
            bao: bao::bao_for_indicator(indicator)?,
            indicator,
            indicator_index: index as u8,
            throw: s2,
            seats: [BaoState::default(); 4],
        })
    }

    /// True for a 宝 tile.
    #[inline]
    pub fn is_bao(&self, t: Tile) -> bool {
        t == self.bao
    }

    /// A tile entered `seat`'s hand from the wall (deal, draw or replacement).
    pub fn on_wall_tile(&mut self, seat: u8, t: Tile) {
        self.seats[seat as usize & 3].on_wall_tile(t, self.bao);
    }

    /// `seat` was dealt `hand`: counts the 宝 dealt (§6.5) and, for a waiting hand of 13
    /// tiles, whether it starts in the 宝吊头 state.
    pub fn on_deal(&mut self, seat: u8, hand: &Counts, o: &HuainanOptions) {
        let limit = self.limit(hand, &[], o);
        let st = &mut self.seats[seat as usize & 3];
        for _ in 0..hand[self.bao as usize] {
            st.on_wall_tile(self.bao, self.bao);
        }
        let n: u32 = hand.iter().map(|&c| c as u32).sum();
        st.in_bdt = n == 13 && wild::is_bdt(hand, self.bao, limit.as_ref());
    }

    /// `seat` begins a turn with a draw (normal or replacement).
    pub fn on_own_draw(&mut self, seat: u8) {
        self.seats[seat as usize & 3].on_own_draw();
    }

    /// `seat` claimed a discard (chi, peng or kong).
    pub fn on_claim(&mut self, seat: u8) {
        self.seats[seat as usize & 3].on_claim();
    }

    /// `seat` discarded `t`, keeping `hand` (13 − 3k tiles) and `melds`.
    pub fn on_discard(
        &mut self,
        seat: u8,
        t: Tile,
        hand: &Counts,
        melds: &[Meld],
        o: &HuainanOptions,
    ) {
        let limit = self.limit(hand, melds, o);
        self.seats[seat as usize & 3].on_discard(t, self.bao, hand, limit.as_ref());
    }

    /// `seat` passed up a win on another seat's tile (D-16).
    pub fn on_declined(&mut self, seat: u8, o: &HuainanOptions) {
        self.seats[seat as usize & 3].on_declined_win(o);
    }

    fn limit(&self, hand: &Counts, melds: &[Meld], o: &HuainanOptions) -> Option<Limit> {
        if o.bao_wild_fifth_copy {
            None
        } else {
            let w = wild::Wild::new(hand, Some(self.bao));
            Some(wild::hand_limit(&w.nat, melds))
        }
    }

    /// Whether a discard may be claimed for a chi, peng or kong (D-9).
    #[inline]
    pub fn discard_claimable(&self, t: Tile, o: &HuainanOptions) -> bool {
        t != self.bao || o.discarded_bao_claimable
    }

    /// Whether a meld may hold these tiles (D-8: no 宝 in a meld).
    #[inline]
    pub fn meld_allowed(&self, tiles: &[Tile], o: &HuainanOptions) -> bool {
        o.bao_in_melds || !tiles.contains(&self.bao)
    }

    /// Whether `seat`, holding `concealed` with `melds`, is in the 宝吊头 state.
    pub fn in_bdt(&self, seat: u8) -> bool {
        self.seats[seat as usize & 3].in_bdt
    }

    /// Whether `seat` may win and for how much. `concealed` holds the seat's tiles with the
    /// winning tile `t` already added; `way` says how `t` reached the seat. Self-draws include
    /// 四个宝 (the better of it and the hand's own value); a discarded 宝 is only 接宝; a
    /// discard win needs no 宝 in hand and no passed-win lock; robbing needs no lock.
    #[allow(clippy::too_many_arguments)]
    pub fn win(
        &self,
        seat: u8,
        concealed: &Counts,
        melds: &[Meld],
        t: Tile,
        way: WinKind,
        moment: WinMoment,
        o: &HuainanOptions,
    ) -> Option<Score> {
        let st = &self.seats[seat as usize & 3];
        match way {
            WinKind::Discard if st.may_jiebao(t, self.bao, o) => {
                return forms::special(Form::Jiebao, o).ok()
            }
            WinKind::Discard => {
                let mut before = *concealed;
                before[t as usize] = before[t as usize].saturating_sub(1);
                if !st.may_win_on_discard(&before, t, self.bao, o) {
                    return None;
                }
            }
            WinKind::RobbedKong if !st.may_rob_kong() => return None,
            _ => {}
        }
        let earthly = match o.dihu_definition {
            DihuDefinition::DealerFirstDiscard => {
                way == WinKind::Discard && moment.dealer_first_discard
            }
            DihuDefinition::FirstSelfDraw => {
                way == WinKind::SelfDrawn && moment.first_own_draw && !moment.replacement
            }
        };
        let heavenly = way == WinKind::SelfDrawn && moment.dealer_first_turn && melds.is_empty();
        let facts = WinFacts {
            self_drawn: way == WinKind::SelfDrawn,
            replacement: way == WinKind::SelfDrawn && moment.replacement,
            robbed_kong: way == WinKind::RobbedKong,
            heavenly,
            earthly,
            bao_discarded: st.bao_discarded,
            passes: st.passes,
        };
        let shape = forms::score_if_winning(
            concealed,
            melds,
            if heavenly { None } else { Some(t) },
            self.bao,
            &facts,
            o,
        );
        let special = (way == WinKind::SelfDrawn && st.may_sigebao(o))
            .then(|| forms::special(Form::Sigebao, o).ok())
            .flatten();
        match (shape, special) {
            (Some(a), Some(b)) => Some(if b.value > a.value { b } else { a }),
            (a, b) => a.or(b),
        }
    }
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
    fn hand_hooks_follow_the_spec() {
        let o = HuainanOptions::default();
        // H0: a throw of 7 turns up W[122]; a 4p indicator makes 5p the 宝.
        let mut h = HuainanHand::new(7, 136, t("4p")).unwrap();
        assert_eq!((h.bao, h.indicator_index), (t("5p"), 122));
        assert!(!h.discard_claimable(t("5p"), &o) && h.discard_claimable(t("4p"), &o));
        assert!(!h.meld_allowed(&[t("4p"), t("5p"), t("6p")], &o));
        // H3: holding a 宝, no discard win; a self-draw is fine.
        let hand = c("123m456m789s23p99s5p");
        assert!(h
            .win(
                1,
                &hand,
                &[],
                t("9s"),
                WinKind::Discard,
                WinMoment::default(),
                &o
            )
            .is_none());
        let s = h
            .win(
                1,
                &hand,
                &[],
                t("9s"),
                WinKind::SelfDrawn,
                WinMoment::default(),
                &o,
            )
            .unwrap();
        assert_eq!(s.form, Form::Pinghu);
        // H17: 地糊 on the dealer's first discard.
        let m = WinMoment {
            dealer_first_discard: true,
            ..Default::default()
        };
        let s = h
            .win(
                1,
                &c("11m33m77p88p22s44s66z"),
                &[],
                t("6z"),
                WinKind::Discard,
                m,
                &o,
            )
            .unwrap();
        assert_eq!(s.value, 64);
        // H20: a declined win locks discard wins until the next draw.
        h.on_declined(1, &o);
        assert!(h
            .win(
                1,
                &c("11m33m77p88p22s44s66z"),
                &[],
                t("6z"),
                WinKind::Discard,
                m,
                &o
            )
            .is_none());
        assert!(h
            .win(
                1,
                &c("11m33m77p88p22s44s66z"),
                &[],
                t("6z"),
                WinKind::RobbedKong,
                m,
                &o
            )
            .is_none());
        h.on_own_draw(1);
        assert!(h
            .win(
                1,
                &c("11m33m77p88p22s44s66z"),
                &[],
                t("6z"),
                WinKind::Discard,
                m,
                &o
            )
            .is_some());
        // H19: 接宝 with three 宝 drawn; 四个宝 with four, whatever the hand.
        for _ in 0..3 {
            h.on_wall_tile(2, t("5p"));
        }
        let junk = c("1357m2468p1357s1z5p");
        let s = h
            .win(
                2,
                &junk,
                &[],
                t("5p"),
                WinKind::Discard,
                WinMoment::default(),
                &o,
            )
            .unwrap();
        assert_eq!((s.form, s.value), (Form::Jiebao, 16));
        h.on_wall_tile(2, t("5p"));
        let s = h
            .win(
                2,
                &c("1357m2468p1357s1z5p"),
                &[],
                t("5p"),
                WinKind::SelfDrawn,
                WinMoment::default(),
                &o,
            )
            .unwrap();
        assert_eq!(s.form, Form::Sigebao);
        // H16: 天糊 on the dealt tiles.
        let m = WinMoment {
            dealer_first_turn: true,
            ..Default::default()
        };
        let s = h
            .win(
                0,
                &c("123m456m78m5p234s11z"),
                &[],
                t("1z"),
                WinKind::SelfDrawn,
                m,
                &o,
            )
            .unwrap();
        assert_eq!(s.value, 8);
    }
}
