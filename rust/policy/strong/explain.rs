//! Why the strong policy chose its action: [`StrongPolicy::explain`] makes the same
//! decision as [`Policy::act`](crate::policy::Policy::act) and fills an [`Explanation`]
//! along the way.
//!
//! The decision functions take an optional sink (`Option<&mut Explanation>`) and write
//! into it at the points where they compute their figures: the candidates with their
//! plans and danger after the attack ranking, the chances of winning after the
//! lookahead, the means of a search, the claim-against-pass comparison, the layer that
//! decided. [`Policy::act`](crate::policy::Policy::act) passes `None`, so the normal
//! play builds nothing and its decisions are the same (the tests check both).
//!
//! Figures are in the units the policy compares: chances 0-1, values in points (the
//! attack stake times the candidate's share of the best plan, the lookahead's chance
//! times [`super::LOOKAHEAD_SCALE`], minus the price of the danger). The danger and the
//! threats are the ones the configuration decided with ([`super::StrongConfig::defense`]):
//! the expert's danger is the learned chance of dealing in, its ready chances the
//! hand-made ones.

use super::danger::Threat;
use super::waits::{scoring_waits, WinContext};
use super::StrongPolicy;
use crate::policy::plans::Evaluator;
use crate::round::Action;
use crate::rules::Rules;
use crate::tile::{Counts, Tile};

/// Which layer of the policy made the decision (see the [module docs](super)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A single legal action: nothing to weigh.
    Forced,
    /// A win was on offer: wins are always taken.
    Win,
    /// Huainan: the efficiency policy's wild-aware choice (the plans are gb's fans).
    Huainan,
    /// The plans: each discard's share of the best plan times the attack stake, minus
    /// the price of its danger.
    Attack,
    /// The lookahead: the chance of winning of each candidate (a discard, or a claim
    /// against a pass).
    Lookahead,
    /// Folding: the hand is far from its plan and an opponent is likely ready; the
    /// safest discard, no claims.
    Fold,
    /// A concealed or added kong that keeps the plan value.
    Kong,
    /// The search: the mean score change of each close candidate over rollouts.
    Search,
    /// A claim or a pass by the plan values (a claim must raise the value by
    /// [`super::CLAIM_MARGIN`]).
    Claim,
}

impl Mode {
    /// The mode's name: `forced`, `win`, `huainan`, `attack`, `lookahead`, `fold`,
    /// `kong`, `search` or `claim`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Forced => "forced",
            Mode::Win => "win",
            Mode::Huainan => "huainan",
            Mode::Attack => "attack",
            Mode::Lookahead => "lookahead",
            Mode::Fold => "fold",
            Mode::Kong => "kong",
            Mode::Search => "search",
            Mode::Claim => "claim",
        }
    }
}

/// One candidate discard with the figures the policy compared.
#[derive(Debug, Clone, PartialEq)]
pub struct DiscardReason {
    /// The tile discarded.
    pub tile: Tile,
    /// The best plan the remaining tiles keep ([`Evaluator::plan_name`]).
    pub plan: String,
    /// Tiles the plan misses (1 = ready).
    pub distance: u8,
    /// The fan the plan is counted as worth; for a ready hand with a scoring wait, the
    /// best fan of its scoring waits.
    pub fan: f32,
    /// Unseen copies of the tiles the plan can use (of a ready hand: its scoring waits).
    pub useful: u32,
    /// The lookahead's chance of winning after the discard, when it was asked.
    pub chance: Option<f32>,
    /// The chance the discard deals in.
    pub danger: f32,
    /// The plan-and-defense value in points (`None`: far behind the best plan, not
    /// considered).
    pub attack: Option<f32>,
    /// The value the decision compared, in points (`None`: dropped).
    pub value: Option<f32>,
    /// The search's mean score change, for the searched candidates.
    pub search: Option<f32>,
}

/// One option of a claim window (the pass included) with its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimReason {
    /// The claim, or [`Action::Pass`].
    pub action: Action,
    /// The plan value after the claim and its best discard, danger priced in; for the
    /// pass, the value without the claim times [`super::CLAIM_MARGIN`] (the bar a claim
    /// must clear).
    pub plan_value: f32,
    /// The lookahead's chance of winning (after the claim: with its best discard, minus
    /// that discard's danger price), when it was asked.
    pub chance: Option<f32>,
    /// The discard after the claim that gives `chance`.
    pub discard: Option<Tile>,
    /// The search's mean score change, when the claim went to the search.
    pub search: Option<f32>,
}

/// What the defense reads about one opponent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeatThreat {
    /// The opponent's seat.
    pub seat: u8,
    /// Its chance of being ready now.
    pub ready: f32,
    /// The suit (0-2) its exposed sets point to (a flush), if any.
    pub flush_suit: Option<u8>,
    /// Its exposed sets are pungs only.
    pub pungs: bool,
    /// Its exposed sets.
    pub sets: u8,
}

/// Why the strong policy chose its action.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The action chosen (the one [`Policy::act`](crate::policy::Policy::act) returns).
    pub action: Action,
    /// The layer that decided.
    pub mode: Mode,
    /// The deciding seat.
    pub seat: u8,
    /// What finishing the hand is worth now, in points ([`StrongPolicy::stake`]).
    pub stake: f32,
    /// The three opponents as the defense reads them.
    pub threats: Vec<SeatThreat>,
    /// The candidate discards, in the order the decision ranked them (best first).
    pub discards: Vec<DiscardReason>,
    /// The options of a claim window, the pass first, then the claims in legal order.
    pub claims: Vec<ClaimReason>,
}

impl Explanation {
    /// An empty explanation for `seat`.
    pub fn new(seat: u8) -> Explanation {
        Explanation {
            action: Action::Pass,
            mode: Mode::Forced,
            seat,
            stake: 0.0,
            threats: Vec::new(),
            discards: Vec::new(),
            claims: Vec::new(),
        }
    }

    /// The highest chance among the opponents of being ready (what folding compares
    /// with [`super::FOLD_THREAT`]).
    pub fn max_threat(&self) -> f32 {
        self.threats.iter().map(|t| t.ready).fold(0.0, f32::max)
    }

    /// The figures of the discard of `tile`, if it was a candidate.
    pub fn discard(&self, tile: Tile) -> Option<&DiscardReason> {
        self.discards.iter().find(|d| d.tile == tile)
    }

    /// The figures of the claim-window option `action`, if it was one.
    pub fn claim(&self, action: Action) -> Option<&ClaimReason> {
        self.claims.iter().find(|c| c.action == action)
    }

    pub(super) fn threats(&mut self, seat: u8, threats: &[Threat; 4]) {
        self.threats = (0..4u8)
            .filter(|&s| s != seat)
            .map(|s| {
                let t = &threats[s as usize];
                SeatThreat {
                    seat: s,
                    ready: t.ready,
                    flush_suit: t.flush_suit,
                    pungs: t.pungs,
                    sets: t.sets,
                }
            })
            .collect();
    }

    /// The candidates after the attack ranking (their totals are the attack values, or
    /// the fold values when `fold`).
    pub(super) fn ranked(&mut self, cands: &[super::Candidate], stake: f32, fold: bool, f: Facts) {
        self.stake = stake;
        self.mode = if fold { Mode::Fold } else { Mode::Attack };
        let mut h = *f.hand;
        self.discards = cands
            .iter()
            .map(|c| {
                h[c.tile as usize] -= 1;
                let mut fan = f.ev.plan_fan(&h, c.score.plan);
                if c.score.distance == 1 {
                    let w = scoring_waits(&h, f.ctx, f.rules, f.unseen);
                    if w.best_fan > 0 {
                        fan = w.best_fan as f32;
                    }
                }
                h[c.tile as usize] += 1;
                DiscardReason {
                    tile: c.tile,
                    plan: f.ev.plan_name(c.score.plan),
                    distance: c.score.distance,
                    fan,
                    useful: c.useful,
                    chance: None,
                    danger: c.danger,
                    attack: c.total.is_finite().then_some(c.total),
                    value: None,
                    search: None,
                }
            })
            .collect();
    }

    /// The lookahead's chances of winning (`vals[i]` for `cands[i]`), which decided.
    pub(super) fn chances(&mut self, cands: &[super::Candidate], vals: &[Option<f32>]) {
        self.mode = Mode::Lookahead;
        for (c, v) in cands.iter().zip(vals) {
            if let Some(d) = self.discards.iter_mut().find(|d| d.tile == c.tile) {
                d.chance = *v;
            }
        }
    }

    /// The final values, in the decision's order.
    pub(super) fn sorted(&mut self, cands: &[super::Candidate]) {
        let mut out = Vec::with_capacity(cands.len());
        for c in cands {
            if let Some(i) = self.discards.iter().position(|d| d.tile == c.tile) {
                let mut d = self.discards.swap_remove(i);
                d.value = c.total.is_finite().then_some(c.total);
                out.push(d);
            }
        }
        out.append(&mut self.discards);
        self.discards = out;
    }

    /// The search's means for the discards of `acts`.
    pub(super) fn searched_discards(&mut self, acts: &[Action], means: &[f32]) {
        self.mode = Mode::Search;
        for (a, &m) in acts.iter().zip(means) {
            if let Action::Discard(t) | Action::Ready(t) = *a {
                if let Some(d) = self.discards.iter_mut().find(|d| d.tile == t) {
                    d.search = Some(m);
                }
            }
        }
    }

    /// The search's means for the options of a claim window.
    pub(super) fn searched_claims(&mut self, acts: &[Action], means: &[f32]) {
        self.mode = Mode::Search;
        for (&a, &m) in acts.iter().zip(means) {
            self.claim_entry(a).search = Some(m);
        }
    }

    /// The plan value of a claim-window option.
    pub(super) fn claim_value(&mut self, action: Action, plan_value: f32) {
        self.claim_entry(action).plan_value = plan_value;
    }

    /// A chance of winning of a claim-window option (the best one is kept).
    pub(super) fn claim_chance(
        &mut self,
        action: Action,
        chance: Option<f32>,
        discard: Option<Tile>,
    ) {
        let e = self.claim_entry(action);
        if chance.unwrap_or(f32::NEG_INFINITY) > e.chance.unwrap_or(f32::NEG_INFINITY) {
            e.chance = chance;
            e.discard = discard;
        }
    }

    fn claim_entry(&mut self, action: Action) -> &mut ClaimReason {
        let i = match self.claims.iter().position(|c| c.action == action) {
            Some(i) => i,
            None => {
                self.claims.push(ClaimReason {
                    action,
                    plan_value: 0.0,
                    chance: None,
                    discard: None,
                    search: None,
                });
                self.claims.len() - 1
            }
        };
        &mut self.claims[i]
    }
}

/// What the explanation needs besides the candidates to name their plans and fans.
pub(super) struct Facts<'a> {
    pub ev: &'a Evaluator,
    pub hand: &'a Counts,
    pub ctx: &'a WinContext,
    pub rules: &'a Rules,
    pub unseen: &'a Counts,
}

/// An optional [`Explanation`] the decision functions write into: nothing happens (and
/// nothing is computed) without one.
pub(super) trait Sink {
    /// Runs `f` on the explanation, if there is one.
    fn note(&mut self, f: impl FnOnce(&mut Explanation));
}

impl Sink for Option<&mut Explanation> {
    #[inline(always)]
    fn note(&mut self, f: impl FnOnce(&mut Explanation)) {
        if let Some(e) = self.as_deref_mut() {
            f(e);
        }
    }
}

impl StrongPolicy {
    /// The decision [`Policy::act`](crate::policy::Policy::act) makes for `view`, with
    /// the reasons (see the [module documentation](self)). Advances the policy's state
    /// exactly as `act` does, so a policy driven through `explain` plays the same hand.
    /// Fails with [`crate::MjError::IllegalAction`] when the view has no legal action.
    pub fn explain(
        &mut self,
        view: &dyn crate::policy::TableView,
    ) -> crate::MjResult<(Action, Explanation)> {
        if view.legal().is_empty() {
            return Err(crate::MjError::action(format!(
                "seat {} has no legal action to explain",
                view.seat()
            )));
        }
        let mut ex = Explanation::new(view.seat());
        let a = self.decide(view, Some(&mut ex));
        ex.action = a;
        Ok((a, ex))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::positions::{discards, view};
    use crate::policy::{Policy, RandomPolicy, RoundView, StrongConfig, TableView};
    use crate::round::Round;
    use crate::tile;

    fn t(s: &str) -> Tile {
        tile::parse(s).unwrap()[0]
    }

    fn full() -> StrongPolicy {
        StrongPolicy::new(&Rules::gb(), 1, StrongConfig::default())
    }

    /// Plays hands with four strong seats (each with two copies in lockstep: one asked
    /// to `act`, one to `explain`) and returns how often each mode decided.
    fn play_and_compare(rules: &Rules, cfg: StrongConfig, hands: u64) -> Vec<(Mode, usize)> {
        let mut modes: Vec<(Mode, usize)> = Vec::new();
        for seed in 0..hands {
            let mut round = Round::new(rules, 700 + seed, (seed % 4) as u8, 0).unwrap();
            let mut acting: Vec<StrongPolicy> =
                (0..4).map(|s| StrongPolicy::new(rules, s, cfg)).collect();
            for (s, p) in acting.iter_mut().enumerate() {
                p.begin_hand(seed * 8 + s as u64);
            }
            let mut explaining = acting.clone();
            while round.pending() != 0 {
                let seat = round.pending().trailing_zeros() as u8;
                let v = RoundView {
                    round: &round,
                    seat,
                };
                let a = acting[seat as usize].act(&v);
                let (b, e) = explaining[seat as usize].explain(&v).unwrap();
                assert_eq!(a, b, "seed {seed} seat {seat}: {e:#?}");
                assert_eq!(e.action, a);
                assert_eq!(e.seat, seat);
                check_consistent(&v, &e);
                match modes.iter_mut().find(|(m, _)| *m == e.mode) {
                    Some((_, n)) => *n += 1,
                    None => modes.push((e.mode, 1)),
                }
                round.apply(seat, a).unwrap();
            }
        }
        modes
    }

    /// What any explanation must satisfy.
    fn check_consistent(v: &dyn TableView, e: &Explanation) {
        let legal = v.legal();
        match e.mode {
            Mode::Attack | Mode::Lookahead | Mode::Fold if e.claims.is_empty() => {
                // The chosen discard leads the list, with a value.
                let (Action::Discard(x) | Action::Ready(x)) = e.action else {
                    panic!("{e:#?}");
                };
                assert_eq!(e.discards[0].tile, x, "{e:#?}");
                assert!(e.discards[0].value.is_some(), "{e:#?}");
                if e.mode == Mode::Lookahead {
                    assert!(e.discards[0].chance.is_some_and(|c| c > 0.0), "{e:#?}");
                }
                let values: Vec<f32> = e.discards.iter().filter_map(|d| d.value).collect();
                assert!(values.windows(2).all(|w| w[0] >= w[1]), "{e:#?}");
                assert_eq!(e.threats.len(), 3);
            }
            Mode::Attack | Mode::Claim | Mode::Lookahead | Mode::Fold => {
                assert_ne!(e.mode, Mode::Attack, "{e:#?}");
                assert_eq!(e.claims[0].action, Action::Pass, "{e:#?}");
                assert!(e.claims.iter().all(|c| legal.contains(&c.action)));
            }
            Mode::Win => assert_eq!(e.action, Action::Win),
            Mode::Forced => assert!(legal.len() == 1 || e.discards.is_empty()),
            Mode::Kong => assert!(matches!(
                e.action,
                Action::ConcealedKong(_) | Action::AddedKong(_)
            )),
            Mode::Search | Mode::Huainan => {}
        }
    }

    fn count(modes: &[(Mode, usize)], m: Mode) -> usize {
        modes.iter().find(|(x, _)| *x == m).map_or(0, |x| x.1)
    }

    #[test]
    fn explaining_makes_the_same_decisions_as_acting_in_gb() {
        let modes = play_and_compare(&Rules::gb(), StrongConfig::default(), 12);
        for m in [Mode::Attack, Mode::Lookahead, Mode::Claim, Mode::Win] {
            assert!(count(&modes, m) > 0, "{m:?} never decided: {modes:?}");
        }
        let modes = play_and_compare(&Rules::gb(), StrongConfig::lite(), 4);
        assert_eq!(count(&modes, Mode::Lookahead), 0, "{modes:?}");
        assert!(count(&modes, Mode::Attack) > 0, "{modes:?}");
        // The expert's points-valued lookahead explains through the same hooks.
        let modes = play_and_compare(&Rules::gb(), StrongConfig::expert(), 6);
        assert!(count(&modes, Mode::Lookahead) > 0, "{modes:?}");
    }

    #[test]
    fn explaining_makes_the_same_decisions_as_acting_in_classic() {
        let rules = Rules::named("classic").unwrap();
        let modes = play_and_compare(&rules, StrongConfig::default(), 10);
        assert!(count(&modes, Mode::Attack) + count(&modes, Mode::Lookahead) > 50);
    }

    #[test]
    fn searched_decisions_show_the_means() {
        let cfg = StrongConfig {
            rollouts: 8,
            candidates: 3,
            time_cap_ms: 0,
            lookahead: true,
            ..StrongConfig::default()
        };
        let modes = play_and_compare(&Rules::gb(), cfg, 3);
        assert!(count(&modes, Mode::Search) > 0, "{modes:?}");
    }

    #[test]
    fn huainan_decisions_name_the_efficiency_path() {
        let rules = Rules::named("huainan").unwrap();
        let modes = play_and_compare(&rules, StrongConfig::default(), 2);
        assert!(count(&modes, Mode::Huainan) > 0, "{modes:?}");
        assert_eq!(count(&modes, Mode::Attack), 0, "{modes:?}");
    }

    #[test]
    fn a_fold_shows_the_threat() {
        // Seat 1 shows three pungs of dots and has discarded for a long time; our hand is
        // far from any plan.
        let o = crate::policy::positions::facing_a_dot_flush();
        let (a, e) = full().explain(&o).unwrap();
        assert_eq!(e.mode, Mode::Fold, "{e:#?}");
        let seat1 = e.threats.iter().find(|s| s.seat == 1).unwrap();
        assert!(seat1.ready >= super::super::FOLD_THREAT, "{seat1:?}");
        assert_eq!(seat1.flush_suit, Some(1));
        assert!(seat1.pungs && seat1.sets == 3);
        assert!(e.max_threat() >= super::super::FOLD_THREAT);
        // The safest tile goes: the lowest danger of all candidates.
        let Action::Discard(x) = a else {
            panic!("{a:?}")
        };
        let low = e.discards.iter().map(|d| d.danger).fold(1.0, f32::min);
        assert_eq!(e.discard(x).unwrap().danger, low);
        assert!(e.discard(t("5p")).unwrap().danger > low);
        assert!(e
            .discards
            .iter()
            .all(|d| d.distance >= super::super::FOLD_DISTANCE));
    }

    #[test]
    fn a_lookahead_decision_shows_the_chances() {
        // 1p leaves a full-flush wait on every character; a character leaves a single
        // wait on 1p, far less likely and cheaper.
        let h = "1112345678999m1p";
        let (a, e) = full().explain(&view(h, &discards(h), None)).unwrap();
        assert_eq!(a, Action::Discard(t("1p")));
        assert_eq!(e.mode, Mode::Lookahead, "{e:#?}");
        let best = &e.discards[0];
        assert_eq!(best.tile, t("1p"));
        assert_eq!(best.distance, 1);
        assert!(best.fan >= 24.0, "{best:?}");
        assert!(best.plan.contains('m'), "{best:?}");
        let chance = best.chance.unwrap();
        assert!(chance > 0.0 && chance < 1.0, "{best:?}");
        assert!(e.discards[1..]
            .iter()
            .all(|d| d.chance.unwrap_or(0.0) < chance));
    }

    #[test]
    fn a_claim_is_compared_with_the_pass() {
        let o = view(
            "111m999p55s77s223z",
            &[Action::Pung(t("5s")), Action::Pass],
            Some((2, t("5s"))),
        );
        let (a, e) = full().explain(&o).unwrap();
        assert_eq!(a, Action::Pung(t("5s")));
        assert_eq!(e.mode, Mode::Lookahead, "{e:#?}");
        let pass = e.claim(Action::Pass).unwrap();
        let pung = e.claim(a).unwrap();
        assert!(pung.chance.unwrap() > pass.chance.unwrap_or(0.0), "{e:#?}");
        assert_eq!(pung.discard, Some(t("3z")));
        // By the plan values alone (no lookahead) the pung is compared with the bar.
        let mut lite = StrongPolicy::new(&Rules::gb(), 1, StrongConfig::lite());
        let (_, e) = lite.explain(&o).unwrap();
        assert_eq!(e.mode, Mode::Claim);
        assert!(e.claims.iter().all(|c| c.chance.is_none()));
        assert_eq!(e.claims.len(), 2);
    }

    #[test]
    fn nothing_to_decide_is_an_error_and_other_policies_do_not_explain() {
        let o = view("1m", &[], None);
        assert!(matches!(
            full().explain(&o),
            Err(crate::MjError::IllegalAction(_))
        ));
        let mut r = RandomPolicy::new(1);
        let e = r.explain(&view("12m", &discards("12m"), None)).unwrap_err();
        assert!(e.message().contains("random"), "{e}");
    }
}
