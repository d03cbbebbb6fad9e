//! The oracle's features of a seat's hand and of each legal action after it: the model
//! bot's input ([`super::ModelPolicy`]) and, through `crate::env::features`, the GB planes
//! and action features of encoding v2 (see `docs/encoding.md`).
//!
//! Everything here reads a [`TableView`] only (a seat's own view: an [`crate::round::Observation`]
//! or a live round seen from one seat), so none of it can leak a hidden tile.
//!
//! - [`Analysis`]: per tile kind, the hand after discarding it (the best fan plan's value
//!   and distance, whether that plan reaches the rule set's minimum fan, the regular
//!   shanten, the unseen copies of the tiles the plan can use) and the learned chance that
//!   discarding it deals in; the hand's shanten in each winning form; its useful tiles and
//!   waits with their unseen copies; each opponent's learned chance of being ready.
//! - [`candidates`]: every legal action with [`N_FEATURES`] features of the position after
//!   it.

use crate::hand::{Meld, MeldKind};
use crate::policy::efficiency::unseen;
use crate::policy::plans::{Evaluator, PlanKind, BETA, N_FAMILIES};
use crate::policy::strong::danger::DiscardTally;
use crate::policy::strong::danger_model::{self, ReadyPrefix};
use crate::policy::TableView;
use crate::round::{Action, Claim};
use crate::shanten::{self, Form};
use crate::tile::{Counts, Tile};

/// Features per candidate action (see [`Feature`]).
pub const N_FEATURES: usize = 32;
/// Most legal actions one decision can offer (14 discards, 14 ready discards, kongs and
/// a win), the rows of [`Candidates`].
pub const MAX_CANDIDATES: usize = 40;

/// The features of one candidate action, by column (all floats, most in 0-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum Feature {
    /// 1.
    Bias = 0,
    /// One-hot of the action's kind: discard.
    Discard,
    /// Discard declaring ready (classic).
    Ready,
    /// Concealed kong.
    ConcealedKong,
    /// Added kong.
    AddedKong,
    /// Chow.
    Chow,
    /// Pung.
    Pung,
    /// Exposed kong on a discard.
    Kong,
    /// Win.
    Win,
    /// Pass.
    Pass,
    /// ln of the best plan's value after the action (after a claim: after its best
    /// discard), / 8 (the value is `w(fan) · 0.28^(distance - 1)`, so this is about
    /// -0.16 per missing tile).
    Value,
    /// That value over the best value among the decision's candidates.
    RelValue,
    /// Tiles the best plan misses after the action, / 8.
    Distance,
    /// 1 when that distance is 1 (the hand is waiting).
    Waiting,
    /// Unseen copies of the tiles the plan can use after the action, / 32.
    Useful,
    /// Regular-form shanten after the action, / 8.
    Shanten,
    /// Seven pairs shanten after the action, / 8 (1 once the seat has melds).
    SevenPairs,
    /// 1 when the best plan after the action reaches the minimum fan.
    Reaches,
    /// Learned chance that the tile the action discards deals in.
    Danger,
    /// Highest learned chance that an opponent is ready.
    MaxReady,
    /// Sum of the opponents' learned chances of being ready / 3.
    SumReady,
    /// Tiles left in the wall / 100.
    Wall,
    /// The action discards the tile just drawn.
    DrawnTile,
    /// The discarded tile is an honour.
    Honor,
    /// The discarded tile is a terminal (1 or 9).
    Terminal,
    /// Copies of the discarded tile visible on the table / 4.
    Visible,
    /// The action exposes a concealed hand (a claim by a seat with no exposed meld).
    Opens,
    /// The seat's melds / 4.
    Melds,
    /// ln of the value after the action over the value of the hand before it, / 4,
    /// clamped to ±1.
    Gain,
    /// ln(1 + unseen useful copies) / 4.
    LogUseful,
    /// Danger × highest ready chance.
    DangerReady,
    /// Discards made so far / 80.
    Progress,
}

/// One kind's discard, evaluated.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscardRow {
    /// The best plan's value after the discard.
    pub value: f32,
    /// Its distance.
    pub distance: u8,
    /// Unseen copies of the tiles the plan can use after it.
    pub useful: u32,
    /// Regular shanten after it.
    pub shanten: i8,
    /// Seven pairs shanten after it (`i8::MAX` with melds).
    pub seven_pairs: i8,
    /// The plan reaches the minimum fan.
    pub reaches: bool,
}

/// What the oracle says about a seat's hand (see the module documentation).
#[derive(Debug, Clone)]
pub struct Analysis {
    /// Per kind: the discard of one copy, for the kinds the hand holds (a 14 - 3k hand).
    pub discards: [Option<DiscardRow>; 34],
    /// The hand as it stands (13 - 3k tiles; for a full hand, its best discard).
    pub current: DiscardRow,
    /// The best plan of the hand as it stands.
    pub plan: PlanKind,
    /// Its estimated fan.
    pub plan_fan: f32,
    /// Shanten per form: regular, seven pairs, thirteen orphans, honours and knitted,
    /// knitted straight (`None` where the form cannot apply).
    pub forms: [Option<i8>; 5],
    /// Kinds lowering the regular shanten of a 13 - 3k hand (bit per kind).
    pub useful_now: u64,
    /// Unseen copies per kind.
    pub unseen: Counts,
    /// Learned deal-in chance per kind held.
    pub danger: [f32; 34],
    /// Learned chance that each seat is ready (0 for the observer).
    pub ready: [f32; 4],
    /// The hand is full (14 - 3k tiles: the seat's own turn).
    pub full: bool,
}

/// The family of a plan, 1-9 (see the GB plane `PlanKind` of encoding v2).
pub fn plan_family(p: PlanKind) -> u8 {
    p.family() as u8 + 1
}

/// Plans whose shapes are sets and a pair: their useful tiles lower the regular distance.
fn regular_plan(p: PlanKind) -> bool {
    matches!(
        p,
        PlanKind::Plain | PlanKind::FullFlush(_) | PlanKind::HalfFlush(_) | PlanKind::Chows(_)
    )
}

fn unseen_mask(hand: &Counts, unseen: &Counts) -> u64 {
    let mut m = 0u64;
    for t in 0..34 {
        m |= u64::from(unseen[t] > 0 && hand[t] < 4) << t;
    }
    m
}

fn copies(mask: u64, unseen: &Counts) -> u32 {
    let (mut m, mut u) = (mask, 0u32);
    while m != 0 {
        let k = m.trailing_zeros() as usize;
        m &= m - 1;
        u += unseen[k] as u32;
    }
    u
}

/// A waiting hand's (`13 - 3k` tiles) evaluation under `ev`.
fn evaluate(ev: &Evaluator, hand: &Counts, melds: &[Meld], unseen: &Counts) -> DiscardRow {
    let s = ev.score(hand);
    let used = shanten::used_counts(melds);
    let n = melds.len() as u8;
    let allowed = s.allowed & unseen_mask(hand, unseen);
    let (regular, mask) = if regular_plan(s.plan) {
        shanten::regular_shanten_improving(hand, &used, n, 0, allowed)
    } else {
        (
            shanten::regular_shanten(hand, &used, n, 0),
            ev.useful(s.plan, s.allowed, hand) & allowed,
        )
    };
    DiscardRow {
        value: s.value,
        distance: s.distance,
        useful: copies(mask, unseen),
        shanten: regular,
        seven_pairs: if n == 0 {
            shanten::form_shanten(Form::SevenPairs, hand, &used, 0, 0).unwrap_or(i8::MAX)
        } else {
            i8::MAX
        },
        reaches: reaches(s.distance, s.value),
    }
}

/// What both analyses read first about the seat of a view.
struct SeatHand {
    /// Its melds (the first `n`).
    melds: [Meld; 4],
    /// How many melds.
    n: usize,
    /// Its concealed tiles.
    hand: Counts,
    /// The copies of each kind it cannot see.
    unseen: Counts,
    /// The hand is full (14 - 3k tiles: the seat's own turn).
    full: bool,
}

impl SeatHand {
    fn of(view: &dyn TableView) -> SeatHand {
        let (melds, n) = view.melds(view.seat());
        let hand = *view.hand();
        let tiles: u32 = hand.iter().map(|&c| c as u32).sum();
        SeatHand {
            melds,
            n,
            hand,
            unseen: unseen(view, &melds[..n]),
            full: tiles % 3 == 2,
        }
    }
}

/// The evaluator of a seat holding `melds` under a minimum of `min_fan`.
fn evaluator(view: &dyn TableView, melds: &[Meld], hand: &Counts, min_fan: u8) -> Evaluator {
    let mut ev = Evaluator::new(melds, view.seat_wind(), view.prevalent_wind(), min_fan);
    ev.select_chow_plans(hand);
    ev
}

/// Every discard of a full hand, and the best of them.
fn discard_rows(
    ev: &Evaluator,
    hand: &Counts,
    melds: &[Meld],
    unseen: &Counts,
    out: &mut [Option<DiscardRow>; 34],
) -> Option<(Tile, DiscardRow)> {
    let mut best: Option<(Tile, DiscardRow)> = None;
    let mut h = *hand;
    for t in 0..34 {
        out[t] = None;
        if hand[t] == 0 {
            continue;
        }
        h[t] -= 1;
        let r = evaluate(ev, &h, melds, unseen);
        h[t] += 1;
        out[t] = Some(r);
        let key = r.value * (r.useful as f32 + 4.0);
        if best.map_or(true, |(_, b)| key > b.value * (b.useful as f32 + 4.0)) {
            best = Some((t as Tile, r));
        }
    }
    best
}

impl Analysis {
    /// The analysis of `view`'s seat under a minimum of `min_fan`; with `danger`, the
    /// learned deal-in and ready chances too (else they stay 0).
    pub fn new(view: &dyn TableView, min_fan: u8, danger: bool) -> Analysis {
        let SeatHand {
            melds: m,
            n,
            hand,
            unseen,
            full,
        } = SeatHand::of(view);
        let melds = &m[..n];
        let ev = evaluator(view, melds, &hand, min_fan);
        let mut discards = [None; 34];
        let current = if full {
            discard_rows(&ev, &hand, melds, &unseen, &mut discards)
                .map(|(_, r)| r)
                .unwrap_or_default()
        } else {
            evaluate(&ev, &hand, melds, &unseen)
        };
        let s = ev.score(&hand);
        let used = shanten::used_counts(melds);
        let nm = n as u8;
        let forms = FORMS.map(|f| shanten::form_shanten(f, &hand, &used, nm, 0));
        let useful_now = if full {
            0
        } else {
            shanten::regular::improving(&hand, &used, nm, 0, unseen_mask(&hand, &unseen))
        };
        let (danger, ready) = if danger {
            let (d, _, r) = danger_model::danger(view, &unseen);
            (d, r)
        } else {
            ([0.0; 34], [0.0; 4])
        };
        Analysis {
            discards,
            current,
            plan: s.plan,
            plan_fan: ev.plan_fan(&hand, s.plan),
            forms,
            useful_now,
            unseen,
            danger,
            ready,
            full,
        }
    }
}

/// What the oracle says about a seat's hand as it stands, without evaluating any discard:
/// the GB planes of encoding v2 (the per-discard figures are the action features').
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HandAnalysis {
    /// The best plan of the hand as it stands (a full hand: all its tiles).
    pub plan: PlanKind,
    /// That plan's distance (tiles missing).
    pub distance: u8,
    /// Its value (`w(fan) · β^(distance - 1)`).
    pub value: f32,
    /// It reaches the rule set's minimum fan.
    pub reaches: bool,
    /// Its estimated fan.
    pub plan_fan: f32,
    /// Per plan family (in [`PlanKind::family`] order) its most valuable plan's distance
    /// and whether that plan reaches the minimum fan; `None` for a family out of reach.
    pub families: [Option<(u8, bool)>; N_FAMILIES],
    /// Shanten per form, as in [`Analysis::forms`].
    pub forms: [Option<i8>; 5],
    /// Kinds lowering the regular shanten of a 13 - 3k hand (bit per kind; 0 on a full
    /// hand).
    pub useful_now: u64,
    /// Unseen copies per kind.
    pub unseen: Counts,
    /// Learned chance that each seat is ready (0 for the observer).
    pub ready: [f32; 4],
}

impl HandAnalysis {
    /// The analysis of `view`'s seat's hand under a minimum of `min_fan`.
    pub fn new(view: &dyn TableView, min_fan: u8) -> HandAnalysis {
        let ready = danger_model::ready_chances(view);
        Self::new_with(view, min_fan, ready)
    }

    /// [`HandAnalysis::new`] with each seat's learned chance of being ready (0 for the
    /// observer) already read.
    fn new_with(view: &dyn TableView, min_fan: u8, ready: [f32; 4]) -> HandAnalysis {
        let SeatHand {
            melds: m,
            n,
            hand,
            unseen,
            full,
        } = SeatHand::of(view);
        let melds = &m[..n];
        let ev = evaluator(view, melds, &hand, min_fan);
        let tables = shanten::regular::table_entries(&hand);
        let (s, families) = ev.family_scores_with(&hand, &tables);
        let used = shanten::used_counts(melds);
        let nm = n as u8;
        // The useful tiles first: beside melds they compute the groups' entries with their
        // improving masks, which the forms' shanten then find cached.
        let useful_now = if full {
            0
        } else {
            shanten::regular::improving(&hand, &used, nm, 0, unseen_mask(&hand, &unseen))
        };
        let forms = FORMS.map(|f| match f {
            Form::Regular => Some(shanten::regular_shanten_with(&hand, &used, nm, &tables)),
            _ => shanten::form_shanten(f, &hand, &used, nm, 0),
        });
        HandAnalysis {
            plan: s.plan,
            distance: s.distance,
            value: s.value,
            reaches: reaches(s.distance, s.value),
            plan_fan: ev.plan_fan(&hand, s.plan),
            families: families.map(|f| f.map(|f| (f.distance, reaches(f.distance, f.value)))),
            forms,
            useful_now,
            unseen,
            ready,
        }
    }
}

/// What a table keeps from one [`HandAnalysis`] to the next within a hand, so that each
/// analysis reads only what changed: the tally of the discards ([`DiscardTally`]),
/// brought up to date from the entries added since, and each opponent's ready model over
/// the features that change only when it acts ([`ReadyPrefix`]). Call
/// [`AnalysisCache::clear`] at every deal. Its analyses equal [`HandAnalysis::new`]'s.
#[derive(Debug, Clone, Default)]
pub struct AnalysisCache {
    tally: DiscardTally,
    ready: [ReadyPrefix; 4],
}

impl AnalysisCache {
    /// Forgets the hand (call at a deal).
    pub fn clear(&mut self) {
        *self = AnalysisCache::default();
    }

    /// [`HandAnalysis::new`] of `view`, a view of the hand this cache has followed since
    /// its deal.
    pub fn analysis(&mut self, view: &dyn TableView, min_fan: u8) -> HandAnalysis {
        self.tally.update(view.discards());
        let ready = danger_model::ready_chances_kept(view, &self.tally, &mut self.ready);
        HandAnalysis::new_with(view, min_fan, ready)
    }
}

/// The forms of [`Analysis::forms`], in order.
const FORMS: [Form; 5] = [
    Form::Regular,
    Form::SevenPairs,
    Form::ThirteenOrphans,
    Form::HonorsKnitted,
    Form::KnittedStraight,
];

/// A plan of `distance` and `value` reaches the minimum fan: its weight is at least 1.
fn reaches(distance: u8, value: f32) -> bool {
    distance < 100 && value >= BETA.powi(distance as i32 - 1) * 0.999
}

/// The legal actions of a decision, each with its features.
#[derive(Debug, Clone)]
pub struct Candidates {
    /// Candidates filled.
    pub n: usize,
    /// Each candidate action (`Pass` past `n`).
    pub actions: [Action; MAX_CANDIDATES],
    /// Each candidate's features (0 past `n`).
    pub features: [[f32; N_FEATURES]; MAX_CANDIDATES],
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates {
            n: 0,
            actions: [Action::Pass; MAX_CANDIDATES],
            features: [[0.0; N_FEATURES]; MAX_CANDIDATES],
        }
    }
}

/// The position after a claim: the best discard's row (a kong: the hand as it waits for
/// its replacement tile) and the tile discarded.
fn after_claim(
    view: &dyn TableView,
    a: Action,
    tile: Tile,
    hand: &Counts,
    melds: &[Meld],
    unseen: &Counts,
    min_fan: u8,
) -> Option<(DiscardRow, Option<Tile>)> {
    let claim = Claim::of(a, tile)?;
    let mut h = *hand;
    claim.take_from(&mut h);
    let mut all = [claim.meld; 4];
    let k = melds.len().min(3);
    all[..k].copy_from_slice(&melds[..k]);
    let ms = &all[..=k];
    let ev = evaluator(view, ms, &h, min_fan);
    if claim.meld.kind == MeldKind::Kong {
        return Some((evaluate(&ev, &h, ms, unseen), None));
    }
    let mut rows = [None; 34];
    discard_rows(&ev, &h, ms, unseen, &mut rows).map(|(t, r)| (r, Some(t)))
}

/// Fills `out` with `view`'s legal actions (distinct, in the view's order) and their
/// features from the analysis `a` (made with the same `min_fan`). The candidates past
/// `out.n` are `Pass` with zero features.
pub fn candidates(view: &dyn TableView, a: &Analysis, min_fan: u8, out: &mut Candidates) {
    let (m, n) = view.melds(view.seat());
    let melds = &m[..n];
    let hand = *view.hand();
    let visible = view.visible();
    let claim = view.claim().filter(|_| view.turn() != view.seat());
    let max_ready = a.ready.iter().copied().fold(0.0f32, f32::max);
    let sum_ready: f32 = a.ready.iter().sum();
    let exposed = melds.iter().any(|m| m.kind != MeldKind::ConcealedKong);
    let before = a.current.value;
    out.n = 0;
    for &act in view.legal() {
        if out.n == MAX_CANDIDATES || out.actions[..out.n].contains(&act) {
            continue;
        }
        let mut f = [0f32; N_FEATURES];
        f[Feature::Bias as usize] = 1.0;
        let (kind, row, tile): (Feature, Option<DiscardRow>, Option<Tile>) = match act {
            Action::Discard(t) => (Feature::Discard, a.discards[t as usize], Some(t)),
            Action::Ready(t) => (Feature::Ready, a.discards[t as usize], Some(t)),
            Action::ConcealedKong(t) => {
                let mut h = hand;
                h[t as usize] = h[t as usize].saturating_sub(4);
                let mut all = [Meld {
                    kind: MeldKind::ConcealedKong,
                    tile: t,
                }; 4];
                let k = melds.len().min(3);
                all[..k].copy_from_slice(&melds[..k]);
                let ev = evaluator(view, &all[..=k], &h, min_fan);
                (
                    Feature::ConcealedKong,
                    Some(evaluate(&ev, &h, &all[..=k], &a.unseen)),
                    None,
                )
            }
            Action::AddedKong(t) => {
                let mut h = hand;
                h[t as usize] = h[t as usize].saturating_sub(1);
                let ev = evaluator(view, melds, &h, min_fan);
                (
                    Feature::AddedKong,
                    Some(evaluate(&ev, &h, melds, &a.unseen)),
                    None,
                )
            }
            Action::Chow(_) | Action::Pung(_) | Action::Kong(_) => {
                let k = match act {
                    Action::Chow(_) => Feature::Chow,
                    Action::Pung(_) => Feature::Pung,
                    _ => Feature::Kong,
                };
                match claim
                    .and_then(|(_, t)| after_claim(view, act, t, &hand, melds, &a.unseen, min_fan))
                {
                    Some((r, t)) => (k, Some(r), t),
                    None => (k, None, None),
                }
            }
            Action::Win => (Feature::Win, None, None),
            Action::Pass => (Feature::Pass, Some(a.current), None),
        };
        f[kind as usize] = 1.0;
        if let Some(r) = row {
            f[Feature::Value as usize] = r.value.max(1e-6).ln() / 8.0;
            f[Feature::Distance as usize] = r.distance.min(16) as f32 / 8.0;
            f[Feature::Waiting as usize] = (r.distance == 1) as u8 as f32;
            f[Feature::Useful as usize] = r.useful as f32 / 32.0;
            f[Feature::LogUseful as usize] = (1.0 + r.useful as f32).ln() / 4.0;
            f[Feature::Shanten as usize] = r.shanten.clamp(-1, 16) as f32 / 8.0;
            f[Feature::SevenPairs as usize] = if r.seven_pairs == i8::MAX {
                1.0
            } else {
                r.seven_pairs as f32 / 8.0
            };
            f[Feature::Reaches as usize] = r.reaches as u8 as f32;
            f[Feature::Gain as usize] =
                ((r.value.max(1e-6) / before.max(1e-6)).ln() / 4.0).clamp(-1.0, 1.0);
        } else if act == Action::Win {
            f[Feature::Value as usize] = 0.5;
            f[Feature::Reaches as usize] = 1.0;
            f[Feature::Shanten as usize] = -1.0 / 8.0;
        } else {
            f[Feature::Value as usize] = -2.0;
        }
        if let Some(t) = tile {
            let tu = t as usize;
            let d = a.danger[tu];
            f[Feature::Danger as usize] = d;
            f[Feature::DangerReady as usize] = d * max_ready;
            f[Feature::DrawnTile as usize] = (view.drawn() == Some(t)) as u8 as f32;
            f[Feature::Honor as usize] = (tu >= 27) as u8 as f32;
            f[Feature::Terminal as usize] = (tu < 27 && (tu % 9 == 0 || tu % 9 == 8)) as u8 as f32;
            f[Feature::Visible as usize] = visible[tu] as f32 / 4.0;
        }
        f[Feature::Opens as usize] = (matches!(kind, Feature::Chow | Feature::Pung | Feature::Kong)
            && !exposed) as u8 as f32;
        f[Feature::MaxReady as usize] = max_ready;
        f[Feature::SumReady as usize] = sum_ready / 3.0;
        f[Feature::Wall as usize] = view.wall_remaining() as f32 / 100.0;
        f[Feature::Melds as usize] = n as f32 / 4.0;
        f[Feature::Progress as usize] = view.discards().len() as f32 / 80.0;
        out.actions[out.n] = act;
        out.features[out.n] = f;
        out.n += 1;
    }
    // Relative value: the candidate's value over the best candidate's (a win counts as
    // the best), from the logs.
    let best = out.features[..out.n]
        .iter()
        .map(|f| f[Feature::Value as usize])
        .fold(f32::NEG_INFINITY, f32::max);
    for f in &mut out.features[..out.n] {
        f[Feature::RelValue as usize] = ((f[Feature::Value as usize] - best) * 8.0).exp();
    }
    for i in out.n..MAX_CANDIDATES {
        out.actions[i] = Action::Pass;
        out.features[i] = [0.0; N_FEATURES];
    }
}
