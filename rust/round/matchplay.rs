//! A match: a sequence of hands with the dealer and the winds rotating as the rule set
//! says, and the running scores.
//!
//! - gb (docs/rules/gb.md §11): seat 0 (P1) deals first; the deal passes counter-clockwise
//!   after every hand, won or drawn (不连庄); the prevalent wind is East for hands 1-4,
//!   South 5-8, West 9-12, North 13-16.
//! - classic (docs/rules/classic.md §4, C-5): the first dealer is random (from the match seed); the
//!   dealer keeps the deal on a dealer win or a draw, otherwise the winner deals; the
//!   prevalent wind goes by hand number.
//! - huainan (docs/rules/huainan.md §3, D-2): as classic; several robbers of one kong give the
//!   deal to the first counter-clockwise from the konger. `dealer_after_draw = next` passes the
//!   deal on after an exhaustive draw instead.
//!
//! Hand `i` is shuffled from `derive_seed(match_seed, i)`, so a match is reproducible
//! from its seed alone.
//!
//! [`Match::start_hand`] remembers the hand it dealt (its index, dealer, prevalent wind and
//! wall); [`Match::finish_round`] accepts only that hand, once, so a round of another
//! match, another rule set or another hand, or the same round twice, cannot be counted.

use super::settlement::RoundResult;
use super::state::Round;
use super::{DealerAfterDraw, DealerRotation, FirstDealer, PrevalentWindMode};
use crate::error::{MjError, MjResult};
use crate::rules::Rules;
use crate::tile::Tile;
use crate::wall::{derive_seed, Dice};

/// What identifies the hand a match dealt: a round is that hand when it was dealt under
/// the match's rules with this dealer, prevalent wind, wall and dice.
#[derive(Debug, Clone, PartialEq)]
struct Dealt {
    index: u16,
    dealer: u8,
    prevalent_wind: u8,
    wall: Vec<Tile>,
    dice: Dice,
}

/// The state of a match between hands.
#[derive(Debug, Clone)]
pub struct Match {
    rules: Rules,
    seed: u64,
    hands: u16,
    index: u16,
    dealer: u8,
    scores: [i32; 4],
    /// The hand dealt by `start_hand` and not finished yet.
    dealt: Option<Dealt>,
}

impl Match {
    /// A match of `hands` hands (default: the rule set's `hands_per_match`) from `seed`.
    pub fn new(rules: &Rules, seed: u64, hands: Option<u16>) -> MjResult<Match> {
        let hands = hands.unwrap_or(rules.table.hands_per_match);
        if hands == 0 {
            return Err(MjError::rule("a match needs at least one hand"));
        }
        let dealer = match rules.table.first_dealer {
            FirstDealer::East => 0,
            FirstDealer::Random => (derive_seed(seed, u64::MAX) % 4) as u8,
        };
        Ok(Match {
            rules: rules.clone(),
            seed,
            hands,
            index: 0,
            dealer,
            scores: [0; 4],
            dealt: None,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The match seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Hands in the match.
    pub fn hands(&self) -> u16 {
        self.hands
    }
    /// Hands played so far (the index of the next hand).
    pub fn hand_index(&self) -> u16 {
        self.index
    }
    /// True when every hand has been played.
    pub fn is_over(&self) -> bool {
        self.index >= self.hands
    }
    /// The dealer of the next hand.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The prevalent wind of the next hand, 0-3.
    pub fn prevalent_wind(&self) -> u8 {
        match self.rules.table.prevalent_wind_mode {
            PrevalentWindMode::ByHandIndex => ((self.index / 4) % 4) as u8,
            PrevalentWindMode::FixedEast => 0,
        }
    }
    /// The wall seed of the next hand.
    pub fn hand_seed(&self) -> u64 {
        derive_seed(self.seed, self.index as u64)
    }
    /// The wall seed of hand `index` (0-based) of the match.
    pub fn hand_seed_at(&self, index: u16) -> MjResult<u64> {
        if index >= self.hands {
            return Err(MjError::rule(format!(
                "hand {index} is not a hand of a {}-hand match",
                self.hands
            )));
        }
        Ok(derive_seed(self.seed, index as u64))
    }
    /// Running scores (sum 0).
    pub fn scores(&self) -> [i32; 4] {
        self.scores
    }

    /// True while a hand dealt by [`Match::start_hand`] waits for [`Match::finish_round`].
    pub fn hand_in_play(&self) -> bool {
        self.dealt.is_some()
    }

    /// Deals the next hand and remembers it as the one [`Match::finish_round`] accepts
    /// (dealing it again replaces it with the same deal).
    pub fn start_hand(&mut self) -> MjResult<Round> {
        if self.is_over() {
            return Err(MjError::action(format!(
                "the match is over ({} hands played)",
                self.hands
            )));
        }
        let mut r = Round::new(
            &self.rules,
            self.hand_seed(),
            self.dealer,
            self.prevalent_wind(),
        )?;
        r.set_scores(self.scores);
        self.dealt = Some(Dealt {
            index: self.index,
            dealer: r.dealer(),
            prevalent_wind: r.prevalent_wind(),
            wall: r.wall().order().to_vec(),
            dice: r.wall().dice(),
        });
        Ok(r)
    }

    /// Records `round`, which must be the finished hand [`Match::start_hand`] dealt last:
    /// refuses a round that is not over, a round of another match, rule set or hand, and
    /// a hand already recorded. Then as [`Match::finish_hand`].
    pub fn finish_round(&mut self, round: &Round) -> MjResult<()> {
        let Some(dealt) = &self.dealt else {
            return Err(MjError::action(format!(
                "no hand of this match is in play (hand {} has not been dealt, or the round \
                 was already recorded): finish_hand takes the round start_hand returned, once",
                self.index + 1
            )));
        };
        if round.rules() != &self.rules {
            return Err(MjError::action(
                "the round was dealt under other rules than the match's",
            ));
        }
        let same = round.dealer() == dealt.dealer
            && round.prevalent_wind() == dealt.prevalent_wind
            && round.wall().order() == dealt.wall.as_slice()
            && round.wall().dice() == dealt.dice;
        if !same {
            return Err(MjError::action(format!(
                "the round is not hand {} of this match (it was dealt by another match or \
                 for another hand)",
                dealt.index + 1
            )));
        }
        let Some(result) = round.result() else {
            return Err(MjError::action("the hand is not over yet"));
        };
        self.finish_hand(result)
    }

    /// Records a finished hand from its result alone: adds its payments and moves the deal
    /// on. The caller vouches that `result` belongs to the next hand; [`Match::finish_round`]
    /// checks it.
    pub fn finish_hand(&mut self, result: &RoundResult) -> MjResult<()> {
        if self.is_over() {
            return Err(MjError::action(format!(
                "the match is over ({} hands played)",
                self.hands
            )));
        }
        for s in 0..4 {
            self.scores[s] += result.deltas[s];
        }
        self.dealer = match self.rules.table.dealer_rotation {
            DealerRotation::CcwEveryHand => (self.dealer + 1) % 4,
            DealerRotation::WinnerDeals => {
                match (result.winner(), self.rules.table.dealer_after_draw) {
                    (Some(w), _) => w.seat,
                    (None, DealerAfterDraw::Same) => self.dealer,
                    (None, DealerAfterDraw::Next) => (self.dealer + 1) % 4,
                }
            }
        };
        self.index += 1;
        self.dealt = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::{Action, Phase};

    fn play_first_legal(r: &mut Round) {
        while r.phase() != Phase::Over {
            let seats: Vec<u8> = r.pending_seats().collect();
            for s in seats {
                let a = r.legal_actions(s)[0];
                r.apply(s, a).unwrap();
            }
        }
    }

    #[test]
    fn gb_rotation_and_winds() {
        let rules = Rules::gb();
        let mut m = Match::new(&rules, 1, None).unwrap();
        let mut seen = Vec::new();
        while !m.is_over() {
            seen.push((m.dealer(), m.prevalent_wind()));
            let mut r = m.start_hand().unwrap();
            play_first_legal(&mut r);
            m.finish_hand(r.result().unwrap()).unwrap();
        }
        assert_eq!(seen.len(), 16);
        let fresh = Match::new(&rules, 1, None).unwrap();
        assert_eq!(fresh.hand_seed_at(0).unwrap(), fresh.hand_seed());
        assert_eq!(fresh.hand_seed_at(15).unwrap(), derive_seed(1, 15));
        assert!(fresh.hand_seed_at(16).is_err());
        for (i, &(d, p)) in seen.iter().enumerate() {
            assert_eq!(d as usize, i % 4);
            assert_eq!(p as usize, i / 4);
        }
        assert_eq!(m.scores().iter().sum::<i32>(), 0);
        assert!(m.start_hand().is_err());
    }

    #[test]
    fn classic_dealer_keeps_or_winner_deals() {
        let rules = Rules::named("classic").unwrap();
        let mut m = Match::new(&rules, 3, Some(6)).unwrap();
        let first = m.dealer();
        assert_eq!(first, Match::new(&rules, 3, None).unwrap().dealer());
        let mut r = m.start_hand().unwrap();
        play_first_legal(&mut r);
        let res = r.result().unwrap().clone();
        m.finish_hand(&res).unwrap();
        let expect = res.winner().map(|w| w.seat).unwrap_or(first);
        assert_eq!(m.dealer(), expect);
        let _ = Action::Pass;
    }

    #[test]
    fn after_a_draw_the_dealer_stays_or_passes_on() {
        let drawn = RoundResult {
            wins: Vec::new(),
            deltas: [0; 4],
            penalties: [0; 4],
            exhaustive: true,
        };
        for (next, step) in [(false, 0u8), (true, 1)] {
            let mut rules = Rules::named("huainan").unwrap();
            if next {
                rules
                    .set(
                        "dealer_after_draw",
                        &crate::rules::OptValue::Str("next".into()),
                    )
                    .unwrap();
            }
            let mut m = Match::new(&rules, 4, Some(3)).unwrap();
            let first = m.dealer();
            m.finish_hand(&drawn).unwrap();
            assert_eq!(m.dealer(), (first + step) % 4);
        }
    }

    #[test]
    fn finish_round_takes_only_the_hand_it_dealt_once() {
        let rules = Rules::gb();
        let mut m = Match::new(&rules, 7, Some(4)).unwrap();
        let mut other = Match::new(&rules, 8, Some(4)).unwrap();
        let mut theirs = other.start_hand().unwrap();
        play_first_legal(&mut theirs);
        let err = m.finish_round(&theirs).unwrap_err().to_string();
        assert!(err.contains("no hand of this match is in play"), "{err}");

        let mut r = m.start_hand().unwrap();
        assert!(m.hand_in_play());
        assert!(m
            .finish_round(&r)
            .unwrap_err()
            .to_string()
            .contains("not over"));
        play_first_legal(&mut r);
        let err = m.finish_round(&theirs).unwrap_err().to_string();
        assert!(err.contains("not hand 1 of this match"), "{err}");
        let mut classic = Match::new(&Rules::named("classic").unwrap(), 7, Some(4)).unwrap();
        let mut c = classic.start_hand().unwrap();
        play_first_legal(&mut c);
        let err = m.finish_round(&c).unwrap_err().to_string();
        assert!(err.contains("other rules"), "{err}");
        assert_eq!(m.hand_index(), 0);

        let copy = r.clone();
        m.finish_round(&r).unwrap();
        assert_eq!(m.hand_index(), 1);
        assert!(!m.hand_in_play());
        assert!(m.finish_round(&r).is_err());
        assert!(m.finish_round(&copy).is_err());
        // The next hand is a different deal: the old round is not it.
        let _next = m.start_hand().unwrap();
        let err = m.finish_round(&copy).unwrap_err().to_string();
        assert!(err.contains("not hand 2"), "{err}");
        assert_eq!(m.hand_index(), 1);
    }
}
