//! One hand's state machine: draws, discards, claims and their priority, kongs, wins and
//! settlement. The single source of truth for play: the Python match loop, the built-in
//! policies, `simulate` and the terminal game all drive this one machine.
//!
//! # Driving a hand
//!
//! ```
//! use majiang::round::{Round, Action};
//! use majiang::Rules;
//!
//! let mut round = Round::new(&Rules::gb(), 7, 0, 0).unwrap();
//! while !round.is_over() {
//!     // Every seat that must decide now (one on a turn, several in a claim window).
//!     for seat in round.pending_seats() {
//!         let action = round.legal_actions(seat)[0];
//!         round.apply(seat, action).unwrap();
//!     }
//! }
//! let result = round.result().unwrap();
//! assert_eq!(result.deltas.iter().sum::<i32>(), 0);
//! ```
//!
//! # Phases
//!
//! A hand is always in one [`Phase`]:
//! - [`Phase::Turn`]: the seat [`Round::turn`] holds 14 - 3k tiles and must discard
//!   ([`Action::Discard`], or [`Action::Ready`] to declare ready in classic), win by
//!   self-draw ([`Action::Win`]) or declare a kong ([`Action::ConcealedKong`],
//!   [`Action::AddedKong`]). A turn begins with a draw (flowers are set aside and replaced
//!   from the tail automatically), a kong replacement, or a claimed chow or pung (then no
//!   self-drawn win, and no kong under `kong_lock_after_claim`).
//! - [`Phase::Claim`]: a discard is on the table. Every other seat that has more than
//!   [`Action::Pass`] decides ([`Action::Win`], [`Action::Kong`], [`Action::Pung`],
//!   [`Action::Chow`] from the left only, or pass). When all have answered the claims are
//!   resolved by priority: win > kong = pung > chow; among several wins the first
//!   counter-clockwise from the discarder wins (截和, `single_winner_headbump`). If nobody
//!   claims, the next seat draws.
//! - [`Phase::RobKong`]: an added kong (补杠) was declared; the seats that can win on its
//!   tile decide whether to rob it. Concealed kongs and kongs claimed from a discard are
//!   never robbed.
//! - [`Phase::Over`]: [`Round::result`] holds the winners, their fans and the payments.
//!
//! Seats 0-3 are absolute and play goes 0 → 1 → 2 → 3 (counter-clockwise); seat `s`'s left
//! (上家) is `s + 3 mod 4`. The dealer is East; the seat wind of `s` is
//! `(s - dealer) mod 4` (0 = East).
//!
//! # Rules enforced
//!
//! Legal actions only ever contain what the rules allow: a win is offered only when the
//! tiles form a winning shape **and** the fan total (without flowers unless
//! `flowers_count_toward_min`) meets `min_fan`; a kong needs a tile left in the wall (unless `kong_on_empty_wall`); the
//! discard after the last wall tile can only be won (G-4, C-8). The flags the fan table
//! needs are computed from the table: 和绝张 (the other three copies visible in discards
//! and exposed melds), 海底捞月 / 妙手回春 (the wall is empty), 杠上开花 (the tile came out
//! of a kong's replacement sequence, flowers included, G-3), 抢杠和. A seat that declared
//! ready (classic 报听) is locked: its draws are discarded and its wins claimed
//! automatically (`ting_auto_discard`, `ting_auto_win`). Applying an action that is not
//! legal fails with [`crate::MjError::IllegalAction`] naming the problem, and changes
//! nothing, except under `penalty_mode = mcr_1998` where a false win declaration is
//! penalised (G-7).
//!
//! # Cost
//!
//! A step allocates nothing: hands are count arrays, melds and legal actions live in
//! fixed arrays, events are `Copy` values appended to a vector reused across hands
//! ([`Round::reset`]). Legal actions are computed once per decision point; an
//! [`Observation`] is built only when asked for.
//!
//! Most win tests (every other seat on every discard, the drawer on every draw) fail, so
//! each seat keeps what makes failing cheap, all derived from its tiles and never changing
//! the answer: running shape summaries of its hand, the kinds one more copy of which could
//! complete it by shape (found once per hand state, then read as one bit per discard), and
//! a lower bound on its shanten (a drawn tile lowers it by one, a discard keeps it, a meld
//! forgets it). The oracle is asked only when the bound allows a win and the shape test
//! passes, and then for the shanten, which refreshes the bound; the fan evaluation (and
//! with it the minimum) runs only on a complete hand.
//!
//! # For policies, the simulator and other rule sets
//!
//! - A policy decides from [`Round::observe`] (an [`Observation`]: the seat's own tiles,
//!   everything public, its legal actions) and returns one of `observation.legal`.
//! - A simulator keeps one [`Round`] per worker and calls [`Round::reset`] for each hand
//!   (same buffers, no allocation), optionally with [`Round::set_record_events`]`(false)`;
//!   [`Round::pending`] is a bit set, [`Round::legal_actions`] a slice, and the hand ends
//!   with [`Round::result`]. [`Match`] gives the dealer, prevalent wind and wall seed of
//!   each hand of a match ([`crate::wall::derive_seed`]).
//!
//! # Rule sets
//!
//! The flow (turns, claim windows and their priority, kong replacements, robbing, the
//! exhaustive draw) is shared by every rule set and never asks which one it plays. Where
//! the rule sets differ it consults the [`ruleset::RuleSet`] trait at named points:
//!
//! - the deal ([`ruleset::RuleSet::deal`]): extra throws, an indicator (Huainan's 宝);
//! - what a seat may claim or declare ([`ruleset::RuleSet::may_claim`],
//!   [`ruleset::RuleSet::may_declare_kong`], [`ruleset::RuleSet::claimed_kong_robbable`]);
//! - the win test, which also prices the win ([`ruleset::RuleSet::win`], returning one
//!   [`WinValue`]: fans for gb and classic, a Huainan score for huainan), and whether a
//!   ready hand has a wait worth declaring (C-10, [`ruleset::RuleSet::some_wait_scores`]);
//! - the settlement ([`ruleset::RuleSet::win_payments`],
//!   [`ruleset::RuleSet::hand_payments`], [`ruleset::RuleSet::draw_payments`]);
//! - the notifications that keep the rule set's own per-hand state (a draw, a claim, a
//!   discard, a declined win).
//!
//! gb and classic are [`ruleset::fans::FanRules`], huainan is
//! [`ruleset::huainan::HuainanRules`]; a round holds one of them in the enum
//! [`ruleset::RuleSetState`] and dispatches with a `match` (static, inlined).
//!
//! The code of a hand is laid out by what it does: `state.rs` (the [`Round`], building a
//! hand, the queries), `seat.rs` ([`SeatState`]), `deal.rs`, `legal.rs` (legal actions and
//! win tests), `apply.rs` (applying actions), `resolve.rs` (closing windows, melds and
//! draws), `settlement.rs` (the end of a hand), `observation.rs` (the one seat view).
//!
//! ## How to add a rule set
//!
//! 1. Add its kind to [`crate::rules::RuleSetKind`] with its options and defaults.
//! 2. Write its rules in their own module (scoring, per-hand state), free of the round.
//! 3. Write `ruleset/<name>.rs`: a type implementing [`ruleset::RuleSet`] that reads the
//!    table for those rules (see `ruleset/huainan.rs` for one with per-hand state). A
//!    rule set that prices wins in its own terms adds its variant to [`WinValue`].
//! 4. Register it: one variant of [`ruleset::RuleSetState`], one arm of its `dispatch!`
//!    macro and one of [`ruleset::RuleSetState::for_rules`]. Nothing in the flow changes.
//!
//! # Options
//!
//! [`TableOptions`] holds every flow decision of the rules (G-n in docs/rules/gb.md, C-n in
//! docs/rules/classic.md) with the documented default per rule set.

mod actions;
mod apply;
mod deal;
mod determinize;
mod events;
mod legal;
mod matchplay;
mod observation;
mod resolve;
pub mod ruleset;
mod scoring;
mod seat;
mod settlement;
mod state;
mod view;

pub use crate::hand::WinKind;
pub use actions::{Action, ActionList, Claim, MAX_ACTIONS};
pub use events::{Event, EventSpec, FieldType, FieldValue, EVENT_SCHEMA};
pub use matchplay::Match;
pub use observation::{DiscardEntry, Observation};
pub use scoring::{FanResult, WinInput};
pub use settlement::{RoundResult, WinRecord, WinValue};
pub use state::{Phase, Round, SeatState, TurnStart, MAX_DISCARDS};
pub use view::{SeatView, ViewPhase};

use crate::options::RuleSetKind;
use crate::tile::Tile;

/// A tile a viewer may not see (another seat's draw or concealed kong).
pub const HIDDEN: Tile = 255;

crate::str_option! {
    /// How the wall is broken (G-1, C-3). Play is the same either way (linear wall).
    pub enum BreakThrowOpt { Single = "single", Double = "double" }
}

crate::str_option! {
    /// How the opening flowers are replaced (G-2).
    pub enum FlowerMode {
        /// In passes, dealer first; a flower drawn as a replacement waits for the next pass.
        Passes = "passes",
        /// Each player replaces until done before the next starts.
        EachCompletes = "each_completes",
    }
}

crate::str_option! {
    /// After which claims a turn may not declare a kong (G-5, C-6, D-13).
    pub enum KongLock {
        /// No kong on a turn that began with a chow or a pung.
        ChiPeng = "chi_peng",
        /// Only after a chow (the literal 1998 text).
        Chi = "chi",
        /// No restriction.
        None = "none",
    }
}

crate::str_option! {
    /// Which tile an added kong (补杠) may add to an exposed pung (huainan D-12).
    pub enum AddedKongTile {
        /// The tile just drawn or one already held.
        HeldOrDrawn = "held_or_drawn",
        /// Only the tile just drawn (a normal or replacement draw).
        JustDrawn = "just_drawn",
    }
}

crate::str_option! {
    /// What the discard made after the last wall tile can be claimed for (G-4, C-8).
    pub enum LastDiscardClaims {
        /// Only a win (海底捞月).
        Win = "win",
        /// Anything (a kong is still refused: no replacement tile is left).
        Any = "any",
    }
}

crate::str_option! {
    /// Who deals the next hand.
    pub enum DealerRotation {
        /// gb: the deal passes counter-clockwise after every hand (不连庄).
        CcwEveryHand = "ccw_every_hand",
        /// classic, huainan: the dealer keeps the deal on a win or a draw; otherwise the
        /// winner deals.
        WinnerDeals = "winner_deals",
    }
}

crate::str_option! {
    /// Who deals after an exhaustive draw when the winner deals (`winner_deals`; D-2).
    pub enum DealerAfterDraw {
        /// The dealer deals again.
        Same = "same",
        /// The deal passes counter-clockwise to the dealer's right.
        Next = "next",
    }
}

crate::str_option! {
    /// Who deals the first hand.
    pub enum FirstDealer {
        /// Seat 0 (P1, sitting East).
        East = "east",
        /// Chosen at random from the match seed.
        Random = "random",
    }
}

crate::str_option! {
    /// How the prevalent wind is chosen (C-5).
    pub enum PrevalentWindMode {
        /// East for hands 1-4, South 5-8, West 9-12, North 13-16 (gb: the dealer cycle).
        ByHandIndex = "by_hand_index",
        /// Always East.
        FixedEast = "fixed_east",
    }
}

crate::str_option! {
    /// Changes of physical seat between rounds (G-6).
    pub enum SeatChange { None = "none" }
}

crate::str_option! {
    /// Payments (docs/rules/gb.md §12, C-14).
    pub enum Settlement {
        /// Self-draw: each other pays base + F. Discard win or robbed kong: the discarder
        /// (konger) pays base + F, each of the other two pays base.
        Mcr = "mcr_8_plus_fan",
        /// Self-draw: each other pays F. Discard win: the discarder pays F.
        FanTimesBase = "fan_times_base",
    }
}

crate::str_option! {
    /// What happens to a win declaration the rules reject (G-7).
    pub enum PenaltyMode {
        /// Refused (`IllegalAction`); no penalty.
        Reject = "reject",
        /// 1998 §14: 错和 (below the minimum) pays 10 to each other seat, 诈和 (not a win)
        /// 20; the seat may not win this hand; play goes on.
        Mcr1998 = "mcr_1998",
        /// B-4 (Botzone): a false declaration ends the hand; the seat pays 10 to each
        /// other seat (30 in all) and no one wins.
        Botzone = "botzone",
    }
}

crate::option_group! {
    /// Flow-of-play options: the wall, claims, kongs, ready declarations, settlement and the
    /// match. Defaults are per rule set ([`TableOptions::for_rules`]). Most belong to every
    /// rule set; flower replacement, the fan-based payments and penalties and declared
    /// ready belong to gb and classic only (huainan has no flowers, settles by its own
    /// table and has no 报听).
    pub struct TableOptions {
        /// Hands in a match (gb: 16, four rounds of four; classic C-5: 16).
        pub hands_per_match: u16 = 16 => ALL in 1..=1024,
        /// The wall holds the eight flowers (gb: 144 tiles; classic and huainan: 136). A
        /// huainan hand refuses `true` (D-1).
        pub flowers: bool = true => ALL,
        /// Stacks per side of the square wall (gb 18, classic C-2 17); display only.
        pub wall_stacks_per_side: u8 = 18 => ALL in 17..=18,
        /// G-1 / C-3 / D-3: one throw or two to break the wall.
        pub break_throw: BreakThrowOpt = BreakThrowOpt::Single => ALL,
        /// D-4: tiles kept out of play at the end of the wall (留牌): the hand is exhausted
        /// while this many tiles still stand, wherever the head and the tail meet (kong
        /// replacements still come from the tail). 0: no dead wall, every tile is drawn.
        pub reserved_tiles: u8 = 0 => ALL in 0..=90,
        /// B-1: four private walls (Botzone): each seat is dealt from and draws only from
        /// its own quarter of the wall; the hand ends when the seat about to draw has none
        /// left, and the last-tile conditions read the next seat's wall.
        pub private_walls: bool = false => GB_CLASSIC,
        /// G-2: how the opening flowers are replaced.
        pub initial_flower_mode: FlowerMode = FlowerMode::Passes => GB_CLASSIC,
        /// G-5 / C-6 / D-13: no kong on a turn that began with these claims.
        pub kong_lock_after_claim: KongLock = KongLock::ChiPeng => ALL,
        /// D-12: which tile an added kong may use.
        pub added_kong_tile: AddedKongTile = AddedKongTile::HeldOrDrawn => ALL,
        /// D-14: a kong may be declared when no tile is left to draw. The kong stands (an
        /// added kong may first be robbed) and, with no replacement tile, the hand ends in an
        /// exhaustive draw. Default false: no kong without a replacement tile.
        pub kong_on_empty_wall: bool = false => ALL,
        /// An added kong (补杠) may be robbed (抢杠和); concealed and claimed kongs never are.
        pub rob_added_kong: bool = true => ALL,
        /// 截和 (C-7): one winner on a discard, the first counter-clockwise from the discarder.
        pub single_winner_headbump: bool = true => ALL,
        /// Every player who can rob an added kong wins (huainan); otherwise 截和 applies.
        pub multi_winner_on_rob: bool = false => ALL,
        /// G-4 / C-8: what the final discard can be claimed for.
        pub last_discard_claims: LastDiscardClaims = LastDiscardClaims::Win => ALL,
        /// Who deals next (gb: every hand counter-clockwise; classic: the winner, kept on a
        /// draw).
        pub dealer_rotation: DealerRotation = DealerRotation::CcwEveryHand => ALL,
        /// D-2: under `winner_deals`, who deals after an exhaustive draw.
        pub dealer_after_draw: DealerAfterDraw = DealerAfterDraw::Same => ALL,
        /// Who deals the first hand (gb: P1; classic: random).
        pub first_dealer: FirstDealer = FirstDealer::East => ALL,
        /// C-5: how the prevalent wind is chosen.
        pub prevalent_wind_mode: PrevalentWindMode = PrevalentWindMode::ByHandIndex => ALL,
        /// G-6: seats do not change between rounds.
        pub seat_change_between_rounds: SeatChange = SeatChange::None => ALL,
        /// §12 / C-14: the payment formula.
        pub settlement: Settlement = Settlement::Mcr => GB_CLASSIC,
        /// The base (底分) of the payment formula.
        pub base: u16 = 8 => GB_CLASSIC in 0..=1000,
        /// G-7: what a rejected win declaration costs.
        pub penalty_mode: PenaltyMode = PenaltyMode::Reject => GB_CLASSIC,
        /// G-8 / classic §6: ready may be declared (报听) with a discard; the hand locks.
        pub ting_enabled: bool = false => GB_CLASSIC,
        /// C-11: after declaring, a legal win is taken automatically.
        pub ting_auto_win: bool = true => GB_CLASSIC,
        /// classic §6.3: after declaring, a drawn tile that does not win is discarded
        /// automatically.
        pub ting_auto_discard: bool = true => GB_CLASSIC,
        /// C-10: declaring ready needs some wait that reaches the minimum fan.
        pub ting_requires_reachable_min_fan: bool = false => GB_CLASSIC,
    }
}

impl TableOptions {
    /// The defaults of a rule set.
    pub fn for_rules(kind: RuleSetKind) -> Self {
        let d = Self::default();
        match kind {
            RuleSetKind::Gb => d,
            RuleSetKind::Classic => TableOptions {
                flowers: false,
                wall_stacks_per_side: 17,
                break_throw: BreakThrowOpt::Double,
                dealer_rotation: DealerRotation::WinnerDeals,
                first_dealer: FirstDealer::Random,
                ting_enabled: true,
                ..d
            },
            RuleSetKind::Huainan => TableOptions {
                flowers: false,
                wall_stacks_per_side: 17,
                break_throw: BreakThrowOpt::Single,
                dealer_rotation: DealerRotation::WinnerDeals,
                first_dealer: FirstDealer::Random,
                multi_winner_on_rob: true,
                ..d
            },
        }
    }
}

#[cfg(test)]
mod tests;
