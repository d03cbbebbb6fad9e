//! What one seat can see: [`Observation`], built on demand by [`Round::observe`].

use super::actions::ActionList;
use super::phase::{Phase, MAX_DISCARDS};
use super::ruleset::SeatRuleView;
use crate::hand::Meld;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};

/// One discard on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscardEntry {
    /// Who discarded it.
    pub seat: u8,
    /// The tile.
    pub tile: Tile,
    /// True if it was claimed (it now sits in the claimer's meld or winning hand).
    pub claimed: bool,
    /// True if this discard declared ready.
    pub ready: bool,
}

/// A seat's view of the table: its own tiles, everything public, nothing else. Another
/// seat's concealed kong shows its tile as [`HIDDEN`](super::HIDDEN). Plain data, no heap.
#[derive(Debug, Clone)]
pub struct Observation {
    /// The observing seat.
    pub seat: u8,
    /// The dealer.
    pub dealer: u8,
    /// The prevalent wind, 0-3.
    pub prevalent_wind: u8,
    /// The phase of the hand.
    pub phase: Phase,
    /// Whose turn it is (the discarder or konger in a claim or robbing window).
    pub turn: u8,
    /// The observer's concealed tiles.
    pub hand: Counts,
    /// The tile the observer just drew, on its own turn after a draw.
    pub drawn: Option<Tile>,
    /// Every seat's melds (others' concealed kongs with a [`HIDDEN`](super::HIDDEN) tile).
    pub melds: [[Meld; 4]; 4],
    /// The seat each meld was claimed from.
    pub meld_from: [[u8; 4]; 4],
    /// Melds per seat.
    pub n_melds: [u8; 4],
    /// Flowers per seat.
    pub flowers: [[Tile; 8]; 4],
    /// How many flowers per seat.
    pub n_flowers: [u8; 4],
    /// Concealed tiles per seat (the count only, for others).
    pub hand_sizes: [u8; 4],
    /// Seats that declared ready.
    pub ready: [bool; 4],
    /// Seats barred from winning this hand after a penalised false declaration.
    pub barred: [bool; 4],
    /// Every discard so far, in order.
    pub discards: [DiscardEntry; MAX_DISCARDS],
    /// How many discards.
    pub n_discards: u8,
    /// Copies of each kind visible to everyone (discards and exposed melds).
    pub visible: Counts,
    /// Tiles left in the wall.
    pub wall_remaining: u8,
    /// The tile under claim and who played it, in a claim or robbing window.
    pub claim: Option<(u8, Tile)>,
    /// Match scores before this hand.
    pub scores: [i32; 4],
    /// The observer's legal actions now (empty when it has nothing to decide).
    pub legal: ActionList,
    /// The rules the hand is dealt under.
    pub rules: Rules,
    /// What the observer sees of the rule set's own per-hand state (the 宝 of a hand
    /// played with wild tiles).
    pub ruleset_view: SeatRuleView,
}

impl Observation {
    /// The discards in order.
    pub fn discards(&self) -> &[DiscardEntry] {
        &self.discards[..self.n_discards as usize]
    }
    /// One seat's melds.
    pub fn melds_of(&self, seat: u8) -> &[Meld] {
        &self.melds[seat as usize & 3][..self.n_melds[seat as usize & 3] as usize]
    }
    /// The seat wind of the observer, 0-3.
    pub fn seat_wind(&self) -> u8 {
        (self.seat + 4 - self.dealer) % 4
    }
}
