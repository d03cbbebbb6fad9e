//! Determinization: a [`Round`] rebuilt from one seat's [`Observation`], with every tile
//! that seat cannot see drawn at random from the tiles it has not seen.
//!
//! A search-based policy plays such rounds out to compare its options: what it knows
//! (its own tiles, every discard, meld, flower and ready declaration, the wall's size, the
//! tile under claim) is kept exactly; what it does not know (the other seats' concealed
//! tiles, the tiles of their concealed kongs, the order of the wall) is sampled uniformly
//! among the arrangements consistent with that view. The rebuilt round stands at the same
//! decision point, offers the observing seat the same legal actions, and is played on by
//! the one state machine like any other hand.
//!
//! The sample ignores what the other seats' play may reveal about their tiles (a policy
//! that wants such inference weights its samples itself). The flag for 杠上开花 is not
//! visible and is rebuilt as false; the other seats' pending answers in a claim window are
//! asked again. Rebuilt from the view of a seat that has a decision, the round stands at
//! that decision (the observing seat's claim keeps the window open). From a seat without
//! one in a claim or robbing window, the window may close at once when no sampled hand
//! can claim, and the round then stands at the next turn.

use super::{Phase, Round, SeatState, TurnStart};
use crate::error::{MjError, MjResult};
use crate::hand::MeldKind;
use crate::round::actions::{Action, ActionList};
use crate::round::observation::Observation;
use crate::round::ruleset::RuleSet;
use crate::round::view::SeatView;
use crate::round::HIDDEN;
use crate::rules::Rules;
use crate::tile::{self, Tile};
use crate::wall::{Rng, Wall, MAX_TILES};

impl Round {
    /// A round rebuilt from `obs` (the view of `obs.seat`) with the unseen tiles drawn
    /// with `rng`. See the module documentation of `round::determinize`.
    ///
    /// Fails with a rule error when the observation is not a consistent view of a hand in
    /// progress under `rules` (tile counts that do not add up, a finished hand).
    pub fn determinize(rules: &Rules, obs: &Observation, rng: &mut Rng) -> MjResult<Round> {
        let mut r = Round::with_wall(
            rules,
            Wall::new(0, rules.table.flowers, crate::wall::BreakThrow::Single),
            obs.dealer,
            0,
        )?;
        r.redeal_from(obs, rng)?;
        Ok(r)
    }

    /// [`Round::determinize`] in place: reuses this round's buffers (no allocation) and
    /// its rules. On failure the round is left unchanged.
    pub fn redeal_from(&mut self, obs: &Observation, rng: &mut Rng) -> MjResult<()> {
        self.ruleset.check_rebuild_from_view()?;
        if self.rules.table.private_walls {
            // The view shows the walls' sizes, not which tiles stand in whose wall (B-1).
            return Err(MjError::rule(
                "a hand on private walls cannot be rebuilt from one seat's view",
            ));
        }
        if obs.phase == Phase::Over {
            return Err(MjError::rule("the hand is over: nothing to rebuild"));
        }
        let me = obs.seat as usize & 3;
        let flowers = self.rules.table.flowers;
        let wall_len = if flowers { 144 } else { 136 };

        // The unseen pool: four of each kind minus what the observer sees.
        let mut pool = [0u8; 42];
        for (t, slot) in pool.iter_mut().enumerate().take(34) {
            let seen = obs.hand[t] as u32 + obs.visible[t] as u32;
            let own_kongs = obs
                .melds_of(obs.seat)
                .iter()
                .filter(|m| m.kind == MeldKind::ConcealedKong && m.tile as usize == t)
                .count() as u32;
            let seen = seen + 4 * own_kongs;
            if seen > 4 {
                return Err(MjError::rule(format!(
                    "the view shows {seen} copies of {}",
                    tile::name(t as Tile)
                )));
            }
            *slot = 4 - seen as u8;
        }
        if flowers {
            for slot in pool.iter_mut().skip(34) {
                *slot = 1;
            }
            for s in 0..4 {
                for &f in &obs.flowers[s][..obs.n_flowers[s] as usize] {
                    if tile::is_flower(f) {
                        pool[f as usize] = 0;
                    }
                }
            }
        }

        // The other seats' concealed kongs: a kind of which all four copies are unseen.
        let mut melds = obs.melds;
        for s in 0..4 {
            for m in melds[s][..obs.n_melds[s] as usize].iter_mut() {
                if m.kind != MeldKind::ConcealedKong || m.tile != HIDDEN {
                    continue;
                }
                let n_free = (0..34).filter(|&t| pool[t] == 4).count() as u64;
                if n_free == 0 {
                    return Err(MjError::rule("no kind is left for a hidden concealed kong"));
                }
                let mut k = rng.below(n_free);
                let t = (0..34).find(|&t| {
                    if pool[t] == 4 {
                        if k == 0 {
                            return true;
                        }
                        k -= 1;
                    }
                    false
                });
                let t = t.unwrap_or(0);
                pool[t] = 0;
                m.tile = t as Tile;
            }
        }

        // Shuffle the pool and deal the other hands (no flowers in a hand), then the wall.
        let mut tiles = [0 as Tile; MAX_TILES];
        let mut n = 0usize;
        for (t, &c) in pool.iter().enumerate() {
            for _ in 0..c {
                if n == MAX_TILES {
                    return Err(MjError::rule("more unseen tiles than a wall holds"));
                }
                tiles[n] = t as Tile;
                n += 1;
            }
        }
        let need_hands: usize = (0..4)
            .filter(|&s| s != me)
            .map(|s| obs.hand_sizes[s] as usize)
            .sum();
        let n_suits = tiles[..n].iter().filter(|&&t| !tile::is_flower(t)).count();
        // The reserve at the end of the wall (D-4) is unseen too.
        let reserved = self.rules.table.reserved_tiles;
        if n != need_hands + obs.wall_remaining as usize + reserved as usize || n_suits < need_hands
        {
            return Err(MjError::rule(format!(
                "the view leaves {n} unseen tiles for {need_hands} concealed tiles and {} in the wall",
                obs.wall_remaining
            )));
        }
        for i in (1..n).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            tiles.swap(i, j);
        }
        // Move the first `need_hands` non-flower tiles to the front (stable for the rest).
        let mut front = 0usize;
        for i in 0..n {
            if front == need_hands {
                break;
            }
            if !tile::is_flower(tiles[i]) {
                tiles[front..=i].rotate_right(1);
                front += 1;
            }
        }
        let mut hands = [[0u8; 34]; 4];
        let mut k = 0usize;
        for (s, h) in hands.iter_mut().enumerate() {
            if s == me {
                *h = obs.hand;
                continue;
            }
            for _ in 0..obs.hand_sizes[s] {
                h[tiles[k] as usize] += 1;
                k += 1;
            }
        }
        let mut wall = Wall::remainder(wall_len, &tiles[k..n], self.wall.dice())?;
        wall.set_reserved(reserved);

        // The table.
        for s in 0..4 {
            let mut st = SeatState {
                hand: hands[s],
                n_hand: obs.hand_sizes[s],
                ..SeatState::default()
            };
            st.melds = melds[s];
            st.meld_from = obs.meld_from[s];
            st.n_melds = obs.n_melds[s];
            st.pungs = st
                .melds()
                .iter()
                .filter(|m| m.kind == MeldKind::Pung)
                .fold(0, |p, m| p | 1 << m.tile);
            st.flowers = obs.flowers[s];
            st.n_flowers = obs.n_flowers[s];
            st.ready = obs.ready[s];
            st.barred = obs.barred[s];
            for (t, &c) in hands[s].iter().enumerate() {
                st.stats.change(t as u8, 0, c);
            }
            self.seats[s] = st;
        }
        self.wall = wall;
        self.dealer = obs.dealer;
        self.prevalent = obs.prevalent_wind;
        self.turn = obs.turn;
        self.kong_draw = false;
        self.visible = obs.visible;
        self.discards = obs.discards;
        self.n_discards = obs.n_discards;
        self.events.clear();
        self.result = None;
        self.penalties = [0; 4];
        self.scores = obs.scores;
        self.wins = Default::default();
        self.won = 0;
        self.legal = [ActionList::default(); 4];
        self.offered = 0;
        self.rob_discarder = None;
        self.rob_skip = 0;
        self.false_win = None;
        self.closed_window = None;
        self.responses = [Action::Pass; 4];
        match (obs.phase, obs.claim) {
            (Phase::Claim, Some((from, t))) => self.open_window(from, t, false),
            (Phase::RobKong, Some((from, t))) => self.open_window(from, t, true),
            (Phase::Turn, _) => {
                let seat = obs.turn & 3;
                let st = &self.seats[seat as usize];
                let (start, drawn) = if seat == obs.seat {
                    match obs.drawn {
                        Some(t) => (
                            if obs.n_discards == 0 {
                                TurnStart::Deal
                            } else {
                                TurnStart::Draw
                            },
                            t,
                        ),
                        None => {
                            let last = st.melds().last().map(|m| m.kind);
                            (
                                if last == Some(MeldKind::Chow) {
                                    TurnStart::Chow
                                } else {
                                    TurnStart::Pung
                                },
                                0,
                            )
                        }
                    }
                } else {
                    // Another seat's turn: taken as a draw of one of its tiles.
                    let t = (0..34u8)
                        .rev()
                        .find(|&t| st.hand[t as usize] > 0)
                        .unwrap_or(0);
                    (TurnStart::Draw, t)
                };
                self.drawn = drawn;
                self.enter_turn(seat, start);
            }
            _ => return Err(MjError::rule("a claim window without a tile under claim")),
        }
        if self.pending == 0 {
            self.run();
        }
        Ok(())
    }
}

impl Round {
    /// A round standing at the decision `view` describes, under `rules`, with the tiles
    /// the observer cannot see sampled with `seed`. See the module documentation of `round::view`.
    ///
    /// Fails when the view is malformed or inconsistent (more than four copies of a tile,
    /// sizes that do not add up with the wall, no decision for the observer).
    pub fn from_view(rules: &Rules, view: &SeatView, seed: u64) -> MjResult<Round> {
        let obs = view.to_observation(rules)?;
        let mut round = Round::determinize(rules, &obs, &mut Rng::new(seed))?;
        if view.kong_replacement && round.phase == Phase::Turn {
            round.drawn = view.drawn.unwrap_or(round.drawn);
            round.kong_draw = true;
            round.enter_turn(view.seat, TurnStart::Replacement);
        }
        // The rebuilt round must stand at the observer's decision: with nothing to claim,
        // a claim window closes at once and play moves on (to a turn it may not take).
        if round.phase != obs.phase
            || round.turn != view.turn
            || round.pending >> view.seat & 1 == 0
            || round.legal_actions(view.seat).is_empty()
        {
            return Err(MjError::rule(
                "the rebuilt round leaves the observer nothing to decide",
            ));
        }
        Ok(round)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Action;

    /// Plays hands with a simple rule (win, else the first legal action, passing claims
    /// half the time) and rebuilds every decision point from the deciding seat's view.
    #[test]
    fn rebuilt_rounds_match_the_view_and_play_on() {
        let mut reserve = Rules::named("classic").unwrap();
        reserve
            .set("reserved_tiles", &crate::rules::OptValue::Int(14))
            .unwrap();
        for (rules, seed) in [
            (Rules::gb(), 3u64),
            (Rules::named("classic").unwrap(), 4),
            (Rules::gb(), 9),
            (reserve, 5),
        ] {
            let mut round = Round::new(&rules, seed, (seed % 4) as u8, 1).unwrap();
            let mut rng = Rng::new(seed);
            let mut copy = Round::new(&rules, 0, 0, 0).unwrap();
            let mut step = 0u64;
            while !round.is_over() {
                let seat = round.pending_seats().next().unwrap();
                let obs = round.observe(seat);
                copy.redeal_from(&obs, &mut rng).unwrap();
                let again = copy.observe(seat);
                assert_eq!(
                    again.legal.as_slice(),
                    obs.legal.as_slice(),
                    "seed {seed} step {step}"
                );
                assert_eq!(again.hand, obs.hand);
                assert_eq!(again.visible, obs.visible);
                assert_eq!(again.hand_sizes, obs.hand_sizes);
                assert_eq!(again.wall_remaining, obs.wall_remaining);
                assert_eq!(again.claim, obs.claim);
                assert_eq!(again.drawn, obs.drawn);
                // Every kind still has exactly four copies in the rebuilt hand.
                let mut all = [0u32; 34];
                for s in 0..4 {
                    let st = copy.seat(s);
                    for (a, &c) in all.iter_mut().zip(&st.hand) {
                        *a += c as u32;
                    }
                    for m in st.melds() {
                        for x in m.tiles() {
                            all[x as usize] += 1;
                        }
                    }
                }
                for e in copy.discards() {
                    all[e.tile as usize] += u32::from(!e.claimed);
                }
                for i in 0..copy.wall().len() {
                    if !copy.wall().is_taken(i) {
                        let t = copy.wall().peek(i).unwrap();
                        if (t as usize) < 34 {
                            all[t as usize] += 1;
                        }
                    }
                }
                assert!(
                    all.iter().all(|&c| c == 4),
                    "seed {seed} step {step}: {all:?}"
                );
                // The rebuilt hand plays to its end.
                let mut probe = copy.clone();
                while !probe.is_over() {
                    let s = probe.pending_seats().next().unwrap();
                    let a = probe.legal_actions(s)[0];
                    probe.apply(s, a).unwrap();
                }
                let legal = round.legal_actions(seat);
                let a = if legal.contains(&Action::Win) {
                    Action::Win
                } else if step % 2 == 0 && legal.len() > 1 && legal.contains(&Action::Pass) {
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
    fn inconsistent_views_are_refused() {
        let rules = Rules::gb();
        let round = Round::new(&rules, 1, 0, 0).unwrap();
        let mut obs = round.observe(0);
        obs.hand[0] = 4;
        obs.visible[0] = 3;
        let mut rng = Rng::new(1);
        assert!(Round::determinize(&rules, &obs, &mut rng).is_err());
        let mut obs = round.observe(0);
        obs.wall_remaining = 3;
        assert!(Round::determinize(&rules, &obs, &mut rng).is_err());
    }

    #[test]
    fn same_rng_same_sample() {
        let rules = Rules::gb();
        let round = Round::new(&rules, 8, 0, 0).unwrap();
        let obs = round.observe(0);
        let a = Round::determinize(&rules, &obs, &mut Rng::new(5)).unwrap();
        let b = Round::determinize(&rules, &obs, &mut Rng::new(5)).unwrap();
        let c = Round::determinize(&rules, &obs, &mut Rng::new(6)).unwrap();
        assert_eq!(a.seat(1).hand, b.seat(1).hand);
        assert_eq!(a.wall().order(), b.wall().order());
        assert_ne!(a.wall().order(), c.wall().order());
        assert_eq!(a.seat(0).hand, round.seat(0).hand);
    }
}
