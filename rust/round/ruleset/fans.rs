//! gb and classic: wins priced in fans, paid by the `settlement` formula (docs/rules/gb.md §12,
//! docs/rules/classic.md §9). No per-hand state, no restriction on claims.

use super::WinValue;
use super::{Facts, RuleSet, SeatRuleView};
use crate::error::MjResult;
use crate::hand::WinKind;
use crate::round::events::Event;
use crate::round::scoring::{self, WinInput};
use crate::round::seat::SeatState;
use crate::round::settlement::payments;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};
use crate::wall::Wall;

/// The gb / classic hand rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct FanRules;

impl RuleSet for FanRules {
    #[inline]
    fn new_hand(&mut self) {}

    #[inline]
    fn deal(&mut self, _: &mut Wall, _: &[SeatState; 4], _: &Rules) -> Option<Event> {
        None
    }

    #[inline(always)]
    fn wins_are_plain_shapes(&self) -> bool {
        true
    }

    /// The fans of the win, when they reach the minimum.
    #[inline]
    fn win(
        &self,
        table: &Facts<'_>,
        seat: u8,
        concealed: &Counts,
        t: Tile,
        kind: WinKind,
    ) -> Option<WinValue> {
        let input = table.win_input(seat, *concealed, t, kind);
        match scoring::evaluate(&input, table.rules) {
            Ok(fr) if fr.meets_minimum => Some(WinValue::Fans(fr)),
            _ => None,
        }
    }

    /// Some completing tile reaches the minimum, self-drawn or on a discard, without the
    /// fans of the moment (和绝张, 海底, 杠上开花) and with 报听 when it scores.
    fn some_wait_scores(&self, table: &Facts<'_>, seat: u8, waiting: &Counts) -> bool {
        let rules = table.rules;
        let melds = table.seat(seat).melds();
        let ok = |inp: &WinInput| matches!(scoring::evaluate(inp, rules), Ok(f) if f.meets_minimum);
        let mut x = *waiting;
        for w in 0..34u8 {
            if x[w as usize] >= 4 {
                continue;
            }
            x[w as usize] += 1;
            if scoring::complete(&x, melds) {
                let mut probe = table.win_input(seat, x, w, WinKind::SelfDrawn);
                probe.declared_ready = scoring::ready_scores(rules);
                probe.fourth_tile = false;
                probe.wall_last = false;
                probe.about_kong = false;
                let mut on_discard = probe;
                on_discard.self_drawn = false;
                if ok(&probe) || ok(&on_discard) {
                    return true;
                }
            }
            x[w as usize] -= 1;
        }
        false
    }

    #[inline]
    fn may_claim(&self, _: Tile, _: &[Tile], _: &Rules) -> bool {
        true
    }

    #[inline]
    fn may_declare_kong(&self, _: Tile, _: &Rules) -> bool {
        true
    }

    #[inline]
    fn claimed_kong_robbable(&self, _: &Rules) -> bool {
        false
    }

    #[inline]
    fn on_draw(&mut self, _: u8, _: Tile) {}

    #[inline]
    fn on_claim(&mut self, _: u8) {}

    #[inline]
    fn on_discard(&mut self, _: u8, _: Tile, _: &SeatState, _: &Rules) {}

    #[inline]
    fn on_declined_win(&mut self, _: u8, _: &Rules) {}

    /// `settlement` with the fan total (flowers included), and the `dealer_bonus` on each
    /// payment between the dealer and another seat.
    fn win_payments(
        &self,
        table: &Facts<'_>,
        value: &WinValue,
        winner: u8,
        kind: WinKind,
        from: u8,
    ) -> [i32; 4] {
        let t = &table.rules.table;
        let mut d = payments(
            t.settlement,
            t.base as i32,
            winner,
            kind,
            from,
            value.total() as i32,
        );
        let bonus = t.dealer_bonus as i32;
        if bonus > 0 {
            for s in 0..4u8 {
                let pays = s != winner && d[s as usize] < 0;
                if pays && (s == table.dealer || winner == table.dealer) {
                    d[s as usize] -= bonus;
                    d[winner as usize] += bonus;
                }
            }
        }
        d
    }

    fn hand_payments(&self, _: &Facts<'_>, _: WinKind, _: u8) -> [i32; 4] {
        [0; 4]
    }

    fn draw_payments(&self, _: &Facts<'_>) -> [i32; 4] {
        [0; 4]
    }

    fn check_rebuild_from_view(&self) -> MjResult<()> {
        Ok(())
    }

    #[inline]
    fn seat_view(&self, _: u8) -> SeatRuleView {
        SeatRuleView::Plain
    }
}
