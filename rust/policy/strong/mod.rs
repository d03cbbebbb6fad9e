//! [`StrongPolicy`]: fan planning, a lookahead to scoring ready hands, defense and an
//! optional determinized Monte Carlo search.
//!
//! Every decision goes through these layers.
//!
//! 1. **Plans** ([`crate::policy::plans`]): each candidate discard is valued by the best fan
//!    plan the remaining tiles keep alive (flushes, all pungs, straights, mixed shifted
//!    and triple chows, knitted forms, seven pairs, thirteen orphans, honors), its
//!    distance in tiles and whether its fan reaches the minimum, times the useful tiles
//!    the plan can use weighted by their unseen copies. A discard that leaves the hand
//!    ready is checked with the fan evaluator ([`waits`]): only waits that reach the
//!    minimum count, and a ready hand without one is valued like a hand further away.
//!    Discards below [`SHORTLIST`] of the best plan value are not considered while
//!    attacking; among the others the candidate's share of the best value times the
//!    *attack stake* (what finishing the hand is worth, from the best plan's distance and
//!    fan and the tiles left in the wall) is its attack value in points.
//! 2. **Lookahead** ([`lookahead`]): when some candidate leaves the hand at most one tile
//!    from ready, the candidates are valued instead by their chance of winning: the
//!    scoring waits of the ready hands they have or reach with one draw, counted by
//!    unseen copies, through a race against the wall. When none does, the leading
//!    [`TWO_AWAY_CANDIDATES`] are valued two draws ahead the same way. The chance of
//!    winning times [`LOOKAHEAD_SCALE`] replaces the attack value.
//! 3. **Defense** ([`danger`]): the chance each discard deals in, from every seat's
//!    discards, melds and the turn, priced by [`DANGER_WEIGHT`] among the attacking
//!    discards ([`StrongConfig::defense`] and [`StrongConfig::danger_weight`] say which
//!    model and which price a configuration uses). A hand [`FOLD_DISTANCE`] or more
//!    tiles from its plan facing a seat at least [`FOLD_THREAT`] likely to be ready
//!    folds: it discards the safest tile and claims nothing.
//! 4. **Search** ([`search`], off by default: [`StrongConfig::rollouts`]): when the best
//!    plan is within [`SEARCH_DISTANCE`] tiles and the leading candidates are close, each
//!    is played out on the same determinizations by fast policies and the mean score
//!    change replaces the estimate (a danger term, [`SEARCH_DANGER`], stays, since
//!    sampled opponents hold random tiles and would understate it). Measured against
//!    three efficiency bots, the rollouts a 50 ms budget affords are too few to beat the
//!    lookahead, so the default configuration does not search.
//!
//! **Expert** ([`StrongConfig::expert`], [`StrongConfig::value`]): the same layers, valuing
//! close hands by the expected points of winning instead of the chance
//! ([`lookahead::Worth::Points`]: each ready hand's chance times the mean points of its
//! scoring waits plus [`WIN_BLOCK`]), each turn discounted by the chance that a likely
//! ready opponent wins first ([`StrongConfig::survival`]), and the fan plans weighted by
//! the points of their wins ([`StrongConfig::fan_divisor`]). The figures are then points,
//! priced against danger directly. Its danger is the learned one
//! ([`StrongConfig::learned_danger`], [`danger_model`]: calibrated chances fitted on
//! self-play ground truth, about a third of the hand-made figures on average and better
//! ordered), priced at a quarter of what a deal-in costs ([`StrongConfig::danger_price`],
//! [`DEAL_IN_POINTS`]); the ready chances behind the survival and the fold rule stay the
//! hand-made ones (the learned ones, [`StrongConfig::learned_ready`], measured worse).
//! It never folds ([`StrongConfig::fold`]): its priced danger already keeps it off the
//! dangerous tiles, and folding gave up more than it saved against both opponents.
//! Its race model has two reaches ([`lookahead::DRAW_REACH`] for the draws that bring a
//! hand closer, [`lookahead::WIN_REACH`] for the tiles that win it), counts the copies of
//! a kind an opponent has discarded at one and a half in scoring waits
//! ([`lookahead::DISCARDED_WAIT_HALVES`]: such kinds come out more readily), and, when
//! some discard keeps the hand one tile from ready, still values the leading discards
//! two tiles away two draws ahead beside them.
//!
//! Claims are compared the same way: close to ready (or two tiles away), the chance of
//! winning after the claim and its best discard against the chance without it;
//! otherwise the plan values by [`CLAIM_MARGIN`] (a claim that kills the only fan plan
//! loses value; a pung that completes a needed fan gains); never when folding. Wins are
//! always taken; kongs follow the plan values.
//!
//! # Budget and determinism
//!
//! [`StrongConfig::rollouts`] fixes the work per searched decision, so the decisions are a
//! function of the view and the seed. [`StrongConfig::time_cap_ms`] (0 = none) stops a
//! search early if it runs past that many milliseconds: with the default budget it is
//! set well above the measured time on the reference machine, so it only binds on a
//! machine several times slower (then results may differ from run to run). `simulate`
//! and `arena` run without the cap, so their results never depend on time. The
//! lookahead does a bounded amount of work and never looks at the clock.
//!
//! # Explanations
//!
//! [`StrongPolicy::explain`] makes the same decision as [`Policy::act`] and says why:
//! the layer that decided, the candidates with their plans, chances, danger and values,
//! the claim against the pass, the opponents' threat ([`explain`]).

pub mod danger;
pub mod danger_data;
pub mod danger_model;
pub mod discards;
pub mod explain;
pub mod lookahead;
pub mod memo;
pub mod search;
pub mod waits;

use super::plans::{Evaluator, Score};
use super::{AfterMeld, Policy, TableView};
use crate::hand::{Meld, MeldKind};
use crate::round::{Action, HIDDEN};
use crate::rules::Rules;
use crate::shanten::regular::group_entry;
use crate::tile::{Counts, Tile};
use crate::wall::{derive_seed, Rng};
use explain::{Explanation, Facts, Mode, Sink};
use lookahead::Lookahead;
use search::{Search, MAX_CANDIDATES};
use std::time::{Duration, Instant};
use waits::WinContext;

const NO_USED: Counts = [0; 34];

/// Points lost by dealing in, used to price a discard's danger.
pub const DEAL_IN_COST: f32 = 26.0;
/// The weight of a discard's estimated danger against its attack value while attacking.
/// Far below [`DEAL_IN_COST`]: the estimate is coarse and spread over many tiles, and
/// measured against the efficiency bot a larger weight gives up more wins than it saves
/// deal-ins.
pub const DANGER_WEIGHT: f32 = 2.0;
/// What dealing in costs the discarder in gb, in points: the mean fan of a deal-in plus
/// the base of 8 ([`StrongConfig::danger_price`] prices a fraction of it).
pub const DEAL_IN_POINTS: f32 = 23.0;
/// Fold when some opponent is at least this likely to be ready ...
pub const FOLD_THREAT: f32 = 0.75;
/// ... and the best plan is this many tiles or more from complete.
pub const FOLD_DISTANCE: u8 = 4;
/// The value kept by a ready hand none of whose waits reaches the minimum fan.
pub const DEAD_READY: f32 = 0.3;
/// A claim must raise the hand's value by this factor.
pub const CLAIM_MARGIN: f32 = 1.1;
/// Decisions are searched only when the best plan is this close (tiles missing; 1 =
/// ready): there the choice of tile decides most often whether the hand wins.
pub const SEARCH_DISTANCE: u8 = 2;
/// Weight of the danger of a searched candidate (the rollouts' sampled opponents hold
/// random tiles and deal in less than real ones).
pub const SEARCH_DANGER: f32 = 8.0;

/// Candidates (best plan-and-defense totals first) valued two draws ahead when none is
/// within one tile of a scoring ready hand.
pub const TWO_AWAY_CANDIDATES: usize = 8;
/// After a claim, the discards (best plan values first) valued two draws ahead.
pub const TWO_AWAY_CLAIM_DISCARDS: usize = 3;
/// Weight of the plan-and-defense total beside the lookahead's value (a tie-break).
pub const TIE_BREAK: f32 = 0.01;
/// Points of a certain win, pricing the lookahead's chance of winning against danger.
pub const LOOKAHEAD_SCALE: f32 = 40.0;

/// Points added to every win in the expected-points lookahead ([`StrongConfig::value`]):
/// a win also ends the hand before an opponent wins (measured against three strong bots:
/// 20 plays better than 10 or 0).
pub const WIN_BLOCK: f32 = 20.0;

/// The expert claims close to ready only when the claim raises the expected points by
/// this factor (measured against three strong bots: 1.1 to 1.25 play better than 1, 0.9
/// and 1.5 worse).
pub const EXPERT_CLAIM_MARGIN: f32 = 1.25;
/// Per turn, the chance that an opponent likely ready wins ([`StrongConfig::survival`]).
pub const OTHER_WIN: f32 = 0.08;

/// Discards below this share of the best plan value are far behind on attack.
pub const SHORTLIST: f32 = 0.85;
/// Rollouts per millisecond of budget (measured on the reference machine, halved for
/// safety).
pub const ROLLOUTS_PER_MS: u32 = 1;
/// The default per-decision budget in milliseconds.
pub const DEFAULT_BUDGET_MS: u32 = 50;

/// How much a [`StrongPolicy`] looks ahead and searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrongConfig {
    /// Rollouts per searched decision (spread over the candidates); 0 turns the search
    /// off.
    pub rollouts: u32,
    /// Most candidates a search compares (2 to 6).
    pub candidates: u8,
    /// Stop a search after this many milliseconds (0 = never; see the module docs).
    pub time_cap_ms: u32,
    /// Value close hands by their chance of winning ([`lookahead`]).
    pub lookahead: bool,
    /// Value them by the expected points of winning instead ([`lookahead::Worth::Points`]:
    /// a high-fan wait is worth more than a cheap one).
    pub value: bool,
    /// Price discards by the learned chances of dealing in ([`danger_model`]) rather than
    /// the hand-made ones ([`danger`]).
    pub learned_danger: bool,
    /// Read the opponents' chance of being ready from the learned model in the survival
    /// per turn and the fold rule.
    pub learned_ready: bool,
    /// The price of a unit of deal-in chance as a percentage of [`DEAL_IN_POINTS`]; 0
    /// keeps the fixed [`DANGER_WEIGHT`].
    pub danger_price: u8,
    /// Fold when far from ready facing a likely-ready seat ([`FOLD_DISTANCE`],
    /// [`FOLD_THREAT`]): discard the safest tile and claim nothing. Without it the danger
    /// is still priced among the attacking discards.
    pub fold: bool,
}

impl Default for StrongConfig {
    /// The strongest measured configuration: plans, defense and the lookahead, no search
    /// (the rollouts at the default budget lose to the lookahead alone).
    fn default() -> Self {
        StrongConfig {
            rollouts: 0,
            candidates: 3,
            time_cap_ms: 0,
            lookahead: true,
            value: false,
            learned_danger: false,
            learned_ready: false,
            danger_price: 0,
            fold: true,
        }
    }
}

impl StrongConfig {
    /// Plans and defense only: no lookahead, no search (the fastest configuration).
    pub fn lite() -> Self {
        StrongConfig {
            lookahead: false,
            ..StrongConfig::default()
        }
    }

    /// The lookahead and the search with a budget of `ms` milliseconds per decision: as
    /// many rollouts as the reference machine plays in well under that time, and, with
    /// `cap`, the budget as a wall-clock cap.
    pub fn from_budget_ms(ms: u32, cap: bool) -> Self {
        StrongConfig {
            rollouts: ms.saturating_mul(ROLLOUTS_PER_MS),
            time_cap_ms: if cap { ms } else { 0 },
            ..StrongConfig::default()
        }
    }

    /// The expert bot: the default configuration valuing close hands by the expected
    /// points of winning rather than the chance, with the learned deal-in chances priced at
    /// a quarter of [`DEAL_IN_POINTS`] (measured against three strong bots: 5% to 50% play
    /// alike and better than the hand-made chances at any weight, 100% worse; the learned
    /// ready chances play worse than the hand-made ones in the survival and the fold
    /// rule), and without the fold rule.
    ///
    /// Ablation, paired per wall on the same walls (mean points per hand with its 95%
    /// interval, against three efficiency bots (5,000 walls) then three strong bots (4,000
    /// walls), seed 1):
    ///
    /// - without the fold rule: +0.041 ± 0.050, +0.066 ± 0.049 (seed 2027: +0.058 ± 0.046,
    ///   +0.019 ± 0.044); folding only on turns -0.020 ± 0.046, -0.065 ± 0.044 and only in
    ///   claims -0.026 ± 0.030, -0.039 ± 0.036 against that;
    /// - then: a danger price of 35% -0.07 ± 0.16, -0.05 ± 0.17; the deal-in model fitted
    ///   on strong and efficiency tables together -0.12 ± 0.29, -0.06 ± 0.29; [`OTHER_WIN`]
    ///   0.12 +0.00 ± 0.14, +0.02 ± 0.15; the far claims' margin ([`CLAIM_MARGIN`]) 1.0 or
    ///   1.25 -0.04 to 0.00 (± 0.05); twice the danger price when the fold rule would
    ///   have folded, no change; fourteen candidates two draws ahead instead of
    ///   [`TWO_AWAY_CANDIDATES`] +0.02 ± 0.04 (efficiency);
    /// - with the fold rule: [`OTHER_WIN`] 0.04 +0.07 ± 0.13, -0.16 ± 0.13;
    ///   [`EXPERT_CLAIM_MARGIN`] 1.1 -0.05 ± 0.13 (efficiency); [`WIN_BLOCK`] 15 or 25
    ///   ± 0.00 (± 0.07, efficiency); valuing the two-away discards beside the one-away
    ///   ones, with fourteen candidates two draws ahead, +0.10 ± 0.18, -0.05 ± 0.21.
    ///
    /// The lookahead's calibration ([`lookahead::DRAW_REACH`], [`lookahead::WIN_REACH`],
    /// [`lookahead::DISCARDED_WAIT_HALVES`], the two-away discards beside the one-away
    /// ones), each paired per wall against the step before it, 20,000 walls against
    /// three efficiency bots on seeds 1 and 2027, 10,000 against three strong bots on seed 1:
    ///
    /// - draws at 0.5 and wins at 1.0 in place of 0.8 for both: +0.25 ± 0.11 and
    ///   +0.11 ± 0.11 against efficiency, +0.19 ± 0.15 against strong; wins at 1.5
    ///   rather than 1.0: +0.03 ± 0.06 (efficiency, seed 1);
    /// - discarded kinds' copies at one and a half: +0.16 ± 0.10 and +0.11 ± 0.10
    ///   (efficiency), +0.01 ± 0.14 (strong); at two, -0.20 ± 0.16 (efficiency, seed 1);
    /// - the two-away discards valued beside the one-away ones: +0.08 ± 0.08 and
    ///   +0.09 ± 0.08 (efficiency), +0.05 ± 0.14 (strong, with wins at 1.5);
    /// - all together: +0.36 ± 0.15 (efficiency, seed 2027), +0.26 ± 0.20 (strong).
    pub fn expert() -> Self {
        StrongConfig {
            value: true,
            learned_danger: true,
            learned_ready: false,
            danger_price: 25,
            fold: false,
            ..StrongConfig::default()
        }
    }

    /// The points a unit of deal-in chance costs: [`StrongConfig::danger_price`] percent
    /// of [`DEAL_IN_POINTS`], or [`DANGER_WEIGHT`] when that is 0.
    pub fn danger_weight(&self) -> f32 {
        if self.danger_price == 0 {
            DANGER_WEIGHT
        } else {
            self.danger_price as f32 / 100.0 * DEAL_IN_POINTS
        }
    }

    /// The chance that each discard deals in and the opponents' threats, as this
    /// configuration reads them from `view` (`unseen` copies from the observer's view):
    /// the hand-made model ([`danger::danger`]), with the learned deal-in chances and
    /// ready chances ([`danger_model::danger`]) where the configuration asks for them.
    pub fn defense(
        &self,
        view: &dyn TableView,
        unseen: &Counts,
    ) -> ([f32; 34], [danger::Threat; 4]) {
        if !self.learned_danger && !self.learned_ready {
            return danger::danger(view, unseen);
        }
        let (learned, mut threats, ready) = danger_model::danger(view, unseen);
        let deal_in = if self.learned_danger {
            learned
        } else {
            danger::danger_given(view, &threats, unseen)
        };
        if self.learned_ready {
            // The learned chance in place of the hand-made one (the flush and pungs signs
            // stay, for the explanations).
            for (th, r) in threats.iter_mut().zip(ready) {
                th.ready = r;
            }
        }
        (deal_in, threats)
    }

    /// What the lookahead's figures measure under this configuration.
    pub fn worth(&self) -> lookahead::Worth {
        if self.value {
            lookahead::Worth::Points {
                self_draw_share: lookahead::SELF_DRAW_SHARE,
                block: WIN_BLOCK,
            }
        } else {
            lookahead::Worth::Chance
        }
    }

    /// With [`StrongConfig::value`], the plans' fan divisor
    /// ([`Evaluator::with_fan_divisor`]) that makes a plan's weight above the minimum
    /// proportional to the points of its win (as in [`lookahead::win_points`]: with
    /// the minimum `m`, a plan of fan `f` weighs `(c·f + 3·base) / (c·m + 3·base)`,
    /// `c = 1 + 2·share`).
    pub fn fan_divisor(&self, min_fan: u8) -> Option<f32> {
        if !self.value {
            return None;
        }
        let c = 1.0 + 2.0 * lookahead::SELF_DRAW_SHARE;
        Some((c * min_fan as f32 + 3.0 * lookahead::BASE_POINTS) / c)
    }

    /// With [`StrongConfig::value`], the chance per turn that no opponent wins first
    /// ([`Lookahead::survive`]): each opponent likely ready ends the hand with chance
    /// [`OTHER_WIN`] per turn, from the defense's reading `threats` of the opponents of
    /// `seat`. 1 otherwise (every turn to the end of the wall counts).
    pub fn survival(&self, seat: u8, threats: &[danger::Threat; 4]) -> f32 {
        if !self.value {
            return 1.0;
        }
        let seat = seat as usize;
        let ready: f32 = (0..4)
            .filter(|&s| s != seat)
            .map(|s| threats[s].ready)
            .sum();
        (1.0 - OTHER_WIN * ready).clamp(0.5, 1.0)
    }

    /// Close to ready, the factor by which a claim must raise the lookahead's figure:
    /// [`EXPERT_CLAIM_MARGIN`] with [`StrongConfig::value`], else 1.
    pub fn close_claim_margin(&self) -> f32 {
        if self.value {
            EXPERT_CLAIM_MARGIN
        } else {
            1.0
        }
    }

    /// Points of a certain win in the lookahead's figures: [`LOOKAHEAD_SCALE`] for
    /// chances, 1 for expected points.
    pub fn lookahead_scale(&self) -> f32 {
        if self.value {
            1.0
        } else {
            LOOKAHEAD_SCALE
        }
    }
}

/// The strong bot (see the [module documentation](self)).
#[derive(Clone)]
pub struct StrongPolicy {
    rules: Rules,
    min_fan: u8,
    cfg: StrongConfig,
    seed: u64,
    decisions: u64,
    rng: Rng,
    search: Option<Box<Search>>,
    search_failed: bool,
    /// The lookahead, reset for every decision (its memo of scoring waits lives on).
    lookahead: Option<Box<Lookahead>>,
    /// Huainan: the efficiency policy's wild-aware decisions (the plans here are the gb
    /// fans, and the 宝 state is not sampled by the search).
    huainan: Option<super::EfficiencyPolicy>,
}

/// One candidate discard with its evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    /// The tile.
    pub tile: Tile,
    /// The best plan after the discard.
    pub score: Score,
    /// Unseen copies of the useful tiles the plan can use.
    pub useful: u32,
    /// The chance the discard deals in.
    pub danger: f32,
    /// Attack value minus the price of the danger, in points.
    pub total: f32,
}

impl StrongPolicy {
    /// A strong policy for `rules`, seeded with `seed`, searching with `cfg`.
    pub fn new(rules: &Rules, seed: u64, cfg: StrongConfig) -> Self {
        StrongPolicy {
            rules: rules.clone(),
            min_fan: rules.fan.min_fan,
            cfg: StrongConfig {
                candidates: cfg.candidates.clamp(2, MAX_CANDIDATES as u8),
                ..cfg
            },
            seed,
            decisions: 0,
            rng: Rng::new(seed),
            search: None,
            search_failed: false,
            lookahead: None,
            huainan: crate::policy::plays_wilds(rules)
                .then(|| super::EfficiencyPolicy::new(rules, seed)),
        }
    }

    /// The configuration.
    pub fn config(&self) -> StrongConfig {
        self.cfg
    }

    fn evaluator(&self, view: &dyn TableView, melds: &[Meld]) -> Evaluator {
        let ev = Evaluator::new(melds, view.seat_wind(), view.prevalent_wind(), self.min_fan);
        match self.cfg.fan_divisor(self.min_fan) {
            Some(d) => ev.with_fan_divisor(d),
            None => ev,
        }
    }

    /// Every discard of the full hand `hand` among `allowed` kinds, valued (plans, useful
    /// tiles, scoring waits of ready hands, the shapes and waits remembered in `la`,
    /// danger); returns how many were written.
    #[allow(clippy::too_many_arguments)]
    pub fn candidates(
        &self,
        ev: &Evaluator,
        hand: &Counts,
        unseen: &Counts,
        danger: &[f32; 34],
        allowed: u64,
        ctx: &WinContext,
        la: &mut Lookahead,
        out: &mut [Candidate; 14],
    ) -> usize {
        let full = [
            group_entry(0, &hand[0..9], &NO_USED[0..9], false),
            group_entry(1, &hand[9..18], &NO_USED[9..18], false),
            group_entry(2, &hand[18..27], &NO_USED[18..27], false),
            group_entry(3, &hand[27..34], &NO_USED[27..34], false),
        ];
        let n_melds = ev.melds().len() as u8;
        let mut n = 0usize;
        let mut h = *hand;
        // The full hand's group entries, shared by its discards' shapes.
        let mut parent = discards::Parent::new(hand);
        for t in 0..34usize {
            if hand[t] == 0 || allowed >> t & 1 == 0 || n == out.len() {
                continue;
            }
            h[t] -= 1;
            let g = (t / 9).min(3);
            let mut e = full;
            let r = if g < 3 { g * 9..g * 9 + 9 } else { 27..34 };
            e[g] = group_entry(g, &h[r.clone()], &NO_USED[r], false);
            let mut s = ev.score_with(&h, &e);
            let waiting: &Counts = &h;
            let mut measure = || {
                let (r, e, rests) = parent.groups_without(t);
                crate::shanten::useful::useful_tiles_and_distance_with(
                    waiting, n_melds, &r, &e, &rests,
                )
            };
            let (shanten, useful) = la.shape_with(waiting, n_melds, &mut measure);
            let mask = useful & s.allowed;
            let mut u = 0u32;
            let mut m = mask;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                u += unseen[k] as u32;
            }
            if shanten == 0 {
                // Ready: only the waits that reach the minimum count.
                let wv = la.memo().ready_scoring_waits(&h, ctx, &self.rules, unseen);
                let eff = wv.effective();
                if eff > 0.0 {
                    s.value = s.value.max(
                        1.0 + (wv.best_fan as f32 - self.min_fan as f32).clamp(0.0, 40.0)
                            / ev.fan_divisor(),
                    );
                    s.distance = 1;
                    u = eff.round() as u32;
                } else {
                    s.value *= DEAD_READY;
                    s.distance = s.distance.max(2);
                    u = 0;
                }
            }
            h[t] += 1;
            out[n] = Candidate {
                tile: t as Tile,
                score: s,
                useful: u,
                danger: danger[t],
                total: 0.0,
            };
            n += 1;
        }
        n
    }

    /// What finishing the hand is worth now, in points, from the best plan's distance
    /// (tiles missing, 1 = ready), its value and the tiles left in the wall.
    pub fn stake(best: &Score, wall_remaining: usize) -> f32 {
        let p = match best.distance {
            0 | 1 => 0.5,
            2 => 0.28,
            3 => 0.14,
            4 => 0.06,
            _ => 0.025,
        };
        let time = (wall_remaining as f32 / 50.0).clamp(0.15, 1.0);
        40.0 * p * best.value.min(1.5) * time
    }

    /// Fills in each candidate's total: its share of the best plan-and-useful key times
    /// the stake, minus the price of its danger. Returns the stake.
    fn rank(
        cands: &mut [Candidate],
        wall_remaining: usize,
        threat: f32,
        dw: f32,
        may_fold: bool,
    ) -> (f32, bool) {
        let best_value = cands.iter().map(|c| c.score.value).fold(0f32, f32::max);
        let key = |c: &Candidate| c.score.value * (c.useful as f32 + 4.0);
        let short = |c: &Candidate| c.score.value >= SHORTLIST * best_value;
        let best = cands
            .iter()
            .filter(|c| short(c))
            .map(key)
            .fold(0f32, f32::max);
        let top = cands
            .iter()
            .filter(|c| short(c))
            .max_by(|a, b| key(a).total_cmp(&key(b)))
            .map(|c| c.score);
        let stake = top.map(|s| Self::stake(&s, wall_remaining)).unwrap_or(0.0);
        let far = top.map_or(true, |s| s.distance >= FOLD_DISTANCE);
        let fold = may_fold && threat >= FOLD_THREAT && far;
        for c in cands.iter_mut() {
            let share = if best > 0.0 { key(c) / best } else { 1.0 };
            c.total = if fold {
                // Folding: the safest tile, the plan only breaking ties.
                -c.danger * DEAL_IN_COST + 0.01 * share
            } else if short(c) {
                share * stake - c.danger * dw
            } else {
                f32::NEG_INFINITY
            };
        }
        (stake, fold)
    }

    /// The indices of `cands`, best plan-and-defense total first (ties by position).
    fn leading(cands: &[Candidate]) -> ([usize; 14], usize) {
        let n = cands.len().min(14);
        let mut order = [0usize; 14];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i;
        }
        order[..n].sort_by(|&a, &b| cands[b].total.total_cmp(&cands[a].total).then(a.cmp(&b)));
        (order, n)
    }

    /// Replaces the totals of the candidates close to ready by their chance of winning
    /// ([`lookahead`]) when some of them can reach a scoring ready hand; the others drop
    /// out (with [`StrongConfig::value`], the leading [`TWO_AWAY_CANDIDATES`] two tiles
    /// from ready are valued two draws ahead beside them). Returns true when it did.
    fn rank_close(
        &self,
        cands: &mut [Candidate],
        hand: &Counts,
        n_melds: u8,
        ctx: &WinContext,
        la: &mut Lookahead,
        mut ex: Option<&mut Explanation>,
    ) -> bool {
        let mut vals = [None; 14];
        let mut any = false;
        let mut h = *hand;
        for (i, c) in cands.iter().enumerate() {
            h[c.tile as usize] -= 1;
            vals[i] = la.value(&h, n_melds, ctx, &self.rules);
            h[c.tile as usize] += 1;
            any |= vals[i].is_some_and(|v| v > 0.0);
        }
        if any && self.cfg.value {
            // Expected points: the leading candidates two tiles from ready are valued two
            // draws ahead beside the ones one tile away (a better shape or fan may be
            // worth the extra draw).
            let (order, n) = Self::leading(cands);
            for &i in order[..n].iter().take(TWO_AWAY_CANDIDATES) {
                if vals[i].is_some() || !cands[i].total.is_finite() {
                    continue;
                }
                h[cands[i].tile as usize] -= 1;
                vals[i] = la.value2(&h, n_melds, ctx, &self.rules);
                h[cands[i].tile as usize] += 1;
            }
        }
        if !any {
            // Two tiles from ready: the leading candidates one draw further ahead.
            let (order, n) = Self::leading(cands);
            for &i in order[..n].iter().take(TWO_AWAY_CANDIDATES) {
                if !cands[i].total.is_finite() {
                    continue;
                }
                h[cands[i].tile as usize] -= 1;
                vals[i] = la.value2(&h, n_melds, ctx, &self.rules);
                h[cands[i].tile as usize] += 1;
                any |= vals[i].is_some_and(|v| v > 0.0);
            }
            if !any {
                return false;
            }
        }
        let scale = self.cfg.lookahead_scale();
        let dw = self.cfg.danger_weight();
        for (c, v) in cands.iter_mut().zip(vals) {
            // The plan-and-defense total breaks near ties (e.g. two discards that leave
            // the same scoring routes).
            let tie = if c.total.is_finite() {
                TIE_BREAK * c.total
            } else {
                -TIE_BREAK
            };
            c.total = match v {
                Some(v) if v > 0.0 => scale * v - c.danger * dw + tie,
                _ => f32::NEG_INFINITY,
            };
        }
        ex.note(|e| e.chances(cands, &vals));
        true
    }

    fn turn(
        &mut self,
        view: &dyn TableView,
        melds: &[Meld],
        unseen: &Counts,
        la: &mut Lookahead,
        mut ex: Option<&mut Explanation>,
    ) -> Action {
        let legal = view.legal();
        let hand = *view.hand();
        let mut ev = self.evaluator(view, melds);
        ev.select_chow_plans(&hand);
        let mut discardable = 0u64;
        for a in legal {
            if let Action::Discard(t) | Action::Ready(t) = a {
                discardable |= 1 << t;
            }
        }
        let (danger, threats) = self.cfg.defense(view, unseen);
        la.survive = self.cfg.survival(view.seat(), &threats);
        ex.note(|e| e.threats(view.seat(), &threats));
        let mut cands = [Candidate {
            tile: 0,
            score: ev.score(&hand),
            useful: 0,
            danger: 0.0,
            total: 0.0,
        }; 14];
        let ctx = win_context(view, melds);
        let n = self.candidates(
            &ev,
            &hand,
            unseen,
            &danger,
            discardable,
            &ctx,
            la,
            &mut cands,
        );
        if n == 0 {
            return legal[0];
        }
        let cands = &mut cands[..n];
        let threat = threats.iter().map(|t| t.ready).fold(0f32, f32::max);
        let dw = self.cfg.danger_weight();
        let (stake, fold) = Self::rank(cands, view.wall_remaining(), threat, dw, self.cfg.fold);
        ex.note(|e| {
            let f = Facts {
                ev: &ev,
                hand: &hand,
                ctx: &ctx,
                rules: &self.rules,
                unseen,
            };
            e.ranked(cands, stake, fold, f)
        });
        if !fold && self.cfg.lookahead {
            la.reset(unseen, view.wall_remaining());
            let ex = ex.as_deref_mut();
            self.rank_close(cands, &hand, melds.len() as u8, &ctx, la, ex);
        }
        cands.sort_by(|a, b| b.total.total_cmp(&a.total).then(a.tile.cmp(&b.tile)));
        ex.note(|e| e.sorted(cands));
        let mut choice = cands[0];

        // Kongs: declared when the hand keeps the plan value and nobody threatens much.
        let best_value = cands.iter().map(|c| c.score.value).fold(0f32, f32::max);
        for &a in legal {
            match a {
                Action::ConcealedKong(t) => {
                    let after = AfterMeld::of_concealed_kong(t, &hand, melds);
                    let mut ev2 = self.evaluator(view, after.melds());
                    ev2.select_chow_plans(&after.hand);
                    if ev2.score(&after.hand).value >= best_value * 0.95 {
                        ex.note(|e| e.mode = Mode::Kong);
                        return a;
                    }
                }
                Action::AddedKong(t) => {
                    let mut h = hand;
                    h[t as usize] = h[t as usize].saturating_sub(1);
                    if ev.score(&h).value >= best_value * 0.95 && danger[t as usize] < 0.05 {
                        ex.note(|e| e.mode = Mode::Kong);
                        return a;
                    }
                }
                _ => {}
            }
        }

        // Search among the close candidates.
        if self.cfg.rollouts > 0
            && n > 1
            && cands[0].total.is_finite()
            && cands[0].score.distance <= SEARCH_DISTANCE
        {
            let margin = 0.35 * cands[0].total.abs().max(2.0);
            let k = cands
                .iter()
                .take(self.cfg.candidates as usize)
                .take_while(|c| c.total.is_finite() && c.total >= cands[0].total - margin)
                .count();
            if k > 1 {
                let mut acts = [Action::Pass; MAX_CANDIDATES];
                for (i, c) in cands[..k].iter().enumerate() {
                    acts[i] = if legal.contains(&Action::Discard(c.tile)) {
                        Action::Discard(c.tile)
                    } else {
                        Action::Ready(c.tile)
                    };
                }
                if let Some(means) = self.search(view, &acts[..k]) {
                    ex.note(|e| e.searched_discards(&acts[..k], &means));
                    let mut best = (f32::NEG_INFINITY, 0usize);
                    for (i, c) in cands[..k].iter().enumerate() {
                        let v = means[i] - c.danger * SEARCH_DANGER;
                        if v > best.0 {
                            best = (v, i);
                        }
                    }
                    choice = cands[best.1];
                }
            }
        }
        let ready = Action::Ready(choice.tile);
        if legal.contains(&ready) && choice.danger < 0.2 {
            return ready;
        }
        if legal.contains(&Action::Discard(choice.tile)) {
            Action::Discard(choice.tile)
        } else {
            ready
        }
    }

    fn claim(
        &mut self,
        view: &dyn TableView,
        melds: &[Meld],
        tile: Tile,
        unseen: &Counts,
        la: &mut Lookahead,
        mut ex: Option<&mut Explanation>,
    ) -> Action {
        let legal = view.legal();
        let hand = *view.hand();
        let mut with = hand;
        with[tile as usize] += 1;
        let mut ev = self.evaluator(view, melds);
        ev.select_chow_plans(&with);
        let (danger, threats) = self.cfg.defense(view, unseen);
        la.survive = self.cfg.survival(view.seat(), &threats);
        let base = ev.score(&hand);
        let stake = Self::stake(&base, view.wall_remaining());
        let threat = threats.iter().map(|t| t.ready).fold(0f32, f32::max);
        let dw = self.cfg.danger_weight();
        ex.note(|e| {
            e.threats(view.seat(), &threats);
            e.stake = stake;
            e.claim_value(Action::Pass, base.value * CLAIM_MARGIN);
        });
        // Folding: a far hand facing a likely-ready seat keeps its concealed (safe) tiles.
        if self.cfg.fold && threat >= FOLD_THREAT && base.distance >= FOLD_DISTANCE {
            ex.note(|e| e.mode = Mode::Fold);
            return Action::Pass;
        }
        let mut best = (base.value * CLAIM_MARGIN, Action::Pass);
        // Close to ready: the chance of winning with and without each claim.
        let pass_la = if self.cfg.lookahead {
            la.reset(unseen, view.wall_remaining());
            let ctx = win_context(view, melds);
            la.value(&hand, melds.len() as u8, &ctx, &self.rules)
                .or_else(|| la.value2(&hand, melds.len() as u8, &ctx, &self.rules))
        } else {
            None
        };
        ex.note(|e| e.claim_chance(Action::Pass, pass_la, None));
        let mut best_la = (0f32, Action::Pass);
        for &a in legal {
            let Some(claimed) = AfterMeld::of_claim(a, tile, &hand, melds) else {
                continue;
            };
            let (meld, h) = (claimed.meld, claimed.hand);
            let melds_after = claimed.melds();
            let n_after = melds_after.len() as u8;
            let mut ev2 = self.evaluator(view, melds_after);
            ev2.select_chow_plans(&h);
            let v = if meld.kind == MeldKind::Kong {
                ev2.score(&h).value / 1.1
            } else {
                let mut cs = [Candidate {
                    tile: 0,
                    score: base,
                    useful: 0,
                    danger: 0.0,
                    total: 0.0,
                }; 14];
                let ctx = win_context(view, melds_after);
                let n = self.candidates(&ev2, &h, unseen, &danger, u64::MAX, &ctx, la, &mut cs);
                if pass_la.is_some() {
                    la.reset(unseen, view.wall_remaining());
                    let mut hh = h;
                    let cs = &mut cs[..n];
                    cs.sort_by(|a, b| {
                        let ka = a.score.value * (a.useful as f32 + 4.0);
                        let kb = b.score.value * (b.useful as f32 + 4.0);
                        kb.total_cmp(&ka).then(a.tile.cmp(&b.tile))
                    });
                    let k2 = TWO_AWAY_CLAIM_DISCARDS;
                    for (ci, c) in cs.iter().enumerate() {
                        hh[c.tile as usize] -= 1;
                        let v = la.value(&hh, n_after, &ctx, &self.rules).or_else(|| {
                            if ci < k2 {
                                la.value2(&hh, n_after, &ctx, &self.rules)
                            } else {
                                None
                            }
                        });
                        if let Some(v) = v {
                            let v = v - c.danger * dw / self.cfg.lookahead_scale();
                            ex.note(|e| e.claim_chance(a, Some(v), Some(c.tile)));
                            if v > best_la.0 {
                                best_la = (v, a);
                            }
                        }
                        hh[c.tile as usize] += 1;
                    }
                }
                // The best discard after the claim, its danger priced against the stake.
                cs[..n.min(14)]
                    .iter()
                    .map(|c| c.score.value * (1.0 - (c.danger * dw / stake.max(1.0)).min(1.0)))
                    .fold(0f32, f32::max)
            };
            ex.note(|e| e.claim_value(a, v));
            if v > best.0 {
                best = (v, a);
            }
        }
        if let Some(vp) = pass_la {
            if vp > 0.0 || best_la.0 > 0.0 {
                let a = if best_la.0 > vp * self.cfg.close_claim_margin() {
                    best_la.1
                } else {
                    Action::Pass
                };
                if a == Action::Pass || legal.contains(&a) {
                    ex.note(|e| e.mode = Mode::Lookahead);
                    return if legal.contains(&a) {
                        a
                    } else {
                        legal[legal.len() - 1]
                    };
                }
            }
        }
        // A close call between passing and the best claim goes to the search.
        if self.cfg.rollouts > 0 && best.1 != Action::Pass && base.distance <= SEARCH_DISTANCE {
            let ratio = best.0 / (base.value * CLAIM_MARGIN).max(1e-6);
            if ratio < 1.3 && legal.contains(&Action::Pass) {
                let acts = [Action::Pass, best.1];
                if let Some(means) = self.search(view, &acts) {
                    ex.note(|e| e.searched_claims(&acts, &means));
                    return if means[1] > means[0] {
                        best.1
                    } else {
                        Action::Pass
                    };
                }
            }
        }
        ex.note(|e| e.mode = Mode::Claim);
        if legal.contains(&best.1) {
            best.1
        } else {
            Action::Pass
        }
    }

    /// Runs the search for `acts`; `None` when the search is off or cannot rebuild the
    /// view.
    fn search(&mut self, view: &dyn TableView, acts: &[Action]) -> Option<[f32; MAX_CANDIDATES]> {
        if self.search_failed || self.cfg.rollouts == 0 || acts.len() < 2 {
            return None;
        }
        if self.search.is_none() {
            match Search::new(&self.rules) {
                Ok(s) => self.search = Some(Box::new(s)),
                Err(_) => {
                    self.search_failed = true;
                    return None;
                }
            }
        }
        // The search rebuilds the table from the seat's observation, at a turn or when a
        // chow, pung or kong is on offer (never in a robbing window).
        let legal = view.legal();
        let claims = legal
            .iter()
            .any(|a| matches!(a, Action::Chow(_) | Action::Pung(_) | Action::Kong(_)));
        if legal.is_empty() || (view.claim().is_some() && !claims) {
            return None;
        }
        let obs = view.observation();
        let samples = (self.cfg.rollouts / acts.len() as u32).max(1);
        let deadline = (self.cfg.time_cap_ms > 0)
            .then(|| Instant::now() + Duration::from_millis(self.cfg.time_cap_ms as u64));
        let seed = derive_seed(self.seed, self.decisions);
        let search = self.search.as_mut()?;
        let r = search.run(&obs, acts, samples, seed, deadline);
        (r.samples > 0).then_some(r.mean)
    }
}

/// The fan evaluator's seat facts from a view, with `melds` as the seat's melds.
pub fn win_context(view: &dyn TableView, melds: &[Meld]) -> WinContext {
    let mut m = [Meld {
        kind: MeldKind::Chow,
        tile: 0,
    }; 4];
    let n = melds.len().min(4);
    m[..n].copy_from_slice(&melds[..n]);
    WinContext {
        melds: m,
        n_melds: n as u8,
        seat_wind: view.seat_wind(),
        prevalent_wind: view.prevalent_wind(),
        flowers: view.n_flowers(view.seat()),
    }
}

/// Unseen copies of each kind from a seat's view: four minus its hand, its concealed
/// kongs and the visible copies.
pub fn unseen_of(view: &dyn TableView, own_melds: &[Meld]) -> Counts {
    let hand = view.hand();
    let vis = view.visible();
    let mut u = [0u8; 34];
    for t in 0..34 {
        u[t] = 4u8.saturating_sub(hand[t]).saturating_sub(vis[t]);
    }
    for m in own_melds {
        if m.kind == MeldKind::ConcealedKong && (m.tile as usize) < 34 && m.tile != HIDDEN {
            u[m.tile as usize] = 0;
        }
    }
    u
}

impl Policy for StrongPolicy {
    fn name(&self) -> &'static str {
        "strong"
    }
    fn begin_hand(&mut self, seed: u64) {
        self.seed = seed;
        self.decisions = 0;
        self.rng = Rng::new(seed);
        if let Some(h) = self.huainan.as_mut() {
            h.begin_hand(seed);
        }
        if let Some(la) = self.lookahead.as_mut() {
            la.forget();
        }
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        self.decide(view, None)
    }
    fn explain(&mut self, view: &dyn TableView) -> crate::MjResult<(Action, Explanation)> {
        StrongPolicy::explain(self, view)
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

impl StrongPolicy {
    /// [`Policy::act`], writing the reasons into `ex` when there is one.
    fn decide(&mut self, view: &dyn TableView, mut ex: Option<&mut Explanation>) -> Action {
        let legal = view.legal();
        match legal.len() {
            0 => return Action::Pass,
            1 => return legal[0],
            _ => {}
        }
        if let Some(h) = self.huainan.as_mut() {
            ex.note(|e| e.mode = Mode::Huainan);
            return h.act(view);
        }
        if legal.contains(&Action::Win) {
            ex.note(|e| e.mode = Mode::Win);
            return Action::Win;
        }
        self.decisions += 1;
        let (m, n) = view.melds(view.seat());
        let melds = &m[..n];
        let unseen = unseen_of(view, melds);
        let mut la = self
            .lookahead
            .take()
            .unwrap_or_else(|| Box::new(Lookahead::new(&unseen, view.wall_remaining())));
        la.worth = self.cfg.worth();
        la.discarded = view
            .discards()
            .iter()
            .filter(|d| d.seat != view.seat() && (d.tile as usize) < 34)
            .fold(0u64, |m, d| m | 1 << d.tile);
        let a = match view.claim() {
            Some((_, t)) if view.turn() != view.seat() => {
                self.claim(view, melds, t, &unseen, &mut la, ex)
            }
            _ => self.turn(view, melds, &unseen, &mut la, ex),
        };
        self.lookahead = Some(la);
        if legal.contains(&a) {
            a
        } else {
            // Never reached for a consistent view; the last action is a pass in a claim
            // window and a discard on a turn.
            let i = self.rng.below(legal.len() as u64) as usize;
            legal[i]
        }
    }
}

#[cfg(test)]
mod tests;
