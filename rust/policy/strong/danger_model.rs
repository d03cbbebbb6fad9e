//! A learned defense: the chance that an opponent is ready and the chance that a discard
//! deals in to it, by logistic regression on features of the public table, fitted on
//! self-play ground truth.
//!
//! # The model
//!
//! For the observer `me`, each opponent `o` and each kind `t`:
//!
//! - `P(ready_o) = σ(w_r · seat_features(o))`, where ready means `o`'s concealed hand is
//!   waiting with at least one wait that reaches the fan minimum (on a discard or by
//!   self-draw);
//! - `P(t wins for o | ready_o) = σ(w_w · [seat_features(o), tile_features(o, t)])`,
//!   fitted on the positions where `o` was ready (a kind passed since `o`'s last discard
//!   gets a constant instead, [`PASSED_WAIT`]);
//! - the chance that discarding `t` deals in to `o` is their product, and to some
//!   opponent `1 - Π_o (1 - P_o(t))` as in [`super::danger::danger`].
//!
//! The features ([`SEAT_FEATURES`], [`TILE_FEATURES`]) start from the hand-made model's
//! own figures (its ready chance, the share of a ready hand's waits it gives `t`, the
//! flush sign, `o`'s own discards) and add what it lacks. The strongest is the passed
//! tile: gb has no furiten, so a kind discarded by another seat after `o`'s last discard,
//! on which `o` did not win, is not a scoring wait of `o`'s hand now (that hand has not
//! changed since), whatever `o` holds.
//!
//! # Data and weights
//!
//! The ground truth comes from [`super::danger_data::samples`]: hands of self-play where,
//! at every own-turn discard decision, each (opponent, kind) row is computed from the
//! deciding seat's [`TableView`] only, and labelled from the full round (the opponents'
//! concealed hands and the engine's fan evaluation). `benches/train_danger.py` fits both
//! models (Newton's method with a small L2 penalty) and prints the constants below; its
//! header says how to regenerate them. [`READY_WEIGHTS`] and [`WAIT_WEIGHTS`] say which
//! data and seeds produced them.

use super::danger::{self, DiscardTally, SeatDiscards, Threat};
use crate::hand::MeldKind;
use crate::policy::TableView;
use crate::round::HIDDEN;
use crate::tile::Counts;

/// Names of the per-opponent features, in [`OpponentReading::seat`] order (the first is the
/// constant 1).
pub const SEAT_FEATURES: [&str; 18] = [
    "bias",
    "h_ready_logit",
    "discards",
    "discards_sq",
    "sets_1",
    "sets_2",
    "sets_3",
    "sets_4",
    "chows",
    "pungs",
    "declared_ready",
    "turn",
    "wall",
    "passed_kinds",
    "flush_strength",
    "middle_share",
    "middle_share_recent",
    "honor_share",
];
/// Per-opponent features.
pub const N_SEAT: usize = SEAT_FEATURES.len();

/// Names of the per-(opponent, kind) features, in [`OpponentReading::tile_features`]
/// order.
pub const TILE_FEATURES: [&str; 22] = [
    "h_wait_log",
    "own_discard",
    "passed_last",
    "passed_prev",
    "unseen",
    "unseen_0",
    "unseen_1",
    "honor",
    "terminal",
    "two_eight",
    "value_honor",
    "flush_in",
    "flush_off",
    "flush_honor",
    "suit_share",
    "near_unseen",
    "far_unseen",
    "own_suji",
    "own_neighbour",
    "pair_pungs",
    "visible",
    "suit_recent",
];
/// Per-(opponent, kind) features.
pub const N_TILE: usize = TILE_FEATURES.len();
/// Features of the wait model: the seat's then the kind's.
pub const N_WAIT: usize = N_SEAT + N_TILE;

fn logit(p: f32) -> f32 {
    let p = p.clamp(0.01, 0.99);
    (p / (1.0 - p)).ln()
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// `x` as a share of `n` discards (0 without any).
fn shares(n: u32) -> impl Fn(f32) -> f32 {
    let nf = n as f32;
    move |x| if n > 0 { x / nf } else { 0.0 }
}

/// Of an opponent's last discards of a kind (at most six entries back): how many are
/// middle tiles and how many there are, and the suits of the last three.
fn recent(disc: &SeatDiscards) -> (f32, f32, [f32; 4]) {
    let mut middle = 0f32;
    let mut n = 0f32;
    let mut suits = [0f32; 4];
    for &tile in &disc.recent[..disc.n_recent as usize] {
        let t = tile as usize;
        if t >= 34 {
            continue;
        }
        if n < 3.0 {
            suits[(t / 9).min(3)] = 1.0;
        }
        n += 1.0;
        if t < 27 && (2..=6).contains(&(t % 9)) {
            middle += 1.0;
        }
    }
    (middle, n, suits)
}

/// The features of opponent `o` ([`SEAT_FEATURES`]) with its hand-made threat `th` and
/// what the discards say about it (`disc`).
fn seat_features(view: &dyn TableView, o: u8, th: &Threat, disc: &SeatDiscards) -> [f32; N_SEAT] {
    let mut x = [0f32; N_SEAT];
    x[..PREFIX].copy_from_slice(&seat_prefix(view, o, th, disc));
    x[PREFIX..STYLE].copy_from_slice(&seat_turn(view, disc));
    x[STYLE..].copy_from_slice(&seat_style(th, disc));
    x
}

/// The first seat features, through `declared_ready`: they read the opponent's discards
/// of a kind, its entries and melds and whether it declared ready, so they change only
/// when it discards, melds or declares.
const PREFIX: usize = 11;

/// The seat features before [`PREFIX`].
fn seat_prefix(view: &dyn TableView, o: u8, th: &Threat, disc: &SeatDiscards) -> [f32; PREFIX] {
    let (melds, k) = view.melds(o);
    let mut chows = 0f32;
    let mut pungs = 0f32;
    for m in &melds[..k] {
        if m.kind == MeldKind::Chow && m.tile != HIDDEN {
            chows += 1.0;
        } else {
            pungs += 1.0;
        }
    }
    let d = disc.n as f32 / 10.0;
    let sets = k.min(4);
    [
        1.0,
        logit(th.ready),
        d,
        d * d,
        (sets == 1) as u8 as f32,
        (sets == 2) as u8 as f32,
        (sets == 3) as u8 as f32,
        (sets == 4) as u8 as f32,
        chows / 4.0,
        pungs / 4.0,
        view.is_ready(o) as u8 as f32,
    ]
}

/// The first seat feature after [`PREFIX`] that reads only the opponent's own discards
/// and melds (`flush_strength` on): those before it change with every step of the table.
const STYLE: usize = 14;

/// The seat features from [`PREFIX`] to [`STYLE`]: the turn, the wall and the kinds passed
/// since the opponent's last discard.
fn seat_turn(view: &dyn TableView, disc: &SeatDiscards) -> [f32; STYLE - PREFIX] {
    [
        view.discards().len() as f32 / 40.0,
        view.wall_remaining() as f32 / 100.0,
        disc.passed_last.count_ones() as f32 / 10.0,
    ]
}

/// The seat features from [`STYLE`] on: the flush sign and the opponent's discards'
/// shares.
fn seat_style(th: &Threat, disc: &SeatDiscards) -> [f32; N_SEAT - STYLE] {
    let (recent_middle, recent_n, _) = recent(disc);
    let share = shares(disc.n);
    [
        th.flush_strength,
        share(disc.middle as f32),
        if recent_n > 0.0 {
            recent_middle / recent_n
        } else {
            0.0
        },
        share(disc.honors as f32),
    ]
}

/// What an opponent's ready model reads only from the opponent's own discards and melds
/// and whether it declared ready: the model's sum over its features before `PREFIX`,
/// and its features from `STYLE` on, with what they were read from (its entries and
/// discards of a kind in the list, its melds and whether it declared: within a hand its
/// melds only grow, and a pung that becomes a kong keeps its tile and counts the same);
/// kept by a table from one decision to the next ([`ready_chances_kept`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadyPrefix {
    key: Option<(u32, u32, usize, bool)>,
    sum: f32,
    style: [f32; N_SEAT - STYLE],
}

/// What the table says about one opponent, ready to give its features.
#[derive(Debug, Clone)]
pub struct OpponentReading {
    /// The hand-made model's threat.
    pub threat: Threat,
    /// Its features ([`SEAT_FEATURES`]).
    pub seat: [f32; N_SEAT],
    /// The hand-made share of a ready hand's waits on each kind
    /// ([`danger::wait_shares`]).
    shares: [f32; 34],
    /// Kinds `o` discarded.
    own: u64,
    /// Kinds discarded by other seats after `o`'s last discard.
    passed_last: u64,
    /// ... after its second-to-last discard.
    passed_prev: u64,
    /// Kinds that are value honors for `o` (dragons, its seat wind, the prevalent wind).
    value: u64,
    /// `o`'s discards in each suit (honors last), as shares.
    suit_share: [f32; 4],
    /// Suits among `o`'s last three discards.
    suit_recent: [f32; 4],
}

impl OpponentReading {
    /// Reads opponent `o` of `view.seat()`, with its hand-made threat `th` and the
    /// observer's `unseen` copies.
    pub fn new(view: &dyn TableView, o: u8, th: &Threat, unseen: &Counts) -> OpponentReading {
        Self::new_with(view, o, th, unseen, &DiscardTally::of(view.discards()))
    }

    /// [`OpponentReading::new`] from the tally of `view`'s discards.
    pub fn new_with(
        view: &dyn TableView,
        o: u8,
        th: &Threat,
        unseen: &Counts,
        tally: &DiscardTally,
    ) -> OpponentReading {
        Self::with_shapes(view, o, th, &danger::shape_weights(unseen, th.pungs), tally)
    }

    /// [`OpponentReading::new_with`] from the kinds' shape weights `shapes` under the
    /// observer's unseen copies ([`danger::shape_weights`] with the pung sign of `th`),
    /// which opponents of the same sign share.
    fn with_shapes(
        view: &dyn TableView,
        o: u8,
        th: &Threat,
        shapes: &[f32; 34],
        tally: &DiscardTally,
    ) -> OpponentReading {
        let mut r = Self::read(view, o, th, &tally.seats[o as usize]);
        r.shares = danger::wait_shares_of(th, shapes);
        r
    }

    /// [`OpponentReading::new`] without the wait shares (0): everything
    /// [`OpponentReading::ready`] reads, `disc` what the discards say about `o`
    /// ([`DiscardTally`]).
    fn read(view: &dyn TableView, o: u8, th: &Threat, disc: &SeatDiscards) -> OpponentReading {
        let wind = (o + 4 - view.dealer()) % 4;
        let value = (0x7u64 << 31) | 1 << (27 + wind) | 1 << (27 + view.prevalent_wind() % 4);
        let share = shares(disc.n);
        OpponentReading {
            threat: *th,
            seat: seat_features(view, o, th, disc),
            shares: [0.0; 34],
            own: disc.own,
            passed_last: disc.passed_last,
            passed_prev: disc.passed_prev,
            value,
            suit_share: disc.suits.map(|x| share(x as f32)),
            suit_recent: recent(disc).2,
        }
    }

    /// The features of kind `t` ([`TILE_FEATURES`]); `unseen` and `visible` as the
    /// observer counts them.
    pub fn tile_features(&self, t: usize, unseen: &Counts, visible: &Counts) -> [f32; N_TILE] {
        let th = &self.threat;
        let bit = |m: u64, x: usize| (m >> x & 1) as f32;
        let honor = t >= 27;
        let r = t % 9;
        let s = (t / 9).min(3);
        let u = |x: usize| unseen[x] as f32 / 4.0;
        let in_suit = |x: isize| -> Option<usize> {
            (!honor && x >= 0 && (x as usize) < 27 && x as usize / 9 == s).then_some(x as usize)
        };
        let ti = t as isize;
        let near = [ti - 1, ti + 1]
            .iter()
            .filter_map(|&x| in_suit(x))
            .map(u)
            .sum::<f32>()
            / 2.0;
        let far = [ti - 2, ti + 2]
            .iter()
            .filter_map(|&x| in_suit(x))
            .map(u)
            .sum::<f32>()
            / 2.0;
        let suji = [ti - 3, ti + 3]
            .iter()
            .filter_map(|&x| in_suit(x))
            .any(|x| self.own >> x & 1 == 1);
        let neighbour = [ti - 2, ti - 1, ti + 1, ti + 2]
            .iter()
            .filter_map(|&x| in_suit(x))
            .any(|x| self.own >> x & 1 == 1);
        let (flush_in, flush_off, flush_honor) = match th.flush_suit {
            Some(f) if !honor && s == f as usize => (th.flush_strength, 0.0, 0.0),
            Some(_) if !honor => (0.0, th.flush_strength, 0.0),
            Some(_) => (0.0, 0.0, th.flush_strength),
            None => (0.0, 0.0, 0.0),
        };
        [
            self.shares[t].max(1e-3).ln(),
            bit(self.own, t),
            bit(self.passed_last, t),
            bit(self.passed_prev, t),
            u(t),
            (unseen[t] == 0) as u8 as f32,
            (unseen[t] == 1) as u8 as f32,
            honor as u8 as f32,
            (!honor && (r == 0 || r == 8)) as u8 as f32,
            (!honor && (r == 1 || r == 7)) as u8 as f32,
            (honor && self.value >> t & 1 == 1) as u8 as f32,
            flush_in,
            flush_off,
            flush_honor,
            self.suit_share[s],
            near,
            far,
            suji as u8 as f32,
            neighbour as u8 as f32,
            (th.pungs && unseen[t] >= 2) as u8 as f32,
            visible[t].min(4) as f32 / 4.0,
            self.suit_recent[s],
        ]
    }

    /// The learned chance that this opponent is ready (the chance
    /// [`ready_chances`] gives).
    pub fn ready(&self) -> f32 {
        sigmoid(dot(&READY_WEIGHTS, &self.seat))
    }

    /// The learned chance that a discard of `t` wins for this opponent given that it is
    /// ready. A kind passed since the opponent's last discard (discarded by another seat,
    /// not won on, the opponent's hand unchanged since) is not a scoring wait of its hand
    /// unless the fans changed meanwhile (和绝张): it gets [`PASSED_WAIT`].
    pub fn wait(&self, t: usize, unseen: &Counts, visible: &Counts) -> f32 {
        if self.passed_last >> t & 1 == 1 {
            return PASSED_WAIT;
        }
        self.regression(&self.tile_features(t, unseen, visible))
    }

    /// [`OpponentReading::wait`] of kind `t` from its features `x`
    /// ([`OpponentReading::tile_features`]).
    pub fn wait_of(&self, t: usize, x: &[f32; N_TILE]) -> f32 {
        if self.passed_last >> t & 1 == 1 {
            return PASSED_WAIT;
        }
        self.regression(x)
    }

    /// The wait model's chance for a kind with features `x`.
    fn regression(&self, x: &[f32; N_TILE]) -> f32 {
        let z = dot(&WAIT_WEIGHTS[..N_SEAT], &self.seat) + dot(&WAIT_WEIGHTS[N_SEAT..], x);
        sigmoid(z)
    }
}

fn dot(w: &[f32], x: &[f32]) -> f32 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The learned defense from `view.seat()`: for each kind the seat holds (its possible
/// discards, also after a claim) the chance that discarding it deals in to some opponent
/// (0 for the kinds it does not hold); the threats of the hand-made model it reads them
/// from; and each seat's learned chance of being ready (0 for the observer).
pub fn danger(view: &dyn TableView, unseen: &Counts) -> ([f32; 34], [Threat; 4], [f32; 4]) {
    let tally = DiscardTally::of(view.discards());
    let th = danger::threats_with(view, &tally);
    let mut ready_of = [0f32; 4];
    let me = view.seat();
    let visible = view.visible();
    let held = view.hand();
    let mut safe = [1f32; 34];
    // The shape weights without and with the pung sign, found once for the opponents.
    let mut shapes: [Option<[f32; 34]>; 2] = [None, None];
    for o in 0..4u8 {
        if o == me {
            continue;
        }
        let t = &th[o as usize];
        let s = shapes[usize::from(t.pungs)]
            .get_or_insert_with(|| danger::shape_weights(unseen, t.pungs));
        let r = OpponentReading::with_shapes(view, o, t, s, &tally);
        let ready = r.ready();
        for (t, s) in safe.iter_mut().enumerate() {
            if held[t] > 0 {
                *s *= 1.0 - ready * r.wait(t, unseen, visible);
            }
        }
        ready_of[o as usize] = ready;
    }
    let mut out = [0f32; 34];
    for t in 0..34 {
        out[t] = 1.0 - safe[t];
    }
    (out, th, ready_of)
}

/// Each seat's learned chance of being ready as `view.seat()` reads it (0 for the
/// observer): the `ready` chances of [`danger()`], without the per-kind wait model.
pub fn ready_chances(view: &dyn TableView) -> [f32; 4] {
    ready_chances_with(view, &DiscardTally::of(view.discards()))
}

/// [`ready_chances`] from the tally of `view`'s discards.
pub fn ready_chances_with(view: &dyn TableView, tally: &DiscardTally) -> [f32; 4] {
    ready_chances_kept(view, tally, &mut [ReadyPrefix::default(); 4])
}

/// [`ready_chances_with`], each opponent's [`ReadyPrefix`] read from `kept` when what it
/// reads has not changed (else computed, with the opponent's threat, and kept there). `kept` must follow one hand of
/// one table from its deal; the chances equal [`ready_chances`]': the model's sum adds the
/// features in order, so adding the rest to the kept sum of the first ones is the same
/// sum.
pub fn ready_chances_kept(
    view: &dyn TableView,
    tally: &DiscardTally,
    kept: &mut [ReadyPrefix; 4],
) -> [f32; 4] {
    let me = view.seat();
    std::array::from_fn(|o| {
        if o as u8 == me {
            return 0.0;
        }
        let disc = &tally.seats[o];
        let key = (
            disc.entries,
            disc.n,
            view.melds(o as u8).1,
            view.is_ready(o as u8),
        );
        let prefix = &mut kept[o];
        if prefix.key != Some(key) {
            let th = danger::threat_of(view, o as u8, disc);
            let x = seat_prefix(view, o as u8, &th, disc);
            *prefix = ReadyPrefix {
                key: Some(key),
                sum: dot(&READY_WEIGHTS[..PREFIX], &x),
                style: seat_style(&th, disc),
            };
        }
        let turn = seat_turn(view, disc);
        let sum = READY_WEIGHTS[PREFIX..]
            .iter()
            .zip(turn.iter().chain(&prefix.style))
            .fold(prefix.sum, |acc, (w, x)| acc + w * x);
        sigmoid(sum)
    })
}

// BEGIN WEIGHTS (written by benches/train_danger.py --write)
/// Weights of the ready model, in [`SEAT_FEATURES`] order: fitted by
/// `benches/train_danger.py` on gb self-play,
/// `--train-hands 1500 --train-seed 1 --bots strong --l2 0.1`.
pub const READY_WEIGHTS: [f32; 18] = [
    -6.177757,   // bias
    0.4817978,   // h_ready_logit
    3.779115,    // discards
    -0.7296548,  // discards_sq
    -0.401867,   // sets_1
    -0.4097074,  // sets_2
    -0.03119821, // sets_3
    1.70746,     // sets_4
    1.634058,    // chows
    -0.2553175,  // pungs
    0.0,         // declared_ready
    0.3100585,   // turn
    2.488319,    // wall
    -0.04113057, // passed_kinds
    -1.139029,   // flush_strength
    0.1158368,   // middle_share
    1.346458,    // middle_share_recent
    -0.8342084,  // honor_share
];

/// Weights of the wait model, [`SEAT_FEATURES`] then [`TILE_FEATURES`]: fitted
/// on the ready rows of the same data,
/// `--train-hands 1500 --train-seed 1 --bots strong --l2 0.1`.
pub const WAIT_WEIGHTS: [f32; 40] = [
    -1.906581,     // bias
    -0.04780326,   // h_ready_logit
    1.182673,      // discards
    -0.1676274,    // discards_sq
    0.1055616,     // sets_1
    0.03251542,    // sets_2
    -0.0006648599, // sets_3
    -0.03219159,   // sets_4
    0.1276661,     // chows
    -0.1177083,    // pungs
    0.0,           // declared_ready
    0.6798985,     // turn
    2.106629,      // wall
    0.1392251,     // passed_kinds
    0.2770728,     // flush_strength
    0.4354436,     // middle_share
    0.01880532,    // middle_share_recent
    -0.5291548,    // honor_share
    0.93484,       // h_wait_log
    -1.996719,     // own_discard
    0.0,           // passed_last
    -1.28173,      // passed_prev
    -0.2753262,    // unseen
    0.8506188,     // unseen_0
    0.2919365,     // unseen_1
    -1.300939,     // honor
    -0.7292686,    // terminal
    -0.4458072,    // two_eight
    0.4954984,     // value_honor
    -0.642727,     // flush_in
    -0.004401413,  // flush_off
    0.9242013,     // flush_honor
    -1.162352,     // suit_share
    -0.2578684,    // near_unseen
    -0.4671558,    // far_unseen
    -0.267313,     // own_suji
    -0.1044629,    // own_neighbour
    0.1811416,     // pair_pungs
    -2.496183,     // visible
    0.1854601,     // suit_recent
];

/// The chance that a passed kind (see [`OpponentReading::wait`]) wins for a ready
/// opponent: its observed rate in the same data,
/// `--train-hands 1500 --train-seed 1 --bots strong --l2 0.1`.
pub const PASSED_WAIT: f32 = 0.002383384;
// END WEIGHTS

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::positions::facing_a_dot_flush;
    use crate::policy::strong::{unseen_of, StrongConfig, StrongPolicy};
    use crate::rules::Rules;
    use crate::tile;

    fn kind(s: &str) -> usize {
        tile::parse(s).unwrap()[0] as usize
    }

    #[test]
    fn a_passed_kind_gets_the_passed_chance() {
        let o = facing_a_dot_flush();
        let unseen = unseen_of(&o, &[]);
        let th = danger::threats(&o);
        let r = OpponentReading::new(&o, 1, &th[1], &unseen);
        // Seats 2 and 3 discarded 5z after seat 1's last discard.
        assert_eq!(r.wait(kind("5z"), &unseen, &o.visible), PASSED_WAIT);
        assert!(r.wait(kind("6z"), &unseen, &o.visible) > PASSED_WAIT);
        let x = r.tile_features(kind("5z"), &unseen, &o.visible);
        let at = |name: &str| TILE_FEATURES.iter().position(|&n| n == name).unwrap();
        assert_eq!(x[at("passed_last")], 1.0);
        assert_eq!(x[at("own_discard")], 1.0);
        assert_eq!(x[at("value_honor")], 1.0);
    }

    #[test]
    fn the_dot_flush_makes_the_lone_dot_the_most_dangerous_discard() {
        let o = facing_a_dot_flush();
        let unseen = unseen_of(&o, &[]);
        let (d, th, ready) = danger(&o, &unseen);
        let held = (0..34).filter(|&t| o.hand[t] > 0);
        let worst = held.max_by(|&a, &b| d[a].total_cmp(&d[b])).unwrap();
        assert_eq!(worst, kind("5p"), "{d:?}");
        assert_eq!(ready[0], 0.0);
        // The hand-made reading is near certain that three exposed sets mean ready; in
        // self-play, such a seat holds a scoring wait far less often.
        let hand_made = danger::threats(&o);
        assert_eq!(th, hand_made);
        assert!(hand_made[1].ready > 0.7);
        assert!(ready[1] > 0.05 && ready[1] < 0.5, "{ready:?}");
        assert!(d.iter().all(|p| (0.0..1.0).contains(p)));
    }

    #[test]
    fn the_expert_explains_with_the_figures_it_used() {
        let o = facing_a_dot_flush();
        let unseen = unseen_of(&o, &[]);
        let (d, th) = StrongConfig::expert().defense(&o, &unseen);
        let mut p = StrongPolicy::new(&Rules::gb(), 0, StrongConfig::expert());
        let (_, e) = p.explain(&o).unwrap();
        let x = e.discard(kind("5p") as u8).unwrap();
        assert_eq!(x.danger, d[kind("5p")]);
        assert_ne!(x.danger, danger::danger(&o, &unseen).0[kind("5p")]);
        assert_eq!(e.threats[0].ready, th[1].ready);
    }

    #[test]
    fn the_configurations_choose_their_model() {
        let o = facing_a_dot_flush();
        let unseen = unseen_of(&o, &[]);
        let hand_made = danger::danger(&o, &unseen);
        let learned = danger(&o, &unseen);
        assert_eq!(StrongConfig::default().defense(&o, &unseen), hand_made);
        let expert = StrongConfig::expert();
        let (d, th) = expert.defense(&o, &unseen);
        assert_eq!(d, learned.0);
        assert_eq!(th, hand_made.1);
        assert_ne!(d, hand_made.0);
    }
}
