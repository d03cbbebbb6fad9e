//! The rule-set boundary: what the shared flow of a hand asks the rule set it is played by.
//!
//! The flow (turns, claim windows and their priority, kong replacements, robbing, the
//! exhaustive draw) is the same in every rule set and never tests which one it plays. At
//! each point where the rule sets differ it consults [`RuleSet`], implemented once per rule
//! set:
//!
//! - [`fans::FanRules`]: gb and classic, whose wins are priced in fans
//!   ([`crate::fan::evaluate`]) and paid by the `settlement` formula;
//! - [`huainan::HuainanRules`]: Huainan, whose 宝 is turned up after the deal, limits what
//!   may be claimed, and whose wins are priced in forms and multipliers
//!   ([`crate::huainan`]).
//!
//! The implementations live here, beside the flow, rather than in their rule set's own
//! module: they translate between the round's table and the rule set's pure rules
//! (`crate::fan`, `crate::huainan` know nothing of a round), so the dependency runs one
//! way only.
//!
//! A round holds one [`RuleSetState`], an enum with one variant per implementation, and
//! calls it through the trait: the dispatch is a `match` the compiler inlines (no virtual
//! call on the hot path), and each variant carries its own per-hand state (Huainan's 宝).

mod facts;
pub mod fans;
pub mod huainan;

pub use facts::Facts;

use super::events::{Event, EventSpec, FieldType, FieldValue, MAX_FIELDS};
use super::scoring::FanResult;
use super::seat::SeatState;
use crate::error::MjResult;
use crate::fan::FanCount;
use crate::hand::WinKind;
use crate::huainan::table::HuainanHand;
use crate::huainan::Score;
use crate::rules::{Engine, Rules};
use crate::tile::{Counts, Tile};
use crate::wall::Wall;

/// The hand rules of one rule set, at the points where the shared flow consults them.
///
/// Queries read the hand through [`Facts`], the read-only view the round builds (never the
/// round itself); the notifications (`on_*`) let the rule set keep its own per-hand state
/// up to date. `rules` is always the round's rules.
pub trait RuleSet {
    /// A new hand begins: forget the state of the last one.
    fn new_hand(&mut self);

    /// The deal is done (opening flowers replaced): throw extra dice, turn up an indicator,
    /// read the dealt hands. Returns the event that records it, if any.
    fn deal(&mut self, wall: &mut Wall, seats: &[SeatState; 4], rules: &Rules) -> Option<Event>;

    /// Every win is a standard shape without wild tiles (sets and a pair, seven pairs, the
    /// GB special forms). The flow then rules a win out from the seat's shape summaries and
    /// shanten bound before it asks [`RuleSet::win`].
    fn wins_are_plain_shapes(&self) -> bool;

    /// The value of a win of `seat` on `t` (`kind` says how `t` reached it), or `None` when
    /// the rules do not allow it. `concealed` holds the seat's tiles with `t` added; when
    /// [`RuleSet::wins_are_plain_shapes`] the shape is already known to be complete.
    fn win(
        &self,
        table: &Facts<'_>,
        seat: u8,
        concealed: &Counts,
        t: Tile,
        kind: WinKind,
    ) -> Option<WinValue>;

    /// C-10: whether some tile completing the waiting hand `waiting` (13 - 3k tiles) of
    /// `seat` gives a win the rules price high enough; asked before a ready declaration
    /// under `ting_requires_reachable_min_fan`.
    fn some_wait_scores(&self, table: &Facts<'_>, seat: u8, waiting: &Counts) -> bool;

    /// Whether a claim of the discard `discard` may meld it with `with` from the hand (with
    /// `[discard]` itself: whether the discard may be claimed at all).
    fn may_claim(&self, discard: Tile, with: &[Tile], rules: &Rules) -> bool;

    /// Whether four copies of `t` held may be declared a concealed kong.
    fn may_declare_kong(&self, t: Tile, rules: &Rules) -> bool;

    /// Whether a kong claimed on a discard opens a robbing window before it takes the
    /// discard (the seats that may not rob it: the discarder and those who passed a win).
    fn claimed_kong_robbable(&self, rules: &Rules) -> bool;

    /// `seat` drew `t` from the wall at the start of its turn (a draw or a replacement).
    fn on_draw(&mut self, seat: u8, t: Tile);

    /// `seat` claimed a discard for a chow, a pung or a kong.
    fn on_claim(&mut self, seat: u8);

    /// `seat` discarded `t`; `after` holds its tiles without it.
    fn on_discard(&mut self, seat: u8, t: Tile, after: &SeatState, rules: &Rules);

    /// `seat` passed up a win on another seat's tile.
    fn on_declined_win(&mut self, seat: u8, rules: &Rules);

    /// What one win moves between the seats (sums to 0). `from` is the discarder or konger
    /// (the winner itself for a self-draw).
    fn win_payments(
        &self,
        table: &Facts<'_>,
        value: &WinValue,
        winner: u8,
        kind: WinKind,
        from: u8,
    ) -> [i32; 4];

    /// What a won hand moves besides its wins (kong points), once per hand.
    fn hand_payments(&self, table: &Facts<'_>, kind: WinKind, from: u8) -> [i32; 4];

    /// What an exhaustive draw moves (penalties aside).
    fn draw_payments(&self, table: &Facts<'_>) -> [i32; 4];

    /// Whether a hand can be rebuilt from one seat's view (`Round::determinize`): fails
    /// when the rule set keeps per-hand state that the rebuilt round cannot sample.
    fn check_rebuild_from_view(&self) -> MjResult<()>;

    /// What `seat` sees of the rule set's own per-hand state (its observation carries it).
    fn seat_view(&self, seat: u8) -> SeatRuleView;
}

/// What one seat sees of its rule set's own per-hand state: one variant per engine that
/// keeps such state, the type of each owned by that engine's module. The observation,
/// and through it every policy, reads it from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeatRuleView {
    /// Nothing beyond the shared table (gb, classic; a Huainan hand before its 宝).
    #[default]
    Plain,
    /// Wild 宝 tiles: the face and its indicator (public) and the seat's own 宝 state.
    Bao(huainan::BaoView),
}

impl SeatRuleView {
    /// The 宝 part of the view, in a hand played with 宝 once it is turned up.
    #[inline]
    pub fn bao(&self) -> Option<&huainan::BaoView> {
        match self {
            SeatRuleView::Bao(v) => Some(v),
            SeatRuleView::Plain => None,
        }
    }
}

/// The rule set of a round: one variant per [`RuleSet`] implementation (the registration).
#[derive(Debug, Clone)]
pub enum RuleSetState {
    /// gb and classic.
    Fans(fans::FanRules),
    /// Huainan.
    Huainan(huainan::HuainanRules),
}

/// Calls `$call` on the implementation a [`RuleSetState`] holds.
macro_rules! dispatch {
    ($state:expr, $imp:ident => $call:expr) => {
        match $state {
            RuleSetState::Fans($imp) => $call,
            RuleSetState::Huainan($imp) => $call,
        }
    };
}

impl RuleSetState {
    /// The implementation of the rule set's engine, after checking that the table options
    /// fit it.
    pub fn for_rules(rules: &Rules) -> MjResult<Self> {
        Ok(match rules.kind.engine {
            Engine::Fans => RuleSetState::Fans(fans::FanRules),
            Engine::Huainan => RuleSetState::Huainan(huainan::HuainanRules::new(rules)?),
        })
    }

    /// The Huainan 宝 state, in a Huainan hand once the 宝 is turned up.
    #[inline]
    pub fn huainan(&self) -> Option<&HuainanHand> {
        match self {
            RuleSetState::Huainan(h) => h.hand.as_ref(),
            _ => None,
        }
    }
}

impl RuleSet for RuleSetState {
    #[inline]
    fn new_hand(&mut self) {
        dispatch!(self, r => r.new_hand())
    }
    #[inline]
    fn deal(&mut self, wall: &mut Wall, seats: &[SeatState; 4], rules: &Rules) -> Option<Event> {
        dispatch!(self, r => r.deal(wall, seats, rules))
    }
    #[inline(always)]
    fn wins_are_plain_shapes(&self) -> bool {
        dispatch!(self, r => r.wins_are_plain_shapes())
    }
    #[inline]
    fn win(
        &self,
        table: &Facts<'_>,
        seat: u8,
        concealed: &Counts,
        t: Tile,
        kind: WinKind,
    ) -> Option<WinValue> {
        dispatch!(self, r => r.win(table, seat, concealed, t, kind))
    }
    #[inline]
    fn some_wait_scores(&self, table: &Facts<'_>, seat: u8, waiting: &Counts) -> bool {
        dispatch!(self, r => r.some_wait_scores(table, seat, waiting))
    }
    #[inline]
    fn may_claim(&self, discard: Tile, with: &[Tile], rules: &Rules) -> bool {
        dispatch!(self, r => r.may_claim(discard, with, rules))
    }
    #[inline]
    fn may_declare_kong(&self, t: Tile, rules: &Rules) -> bool {
        dispatch!(self, r => r.may_declare_kong(t, rules))
    }
    #[inline]
    fn claimed_kong_robbable(&self, rules: &Rules) -> bool {
        dispatch!(self, r => r.claimed_kong_robbable(rules))
    }
    #[inline]
    fn on_draw(&mut self, seat: u8, t: Tile) {
        dispatch!(self, r => r.on_draw(seat, t))
    }
    #[inline]
    fn on_claim(&mut self, seat: u8) {
        dispatch!(self, r => r.on_claim(seat))
    }
    #[inline(always)]
    fn on_discard(&mut self, seat: u8, t: Tile, after: &SeatState, rules: &Rules) {
        dispatch!(self, r => r.on_discard(seat, t, after, rules))
    }
    #[inline]
    fn on_declined_win(&mut self, seat: u8, rules: &Rules) {
        dispatch!(self, r => r.on_declined_win(seat, rules))
    }
    #[inline]
    fn win_payments(
        &self,
        table: &Facts<'_>,
        value: &WinValue,
        winner: u8,
        kind: WinKind,
        from: u8,
    ) -> [i32; 4] {
        dispatch!(self, r => r.win_payments(table, value, winner, kind, from))
    }
    #[inline]
    fn hand_payments(&self, table: &Facts<'_>, kind: WinKind, from: u8) -> [i32; 4] {
        dispatch!(self, r => r.hand_payments(table, kind, from))
    }
    #[inline]
    fn draw_payments(&self, table: &Facts<'_>) -> [i32; 4] {
        dispatch!(self, r => r.draw_payments(table))
    }
    #[inline]
    fn check_rebuild_from_view(&self) -> MjResult<()> {
        dispatch!(self, r => r.check_rebuild_from_view())
    }
    #[inline]
    fn seat_view(&self, seat: u8) -> SeatRuleView {
        dispatch!(self, r => r.seat_view(seat))
    }
}

/// What a win is worth, in the terms of the engine that priced it: one variant per engine,
/// the type of each owned by that engine's rules. The result of a hand carries it; the
/// flow reads it only through the methods below.
#[derive(Debug, Clone, PartialEq)]
pub enum WinValue {
    /// gb, classic: the fans, their total (flowers included) and the minimum check.
    Fans(FanResult),
    /// Huainan: the primary form, the multipliers and the value (§9-§10).
    Huainan(Score),
}

impl WinValue {
    /// The total: the fan total (flowers included), or the Huainan value one payer pays
    /// (capped, saturating at `u32::MAX`).
    #[inline]
    pub fn total(&self) -> u32 {
        match self {
            WinValue::Fans(f) => f.total,
            WinValue::Huainan(s) => s.value.min(u32::MAX as u64) as u32,
        }
    }
    /// The total the fan minimum is checked against without flowers (the Huainan value
    /// has no flowers: [`WinValue::total`]).
    #[inline]
    pub fn total_without_flowers(&self) -> u32 {
        match self {
            WinValue::Fans(f) => f.total_without_flowers,
            WinValue::Huainan(_) => self.total(),
        }
    }
    /// The fans of a gb or classic win.
    #[inline]
    pub fn fans(&self) -> Option<&FanResult> {
        match self {
            WinValue::Fans(f) => Some(f),
            WinValue::Huainan(_) => None,
        }
    }
    /// The fans scored, in catalog order (none for a Huainan win).
    #[inline]
    pub fn fan_list(&self) -> &[FanCount] {
        match self {
            WinValue::Fans(f) => &f.fans,
            WinValue::Huainan(_) => &[],
        }
    }
    /// The form, multipliers and value of a Huainan win.
    #[inline]
    pub fn huainan(&self) -> Option<&Score> {
        match self {
            WinValue::Fans(_) => None,
            WinValue::Huainan(s) => Some(s),
        }
    }
}

/// An event of a rule set's own, recorded with the hand's events ([`Event::RuleSet`]): one
/// variant per event an engine emits, each kind declared in [`RULE_EVENT_SCHEMA`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleEvent {
    /// Huainan: after the deal a throw of `throw` turns up `indicator` in the wall, and
    /// `tile` is the 宝 (docs/rules/huainan.md §5).
    Bao {
        /// The indicator tile.
        indicator: Tile,
        /// The 宝 face.
        tile: Tile,
        /// The dice total that placed the indicator (stacks from the tail).
        throw: u8,
    },
}

/// The kinds of [`RuleEvent`] with their fields, beside the shared flow's
/// ([`super::EVENT_SCHEMA`]).
pub const RULE_EVENT_SCHEMA: [EventSpec; 1] = [EventSpec {
    kind: "bao",
    fields: &[
        ("indicator", FieldType::Tile),
        ("tile", FieldType::Tile),
        ("throw", FieldType::Byte),
    ],
}];

impl RuleEvent {
    /// The schema entry of the event's kind.
    pub fn spec(&self) -> &'static EventSpec {
        match self {
            RuleEvent::Bao { .. } => &RULE_EVENT_SCHEMA[0],
        }
    }

    /// The event's values, in the order of its schema entry's fields.
    pub(crate) fn values(&self) -> ([FieldValue<'static>; MAX_FIELDS], usize) {
        let mut out = [FieldValue::Flag(false); MAX_FIELDS];
        let vals = match *self {
            RuleEvent::Bao {
                indicator,
                tile,
                throw,
            } => [
                FieldValue::Tile(indicator),
                FieldValue::Tile(tile),
                FieldValue::Byte(throw),
            ],
        };
        out[..vals.len()].copy_from_slice(&vals);
        (out, vals.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::{Round, WinValue};

    #[test]
    fn each_rule_set_kind_has_its_implementation() {
        let gb = RuleSetState::for_rules(&Rules::gb()).unwrap();
        assert!(matches!(gb, RuleSetState::Fans(_)) && gb.wins_are_plain_shapes());
        let classic = RuleSetState::for_rules(&Rules::named("classic").unwrap()).unwrap();
        assert!(matches!(classic, RuleSetState::Fans(_)));
        let mut hn = Rules::named("huainan").unwrap();
        let h = RuleSetState::for_rules(&hn).unwrap();
        assert!(matches!(h, RuleSetState::Huainan(_)) && !h.wins_are_plain_shapes());
        assert!(h.check_rebuild_from_view().is_err() && gb.check_rebuild_from_view().is_ok());
        hn.table.flowers = true;
        assert!(RuleSetState::for_rules(&hn).is_err());
    }

    #[test]
    fn the_huainan_deal_turns_up_the_bao_and_limits_claims() {
        let rules = Rules::named("huainan").unwrap();
        let round = Round::new(&rules, 5, 0, 0).unwrap();
        let bao = round
            .ruleset_view(0)
            .bao()
            .expect("the 宝 is turned up after the deal")
            .bao;
        let r = round.ruleset();
        // D-8, D-9: a discarded 宝 is not claimed, no meld holds one.
        let other = (bao + 1) % 34;
        assert!(!r.may_claim(bao, &[bao], &rules));
        assert!(!r.may_claim(other, &[bao], &rules));
        assert!(r.may_claim(other, &[other], &rules));
        assert!(!r.may_declare_kong(bao, &rules) && r.may_declare_kong(other, &rules));
        let gb = RuleSetState::for_rules(&Rules::gb()).unwrap();
        assert!(gb.may_claim(bao, &[bao], &Rules::gb()));
    }

    #[test]
    fn win_values_keep_their_own_terms() {
        let rules = Rules::named("huainan").unwrap();
        let mut wins = 0;
        for seed in 0..200 {
            let mut round = Round::new(&rules, seed, 0, 0).unwrap();
            while !round.is_over() {
                for seat in round.pending_seats().collect::<Vec<_>>() {
                    let l = round.legal_actions(seat);
                    let a = if l.contains(&crate::round::Action::Win) {
                        crate::round::Action::Win
                    } else {
                        l[0]
                    };
                    round.apply(seat, a).unwrap();
                }
            }
            for w in &round.result().unwrap().wins {
                wins += 1;
                let WinValue::Huainan(s) = &w.value else {
                    panic!("a huainan win priced in fans");
                };
                assert_eq!(w.value.total() as u64, s.value);
                assert!(w.value.fans().is_none() && w.value.fan_list().is_empty());
            }
        }
        assert!(wins > 0);
    }
}
