//! The end of a hand: who won, what each win is worth, and who pays whom.

use super::ruleset::WinValue;
use super::Settlement;
use crate::hand::{Meld, WinKind};
use crate::tile::{Counts, Tile};

/// One winner of a hand.
#[derive(Debug, Clone, PartialEq)]
pub struct WinRecord {
    /// The winner.
    pub seat: u8,
    /// The discarder or konger who pays as such (the winner itself for a self-draw).
    pub from: u8,
    /// The winning tile.
    pub tile: Tile,
    /// How the hand was won.
    pub kind: WinKind,
    /// What the win is worth: its fans or its Huainan form and value.
    pub value: WinValue,
    /// The winner's concealed tiles, winning tile included.
    pub hand: Counts,
    /// The winner's declared melds.
    pub melds: [Meld; 4],
    /// How many of `melds` are used.
    pub n_melds: u8,
    /// The winner's flowers.
    pub flowers: u8,
    /// Points this win moves, per seat (sums to 0).
    pub deltas: [i32; 4],
}

/// How a hand ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoundResult {
    /// The winners (none after an exhaustive draw; several only when robbing a kong
    /// under `multi_winner_on_rob`), counter-clockwise from the discarder or konger.
    pub wins: Vec<WinRecord>,
    /// Every seat's change of score this hand, penalties included (sums to 0).
    pub deltas: [i32; 4],
    /// Penalties paid under `penalty_mode = mcr_1998` (included in `deltas`).
    pub penalties: [i32; 4],
    /// True when the wall ran out (荒牌).
    pub exhaustive: bool,
}

impl RoundResult {
    /// The first winner, if any.
    pub fn winner(&self) -> Option<&WinRecord> {
        self.wins.first()
    }
}

/// The payments for one win with fan total `fan` (docs/rules/gb.md §12, docs/rules/classic.md §9).
/// `from` is the discarder or konger (ignored for a self-draw).
pub fn payments(
    mode: Settlement,
    base: i32,
    winner: u8,
    kind: WinKind,
    from: u8,
    fan: i32,
) -> [i32; 4] {
    let mut d = [0i32; 4];
    for s in 0..4u8 {
        if s == winner {
            continue;
        }
        let pay = match (mode, kind) {
            (Settlement::Mcr, WinKind::SelfDrawn) => base + fan,
            (Settlement::Mcr, _) => {
                if s == from {
                    base + fan
                } else {
                    base
                }
            }
            (Settlement::FanTimesBase, WinKind::SelfDrawn) => fan,
            (Settlement::FanTimesBase, _) => {
                if s == from {
                    fan
                } else {
                    0
                }
            }
        };
        d[s as usize] -= pay;
        d[winner as usize] += pay;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_settlement_examples() {
        // S1: West (2) self-draws 9 fan + 2 flowers: F = 11, each pays 19.
        assert_eq!(
            payments(Settlement::Mcr, 8, 2, WinKind::SelfDrawn, 2, 11),
            [-19, -19, 57, -19]
        );
        // S3: South (1) wins on East's (0) discard, F = 13: East 21, the others 8.
        assert_eq!(
            payments(Settlement::Mcr, 8, 1, WinKind::Discard, 0, 13),
            [-21, 37, -8, -8]
        );
        // Robbing pays like a discard win, by the konger.
        assert_eq!(
            payments(Settlement::Mcr, 8, 2, WinKind::RobbedKong, 0, 9),
            [-17, -8, 33, -8]
        );
        assert_eq!(
            payments(Settlement::FanTimesBase, 8, 1, WinKind::Discard, 3, 5),
            [0, 5, 0, -5]
        );
        assert_eq!(
            payments(Settlement::FanTimesBase, 8, 1, WinKind::SelfDrawn, 1, 5),
            [-5, 15, -5, -5]
        );
    }
}
