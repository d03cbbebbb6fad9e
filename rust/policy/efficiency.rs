//! [`EfficiencyPolicy`]: discards by plan value and useful tiles, claims that help, every
//! win offered.
//!
//! - **Win** whenever the round offers it (the round only offers wins that reach the
//!   minimum fan).
//! - **Discard**: every legal discard is scored with [`Evaluator::score`] (the best fan
//!   plan's value after the discard: distance in tiles, weighted by whether the plan's fan
//!   reaches the minimum; see [`super::plans`]). Among the discards within 15% of the best
//!   value, the one that leaves the most *useful tiles* wins: kinds that lower the shanten
//!   and that the plan can use, each counted by its unseen copies (four minus the copies
//!   in the hand, in the seat's concealed kongs and visible on the table). Exact ties are
//!   broken by the policy's seeded generator.
//! - **Ready** (classic 报听) with the chosen discard whenever it is offered.
//! - **Kongs**: a concealed or added kong when the hand without those tiles is worth at
//!   least 95% of the best discard (a kong costs nothing else and draws a tile).
//! - **Claims**: a chow, pung or kong on a discard only when the best hand after the claim
//!   (and its discard) is worth more than the hand without it by a margin; exposing a hand
//!   loses the concealed plans (seven pairs, knitted forms) and the concealed bonus, which
//!   the plan values account for.

use super::plans::{
    ChowPlan, DiscardContext, Evaluator, HandKinds, PlanKind, Score, Selection, MAX_CHOW_PLANS,
};
use super::{AfterMeld, Policy, RoundView, TableView};
use crate::hand::{Meld, MeldKind};
use crate::round::{Action, Round};
use crate::rules::Rules;
use crate::shanten::regular::{self, combine, finish, table_entry};
use crate::shanten::tables::{Entry, INF};
use crate::shanten::{special, swar};
use crate::tile::{Counts, Tile};
use crate::wall::Rng;

/// Discards within this share of the best value compete on useful tiles.
const SHORTLIST: f32 = 0.85;
/// At most this many discards compete on useful tiles.
const MAX_SHORTLIST: usize = 14;
/// A claim must improve the hand's value by this factor.
const CLAIM_MARGIN: f32 = 1.1;
/// A kong is declared when the hand after it keeps this share of the best discard's value.
const KONG_SHARE: f32 = 0.95;

/// The efficiency bot (see the [module documentation](self)).
#[derive(Debug, Clone)]
pub struct EfficiencyPolicy {
    min_fan: u8,
    /// Huainan: the 宝 rules, for the wild-aware decisions of [`crate::policy::huainan`].
    huainan: Option<crate::huainan::HuainanOptions>,
    /// The evaluator of the seat's own melds and the one of the melds after a claim or
    /// kong being weighed (which would otherwise displace the first at every claim
    /// decision), each with the seat and prevalent winds it was built for. Each is used
    /// in place ([`evaluator_in`]): every decision selects its plans again first.
    evaluators: [Option<((u8, u8), Evaluator)>; 2],
    /// What the discard choice works with.
    work: DiscardWork,
    /// The value of the waiting hand the seat last left or weighed a claim on.
    waiting: Waiting,
}

/// The state of a discard choice ([`DiscardWork::best_discard_above`]), apart from the
/// evaluators it reads.
#[derive(Debug, Clone)]
struct DiscardWork {
    /// The tie-breaking generator.
    rng: Rng,
    /// The regular useful kinds of recent waiting hands (a seat's shortlisted discards
    /// often leave a hand it weighed at an earlier turn).
    memo: UsefulMemo,
    /// The shares of the full hand being decided, refilled for every decision.
    ctx: DiscardContext,
    /// The scored discards of the decision (the first ones written by each decision).
    scored: [(Tile, Score); 14],
    /// The shortlisted discards of the decision, best first (indices into `scored`).
    short: [u8; 14],
}

/// The evaluator kept in `slot` when it was built for `winds` and `melds`, else a new one
/// built there, for a seat planning to `min_fan`. Its plans are selected as the last
/// decision left them: the caller selects them again before reading it.
fn evaluator_in<'a>(
    slot: &'a mut Option<((u8, u8), Evaluator)>,
    winds: (u8, u8),
    melds: &[Meld],
    min_fan: u8,
) -> &'a mut Evaluator {
    let kept = matches!(slot, Some((w, ev)) if *w == winds && ev.melds() == melds);
    if !kept {
        *slot = None;
    }
    &mut slot
        .get_or_insert_with(|| (winds, Evaluator::new(melds, winds.0, winds.1, min_fan)))
        .1
}

/// The value of a waiting hand as a seat scored it: the hand after its discard (the
/// chosen discard's exact score) or under a claim it weighed. A claim on the same hand,
/// with the same melds and winds, whose plans (as the tile under claim selects them)
/// are among those measured then, its best plan with them
/// ([`Evaluator::measures_within`]), has this value without scoring the hand again.
#[derive(Debug, Clone, Copy)]
struct Waiting {
    /// The hand (all `u8::MAX` before any is kept: no hand matches).
    hand: Counts,
    /// The melds (the first `n_melds`).
    melds: [Meld; 4],
    n_melds: u8,
    winds: (u8, u8),
    /// [`Evaluator::selection`] of the evaluator that scored it.
    selection: Selection,
    /// The score's value and best plan.
    value: f32,
    plan: PlanKind,
}

impl Waiting {
    /// No hand kept.
    fn none() -> Self {
        let no_meld = Meld {
            kind: MeldKind::Chow,
            tile: 0,
        };
        let no_plan = ChowPlan {
            lows: [0; 3],
            fan: 0.0,
        };
        Waiting {
            hand: [u8::MAX; 34],
            melds: [no_meld; 4],
            n_melds: 0,
            winds: (0, 0),
            selection: (0, false, 0, [no_plan; MAX_CHOW_PLANS]),
            value: 0.0,
            plan: PlanKind::Plain,
        }
    }

    /// Keeps the waiting hand `hand` less one `discard` (none when 34 or more) beside
    /// `melds` with winds `winds`, scored `score` by `ev` (built for them).
    #[inline(always)]
    fn keep(
        &mut self,
        hand: &Counts,
        discard: Tile,
        melds: &[Meld],
        winds: (u8, u8),
        ev: &Evaluator,
        score: &Score,
    ) {
        self.hand = *hand;
        if let Some(c) = self.hand.get_mut(discard as usize) {
            *c -= 1;
        }
        for (kept, m) in self.melds.iter_mut().zip(melds) {
            *kept = *m;
        }
        self.n_melds = melds.len() as u8;
        self.winds = winds;
        self.selection = ev.selection();
        self.value = score.value;
        self.plan = score.plan;
    }

    /// The value, when `ev` (built for `melds` and `winds`) scores `hand` as the kept
    /// hand was.
    fn value_of(
        &self,
        hand: &Counts,
        melds: &[Meld],
        winds: (u8, u8),
        ev: &Evaluator,
    ) -> Option<f32> {
        (self.hand == *hand
            && self.winds == winds
            && self.melds.get(..usize::from(self.n_melds)) == Some(melds)
            && ev.measures_within(&self.selection, self.plan))
        .then_some(self.value)
    }
}

/// A discard not scored (the value of no plan).
const UNSCORED: (Tile, Score) = (
    0,
    Score {
        value: 0.0,
        plan: PlanKind::Plain,
        distance: INF,
        allowed: 0,
    },
);

/// Slots of a [`UsefulMemo`] (a power of two).
const MEMO_SLOTS: usize = 64;

/// A direct-mapped memo of [`regular_useful`]: the kinds whose draw lowers the regular
/// distance of a waiting hand without melded copies, keyed by the hand's four group ranks
/// and the sets it builds (which determine the answer). A pure function's memo: it
/// changes no decision, only how often the kinds are measured.
#[derive(Clone)]
struct UsefulMemo {
    /// (key, kinds) per slot; key 0 marks an empty slot (every key has bit 127 set).
    slots: [(u128, u64); MEMO_SLOTS],
}

impl UsefulMemo {
    fn new() -> Self {
        UsefulMemo {
            slots: [(0, 0); MEMO_SLOTS],
        }
    }

    /// The key of the hand with group ranks `r` (suits below 2^21, honors below 2^17)
    /// building `m` sets, and its slot.
    #[inline(always)]
    fn key(r: &[usize; 4], m: usize) -> (u128, usize) {
        let key = r[0] as u128
            | (r[1] as u128) << 21
            | (r[2] as u128) << 42
            | (r[3] as u128) << 63
            | (m as u128) << 80
            | 1 << 127;
        let h = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (key, (h >> (64 - MEMO_SLOTS.trailing_zeros())) as usize)
    }
}

impl std::fmt::Debug for UsefulMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self.slots.iter().filter(|s| s.0 != 0).count();
        write!(f, "UsefulMemo({filled} of {MEMO_SLOTS} slots)")
    }
}

/// One candidate discard and its evaluation.
#[derive(Debug, Clone, Copy)]
pub struct DiscardChoice {
    /// The tile to discard.
    pub tile: Tile,
    /// The hand's value after the discard.
    pub score: Score,
    /// Unseen copies of the useful tiles the plan can use after the discard (computed for
    /// the shortlisted discards only; 0 otherwise).
    pub useful: u32,
}

impl EfficiencyPolicy {
    /// An efficiency policy for `rules` (its minimum fan steers the plans), seeded with
    /// `seed` for tie-breaks.
    pub fn new(rules: &Rules, seed: u64) -> Self {
        let huainan = super::plays_wilds(rules).then(|| rules.huainan.clone());
        EfficiencyPolicy {
            min_fan: rules.fan.min_fan,
            huainan,
            evaluators: [None, None],
            work: DiscardWork {
                rng: Rng::new(seed),
                memo: UsefulMemo::new(),
                ctx: DiscardContext::new(),
                scored: [UNSCORED; 14],
                short: [0; 14],
            },
            waiting: Waiting::none(),
        }
    }

    /// The minimum fan the policy plans for.
    pub fn min_fan(&self) -> u8 {
        self.min_fan
    }

    /// The best discard from a full hand (`14 - 3k` tiles) among `allowed` kinds (bit
    /// mask), with the evaluator `ev` already built for it. Without `with_useful` the
    /// value alone decides (no useful-tile count).
    pub fn best_discard(
        &mut self,
        ev: &Evaluator,
        hand: &Counts,
        unseen: &Counts,
        allowed: u64,
        with_useful: bool,
    ) -> Option<DiscardChoice> {
        let kinds = HandKinds::of(hand);
        self.work.best_discard_above(
            ev,
            hand,
            kinds,
            unseen,
            allowed,
            with_useful,
            f32::NEG_INFINITY,
        )
    }

    /// [`Policy::act`] for any view type (the table's own view is read without a dynamic
    /// call per question).
    fn decide<V: TableView + ?Sized>(&mut self, view: &V) -> Action {
        // A turn's discards as kinds, the other actions listed (the 宝 decisions read the
        // whole list).
        let (kinds, legal) = if self.huainan.is_some() {
            (0, view.legal())
        } else {
            view.legal_kinds()
        };
        if let Some(only) = at_most_one(kinds, legal) {
            return only;
        }
        // The 宝 is asked for only under huainan's rules.
        if let Some((o, (bao, state))) = self.huainan.as_ref().and_then(|o| Some((o, view.bao()?)))
        {
            let (m, n) = view.melds(view.seat());
            let d = crate::policy::huainan::Decision {
                hand: view.hand(),
                melds: &m[..n],
                bao,
                state,
                legal,
                claim: view
                    .claim()
                    .filter(|_| view.turn() != view.seat())
                    .map(|c| c.1),
                drawn: view.drawn(),
                wall_remaining: view.wall_remaining(),
                opts: o,
            };
            return crate::policy::huainan::decide(&d);
        }
        let (m, n) = view.melds(view.seat());
        let melds = &m[..n];
        // A win offered is taken (a turn finds it in its own pass over the actions).
        match view.claim() {
            Some((_, t)) if view.turn() != view.seat() => {
                if legal.iter().any(|a| matches!(a, Action::Win)) {
                    return Action::Win;
                }
                self.claim(view, legal, melds, t)
            }
            _ => self.turn(view, kinds, legal, melds, &unseen(view, melds)),
        }
    }

    /// A turn's decision among the legal actions: the discards of the kinds `listed_kinds`
    /// and the actions `legal` ([`TableView::legal_kinds`]).
    fn turn<V: TableView + ?Sized>(
        &mut self,
        view: &V,
        listed_kinds: u64,
        legal: &[Action],
        melds: &[Meld],
        unseen: &Counts,
    ) -> Action {
        let hand = *view.hand();
        let winds = (view.seat_wind(), view.prevalent_wind());
        let [own, weighed] = &mut self.evaluators;
        let ev = evaluator_in(own, winds, melds, self.min_fan);
        let kinds = HandKinds::of(&hand);
        ev.select_chow_plans_of(&hand, kinds);
        // One pass over the legal actions: the discardable kinds, those that can be
        // declared ready, and whether a kong is offered.
        let (mut discardable, mut ready_kinds, mut kongs) = (listed_kinds, 0u64, false);
        for a in legal {
            // Most of a turn's actions are discards: one test each.
            if let Action::Discard(t) = *a {
                discardable |= 1 << (t & 63);
                continue;
            }
            match *a {
                Action::Ready(t) => {
                    discardable |= 1 << (t & 63);
                    ready_kinds |= 1 << (t & 63);
                }
                Action::ConcealedKong(_) | Action::AddedKong(_) => kongs = true,
                Action::Win => return Action::Win,
                _ => {}
            }
        }
        let best = self.work.best_discard_above(
            ev,
            &hand,
            kinds,
            unseen,
            discardable,
            true,
            f32::NEG_INFINITY,
        );
        let Some(choice) = best else {
            return view.legal().first().copied().unwrap_or(Action::Pass);
        };
        let target = choice.score.value * KONG_SHARE;
        let kong_offers: &[Action] = if kongs { legal } else { &[] };
        for &a in kong_offers {
            match a {
                Action::ConcealedKong(t) => {
                    let after = AfterMeld::of_concealed_kong(t, &hand, melds);
                    let ev2 = evaluator_in(weighed, winds, after.melds(), self.min_fan);
                    ev2.select_chow_plans(&after.hand);
                    if ev2.score(&after.hand).value >= target {
                        return a;
                    }
                }
                Action::AddedKong(t) => {
                    let mut h = hand;
                    h[t as usize] = h[t as usize].saturating_sub(1);
                    if ev.score(&h).value >= target {
                        return a;
                    }
                }
                _ => {}
            }
        }
        // The hand left is valued as the chosen discard's score.
        self.waiting
            .keep(&hand, choice.tile, melds, winds, ev, &choice.score);
        if ready_kinds >> (choice.tile & 63) & 1 == 1 {
            return Action::Ready(choice.tile);
        }
        Action::Discard(choice.tile)
    }

    /// A claim decision: the unseen copies are not needed, as the hands after a claim are
    /// valued without useful tiles.
    fn claim<V: TableView + ?Sized>(
        &mut self,
        view: &V,
        legal: &[Action],
        melds: &[Meld],
        tile: Tile,
    ) -> Action {
        let hand = *view.hand();
        let mut with = hand;
        with[tile as usize] += 1;
        // A chow of a tile that does not bring the hand closer to any set-and-pair shape
        // cannot be worth it (a claim only removes freedom); pass without evaluating. A
        // pung or kong is always weighed (it can complete an honor or all-pungs plan).
        let n_melds = melds.len() as u8;
        let only_chows = legal
            .iter()
            .all(|a| matches!(a, Action::Chow(_) | Action::Pass));
        if only_chows && !closer_with(&hand, tile as usize, n_melds) {
            return Action::Pass;
        }
        let winds = (view.seat_wind(), view.prevalent_wind());
        let [own, weighed] = &mut self.evaluators;
        let ev = evaluator_in(own, winds, melds, self.min_fan);
        ev.select_chow_plans(&with);
        // The hand's value is read back when the seat scored it already (after its discard
        // or at an earlier claim) with the plans selected alike.
        let known = self.waiting.value_of(&hand, melds, winds, ev);
        let base = match known {
            Some(v) => {
                debug_assert_eq!(v, ev.score(&hand).value);
                v
            }
            None => {
                let s = ev.score(&hand);
                self.waiting.keep(&hand, Tile::MAX, melds, winds, ev, &s);
                s.value
            }
        };
        let mut best = (base * CLAIM_MARGIN, Action::Pass);
        for &a in legal {
            let Some(c) = AfterMeld::of_claim(a, tile, &hand, melds) else {
                continue;
            };
            let (meld, h) = (c.meld, c.hand);
            let ev2 = evaluator_in(weighed, winds, c.melds(), self.min_fan);
            let kinds = HandKinds::of(&h);
            ev2.select_chow_plans_of(&h, kinds);
            let v = if meld.kind == MeldKind::Kong {
                // A replacement tile follows: the hand after the kong waits as it is.
                ev2.score(&h).value / CLAIM_MARGIN
            } else {
                // A claim whose hand cannot beat the best so far whatever it discards is
                // not measured further.
                match self.work.best_discard_above(
                    ev2,
                    &h,
                    kinds,
                    &[0; 34],
                    u64::MAX,
                    false,
                    best.0,
                ) {
                    Some(c) => c.score.value,
                    None => 0.0,
                }
            };
            if v > best.0 {
                best = (v, a);
            }
        }
        if legal.contains(&best.1) {
            best.1
        } else {
            legal[legal.len() - 1]
        }
    }
}

impl DiscardWork {
    /// [`EfficiencyPolicy::best_discard`] (the kinds `hand` holds already found), or `None`
    /// without measuring the discards when the full hand's best plan value (which no
    /// discard exceeds) is at most `floor`.
    #[allow(clippy::too_many_arguments)]
    fn best_discard_above(
        &mut self,
        ev: &Evaluator,
        hand: &Counts,
        kinds: HandKinds,
        unseen: &Counts,
        allowed: u64,
        with_useful: bool,
        floor: f32,
    ) -> Option<DiscardChoice> {
        let codes = regular::codes(hand);
        let ranks = regular::ranks_of(&codes);
        let full = regular::entries_at(&ranks);
        // Below a floor (a claim weighed against the hand without it), a full hand whose
        // plans cannot beat it is left before its context is built.
        if floor > f32::NEG_INFINITY && !ev.bound_above(hand, kinds, &full, floor) {
            return None;
        }
        ev.fill_discard_context_of(&mut self.ctx, hand, kinds, &codes, &ranks, &full);
        if self.ctx.bound() <= floor {
            return None;
        }
        self.ctx.settle_first_plan();
        let ctx = &self.ctx;
        // Discards that cannot be shortlisted (or, without useful tiles, be the best) are
        // left out unmeasured.
        let share = if with_useful { SHORTLIST } else { 1.0 };
        let scored = &mut self.scored;
        let kinds = ctx.held() & allowed;
        let (n, best) = ev.score_discards(ctx, hand, &codes, kinds, share, scored);
        let choice = |&(tile, score): &(Tile, Score)| DiscardChoice {
            tile,
            score,
            useful: 0,
        };
        let (first, others) = scored[..n].split_first()?;
        if !with_useful {
            let mut top = first;
            for c in others {
                if c.1.value > top.1.value {
                    top = c;
                }
            }
            return Some(choice(top));
        }
        // Keep the discards within SHORTLIST of the best value (at most MAX_SHORTLIST), best
        // first (a stable order: equal values keep kind order); a single one needs no
        // useful-tile count. Values are never NaN: a comparison orders them.
        // The shortlist holds indices into `scored`.
        let short = &mut self.short;
        let mut n_short = 0usize;
        for (j, c) in scored[..n].iter().enumerate() {
            if c.1.value >= best * SHORTLIST {
                // After the kept discards of at least its value (kind order among equals).
                let mut i = n_short;
                while i > 0 && scored[short[i - 1] as usize].1.value < c.1.value {
                    short[i] = short[i - 1];
                    i -= 1;
                }
                short[i] = j as u8;
                n_short += 1;
            }
        }
        let short = &short[..n_short.min(MAX_SHORTLIST)];
        if short.len() <= 1 {
            return short.first().map(|&j| choice(&scored[j as usize]));
        }
        // The best key so far, its discard's index in `scored` and its useful copies.
        let mut chosen: Option<(f32, usize, u32)> = None;
        let mut ties = 0u64;
        // What the useful-tile counts share, built when the first shortlisted discard needs it.
        let mut shared: Option<Shared> = None;
        let m_sets = 4 - ev.melds().len().min(4);
        // Kinds with an unseen copy, and those the full hand holds fewer than four of: the
        // hand after a discard can hold one more of these, and of the discarded kind.
        let unseen_kinds = special::presence(unseen);
        let unseen_words = swar::words(unseen);
        let below_four = !special::fours(hand);
        for &j in short.iter() {
            let (tile, score) = scored[j as usize];
            let mask = if regular_plan(score.plan) {
                let shared = shared.get_or_insert_with(|| {
                    Shared::new(&ranks, &full, ctx.rest_if_merged(), ctx.halves())
                });
                let need = score.allowed & unseen_kinds & (below_four | 1 << tile);
                regular_useful(
                    &codes,
                    &full,
                    shared,
                    tile as usize,
                    m_sets,
                    need,
                    &mut self.memo,
                ) & need
            } else {
                let mut x = *hand;
                x[tile as usize] -= 1;
                ev.useful(score.plan, score.allowed, &x)
            };
            let u = unseen_copies(&unseen_words, mask);
            let key = score.value * (u as f32 + 4.0);
            match chosen {
                Some((k, _, _)) if key < k => {}
                Some((k, _, _)) if key == k => {
                    // Reservoir choice among exact ties, from the seeded generator.
                    ties += 1;
                    if self.rng.below(ties + 1) == 0 {
                        chosen = Some((key, j as usize, u));
                    }
                }
                _ => {
                    ties = 0;
                    chosen = Some((key, j as usize, u));
                }
            }
        }
        chosen.map(|(_, j, useful)| DiscardChoice {
            useful,
            ..choice(&scored[j])
        })
    }
}

/// The only legal action among the discards of the kinds `kinds` and the actions
/// `listed` ([`TableView::legal_kinds`]), [`Action::Pass`] when there is none, `None` when
/// there are more.
fn at_most_one(kinds: u64, listed: &[Action]) -> Option<Action> {
    let others = || {
        listed
            .iter()
            .filter(|a| !matches!(**a, Action::Discard(t) if kinds >> (t & 63) & 1 == 1))
    };
    match kinds.count_ones() {
        0 => match listed {
            [] => Some(Action::Pass),
            [a] => Some(*a),
            _ => None,
        },
        1 => others()
            .next()
            .is_none()
            .then(|| Action::Discard(kinds.trailing_zeros() as Tile)),
        _ => None,
    }
}

/// True when one more `t` brings `hand` (beside `n_melds` melds) closer to a regular shape
/// ([`regular::distance`] of the hand with it below that of the hand): the two hands share
/// three groups' entries and the merge of the two groups of the other half.
fn closer_with(hand: &Counts, t: usize, n_melds: u8) -> bool {
    let m = 4 - n_melds.min(4) as usize;
    let e = regular::entries_at(&regular::ranks(hand));
    let g = (t / 9).min(3);
    let mut with = *hand;
    with[t] += 1;
    let mut e2 = e;
    e2[g] = table_entry(g, &with[regular::span(g)]);
    let (a, b) = (combine(&e[0], &e[1]), combine(&e[2], &e[3]));
    let d_hand = finish(&a, &b, m);
    let d_with = if g < 2 {
        finish(&combine(&e2[0], &e2[1]), &b, m)
    } else {
        finish(&a, &combine(&e2[2], &e2[3]), m)
    };
    d_with < d_hand
}

/// True for plans whose useful tiles are those that lower the regular distance
/// ([`Evaluator::useful`]): the shapes of sets and a pair, and the knitted straight.
fn regular_plan(p: PlanKind) -> bool {
    matches!(
        p,
        PlanKind::Plain
            | PlanKind::FullFlush(_)
            | PlanKind::HalfFlush(_)
            | PlanKind::Chows(_)
            | PlanKind::KnittedStraight
    )
}

/// What the useful-tile counts of every discard from one full hand share: the full
/// hand's group ranks, each group's rest (the other three merged) and the merge of each
/// pair of groups.
struct Shared {
    /// The limited tables.
    lim: regular::Limited,
    ranks: [usize; 4],
    /// For each group the other three merged (bit `g` of `rest_found` set once `rest[g]`
    /// is: see [`Shared::rest_of`]).
    rest: [Entry; 4],
    rest_found: u8,
    /// Groups 0 and 1 merged, groups 2 and 3 merged.
    halves: [Entry; 2],
    /// Merged pairs of groups, indexed by [`PAIR_OF`].
    pairs: [Entry; 6],
    /// The last measured discard's kinds beside its own group ([`Beside`]).
    beside: Beside,
}

/// The kinds a discard finds in the groups other than its own: they depend only on the
/// discard's group, that group's entry after the discard and the distance after it, so
/// the next discard from the same group leaving the same entry (the shortlist's discards
/// of equal value are often such neighbours) finds the same kinds there.
#[derive(Clone, Copy)]
struct Beside {
    /// The discard's group (4 for none yet).
    group: u8,
    /// The distance after the discard.
    d0: u8,
    /// The groups measured (bit `g`).
    groups: u8,
    /// The entry of the discard's group after it.
    own: Entry,
    /// The kinds found in `groups`.
    kinds: u64,
}

/// `PAIR_OF[g][h]`: the index in [`Shared::pairs`] of the two groups other than `g` and
/// `h` (`g != h`).
const PAIR_OF: [[usize; 4]; 4] = [[0, 5, 4, 3], [5, 0, 2, 1], [4, 2, 0, 0], [3, 1, 0, 0]];

impl Shared {
    /// From the full hand's group ranks, entries and halves, and its rests when the
    /// scoring merged them already ([`regular::rests_of_halves`]).
    fn new(
        ranks: &[usize; 4],
        full: &[Entry; 4],
        rest: Option<&[Entry; 4]>,
        halves: &[Entry; 2],
    ) -> Shared {
        // Pairs: 0 = {0,1}, 1 = {0,2}, 2 = {0,3}, 3 = {1,2}, 4 = {1,3}, 5 = {2,3}.
        let pairs = [
            halves[0],
            combine(&full[0], &full[2]),
            combine(&full[0], &full[3]),
            combine(&full[1], &full[2]),
            combine(&full[1], &full[3]),
            halves[1],
        ];
        Shared {
            lim: regular::Limited::get(),
            ranks: *ranks,
            rest: rest.copied().unwrap_or([[0; 10]; 4]),
            rest_found: if rest.is_some() { 0xF } else { 0 },
            halves: *halves,
            pairs,
            beside: Beside {
                group: 4,
                d0: 0,
                groups: 0,
                own: [0; 10],
                kinds: 0,
            },
        }
    }

    /// The other three groups than `gt` merged, for the full hand's entries `full`
    /// ([`regular::rest_of_halves`]), merged when a discard from `gt` first needs them.
    #[inline(always)]
    fn rest_of(&mut self, full: &[Entry; 4], gt: usize) -> &Entry {
        let gt = gt.min(3);
        if self.rest_found >> gt & 1 == 0 {
            self.rest[gt] = regular::rest_of_halves(full, &self.halves, gt);
            self.rest_found |= 1 << gt;
        }
        &self.rest[gt]
    }
}

/// Kinds whose draw lowers the regular distance of the full hand's counts minus one `t`
/// (the full hand's rank codes `codes`, see [`regular::codes`]). `full` holds the full
/// hand's group entries and `shared` what all discards share ([`Shared`]); only the
/// discard's own group is looked up again, and the tables' per-lane improving masks
/// answer for every kind at once ([`regular::improving_at`]); kinds are found at least for
/// the groups with a kind in `need`. Hands already in `memo` are not measured again, nor
/// the other groups of a discard whose group, entry after it and distance equal the last
/// one's ([`Beside`], kept in `shared`).
fn regular_useful(
    codes: &[(usize, usize, usize); 4],
    full: &[Entry; 4],
    shared: &mut Shared,
    t: usize,
    m: usize,
    need: u64,
    memo: &mut UsefulMemo,
) -> u64 {
    let gt = (t / 9).min(3);
    let lim = shared.lim;
    let r = lim.rank_without_one(&codes[gt], gt, t - 9 * gt);
    let mut ranks = shared.ranks;
    ranks[gt] = r;
    let (key, slot) = UsefulMemo::key(&ranks, m);
    if let Some(&(k, kinds)) = memo.slots.get(slot) {
        if k == key {
            return kinds;
        }
    }
    let own = lim.entry_at(gt, r);
    // The discard's group meets the rest it always had; each other group's rest is the
    // discard's group merged with the remaining two, which the discard does not change.
    let rest = *shared.rest_of(full, gt);
    let d0 = finish(own, &rest, m);
    let mut out = lim.improving_in(gt, r, own, &rest, m, d0);
    // The other groups with a kind in `need` (the others' kinds would be masked away);
    // only a complete answer is remembered. Their kinds come from the last discard
    // measured when it left the same entry of the same group at the same distance.
    let mut wanted = 0u8;
    for (g, kinds) in GROUP_KINDS.iter().enumerate() {
        wanted |= (u8::from(g != gt) & u8::from(need & kinds != 0)) << g;
    }
    let b = &mut shared.beside;
    let same = (b.group == gt as u8) & (b.d0 == d0) & (b.own == *own);
    if !same {
        *b = Beside {
            group: gt as u8,
            d0,
            groups: 0,
            own: *own,
            kinds: 0,
        };
    }
    let mut todo = wanted & !b.groups;
    while todo != 0 {
        let g = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let rest = combine(own, &shared.pairs[PAIR_OF[g][gt]]);
        b.kinds |= lim.improving_in(g, shared.ranks[g], &full[g], &rest, m, d0);
    }
    b.groups |= wanted;
    out |= b.kinds;
    if wanted | 1 << gt == 0xF {
        if let Some(s) = memo.slots.get_mut(slot) {
            *s = (key, out);
        }
    }
    out
}

/// The unseen copies of the kinds `mask` (bit `t` for kind `t`, below 34), from the
/// unseen counts `words` ([`swar::words`], each count at most 4): eight kinds at a time,
/// each word's counts kept where the mask's byte has its bit.
#[inline(always)]
fn unseen_copies(words: &[u64; 5], mask: u64) -> u32 {
    let mut acc = 0u64;
    for (i, w) in words.iter().enumerate() {
        acc += w & BYTES_OF_BITS[(mask >> (8 * i)) as usize & 0xFF];
    }
    // Each byte sums at most five counts of 4, and all of them at most 34 counts of 4:
    // the bytes add without carries.
    (acc.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// `BYTES_OF_BITS[b]`: byte `i` all ones for each bit `i` set in `b`.
const BYTES_OF_BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The kinds of each group (bit `t` for kind `t`).
const GROUP_KINDS: [u64; 4] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27];

/// Unseen copies of each kind from a seat's view: four minus the copies in its hand, in
/// its concealed kongs and visible on the table.
pub fn unseen<V: TableView + ?Sized>(view: &V, own_melds: &[Meld]) -> Counts {
    let hand = view.hand();
    let vis = view.visible();
    let mut u = [0u8; 34];
    for t in 0..34 {
        u[t] = 4u8.saturating_sub(hand[t]).saturating_sub(vis[t]);
    }
    for m in own_melds {
        if m.kind == MeldKind::ConcealedKong && (m.tile as usize) < 34 {
            u[m.tile as usize] = 0;
        }
    }
    u
}

impl Policy for EfficiencyPolicy {
    fn name(&self) -> &'static str {
        "efficiency"
    }
    fn begin_hand(&mut self, seed: u64) {
        self.work.rng = Rng::new(seed);
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        self.decide(view)
    }
    fn act_on(&mut self, round: &Round, seat: u8) -> Action {
        // The round's own view, its reads inlined into the decision.
        self.decide(&RoundView { round, seat })
    }
    fn reads_turn_discards_as_kinds(&self) -> bool {
        // The 宝 decisions read the whole list.
        self.huainan.is_none()
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shanten::regular::{group_entry, span};

    use crate::policy::positions::{counts, discards, view as observation};

    const NO_USED: Counts = [0; 34];

    #[test]
    fn wins_whenever_offered() {
        let mut p = EfficiencyPolicy::new(&Rules::gb(), 0);
        let o = observation(
            "123m456p789s11122z",
            &[Action::Win, Action::Discard(0)],
            None,
        );
        assert_eq!(p.act(&o), Action::Win);
    }

    #[test]
    fn discards_the_isolated_off_suit_tile_of_a_flush() {
        // Twelve characters, a lone 5p, a lone 7s: keep the flush.
        let h = "1124556778m99m5p7s";
        let mut p = EfficiencyPolicy::new(&Rules::gb(), 0);
        let o = observation(h, &discards(h), None);
        let a = p.act(&o);
        assert!(
            a == Action::Discard(13) || a == Action::Discard(24),
            "{a:?}"
        );
    }

    #[test]
    fn passes_a_chow_that_breaks_a_flush_and_takes_a_pung_toward_all_pungs() {
        let mut p = EfficiencyPolicy::new(&Rules::gb(), 0);
        // A clean character flush two tiles away; a bamboo chow would kill it.
        let h = "111345999m77z35s";
        let o = observation(h, &[Action::Chow(20), Action::Pass], Some((3, 21)));
        let hand = counts(h);
        assert_eq!(hand.iter().map(|&c| c as u32).sum::<u32>(), 13);
        assert_eq!(p.act(&o), Action::Pass);
        // A pung of white dragons toward all pungs: take it.
        let h2 = "111m222p339s5577z";
        let o2 = observation(h2, &[Action::Pung(33), Action::Pass], Some((3, 33)));
        assert_eq!(p.act(&o2), Action::Pung(33));
    }

    #[test]
    fn useful_tiles_of_a_discard_match_the_oracle() {
        // One memo across all the hands: its answers must equal the oracle's too.
        let mut memo = UsefulMemo::new();
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut next = move |n: u64| rng.below(n);
        for round in 0..2000 {
            let n_melds = round % 3;
            let n = 14 - 3 * n_melds;
            let mut hand = [0u8; 34];
            let mut k = 0;
            while k < n {
                let t = next(34) as usize;
                if hand[t] < 4 {
                    hand[t] += 1;
                    k += 1;
                }
            }
            let full =
                std::array::from_fn(|g| group_entry(g, &hand[span(g)], &NO_USED[span(g)], false));
            let (rest, halves) = regular::rests_and_halves(&full);
            // Every other hand merges its rests itself, as when the scoring has not.
            let given = (round % 2 == 0).then_some(&rest);
            let mut shared = Shared::new(&regular::ranks(&hand), &full, given, &halves);
            for t in (0..34).filter(|&t| hand[t] > 0) {
                let mut after = hand;
                after[t] -= 1;
                let ours = regular_useful(
                    &regular::codes(&hand),
                    &full,
                    &mut shared,
                    t,
                    4 - n_melds,
                    u64::MAX,
                    &mut memo,
                );
                let oracle = crate::shanten::regular::improving(
                    &after,
                    &NO_USED,
                    n_melds as u8,
                    0,
                    u64::MAX,
                );
                assert_eq!(ours, oracle, "{after:?} after discarding {t}");
                // With only some groups needed, the kinds found there are the same (the
                // shared memo may answer with all of them).
                let need = GROUP_KINDS[(t + round) % 4] | GROUP_KINDS[round % 3];
                let some = regular_useful(
                    &regular::codes(&hand),
                    &full,
                    &mut shared,
                    t,
                    4 - n_melds,
                    need,
                    &mut UsefulMemo::new(),
                );
                assert_eq!(some & need, oracle & need, "{after:?} after discarding {t}");
            }
        }
    }

    #[test]
    fn unseen_copies_of_a_mask_equal_the_sum_kind_by_kind() {
        let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
        for round in 0..20_000u64 {
            let unseen: Counts = std::array::from_fn(|_| rng.below(5) as u8);
            let mask = match round % 3 {
                0 => (1 << 34) - 1,
                _ => (rng.below(1 << 34) & rng.below(1 << 34)) | 1 << rng.below(34),
            };
            let sum: u32 = (0..34)
                .filter(|&k| mask >> k & 1 == 1)
                .map(|k| unseen[k] as u32)
                .sum();
            assert_eq!(unseen_copies(&swar::words(&unseen), mask), sum, "{mask:x}");
        }
    }

    #[test]
    fn the_only_action_is_found_among_kinds_and_listed_actions() {
        let d = |t: Tile| Action::Discard(t);
        assert_eq!(at_most_one(0, &[]), Some(Action::Pass));
        assert_eq!(at_most_one(0, &[Action::Win]), Some(Action::Win));
        assert_eq!(at_most_one(0, &[d(3), d(5)]), None);
        assert_eq!(at_most_one(1 << 7, &[]), Some(d(7)));
        // A listed copy of a discard the kinds name is the same action.
        assert_eq!(at_most_one(1 << 7, &[d(7)]), Some(d(7)));
        assert_eq!(at_most_one(1 << 7, &[Action::Win]), None);
        assert_eq!(at_most_one(1 << 7, &[d(8)]), None);
        assert_eq!(at_most_one(1 << 7 | 1 << 9, &[]), None);
    }

    #[test]
    fn same_seed_same_choices() {
        let h = "19m19p19s1234567z5m";
        let o = observation(h, &discards(h), None);
        let a: Vec<Action> = (0..5)
            .map(|_| EfficiencyPolicy::new(&Rules::gb(), 7).act(&o))
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
    }
}
