//! Ground truth for the defense: self-play hands where, at every own-turn discard
//! decision, each (opponent, kind) pair gets the features of [`super::danger_model`]
//! computed from the deciding seat's view alone and the labels from the full round.
//!
//! Labels, from the opponents' concealed hands at the moment of the decision:
//!
//! - `ready`: the opponent's hand is waiting and some wait reaches the fan minimum, on a
//!   discard or by self-draw (the fan evaluator, as the round prices a win);
//! - `deal_in`: a discard of the kind now would be a win for the opponent that reaches
//!   the minimum (with 和绝张 and the last discard as the round would score them).
//!
//! Hand `i` of a run seeded `S` is played exactly as `simulate` plays it (the same wall,
//! dealer, wind and policy seeds), so the samples are a function of the seed and the
//! bots, never of the thread count.

use super::danger::{self, Threat};
use super::danger_model::OpponentReading;
use super::unseen_of;
use crate::error::MjResult;
use crate::fan::{self, WinInput};
use crate::policy::{Policy, PolicyKind, RoundView, TableView};
use crate::round::{Action, Phase, Round};
use crate::rules::Rules;
use crate::seed::{deal_of, hand_seed, policy_seed};
use crate::shanten;
use crate::tile::Counts;
use rayon::prelude::*;

const NO_USED: Counts = [0; 34];

/// The samples of a run: one seat row per (decision, opponent), one tile row per
/// (decision, opponent, kind) asked for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    /// Seat features, [`super::danger_model::N_SEAT`] per row.
    pub seat_x: Vec<f32>,
    /// The opponent was ready with a scoring wait.
    pub ready: Vec<u8>,
    /// The hand-made model's chance that the opponent is ready.
    pub h_ready: Vec<f32>,
    /// The learned model's chance that the opponent is ready ([`OpponentReading::ready`]).
    pub p_ready: Vec<f32>,
    /// The hand of each seat row (its index in the run).
    pub hand: Vec<u32>,
    /// The deciding seat and the opponent of each seat row.
    pub seats: Vec<[u8; 2]>,
    /// Tile features, [`super::danger_model::N_TILE`] per row.
    pub tile_x: Vec<f32>,
    /// The seat row of each tile row.
    pub seat_row: Vec<u32>,
    /// The kind of each tile row.
    pub tile: Vec<u8>,
    /// A discard of the kind would have been a scoring win for the opponent.
    pub deal_in: Vec<u8>,
    /// The hand-made model's chance that the discard deals in to this opponent
    /// ([`danger::danger_of`]).
    pub h_danger: Vec<f32>,
    /// The learned model's chance that the kind wins for the opponent if it is ready
    /// ([`OpponentReading::wait`]).
    pub p_wait: Vec<f32>,
}

impl Samples {
    /// Appends `other`'s rows (its hands after this one's).
    pub fn append(&mut self, mut other: Samples) {
        let base = self.ready.len() as u32;
        self.seat_x.append(&mut other.seat_x);
        self.ready.append(&mut other.ready);
        self.h_ready.append(&mut other.h_ready);
        self.p_ready.append(&mut other.p_ready);
        self.hand.append(&mut other.hand);
        self.seats.append(&mut other.seats);
        self.tile_x.append(&mut other.tile_x);
        self.seat_row
            .extend(other.seat_row.iter().map(|r| r + base));
        self.tile.append(&mut other.tile);
        self.deal_in.append(&mut other.deal_in);
        self.h_danger.append(&mut other.h_danger);
        self.p_wait.append(&mut other.p_wait);
    }
}

/// Plays hands `hands` (hand `i` as `simulate` plays it from `seed`) of `bots` on
/// `rules` and records the samples in hand order; `all_kinds` asks for every kind, else
/// only the kinds the deciding seat holds (its possible discards). Runs on `pool`. The
/// samples of `a..c` are those of `a..b` followed by those of `b..c`, so a caller may
/// play a long run in pieces.
pub fn samples(
    rules: &Rules,
    bots: &[PolicyKind; 4],
    hands: std::ops::Range<u64>,
    seed: u64,
    all_kinds: bool,
    pool: &rayon::ThreadPool,
) -> MjResult<Samples> {
    let parts: Vec<MjResult<Samples>> = pool.install(|| {
        hands
            .into_par_iter()
            .map_init(
                || -> [Box<dyn Policy>; 4] { std::array::from_fn(|s| bots[s].build(rules)) },
                |policies, i| play_hand(rules, policies, seed, i, all_kinds),
            )
            .collect()
    });
    let mut out = Samples::default();
    for p in parts {
        out.append(p?);
    }
    Ok(out)
}

/// Plays hand `i` of the run seeded `seed`, recording its samples.
fn play_hand(
    rules: &Rules,
    policies: &mut [Box<dyn Policy>; 4],
    seed: u64,
    i: u64,
    all_kinds: bool,
) -> MjResult<Samples> {
    let wall = hand_seed(seed, i);
    let (dealer, wind) = deal_of(i);
    let mut round = Round::new(rules, wall, dealer, wind)?;
    round.set_record_events(false);
    for (s, p) in policies.iter_mut().enumerate() {
        p.begin_hand(policy_seed(wall, s as u8));
    }
    let mut out = Samples::default();
    loop {
        let pending = round.pending();
        if pending == 0 {
            return Ok(out);
        }
        let seat = pending.trailing_zeros() as u8;
        let view = RoundView {
            round: &round,
            seat,
        };
        let own_turn = round.phase() == Phase::Turn && round.turn() == seat;
        if own_turn && view.legal().iter().any(|a| matches!(a, Action::Discard(_))) {
            record(&round, seat, i as u32, all_kinds, &mut out);
        }
        let action = policies[seat as usize].act(&view);
        round.apply(seat, action)?;
    }
}

/// Records the rows of `seat`'s decision now.
fn record(round: &Round, seat: u8, hand_index: u32, all_kinds: bool, out: &mut Samples) {
    let view = RoundView { round, seat };
    let (m, n) = view.melds(seat);
    let unseen = unseen_of(&view, &m[..n]);
    let threats = danger::threats(&view);
    let held = view.hand();
    for o in 0..4u8 {
        if o == seat {
            continue;
        }
        let th: &Threat = &threats[o as usize];
        let r = OpponentReading::new(&view, o, th, &unseen);
        let h = danger::danger_of(&view, o, th, &unseen);
        let (ready, wins) = truth(round, o);
        let row = out.ready.len() as u32;
        out.seat_x.extend_from_slice(&r.seat);
        out.ready.push(ready as u8);
        out.h_ready.push(th.ready);
        out.p_ready.push(r.ready());
        out.hand.push(hand_index);
        out.seats.push([seat, o]);
        for t in 0..34usize {
            if !all_kinds && held[t] == 0 {
                continue;
            }
            let x = r.tile_features(t, &unseen, view.visible());
            out.tile_x.extend_from_slice(&x);
            out.seat_row.push(row);
            out.tile.push(t as u8);
            out.deal_in.push((wins >> t & 1) as u8);
            out.h_danger.push(h[t]);
            out.p_wait.push(r.wait_of(t, &x));
        }
    }
}

/// Whether seat `o` is ready with a scoring wait, and the kinds whose discard now would
/// be a scoring win for it (bits).
fn truth(round: &Round, o: u8) -> (bool, u64) {
    let st = round.seat(o);
    if st.barred {
        return (false, 0);
    }
    let melds = st.melds();
    let waits = shanten::waits(&st.hand, &NO_USED, st.n_melds, 0);
    let mut ready = false;
    let mut wins = 0u64;
    let mut bits = waits;
    while bits != 0 {
        let t = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let Ok(mut input) = WinInput::new(st.hand, melds, t) else {
            continue;
        };
        input.seat_wind = round.seat_wind(o);
        input.prevalent_wind = round.prevalent_wind();
        input.flowers = st.n_flowers;
        input.declared_ready = st.ready && round.rules().fan.ready_fan;
        // 和绝张: the other copies visible before the discard (the discard makes four).
        input.fourth_tile = round.visible()[t as usize] >= 3;
        input.wall_last = round.wall().remaining() == 0;
        let meets =
            |inp: &WinInput| fan::evaluate(inp, &round.rules().fan).is_ok_and(|f| f.meets_minimum);
        if meets(&input) {
            ready = true;
            wins |= 1 << t;
            continue;
        }
        if !ready {
            let mut selfdraw = input;
            selfdraw.self_drawn = true;
            selfdraw.fourth_tile = false;
            selfdraw.wall_last = false;
            ready = meets(&selfdraw);
        }
    }
    (ready, wins)
}

#[cfg(test)]
mod tests {
    use super::super::danger_model::{N_SEAT, N_TILE};
    use super::*;

    #[test]
    fn samples_are_deterministic_and_labelled() {
        let rules = Rules::gb();
        let bots = [PolicyKind::Strong; 4];
        let pool = crate::sim::pool(Some(2)).unwrap();
        let a = samples(&rules, &bots, 0..6, 7, false, &pool).unwrap();
        let pool1 = crate::sim::pool(Some(1)).unwrap();
        let b = samples(&rules, &bots, 0..6, 7, false, &pool1).unwrap();
        assert_eq!(a, b);
        // Played in pieces, the same rows in the same order.
        let mut c = samples(&rules, &bots, 0..2, 7, false, &pool1).unwrap();
        c.append(samples(&rules, &bots, 2..6, 7, false, &pool).unwrap());
        assert_eq!(a, c);
        assert_eq!(a.seat_x.len(), a.ready.len() * N_SEAT);
        assert_eq!(a.tile_x.len(), a.deal_in.len() * N_TILE);
        assert!(a.ready.contains(&1));
        // A deal-in needs a ready opponent.
        for (k, &d) in a.deal_in.iter().enumerate() {
            if d == 1 {
                assert_eq!(a.ready[a.seat_row[k] as usize], 1);
            }
        }
    }
}
