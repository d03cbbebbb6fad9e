//! The [`Round`] itself: the table state, building a hand and the public queries. The
//! flow of play is spread by what it does: [`super::deal`] (the deal), [`super::legal`]
//! (legal actions and win tests), [`super::apply`] (applying actions, automatic decisions),
//! [`super::resolve`] (claim windows, melds, draws), [`super::settlement`] (the end of a
//! hand); the rule set's part is [`super::ruleset`].

/// Records an event when the round records events (`emit!(round, event)`), building it
/// only then: with recording off (simulation) a step builds no event at all.
macro_rules! emit {
    ($round:expr, $event:expr) => {
        if $round.record {
            $round.push_event($event);
        }
    };
}

mod apply;
mod deal;
mod determinize;
mod legal;
mod observe;
mod resolve;
mod settle;

use super::actions::{Action, ActionList};
use super::events::Event;
use super::observation::DiscardEntry;

use super::ruleset::WinValue;
use super::ruleset::{RuleSet, RuleSetState};
use super::settlement::RoundResult;
use super::TableOptions;
use crate::error::{MjError, MjResult};
use crate::rules::Rules;
use crate::tile::{Counts, Tile};
use crate::wall::{BreakThrow, Wall};

pub use super::phase::{Phase, TurnStart, MAX_DISCARDS};
pub use super::seat::SeatState;

/// One hand of play. See the [module documentation](super) for how to drive it.
#[derive(Debug, Clone)]
pub struct Round {
    rules: Rules,
    wall: Wall,
    seats: [SeatState; 4],
    dealer: u8,
    prevalent: u8,
    phase: Phase,
    turn: u8,
    start: TurnStart,
    /// The tile the current turn drew (the winning tile of a self-draw).
    drawn: Tile,
    /// The current turn's tile came out of a kong's replacement sequence (杠上开花).
    kong_draw: bool,
    claim_tile: Tile,
    claim_from: u8,
    pending: u8,
    responses: [Action; 4],
    legal: [ActionList; 4],
    /// Seats whose legal actions or offered win may be set (a bit set, possibly more seats
    /// than have any): the ones [`Round::clear_offers`] clears.
    offered: u8,
    /// The discards of the seat to play, listed in `legal[turn]` for membership but not
    /// written (a bit set of kinds; 0 when none): most decisions never read the list as a
    /// whole ([`Round::legal_count`], [`Round::legal_action`]).
    deferred: u64,
    /// Where the deferred discards go in `legal[turn]`.
    deferred_at: u8,
    /// How many kinds `deferred` holds.
    deferred_n: u8,
    /// `legal[turn]` with the deferred discards written, built when first asked for.
    full_legal: std::sync::OnceLock<ActionList>,
    /// Turns defer their discards ([`Round::set_defer_discards`]).
    defer: bool,
    /// The value of each seat's available win (the one [`Action::Win`] would take).
    wins: [Option<WinValue>; 4],
    /// Seats whose entry of `wins` may be set (a bit set): the ones
    /// [`Round::clear_offers`] clears.
    won: u8,
    /// Copies of each kind visible to everyone: discards and exposed melds.
    visible: Counts,
    discards: [DiscardEntry; MAX_DISCARDS],
    n_discards: u8,
    events: Vec<Event>,
    result: Option<RoundResult>,
    penalties: [i32; 4],
    scores: [i32; 4],
    /// The rule set's part of the hand (see [`super::ruleset`]).
    ruleset: RuleSetState,
    /// [`RuleSet::wins_are_plain_shapes`] of `ruleset`, read once.
    plain: bool,
    record: bool,
    /// In a robbing window on a kong claimed from a discard (huainan `robbable_kongs`): the
    /// discarder; `None` for an added kong.
    rob_discarder: Option<u8>,
    /// Seats that may not rob in the current robbing window (bit set).
    rob_skip: u8,
    /// Under `penalty_mode = botzone`, in a claim or robbing window: the seat nearest the
    /// discarder (or konger) in claim order that declared a false win, waiting for the
    /// seats before it (B-4: the judge scores the first win declared in that order).
    false_win: Option<u8>,
    /// Under `penalty_mode = botzone`: play as it stood when the last claim or robbing
    /// window closed with no claim and play moved on by itself (the next draw, a kong's
    /// replacement, or the end of the wall), kept until the seat to play acts. A false win
    /// declared on that discard or kong then takes the step back and ends the hand (B-4:
    /// on Botzone every player answers every discard).
    closed_window: Option<ClosedWindow>,
}

/// What [`Round::closed_window`] restores: the window's phase, the events before the
/// automatic step and the state that step changes (the wall, the seat that drew, the turn).
#[derive(Debug, Clone)]
pub(super) struct ClosedWindow {
    phase: Phase,
    n_events: usize,
    wall: Wall,
    seat: u8,
    seat_state: SeatState,
    turn: u8,
    start: TurnStart,
    drawn: Tile,
    kong_draw: bool,
}

pub(super) fn check_seat(seat: u8, what: &str) -> MjResult<()> {
    if seat > 3 {
        return Err(MjError::action(format!(
            "{what} {seat} is not a seat (0-3)"
        )));
    }
    Ok(())
}

impl Round {
    /// A new hand from `seed`: shuffles the wall, deals, replaces the opening flowers and
    /// stops at the first decision. `dealer` is the East seat, `prevalent_wind` 0-3
    /// (E S W N).
    pub fn new(rules: &Rules, seed: u64, dealer: u8, prevalent_wind: u8) -> MjResult<Round> {
        let t = &rules.table;
        let throw = match t.break_throw {
            super::BreakThrowOpt::Single => BreakThrow::Single,
            super::BreakThrowOpt::Double => BreakThrow::Double,
        };
        let wall = Wall::new(seed, t.flowers, throw);
        Self::with_wall(rules, wall, dealer, prevalent_wind)
    }

    /// A new hand on a given wall (scenarios, tests, replays of an external shuffle).
    pub fn with_wall(rules: &Rules, wall: Wall, dealer: u8, prevalent_wind: u8) -> MjResult<Round> {
        check_seat(dealer, "dealer")?;
        if prevalent_wind > 3 {
            return Err(MjError::rule(format!(
                "prevalent wind {prevalent_wind} is not 0-3 (E S W N)"
            )));
        }
        let ruleset = RuleSetState::for_rules(rules)?;
        let want = if rules.table.flowers { 144 } else { 136 };
        if (rules.table.reserved_tiles as usize) + crate::wall::DEALT >= want {
            return Err(MjError::rule(format!(
                "reserved_tiles = {} leaves no tile to draw from a wall of {want} after the deal",
                rules.table.reserved_tiles
            )));
        }
        if wall.len() != want {
            return Err(MjError::rule(format!(
                "the rules need a wall of {want} tiles (flowers = {}), got {}",
                rules.table.flowers,
                wall.len()
            )));
        }
        let mut r = Round {
            rules: rules.clone(),
            wall,
            seats: Default::default(),
            dealer,
            prevalent: prevalent_wind,
            phase: Phase::Turn,
            turn: dealer,
            start: TurnStart::Deal,
            drawn: 0,
            kong_draw: false,
            claim_tile: 0,
            claim_from: 0,
            pending: 0,
            responses: [Action::Pass; 4],
            legal: [ActionList::default(); 4],
            offered: 0,
            deferred: 0,
            deferred_at: 0,
            deferred_n: 0,
            full_legal: std::sync::OnceLock::new(),
            defer: false,
            wins: Default::default(),
            won: 0,
            visible: [0; 34],
            discards: [DiscardEntry::default(); MAX_DISCARDS],
            n_discards: 0,
            events: Vec::with_capacity(256),
            result: None,
            penalties: [0; 4],
            scores: [0; 4],
            plain: ruleset.wins_are_plain_shapes(),
            ruleset,
            record: true,
            rob_discarder: None,
            rob_skip: 0,
            false_win: None,
            closed_window: None,
        };
        r.start();
        Ok(r)
    }

    /// Starts a new hand in place, reusing this round's buffers (no allocation).
    pub fn reset(&mut self, seed: u64, dealer: u8, prevalent_wind: u8) -> MjResult<()> {
        check_seat(dealer, "dealer")?;
        if prevalent_wind > 3 {
            return Err(MjError::rule(format!(
                "prevalent wind {prevalent_wind} is not 0-3 (E S W N)"
            )));
        }
        let t = &self.rules.table;
        let throw = match t.break_throw {
            super::BreakThrowOpt::Single => BreakThrow::Single,
            super::BreakThrowOpt::Double => BreakThrow::Double,
        };
        self.wall = Wall::new(seed, t.flowers, throw);
        self.seats = Default::default();
        self.dealer = dealer;
        self.prevalent = prevalent_wind;
        self.phase = Phase::Turn;
        self.turn = dealer;
        self.start = TurnStart::Deal;
        self.drawn = 0;
        self.kong_draw = false;
        self.pending = 0;
        self.responses = [Action::Pass; 4];
        self.wins = Default::default();
        self.won = 0;
        self.deferred = 0;
        self.full_legal = std::sync::OnceLock::new();
        self.visible = [0; 34];
        self.n_discards = 0;
        self.events.clear();
        self.result = None;
        self.penalties = [0; 4];
        self.ruleset.new_hand();
        self.rob_discarder = None;
        self.rob_skip = 0;
        self.false_win = None;
        self.closed_window = None;
        self.start();
        Ok(())
    }

    /// Turns event recording on or off (on by default). Without events a hand still plays
    /// identically; [`Round::events`] then stays empty. For bulk simulation.
    pub fn set_record_events(&mut self, on: bool) {
        self.record = on;
    }

    /// Whether a turn leaves its discards unwritten until the whole list is asked for
    /// (off by default). Play is identical either way; on, a caller that reads the legal
    /// actions by position ([`Round::legal_count`], [`Round::legal_action`]) never has
    /// them written, and one that reads [`Round::legal_actions`] has them written on its
    /// first call of a turn. For bulk simulation with policies that choose by position.
    pub fn set_defer_discards(&mut self, on: bool) {
        self.defer = on;
    }

    /// Forgets every seat's legal actions and offered win (a new turn or window), looking
    /// only at the seats [`Round::offered`] and [`Round::won`] name.
    #[inline(always)]
    pub(super) fn clear_offers(&mut self) {
        let mut seats = self.offered;
        while seats != 0 {
            let s = seats.trailing_zeros() as usize & 3;
            seats &= seats - 1;
            self.legal[s].clear();
        }
        self.offered = 0;
        self.clear_win_offers();
    }

    /// The part of [`Round::clear_offers`] after the legal actions: the offered wins and
    /// the deferred discards.
    #[inline(always)]
    pub(super) fn clear_win_offers(&mut self) {
        let mut seats = self.won;
        while seats != 0 {
            let s = seats.trailing_zeros() as usize & 3;
            seats &= seats - 1;
            self.wins[s] = None;
        }
        self.won = 0;
        if self.deferred != 0 {
            self.deferred = 0;
            if self.full_legal.get().is_some() {
                self.full_legal = std::sync::OnceLock::new();
            }
        }
    }

    /// Records `e` (`emit!` tests the recording flag first).
    #[inline(never)]
    pub(super) fn push_event(&mut self, e: Event) {
        self.events.push(e);
    }

    /// Sets the match scores shown in observations (they do not affect play).
    pub fn set_scores(&mut self, scores: [i32; 4]) {
        self.scores = scores;
    }

    #[inline]
    pub(super) fn opts(&self) -> &TableOptions {
        &self.rules.table
    }

    /// In a robbing window: true when the kong was claimed on a discard (its tile is still
    /// that discard), false for an added kong (its tile has left the konger's hand).
    pub fn robbing_claimed_kong(&self) -> bool {
        self.phase == Phase::RobKong && self.rob_discarder.is_some()
    }

    /// The rule set's part of the hand (for the rule sets' own tests).
    #[cfg(test)]
    pub(crate) fn ruleset(&self) -> &RuleSetState {
        &self.ruleset
    }

    /// What `seat` sees of the rule set's own per-hand state.
    pub fn ruleset_view(&self, seat: u8) -> super::ruleset::SeatRuleView {
        self.ruleset.seat_view(seat & 3)
    }

    /// The Huainan 宝 state (indicator, per-seat counters), for the huainan engine's own
    /// tests (everything else reads a seat's part of it through [`Round::ruleset_view`]).
    #[cfg(test)]
    pub(crate) fn huainan(&self) -> Option<&crate::huainan::table::HuainanHand> {
        self.ruleset.huainan()
    }

    // ---- public queries ---------------------------------------------------------------

    /// The rules this hand is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// True once the hand has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    /// Bit set of the seats that must decide now (bit `s` for seat `s`).
    #[inline]
    pub fn pending(&self) -> u8 {
        self.pending
    }
    /// The seats that must decide now, in seat order.
    pub fn pending_seats(&self) -> impl Iterator<Item = u8> {
        let p = self.pending;
        (0..4u8).filter(move |s| p >> s & 1 == 1)
    }
    /// The seat whose turn it is (in a claim or robbing window: the discarder or konger).
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turn
    }
    /// How the current turn began.
    #[inline]
    pub fn turn_start(&self) -> TurnStart {
        self.start
    }
    /// The dealer (East).
    #[inline]
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The prevalent wind, 0-3.
    #[inline]
    pub fn prevalent_wind(&self) -> u8 {
        self.prevalent
    }
    /// The seat wind of `seat`, 0-3 (the dealer is East).
    #[inline]
    pub fn seat_wind(&self, seat: u8) -> u8 {
        (seat + 4 - self.dealer) % 4
    }
    /// The tile under claim (the discard, or the added kong's tile), with whoever played it.
    pub fn claim(&self) -> Option<(u8, Tile)> {
        matches!(self.phase, Phase::Claim | Phase::RobKong)
            .then_some((self.claim_from, self.claim_tile))
    }
    /// The tile the current turn drew, if the turn began with a draw.
    pub fn drawn(&self) -> Option<Tile> {
        (self.phase == Phase::Turn && self.start.drew()).then_some(self.drawn)
    }
    /// The legal actions of `seat` now (empty when it has nothing to decide).
    #[inline]
    pub fn legal_actions(&self, seat: u8) -> &[Action] {
        if self.pending >> (seat & 3) & 1 == 1 {
            self.legal_list(seat & 3).as_slice()
        } else {
            &[]
        }
    }
    /// The legal actions of `seat` with a turn's discards as kinds
    /// ([`crate::policy::TableView::legal_kinds`]): the kinds of a turn's deferred discards
    /// ([`Round::set_defer_discards`]) and the actions written, without writing the
    /// discards; no kinds and [`Round::legal_actions`] otherwise.
    #[inline]
    pub fn legal_kinds(&self, seat: u8) -> (u64, &[Action]) {
        let s = seat & 3;
        if self.pending >> s & 1 == 0 {
            return (0, &[]);
        }
        let kinds = if s == self.turn { self.deferred } else { 0 };
        (kinds, self.legal[s as usize].as_slice())
    }
    /// How many legal actions `seat` has now: the length of [`Round::legal_actions`].
    #[inline]
    pub fn legal_count(&self, seat: u8) -> usize {
        let s = seat & 3;
        if self.pending >> s & 1 == 0 {
            return 0;
        }
        let n = self.legal[s as usize].len();
        if self.deferred != 0 && s == self.turn {
            // As many as fit, as pushing them would have kept.
            return (n + self.deferred_n as usize).min(super::actions::MAX_ACTIONS);
        }
        n
    }
    /// The legal action at `i` of [`Round::legal_actions`] for `seat`, without building
    /// the list when it is not built; `None` past its end.
    #[inline]
    pub fn legal_action(&self, seat: u8, i: usize) -> Option<Action> {
        let s = seat & 3;
        if self.pending >> s & 1 == 0 {
            return None;
        }
        let l = &self.legal[s as usize];
        if self.deferred != 0 && s == self.turn {
            return l.nth_with_discards_at(
                self.deferred_at as usize,
                self.deferred,
                self.deferred_n as usize,
                i,
            );
        }
        l.as_slice().get(i).copied()
    }
    /// One of the legal actions of `seat` drawn uniformly with `rng`, as
    /// [`crate::policy::TableView::legal_uniform`] draws it from [`Round::legal_actions`]
    /// (`rng.below(n)` with `n` > 1 actions), without writing deferred discards.
    #[inline(always)]
    pub fn legal_uniform(&self, seat: u8, rng: &mut crate::wall::Rng) -> Action {
        let s = seat & 3;
        if self.pending >> s & 1 == 0 {
            return Action::Pass;
        }
        let l = &self.legal[s as usize];
        let len = l.len();
        // The deferred discards as `k` kinds at `at`; none (after the list) for a list
        // kept whole. One draw for both, as `uniform_choice` draws from the written list.
        let (k, at) = if self.deferred != 0 && s == self.turn {
            (self.deferred_n as usize, self.deferred_at as usize)
        } else {
            (0, len)
        };
        if len + k > super::actions::MAX_ACTIONS || at > len {
            // Past the capacity (never in play): the written list.
            return self.legal_uniform_written(s, rng);
        }
        let i = match len + k {
            0 => return Action::Pass,
            1 => 0,
            n => rng.below(n as u64) as usize,
        };
        l.nth_in_room(at, self.deferred, k, i)
    }
    /// [`Round::legal_uniform`] from the written list.
    #[inline(never)]
    fn legal_uniform_written(&self, seat: u8, rng: &mut crate::wall::Rng) -> Action {
        super::actions::uniform_choice(self.legal_list(seat).as_slice(), rng)
    }
    /// The legal actions of `seat` as they are kept, with any deferred discards written.
    #[inline]
    pub(super) fn legal_list(&self, seat: u8) -> &ActionList {
        let l = &self.legal[seat as usize];
        if self.deferred != 0 && seat == self.turn {
            self.full_legal
                .get_or_init(|| l.with_discards_at(self.deferred_at as usize, self.deferred))
        } else {
            l
        }
    }
    /// A seat's tiles (full information; use [`Round::observe`] for a seat's own view).
    pub fn seat(&self, seat: u8) -> &SeatState {
        &self.seats[(seat & 3) as usize]
    }
    /// The wall.
    pub fn wall(&self) -> &Wall {
        &self.wall
    }
    /// Copies of each kind visible to everyone (discards and exposed melds).
    pub fn visible(&self) -> &Counts {
        &self.visible
    }
    /// Every discard in order, with its seat and whether it was claimed.
    pub fn discards(&self) -> &[DiscardEntry] {
        &self.discards[..self.n_discards as usize]
    }
    /// Every event so far, in order (full information).
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// How the hand ended, once it is over.
    pub fn result(&self) -> Option<&RoundResult> {
        self.result.as_ref()
    }
    /// The match scores given with [`Round::set_scores`].
    pub fn scores(&self) -> [i32; 4] {
        self.scores
    }
}
