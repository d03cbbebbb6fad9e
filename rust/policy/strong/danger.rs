//! Defense: how likely each opponent is to be ready, and how likely a discard is to be
//! the tile one of them waits on, from what is visible.
//!
//! # Readiness
//!
//! A seat's chance of being ready grows with its discards (the turn) and with its
//! exposed sets (a seat with three sets holds four or five tiles, with four sets one or
//! two); a declared ready (classic 报听) is certain. The two signs combine as independent
//! chances.
//!
//! # The tile a ready seat waits on
//!
//! A ready hand waits on a few kinds. The weight of kind `t` is the sum over the waiting
//! shapes that could take it (two-sided, closed and edge waits for suited tiles, a pair
//! wait, a single-tile wait), each counted by how many of the tiles the shape needs are
//! still unseen (a "wall" of visible copies makes a shape impossible). The weights are
//! normalised to about [`WAITS`] kinds. Then the seat's style bends them:
//!
//! - sets exposed in one suit only (plus honors) point to a flush: that suit (and the
//!   honors for a half flush) is far more dangerous, the other suits nearly safe; three
//!   exposed sets of one suit make this almost certain;
//! - pungs without chows point to all pungs: pair and single waits (honors, tiles with
//!   copies left) count more, run waits less;
//! - a tile the seat itself discarded is less likely (gb has no furiten, but a hand
//!   rarely waits on a tile it let go).
//!
//! The danger of a discard is the chance that some opponent is ready and waits on it.
//!
//! # Calibration
//!
//! Measured on self-play ground truth (`benches/train_danger.py`: 800 hands of four strong
//! bots, seed 2), these figures are too high: a mean ready chance of 0.28 against 0.13
//! observed, a mean deal-in chance per (opponent, held kind) of 0.017 against 0.006. The
//! strong bot prices them with a small weight ([`super::DANGER_WEIGHT`]); the expert uses
//! the learned model of [`super::danger_model`] instead, which starts from these figures.

use crate::hand::MeldKind;
use crate::policy::TableView;
use crate::round::{DiscardEntry, HIDDEN};
use crate::tile::Counts;

/// Kinds a ready hand waits on, on average.
pub const WAITS: f32 = 2.2;

/// What the table says about one opponent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Threat {
    /// Chance the seat is ready now.
    pub ready: f32,
    /// The suit its exposed sets point to (a flush), if any.
    pub flush_suit: Option<u8>,
    /// How sure the flush sign is (0-1).
    pub flush_strength: f32,
    /// Its exposed sets are pungs only (two or more): an all-pungs sign.
    pub pungs: bool,
    /// Exposed sets (concealed kongs included).
    pub sets: u8,
}

/// What one seat's discards, and the other seats' after them, say: the figures of a
/// hand's discard list that [`threats`] and the learned model
/// ([`super::danger_model::OpponentReading`]) read, per seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeatDiscards {
    /// Its entries in the list (whatever their tile).
    pub entries: u32,
    /// Its discards of a kind (tile below 34).
    pub n: u32,
    /// The kinds it discarded (bit per kind).
    pub own: u64,
    /// Its discards per suit (honours last).
    pub suits: [u32; 4],
    /// Its discards of middle tiles (3-7 of a suit).
    pub middle: u32,
    /// Its discards of honours.
    pub honors: u32,
    /// The tiles of its last entries, newest first (the first `n_recent`, at most six).
    pub recent: [u8; 6],
    /// How many of `recent` are its.
    pub n_recent: u8,
    /// Kinds the other seats discarded after its last discard of a kind (all of theirs
    /// before it has one).
    pub passed_last: u64,
    /// The same after its second-to-last.
    pub passed_prev: u64,
}

/// The [`SeatDiscards`] of the four seats over a hand's discard list, in one pass; a
/// list that grew since is brought up to date from its new entries alone
/// ([`DiscardTally::update`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DiscardTally {
    /// Entries read so far.
    seen: usize,
    /// Per seat.
    pub seats: [SeatDiscards; 4],
}

impl DiscardTally {
    /// The tally of `discards`.
    pub fn of(discards: &[DiscardEntry]) -> DiscardTally {
        let mut t = DiscardTally::default();
        t.update(discards);
        t
    }

    /// Reads the entries of `discards` past those read so far: `discards` must be the list
    /// read before with entries added at its end (the same hand). A shorter list starts
    /// the tally afresh.
    pub fn update(&mut self, discards: &[DiscardEntry]) {
        if discards.len() < self.seen {
            *self = DiscardTally::default();
        }
        for e in &discards[self.seen..] {
            self.add(e.seat as usize & 3, e.tile);
        }
        self.seen = discards.len();
    }

    /// Entries read so far.
    pub fn seen(&self) -> usize {
        self.seen
    }

    /// One more entry: seat `s` discarded `tile`.
    fn add(&mut self, s: usize, tile: u8) {
        let me = &mut self.seats[s];
        me.entries += 1;
        me.recent.copy_within(0..5, 1);
        me.recent[0] = tile;
        me.n_recent = (me.n_recent + 1).min(6);
        let t = tile as usize;
        if t >= 34 {
            return;
        }
        me.n += 1;
        me.own |= 1 << t;
        me.suits[(t / 9).min(3)] += 1;
        if t >= 27 {
            me.honors += 1;
        } else if (2..=6).contains(&(t % 9)) {
            me.middle += 1;
        }
        me.passed_prev = me.passed_last;
        me.passed_last = 0;
        for (o, other) in self.seats.iter_mut().enumerate() {
            if o != s {
                other.passed_last |= 1 << t;
                other.passed_prev |= 1 << t;
            }
        }
    }
}

/// The threats of the four seats seen from `view.seat()` (its own entry is zero).
pub fn threats(view: &dyn TableView) -> [Threat; 4] {
    threats_with(view, &DiscardTally::of(view.discards()))
}

/// [`threats`] from the tally of `view`'s discards.
pub fn threats_with(view: &dyn TableView, tally: &DiscardTally) -> [Threat; 4] {
    debug_assert_eq!(tally.seen, view.discards().len());
    let me = view.seat();
    std::array::from_fn(|o| {
        if o as u8 == me {
            Threat::default()
        } else {
            threat_of(view, o as u8, &tally.seats[o])
        }
    })
}

/// The threat of seat `o` (not the observer), `disc` what the discards say about it.
pub fn threat_of(view: &dyn TableView, o: u8, disc: &SeatDiscards) -> Threat {
    let (melds, n) = view.melds(o);
    let melds = &melds[..n];
    let mut suits = [0u8; 4];
    let mut chows = 0u8;
    let mut pungs = 0u8;
    for m in melds {
        if m.tile == HIDDEN {
            suits[3] += 0; // a hidden kong says nothing about the suit
            pungs += 1;
            continue;
        }
        suits[(m.tile as usize / 9).min(3)] += 1;
        if m.kind == MeldKind::Chow {
            chows += 1;
        } else {
            pungs += 1;
        }
    }
    let sets = n as u8;
    let d = disc.entries as f32;
    let by_turn = ((d - 4.0) / 16.0).clamp(0.0, 0.55);
    const BY_SETS: [f32; 5] = [0.0, 0.12, 0.3, 0.55, 0.85];
    let mut ready = 1.0 - (1.0 - by_turn) * (1.0 - BY_SETS[sets.min(4) as usize]);
    if view.is_ready(o) {
        ready = 1.0;
    }
    let suited: u8 = suits[..3].iter().sum();
    let mut flush_suit = None;
    let mut flush_strength = 0.0;
    if suited >= 2 {
        if let Some(s) = (0..3u8).find(|&s| suits[s as usize] == suited) {
            flush_suit = Some(s);
            flush_strength = match suited {
                2 => 0.55,
                _ => 0.9,
            };
            // A flush hand rarely throws its own suit.
            if disc.suits[s as usize] >= 3 {
                flush_strength *= 0.5;
            }
        }
    }
    Threat {
        ready,
        flush_suit,
        flush_strength,
        pungs: pungs >= 2 && chows == 0,
        sets,
    }
}

/// How many waiting shapes could take `t`, weighted by the unseen copies of the tiles
/// they need (`unseen` from the observer's view, before its discard).
fn shape_weight(t: usize, unseen: &Counts, pungs: bool) -> f32 {
    let u = |x: usize| unseen[x] as f32 / 4.0;
    let pair = if unseen[t] >= 2 {
        0.45 * u(t) * 2.0
    } else {
        0.0
    };
    let single = 0.25;
    if t >= 27 {
        let w = pair + single;
        return if pungs { w * 1.6 } else { w };
    }
    let r = t % 9;
    let mut runs = 0.0;
    // Two-sided or edge waits: t with (t+1, t+2) or (t-2, t-1).
    if r <= 6 {
        runs += u(t + 1) * u(t + 2) * if r == 6 { 0.6 } else { 1.0 };
    }
    if r >= 2 {
        runs += u(t - 1) * u(t - 2) * if r == 2 { 0.6 } else { 1.0 };
    }
    // Closed wait: t-1 and t+1.
    if (1..=7).contains(&r) {
        runs += 0.6 * u(t - 1) * u(t + 1);
    }
    let runs = runs * 2.2;
    if pungs {
        0.4 * runs + 1.5 * (pair + single)
    } else {
        runs + pair + single
    }
}

/// The share of a ready `o`'s waits on each kind, before the cap and the seat's own
/// discards: [`WAITS`] times the kind's shape weight (bent by the flush sign) over the
/// total of all kinds. All zero when no kind can be waited on.
pub fn wait_shares(th: &Threat, unseen: &Counts) -> [f32; 34] {
    wait_shares_of(th, &shape_weights(unseen, th.pungs))
}

/// The shape weight of every kind (its waiting shapes weighted by the unseen copies they
/// need): what [`wait_shares`] reads of `unseen`, the same for every threat with the pung
/// sign `pungs`.
pub fn shape_weights(unseen: &Counts, pungs: bool) -> [f32; 34] {
    std::array::from_fn(|t| shape_weight(t, unseen, pungs))
}

/// [`wait_shares`] from the shape weights `shapes` of the kinds ([`shape_weights`] with
/// the pung sign of `th`).
pub fn wait_shares_of(th: &Threat, shapes: &[f32; 34]) -> [f32; 34] {
    let mut w = [0f32; 34];
    let mut total = 0.0;
    for (t, wt) in w.iter_mut().enumerate() {
        *wt = shapes[t] * flush_factor(th, t);
        total += *wt;
    }
    if total <= 0.0 {
        return [0f32; 34];
    }
    for x in w.iter_mut() {
        *x = WAITS * *x / total;
    }
    w
}

/// How the flush sign of `th` bends the weight of kind `t`: up in the flush suit, down in
/// the other suits, honors unchanged.
pub fn flush_factor(th: &Threat, t: usize) -> f32 {
    match th.flush_suit {
        Some(s) => {
            let f = th.flush_strength;
            if t < 27 && t / 9 == s as usize {
                1.0 + 2.0 * f
            } else if t >= 27 {
                1.0
            } else {
                1.0 - 0.95 * f
            }
        }
        None => 1.0,
    }
}

/// The kinds `o` has discarded, as bits.
pub fn own_discards(view: &dyn TableView, o: u8) -> u64 {
    let mut own = 0u64;
    for e in view.discards() {
        if e.seat == o && (e.tile as usize) < 34 {
            own |= 1 << e.tile;
        }
    }
    own
}

/// The chance that discarding each kind deals in to `o` (0 for kinds not asked for),
/// given its threat. `unseen` counts the copies the observer cannot see.
pub fn danger_of(view: &dyn TableView, o: u8, th: &Threat, unseen: &Counts) -> [f32; 34] {
    if th.ready <= 0.0 {
        return [0f32; 34];
    }
    let mut w = wait_shares(th, unseen);
    let own = own_discards(view, o);
    for (t, x) in w.iter_mut().enumerate() {
        let mut p = x.min(0.9);
        if own >> t & 1 == 1 {
            p *= 0.3;
        }
        *x = th.ready * p;
    }
    w
}

/// The chance that discarding each kind deals in to some opponent, with the threats.
pub fn danger(view: &dyn TableView, unseen: &Counts) -> ([f32; 34], [Threat; 4]) {
    let th = threats(view);
    (danger_given(view, &th, unseen), th)
}

/// The chance that discarding each kind deals in to some opponent, given the opponents'
/// threats `th` (as [`threats`] reads them).
pub fn danger_given(view: &dyn TableView, th: &[Threat; 4], unseen: &Counts) -> [f32; 34] {
    let mut safe = [1f32; 34];
    for o in 0..4u8 {
        if o == view.seat() {
            continue;
        }
        let d = danger_of(view, o, &th[o as usize], unseen);
        for t in 0..34 {
            safe[t] *= 1.0 - d[t];
        }
    }
    let mut out = [0f32; 34];
    for t in 0..34 {
        out[t] = 1.0 - safe[t];
    }
    out
}

#[cfg(test)]
mod tally_tests {
    use super::*;
    use crate::policy::{PolicyKind, RoundView};
    use crate::round::Round;
    use crate::rules::Rules;

    /// Seat `s`'s figures from their definitions, over the whole list.
    fn by_definition(discards: &[DiscardEntry], s: u8) -> SeatDiscards {
        let mut d = SeatDiscards::default();
        let mut last = None;
        let mut prev = None;
        for (i, e) in discards.iter().enumerate() {
            if e.seat != s {
                continue;
            }
            d.entries += 1;
            let t = e.tile as usize;
            if t >= 34 {
                continue;
            }
            (prev, last) = (last, Some(i));
            d.n += 1;
            d.own |= 1 << t;
            d.suits[(t / 9).min(3)] += 1;
            d.honors += (t >= 27) as u32;
            d.middle += (t < 27 && (2..=6).contains(&(t % 9))) as u32;
        }
        let mine: Vec<u8> = discards
            .iter()
            .filter(|e| e.seat == s)
            .map(|e| e.tile)
            .collect();
        for (r, &t) in d.recent.iter_mut().zip(mine.iter().rev()) {
            *r = t;
        }
        d.n_recent = mine.len().min(6) as u8;
        let since = |from: Option<usize>| {
            discards[from.map_or(0, |i| i + 1)..]
                .iter()
                .filter(|e| e.seat != s && (e.tile as usize) < 34)
                .fold(0u64, |m, e| m | 1 << e.tile)
        };
        d.passed_last = since(last);
        d.passed_prev = since(prev);
        d
    }

    /// Along whole hands of every rule set, the tally kept up to date entry by entry is
    /// the tally of the whole list, and each seat's figures are their definitions.
    #[test]
    fn the_tally_kept_up_to_date_is_the_tally_of_the_list() {
        let mut checked = 0;
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            for seed in 0..12u64 {
                let policy = [PolicyKind::Random, PolicyKind::Efficiency][seed as usize % 2];
                let mut pols: [_; 4] = std::array::from_fn(|_| policy.build(&rules));
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                let mut kept = DiscardTally::default();
                while r.pending() != 0 {
                    kept.update(r.discards());
                    let whole = DiscardTally::of(r.discards());
                    assert_eq!(kept, whole);
                    for s in 0..4u8 {
                        assert_eq!(whole.seats[s as usize], by_definition(r.discards(), s));
                    }
                    checked += 1;
                    let s = r.pending().trailing_zeros() as u8;
                    let a = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, a).unwrap();
                }
                // A shorter list (the next hand's) starts afresh.
                kept.update(&r.discards()[..1]);
                assert_eq!(kept, DiscardTally::of(&r.discards()[..1]));
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
