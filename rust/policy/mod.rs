//! Built-in policies (bots) usable from Rust and Python.
//!
//! A policy decides for one seat from what that seat can see. The seat's view is the
//! [`TableView`] trait, implemented twice:
//!
//! - [`RoundView`] borrows a live [`Round`] and exposes only what its seat may see (its own
//!   concealed tiles, everything public). `simulate` and `arena` drive the round with it:
//!   no observation is copied per decision.
//! - [`Observation`] (the round's snapshot of a seat's view) implements it too, so the
//!   Python bots (`mj.bots.EfficiencyBot`) run the same Rust code on the observation they
//!   are given.
//!
//! A policy implements [`Policy`]: [`Policy::begin_hand`] reseeds it from the hand (so a
//! hand's play depends on the hand's seed alone, never on the thread that plays it) and
//! [`Policy::act`] returns one of the view's legal actions. Policies are `Send + Sync` and clone
//! through [`Policy::boxed_clone`], so a search-based policy can copy the policies of a
//! table and play a cloned [`Round`] out with [`play_out`].
//!
//! Built in: [`RandomPolicy`] (uniform among the legal actions), [`EfficiencyPolicy`]
//! (shanten and useful tiles toward fan-bearing shapes; see [`efficiency`]),
//! [`StrongPolicy`] (fan plans, lookahead, defense; see [`strong`]) and
//! [`HuainanStrongPolicy`] (Huainan: wild-aware useful tiles and the value of the waits;
//! see [`huainan_strong`]). The `expert` policy ([`expert`]) is the strongest of them for
//! each rule set.

pub mod efficiency;
pub mod huainan;
pub mod huainan_strong;
pub mod model;
pub mod plans;
pub mod random;
pub mod strong;

pub use efficiency::EfficiencyPolicy;
pub use huainan_strong::{HuainanStrongConfig, HuainanStrongPolicy};
pub use random::RandomPolicy;
pub use strong::{StrongConfig, StrongPolicy};

use crate::error::{MjError, MjResult};
use crate::hand::{Meld, MeldKind};
use crate::round::ruleset::SeatRuleView;
use crate::round::{Action, Claim, DiscardEntry, Observation, Round, HIDDEN};
use crate::rules::{Engine, Rules};
use crate::tile::{Counts, Tile};

/// What one seat can see, with its legal actions. Everything a policy may use.
pub trait TableView {
    /// The deciding seat, 0-3.
    fn seat(&self) -> u8;
    /// The dealer (East).
    fn dealer(&self) -> u8;
    /// The prevalent wind, 0-3 (E S W N).
    fn prevalent_wind(&self) -> u8;
    /// The deciding seat's wind, 0-3.
    fn seat_wind(&self) -> u8 {
        (self.seat() + 4 - self.dealer()) % 4
    }
    /// Whose turn it is (the discarder or konger in a claim or robbing window).
    fn turn(&self) -> u8;
    /// The deciding seat's concealed tiles.
    fn hand(&self) -> &Counts;
    /// The melds of `seat`; another seat's concealed kong has the tile [`HIDDEN`].
    fn melds(&self, seat: u8) -> ([Meld; 4], usize);
    /// Flowers set aside by `seat`.
    fn n_flowers(&self, seat: u8) -> u8;
    /// True if `seat` declared ready.
    fn is_ready(&self, seat: u8) -> bool;
    /// Copies of each kind visible to everyone (discards and exposed melds).
    fn visible(&self) -> &Counts;
    /// Every discard so far, in order.
    fn discards(&self) -> &[DiscardEntry];
    /// Tiles left in the wall.
    fn wall_remaining(&self) -> usize;
    /// The tile under claim and who played it, in a claim or robbing window.
    fn claim(&self) -> Option<(u8, Tile)>;
    /// The tile the seat just drew, on its own turn after a draw.
    fn drawn(&self) -> Option<Tile>;
    /// The seat's legal actions now.
    fn legal(&self) -> &[Action];
    /// The legal actions with a turn's discards read as kinds: `(kinds, listed)`, where
    /// `Discard(t)` is legal for every kind `t` of `kinds` (bit `t`) and `listed` holds
    /// every other legal action, in the order of [`TableView::legal`] (it may hold some
    /// of those discards as well). A view may answer without writing a turn's discards;
    /// the default reads [`TableView::legal`] whole (no kinds).
    fn legal_kinds(&self) -> (u64, &[Action]) {
        (0, self.legal())
    }
    /// A legal action drawn uniformly with `rng`: with more than one, the one at
    /// `rng.below(n)` of the `n` of [`TableView::legal`] (`rng` is not used otherwise);
    /// [`Action::Pass`] when there is none. A view may answer without building the list.
    fn legal_uniform(&self, rng: &mut crate::wall::Rng) -> Action {
        crate::round::uniform_choice(self.legal(), rng)
    }
    /// What the seat sees of the rule set's own per-hand state (the 宝 of a hand played
    /// with wild tiles).
    fn ruleset_view(&self) -> SeatRuleView {
        SeatRuleView::Plain
    }
    /// The 宝 and the seat's own 宝 state, in a hand played with 宝 once it is turned up.
    fn bao(&self) -> Option<(Tile, crate::huainan::BaoState)> {
        self.ruleset_view().bao().map(|v| (v.bao, v.state))
    }
    /// The whole view as an [`Observation`], the one [`Round::observe`] builds (for a
    /// search that rebuilds the table from it).
    fn observation(&self) -> Observation;
}

/// A live round seen from one seat.
#[derive(Clone, Copy)]
pub struct RoundView<'a> {
    /// The round.
    pub round: &'a Round,
    /// The seat whose view this is.
    pub seat: u8,
}

impl TableView for RoundView<'_> {
    fn seat(&self) -> u8 {
        self.seat
    }
    fn dealer(&self) -> u8 {
        self.round.dealer()
    }
    fn prevalent_wind(&self) -> u8 {
        self.round.prevalent_wind()
    }
    fn turn(&self) -> u8 {
        self.round.turn()
    }
    fn hand(&self) -> &Counts {
        &self.round.seat(self.seat).hand
    }
    fn melds(&self, seat: u8) -> ([Meld; 4], usize) {
        let st = self.round.seat(seat);
        let mut m = st.melds;
        let n = st.n_melds as usize;
        if seat != self.seat {
            for x in m[..n].iter_mut() {
                if x.kind == MeldKind::ConcealedKong {
                    x.tile = HIDDEN;
                }
            }
        }
        (m, n)
    }
    fn n_flowers(&self, seat: u8) -> u8 {
        self.round.seat(seat).n_flowers
    }
    fn is_ready(&self, seat: u8) -> bool {
        self.round.seat(seat).ready
    }
    fn visible(&self) -> &Counts {
        self.round.visible()
    }
    fn discards(&self) -> &[DiscardEntry] {
        self.round.discards()
    }
    fn wall_remaining(&self) -> usize {
        self.round.wall().remaining()
    }
    fn claim(&self) -> Option<(u8, Tile)> {
        self.round.claim()
    }
    fn drawn(&self) -> Option<Tile> {
        if self.round.turn() == self.seat {
            self.round.drawn()
        } else {
            None
        }
    }
    fn legal(&self) -> &[Action] {
        self.round.legal_actions(self.seat)
    }
    #[inline]
    fn legal_kinds(&self) -> (u64, &[Action]) {
        self.round.legal_kinds(self.seat)
    }
    #[inline]
    fn legal_uniform(&self, rng: &mut crate::wall::Rng) -> Action {
        self.round.legal_uniform(self.seat, rng)
    }
    fn ruleset_view(&self) -> SeatRuleView {
        self.round.ruleset_view(self.seat)
    }
    fn observation(&self) -> Observation {
        self.round.observe(self.seat)
    }
}

impl TableView for Observation {
    fn seat(&self) -> u8 {
        self.seat
    }
    fn dealer(&self) -> u8 {
        self.dealer
    }
    fn prevalent_wind(&self) -> u8 {
        self.prevalent_wind
    }
    fn turn(&self) -> u8 {
        self.turn
    }
    fn hand(&self) -> &Counts {
        &self.hand
    }
    fn melds(&self, seat: u8) -> ([Meld; 4], usize) {
        let s = (seat & 3) as usize;
        (self.melds[s], self.n_melds[s] as usize)
    }
    fn n_flowers(&self, seat: u8) -> u8 {
        self.n_flowers[(seat & 3) as usize]
    }
    fn is_ready(&self, seat: u8) -> bool {
        self.ready[(seat & 3) as usize]
    }
    fn visible(&self) -> &Counts {
        &self.visible
    }
    fn discards(&self) -> &[DiscardEntry] {
        Observation::discards(self)
    }
    fn wall_remaining(&self) -> usize {
        self.wall_remaining as usize
    }
    fn claim(&self) -> Option<(u8, Tile)> {
        self.claim
    }
    fn drawn(&self) -> Option<Tile> {
        self.drawn
    }
    fn legal(&self) -> &[Action] {
        self.legal.as_slice()
    }
    fn ruleset_view(&self) -> SeatRuleView {
        self.ruleset_view
    }
    fn observation(&self) -> Observation {
        self.clone()
    }
}

/// A decision maker for one seat.
///
/// Implementations must return one of `view.legal()` (never empty when `act` is called)
/// and must depend only on the view and on their own state, which [`Policy::begin_hand`]
/// resets from a seed: then a hand's play is a function of its seeds.
pub trait Policy: Send + Sync {
    /// A short name (`random`, `efficiency`).
    fn name(&self) -> &'static str;
    /// Starts a hand: reseeds the policy's random choices from `seed`.
    fn begin_hand(&mut self, seed: u64);
    /// Picks one of `view.legal()`.
    fn act(&mut self, view: &dyn TableView) -> Action;
    /// [`Policy::act`] on `round` as `seat` sees it ([`RoundView`]): the same choice. A
    /// policy that reads the round directly answers without the view's indirection.
    #[inline]
    fn act_on(&mut self, round: &Round, seat: u8) -> Action {
        self.act(&RoundView { round, seat })
    }
    /// A copy of this policy in its current state (for search and for per-thread copies).
    fn boxed_clone(&self) -> Box<dyn Policy>;
    /// True when [`Policy::act`] reads the legal actions only through
    /// [`TableView::legal_uniform`], never as a whole: a table
    /// of such policies lets the round leave a turn's discards unlisted
    /// ([`Round::set_defer_discards`]).
    fn reads_legal_by_position(&self) -> bool {
        false
    }
    /// True when [`Policy::act`] reads a turn's legal actions only through
    /// [`TableView::legal_kinds`], never as a whole: like
    /// [`Policy::reads_legal_by_position`], a table of such policies lets the round leave
    /// a turn's discards unlisted.
    fn reads_turn_discards_as_kinds(&self) -> bool {
        false
    }
    /// The choice [`Policy::act`] makes, with the reasons: the strong family explains
    /// ([`StrongPolicy::explain`]); the other policies fail with
    /// [`MjError::InvalidArgument`].
    fn explain(
        &mut self,
        view: &dyn TableView,
    ) -> MjResult<(Action, strong::explain::Explanation)> {
        let _ = view;
        Err(MjError::argument(format!(
            "the {} policy does not explain its choices (the strong family does)",
            self.name()
        )))
    }
}

impl Clone for Box<dyn Policy> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// The built-in policies by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PolicyKind {
    /// [`RandomPolicy`].
    Random,
    /// [`EfficiencyPolicy`].
    Efficiency,
    /// [`StrongPolicy`] in its default configuration: fan plans, defense and the
    /// lookahead to scoring ready hands, no search.
    Strong,
    /// [`StrongPolicy`] without lookahead or search: fan plans, ready-wait checks and
    /// defense.
    StrongLite,
    /// [`StrongPolicy`] with the lookahead and the search at the default budget
    /// ([`strong::DEFAULT_BUDGET_MS`] worth of rollouts, no wall-clock cap).
    StrongSearch,
    /// The strongest built-in play ([`expert`]): in `gb` and `classic` [`StrongPolicy`]
    /// valuing close hands by the expected points of winning ([`StrongConfig::expert`]), in
    /// `huainan` [`HuainanStrongPolicy`].
    Expert,
    /// The shipped model bot ([`model::ModelPolicy`]): a small network scoring
    /// each legal action from the oracle's features of the position after it.
    Model,
}

impl PolicyKind {
    /// Every built-in policy, in name order.
    pub const ALL: [PolicyKind; 7] = [
        PolicyKind::Random,
        PolicyKind::Efficiency,
        PolicyKind::Strong,
        PolicyKind::StrongLite,
        PolicyKind::StrongSearch,
        PolicyKind::Expert,
        PolicyKind::Model,
    ];

    /// `random`, `efficiency`, `strong`, `strong_lite`, `strong_search`, `expert` or
    /// `model`.
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Efficiency => "efficiency",
            PolicyKind::Strong => "strong",
            PolicyKind::StrongLite => "strong_lite",
            PolicyKind::StrongSearch => "strong_search",
            PolicyKind::Expert => "expert",
            PolicyKind::Model => "model",
        }
    }

    /// Parses a policy name.
    pub fn parse(s: &str) -> MjResult<PolicyKind> {
        PolicyKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = PolicyKind::ALL.iter().map(|k| k.as_str()).collect();
                MjError::rule(format!(
                    "unknown bot {s:?} (built-in bots: {})",
                    names.join(", ")
                ))
            })
    }

    /// A fresh policy of this kind for `rules`.
    pub fn build(self, rules: &Rules) -> Box<dyn Policy> {
        self.build_seeded(rules, 0)
    }

    /// A fresh policy of this kind for `rules`, seeded with `seed`.
    pub fn build_seeded(self, rules: &Rules, seed: u64) -> Box<dyn Policy> {
        match self {
            PolicyKind::Random => Box::new(RandomPolicy::new(seed)),
            PolicyKind::Efficiency => Box::new(EfficiencyPolicy::new(rules, seed)),
            PolicyKind::Strong => Box::new(StrongPolicy::new(rules, seed, StrongConfig::default())),
            PolicyKind::StrongLite => {
                Box::new(StrongPolicy::new(rules, seed, StrongConfig::lite()))
            }
            PolicyKind::StrongSearch => Box::new(StrongPolicy::new(
                rules,
                seed,
                StrongConfig::from_budget_ms(strong::DEFAULT_BUDGET_MS, false),
            )),
            PolicyKind::Expert => expert(rules, seed),
            PolicyKind::Model => Box::new(model::ModelPolicy::new(rules, seed)),
        }
    }
}

/// The `expert` policy for `rules`, seeded with `seed`, by the rule set's engine:
/// [`StrongPolicy`] with [`StrongConfig::expert`] for fan-priced hands (its plans are the
/// fan catalog's), [`HuainanStrongPolicy`] for wild 宝 hands.
pub fn expert(rules: &Rules, seed: u64) -> Box<dyn Policy> {
    match rules.kind.engine {
        Engine::Fans => Box::new(StrongPolicy::new(rules, seed, StrongConfig::expert())),
        Engine::Huainan => Box::new(HuainanStrongPolicy::new(rules, seed)),
    }
}

/// True when `rules` are played with wild 宝 tiles, which the fan-plan policies do not
/// understand (they hand such hands to the wild-aware play of [`huainan`]).
pub(crate) fn plays_wilds(rules: &Rules) -> bool {
    match rules.kind.engine {
        Engine::Fans => false,
        Engine::Huainan => true,
    }
}

/// Plays `round` to its end, asking `policies[s]` for every decision of seat `s`.
/// Returns the number of decisions made. Fails only if a policy returns an action the
/// round refuses (the round is then left where it stopped).
pub fn play_out(round: &mut Round, policies: &mut [Box<dyn Policy>; 4]) -> MjResult<u32> {
    let mut n = 0u32;
    loop {
        let pending = round.pending();
        if pending == 0 {
            return Ok(n);
        }
        let seat = pending.trailing_zeros() as u8;
        let action = policies[seat as usize].act_on(round, seat);
        round.apply_inline(seat, action)?;
        n += 1;
    }
}

/// What a new meld leaves a seat: the concealed tiles without the ones the meld takes
/// from the hand, and the melds with the new one (at most four kept).
#[derive(Debug, Clone, Copy)]
pub(crate) struct AfterMeld {
    /// The new meld.
    pub meld: Meld,
    /// Concealed tiles after the meld.
    pub hand: Counts,
    melds: [Meld; 4],
    n_melds: usize,
}

impl AfterMeld {
    /// The result of `action` (a chow, pung or kong of the discard `tile`) for a seat
    /// holding `hand` and `melds`, as the round applies it ([`Claim`]); `None` for any
    /// other action.
    pub(crate) fn of_claim(
        action: Action,
        tile: Tile,
        hand: &Counts,
        melds: &[Meld],
    ) -> Option<AfterMeld> {
        let claim = Claim::of(action, tile)?;
        let mut h = *hand;
        claim.take_from(&mut h);
        Some(Self::with(claim.meld, h, melds))
    }

    /// The result of declaring a concealed kong of `t` from `hand` beside `melds`.
    pub(crate) fn of_concealed_kong(t: Tile, hand: &Counts, melds: &[Meld]) -> AfterMeld {
        let mut h = *hand;
        h[t as usize] = h[t as usize].saturating_sub(4);
        Self::with(
            Meld {
                kind: MeldKind::ConcealedKong,
                tile: t,
            },
            h,
            melds,
        )
    }

    fn with(meld: Meld, hand: Counts, melds: &[Meld]) -> AfterMeld {
        let k = melds.len().min(3);
        let mut all = [Meld {
            kind: MeldKind::Chow,
            tile: 0,
        }; 4];
        all[..k].copy_from_slice(&melds[..k]);
        all[k] = meld;
        AfterMeld {
            meld,
            hand,
            melds: all,
            n_melds: k + 1,
        }
    }

    /// The melds after the new one.
    pub(crate) fn melds(&self) -> &[Meld] {
        &self.melds[..self.n_melds]
    }
}

/// Builders for hand-made test positions shared by the policies' tests.
#[cfg(test)]
pub(crate) mod positions {
    use crate::hand::{Meld, MeldKind};
    use crate::round::{Action, ActionList, DiscardEntry, Observation, Phase, Round};
    use crate::rules::Rules;
    use crate::tile::{self, Counts, Tile};

    /// Counts of MPSZ text.
    pub fn counts(s: &str) -> Counts {
        tile::to_counts(&tile::parse(s).unwrap()).unwrap()
    }

    /// Seat 0's view of a fresh gb hand holding `hand`, nothing else on the table, with
    /// `legal` as its choices; `claim` = (discarder, tile) puts a discard under claim.
    pub fn view(hand: &str, legal: &[Action], claim: Option<(u8, Tile)>) -> Observation {
        let round = Round::new(&Rules::gb(), 1, 0, 0).unwrap();
        let mut o = round.observe(0);
        o.hand = counts(hand);
        o.visible = [0; 34];
        o.n_discards = 0;
        o.n_melds = [0; 4];
        o.claim = claim;
        o.turn = claim.map(|c| c.0).unwrap_or(0);
        o.drawn = None;
        o.phase = if claim.is_some() {
            Phase::Claim
        } else {
            Phase::Turn
        };
        let mut l = ActionList::default();
        for &a in legal {
            l.push(a);
        }
        o.legal = l;
        o
    }

    /// Every discard of `hand`.
    pub fn discards(hand: &str) -> Vec<Action> {
        let c = counts(hand);
        (0..34u8)
            .filter(|&t| c[t as usize] > 0)
            .map(Action::Discard)
            .collect()
    }

    /// A hopeless hand (`159m1359s1234z7z5p`, the lone dot being what an efficiency bot
    /// throws) facing seat 1, which shows three pungs of dots and has discarded for a
    /// long time (long rows of characters, bamboos and honors, no dots), 30 tiles left.
    pub fn facing_a_dot_flush() -> Observation {
        let h = "159m1359s1234z7z5p";
        let mut o = view(h, &discards(h), None);
        o.n_melds[1] = 3;
        for (i, x) in ["2p", "6p", "9p"].iter().enumerate() {
            let t = tile::parse(x).unwrap()[0];
            o.melds[1][i] = Meld {
                kind: MeldKind::Pung,
                tile: t,
            };
            o.visible[t as usize] += 3;
        }
        o.hand_sizes[1] = 4;
        let rows = [
            "2m", "3m", "4m", "6m", "7m", "8m", "2s", "4s", "6s", "7s", "8s", "5z",
        ];
        let mut n = 0;
        for s in 1..4u8 {
            for x in rows {
                let t = tile::parse(x).unwrap()[0];
                o.discards[n] = DiscardEntry {
                    seat: s,
                    tile: t,
                    claimed: false,
                    ready: false,
                };
                o.visible[t as usize] += 1;
                n += 1;
            }
        }
        o.n_discards = n as u8;
        o.wall_remaining = 30;
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_fail() {
        for k in PolicyKind::ALL {
            assert_eq!(PolicyKind::parse(k.as_str()).unwrap(), k);
        }
        let e = PolicyKind::parse("strongest").unwrap_err();
        assert!(e.message().contains("strongest") && e.message().contains("efficiency"));
    }

    #[test]
    fn round_view_hides_other_concealed_kongs_and_matches_observation() {
        let rules = Rules::gb();
        let mut round = Round::new(&rules, 11, 0, 0).unwrap();
        let mut pols: [Box<dyn Policy>; 4] =
            std::array::from_fn(|_| PolicyKind::Random.build(&rules));
        for (i, p) in pols.iter_mut().enumerate() {
            p.begin_hand(i as u64);
        }
        // Step a few decisions and compare both views at every step.
        for _ in 0..40 {
            let pending = round.pending();
            if pending == 0 {
                break;
            }
            let seat = pending.trailing_zeros() as u8;
            let v = RoundView {
                round: &round,
                seat,
            };
            let o = round.observe(seat);
            assert_eq!(v.hand(), TableView::hand(&o));
            assert_eq!(v.legal(), TableView::legal(&o));
            assert_eq!(v.visible(), TableView::visible(&o));
            assert_eq!(v.claim(), TableView::claim(&o));
            assert_eq!(v.drawn(), TableView::drawn(&o));
            assert_eq!(v.wall_remaining(), TableView::wall_remaining(&o));
            for s in 0..4 {
                assert_eq!(v.melds(s), TableView::melds(&o, s));
            }
            let a = pols[seat as usize].act(&v);
            round.apply(seat, a).unwrap();
        }
    }
}
