//! What a hand leaves behind: its [`HandOutcome`] and the fan tally over a batch.

use crate::round::{Round, WinKind};

/// Most distinct fans recorded per hand.
pub const MAX_FANS: usize = 16;
/// Size of the fan tally (fan ids are below this).
pub const FAN_IDS: usize = 128;

/// How one hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandOutcome {
    /// The winning seat, -1 after an exhaustive draw.
    pub winner: i8,
    /// The seat that dealt in (discard or robbed kong), -1 for a self-draw or a draw.
    pub discarder: i8,
    /// The winner's fan total (flowers included), 0 without a winner.
    pub fan_total: i32,
    /// Discards made in the hand.
    pub turns: u16,
    /// Every seat's change of score (sums to 0).
    pub scores: [i32; 4],
    /// The dealer.
    pub dealer: u8,
    /// Ids of the winner's fans (0 = none); ids index [`fan_name`].
    pub fans: [u8; MAX_FANS],
}

impl Default for HandOutcome {
    fn default() -> Self {
        HandOutcome {
            winner: -1,
            discarder: -1,
            fan_total: 0,
            turns: 0,
            scores: [0; 4],
            dealer: 0,
            fans: [0; MAX_FANS],
        }
    }
}

/// The English and Chinese names of fan id `id`, if it is one.
pub fn fan_name(id: u8) -> Option<(&'static str, &'static str)> {
    crate::fan::Fan::all()
        .find(|f| f.id() == id)
        .map(|f| (f.name_en(), f.name_zh()))
}

/// Totals over a batch that are not per hand: how many wins include each fan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FanTally(pub [u64; FAN_IDS]);

impl Default for FanTally {
    fn default() -> Self {
        FanTally([0; FAN_IDS])
    }
}

impl FanTally {
    /// Adds one hand's fans.
    pub fn add(&mut self, o: &HandOutcome) {
        for &id in o.fans.iter().filter(|&&id| id != 0) {
            self.0[id as usize % FAN_IDS] += 1;
        }
    }
}

/// Reads the outcome of a finished round.
pub fn outcome(round: &Round) -> HandOutcome {
    let mut o = HandOutcome {
        dealer: round.dealer(),
        turns: round.discards().len() as u16,
        ..Default::default()
    };
    if let Some(res) = round.result() {
        o.scores = res.deltas;
        if let Some(w) = res.winner() {
            o.winner = w.seat as i8;
            o.discarder = if w.kind == WinKind::SelfDrawn {
                -1
            } else {
                w.from as i8
            };
            o.fan_total = w.value.total() as i32;
            for (slot, fc) in o.fans.iter_mut().zip(w.value.fan_list()) {
                *slot = fc.fan.0;
            }
        }
    }
    o
}
