//! [`HuainanStrongPolicy`]: a Huainan bot that values what its waits are worth.
//!
//! The wild-aware efficiency policy ([`super::huainan`]) discards by shanten alone, breaks
//! ties by how connected a tile is, claims only to lower the shanten and declares a kong
//! only when it costs nothing. This policy keeps its wild-aware shanten (every 宝 a joker,
//! all four Huainan shapes, docs/rules/huainan.md §8.1) and changes what the shanten leaves
//! open:
//!
//! - **Useful tiles.** Among the discards of equal shanten, the one leaving the most unseen
//!   copies of the kinds that lower the shanten wins (a 宝 draw counts while fewer than four
//!   are held: it fills any place).
//! - **The value of the waits.** Among ready discards, each is valued by a one-draw
//!   lookahead: for every kind still unseen, the hand plus that tile is scored as a
//!   self-drawn win with [`forms::score_if_winning`] (paid by all three others, so three
//!   times the value) and, when the hand then holds no 宝, as a win on a discard (paid by
//!   one, weighted by [`HuainanStrongConfig::discard_weight`]); the sum over the unseen
//!   copies ranks the discards. Because every 宝 completes anything and the forms read the
//!   finished hand, this one sum sees 宝吊头 (any tile wins), seven pairs and 十三浪
//!   against plain wins, natural (清) against wild readings, and the 飞宝 already made.
//! - **Claims by the same evaluation.** A pung or chow is taken when the hand after it
//!   (and its best discard) is closer to a win than passing, or as close with more useful
//!   tiles or better waits.
//! - **Kongs always.** Every kong offered is declared (concealed, added or on a discard):
//!   kong points are paid to the konger on every win, whoever wins (D-27), and hands
//!   rarely end without a winner.
//! - **Cheap discard wins passed.** A win on a discard (paid by one) is declined when the
//!   same hand's self-drawn wins (paid by three) promise more: the chance that one of the
//!   seat's next draws completes it, counting on a tenth of the draws left
//!   ([`HuainanStrongConfig::decline_discard_win`]), times their mean value. A robbed kong
//!   and 接宝 are always taken.
//!
//! Self-drawn wins follow the efficiency policy's 宝吊头 choices: in the 宝吊头 state a
//! concealed kong that keeps the state comes first (its replacement wins, 杠开) and one win
//! is passed for 偷机 while the wall is long; outside it a win worth less than 宝吊头 gives
//! way to a discard that enters the state.
//!
//! Measured in duplicate against three efficiency seats on 4,000 fresh walls (seed 2026):
//! +0.55 ± 0.06 points per hand, each of the five choices above significant on its own
//! (docs/huainan_bot.md has the table). Tried and left out because they did not help: a
//! two-draw lookahead for hands one step from ready, weighting useful tiles by the value
//! of the shape they serve, declining self-drawn wins for better waits, discarding a
//! spare 宝 for 飞宝.
//!
//! Under the non-default shape options (D-7, D-15) the shanten follows the options
//! ([`oracle::shanten_parts`]) and the useful tiles are those of the default shapes.
//! In the `gb` and `classic` rule sets the policy plays as [`StrongPolicy`] in its default
//! configuration. It draws no random numbers: a Huainan hand's play depends on the hand
//! alone.

use super::efficiency::unseen;
use super::huainan::{after_kong, connectivity};
use super::{AfterMeld, Policy, StrongConfig, StrongPolicy, TableView};
use crate::hand::Meld;
use crate::huainan::forms::{self, WinFacts};
use crate::huainan::oracle::{self, ShapeOptions};
use crate::huainan::{BaoState, DiscardWins, HuainanOptions};
use crate::round::Action;
use crate::rules::Rules;
use crate::shanten::{self, wild, Forms};
use crate::tile::{Counts, Tile, N_KINDS};

/// The choices of [`HuainanStrongPolicy`] (each can be switched off to measure it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HuainanStrongConfig {
    /// Rank discards of equal shanten by the unseen useful tiles they leave.
    pub useful: bool,
    /// Rank ready discards by the value of their waits (one-draw lookahead).
    pub wait_value: bool,
    /// What a win on a discard (paid by one) is worth beside a self-draw (paid by three),
    /// per unseen copy of the winning tile.
    pub discard_weight: f64,
    /// Take a pung or chow that keeps the shanten but leaves more useful tiles or better
    /// waits.
    pub claim_equal: bool,
    /// Pass once in the 宝吊头 state (偷机) while at least this many tiles stand in the wall.
    pub touji_wall: usize,
    /// Decline a self-drawn win worth less than this (the value one payer pays) when a
    /// discard enters the 宝吊头 state instead, with at least 8 tiles in the wall.
    pub bdt_decline_below: u64,
    /// Decline a win on a discard when the self-drawn wins of the same wait promise more:
    /// the share of the seat's remaining draws counted on (0: never decline).
    pub decline_discard_win: f64,
    /// A kong is declared when the hand after it is at most this many steps further from
    /// ready than after the best alternative (kong points are paid on every win, D-27;
    /// the default, `i8::MAX`, declares every kong).
    pub kong_slack: i8,
}

impl Default for HuainanStrongConfig {
    fn default() -> Self {
        HuainanStrongConfig {
            useful: true,
            wait_value: true,
            discard_weight: 1.0,
            claim_equal: true,
            touji_wall: 16,
            bdt_decline_below: 2,
            decline_discard_win: 0.1,
            kong_slack: i8::MAX,
        }
    }
}

/// The Huainan bot (see the [module documentation](self)).
#[derive(Clone)]
pub struct HuainanStrongPolicy {
    /// The Huainan rules, `None` in the other rule sets.
    opts: Option<HuainanOptions>,
    /// The policy of the other rule sets.
    other: Option<Box<StrongPolicy>>,
    cfg: HuainanStrongConfig,
}

/// How good a waiting hand (13 − 3k concealed tiles) is: the shanten first (lower is
/// better), then `value` (higher is better): the expected value of the waits when ready,
/// the unseen useful tiles otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Eval {
    /// Wild-aware shanten.
    shanten: i8,
    /// Wait value (ready) or unseen useful tiles (not ready).
    value: f64,
}

impl Eval {
    /// True if `self` is strictly better than `other`.
    fn beats(&self, other: &Eval) -> bool {
        self.shanten < other.shanten || (self.shanten == other.shanten && self.value > other.value)
    }
}

/// What the evaluation of one seat's hands shares.
struct Ctx<'a> {
    opts: &'a HuainanOptions,
    shapes: Option<&'a ShapeOptions>,
    bao: Tile,
    unseen: &'a Counts,
    /// The seat's draws still to come, about (a quarter of the wall, at least one).
    draws_left: f64,
    cfg: &'a HuainanStrongConfig,
}

impl Ctx<'_> {
    /// Evaluates a waiting hand `h` beside `melds`, the seat having discarded
    /// `bao_discarded` 宝 by then.
    fn eval(&self, h: &Counts, melds: &[Meld], bao_discarded: u8) -> Eval {
        let w = wild::Wild::new(h, Some(self.bao));
        let used = shanten::used_counts(melds);
        let k = melds.len() as u8;
        let s = match self.shapes {
            None => shanten::shanten_in(Forms::HUAINAN, &w.nat, &used, k, w.w),
            Some(o) => oracle::shanten_parts(&w.nat, w.w, h, &used, k, o),
        };
        if s == 0 && self.cfg.wait_value {
            return Eval {
                shanten: 0,
                value: self.wait_value(h, melds, bao_discarded),
            };
        }
        if !self.cfg.useful {
            return Eval {
                shanten: s,
                value: 0.0,
            };
        }
        let mask = shanten::useful_tiles_in(Forms::HUAINAN, &w.nat, &used, k, w.w);
        let b = self.bao as usize;
        let mut useful: u32 = (0..N_KINDS)
            .filter(|&x| mask >> x & 1 == 1 && x != b)
            .map(|x| self.unseen[x] as u32)
            .sum();
        if w.w < 4 {
            useful += self.unseen[b] as u32;
        }
        Eval {
            shanten: s,
            value: useful as f64,
        }
    }

    /// The one-draw lookahead of a ready hand: over every unseen kind, its copies times
    /// three times the self-drawn value, plus (holding no 宝) the weighted value of a win
    /// on the discard of it.
    fn wait_value(&self, h: &Counts, melds: &[Meld], bao_discarded: u8) -> f64 {
        let o = self.opts;
        let b = self.bao as usize;
        let discard_wins = o.discard_wins == DiscardWins::AllowedWithoutBao
            && !(o.discard_win_requires_no_bao && h[b] > 0)
            && self.cfg.discard_weight > 0.0;
        let drawn = WinFacts {
            self_drawn: true,
            bao_discarded,
            ..Default::default()
        };
        let on_discard = WinFacts {
            bao_discarded,
            ..Default::default()
        };
        let mut x = *h;
        let mut total = 0.0;
        for t in 0..N_KINDS {
            let u = self.unseen[t];
            if u == 0 || x[t] >= 4 {
                continue;
            }
            x[t] += 1;
            if let Some(s) =
                forms::score_if_winning(&x, melds, Some(t as Tile), self.bao, &drawn, o)
            {
                let mut v = 3.0 * s.value as f64;
                if discard_wins && t != b {
                    if let Some(d) = forms::score_if_winning(
                        &x,
                        melds,
                        Some(t as Tile),
                        self.bao,
                        &on_discard,
                        o,
                    ) {
                        v += self.cfg.discard_weight * d.value as f64;
                    }
                }
                total += u as f64 * v;
            }
            x[t] -= 1;
        }
        total
    }

    /// The best discard of a full hand among `allowed` kinds (bit mask), with its
    /// evaluation. A 宝 goes only when nothing else may. Ties go to the least connected
    /// tile, then the lowest code.
    fn best_discard(
        &self,
        hand: &Counts,
        melds: &[Meld],
        state: &BaoState,
        allowed: u64,
    ) -> Option<(Tile, Eval)> {
        let b = self.bao as usize;
        let can = |t: usize| allowed >> t & 1 == 1 && hand[t] > 0;
        let only_bao = (0..N_KINDS).all(|t| t == b || !can(t));
        let mut best: Option<(Eval, u32, Tile)> = None;
        let mut h = *hand;
        for t in 0..N_KINDS {
            if !can(t) || (t == b && !only_bao) {
                continue;
            }
            let conn = connectivity(hand, t);
            h[t] -= 1;
            let e = self.eval(&h, melds, state.bao_discarded + (t == b) as u8);
            h[t] += 1;
            let better = match best {
                None => true,
                Some((be, bc, _)) => e.beats(&be) || (!be.beats(&e) && conn < bc),
            };
            if better {
                best = Some((e, conn, t as Tile));
            }
        }
        best.map(|(e, _, t)| (t, e))
    }
}

impl HuainanStrongPolicy {
    /// A policy for `rules` with the default choices; `seed` seeds the [`StrongPolicy`]
    /// that plays the other rule sets (the Huainan play draws no random numbers).
    pub fn new(rules: &Rules, seed: u64) -> Self {
        Self::with_config(rules, seed, HuainanStrongConfig::default())
    }

    /// A policy for `rules` with the choices `cfg` (they matter in `huainan` only).
    pub fn with_config(rules: &Rules, seed: u64, cfg: HuainanStrongConfig) -> Self {
        let huainan = super::plays_wilds(rules);
        HuainanStrongPolicy {
            opts: huainan.then(|| rules.huainan.clone()),
            other: (!huainan)
                .then(|| Box::new(StrongPolicy::new(rules, seed, StrongConfig::default()))),
            cfg,
        }
    }

    /// The choices.
    pub fn config(&self) -> HuainanStrongConfig {
        self.cfg
    }

    fn act_huainan(
        &self,
        view: &dyn TableView,
        o: &HuainanOptions,
        bao: Tile,
        state: BaoState,
    ) -> Action {
        let legal = view.legal();
        let first = legal.first().copied().unwrap_or(Action::Pass);
        let claim = view
            .claim()
            .filter(|_| view.turn() != view.seat())
            .map(|c| c.1);
        let (m, n) = view.melds(view.seat());
        let melds = &m[..n];
        let seen = unseen(view, melds);
        let shapes = ShapeOptions::of(o);
        let ctx = Ctx {
            opts: o,
            shapes: (!shapes.is_default()).then_some(&shapes),
            bao,
            unseen: &seen,
            draws_left: (view.wall_remaining() as f64 / 4.0).max(1.0),
            cfg: &self.cfg,
        };
        let hand = view.hand();
        if legal.contains(&Action::Win) {
            return match claim {
                Some(t) if self.declines_discard_win(view, &ctx, hand, melds, &state, t) => {
                    Action::Pass
                }
                Some(_) => Action::Win,
                None => self.self_drawn(view, &ctx, hand, melds, &state),
            };
        }
        if let Some(t) = claim {
            return self.claim(&ctx, hand, melds, &state, t, legal);
        }
        let allowed = legal.iter().fold(0u64, |m, a| match a {
            Action::Discard(t) => m | 1 << t,
            _ => m,
        });
        let discard = ctx.best_discard(hand, melds, &state, allowed);
        let bar = discard.map_or(i8::MAX, |(_, e)| e.shanten);
        // A kong within the slack of the best discard: a replacement draw and kong points.
        let mut kong: Option<(i8, Action)> = None;
        for &a in legal {
            if let Some((h, km, kn)) = after_kong(hand, melds, a) {
                let e = ctx.eval(&h, &km[..kn], state.bao_discarded);
                if e.shanten <= bar.saturating_add(self.cfg.kong_slack)
                    && kong.map_or(true, |(s, _)| e.shanten < s)
                {
                    kong = Some((e.shanten, a));
                }
            }
        }
        if let Some((_, a)) = kong {
            return a;
        }
        discard.map_or(first, |(t, _)| Action::Discard(t))
    }

    /// A self-drawn win is offered. In the 宝吊头 state a concealed kong that keeps the
    /// state comes first (its replacement wins, 杠开), and one win is passed for 偷机 while
    /// the wall is long; outside it a win worth less than
    /// [`HuainanStrongConfig::bdt_decline_below`] gives way to a discard entering the state.
    fn self_drawn(
        &self,
        view: &dyn TableView,
        ctx: &Ctx,
        hand: &Counts,
        melds: &[Meld],
        state: &BaoState,
    ) -> Action {
        let legal = view.legal();
        let has = |a: Action| legal.contains(&a);
        let bao = ctx.bao;
        let wall = view.wall_remaining();
        let o = ctx.opts;
        if state.in_bdt && wall > 0 {
            for &a in legal
                .iter()
                .filter(|a| matches!(a, Action::ConcealedKong(_)))
            {
                if let Some((h, km, kn)) = after_kong(hand, melds, a) {
                    let limit = (!o.bao_wild_fifth_copy)
                        .then(|| wild::hand_limit(&wild::Wild::new(&h, Some(bao)).nat, &km[..kn]));
                    if wild::is_bdt(&h, bao, limit.as_ref()) {
                        return a;
                    }
                }
            }
        }
        let Some(drawn) = view.drawn() else {
            return Action::Win;
        };
        if state.in_bdt
            && state.passes == 0
            && drawn != bao
            && wall >= self.cfg.touji_wall
            && has(Action::Discard(drawn))
        {
            return Action::Discard(drawn);
        }
        if state.in_bdt || wall < 8 || hand[bao as usize] == 0 {
            return Action::Win;
        }
        let facts = WinFacts {
            self_drawn: true,
            passes: state.passes,
            bao_discarded: state.bao_discarded,
            ..Default::default()
        };
        let value = forms::score_if_winning(hand, melds, Some(drawn), bao, &facts, o)
            .map_or(u64::MAX, |s| s.value);
        if value >= self.cfg.bdt_decline_below {
            return Action::Win;
        }
        // The best discard that enters the 宝吊头 state.
        let mut h = *hand;
        let mut best: Option<(Eval, Tile)> = None;
        for t in 0..N_KINDS {
            if h[t] == 0 || t == bao as usize || !has(Action::Discard(t as Tile)) {
                continue;
            }
            h[t] -= 1;
            if wild::is_bdt(&h, bao, None) {
                let e = ctx.eval(&h, melds, state.bao_discarded);
                if best.map_or(true, |(b, _)| e.beats(&b)) {
                    best = Some((e, t as Tile));
                }
            }
            h[t] += 1;
        }
        best.map_or(Action::Win, |(_, t)| Action::Discard(t))
    }

    /// Whether to pass a win on the discard `t`: the seat's self-drawn wins on the same
    /// hand, over the share [`HuainanStrongConfig::decline_discard_win`] of its remaining
    /// draws, promise more than the discard pays.
    fn declines_discard_win(
        &self,
        view: &dyn TableView,
        ctx: &Ctx,
        hand: &Counts,
        melds: &[Meld],
        state: &BaoState,
        t: Tile,
    ) -> bool {
        let g = self.cfg.decline_discard_win;
        if g <= 0.0 || t == ctx.bao {
            return false;
        }
        // Only a discard window: the last discard is the tile under claim (a robbed kong
        // pays double and is always taken).
        let is_discard = view
            .discards()
            .last()
            .is_some_and(|d| d.tile == t && d.seat == view.turn());
        if !is_discard {
            return false;
        }
        let mut x = *hand;
        x[t as usize] += 1;
        let facts = WinFacts {
            bao_discarded: state.bao_discarded,
            ..Default::default()
        };
        let Some(now) = forms::score_if_winning(&x, melds, Some(t), ctx.bao, &facts, ctx.opts)
        else {
            return false;
        };
        let self_cfg = HuainanStrongConfig {
            discard_weight: 0.0,
            ..self.cfg
        };
        let c = Ctx {
            cfg: &self_cfg,
            ..*ctx
        };
        let w = c.wait_value(hand, melds, state.bao_discarded);
        let outs: f64 = (0..N_KINDS)
            .filter(|&k| {
                let mut y = *hand;
                y[k] += 1;
                ctx.unseen[k] > 0
                    && forms::score_if_winning(
                        &y,
                        melds,
                        Some(k as Tile),
                        ctx.bao,
                        &facts,
                        ctx.opts,
                    )
                    .is_some()
            })
            .map(|k| ctx.unseen[k] as f64)
            .sum();
        if outs <= 0.0 {
            return false;
        }
        let unseen_total: f64 = ctx.unseen.iter().map(|&u| u as f64).sum::<f64>().max(1.0);
        let p = outs / unseen_total;
        let p_self = 1.0 - (1.0 - p).powf(ctx.draws_left * g);
        // `w / outs` is the mean of three times the self-drawn value over the outs.
        p_self * w / outs > now.value as f64
    }

    /// A claim window without a win: a pung or chow when the hand after it and its best
    /// discard beats passing, a kong when it is at most
    /// [`HuainanStrongConfig::kong_slack`] steps behind the best of those.
    fn claim(
        &self,
        ctx: &Ctx,
        hand: &Counts,
        melds: &[Meld],
        state: &BaoState,
        t: Tile,
        legal: &[Action],
    ) -> Action {
        let now = ctx.eval(hand, melds, state.bao_discarded);
        let mut best: Option<(Eval, Action)> = None;
        for &a in legal {
            if !matches!(a, Action::Pung(_) | Action::Chow(_)) {
                continue;
            }
            let Some(am) = AfterMeld::of_claim(a, t, hand, melds) else {
                continue;
            };
            let Some((_, e)) = ctx.best_discard(&am.hand, am.melds(), state, u64::MAX) else {
                continue;
            };
            let gain = e.shanten < now.shanten
                || (self.cfg.claim_equal && e.shanten == now.shanten && e.value > now.value);
            if gain && best.map_or(true, |(b, _)| e.beats(&b)) {
                best = Some((e, a));
            }
        }
        let bar = best.map_or(now.shanten, |(e, _)| e.shanten);
        for &a in legal {
            if let Action::Kong(x) = a {
                if let Some(am) = AfterMeld::of_claim(a, x, hand, melds) {
                    let s = ctx.eval(&am.hand, am.melds(), state.bao_discarded).shanten;
                    if s <= bar.saturating_add(self.cfg.kong_slack) {
                        return a;
                    }
                }
            }
        }
        match best {
            Some((_, a)) => a,
            None if legal.contains(&Action::Pass) => Action::Pass,
            None => legal.first().copied().unwrap_or(Action::Pass),
        }
    }
}

impl Policy for HuainanStrongPolicy {
    fn name(&self) -> &'static str {
        "expert"
    }
    fn begin_hand(&mut self, seed: u64) {
        if let Some(p) = self.other.as_mut() {
            p.begin_hand(seed);
        }
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        let legal = view.legal();
        match legal.len() {
            0 => return Action::Pass,
            1 => return legal[0],
            _ => {}
        }
        if let Some(p) = self.other.as_mut() {
            return p.act(view);
        }
        match (&self.opts, view.bao()) {
            (Some(o), Some((bao, state))) => self.act_huainan(view, o, bao, state),
            _ => legal[0],
        }
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::MeldKind;
    use crate::policy::positions::counts;
    use crate::policy::{play_out, EfficiencyPolicy, PolicyKind};
    use crate::round::ruleset::huainan::BaoView;
    use crate::round::ruleset::SeatRuleView;
    use crate::round::{ActionList, DiscardEntry, Observation, Phase, Round};
    use crate::tile;

    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    fn huainan() -> Rules {
        Rules::named("huainan").unwrap()
    }

    /// Seat 0's view of a huainan hand holding `hand` (and `melds`), 宝 `bao`, nothing
    /// else on the table but `visible`, with `legal` as its choices; `claim` puts a discard
    /// of seat 3 under claim.
    fn view(
        hand: &str,
        melds: &[Meld],
        bao: &str,
        visible: &str,
        legal: &[Action],
        claim: Option<Tile>,
        wall: u8,
    ) -> Observation {
        let round = Round::new(&huainan(), 1, 0, 0).unwrap();
        let mut o = round.observe(0);
        o.hand = counts(hand);
        o.visible = if visible.is_empty() {
            [0; 34]
        } else {
            counts(visible)
        };
        o.n_melds = [0; 4];
        o.n_melds[0] = melds.len() as u8;
        o.melds[0][..melds.len()].copy_from_slice(melds);
        for m in melds {
            m.add_to(&mut o.visible);
        }
        o.n_discards = 0;
        if let Some(x) = claim {
            o.discards[0] = DiscardEntry {
                seat: 3,
                tile: x,
                claimed: false,
                ready: false,
            };
            o.n_discards = 1;
            o.visible[x as usize] += 1;
        }
        o.claim = claim.map(|x| (3, x));
        o.turn = if claim.is_some() { 3 } else { 0 };
        o.drawn = None;
        o.phase = if claim.is_some() {
            Phase::Claim
        } else {
            Phase::Turn
        };
        o.wall_remaining = wall;
        o.ruleset_view = SeatRuleView::Bao(BaoView {
            bao: t(bao),
            indicator: t(bao),
            state: BaoState::default(),
        });
        let mut l = ActionList::default();
        for &a in legal {
            l.push(a);
        }
        o.legal = l;
        o
    }

    fn discards(hand: &str) -> Vec<Action> {
        crate::policy::positions::discards(hand)
    }

    fn chow(s: &str) -> Meld {
        Meld {
            kind: MeldKind::Chow,
            tile: t(s),
        }
    }

    #[test]
    fn keeps_the_tile_with_more_useful_neighbours() {
        // 234466m 7s 7z beside two chows, 宝 9p: dropping 7s or 7z leaves the same shanten;
        // 7s keeps 5s-9s useful, 7z only its own two copies. The efficiency policy drops
        // the lower code (both tiles are unconnected), 7s.
        let hand = "234466m7s7z";
        let melds = [chow("1p"), chow("3s")];
        let o = view(hand, &melds, "9p", "", &discards(hand), None, 60);
        let mut p = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(p.act(&o), Action::Discard(t("7z")));
        let mut e = EfficiencyPolicy::new(&huainan(), 0);
        assert_eq!(e.act(&o), Action::Discard(t("7s")));
    }

    #[test]
    fn ready_discards_are_ranked_by_live_waits() {
        // 123m 456m 789p 11s 3s 55z, one 5z already out, 宝 7z: dropping 3s waits on 1s or
        // 5z (three live copies), dropping 1s waits on 2s (four). Same value per win.
        let hand = "123m456m789p11s3s55z";
        let o = view(hand, &[], "7z", "5z", &discards(hand), None, 60);
        let mut p = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(p.act(&o), Action::Discard(t("1s")));
        // The efficiency policy drops the least connected tile, 3s.
        let mut e = EfficiencyPolicy::new(&huainan(), 0);
        assert_eq!(e.act(&o), Action::Discard(t("3s")));
    }

    #[test]
    fn ready_discards_are_ranked_by_what_the_win_pays() {
        // 11m 33m 55p 77p 22s 44s 6z 9s, 宝 9m (none held): dropping 9s waits on 6z for
        // 清七对 (8); dropping 6z waits on 9s, also 清七对. With two 9s gone the 6z wait
        // is the better one; the value counts live copies of every wait.
        let hand = "11m33m55p77p22s44s6z9s";
        let o = view(hand, &[], "9m", "9s9s", &discards(hand), None, 60);
        let mut p = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(p.act(&o), Action::Discard(t("9s")));
        // H4: 5p* 123m 456m 789s 234s 9p, 宝 5p. Dropping 2s leaves a ready hand (2s, 5s,
        // or 9p with the 宝 in 34s); dropping 9p enters 宝吊头, where every tile wins and
        // pays 2 from each: worth far more.
        let hand = "5p123m456m789s234s9p";
        let o = view(hand, &[], "5p", "", &discards(hand), None, 60);
        assert_eq!(p.act(&o), Action::Discard(t("9p")));
        // With the wait values off, the useful tiles still rank it first (any tile).
        let cfg = HuainanStrongConfig {
            wait_value: false,
            ..Default::default()
        };
        let mut q = HuainanStrongPolicy::with_config(&huainan(), 0, cfg);
        assert_eq!(q.act(&o), Action::Discard(t("9p")));
    }

    #[test]
    fn declares_a_kong_even_when_it_costs_a_step() {
        // 1111m 23m 456p 789s 5z 7z: the fourth 1m belongs to 123m, so the kong costs a
        // step; kong points are paid on every win, so it is declared.
        let hand = "1111m23m456p789s5z7z";
        let mut legal = discards(hand);
        legal.push(Action::ConcealedKong(t("1m")));
        let o = view(hand, &[], "9p", "", &legal, None, 60);
        let mut p = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(p.act(&o), Action::ConcealedKong(t("1m")));
        let cfg = HuainanStrongConfig {
            kong_slack: 0,
            ..Default::default()
        };
        let mut q = HuainanStrongPolicy::with_config(&huainan(), 0, cfg);
        assert!(matches!(q.act(&o), Action::Discard(_)));
    }

    #[test]
    fn takes_a_claim_that_keeps_the_shanten_but_leaves_more_useful_tiles() {
        // 5m 666m 23p 8p 123s 6s 1z 5z, 宝 6p, the left seat discards 1s: chowing 123s
        // (with the held 2s 3s) keeps the shanten and, after the best discard, leaves more
        // useful tiles than passing (the held 1s becomes a free tile).
        let hand = "5m666m23p8p123s6s1z5z";
        let legal = [Action::Chow(t("1s")), Action::Pass];
        let o = view(hand, &[], "6p", "", &legal, Some(t("1s")), 60);
        let mut p = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(p.act(&o), Action::Chow(t("1s")));
        // Without claims at equal shanten (the efficiency policy's rule) it passes.
        let cfg = HuainanStrongConfig {
            claim_equal: false,
            ..Default::default()
        };
        let mut q = HuainanStrongPolicy::with_config(&huainan(), 0, cfg);
        assert_eq!(q.act(&o), Action::Pass);
        let mut e = EfficiencyPolicy::new(&huainan(), 0);
        assert_eq!(e.act(&o), Action::Pass);
    }

    #[test]
    fn passes_a_cheap_discard_win_while_the_self_draw_promises_more() {
        // 3456789m 111p 222s waits on 3m, 6m, 9m; holding no 宝 (宝 7z) it may win on the
        // left seat's 3m for 平糊 (1), or self-draw 平糊自摸 (2 from each of three).
        let hand = "3456789m111p222s";
        let legal = [Action::Win, Action::Pass];
        let cfg = HuainanStrongConfig {
            decline_discard_win: 0.5,
            ..Default::default()
        };
        let mut p = HuainanStrongPolicy::with_config(&huainan(), 0, cfg);
        let long = view(hand, &[], "7z", "", &legal, Some(t("3m")), 80);
        assert_eq!(p.act(&long), Action::Pass);
        // Near the end of the wall the win is taken.
        let short = view(hand, &[], "7z", "", &legal, Some(t("3m")), 4);
        assert_eq!(p.act(&short), Action::Win);
        // By default (a tenth of the draws counted on) this wait is not broad enough.
        let mut d = HuainanStrongPolicy::new(&huainan(), 0);
        assert_eq!(d.act(&long), Action::Win);
    }

    #[test]
    fn plays_legal_complete_hands_in_every_rule_set() {
        let mut off = huainan();
        off.huainan.bao_wild_in_13lang = false;
        for rules in [
            huainan(),
            off,
            Rules::gb(),
            Rules::named("classic").unwrap(),
        ] {
            for seed in 0..12u64 {
                let mut round = Round::new(&rules, seed, (seed % 4) as u8, 0).unwrap();
                let mut pols: [Box<dyn Policy>; 4] = std::array::from_fn(|i| {
                    if i % 2 == 0 {
                        PolicyKind::Expert.build(&rules)
                    } else {
                        PolicyKind::Efficiency.build(&rules)
                    }
                });
                for (i, p) in pols.iter_mut().enumerate() {
                    p.begin_hand(seed * 4 + i as u64);
                }
                let n = play_out(&mut round, &mut pols).unwrap();
                assert!(
                    n > 10 && round.result().is_some(),
                    "{:?} {seed}",
                    rules.kind
                );
            }
        }
    }

    #[test]
    fn plays_as_strong_outside_huainan() {
        let rules = Rules::gb();
        for seed in 0..4u64 {
            let mut round = Round::new(&rules, seed, 0, 0).unwrap();
            let mut a = HuainanStrongPolicy::new(&rules, seed);
            let mut b = StrongPolicy::new(&rules, seed, StrongConfig::default());
            a.begin_hand(seed);
            b.begin_hand(seed);
            let mut others: Box<dyn Policy> = PolicyKind::Efficiency.build(&rules);
            while round.pending() != 0 {
                let seat = round.pending().trailing_zeros() as u8;
                let v = crate::policy::RoundView {
                    round: &round,
                    seat,
                };
                let act = if seat == 0 {
                    let x = a.act(&v);
                    assert_eq!(x, b.act(&v));
                    x
                } else {
                    others.act(&v)
                };
                round.apply(seat, act).unwrap();
            }
        }
    }
}
