//! The arena: bots against each other, seats rotated over each wall under duplicate play.

use super::table::Table;
use crate::error::MjResult;
use crate::policy::PolicyKind;
use crate::rules::Rules;
use crate::seed::{deal_of, hand_seed, policy_seed};
use crate::wall::derive_seed;
use rayon::prelude::*;

/// An arena: `bots` (in list order) against each other.
#[derive(Clone)]
pub struct ArenaSpec {
    /// The rules.
    pub rules: Rules,
    /// The four bots; bot `b` sits at seat `b` in game 0.
    pub bots: [PolicyKind; 4],
    /// The seed.
    pub seed: u64,
    /// Rotate the seats over each wall (four games per wall).
    pub duplicate: bool,
}

/// One arena game, seen per bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaGame {
    /// The wall (games of one wall share it under duplicate play).
    pub wall: u64,
    /// Seat of each bot.
    pub seats: [u8; 4],
    /// The winning bot, -1 on a draw.
    pub winner: i8,
    /// The bot that dealt in, -1 for a self-draw or a draw.
    pub discarder: i8,
    /// The winner's fan total.
    pub fan_total: i32,
    /// Each bot's change of score.
    pub scores: [i32; 4],
}

/// How the games of an arena are dealt and seated, whoever plays them: game `j`'s wall,
/// the seat of each bot, the dealer and wind, and the policy seeds. One owner for every
/// arena, the batch one ([`arena`]) and one whose tables hold other policies (the Python
/// bots of the bindings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaDeal {
    /// The seed.
    pub seed: u64,
    /// Rotate the seats over each wall (four games per wall).
    pub duplicate: bool,
}

impl ArenaDeal {
    /// Wall index and seats of the bots of game `j` (the dealer and wind follow the
    /// wall: [`deal_of`]).
    pub fn game(&self, j: u64) -> (u64, [u8; 4]) {
        if self.duplicate {
            let r = (j % 4) as u8;
            (j / 4, std::array::from_fn(|b| (b as u8 + r) % 4))
        } else {
            (j, [0, 1, 2, 3])
        }
    }

    /// Plays arena game `j` on `table`, whose policies are the bots in list order.
    pub fn play(&self, table: &mut Table, j: u64) -> MjResult<ArenaGame> {
        let (w, seats) = self.game(j);
        let ws = hand_seed(self.seed, w);
        let (dealer, wind) = deal_of(w);
        // order[seat] = the bot sitting there; its seed depends on the game.
        let mut order = [0usize; 4];
        for (b, &s) in seats.iter().enumerate() {
            order[s as usize] = b;
        }
        let gs = derive_seed(ws, j);
        let seeds = std::array::from_fn(|s| policy_seed(gs, s as u8));
        let o = table.play(ws, dealer, wind, order, seeds, None)?;
        let bot_at = |seat: i8| {
            if seat < 0 {
                -1
            } else {
                order[seat as usize] as i8
            }
        };
        Ok(ArenaGame {
            wall: w,
            seats,
            winner: bot_at(o.winner),
            discarder: bot_at(o.discarder),
            fan_total: o.fan_total,
            scores: std::array::from_fn(|b| o.scores[seats[b] as usize]),
        })
    }
}

impl ArenaSpec {
    /// How this arena's games are dealt and seated.
    pub fn deal(&self) -> ArenaDeal {
        ArenaDeal {
            seed: self.seed,
            duplicate: self.duplicate,
        }
    }

    /// Wall index and seats of the bots of game `j` ([`ArenaDeal::game`]).
    pub fn game(&self, j: u64) -> (u64, [u8; 4]) {
        self.deal().game(j)
    }

    /// Plays arena game `j` on `table` ([`ArenaDeal::play`]).
    pub fn play(&self, table: &mut Table, j: u64) -> MjResult<ArenaGame> {
        self.deal().play(table, j)
    }
}

/// Plays arena games `start..start + count` on `pool`, in order.
pub fn arena(
    spec: &ArenaSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<Vec<ArenaGame>> {
    pool.install(|| {
        (0..count)
            .into_par_iter()
            .with_min_len(16)
            .map_init(
                || Table::new(&spec.rules, &spec.bots),
                |table, k| spec.play(table, start + k as u64),
            )
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::pool;

    #[test]
    fn duplicate_arena_rotates_seats_over_one_wall() {
        let a = ArenaSpec {
            rules: Rules::gb(),
            bots: [
                PolicyKind::Efficiency,
                PolicyKind::Random,
                PolicyKind::Random,
                PolicyKind::Random,
            ],
            seed: 5,
            duplicate: true,
        };
        let games = arena(&a, 0, 40, &pool(Some(2)).unwrap()).unwrap();
        for (j, g) in games.iter().enumerate() {
            assert_eq!(g.wall, j as u64 / 4);
            assert_eq!(g.seats[0] as usize, j % 4);
            assert_eq!(g.scores.iter().sum::<i32>(), 0);
        }
        let again = arena(&a, 20, 20, &pool(Some(1)).unwrap()).unwrap();
        assert_eq!(&games[20..], &again[..]);
    }
}
