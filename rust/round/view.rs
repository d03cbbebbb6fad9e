//! A round rebuilt from what one seat was told: [`SeatView`] and [`Round::from_view`].
//!
//! A bot that plays through a message protocol (a Botzone bot, for one) learns the table
//! from requests, not from a [`Round`]. To choose with the built-in policies it needs the
//! round's own view of its seat, legal actions included. [`Round::from_view`] checks the
//! reported view (tile codes, hand and meld sizes, whose decision it is), turns it into an
//! [`Observation`] and rebuilds a round at that decision point with [`Round::determinize`]:
//! the observer's tiles, every discard, meld and flower and the wall's size are exact; the
//! other seats' concealed tiles and the wall order are sampled from the unseen tiles. The
//! observer's legal actions then come from the one state machine, so a policy asked on the
//! rebuilt round can only answer a legal move.

use super::actions::ActionList;
use super::observation::{DiscardEntry, Observation};
use super::phase::{Phase, MAX_DISCARDS};
use super::ruleset::SeatRuleView;
use super::HIDDEN;
use crate::error::{MjError, MjResult};
use crate::hand::{Meld, MeldKind};
use crate::rules::Rules;
use crate::tile::{self, Tile};

/// Whose decision a [`SeatView`] stands at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewPhase {
    /// The observer's own turn: after a draw (`drawn` set) or after a claimed chow or pung.
    Turn,
    /// Another seat (`turn`) discarded `claim_tile`; the observer may claim it.
    Claim,
    /// Another seat (`turn`) adds `claim_tile` to its pung; the observer may rob it.
    RobKong,
}

/// One seat's knowledge of a hand in progress, as a protocol peer reports it.
#[derive(Debug, Clone)]
pub struct SeatView {
    /// The observing seat, 0-3.
    pub seat: u8,
    /// The dealer, 0-3.
    pub dealer: u8,
    /// The prevalent wind, 0-3.
    pub prevalent_wind: u8,
    /// The observer's concealed tiles, the drawn tile included.
    pub hand: Vec<Tile>,
    /// The tile the observer just drew (its own turn after a draw).
    pub drawn: Option<Tile>,
    /// The drawn tile came out of a kong's replacement sequence (杠上开花 on a win).
    pub kong_replacement: bool,
    /// Every seat's melds with the seat each was claimed from, in the order made. Another
    /// seat's concealed kong has the tile [`HIDDEN`]. A pung under a robbing decision is
    /// still a pung.
    pub melds: [Vec<(Meld, u8)>; 4],
    /// Every seat's flowers.
    pub flowers: [Vec<Tile>; 4],
    /// Every discard in order: who, the tile, and whether it was claimed.
    pub discards: Vec<(u8, Tile, bool)>,
    /// Tiles left in the wall.
    pub wall_remaining: u8,
    /// Whose decision this is.
    pub phase: ViewPhase,
    /// The seat whose turn it is: the observer in [`ViewPhase::Turn`], the discarder or
    /// the konger otherwise.
    pub turn: u8,
    /// The discard or added-kong tile under decision.
    pub claim_tile: Option<Tile>,
    /// Match scores before this hand.
    pub scores: [i32; 4],
}

fn check_seat(what: &str, s: u8) -> MjResult<()> {
    if s < 4 {
        Ok(())
    } else {
        Err(MjError::argument(format!("{what} must be 0-3, got {s}")))
    }
}

fn check_suit_tile(what: &str, t: Tile) -> MjResult<()> {
    if (t as usize) < 34 {
        Ok(())
    } else {
        Err(MjError::hand(format!(
            "{what}: {t} is not a tile code 0-33"
        )))
    }
}

impl SeatView {
    /// The observation this view describes under `rules` (no legal actions yet), after
    /// checking it.
    pub fn to_observation(&self, rules: &Rules) -> MjResult<Observation> {
        check_seat("seat", self.seat)?;
        check_seat("dealer", self.dealer)?;
        check_seat("turn", self.turn)?;
        if self.prevalent_wind > 3 {
            return Err(MjError::argument(format!(
                "prevalent_wind must be 0-3, got {}",
                self.prevalent_wind
            )));
        }
        let me = self.seat as usize;
        let mut hand = [0u8; 34];
        for &t in &self.hand {
            check_suit_tile("hand", t)?;
            hand[t as usize] += 1;
        }
        let mut melds = [[Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4]; 4];
        let mut meld_from = [[0u8; 4]; 4];
        let mut n_melds = [0u8; 4];
        let mut visible = [0u8; 34];
        let mut hand_sizes = [0u8; 4];
        for s in 0..4 {
            let list = &self.melds[s];
            if list.len() > 4 {
                return Err(MjError::hand(format!("seat {s} has {} melds", list.len())));
            }
            for (i, &(m, from)) in list.iter().enumerate() {
                check_seat("a meld's source seat", from)?;
                if m.kind == MeldKind::ConcealedKong && m.tile == HIDDEN {
                    if s == me {
                        return Err(MjError::hand("the observer's own concealed kong is hidden"));
                    }
                } else {
                    check_suit_tile("meld", m.tile)?;
                    if m.kind == MeldKind::Chow && (tile::is_honor(m.tile) || m.tile % 9 > 6) {
                        return Err(MjError::hand(format!(
                            "no chow starts at {}",
                            tile::name(m.tile)
                        )));
                    }
                    if m.kind != MeldKind::ConcealedKong {
                        // The claimed tile is among the discards too: see below.
                        for x in m.tiles() {
                            visible[x as usize] += 1;
                        }
                    }
                }
                melds[s][i] = m;
                meld_from[s][i] = from;
            }
            n_melds[s] = list.len() as u8;
            hand_sizes[s] = 13 - 3 * n_melds[s];
        }
        let own_turn = self.phase == ViewPhase::Turn;
        if own_turn != (self.turn == self.seat) {
            return Err(MjError::rule(
                "a view stands at the observer's decision: its own turn, or another seat's discard or added kong",
            ));
        }
        if own_turn {
            hand_sizes[me] += 1;
        }
        if self.hand.len() != hand_sizes[me] as usize {
            return Err(MjError::hand(format!(
                "the observer holds {} concealed tiles; its melds and the phase need {}",
                self.hand.len(),
                hand_sizes[me]
            )));
        }
        if let Some(d) = self.drawn {
            if !own_turn || d as usize >= 34 || hand[d as usize] == 0 {
                return Err(MjError::hand(
                    "the drawn tile must be in the observer's hand, on its own turn",
                ));
            }
        }
        if self.kong_replacement && self.drawn.is_none() {
            return Err(MjError::hand("a kong replacement needs the drawn tile"));
        }
        let mut flowers = [[0 as Tile; 8]; 4];
        let mut n_flowers = [0u8; 4];
        for s in 0..4 {
            if self.flowers[s].len() > 8 {
                return Err(MjError::hand(format!("seat {s} has more than 8 flowers")));
            }
            for (i, &f) in self.flowers[s].iter().enumerate() {
                if !tile::is_flower(f) {
                    return Err(MjError::hand(format!("{f} is not a flower code")));
                }
                flowers[s][i] = f;
            }
            n_flowers[s] = self.flowers[s].len() as u8;
        }
        if self.discards.len() > MAX_DISCARDS {
            return Err(MjError::hand("more discards than a hand can hold"));
        }
        let mut discards = [DiscardEntry::default(); MAX_DISCARDS];
        for (i, &(s, t, claimed)) in self.discards.iter().enumerate() {
            check_seat("a discard's seat", s)?;
            check_suit_tile("discard", t)?;
            // A claimed discard already shows in its claimer's meld.
            if !claimed {
                visible[t as usize] += 1;
            }
            discards[i] = DiscardEntry {
                seat: s,
                tile: t,
                claimed,
                ready: false,
            };
        }
        let claim =
            match (self.phase, self.claim_tile) {
                (ViewPhase::Turn, None) => None,
                (ViewPhase::Claim, Some(t)) => {
                    check_suit_tile("claim", t)?;
                    match self.discards.last() {
                        Some(&(s, d, false)) if s == self.turn && d == t => {}
                        _ => return Err(MjError::rule(
                            "the tile under claim must be the last discard, by the seat to turn",
                        )),
                    }
                    Some((self.turn, t))
                }
                (ViewPhase::RobKong, Some(t)) => {
                    check_suit_tile("claim", t)?;
                    let pung = self.melds[self.turn as usize]
                        .iter()
                        .any(|(m, _)| m.kind == MeldKind::Pung && m.tile == t);
                    if !pung {
                        return Err(MjError::rule(
                            "a kong to rob must add to a pung of the seat to turn",
                        ));
                    }
                    visible[t as usize] += 1;
                    hand_sizes[self.turn as usize] -= 1;
                    Some((self.turn, t))
                }
                _ => {
                    return Err(MjError::rule(
                        "a claim or robbing decision needs its tile, and a turn has none",
                    ))
                }
            };
        if visible.iter().any(|&v| v > 4) {
            return Err(MjError::hand(
                "the view shows more than four copies of a tile",
            ));
        }
        Ok(Observation {
            seat: self.seat,
            dealer: self.dealer,
            prevalent_wind: self.prevalent_wind,
            phase: match self.phase {
                ViewPhase::Turn => Phase::Turn,
                ViewPhase::Claim => Phase::Claim,
                ViewPhase::RobKong => Phase::RobKong,
            },
            turn: self.turn,
            hand,
            drawn: self.drawn,
            melds,
            meld_from,
            n_melds,
            flowers,
            n_flowers,
            hand_sizes,
            ready: [false; 4],
            barred: [false; 4],
            discards,
            n_discards: self.discards.len() as u8,
            visible,
            wall_remaining: self.wall_remaining,
            claim,
            scores: self.scores,
            legal: ActionList::default(),
            rules: rules.clone(),
            ruleset_view: SeatRuleView::Plain,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::{Action, Round, TurnStart};

    /// The view of a live round's observation, as a protocol peer would report it.
    fn view_of(round: &Round, seat: u8) -> SeatView {
        let obs = round.observe(seat);
        let mut melds: [Vec<(Meld, u8)>; 4] = Default::default();
        let mut flowers: [Vec<Tile>; 4] = Default::default();
        for s in 0..4 {
            for (i, &m) in obs.melds_of(s as u8).iter().enumerate() {
                melds[s].push((m, obs.meld_from[s][i]));
            }
            flowers[s] = obs.flowers[s][..obs.n_flowers[s] as usize].to_vec();
        }
        let mut hand = Vec::new();
        for (t, &c) in obs.hand.iter().enumerate() {
            for _ in 0..c {
                hand.push(t as Tile);
            }
        }
        SeatView {
            seat,
            dealer: obs.dealer,
            prevalent_wind: obs.prevalent_wind,
            hand,
            drawn: obs.drawn,
            kong_replacement: obs.drawn.is_some() && round.turn_start() == TurnStart::Replacement,
            melds,
            flowers,
            discards: obs
                .discards()
                .iter()
                .map(|d| (d.seat, d.tile, d.claimed))
                .collect(),
            wall_remaining: obs.wall_remaining,
            phase: match obs.phase {
                Phase::Turn => ViewPhase::Turn,
                Phase::Claim => ViewPhase::Claim,
                _ => ViewPhase::RobKong,
            },
            turn: obs.turn,
            claim_tile: obs.claim.map(|c| c.1),
            scores: obs.scores,
        }
    }

    #[test]
    fn rebuilt_views_offer_the_same_actions() {
        for seed in [1u64, 2, 7, 11] {
            let rules = Rules::gb();
            let mut round = Round::new(&rules, seed, 0, 0).unwrap();
            let mut step = 0u64;
            while !round.is_over() {
                let seat = round.pending_seats().next().unwrap();
                let obs = round.observe(seat);
                let view = view_of(&round, seat);
                let rebuilt = Round::from_view(&rules, &view, step).unwrap();
                let again = rebuilt.observe(seat);
                assert_eq!(
                    again.legal.as_slice(),
                    obs.legal.as_slice(),
                    "seed {seed} step {step}"
                );
                assert_eq!(again.visible, obs.visible, "seed {seed} step {step}");
                assert_eq!(again.hand_sizes, obs.hand_sizes, "seed {seed} step {step}");
                assert_eq!(again.wall_remaining, obs.wall_remaining);
                let legal = round.legal_actions(seat);
                let a = if legal.contains(&Action::Win) {
                    Action::Win
                } else if step % 3 == 0 {
                    legal[0]
                } else {
                    *legal.last().unwrap()
                };
                round.apply(seat, a).unwrap();
                step += 1;
            }
        }
    }

    #[test]
    fn a_claim_view_without_a_claim_is_refused() {
        // Seat 1 has nothing to claim on seat 0's first discard: no decision to rebuild.
        let rules = Rules::gb();
        for seed in 0..40u64 {
            let mut round = Round::new(&rules, seed, 0, 0).unwrap();
            let t = round.legal_actions(0)[0];
            round.apply(0, t).unwrap();
            if round.pending_seats().any(|s| s == 1) {
                continue;
            }
            let mut view = view_of(&round, 1);
            view.phase = ViewPhase::Claim;
            view.turn = 0;
            view.claim_tile = Some(round.discards().last().unwrap().tile);
            view.hand.pop();
            view.drawn = None;
            view.kong_replacement = false;
            assert!(
                Round::from_view(&rules, &view, seed).is_err(),
                "seed {seed}"
            );
            return;
        }
        panic!("no seed without a claim");
    }

    #[test]
    fn malformed_views_are_refused() {
        let rules = Rules::gb();
        let round = Round::new(&rules, 3, 0, 0).unwrap();
        let good = view_of(&round, 0);
        assert!(Round::from_view(&rules, &good, 0).is_ok());
        let mut v = good.clone();
        v.hand.pop();
        assert!(Round::from_view(&rules, &v, 0).is_err());
        let mut v = good.clone();
        v.hand[0] = 40;
        assert!(Round::from_view(&rules, &v, 0).is_err());
        let mut v = good.clone();
        v.turn = 1;
        assert!(Round::from_view(&rules, &v, 0).is_err());
        let mut v = good.clone();
        v.claim_tile = Some(0);
        assert!(Round::from_view(&rules, &v, 0).is_err());
        let mut v = good.clone();
        v.wall_remaining = 5;
        assert!(Round::from_view(&rules, &v, 0).is_err());
        let mut v = good;
        v.discards = vec![(1, 0, false); 5];
        assert!(Round::from_view(&rules, &v, 0).is_err());
    }
}
