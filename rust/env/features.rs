//! Encoding v2: what the rule set's oracle knows about a seat's hand, as feature planes
//! and as features of each legal action (see `docs/encoding.md`, version 2).
//!
//! Everything here reads a [`TableView`](crate::policy::TableView) only (a seat's own view: an [`Observation`] or a
//! live round seen from one seat), so none of it can leak a hidden tile; the oracle view
//! ([`oracle_planes`]) is the one exception, written from the whole [`Round`] for critics.
//!
//! - [`HandAnalysis`]: the hand as it stands: its shanten in each winning form, its
//!   useful tiles and waits with their unseen copies, its best fan plan (distance, value,
//!   family, fan, whether it reaches the rule set's minimum), each opponent's learned
//!   chance of being ready.
//! - [`gb_planes`]: that analysis as [`N_GB_PLANES`] planes of 34 columns, appended to the
//!   v1 planes by the environments' `features="v2"`.
//! - [`Analysis`]: beside the hand's analysis, per tile kind the hand after discarding it
//!   (the best plan's value and distance, whether it reaches the minimum, the regular
//!   shanten, the unseen copies of the tiles the plan can use) and the learned chance that
//!   discarding it deals in.
//! - [`candidates`]: every legal action with [`N_FEATURES`] features of the position after
//!   it, from an [`Analysis`] (the model bot's input, [`crate::policy::model`], where they
//!   are computed).
//! - [`oracle_planes`]: every other hand and the wall's next tiles (perfect information).
//! - [`History`]: the action sequence of a hand as tokens, with the draw-discard flag and
//!   who claimed what from whom.

use crate::round::{Action, Observation, Round};

use super::encode::{action_index, N_COLS};
pub use crate::policy::model::features::{
    candidates, plan_family, Analysis, AnalysisCache, Candidates, DiscardRow, Feature,
    HandAnalysis, MAX_CANDIDATES, N_FEATURES,
};

/// Writes the action indices of `c`'s candidates into `out` (`MAX_CANDIDATES` values, -1
/// past the last).
pub fn candidate_indices(c: &Candidates, out: &mut [i16]) {
    for (i, o) in out.iter_mut().enumerate().take(MAX_CANDIDATES) {
        *o = if i < c.n {
            action_index(c.actions[i]).map_or(-1, |x| x as i16)
        } else {
            -1
        };
    }
}

/// Planes of the GB block ([`gb_planes`]), each 34 columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum GbPlane {
    /// Unseen copies of each kind (4 minus the copies the seat sees).
    Unseen = 0,
    /// Kinds whose draw lowers the regular shanten of the seat's hand (13 - 3k tiles: in
    /// a claim window, or the hand before its draw), with their unseen copies.
    UsefulNow,
    /// Kinds that complete the hand (its waits) with their unseen copies, when the hand
    /// is waiting; 0 elsewhere.
    Waits,
    /// Regular-form shanten + 1, in every column.
    ShantenRegular,
    /// Seven pairs shanten + 1 (255 once the seat has melds).
    ShantenSevenPairs,
    /// Thirteen orphans shanten + 1 (255 once the seat has melds).
    ShantenThirteenOrphans,
    /// Honours-and-knitted shanten + 1 (255 once the seat has melds).
    ShantenHonorsKnitted,
    /// Knitted-straight shanten + 1 (255 where the form cannot apply).
    ShantenKnittedStraight,
    /// The best plan's distance (tiles missing) for the hand as it stands (a full hand:
    /// all its tiles; 0 for a complete one), in every column.
    PlanDistance,
    /// The best plan's value × 100.
    PlanValue,
    /// 1 when the best plan reaches the rule set's minimum fan.
    PlanReaches,
    /// The best plan's family: 1 plain, 2 full flush, 3 half flush, 4 all pungs, 5 seven
    /// pairs, 6 thirteen orphans, 7 honours and knitted, 8 knitted straight, 9 three
    /// fixed chows.
    PlanKind,
    /// The best plan's estimated fan (0-255).
    PlanFan,
    /// Per plan family, in columns 0-8 (the families of [`GbPlane::PlanKind`], 1-9, one
    /// column left): the distance of its most valuable plan, 255 where no plan of the
    /// family is in reach; 0 in columns 9-33.
    FamilyDistance,
    /// Per plan family, in columns 0-8: 1 when its most valuable plan reaches the minimum
    /// fan.
    FamilyReaches,
    /// Learned chance that the seat 1 place after the observer is ready, × 255.
    ReadyRight,
    /// The same for the seat across.
    ReadyAcross,
    /// The same for the seat to the left.
    ReadyLeft,
}

/// Planes of the GB block.
pub const N_GB_PLANES: usize = GbPlane::ReadyLeft as usize + 1;

/// Planes of the oracle view ([`oracle_planes`]).
pub const N_ORACLE_PLANES: usize = 7;

#[inline]
fn byte(x: f32) -> u8 {
    x.round().clamp(0.0, 255.0) as u8
}

#[inline]
fn shanten_byte(s: Option<i8>) -> u8 {
    match s {
        Some(s) if s < 100 => (s as i16 + 1).clamp(0, 254) as u8,
        _ => 255,
    }
}

/// Writes the GB planes of `a` for the seat `seat` into `out` ([`N_GB_PLANES`] × 34
/// bytes, every byte written).
pub fn gb_planes(a: &HandAnalysis, seat: u8, out: &mut [u8]) {
    debug_assert_eq!(out.len(), N_GB_PLANES * N_COLS);
    let mut put = |p: GbPlane, row: &[u8; N_COLS]| {
        out[p as usize * N_COLS..(p as usize + 1) * N_COLS].copy_from_slice(row);
    };
    put(GbPlane::Unseen, &a.unseen);
    let mut useful = [0u8; N_COLS];
    let mut kinds = a.useful_now & ((1 << N_COLS) - 1);
    while kinds != 0 {
        let t = kinds.trailing_zeros() as usize;
        kinds &= kinds - 1;
        useful[t] = a.unseen[t];
    }
    put(GbPlane::UsefulNow, &useful);
    let waiting = a.forms[0] == Some(0);
    put(GbPlane::Waits, if waiting { &useful } else { &[0; N_COLS] });
    let mut distance = [0u8; N_COLS];
    let mut reaches = [0u8; N_COLS];
    for (k, f) in a.families.iter().enumerate() {
        distance[k] = f.map_or(255, |(d, _)| d);
        reaches[k] = f.is_some_and(|(_, r)| r) as u8;
    }
    put(GbPlane::FamilyDistance, &distance);
    put(GbPlane::FamilyReaches, &reaches);
    let ready = |r: usize| a.ready[((seat as usize) + r) & 3];
    let fills = [
        (GbPlane::ShantenRegular, shanten_byte(a.forms[0])),
        (GbPlane::ShantenSevenPairs, shanten_byte(a.forms[1])),
        (GbPlane::ShantenThirteenOrphans, shanten_byte(a.forms[2])),
        (GbPlane::ShantenHonorsKnitted, shanten_byte(a.forms[3])),
        (GbPlane::ShantenKnittedStraight, shanten_byte(a.forms[4])),
        (GbPlane::PlanDistance, a.distance),
        (GbPlane::PlanValue, byte(a.value * 100.0)),
        (GbPlane::PlanReaches, a.reaches as u8),
        (GbPlane::PlanKind, plan_family(a.plan)),
        (GbPlane::PlanFan, byte(a.plan_fan)),
        (GbPlane::ReadyRight, byte(ready(1) * 255.0)),
        (GbPlane::ReadyAcross, byte(ready(2) * 255.0)),
        (GbPlane::ReadyLeft, byte(ready(3) * 255.0)),
    ];
    for (p, v) in fills {
        put(p, &[v; N_COLS]);
    }
}

/// Writes the oracle view of `round` for `seat` into `out` ([`N_ORACLE_PLANES`] × 34
/// bytes): planes 0-2 the concealed tiles of the seats 1, 2 and 3 places after `seat`
/// (counts per kind, 0-4), planes 3-6 the next four tiles the wall gives, one-hot, in
/// draw order (a shared wall: its next four draws from the head; private walls: the next
/// tile of each seat's own wall, from `seat` on). Perfect information: for a critic
/// trained beside the policy, never for the policy's input.
pub fn oracle_planes(round: &Round, seat: u8, out: &mut [u8]) {
    debug_assert_eq!(out.len(), N_ORACLE_PLANES * N_COLS);
    out.fill(0);
    for r in 1..4u8 {
        let s = (seat + r) & 3;
        let hand = &round.seat(s).hand;
        out[(r as usize - 1) * N_COLS..r as usize * N_COLS].copy_from_slice(hand);
    }
    let mut wall = round.wall().clone();
    for k in 0..4usize {
        let t = if wall.is_private() {
            let i = ((seat as usize + k) + 4 - round.dealer() as usize) & 3;
            wall.draw_for_seat(i as u8, false)
        } else {
            wall.draw()
        };
        if let Some(t) = t.filter(|&t| (t as usize) < N_COLS) {
            out[(3 + k) * N_COLS + t as usize] = 1;
        }
    }
}

/// Tokens of the action history ([`History`]): `[kind, actor, tile, other]`, the actor
/// and the other seat counted from the observer (0 itself, 1 its right, 2 across, 3 its
/// left); `tile` is 0-33, or 34 where the token names no tile (a hidden concealed kong).
pub mod token {
    /// Padding past the end of the sequence.
    pub const PAD: u8 = 0;
    /// A discard of a tile kept in the hand (hand-cut).
    pub const DISCARD: u8 = 1;
    /// A discard of the tile just drawn (draw-discard).
    pub const DISCARD_DRAWN: u8 = 2;
    /// A chow; `other` is the discarder, `tile` the claimed tile.
    pub const CHOW: u8 = 3;
    /// A pung; `other` the discarder.
    pub const PUNG: u8 = 4;
    /// An exposed kong on a discard; `other` the discarder.
    pub const KONG: u8 = 5;
    /// A concealed kong (its tile 34 when hidden from the observer).
    pub const CONCEALED_KONG: u8 = 6;
    /// An added kong.
    pub const ADDED_KONG: u8 = 7;
    /// A discard that declared ready (classic).
    pub const READY: u8 = 8;
    /// A win; `other` the discarder (the actor itself on a self-draw).
    pub const WIN: u8 = 9;
}

/// Tokens a [`History`] keeps per hand; later actions are dropped (a gb hand has at most
/// about 140 actions that make tokens).
pub const MAX_TOKENS: usize = 192;

/// The action history of the hand in play, kept by an environment that sees every action
/// (see [`token`]); written for one observer by [`History::write`]. A claim becomes a
/// token once its window is resolved, and only if it won (a chow beaten by a pung is no
/// meld): [`History::record`] before each action, [`History::settle`] after it.
#[derive(Debug, Clone)]
pub struct History {
    /// `[kind, seat, tile, other seat]`, seats absolute.
    tokens: Vec<[u8; 4]>,
    /// Claims of the open window: the token and the claimer's melds before it.
    window: Vec<([u8; 4], u8)>,
}

impl Default for History {
    fn default() -> Self {
        History {
            tokens: Vec::with_capacity(MAX_TOKENS),
            window: Vec::with_capacity(4),
        }
    }
}

impl History {
    /// Forgets the hand (call at a deal).
    pub fn clear(&mut self) {
        self.tokens.clear();
        self.window.clear();
    }

    fn push(&mut self, tok: [u8; 4]) {
        if self.tokens.len() < MAX_TOKENS {
            self.tokens.push(tok);
        }
    }

    /// Records `a` by `seat` in `round` just before the round applies it (a pass makes no
    /// token; a claim waits for [`History::settle`]).
    pub fn record(&mut self, round: &Round, seat: u8, a: Action) {
        let claim = round.claim();
        let claim_from = claim.map(|c| c.0).unwrap_or(seat);
        let drawn = round.drawn().filter(|_| round.turn() == seat);
        let in_window = claim.is_some() && round.turn() != seat;
        let tok = match a {
            Action::Discard(t) if drawn == Some(t) => [token::DISCARD_DRAWN, seat, t, seat],
            Action::Discard(t) => [token::DISCARD, seat, t, seat],
            Action::Ready(t) => [token::READY, seat, t, seat],
            Action::Chow(_) | Action::Pung(_) | Action::Kong(_) => {
                let t = claim.map(|c| c.1).unwrap_or(34);
                let k = match a {
                    Action::Chow(_) => token::CHOW,
                    Action::Pung(_) => token::PUNG,
                    _ => token::KONG,
                };
                [k, seat, t, claim_from]
            }
            Action::ConcealedKong(t) => [token::CONCEALED_KONG, seat, t, seat],
            Action::AddedKong(t) => [token::ADDED_KONG, seat, t, seat],
            Action::Win => [
                token::WIN,
                seat,
                claim.map(|c| c.1).or(drawn).unwrap_or(34),
                claim_from,
            ],
            Action::Pass => return,
        };
        if in_window {
            self.window.push((tok, round.seat(seat).n_melds));
        } else {
            self.push(tok);
        }
    }

    /// Resolves the open window once `round` has left it (call after each action): the
    /// claims that made a meld, or won the hand, become tokens.
    pub fn settle(&mut self, round: &Round) {
        if self.window.is_empty() || (round.claim().is_some() && !round.is_over()) {
            return;
        }
        let window = std::mem::take(&mut self.window);
        for (tok, melds) in &window {
            let s = tok[1];
            let won = if tok[0] == token::WIN {
                round
                    .result()
                    .is_some_and(|r| r.wins.iter().any(|w| w.seat == s))
            } else {
                round.seat(s).n_melds > *melds
            };
            if won {
                self.push(*tok);
            }
        }
        self.window = window;
        self.window.clear();
    }

    /// Tokens recorded.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True before the first token.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Writes the tokens as `observer` sees them into `out` ([`MAX_TOKENS`] × 4 bytes,
    /// padded with [`token::PAD`]): seats relative to the observer, another seat's
    /// concealed kong with tile 34.
    pub fn write(&self, observer: u8, out: &mut [u8]) {
        debug_assert_eq!(out.len(), MAX_TOKENS * 4);
        out.fill(0);
        let rel = |s: u8| (s + 4 - observer) & 3;
        for (o, t) in out.chunks_exact_mut(4).zip(&self.tokens) {
            let hidden = t[0] == token::CONCEALED_KONG && t[1] != observer;
            o.copy_from_slice(&[t[0], rel(t[1]), if hidden { 34 } else { t[2] }, rel(t[3])]);
        }
    }
}

/// The minimum fan the features plan for under an observation's rules.
pub fn min_fan_of(obs: &Observation) -> u8 {
    obs.rules.fan.min_fan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyKind, RoundView};
    use crate::rules::Rules;

    /// Along whole hands of every rule set, the candidates are the distinct legal actions
    /// with their kind flagged, the features finite, the discard rows those of the kinds
    /// held, and the GB planes follow the analysis.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn candidates_are_the_legal_actions_with_finite_features() {
        let mut checked = 0;
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            let mut pols: [_; 4] = std::array::from_fn(|_| PolicyKind::Efficiency.build(&rules));
            let mut c = Candidates::default();
            let mut planes = vec![0u8; N_GB_PLANES * N_COLS];
            for seed in 0..4u64 {
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                while r.pending() != 0 {
                    for s in 0..4u8 {
                        if r.pending() >> s & 1 == 0 {
                            continue;
                        }
                        let view = RoundView { round: &r, seat: s };
                        let a = Analysis::new(&view, rules.fan.min_fan, true);
                        candidates(&view, &a, rules.fan.min_fan, &mut c);
                        let mut want: Vec<i16> = r
                            .legal_actions(s)
                            .iter()
                            .map(|&x| action_index(x).unwrap() as i16)
                            .collect();
                        want.sort_unstable();
                        want.dedup();
                        let mut index = [0i16; MAX_CANDIDATES];
                        candidate_indices(&c, &mut index);
                        let mut got = index[..c.n].to_vec();
                        got.sort_unstable();
                        assert_eq!(got, want);
                        assert!(index[c.n..].iter().all(|&i| i == -1));
                        for (i, f) in c.features[..c.n].iter().enumerate() {
                            assert!(f.iter().all(|x| x.is_finite()), "{f:?}");
                            assert_eq!(f[Feature::Bias as usize], 1.0);
                            let kinds = &f[Feature::Discard as usize..=Feature::Pass as usize];
                            assert_eq!(kinds.iter().sum::<f32>(), 1.0);
                            let act = super::super::encode::index_action(index[i] as usize);
                            let k = kinds.iter().position(|&x| x == 1.0).unwrap();
                            let name = [
                                "discard",
                                "ready",
                                "concealed_kong",
                                "added_kong",
                                "chow",
                                "pung",
                                "kong",
                                "win",
                                "pass",
                            ][k];
                            assert_eq!(act.unwrap().kind(), name);
                        }
                        let hand = &r.seat(s).hand;
                        for t in 0..34 {
                            assert_eq!(a.discards[t].is_some(), a.full && hand[t] > 0);
                        }
                        let h = HandAnalysis::new(&view, rules.fan.min_fan);
                        assert_eq!((h.forms, h.unseen, h.ready), (a.forms, a.unseen, a.ready));
                        assert_eq!(h.useful_now, a.useful_now);
                        assert_eq!(h.plan, a.plan);
                        if !a.full {
                            assert_eq!(
                                (h.distance, h.value),
                                (a.current.distance, a.current.value)
                            );
                        }
                        gb_planes(&h, s, &mut planes);
                        // Every byte is written, whatever the buffer held.
                        let mut again = vec![0xEEu8; N_GB_PLANES * N_COLS];
                        gb_planes(&h, s, &mut again);
                        assert_eq!(again, planes);
                        let plane = |p: GbPlane| &planes[p as usize * N_COLS..][..N_COLS];
                        let best = plan_family(h.plan) as usize - 1;
                        if h.distance < 100 {
                            assert_eq!(plane(GbPlane::FamilyDistance)[best], h.distance);
                            assert_eq!(plane(GbPlane::FamilyReaches)[best], h.reaches as u8);
                        }
                        assert!(plane(GbPlane::FamilyDistance)[9..].iter().all(|&x| x == 0));
                        for t in 0..34 {
                            assert_eq!(planes[GbPlane::Unseen as usize * N_COLS + t], a.unseen[t]);
                            let waits = planes[GbPlane::Waits as usize * N_COLS + t];
                            assert!(waits <= planes[GbPlane::UsefulNow as usize * N_COLS + t]);
                        }
                        checked += 1;
                    }
                    let s = r.pending().trailing_zeros() as u8;
                    let act = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, act).unwrap();
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// Along hands of every rule set, one after another at the same caches (one per seat,
    /// and one for all seats), the caches' analyses are [`HandAnalysis::new`]'s at every
    /// decision of every seat.
    #[test]
    fn the_cache_s_analyses_are_the_analyses() {
        let mut checked = 0;
        for kind in ["gb", "classic", "huainan"] {
            let rules = Rules::named(kind).unwrap();
            let min_fan = rules.fan.min_fan;
            let mut caches: [AnalysisCache; 4] = Default::default();
            let mut shared = AnalysisCache::default();
            for seed in 0..6u64 {
                let policy = [PolicyKind::Random, PolicyKind::Efficiency][seed as usize % 2];
                let mut pols: [_; 4] = std::array::from_fn(|_| policy.build(&rules));
                for (s, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + s as u64);
                }
                let mut r = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                caches.iter_mut().for_each(AnalysisCache::clear);
                shared.clear();
                while r.pending() != 0 {
                    for s in 0..4u8 {
                        if r.pending() >> s & 1 == 1 {
                            let view = RoundView { round: &r, seat: s };
                            let want = HandAnalysis::new(&view, min_fan);
                            assert_eq!(caches[s as usize].analysis(&view, min_fan), want);
                            // One cache serving every seat (self-play tables).
                            assert_eq!(shared.analysis(&view, min_fan), want);
                            checked += 1;
                        }
                    }
                    let s = r.pending().trailing_zeros() as u8;
                    let a = pols[s as usize].act(&RoundView { round: &r, seat: s });
                    r.apply(s, a).unwrap();
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// The oracle view holds the other seats' concealed tiles and the wall's next draws.
    #[test]
    fn the_oracle_view_is_the_table_s_hidden_state() {
        let rules = Rules::named("gb").unwrap();
        let mut pol = PolicyKind::Random.build(&rules);
        pol.begin_hand(5);
        let mut r = Round::new(&rules, 5, 0, 0).unwrap();
        let mut out = vec![0u8; N_ORACLE_PLANES * N_COLS];
        for _ in 0..60 {
            if r.pending() == 0 {
                break;
            }
            let s = r.pending().trailing_zeros() as u8;
            oracle_planes(&r, s, &mut out);
            for k in 1..4u8 {
                let o = (s + k) & 3;
                let row = &out[(k as usize - 1) * N_COLS..k as usize * N_COLS];
                assert_eq!(row, &r.seat(o).hand[..]);
            }
            let mut w = r.wall().clone();
            for k in 0..4 {
                let want = w.draw();
                let row = &out[(3 + k) * N_COLS..(4 + k) * N_COLS];
                match want.filter(|&t| (t as usize) < N_COLS) {
                    Some(t) => assert_eq!(row.iter().position(|&x| x == 1), Some(t as usize)),
                    None => assert!(row.iter().all(|&x| x == 0)),
                }
            }
            let a = pol.act(&RoundView { round: &r, seat: s });
            r.apply(s, a).unwrap();
        }
    }

    /// The history keeps the discards with their draw flag and only the claims that made
    /// a meld, and shows the observer's own concealed kongs only.
    #[test]
    fn the_history_keeps_what_the_table_saw() {
        let rules = Rules::named("gb").unwrap();
        for seed in 0..20u64 {
            let mut pols: [_; 4] = std::array::from_fn(|_| PolicyKind::Efficiency.build(&rules));
            for (s, p) in pols.iter_mut().enumerate() {
                p.begin_hand(seed * 4 + s as u64);
            }
            let mut r = Round::new(&rules, seed, 0, 0).unwrap();
            r.set_record_events(true);
            let mut h = History::default();
            while r.pending() != 0 {
                let s = r.pending().trailing_zeros() as u8;
                let a = pols[s as usize].act(&RoundView { round: &r, seat: s });
                h.record(&r, s, a);
                r.apply(s, a).unwrap();
                h.settle(&r);
            }
            // Every meld made (an added kong turns a pung into a kong: one more action),
            // every discard and every win.
            let melds: usize = (0..4).map(|s| r.seat(s).n_melds as usize).sum();
            let added = (0..4u8)
                .flat_map(|s| r.seat(s).melds[..r.seat(s).n_melds as usize].to_vec())
                .filter(|m| m.kind == crate::hand::MeldKind::Kong)
                .count();
            let discards = r.discards().len();
            let wins = r.result().map_or(0, |x| x.wins.len());
            let n = h.len();
            assert!(
                n >= melds + discards + wins && n <= melds + discards + wins + added,
                "seed {seed}: {n} tokens"
            );
            let mut out = vec![0u8; MAX_TOKENS * 4];
            h.write(2, &mut out);
            for t in out.chunks_exact(4).take(h.len()) {
                assert!(t[0] != token::PAD && t[1] < 4 && t[3] < 4 && t[2] <= 34);
                if t[0] == token::CONCEALED_KONG && t[1] != 0 {
                    assert_eq!(t[2], 34);
                }
            }
            assert!(out[h.len() * 4..].iter().all(|&x| x == 0));
        }
    }
}
