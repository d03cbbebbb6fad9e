//! [`HuainanStrongPolicy`]: a Huainan bot that values what its waits are worth.
//!
//! The wild-aware efficiency policy ([`super::huainan`]) discards by shanten alone and
//! breaks ties by how connected a tile is. This policy keeps its wild-aware shanten (every
//! 宝 a joker, all four Huainan shapes, docs/rules/huainan.md §8.1) and adds:
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
//!   finished hand, this one sum sees 宝吊头 (any tile wins), seven pairs against plain
//!   wins, natural (清) against wild readings and 飞宝.
//! - **飞宝.** A ready hand may discard a 宝 when the waits without it are worth more (the
//!   飞宝 doubling and the discard wins a 宝-free hand may take), minus the risk of feeding
//!   接宝 (16 from the discarder) while an opponent may have drawn three.
//! - **Claims by the same evaluation.** A pung or chow is taken only when the hand after
//!   it (and its best discard) is closer to a win than passing; a kong on a discard, a
//!   concealed or an added kong only when it does not lengthen the road.
//!
//! Wins are taken when offered; on a self-drawn win the efficiency policy's 宝吊头 choices
//! stand (a cheaper win is declined to enter the 宝吊头 state; one pass in that state for
//! 偷机 while the wall is long; a concealed kong that keeps the state comes first).
//!
//! Under the non-default shape options (D-7, D-15) the shanten follows the options
//! ([`oracle::shanten_parts`]) and the useful tiles are those of the default shapes.
//! In the `gb` and `classic` rule sets the policy plays as [`StrongPolicy`] in its default
//! configuration. It draws no random numbers: a hand's play depends on the hand alone.

use super::efficiency::unseen;
use super::{AfterMeld, Policy, StrongConfig, StrongPolicy, TableView};
use crate::hand::{Meld, MeldKind};
use crate::huainan::forms::{self, WinFacts};
use crate::huainan::oracle::{self, ShapeOptions};
use crate::huainan::{BaoState, DiscardWins, HuainanOptions};
use crate::round::Action;
use crate::rules::{RuleSetKind, Rules};
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
    /// Take a pung or chow that keeps the shanten but leaves more useful tiles.
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
    /// ready than after the best alternative (kong points are paid on every win, D-27).
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
pub struct Eval {
    /// Wild-aware shanten.
    pub shanten: i8,
    /// Wait value (ready) or unseen useful tiles (not ready).
    pub value: f64,
}

impl Eval {
    /// True if `self` is strictly better than `other`.
    pub fn beats(&self, other: &Eval) -> bool {
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

/// How well a tile connects to the rest of the hand: copies and suited neighbours within
/// two ranks (a lower score is a better discard).
fn connectivity(h: &Counts, t: usize) -> u32 {
    let mut c = 3 * h[t].saturating_sub(1) as u32;
    if t < 27 {
        let r = (t % 9) as i32;
        for d in [-2i32, -1, 1, 2] {
            let q = r + d;
            if (0..9).contains(&q) {
                c += h[(t as i32 + d) as usize] as u32 * if d.abs() == 1 { 2 } else { 1 };
            }
        }
    }
    c
}

/// The hand (13 − 3k tiles after the kong) and melds after the own-turn kong `a`
/// (concealed or added), or `None` for any other action.
fn after_own_kong(hand: &Counts, melds: &[Meld], a: Action) -> Option<(Counts, [Meld; 4], usize)> {
    match a {
        Action::ConcealedKong(t) if hand[t as usize] >= 4 && melds.len() < 4 => {
            let am = AfterMeld::of_concealed_kong(t, hand, melds);
            let mut m = [am.meld; 4];
            m[..am.melds().len()].copy_from_slice(am.melds());
            Some((am.hand, m, am.melds().len()))
        }
        Action::AddedKong(t) if hand[t as usize] >= 1 => {
            let i = melds
                .iter()
                .position(|x| x.kind == MeldKind::Pung && x.tile == t)?;
            let mut h = *hand;
            h[t as usize] -= 1;
            let kong = Meld {
                kind: MeldKind::Kong,
                tile: t,
            };
            let mut m = [kong; 4];
            m[..melds.len()].copy_from_slice(melds);
            m[i] = kong;
            Some((h, m, melds.len()))
        }
        _ => None,
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
        let huainan = rules.kind == RuleSetKind::Huainan;
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
        // A kong that keeps the shanten: a free replacement draw and kong points.
        let mut kong: Option<(i8, Action)> = None;
        for &a in legal {
            if let Some((h, km, kn)) = after_own_kong(hand, melds, a) {
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
                if let Some((h, km, kn)) = after_own_kong(hand, melds, a) {
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
    /// discard beats passing, a kong when it keeps the best shanten.
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
        "huainan_strong"
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
        match (&self.opts, view.huainan()) {
            (Some(o), Some((bao, state))) => self.act_huainan(view, o, bao, state),
            _ => legal[0],
        }
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}
