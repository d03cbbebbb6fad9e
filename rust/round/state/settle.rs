//! The end of a hand: the exhaustive draw and the wins, priced and paid by the rule set.

use super::{Phase, Round};
use crate::hand::WinKind;
use crate::round::events::Event;
use crate::round::ruleset::RuleSet;
use crate::round::settlement::{RoundResult, WinRecord};
use crate::tile::Tile;

impl Round {
    /// The wall ran out: the hand ends in an exhaustive draw (荒牌).
    pub(in crate::round) fn exhaustive(&mut self) {
        emit!(self, Event::ExhaustiveDraw);
        self.phase = Phase::Over;
        self.pending = 0;
        let mut deltas = self.penalties;
        for (r, x) in deltas
            .iter_mut()
            .zip(self.ruleset.draw_payments(&self.facts()))
        {
            *r += x;
        }
        self.result = Some(RoundResult {
            wins: Vec::new(),
            deltas,
            penalties: self.penalties,
            exhaustive: true,
        });
    }

    /// The hand ends with the wins of `winners` (counter-clockwise from `from`) on `t`.
    pub(in crate::round) fn finish(&mut self, winners: &[u8], kind: WinKind, from: u8, t: Tile) {
        let mut result = RoundResult {
            wins: Vec::with_capacity(winners.len()),
            deltas: self.penalties,
            penalties: self.penalties,
            exhaustive: false,
        };
        for (i, &w) in winners.iter().enumerate() {
            let value = match self.wins[w as usize].take() {
                Some(v) => v,
                None => continue,
            };
            let st = &mut self.seats[w as usize];
            // The winning tile joins the winner's hand (a discard or a robbed kong's tile;
            // with several robbers only the first takes the physical tile).
            if kind != WinKind::SelfDrawn && i == 0 {
                st.add(t);
            }
            let mut hand = st.hand;
            if kind != WinKind::SelfDrawn && i > 0 {
                hand[t as usize] += 1;
            }
            let (melds, n_melds, flowers) = (st.melds, st.n_melds, st.n_flowers);
            let deltas = self
                .ruleset
                .win_payments(&self.facts(), &value, w, kind, from);
            for (total, d) in result.deltas.iter_mut().zip(deltas) {
                *total += d;
            }
            emit!(
                self,
                Event::Win {
                    seat: w,
                    from,
                    tile: t,
                    kind,
                    fan: value.total().min(u16::MAX as u32) as u16,
                }
            );
            result.wins.push(WinRecord {
                seat: w,
                from,
                tile: t,
                kind,
                value,
                hand,
                melds,
                n_melds,
                flowers,
                deltas,
            });
        }
        if !result.wins.is_empty() {
            let d = self.ruleset.hand_payments(&self.facts(), kind, from);
            for (r, x) in result.deltas.iter_mut().zip(d) {
                *r += x;
            }
        }
        self.phase = Phase::Over;
        self.pending = 0;
        self.result = Some(result);
    }
}
