//! Huainan (docs/rules/huainan.md): the 宝 turned up after the deal (D-5, D-6), the claims it forbids
//! (D-8, D-9), the wins it allows and their value in forms and multipliers (§8-§10), and
//! the payments with kong points (§10.5-10.6, D-18, D-27). The rules themselves are
//! [`crate::huainan`]; this file reads the table for them.

use super::{Facts, RuleEvent, RuleSet, SeatRuleView};
use crate::error::{MjError, MjResult};
use crate::hand::{MeldKind, WinKind};
use crate::huainan::settle::{settle_draw, settle_win};
use crate::huainan::table::{HuainanHand, WinMoment};
use crate::huainan::BaoState;
use crate::huainan::{bao, IndicatorThrow, RobbableKongs};
use crate::round::events::Event;
use crate::round::phase::TurnStart;
use crate::round::ruleset::WinValue;
use crate::round::seat::SeatState;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};
use crate::wall::Wall;

/// What one seat sees of a hand played with 宝: the face and its indicator, shown to
/// everyone, and its own 宝 state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaoView {
    /// The 宝 face (the wild kind).
    pub bao: Tile,
    /// The indicator tile turned up to name it.
    pub indicator: Tile,
    /// The seat's own 宝 state (宝 drawn, 宝吊头, passes, the passed-win lock).
    pub state: BaoState,
}

/// The Huainan hand rules with the hand's 宝 state.
#[derive(Debug, Clone)]
pub struct HuainanRules {
    /// The 宝 and each seat's 宝 state, once turned up after the deal.
    pub hand: Option<HuainanHand>,
}

impl HuainanRules {
    /// The Huainan rules for `rules`; fails on a table the 宝 cycles cannot be played on.
    pub fn new(rules: &Rules) -> MjResult<Self> {
        if rules.table.flowers {
            return Err(MjError::rule(
                "huainan is played with 136 tiles and no flowers (D-1): a flower has no place in the 宝 cycles, 十三浪 or 九幺",
            ));
        }
        Ok(HuainanRules { hand: None })
    }
}

/// The facts of a win by `seat` the forms need from the table.
fn moment(table: &Facts<'_>, seat: u8, way: WinKind) -> WinMoment {
    // Checked in this order so that the scan of the discards runs only for a self-drawn
    // win by a non-dealer while no one has melded.
    let first_own_draw = way == WinKind::SelfDrawn
        && seat != table.dealer
        && table.seats.iter().all(|s| s.n_melds == 0)
        && !table.discards.iter().any(|d| d.seat == seat);
    WinMoment {
        dealer_first_turn: way == WinKind::SelfDrawn && table.start == TurnStart::Deal,
        dealer_first_discard: way == WinKind::Discard
            && table.discards.len() == 1
            && table.claim_from == table.dealer,
        first_own_draw,
        replacement: way == WinKind::SelfDrawn && table.kong_draw,
    }
}

/// Every kong on the table with its owner (kong points, D-27).
fn kongs_kept(table: &Facts<'_>) -> ([(u8, MeldKind); 16], usize) {
    let mut kongs = [(0u8, MeldKind::Kong); 16];
    let mut n = 0;
    for (s, st) in table.seats.iter().enumerate() {
        for m in st.melds() {
            if m.kind.is_kong() && n < 16 {
                kongs[n] = (s as u8, m.kind);
                n += 1;
            }
        }
    }
    (kongs, n)
}

fn clamp(d: [i64; 4]) -> [i32; 4] {
    d.map(|x| x.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

impl RuleSet for HuainanRules {
    fn new_hand(&mut self) {
        self.hand = None;
    }

    /// After the deal a throw counts stacks to the 宝 indicator and turns it up (D-5); it
    /// stays in the wall as an ordinary tile or is set aside (D-6). Every 宝 dealt counts as
    /// drawn (§6.5).
    fn deal(&mut self, wall: &mut Wall, seats: &[SeatState; 4], rules: &Rules) -> Option<Event> {
        let o = &rules.huainan;
        let s2 = match o.bao_indicator_throw {
            IndicatorThrow::SeparateAfterDeal => wall.throw_pair(),
            IndicatorThrow::BreakDice => {
                let d = wall.dice().dice;
                d[0] + d[1]
            }
        };
        let n = wall.len();
        let i = bao::indicator_position(s2, n, o.bao_indicator_count_from, o.bao_indicator_tile)
            .ok()?;
        let indicator = wall.peek(i)?;
        let mut h = HuainanHand::at(s2, i, indicator).ok()?;
        if !o.bao_indicator_stays_in_wall {
            wall.block(i);
        }
        for (s, st) in seats.iter().enumerate() {
            h.on_deal(s as u8, &st.hand, o);
        }
        self.hand = Some(h);
        Some(Event::RuleSet(RuleEvent::Bao {
            indicator,
            tile: h.bao,
            throw: s2,
        }))
    }

    #[inline(always)]
    fn wins_are_plain_shapes(&self) -> bool {
        false
    }

    /// The Huainan value of the win, when the 宝 rules allow it (§8, §9).
    fn win(
        &self,
        table: &Facts<'_>,
        seat: u8,
        concealed: &Counts,
        t: Tile,
        kind: WinKind,
    ) -> Option<WinValue> {
        let h = self.hand.as_ref()?;
        let st = table.seat(seat);
        let at = moment(table, seat, kind);
        h.win(
            seat,
            concealed,
            st.melds(),
            t,
            kind,
            at,
            &table.rules.huainan,
        )
        .map(WinValue::Huainan)
    }

    /// A Huainan win has no minimum value: any wait will do.
    fn some_wait_scores(&self, _: &Facts<'_>, _: u8, _: &Counts) -> bool {
        true
    }

    /// D-8, D-9: no 宝 in a meld, a discarded 宝 not claimed (unless the options allow).
    #[inline]
    fn may_claim(&self, discard: Tile, with: &[Tile], rules: &Rules) -> bool {
        let o = &rules.huainan;
        self.hand.map_or(true, |h| {
            h.discard_claimable(discard, o) && h.meld_allowed(with, o)
        })
    }

    #[inline]
    fn may_declare_kong(&self, t: Tile, rules: &Rules) -> bool {
        self.hand
            .map_or(true, |h| h.meld_allowed(&[t], &rules.huainan))
    }

    /// D-17: under `bu_gang_zhi_gang` a kong claimed on a discard may be robbed.
    fn claimed_kong_robbable(&self, rules: &Rules) -> bool {
        self.hand.is_some() && rules.huainan.robbable_kongs == RobbableKongs::BuGangZhiGang
    }

    #[inline]
    fn on_draw(&mut self, seat: u8, t: Tile) {
        if let Some(h) = &mut self.hand {
            h.on_wall_tile(seat, t);
            h.on_own_draw(seat);
        }
    }

    #[inline]
    fn on_claim(&mut self, seat: u8) {
        if let Some(h) = &mut self.hand {
            h.on_claim(seat);
        }
    }

    #[inline]
    fn on_discard(&mut self, seat: u8, t: Tile, after: &SeatState, rules: &Rules) {
        if let Some(h) = &mut self.hand {
            h.on_discard(seat, t, &after.hand, after.melds(), &rules.huainan);
        }
    }

    /// D-16: a win passed up on another seat's tile locks such wins until the next draw.
    #[inline]
    fn on_declined_win(&mut self, seat: u8, rules: &Rules) {
        if let Some(h) = &mut self.hand {
            h.on_declined(seat, &rules.huainan);
        }
    }

    /// §10.5: the value (uncapped) paid by the discarder or konger, or by each other seat
    /// after a self-draw, capped per payer.
    fn win_payments(
        &self,
        table: &Facts<'_>,
        value: &WinValue,
        winner: u8,
        kind: WinKind,
        from: u8,
    ) -> [i32; 4] {
        let raw = value.huainan().map_or(0, |sc| sc.raw_value);
        clamp(settle_win(
            &[(winner, raw)],
            kind,
            from,
            table.dealer,
            &[],
            &table.rules.huainan,
        ))
    }

    /// D-27: every kong kept, paid by each other seat.
    fn hand_payments(&self, table: &Facts<'_>, kind: WinKind, from: u8) -> [i32; 4] {
        if self.hand.is_none() {
            return [0; 4];
        }
        let (kongs, n) = kongs_kept(table);
        let d = settle_win(
            &[],
            kind,
            from,
            table.dealer,
            &kongs[..n],
            &table.rules.huainan,
        );
        d.map(|x| x as i32)
    }

    /// D-18: kong points on a draw too, under `kong_points_on_draw`.
    fn draw_payments(&self, table: &Facts<'_>) -> [i32; 4] {
        if self.hand.is_none() || !table.rules.huainan.kong_points_on_draw {
            return [0; 4];
        }
        let (kongs, n) = kongs_kept(table);
        clamp(settle_draw(&kongs[..n], &table.rules.huainan))
    }

    fn check_rebuild_from_view(&self) -> MjResult<()> {
        Err(MjError::rule(
            "huainan hands are not rebuilt from a view (the 宝 state is not sampled)",
        ))
    }

    #[inline]
    fn seat_view(&self, seat: u8) -> SeatRuleView {
        match &self.hand {
            Some(h) => SeatRuleView::Bao(BaoView {
                bao: h.bao,
                indicator: h.indicator,
                state: h.seats[seat as usize & 3],
            }),
            None => SeatRuleView::Plain,
        }
    }
}
