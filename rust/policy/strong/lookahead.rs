//! Near the end of a hand's building: the chance of winning with each candidate, from the
//! scoring waits it has or can reach with one draw.
//!
//! A hand one tile from ready (or ready without a wait that reaches the minimum fan) wins
//! only through a ready hand that scores. [`Lookahead::value`] looks one draw ahead: for
//! every kind `x` still unseen, the best discard after drawing `x` that leaves a ready
//! hand, valued by the unseen copies of its scoring waits
//! ([`WaitMemo::scoring_waits`]). A race model turns those figures into a chance of
//! winning before the wall runs out:
//!
//! - a ready hand with `W` scoring copies among `U` unseen tiles wins on each of its turns
//!   with chance `h(W) = min(K·W/U, 0.9)` (`K` = [`REACH`]), so within `n` turns with
//!   `1 − (1 − h)^n`;
//! - a hand one tile away reaches the ready hand of kind `x` on each turn with chance
//!   `q_x = K·u_x/U` (`u_x` unseen copies), and then races as above:
//!   `V₁(n) = Σ_x q_x·V₀(n − 1, W_x) + (1 − Σ_x q_x)·V₁(n − 1)`;
//! - a hand two tiles away ([`Lookahead::value2`]) reaches the best one-away hand after
//!   drawing `x` the same way, with `V₁` in place of `V₀`.
//!
//! `n` is the seat's turns left (a quarter of the wall, at most [`MAX_TURNS`]).
//!
//! With [`Worth::Points`] (the expert bot) every ready hand's chance is multiplied by the
//! mean points of a win with its scoring waits ([`win_points`], from the per-wait fan
//! totals of the [`WaitMemo`]), so the figures are expected points and a ready hand
//! after a draw is chosen by its expected points rather than its copies; and each turn
//! is reached only with chance [`Lookahead::survive`] (an opponent may win first), which
//! makes a slow hand worth less than a fast one of the same value.
//!
//! The figures compare candidates that are all close, which the plan values (distances
//! and fan weights) cannot do: they do not see which ready hands actually reach 8 fan nor
//! how many live tiles finish them.
//!
//! # Cost
//!
//! Different discards and draws often lead to the same waiting hand, within a decision
//! and from one decision to the next: the scoring waits of waiting hands are remembered
//! for as long as the lookahead lives ([`WaitMemo`]: they depend on the hand and the
//! seat, not on the unseen copies), and the one-draw curves within one decision. The
//! discards of a full hand that leave it ready or one tile away are found together
//! ([`super::discards`]) and remembered as well (the same full hand is reached by two
//! draws in either order), and so are the shanten and the useful tiles of the waiting
//! hands (a third of the hands one tile from ready recur from one decision to the next).
//! Within a decision the ready curves are remembered by their scoring copies, which take
//! few distinct values. A policy keeps one lookahead and [`Lookahead::reset`]s it for
//! every decision, so that nothing is allocated per decision.
//!
//! The memos are keyed by the hands' counts packed three bits each
//! ([`memo::HandKey`]), so that a hand one draw or discard away is keyed by one addition,
//! and their slots are small (half a cache line for the discards and shapes): the four
//! bots' memos are read at random, and time goes to waiting for their cache lines.
//!
//! Four strong bots in `simulate` run 31.4 million instructions per hand (cachegrind,
//! 20-hand run minus 10-hand run, seed 1), against 34.7 million before the packed keys,
//! the curves run only as far as the seat's turns and the cheaper fan evaluation of
//! waiting hands, 36.2 million before the waits of a waiting hand were scored together
//! ([`crate::fan::Waiting`]), 47.6 million before the remembered shapes and ready
//! curves and 240 million before the memos; the discards of new full hands take about
//! 10.7 million of them.

use super::discards::{DiscardMemo, Parent};
use super::memo::{self, FactsKey, HandKey, Key};
use super::waits::{self, WaitMemo, WaitValue, WinContext};
use crate::hand::MeldKind;
use crate::rules::Rules;
use crate::shanten;
use crate::tile::Counts;

const NO_USED: Counts = [0; 34];

/// The scale of the per-turn chances: a kind with `u` of the `U` unseen copies reaches
/// the seat in one turn with chance `REACH·u/U`. Its own draw alone would be 1 and the
/// claimable discards of the others add to that; measured against three efficiency bots a
/// smaller scale plays better (it keeps the value of more waits from saturating, and
/// others' hands hold many of the unseen copies).
pub const REACH: f32 = 0.8;
/// The share of a ready hand's wins taken by self-draw in the expected-points value
/// ([`Worth::Points`]): a quarter, as measured for the strong bot in gb (6.1% of its
/// hands are self-drawn wins, 24.3% wins).
pub const SELF_DRAW_SHARE: f32 = 0.25;
/// Base points of a win: the winner collects base plus fan from each payer (the
/// discarder alone pays the fan on a discard win).
pub const BASE_POINTS: f32 = 8.0;
/// With [`Worth::Points`] (the expert), the scale of the chance that a kind which makes
/// a hand one or two tiles from ready better reaches the seat in a turn, in place of
/// [`REACH`]: mostly its own draws (a claim serves only some shapes, and opens the hand).
/// Measured against three efficiency bots (20,000 walls, paired per wall), 0.5 for draws
/// and 1.0 for wins play better than 0.8 for both by +0.25 ± 0.11 points a hand (seed 1)
/// and +0.11 ± 0.11 (seed 2027); draws at 0.3 (-0.15 ± 0.11) or 1.0 (with wins at 2.0,
/// -0.18 ± 0.14) play worse than at 0.5.
pub const DRAW_REACH: f32 = 0.5;
/// With [`Worth::Points`], the same scale for the kinds that win a ready hand: its own
/// draw and every opponent's discard. Against three efficiency bots (seed 1), wins at 1.0
/// and 1.2 play better than at 0.8 by +0.06 ± 0.05 and +0.08 ± 0.06 (draws at 0.8), and
/// at 1.5 and 2.0 better than at 1.0 by +0.03 ± 0.06 and +0.04 ± 0.08 (draws at 0.5).
pub const WIN_REACH: f32 = 1.5;
/// With [`Worth::Points`], a copy of a kind some opponent has discarded counts this many
/// halves of a copy in a ready hand's scoring waits: the opponents let go of that kind,
/// so its other copies come out more readily than the others. Against three efficiency
/// bots (20,000 walls, paired per wall) 3 halves play better than 2 by +0.16 ± 0.10
/// (seed 1) and +0.11 ± 0.10 (seed 2027); 4 halves worse by 0.20 ± 0.16.
pub const DISCARDED_WAIT_HALVES: u8 = 3;
/// Most turns the race model looks ahead.
pub const MAX_TURNS: usize = 24;
const CURVES: usize = 256;

/// What the lookahead's figures measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Worth {
    /// The chance of winning (0 to 1).
    Chance,
    /// The expected points of winning: the chance of each ready hand times the mean
    /// points of its scoring waits ([`win_points`]), plus `block` points per win (the
    /// others' wins a win prevents).
    Points {
        /// Share of wins taken by self-draw.
        self_draw_share: f32,
        /// Points added to every win.
        block: f32,
    },
}

/// The mean points of a win of a ready hand with the scoring waits `wv`, in the
/// `base + fan` settlement: a win on a discard collects `fan + base` from the discarder
/// and `base` from each other seat (`fan + 3·base`), a self-draw `fan + base` from each
/// seat (`3·(fan + base)`), its fan one higher than on a discard (Self-Drawn; two for a
/// concealed hand, Concealed Hand turning into Fully Concealed Hand). A wait that scores
/// on a discard wins by self-draw with share `self_draw_share`; a self-draw-only wait
/// always does, and counts at a third of its copies as in [`WaitValue::effective`].
/// 0 when nothing scores.
pub fn win_points(wv: &WaitValue, ctx: &WinContext, self_draw_share: f32) -> f32 {
    let eff = wv.effective();
    if eff <= 0.0 {
        return 0.0;
    }
    let concealed = ctx.melds[..ctx.n_melds.min(4) as usize]
        .iter()
        .all(|m| m.kind == MeldKind::ConcealedKong);
    let extra = if concealed { 2.0 } else { 1.0 };
    let s = self_draw_share;
    let b = BASE_POINTS;
    // Per copy of an on-discard wait of fan f: s·3(f + extra + b) + (1 − s)(f + 3b).
    let on_discard = (1.0 + 2.0 * s) * wv.fan_on_discard as f32
        + (3.0 * b + 3.0 * s * extra) * wv.on_discard as f32;
    // A third of each self-draw-only copy, worth 3(f + b).
    let self_only = wv.fan_self_draw_only as f32 + b * wv.self_draw_only as f32;
    (on_discard + self_only) / eff
}

/// A ready hand's scoring copies in halves for [`Worth::Points`]: two halves a copy,
/// [`DISCARDED_WAIT_HALVES`] for a kind in `discarded`.
fn wait_halves(unseen: &Counts, discarded: u64) -> Counts {
    std::array::from_fn(|k| {
        let halves = if discarded >> k & 1 == 1 {
            DISCARDED_WAIT_HALVES
        } else {
            2
        };
        unseen[k] * halves
    })
}

/// The one-draw lookahead of a decision (with the caches described in the [module
/// documentation](self)).
#[derive(Clone)]
pub struct Lookahead {
    memo: WaitMemo,
    discards: DiscardMemo,
    shapes: ShapeMemo,
    curve_keys: [HandKey; CURVES],
    curves: [Curve; CURVES],
    curve_used: [bool; CURVES],
    /// The ready curves of this decision by scoring copies ([`Lookahead::ready_curve`]).
    ready_curves: ReadyCurves,
    /// The figures of ready hands met in this decision ([`Lookahead::waits`]).
    ready_hands: ReadyHands,
    /// The best ready hand after a draw, by the full hand, in this decision (its rank,
    /// scoring copies and worth; [`Lookahead::curve`]).
    after_draws: ReadyHands<(f32, f32, f32)>,
    /// The best curve after each draw of [`Lookahead::value2`] (kept here so that a call
    /// does not clear a new array).
    two_away: Box<[Curve; 34]>,
    /// Unseen copies of every kind from the deciding seat's view.
    pub unseen: Counts,
    /// With [`Worth::Points`], the unseen copies counted in ready hands' scoring waits, in
    /// halves ([`DISCARDED_WAIT_HALVES`]).
    wait_halves: Counts,
    /// Kinds some opponent has discarded (kept by [`Lookahead::reset`], which weights
    /// their copies in scoring waits with [`Worth::Points`]).
    pub discarded: u64,
    total_unseen: f32,
    /// The seat's turns left (its draws before the wall runs out).
    pub turns: usize,
    /// The scale of the chance per turn that a kind making the hand better reaches the
    /// seat ([`REACH`], [`DRAW_REACH`]; set by [`Lookahead::reset`] from the worth).
    pub reach: f32,
    /// The same for a ready hand's winning kinds ([`REACH`], [`WIN_REACH`]).
    pub win_reach: f32,
    /// What the figures measure (kept by [`Lookahead::reset`]).
    pub worth: Worth,
    /// The chance that the hand is still on at each of the seat's turns (no opponent has
    /// won since the last one): 1 counts every turn up to the end of the wall; below 1 a
    /// slow hand is worth less than a fast one (kept by [`Lookahead::reset`]).
    pub survive: f32,
}

impl Lookahead {
    /// A lookahead from the seat's unseen copies and the tiles left in the wall.
    pub fn new(unseen: &Counts, wall_remaining: usize) -> Lookahead {
        let total: u32 = unseen.iter().map(|&c| c as u32).sum();
        Lookahead {
            memo: WaitMemo::new(),
            discards: DiscardMemo::new(),
            shapes: ShapeMemo::new(),
            curve_keys: [HandKey::EMPTY; CURVES],
            curves: [[0.0; MAX_TURNS + 1]; CURVES],
            curve_used: [false; CURVES],
            ready_curves: ReadyCurves::new(),
            ready_hands: ReadyHands::new(),
            after_draws: ReadyHands::new(),
            two_away: Box::new([[0.0; MAX_TURNS + 1]; 34]),
            unseen: *unseen,
            wait_halves: wait_halves(unseen, 0),
            discarded: 0,
            total_unseen: total.max(1) as f32,
            turns: wall_remaining.div_ceil(4).min(MAX_TURNS),
            reach: REACH,
            win_reach: REACH,
            worth: Worth::Chance,
            survive: 1.0,
        }
    }

    /// The lookahead of a new decision (the same as [`Lookahead::new`], keeping the
    /// remembered scoring waits and the allocations).
    pub fn reset(&mut self, unseen: &Counts, wall_remaining: usize) {
        let total: u32 = unseen.iter().map(|&c| c as u32).sum();
        self.curve_used = [false; CURVES];
        self.ready_hands.forget();
        self.after_draws.forget();
        self.unseen = *unseen;
        self.total_unseen = total.max(1) as f32;
        self.turns = wall_remaining.div_ceil(4).min(MAX_TURNS);
        match self.worth {
            Worth::Chance => {
                self.reach = REACH;
                self.win_reach = REACH;
            }
            Worth::Points { .. } => {
                self.reach = DRAW_REACH;
                self.win_reach = WIN_REACH;
                self.wait_halves = wait_halves(unseen, self.discarded);
            }
        }
    }

    /// The memo of scoring waits.
    pub fn memo(&mut self) -> &mut WaitMemo {
        &mut self.memo
    }

    /// `shanten::shanten(h, &[0; 34], n_melds, 0)` and
    /// `shanten::useful_tiles(h, &[0; 34], n_melds, 0)` of a waiting hand, remembered for
    /// the hand of play.
    pub fn shape(&mut self, h: &Counts, n_melds: u8) -> (i8, u64) {
        let mut measure = || shanten::useful::useful_tiles_and_distance(h, n_melds);
        self.shape_with(h, n_melds, &mut measure)
    }

    /// [`Lookahead::shape`], a new hand's useful tiles and least distance over the forms
    /// measured by `measure` (which must equal
    /// `shanten::useful::useful_tiles_and_distance` of the hand).
    pub fn shape_with(
        &mut self,
        h: &Counts,
        n_melds: u8,
        measure: &mut dyn FnMut() -> (u64, u8),
    ) -> (i8, u64) {
        debug_assert_eq!(
            measure(),
            shanten::useful::useful_tiles_and_distance(h, n_melds)
        );
        let slot = self.shapes.slot(h, HandKey::of(h, n_melds));
        slot.both(h, measure)
    }

    /// Forgets the remembered hands (their answers stay exact without this; a policy
    /// calls it when a new hand starts, so that the memos hold the hands of this one).
    pub fn forget(&mut self) {
        self.memo.clear();
        self.discards.clear();
        self.shapes.clear();
        self.ready_hands.forget();
        self.after_draws.forget();
    }

    /// Scoring-wait copies of the ready hand `h` (memo key `key`, [`waits::wait_key`])
    /// (self-draw-only waits at a third) and what a win is worth: 1 when the figures are chances, else its mean
    /// points.
    fn waits(
        &mut self,
        h: &Counts,
        key: FactsKey,
        ctx: &WinContext,
        rules: &Rules,
        groups: &mut dyn FnMut() -> (u64, u64),
    ) -> (f32, f32) {
        // The figures depend on the hand, the seat (its melds and winds in the key, its
        // flowers beside it), the decision's copies and what they measure: the same within
        // a decision while the worth stays ([`Lookahead::keep_worth`]).
        let i = self.ready_hands.slot(key);
        if let Some(v) = self.ready_hands.get(i, key, ctx.flowers) {
            return v;
        }
        let v = self.waits_measured(h, key, ctx, rules, groups);
        self.ready_hands.put(i, key, ctx.flowers, v);
        v
    }

    /// Forgets the figures of the ready hands and full hands when the worth or the
    /// survival changed since they were measured (the public entry points call it first:
    /// both are public fields).
    fn keep_worth(&mut self) {
        self.ready_hands.keep(self.worth, self.survive);
        self.after_draws.keep(self.worth, self.survive);
    }

    /// [`Lookahead::waits`], measured.
    fn waits_measured(
        &mut self,
        h: &Counts,
        key: FactsKey,
        ctx: &WinContext,
        rules: &Rules,
        groups: &mut dyn FnMut() -> (u64, u64),
    ) -> (f32, f32) {
        // Expected points count the copies in halves ([`DISCARDED_WAIT_HALVES`]).
        let (copies, per_copy) = match self.worth {
            Worth::Chance => (&self.unseen, 1.0),
            Worth::Points { .. } => (&self.wait_halves, 2.0),
        };
        let wv = self
            .memo
            .ready_scoring_waits_above_with(key, h, ctx, rules, copies, -1.0, groups)
            .unwrap_or_default();
        let w = wv.effective() / per_copy;
        match self.worth {
            Worth::Chance => (w, 1.0),
            Worth::Points {
                self_draw_share,
                block,
            } => (w, win_points(&wv, ctx, self_draw_share) + block),
        }
    }

    /// [`Lookahead::waits`] of a ready hand that may rank above `best`
    /// ([`Lookahead::ready_key`]); `None` for one that cannot. When the figures are
    /// chances the rank is the scoring copies, at most the unseen copies of all the waits,
    /// so the waits of a hand with no more copies than `best` are not scored.
    #[allow(clippy::too_many_arguments)]
    fn waits_above(
        &mut self,
        h: &Counts,
        key: FactsKey,
        ctx: &WinContext,
        rules: &Rules,
        best: f32,
        groups: &mut dyn FnMut() -> (u64, u64),
    ) -> Option<(f32, f32)> {
        match self.worth {
            Worth::Chance => {
                let unseen = &self.unseen;
                let wv = self
                    .memo
                    .ready_scoring_waits_above_with(key, h, ctx, rules, unseen, best, groups)?;
                Some((wv.effective(), 1.0))
            }
            Worth::Points { .. } => Some(self.waits(h, key, ctx, rules, groups)),
        }
    }

    /// Ranks the ready hands reached after a draw: by scoring copies for chances, by
    /// the expected points within the turns left after the draw otherwise.
    fn ready_key(&mut self, w: f32, m: f32) -> f32 {
        match self.worth {
            Worth::Chance => w,
            // The remembered curve holds `ready_value` bit for bit.
            Worth::Points { .. } => {
                let i = self.ready_curve_slot(w);
                m * self.ready_curves.curves[i][self.turns.max(2) - 1]
            }
        }
    }

    /// Chance per turn that a ready hand with `w` scoring copies wins.
    fn hazard(&self, w: f32) -> f32 {
        (self.win_reach * w / self.total_unseen).min(0.9)
    }

    /// Chance that a ready hand with `w` scoring copies wins within `n` turns: with
    /// hazard `h` and survival `γ` ([`Lookahead::survive`]) it is
    /// `Σ_{k=1..n} γ^k (1 − h)^(k−1) h`, which is `1 − (1 − h)^n` for `γ = 1`.
    pub fn ready_value(&self, w: f32, n: usize) -> f32 {
        let h = self.hazard(w);
        if self.survive >= 1.0 {
            return 1.0 - (1.0 - h).powi(n as i32);
        }
        let g = self.survive;
        let r = g * (1.0 - h);
        g * h * (1.0 - r.powi(n as i32)) / (1.0 - r)
    }

    /// [`Lookahead::ready_value`] for every number of turns `0..=MAX_TURNS`, bit for bit
    /// ([`Lookahead::make_ready_curve`]), remembered for the decision: the scoring copies
    /// of the ready hands take few distinct values.
    fn ready_curve(&mut self, w: f32) -> Curve {
        let i = self.ready_curve_slot(w);
        self.ready_curves.curves[i]
    }

    /// The slot of [`Lookahead::ready_curve`]'s remembered curve for `w` (filled when new),
    /// so that a caller reads it in place.
    fn ready_curve_slot(&mut self, w: f32) -> usize {
        let params = [
            self.win_reach.to_bits(),
            self.total_unseen.to_bits(),
            self.survive.to_bits(),
        ];
        if self.ready_curves.params != params {
            self.ready_curves.clear(params);
        }
        let i = self.ready_curves.slot(w);
        if self.ready_curves.keys[i] != w.to_bits() {
            self.ready_curves.keys[i] = w.to_bits();
            self.ready_curves.curves[i] = self.make_ready_curve(w);
        }
        i
    }

    /// [`Lookahead::ready_value`] for every number of turns `0..=MAX_TURNS`, bit for bit:
    /// `powi` multiplies, from the lowest bit of the exponent up, the squares
    /// `a, a², a⁴, …` of the exponent's set bits, so the squares are made once here and
    /// each power is the same product in the same order.
    fn make_ready_curve(&self, w: f32) -> Curve {
        if self.survive < 1.0 {
            // The same sum, its powers of γ(1 − h) multiplied up one turn at a time.
            let h = self.hazard(w);
            let g = self.survive;
            let r = g * (1.0 - h);
            let mut out = [0f32; MAX_TURNS + 1];
            let mut power = 1f32;
            for v in out.iter_mut().skip(1) {
                power *= r;
                *v = g * h * (1.0 - power) / (1.0 - r);
            }
            return out;
        }
        let a = 1.0 - self.hazard(w);
        let mut squares = [0f32; SQUARES];
        let mut x = a;
        for s in squares.iter_mut() {
            *s = x;
            x *= x;
        }
        let mut out = [0f32; MAX_TURNS + 1];
        for (n, v) in out.iter_mut().enumerate() {
            let mut power = 1f32;
            let mut bits = n;
            while bits != 0 {
                power *= squares[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            *v = 1.0 - power;
        }
        out
    }

    /// The chance of winning of the waiting hand `h` (`13 − 3k` tiles beside `n_melds`
    /// melds): from its scoring waits when it is ready with one, else one draw ahead when
    /// some draw makes it ready with one. `None` when the hand is two or more tiles from
    /// ready (see [`Lookahead::value2`]).
    pub fn value(
        &mut self,
        h: &Counts,
        n_melds: u8,
        ctx: &WinContext,
        rules: &Rules,
    ) -> Option<f32> {
        self.keep_worth();
        let key = HandKey::of(h, n_melds);
        let s = self.shapes.shanten(h, key);
        if s > 1 {
            return None;
        }
        let mut useful = || shanten::useful_tiles(h, &NO_USED, n_melds, 0);
        let c = self.curve(h, key, s, ctx, rules, &mut useful);
        Some(c[self.turns])
    }

    /// The chance of winning within `t` turns, for `t` = 0..=[`Lookahead::turns`], of a
    /// hand at shanten `s` ≤ 1 (its key `key`) (cached for the decision; the entries for
    /// more turns may be left at 0, or filled in). `useful` gives its useful tiles
    /// (`shanten::useful_tiles`) when they are not remembered.
    fn curve(
        &mut self,
        h: &Counts,
        key: HandKey,
        s: i8,
        ctx: &WinContext,
        rules: &Rules,
        useful: &mut dyn FnMut() -> u64,
    ) -> Curve {
        let mut out = [0f32; MAX_TURNS + 1];
        let facts = waits::wait_facts(ctx, rules);
        if s == 0 {
            let n_melds = key.n_melds();
            let mut groups = || shanten::useful::useful_tiles_and_regular(h, n_melds);
            let (w, m) = self.waits(h, FactsKey { hand: key, facts }, ctx, rules, &mut groups);
            if w > 0.0 {
                return self.ready_curve(w).map(|v| v * m);
            }
        }
        let mut i = (key.hash() as usize) % CURVES;
        for _ in 0..CURVES {
            if !self.curve_used[i] {
                break;
            }
            if self.curve_keys[i] == key {
                return self.curves[i];
            }
            i = (i + 1) % CURVES;
        }
        // One draw ahead: the kinds that make it ready (all kinds for a ready hand without
        // a scoring wait, which may rebuild around the draw).
        let draws = if s == 0 {
            (1u64 << 34) - 1
        } else {
            self.shapes.useful_with(h, key, useful)
        };
        let mut q = [0f32; 34];
        let mut w = [0f32; 34];
        let mut m = [0f32; 34];
        let mut n = 0usize;
        let mut hp = *h;
        // The waiting hand's group entries, shared by the new full hands of its draws.
        let mut parent = Parent::new(h);
        let mut bits = draws;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.unseen[x] == 0 || hp[x] >= 4 {
                continue;
            }
            hp[x] += 1;
            let kx = key.plus(x);
            // The best ready hand after the draw depends on the full hand only (for a hand
            // one tile from ready, discarding `x` again is never ready): the same for every
            // hand that reaches it in this decision.
            let full = FactsKey { hand: kx, facts };
            let slot = self.after_draws.slot(full);
            let remembered = if s == 1 {
                self.after_draws.get(slot, full, ctx.flowers)
            } else {
                None
            };
            let (best, best_w, best_m) = match remembered {
                Some(v) => v,
                None => {
                    let v = self.best_after_draw(&mut hp, &mut parent, kx, x, facts, ctx, rules);
                    if s == 1 {
                        self.after_draws.put(slot, full, ctx.flowers, v);
                    }
                    v
                }
            };
            hp[x] -= 1;
            if best > 0.0 {
                q[n] = self.reach * self.unseen[x] as f32 / self.total_unseen;
                w[n] = best_w;
                m[n] = best_m;
                n += 1;
            }
        }
        if n > 0 {
            let stay = normalise(&mut q[..n]);
            // Each turn's sum runs over the draws in order, as one sum per turn would (the
            // turns side by side). The turns beyond the seat's are never read.
            let turns = self.turns;
            let mut reach = [0f32; MAX_TURNS + 1];
            for i in 0..n {
                let ready = &self.ready_curves.curves[self.ready_curve_slot(w[i])];
                let (qi, mi) = (q[i], m[i]);
                for (r, &v) in reach[1..=turns].iter_mut().zip(&ready[..turns]) {
                    *r += qi * (v * mi);
                }
            }
            // (The survival test taken out of the loop: each value is the same.)
            if self.survive < 1.0 {
                let g = self.survive;
                for t in 1..=turns {
                    out[t] = (reach[t] + stay * out[t - 1]) * g;
                }
            } else {
                for t in 1..=turns {
                    out[t] = reach[t] + stay * out[t - 1];
                }
            }
        }
        if !self.curve_used[i] {
            self.curve_used[i] = true;
            self.curve_keys[i] = key;
            self.curves[i] = out;
        }
        out
    }

    /// The best ready hand after drawing `x` into the full hand `hp` (key `kx`; the
    /// waiting hand of `parent` with one `x` more) and discarding another kind: its rank
    /// ([`Lookahead::ready_key`]), scoring copies and worth; zeros when none ranks above
    /// 0. Discarding `x` again gives back the hand before the draw, which is not ready or
    /// has no scoring wait (it ranks at 0, never above the best).
    #[allow(clippy::too_many_arguments)]
    fn best_after_draw(
        &mut self,
        hp: &mut Counts,
        parent: &mut Parent<'_>,
        kx: HandKey,
        x: usize,
        facts: u64,
        ctx: &WinContext,
        rules: &Rules,
    ) -> (f32, f32, f32) {
        let (mut best, mut best_w, mut best_m) = (0f32, 0f32, 0f32);
        let mut ready = self.discards.ready_after(parent, hp, kx, x) & !(1 << x);
        while ready != 0 {
            let y = ready.trailing_zeros() as usize;
            ready &= ready - 1;
            hp[y] -= 1;
            let ky = FactsKey {
                hand: kx.minus(y),
                facts,
            };
            // The ready hand's group entries and rests from the waiting hand's.
            let n_melds = kx.n_melds();
            let ready_hand: &Counts = hp;
            let mut groups = || {
                let (r, e, rests) = parent.groups_after(x, y);
                shanten::useful::useful_tiles_and_regular_with(ready_hand, n_melds, &r, &e, &rests)
            };
            if let Some((wy, my)) = self.waits_above(ready_hand, ky, ctx, rules, best, &mut groups)
            {
                let key = self.ready_key(wy, my);
                if key > best {
                    (best, best_w, best_m) = (key, wy, my);
                }
            }
            hp[y] += 1;
        }
        (best, best_w, best_m)
    }

    /// The chance of winning of a waiting hand two tiles from ready: one draw ahead to the
    /// best hand one tile from ready ([`Lookahead::value`]'s figures). `None` unless the
    /// hand is exactly two tiles from ready.
    pub fn value2(
        &mut self,
        h: &Counts,
        n_melds: u8,
        ctx: &WinContext,
        rules: &Rules,
    ) -> Option<f32> {
        self.keep_worth();
        let key = HandKey::of(h, n_melds);
        let slot = self.shapes.slot(h, key);
        if slot.shanten(h) != 2 {
            return None;
        }
        let draws = slot.useful(h);
        let mut q = [0f32; 34];
        let mut n = 0usize;
        let mut hp = *h;
        // The waiting hand's group entries, shared by the hands one tile from ready that
        // its draws and discards reach.
        let mut parent = Parent::new(h);
        let mut bits = draws;
        while bits != 0 {
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if self.unseen[x] == 0 || hp[x] >= 4 {
                continue;
            }
            hp[x] += 1;
            let kx = key.plus(x);
            let mut b = [0f32; MAX_TURNS + 1];
            let (ready, one) = self.discards.near_after(&mut parent, &hp, kx, x);
            let mut near = (ready | one) & !(1 << x);
            while near != 0 {
                let y = near.trailing_zeros() as usize;
                near &= near - 1;
                let s = if ready >> y & 1 == 1 { 0 } else { 1 };
                hp[y] -= 1;
                let one_away: &Counts = &hp;
                let mut useful = || {
                    let (r, e, rests) = parent.groups_after(x, y);
                    shanten::useful::useful_tiles_with(one_away, key.n_melds(), &r, &e, &rests)
                };
                let c = self.curve(one_away, kx.minus(y), s, ctx, rules, &mut useful);
                if c[self.turns] > b[self.turns] {
                    b = c;
                }
                hp[y] += 1;
            }
            hp[x] -= 1;
            if b[self.turns] > 0.0 {
                q[n] = self.reach * self.unseen[x] as f32 / self.total_unseen;
                self.two_away[n] = b;
                n += 1;
            }
        }
        if n == 0 {
            return Some(0.0);
        }
        let stay = normalise(&mut q[..n]);
        let mut v = 0f32;
        for t in 1..=self.turns {
            let mut reach = 0f32;
            for (qi, best) in q[..n].iter().zip(&self.two_away[..n]) {
                reach += qi * best[t - 1];
            }
            v = reach + stay * v;
            if self.survive < 1.0 {
                v *= self.survive;
            }
        }
        Some(v)
    }
}

type Curve = [f32; MAX_TURNS + 1];

/// Squares `a^(2^k)` enough for every exponent up to [`MAX_TURNS`].
const SQUARES: usize = (usize::BITS - MAX_TURNS.leading_zeros()) as usize;

/// Slots of a [`ShapeMemo`].
const SHAPE_SLOTS: usize = 1024;

/// One remembered waiting hand: half a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct ShapeSlot {
    /// The hand and its number of melds.
    key: HandKey,
    /// Its useful tiles, when `has_useful`.
    useful: u64,
    /// Its shanten, [`ShapeSlot::UNKNOWN`] until asked.
    shanten: i8,
    /// True once `useful` is measured.
    has_useful: bool,
}

impl ShapeSlot {
    /// `shanten::shanten(h, &[0; 34], n_melds, 0)` of the slot's hand `h`, measured when
    /// first asked.
    fn shanten(&mut self, h: &Counts) -> i8 {
        if self.shanten == Self::UNKNOWN {
            self.shanten = shanten::shanten(h, &NO_USED, self.key.n_melds(), 0);
        }
        self.shanten
    }

    /// [`ShapeSlot::useful`], measured by `measure` (which must give the same mask) when
    /// first asked.
    fn useful_with(&mut self, measure: &mut dyn FnMut() -> u64) -> u64 {
        if !self.has_useful {
            self.useful = measure();
            self.has_useful = true;
        }
        self.useful
    }

    /// `shanten::useful_tiles(h, &[0; 34], n_melds, 0)` of the slot's hand `h`, measured
    /// when first asked.
    fn useful(&mut self, h: &Counts) -> u64 {
        if !self.has_useful {
            self.useful = shanten::useful_tiles(h, &NO_USED, self.key.n_melds(), 0);
            self.has_useful = true;
        }
        self.useful
    }

    /// [`ShapeSlot::shanten`] and [`ShapeSlot::useful`] together: both from one reading
    /// of the group entries when neither is known yet.
    fn both(&mut self, h: &Counts, measure: &mut dyn FnMut() -> (u64, u8)) -> (i8, u64) {
        if self.shanten == Self::UNKNOWN && !self.has_useful {
            let (useful, distance) = measure();
            self.shanten = (distance as i16 - 1).clamp(-1, 100) as i8;
            self.useful = useful;
            self.has_useful = true;
        }
        (self.shanten(h), self.useful(h))
    }

    const UNKNOWN: i8 = i8::MIN;
    const EMPTY: ShapeSlot = ShapeSlot {
        key: HandKey::EMPTY,
        useful: 0,
        shanten: Self::UNKNOWN,
        has_useful: false,
    };
}

const _: () = assert!(std::mem::size_of::<ShapeSlot>() == 32);

impl memo::Slot for ShapeSlot {
    type Key = HandKey;
    const EMPTY: ShapeSlot = ShapeSlot::EMPTY;
    fn key(&self) -> HandKey {
        self.key
    }
    fn fresh(key: HandKey) -> ShapeSlot {
        ShapeSlot {
            key,
            ..ShapeSlot::EMPTY
        }
    }
}

/// The shanten and the useful tiles of waiting hands, each measured when first asked: the
/// lookahead meets the same waiting hands from one candidate and one decision to the
/// next. Allocated once; starts over when nearly full.
#[derive(Clone, Default)]
struct ShapeMemo {
    table: memo::Table<ShapeSlot, SHAPE_SLOTS>,
}

impl ShapeMemo {
    fn new() -> ShapeMemo {
        ShapeMemo::default()
    }

    fn clear(&mut self) {
        self.table.clear();
    }

    /// The slot of the hand `h` with the key `key` (new ones know nothing yet).
    fn slot(&mut self, h: &Counts, key: HandKey) -> &mut ShapeSlot {
        debug_assert_eq!(key, HandKey::of(h, key.n_melds()));
        self.table.find(key).0
    }

    /// `shanten::shanten(h, &[0; 34], n_melds, 0)` of the hand `h` beside `n_melds` melds
    /// (its key `key`), remembered.
    fn shanten(&mut self, h: &Counts, key: HandKey) -> i8 {
        self.slot(h, key).shanten(h)
    }

    /// `shanten::useful_tiles(h, &[0; 34], n_melds, 0)` of the hand `h` beside `n_melds`
    /// melds (its key `key`), remembered.
    #[cfg(test)]
    fn useful(&mut self, h: &Counts, key: HandKey) -> u64 {
        self.slot(h, key).useful(h)
    }

    /// [`ShapeMemo::useful`], measured by `measure` (which must give the same mask) when
    /// not remembered.
    fn useful_with(&mut self, h: &Counts, key: HandKey, measure: &mut dyn FnMut() -> u64) -> u64 {
        debug_assert_eq!(
            measure(),
            shanten::useful_tiles(h, &NO_USED, key.n_melds(), 0)
        );
        self.slot(h, key).useful_with(measure)
    }
}

/// Slots of [`ReadyCurves`].
const READY_CURVES: usize = 64;

/// The ready curves of one decision by the bits of their scoring copies, one per slot (a
/// new value takes the slot of an old one); valid for the reach, unseen total and
/// survival they were made with.
#[derive(Clone)]
struct ReadyCurves {
    params: [u32; 3],
    keys: [u32; READY_CURVES],
    curves: [Curve; READY_CURVES],
}

impl ReadyCurves {
    /// Never a key: an `f32` whose bits are all ones is a NaN, never a count of copies.
    const EMPTY: u32 = u32::MAX;

    fn new() -> ReadyCurves {
        ReadyCurves {
            params: [Self::EMPTY; 3],
            keys: [Self::EMPTY; READY_CURVES],
            curves: [[0.0; MAX_TURNS + 1]; READY_CURVES],
        }
    }

    fn clear(&mut self, params: [u32; 3]) {
        self.params = params;
        self.keys = [Self::EMPTY; READY_CURVES];
    }

    fn slot(&self, w: f32) -> usize {
        (w.to_bits().wrapping_mul(0x9E37_79B9) >> 26) as usize % READY_CURVES
    }
}

/// Slots of [`ReadyHands`].
const READY_HANDS: usize = 2048;

/// The figures ([`Lookahead::waits`]) of the ready hands met in one decision, one hand a
/// slot (a new hand takes the slot of an old one); a generation per decision (and per
/// worth), so that starting a decision clears nothing.
#[derive(Clone)]
struct ReadyHands<V: Copy = (f32, f32)> {
    /// What the figures of this generation measure, and the survival they were made with.
    worth: Worth,
    survive: u32,
    generation: u32,
    keys: Box<[(FactsKey, u8, u32); READY_HANDS]>,
    values: Box<[V; READY_HANDS]>,
}

impl<V: Copy + Default> ReadyHands<V> {
    fn new() -> ReadyHands<V> {
        let empty = FactsKey {
            hand: HandKey::EMPTY,
            facts: 0,
        };
        ReadyHands {
            worth: Worth::Chance,
            survive: 1f32.to_bits(),
            generation: 1,
            keys: Box::new([(empty, 0, 0); READY_HANDS]),
            values: Box::new([V::default(); READY_HANDS]),
        }
    }

    /// Forgets every hand when the worth or the survival changed since they were put.
    fn keep(&mut self, worth: Worth, survive: f32) {
        if self.worth != worth || self.survive != survive.to_bits() {
            self.forget();
            (self.worth, self.survive) = (worth, survive.to_bits());
        }
    }

    /// Forgets every hand (a new decision).
    fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Generation 0 marks the slots never filled.
            self.keys.iter_mut().for_each(|k| k.2 = 0);
            self.generation = 1;
        }
    }

    fn slot(&self, key: FactsKey) -> usize {
        (key.hash() >> 20) as usize % READY_HANDS
    }

    /// The figures of `key` with `flowers` in slot `i`, if this decision put them there.
    fn get(&self, i: usize, key: FactsKey, flowers: u8) -> Option<V> {
        (self.keys[i] == (key, flowers, self.generation)).then(|| self.values[i])
    }

    fn put(&mut self, i: usize, key: FactsKey, flowers: u8, v: V) {
        self.keys[i] = (key, flowers, self.generation);
        self.values[i] = v;
    }
}

/// Caps the per-turn chances at 0.9 in all; returns the chance of no progress.
fn normalise(q: &mut [f32]) -> f32 {
    let sum: f32 = q.iter().sum();
    if sum > 0.9 {
        for v in q.iter_mut() {
            *v *= 0.9 / sum;
        }
    }
    1.0 - q.iter().sum::<f32>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_memo_gives_the_shanten_and_the_useful_tiles() {
        let mut rng = crate::wall::Rng::new(0x5A9E);
        let mut memo = ShapeMemo::new();
        for round in 0..4 * SHAPE_SLOTS {
            let n_melds = (round % 3) as u8;
            // A few hands again and again, and many new ones (the memo starts over).
            let mut again = crate::wall::Rng::new((round % 7) as u64);
            let r = if round % 2 == 0 { &mut again } else { &mut rng };
            let span = [9, 18, 34][round % 3];
            let mut h = [0u8; 34];
            let mut k = 0;
            while k < 13 - 3 * n_melds as usize {
                let t = r.below(span) as usize;
                if h[t] < 4 {
                    h[t] += 1;
                    k += 1;
                }
            }
            let (s, u) = if round % 8 == 1 {
                let mut measure = || shanten::useful::useful_tiles_and_distance(&h, n_melds);
                memo.slot(&h, HandKey::of(&h, n_melds))
                    .both(&h, &mut measure)
            } else if round % 4 < 2 {
                let k = HandKey::of(&h, n_melds);
                (memo.shanten(&h, k), memo.useful(&h, k))
            } else {
                let k = HandKey::of(&h, n_melds);
                let u = memo.useful(&h, k);
                (memo.shanten(&h, k), u)
            };
            assert_eq!(s, shanten::shanten(&h, &NO_USED, n_melds, 0));
            assert_eq!(u, shanten::useful_tiles(&h, &NO_USED, n_melds, 0));
        }
        assert!(memo.table.len() <= memo::Table::<ShapeSlot, SHAPE_SLOTS>::FULL);
    }

    #[test]
    fn the_ready_curve_is_ready_value_bit_for_bit() {
        let mut unseen = [4u8; 34];
        unseen[5] = 1;
        let mut look = Lookahead::new(&unseen, 70);
        for k in 0..2000 {
            let w = k as f32 * 0.037;
            let curve = look.ready_curve(w);
            for (n, v) in curve.iter().enumerate() {
                assert_eq!(
                    v.to_bits(),
                    look.ready_value(w, n).to_bits(),
                    "w {w}, n {n}"
                );
            }
        }
        assert_eq!(SQUARES, 5);
        // Remembered curves follow the survival and the unseen total they were made with.
        for (survive, u) in [(1.0, 3), (0.9, 3), (0.9, 2), (1.0, 2)] {
            unseen[7] = u;
            look.reset(&unseen, 70);
            look.survive = survive;
            for k in 0..300 {
                let w = k as f32 / 3.0;
                assert_eq!(look.ready_curve(w), look.make_ready_curve(w));
            }
        }
    }

    /// With an opponent able to win first (survival below 1), the curve the lookahead
    /// uses (its powers multiplied up turn by turn), the closed form and the sum it
    /// stands for agree: the chance of winning on turn `k` is `γ^k (1 − h)^(k−1) h`.
    #[test]
    fn the_survival_curve_is_the_sum_of_its_turns() {
        let unseen = [3u8; 34];
        let mut look = Lookahead::new(&unseen, 60);
        for survive in [0.99f32, 0.92, 0.8, 0.5] {
            look.survive = survive;
            for w in [0.5f32, 1.0, 3.0, 6.0, 11.0, 40.0] {
                let h = look.hazard(w) as f64;
                let g = survive as f64;
                let curve = look.make_ready_curve(w);
                let mut sum = 0f64;
                for (n, &v) in curve.iter().enumerate() {
                    if n > 0 {
                        sum += g.powi(n as i32) * (1.0 - h).powi(n as i32 - 1) * h;
                    }
                    let closed = look.ready_value(w, n) as f64;
                    assert!(
                        (v as f64 - sum).abs() < 2e-6,
                        "γ {g} w {w} n {n}: {v} vs {sum}"
                    );
                    assert!(
                        (closed - sum).abs() < 2e-6,
                        "γ {g} w {w} n {n}: {closed} vs {sum}"
                    );
                }
                // Slower than without an opponent, and never above the chance of surviving.
                let free = Lookahead::new(&unseen, 60).ready_value(w, MAX_TURNS);
                assert!(curve[MAX_TURNS] < free);
                assert!((curve[MAX_TURNS] as f64) < g);
            }
        }
    }
}
