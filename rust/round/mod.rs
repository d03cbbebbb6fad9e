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
//! A rule set is one definition in [`crate::rules`] (its option groups, forms, engine,
//! defaults) and one line of its registry. When its hands play by rules no engine has:
//!
//! 1. Write those rules in their own module (scoring, per-hand state), free of the round.
//! 2. Write `ruleset/<name>.rs`: a type implementing [`ruleset::RuleSet`] that reads the
//!    table through the narrow view it is given (see `ruleset/huainan.rs` for one with
//!    per-hand state).
//! 3. Register it: a variant of [`crate::rules::Engine`] and of
//!    [`ruleset::RuleSetState`]; the compiler then names every match to extend. Nothing in
//!    the flow changes.
//!
//! # Options
//!
//! [`TableOptions`] (declared in [`crate::table`]) holds every flow decision of the rules
//! (G-n in docs/rules/gb.md, C-n in docs/rules/classic.md); each rule set's definition sets
//! its documented defaults.

mod actions;
mod events;
mod matchplay;
mod observation;
mod phase;
pub mod ruleset;
mod scoring;
mod seat;
mod settlement;
mod state;
mod view;

pub use crate::hand::WinKind;
pub use actions::{uniform_choice, Action, ActionList, Claim, MAX_ACTIONS};
pub use events::{event_schema, Event, EventSpec, FieldType, FieldValue, EVENT_SCHEMA};
pub use matchplay::Match;
pub use observation::{DiscardEntry, Observation};
pub use ruleset::WinValue;
pub use scoring::{FanResult, WinInput};
pub use settlement::{payments, RoundResult, WinRecord};
pub use state::{Phase, Round, SeatState, TurnStart, MAX_DISCARDS};
pub use view::{SeatView, ViewPhase};

pub use crate::table::*;
use crate::tile::Tile;

/// A tile a viewer may not see (another seat's draw or concealed kong).
pub const HIDDEN: Tile = 255;

#[cfg(test)]
mod tests;
