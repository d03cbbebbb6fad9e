//! Tables with one learning seat against three built-in policies, or four learning seats
//! in self-play ([`EnvTable`]), and [`VecEnv`], N of them stepped together across threads.
//!
//! # Self-play
//!
//! With [`EnvSpec::selfplay`] every seat is a learner: a step applies one action, for the
//! seat that acts at the table, and the table then waits for the next seat to act (the
//! acting seat, [`EnvTable::acting`]). Where several seats must answer at once (a claim
//! window: the seats that may claim a discard, or rob a kong), they are asked one at a
//! time, lowest seat number first, as the PettingZoo AEC env asks them; the round keeps
//! each answer and resolves the window once all are in, as it does when actions arrive
//! one by one. Each seat's planes are kept by its own [`Encoder`], brought up to date at
//! that seat's decisions. The reward of a step is then every seat's score change from the
//! hands that ended during the step (four values).
//!
//! # Episodes, rewards and seeds
//!
//! A table plays matches ([`Match`]: dealer rotation, winds and scores as in a game).
//! With [`Episode::Hand`] an episode is one hand: the next episode is the next hand of the
//! same match (a new match once it is over). With [`Episode::Match`] an episode is a whole
//! match. Either way the reward of a step is the learning seat's score change of every
//! hand that ended during the step (0 on steps inside a hand), so the rewards of a match
//! add up to the seat's final score.
//!
//! A hand in which the learning seat has no decision at all (it ends before the seat's
//! first turn or claim) is played through by the table, and its score change is added to
//! the reward of the next step taken (in [`Episode::Match`]) or dropped at an episode
//! boundary; under every rule set that is a hand won on the deal or on the very first
//! discards, rare enough not to matter.
//!
//! Table `i` of a [`VecEnv`] reset with seed `S` plays matches seeded
//! `derive_seed(derive_seed(S, i), k)` for its `k`-th match; the opponents are reseeded
//! every hand from the hand's wall seed ([`crate::seed::policy_seed`]). A table's play is
//! a function of its seed and the learner's actions alone, so results do not depend on
//! the number of threads.

use super::encode::{self, Encoder, N_ACTIONS, N_COLS, OBS_LEN};
use super::features::{
    self, Analysis, AnalysisCache, Candidates, History, MAX_CANDIDATES, MAX_TOKENS, N_FEATURES,
    N_GB_PLANES, N_ORACLE_PLANES,
};
use crate::error::{MjError, MjResult};
use crate::policy::{Policy, PolicyKind, RoundView};
use crate::round::{Action, Match, Round};
use crate::rules::Rules;
use crate::seed::policy_seed;
use crate::wall::{derive_seed, Rng};
use rayon::prelude::*;
use std::sync::{Mutex, PoisonError};

/// What an episode is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Episode {
    /// One hand.
    Hand,
    /// One match (the rule set's `hands_per_match`, or the spec's `hands`).
    Match,
}

impl Episode {
    /// Parses `hand` or `match`.
    pub fn parse(s: &str) -> MjResult<Episode> {
        match s {
            "hand" => Ok(Episode::Hand),
            "match" => Ok(Episode::Match),
            _ => Err(MjError::rule(format!(
                "episode must be \"hand\" or \"match\", got {s:?}"
            ))),
        }
    }
}

/// How a table is set up.
#[derive(Debug, Clone)]
pub struct EnvSpec {
    /// The rules.
    pub rules: Rules,
    /// The learning seat, 0-3 (ignored in self-play).
    pub seat: u8,
    /// The policies of the other seats, counter-clockwise from the learning seat (unused
    /// in self-play).
    pub opponents: [PolicyKind; 3],
    /// Self-play: all four seats learn, each step one decision of the seat acting.
    pub selfplay: bool,
    /// What an episode is.
    pub episode: Episode,
    /// Hands per match (`None`: the rule set's `hands_per_match`).
    pub hands: Option<u16>,
    /// Keep every finished hand with its events ([`EnvTable::take_finished`]), for
    /// match records.
    pub record: bool,
    /// A policy whose choice for the learning seat (in self-play: the acting seat) can be
    /// read at every step ([`EnvTable::expert_action`]), for imitation.
    pub expert: Option<PolicyKind>,
    /// Encoding v2: the GB planes ([`features::gb_planes`]) follow the v1 planes in
    /// every row of `obs` ([`EnvSpec::obs_len`] bytes).
    pub gb: bool,
    /// Keep each hand's action history ([`VecEnv::write_tokens`]).
    pub history: bool,
}

impl EnvSpec {
    /// Bytes of one row of planes: [`OBS_LEN`], plus the GB planes with [`EnvSpec::gb`].
    pub fn obs_len(&self) -> usize {
        OBS_LEN + if self.gb { N_GB_PLANES * N_COLS } else { 0 }
    }

    /// Checks the spec: a seat 0-3 and a match length the rules accept.
    pub fn check(&self) -> MjResult<()> {
        if self.seat > 3 {
            return Err(MjError::rule(format!(
                "seat {} is not a seat (0-3)",
                self.seat
            )));
        }
        Match::new(&self.rules, 0, self.hands).map(|_| ())
    }

    /// The learning seats as a bit set (bit `s` for seat `s`).
    fn learners(&self) -> u8 {
        if self.selfplay {
            0b1111
        } else {
            1 << self.seat
        }
    }

    /// Reward values per table: 4 in self-play (one per seat), else 1.
    pub fn reward_width(&self) -> usize {
        if self.selfplay {
            4
        } else {
            1
        }
    }
}

/// A hand that ended, kept when the spec records.
#[derive(Debug, Clone)]
pub struct FinishedHand {
    /// The match seed.
    pub match_seed: u64,
    /// The hand's index in its match.
    pub index: u16,
    /// The hand's wall seed.
    pub seed: u64,
    /// Scores before the hand.
    pub scores_before: [i32; 4],
    /// Scores after the hand.
    pub scores_after: [i32; 4],
    /// The finished round, with its events and result.
    pub round: Round,
}

/// One table: a match in play, the three opponents and the learning seat's place (or, in
/// self-play, four learning seats).
pub struct EnvTable {
    spec: EnvSpec,
    seed: u64,
    matches: u64,
    game: Match,
    round: Round,
    hand_index: u16,
    hand_seed: u64,
    scores_before: [i32; 4],
    /// Seat order: a learning seat's slot holds the expert (or an unused policy).
    policies: [Box<dyn Policy>; 4],
    finished: Vec<FinishedHand>,
    /// Every seat's score change not yet handed out as a reward.
    carried: [f32; 4],
    /// The learning seats (bit `s` for seat `s`).
    learners: u8,
    /// The learning seat that must decide now.
    acting: u8,
    /// The learning seats' planes (one encoder, or one per seat in self-play), each
    /// brought up to date at its seat's decisions.
    encoders: Vec<Encoder>,
    /// Decisions played at the table, every seat's (see [`EnvTable::decisions`]).
    decisions: u64,
    /// The hand's action history (kept with [`EnvSpec::history`]).
    history: History,
    /// What the GB planes keep from one decision to the next within a hand.
    analyses: AnalysisCache,
}

impl EnvTable {
    /// A table seeded `seed`, at the learning seat's first decision.
    pub fn new(spec: &EnvSpec, seed: u64) -> MjResult<EnvTable> {
        spec.check()?;
        let game = Match::new(&spec.rules, derive_seed(seed, 0), spec.hands)?;
        let mut round = Round::new(
            &spec.rules,
            game.hand_seed(),
            game.dealer(),
            game.prevalent_wind(),
        )?;
        round.set_record_events(spec.record);
        let policies = std::array::from_fn(|s| {
            let k = (s as u8 + 4 - spec.seat) % 4;
            if spec.selfplay || k == 0 {
                spec.expert.unwrap_or(PolicyKind::Random).build(&spec.rules)
            } else {
                spec.opponents[k as usize - 1].build(&spec.rules)
            }
        });
        let mut t = EnvTable {
            spec: spec.clone(),
            seed,
            matches: 0,
            game,
            round,
            hand_index: 0,
            hand_seed: 0,
            scores_before: [0; 4],
            policies,
            finished: Vec::new(),
            carried: [0.0; 4],
            learners: spec.learners(),
            acting: spec.seat,
            encoders: vec![Encoder::new(); spec.reward_width()],
            decisions: 0,
            history: History::default(),
            analyses: AnalysisCache::default(),
        };
        t.reset(seed)?;
        Ok(t)
    }

    /// Starts afresh from `seed` (match 0 of that seed), at the learning seat's first
    /// decision.
    pub fn reset(&mut self, seed: u64) -> MjResult<()> {
        self.seed = seed;
        self.matches = 0;
        self.game = Match::new(&self.spec.rules, derive_seed(seed, 0), self.spec.hands)?;
        self.finished.clear();
        self.carried = [0.0; 4];
        self.deal()?;
        self.settle_start()
    }

    /// After a deal: on to the learning seat's first decision, past episodes in which it
    /// has none.
    fn settle_start(&mut self) -> MjResult<()> {
        let (r, done) = self.advance()?;
        if done {
            return self.next_episode();
        }
        self.carried = r;
        Ok(())
    }

    fn deal(&mut self) -> MjResult<()> {
        if self.game.is_over() {
            self.matches += 1;
            self.game = Match::new(
                &self.spec.rules,
                derive_seed(self.seed, self.matches),
                self.spec.hands,
            )?;
        }
        let ws = self.game.hand_seed();
        self.hand_index = self.game.hand_index();
        self.hand_seed = ws;
        self.scores_before = self.game.scores();
        self.round
            .reset(ws, self.game.dealer(), self.game.prevalent_wind())?;
        self.round.set_scores(self.scores_before);
        for e in &mut self.encoders {
            e.invalidate();
        }
        self.history.clear();
        self.analyses.clear();
        for (s, p) in self.policies.iter_mut().enumerate() {
            p.begin_hand(policy_seed(ws, s as u8));
        }
        Ok(())
    }

    /// Plays the opponents until a learning seat must decide (the lowest such seat is then
    /// [`EnvTable::acting`]) or an episode ends; returns every seat's score change gathered
    /// and whether an episode ended (the round is then over).
    fn advance(&mut self) -> MjResult<([f32; 4], bool)> {
        let mut reward = std::mem::take(&mut self.carried);
        loop {
            let pending = self.round.pending();
            let mine = pending & self.learners;
            if mine != 0 {
                self.acting = mine.trailing_zeros() as u8;
                return Ok((reward, false));
            }
            if pending == 0 {
                let Some(result) = self.round.result() else {
                    return Err(MjError::rule("a hand stopped with no seat to decide"));
                };
                for (r, &d) in reward.iter_mut().zip(&result.deltas) {
                    *r += d as f32;
                }
                self.game.finish_hand(result)?;
                if self.spec.record {
                    self.finished.push(FinishedHand {
                        match_seed: self.game.seed(),
                        index: self.hand_index,
                        seed: self.hand_seed,
                        scores_before: self.scores_before,
                        scores_after: self.game.scores(),
                        round: self.round.clone(),
                    });
                }
                if self.spec.episode == Episode::Hand || self.game.is_over() {
                    return Ok((reward, true));
                }
                self.deal()?;
                continue;
            }
            let seat = pending.trailing_zeros() as u8;
            let a = self.policies[seat as usize].act_on(&self.round, seat);
            if self.spec.history {
                self.history.record(&self.round, seat, a);
            }
            self.round.apply(seat, a)?;
            if self.spec.history {
                self.history.settle(&self.round);
            }
            self.decisions += 1;
        }
    }

    /// Starts the next episode after one ended, at the learning seat's first decision.
    /// Hands in which the seat has no decision are played through; in
    /// [`Episode::Match`] their score changes join the next step's reward.
    pub fn next_episode(&mut self) -> MjResult<()> {
        loop {
            self.deal()?;
            let (r, done) = self.advance()?;
            if !done {
                self.carried = r;
                return Ok(());
            }
        }
    }

    /// The learning seat that must decide now (the learning seat itself outside self-play).
    pub fn acting(&self) -> u8 {
        self.acting
    }

    /// The rewards of a step from every seat's score change: the learning seat's, or all
    /// four in self-play, written to `out` (of [`EnvSpec::reward_width`] values).
    fn reward_out(&self, r: &[f32; 4], out: &mut [f32]) {
        if self.spec.selfplay {
            out.copy_from_slice(r);
        } else {
            out[0] = r[self.spec.seat as usize];
        }
    }

    /// The action at `index` if it is legal for the acting seat now.
    pub fn legal_action(&self, index: i64) -> MjResult<Action> {
        let a = usize::try_from(index)
            .ok()
            .and_then(encode::index_action)
            .ok_or_else(|| {
                MjError::action(format!(
                    "action index {index} is outside the action space (0-{})",
                    N_ACTIONS - 1
                ))
            })?;
        if !self.round.legal_actions(self.acting).contains(&a) {
            return Err(MjError::action(format!(
                "{} (index {index}) is not legal for seat {} now",
                a.describe(),
                self.acting
            )));
        }
        Ok(a)
    }

    /// Applies the acting seat's action `index` and plays on until a learning seat must
    /// decide or the episode ends; returns every seat's score change from the hands that
    /// ended and whether the episode ended. An illegal index fails and changes nothing.
    pub fn step(&mut self, index: i64) -> MjResult<([f32; 4], bool)> {
        let a = self.legal_action(index)?;
        self.play(a)
    }

    /// [`EnvTable::step`] with an action already checked by [`EnvTable::legal_action`].
    fn play(&mut self, a: Action) -> MjResult<([f32; 4], bool)> {
        if self.spec.history {
            self.history.record(&self.round, self.acting, a);
        }
        self.round.apply(self.acting, a)?;
        if self.spec.history {
            self.history.settle(&self.round);
        }
        self.decisions += 1;
        self.advance()
    }

    /// Writes the acting seat's planes (from what its [`Encoder`] kept of its last
    /// decision) and action mask.
    pub fn write(&mut self, obs: &mut [u8], mask: &mut [u8]) -> MjResult<()> {
        let o = self.round.observe(self.acting);
        let e = if self.spec.selfplay {
            self.acting as usize
        } else {
            0
        };
        if obs.len() != self.spec.obs_len() {
            return Err(MjError::rule(format!(
                "a row of planes takes {} bytes, got {}",
                self.spec.obs_len(),
                obs.len()
            )));
        }
        let (v1, gb) = obs.split_at_mut(OBS_LEN);
        self.encoders[e].update(&o, v1)?;
        if self.spec.gb {
            let view = RoundView {
                round: &self.round,
                seat: self.acting,
            };
            let a = self.analyses.analysis(&view, self.spec.rules.fan.min_fan);
            features::gb_planes(&a, self.acting, gb);
        }
        encode::legal_mask(o.legal.as_slice(), mask)
    }

    /// Writes the acting seat's legal actions and their features ([`features::candidates`]).
    pub fn write_candidates(&self, out: &mut Candidates) {
        let view = RoundView {
            round: &self.round,
            seat: self.acting,
        };
        let min_fan = self.spec.rules.fan.min_fan;
        let a = Analysis::new(&view, min_fan, true);
        features::candidates(&view, &a, min_fan, out);
    }

    /// Writes the acting seat's oracle view ([`features::oracle_planes`]).
    pub fn write_oracle(&self, out: &mut [u8]) {
        features::oracle_planes(&self.round, self.acting, out);
    }

    /// Writes the hand's action history as the acting seat sees it ([`History::write`];
    /// all padding unless the spec keeps the history).
    pub fn write_tokens(&self, out: &mut [u8]) {
        self.history.write(self.acting, out);
    }

    /// A uniformly random legal action index for the acting seat, drawn from `rng`
    /// (uniform over the distinct legal actions: the ones its mask flags), or -1 when the
    /// seat has nothing to decide (an episode over, without autoreset).
    pub fn sample_legal(&self, rng: &mut Rng) -> i64 {
        let legal = self.round.legal_actions(self.acting);
        if legal.is_empty() {
            return -1;
        }
        loop {
            // An action listed twice counts at its first place only.
            let i = rng.below(legal.len() as u64) as usize;
            if !legal[..i].contains(&legal[i]) {
                return encode::action_index(legal[i]).map_or(-1, |x| x as i64);
            }
        }
    }

    /// What the spec's expert policy would play for the acting seat now (its index), or -1
    /// when the seat has nothing to decide or the spec has no expert.
    pub fn expert_action(&mut self) -> i64 {
        let me = self.acting;
        if self.spec.expert.is_none() || self.round.pending() >> me & 1 == 0 {
            return -1;
        }
        let a = self.policies[me as usize].act(&RoundView {
            round: &self.round,
            seat: me,
        });
        encode::action_index(a).map_or(-1, |i| i as i64)
    }

    /// Decisions played at this table since it was made, the learning seat's and the
    /// opponents' alike (one per action a seat took; a claim window asking three seats
    /// counts three). A measure of the play a step stands for.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// The round in play.
    pub fn round(&self) -> &Round {
        &self.round
    }

    /// The match in play.
    pub fn game(&self) -> &Match {
        &self.game
    }

    /// The hands finished since the last call (only when the spec records).
    pub fn take_finished(&mut self) -> Vec<FinishedHand> {
        std::mem::take(&mut self.finished)
    }
}

/// N tables stepped together on several threads.
///
/// A call splits the tables into runs of neighbours (a few runs per thread) and steps them
/// on the calling thread and, with more than one thread, on `threads - 1` pool workers,
/// each thread taking the next run until none is left: the calling thread works rather
/// than wait for the workers, and a worker that starts late (woken late, or preempted on
/// a busy machine) takes fewer runs.
///
/// Every call writes, per table, the acting seat's planes (`OBS_LEN` bytes) and mask
/// (`N_ACTIONS`) and the acting seat itself (`seat`, one byte); a step also writes the
/// rewards ([`EnvSpec::reward_width`] values per table: the learning seat's score change,
/// or in self-play every seat's) and the episode ends.
pub struct VecEnv {
    tables: Vec<EnvTable>,
    /// Reward values per table.
    width: usize,
    /// The workers that help the calling thread (none with one thread).
    pool: Option<rayon::ThreadPool>,
    /// Threads stepping the tables, the calling thread included.
    threads: usize,
    autoreset: bool,
    /// The actions of the step in progress, checked (kept to reuse the buffer); `None`
    /// for a table that starts its next episode instead.
    checked: Vec<Move>,
    /// Bytes of one row of planes ([`EnvSpec::obs_len`]).
    obs_len: usize,
}

impl VecEnv {
    /// `n` tables of `spec` seeded from `seed`, on `threads` threads (when `None`,
    /// [`crate::sim::default_threads`]: `RAYON_NUM_THREADS` or all cores). With `autoreset`, a table whose episode ends starts the next one in the
    /// same step (its planes are then the new episode's first).
    pub fn new(
        spec: &EnvSpec,
        n: usize,
        seed: u64,
        threads: Option<usize>,
        autoreset: bool,
    ) -> MjResult<VecEnv> {
        if n == 0 {
            return Err(MjError::rule("a VecEnv needs at least one table"));
        }
        spec.check()?;
        let threads = match threads.filter(|&t| t > 0) {
            Some(t) if t > crate::sim::MAX_THREADS => {
                return Err(MjError::rule(format!(
                    "threads must be between 1 and {}, got {t}",
                    crate::sim::MAX_THREADS
                )))
            }
            Some(t) => t,
            None => crate::sim::default_threads(),
        };
        let pool = match threads {
            1 => None,
            t => Some(crate::sim::pool(Some(t - 1))?),
        };
        let make = |i: usize| EnvTable::new(spec, derive_seed(seed, i as u64));
        let tables = match &pool {
            None => (0..n).map(make).collect::<MjResult<Vec<_>>>()?,
            Some(p) => p.install(|| {
                (0..n)
                    .into_par_iter()
                    .map(make)
                    .collect::<MjResult<Vec<_>>>()
            })?,
        };
        Ok(VecEnv {
            obs_len: spec.obs_len(),
            width: spec.reward_width(),
            checked: Vec::with_capacity(tables.len()),
            tables,
            pool,
            threads,
            autoreset,
        })
    }

    /// Number of tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Always false: a VecEnv has at least one table.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Threads stepping the tables, the calling thread included.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Decisions played at every table since the env was made (see
    /// [`EnvTable::decisions`]).
    pub fn decisions(&self) -> u64 {
        self.tables.iter().map(EnvTable::decisions).sum()
    }

    /// Tables per run: a few runs per thread, each of neighbouring tables (whose output
    /// rows are neighbours too) stepped one after another.
    fn chunk(&self) -> usize {
        self.tables.len().div_ceil(4 * self.threads()).max(1)
    }

    /// The tables.
    pub fn tables(&self) -> &[EnvTable] {
        &self.tables
    }

    /// One table, mutably (records, inspection).
    pub fn table_mut(&mut self, i: usize) -> Option<&mut EnvTable> {
        self.tables.get_mut(i)
    }

    fn check_len(what: &str, got: usize, want: usize) -> MjResult<()> {
        if got != want {
            return Err(MjError::rule(format!(
                "{what} takes {want} values, got {got}"
            )));
        }
        Ok(())
    }

    /// Checks the sizes of the planes, masks and acting-seat buffers of all tables.
    fn check_views(&self, obs: &[u8], mask: &[u8], seat: &[i8]) -> MjResult<()> {
        let n = self.tables.len();
        Self::check_len("obs", obs.len(), n * self.obs_len)?;
        Self::check_len("mask", mask.len(), n * N_ACTIONS)?;
        Self::check_len("seat", seat.len(), n)
    }

    /// Reward values per table ([`EnvSpec::reward_width`]).
    pub fn reward_width(&self) -> usize {
        self.width
    }

    /// Resets every table from `seed` and writes the first planes, masks and acting seats.
    pub fn reset(
        &mut self,
        seed: u64,
        obs: &mut [u8],
        mask: &mut [u8],
        seat: &mut [i8],
    ) -> MjResult<()> {
        self.check_views(obs, mask, seat)?;
        let c = self.chunk();
        let runs = self
            .tables
            .chunks_mut(c)
            .zip(obs.chunks_mut(c * self.obs_len))
            .zip(mask.chunks_mut(c * N_ACTIONS))
            .zip(seat.chunks_mut(c))
            .enumerate();
        share(self.pool.as_ref(), runs, |(k, (((t, o), m), s))| {
            reset_run(k * c, t, seed, o, m, s)
        })
    }

    /// Steps every table with its action index (for the table's acting seat) and writes
    /// the planes, masks, acting seats, rewards and episode ends in place. Every action is
    /// checked before any table moves: an illegal one fails the call and changes nothing.
    /// Without autoreset, a table whose episode has ended ignores its action and starts
    /// its next episode instead (reward 0, not done): gymnasium's next-step autoreset.
    /// The index [`STAY`] leaves its table as it is (reward 0, not done, its rows
    /// unchanged): the other tables move, as when only some tables' acting seats belong
    /// to the caller's policy.
    pub fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [u8],
        mask: &mut [u8],
        seat: &mut [i8],
        reward: &mut [f32],
        done: &mut [bool],
    ) -> MjResult<()> {
        let n = self.tables.len();
        let width = self.width;
        Self::check_len("actions", actions.len(), n)?;
        self.check_views(obs, mask, seat)?;
        Self::check_len("reward", reward.len(), n * width)?;
        Self::check_len("done", done.len(), n)?;
        self.checked.clear();
        for (i, (t, &a)) in self.tables.iter().zip(actions).enumerate() {
            if a == STAY {
                self.checked.push(Move::Stay);
                continue;
            }
            if !self.autoreset && t.round().is_over() {
                self.checked.push(Move::Restart);
                continue;
            }
            let a = t
                .legal_action(a)
                .map_err(|e| MjError::action(format!("table {i}: {e}")))?;
            self.checked.push(Move::Play(a));
        }
        let autoreset = self.autoreset;
        let c = self.chunk();
        let runs = self
            .tables
            .chunks_mut(c)
            .zip(self.checked.chunks(c))
            .zip(obs.chunks_mut(c * self.obs_len))
            .zip(mask.chunks_mut(c * N_ACTIONS))
            .zip(seat.chunks_mut(c))
            .zip(reward.chunks_mut(c * width).zip(done.chunks_mut(c)));
        share(
            self.pool.as_ref(),
            runs,
            |(((((t, a), obs), mask), seat), (reward, done))| {
                let out = Rows {
                    obs,
                    mask,
                    seat,
                    reward,
                    done,
                };
                step_run(t, a, out, autoreset)
            },
        )
    }

    /// Starts table `i`'s next episode (for a VecEnv without `autoreset`, once the
    /// table's episode has ended) and writes its planes and mask at its place in `obs` and
    /// `mask` and its acting seat in `seat` (the buffers of all tables).
    pub fn next_episode(
        &mut self,
        i: usize,
        obs: &mut [u8],
        mask: &mut [u8],
        seat: &mut [i8],
    ) -> MjResult<()> {
        let n = self.tables.len();
        self.check_views(obs, mask, seat)?;
        let t = self
            .tables
            .get_mut(i)
            .ok_or_else(|| MjError::argument(format!("table {i} is not a table (0-{})", n - 1)))?;
        if !t.round().is_over() {
            return Err(MjError::action(format!(
                "table {i} is in the middle of an episode"
            )));
        }
        t.next_episode()?;
        seat[i] = t.acting() as i8;
        t.write(
            &mut obs[i * self.obs_len..(i + 1) * self.obs_len],
            &mut mask[i * N_ACTIONS..(i + 1) * N_ACTIONS],
        )
    }

    /// Writes a uniformly random legal action index for each table's acting seat (see
    /// [`EnvTable::sample_legal`]): table `i` draws from a generator seeded
    /// `derive_seed(seed, i)`, so the choices depend on `seed` and the tables' states
    /// alone (not on the thread count).
    pub fn sample_legal(&self, seed: u64, out: &mut [i64]) -> MjResult<()> {
        Self::check_len("out", out.len(), self.tables.len())?;
        for (i, (t, o)) in self.tables.iter().zip(out.iter_mut()).enumerate() {
            *o = t.sample_legal(&mut Rng::new(derive_seed(seed, i as u64)));
        }
        Ok(())
    }

    /// Writes every table's candidate actions and their features: `index` holds
    /// [`MAX_CANDIDATES`] action indices per table (-1 past its candidates), `feats`
    /// [`MAX_CANDIDATES`] × [`N_FEATURES`] values (see [`features::candidates`]).
    pub fn write_candidates(&self, index: &mut [i16], feats: &mut [f32]) -> MjResult<()> {
        let n = self.tables.len();
        Self::check_len("index", index.len(), n * MAX_CANDIDATES)?;
        Self::check_len("features", feats.len(), n * MAX_CANDIDATES * N_FEATURES)?;
        let c = self.chunk();
        let runs = self
            .tables
            .chunks(c)
            .zip(index.chunks_mut(c * MAX_CANDIDATES))
            .zip(feats.chunks_mut(c * MAX_CANDIDATES * N_FEATURES));
        share(self.pool.as_ref(), runs, |((t, i), f)| {
            let mut cands = Box::<Candidates>::default();
            let rows = i
                .chunks_exact_mut(MAX_CANDIDATES)
                .zip(f.chunks_exact_mut(MAX_CANDIDATES * N_FEATURES));
            for (t, (i, f)) in t.iter().zip(rows) {
                t.write_candidates(&mut cands);
                features::candidate_indices(&cands, i);
                for (row, src) in f.chunks_exact_mut(N_FEATURES).zip(&cands.features) {
                    row.copy_from_slice(src);
                }
            }
            Ok(())
        })
    }

    /// Writes every table's oracle view ([`N_ORACLE_PLANES`] × 34 bytes per table, see
    /// [`features::oracle_planes`]).
    pub fn write_oracle(&self, out: &mut [u8]) -> MjResult<()> {
        const LEN: usize = N_ORACLE_PLANES * N_COLS;
        Self::check_len("oracle", out.len(), self.tables.len() * LEN)?;
        let c = self.chunk();
        let runs = self.tables.chunks(c).zip(out.chunks_mut(c * LEN));
        share(self.pool.as_ref(), runs, |(t, o)| {
            for (t, o) in t.iter().zip(o.chunks_exact_mut(LEN)) {
                t.write_oracle(o);
            }
            Ok(())
        })
    }

    /// Writes every table's action history ([`MAX_TOKENS`] × 4 bytes per table, see
    /// [`History::write`]).
    pub fn write_tokens(&self, out: &mut [u8]) -> MjResult<()> {
        const LEN: usize = MAX_TOKENS * 4;
        Self::check_len("tokens", out.len(), self.tables.len() * LEN)?;
        for (t, o) in self.tables.iter().zip(out.chunks_exact_mut(LEN)) {
            t.write_tokens(o);
        }
        Ok(())
    }

    /// Bytes of one row of planes ([`EnvSpec::obs_len`]).
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// Writes each table's expert choice (see [`EnvTable::expert_action`]).
    pub fn expert_actions(&mut self, out: &mut [i64]) -> MjResult<()> {
        Self::check_len("out", out.len(), self.tables.len())?;
        let c = self.chunk();
        let runs = self.tables.chunks_mut(c).zip(out.chunks_mut(c));
        share(self.pool.as_ref(), runs, |(t, o)| {
            for (t, o) in t.iter_mut().zip(o) {
                *o = t.expert_action();
            }
            Ok(())
        })
    }
}

/// Runs `f` on every item of `runs` (a run of neighbouring tables) on the calling thread
/// and, when there is a pool, on each of its workers too: each thread takes the next item
/// until none is left. The first error stops the handing out of items and is returned.
fn share<T: Send>(
    pool: Option<&rayon::ThreadPool>,
    mut runs: impl Iterator<Item = T> + Send,
    f: impl Fn(T) -> MjResult<()> + Sync,
) -> MjResult<()> {
    let Some(pool) = pool else {
        return runs.try_for_each(f);
    };
    let queue = Mutex::new(runs.fuse());
    let failed = Mutex::new(None);
    let work = || loop {
        if failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
        {
            return;
        }
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some(run) = next else {
            return;
        };
        if let Err(e) = f(run) {
            failed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
        }
    };
    pool.in_place_scope(|s| {
        for _ in 0..pool.current_num_threads() {
            s.spawn(|_| work());
        }
        work();
    });
    match failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The output rows of a run of neighbouring tables in one step.
struct Rows<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    seat: &'a mut [i8],
    reward: &'a mut [f32],
    done: &'a mut [bool],
}

/// Resets a run of neighbouring tables, the first of them table `first` of the env, and
/// writes their rows.
fn reset_run(
    first: usize,
    tables: &mut [EnvTable],
    seed: u64,
    obs: &mut [u8],
    mask: &mut [u8],
    seat: &mut [i8],
) -> MjResult<()> {
    let len = obs.len() / tables.len().max(1);
    let rows = obs
        .chunks_exact_mut(len)
        .zip(mask.chunks_exact_mut(N_ACTIONS));
    for (i, ((t, (o, m)), s)) in tables.iter_mut().zip(rows).zip(seat).enumerate() {
        t.reset(derive_seed(seed, (first + i) as u64))?;
        *s = t.acting() as i8;
        t.write(o, m)?;
    }
    Ok(())
}

/// The action index that leaves a table as it is in [`VecEnv::step`].
pub const STAY: i64 = -2;

/// What a table does in a step.
#[derive(Debug, Clone, Copy)]
enum Move {
    /// Its acting seat plays the action.
    Play(Action),
    /// Its episode ended without autoreset: it starts the next one.
    Restart,
    /// It stays as it is.
    Stay,
}

/// Steps a run of neighbouring tables with their checked actions and writes their rows.
fn step_run(
    tables: &mut [EnvTable],
    actions: &[Move],
    out: Rows<'_>,
    autoreset: bool,
) -> MjResult<()> {
    let width = out.reward.len() / tables.len().max(1);
    let len = out.obs.len() / tables.len().max(1);
    let rows = out
        .obs
        .chunks_exact_mut(len)
        .zip(out.mask.chunks_exact_mut(N_ACTIONS));
    let ends = out.reward.chunks_exact_mut(width).zip(out.done.iter_mut());
    for (((t, &a), (o, m)), (s, (r, d))) in tables
        .iter_mut()
        .zip(actions)
        .zip(rows)
        .zip(out.seat.iter_mut().zip(ends))
    {
        let a = match a {
            Move::Play(a) => a,
            Move::Stay => {
                r.fill(0.0);
                *d = false;
                continue;
            }
            Move::Restart => {
                // A table whose episode ended (without autoreset) starts the next one.
                t.next_episode()?;
                r.fill(0.0);
                *d = false;
                *s = t.acting() as i8;
                t.write(o, m)?;
                continue;
            }
        };
        let (rew, end) = t.play(a)?;
        t.reward_out(&rew, r);
        *d = end;
        if end && autoreset {
            t.next_episode()?;
        }
        *s = t.acting() as i8;
        t.write(o, m)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: &str) -> EnvSpec {
        EnvSpec {
            rules: Rules::named(kind).unwrap(),
            seat: 1,
            opponents: [PolicyKind::Efficiency; 3],
            selfplay: false,
            episode: Episode::Hand,
            hands: Some(4),
            record: false,
            expert: Some(PolicyKind::Efficiency),
            gb: false,
            history: false,
        }
    }

    /// Plays `steps` steps of `n` tables with the expert's actions; returns a digest of
    /// everything written.
    fn run(kind: &str, n: usize, threads: usize, steps: usize) -> (u64, f32, usize, u64) {
        run_spec(&spec(kind), n, threads, steps)
    }

    fn run_spec(s: &EnvSpec, n: usize, threads: usize, steps: usize) -> (u64, f32, usize, u64) {
        let mut env = VecEnv::new(s, n, 7, Some(threads), true).unwrap();
        let mut obs = vec![0u8; n * OBS_LEN];
        let mut mask = vec![0u8; n * N_ACTIONS];
        let mut seat = vec![0i8; n];
        let mut rew = vec![0f32; n * s.reward_width()];
        let mut done = vec![false; n];
        let mut acts = vec![0i64; n];
        env.reset(3, &mut obs, &mut mask, &mut seat).unwrap();
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut total = 0.0;
        let mut ends = 0;
        for _ in 0..steps {
            env.expert_actions(&mut acts).unwrap();
            for (i, a) in acts.iter().enumerate() {
                assert_eq!(mask[i * N_ACTIONS + *a as usize], 1);
            }
            env.step(&acts, &mut obs, &mut mask, &mut seat, &mut rew, &mut done)
                .unwrap();
            let seats = seat.iter().map(|&s| s as u8);
            for b in obs.iter().chain(&mask).copied().chain(seats) {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
            for r in &rew {
                h = (h ^ r.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
            }
            total += rew.iter().sum::<f32>();
            ends += done.iter().filter(|&&d| d).count();
        }
        (h, total, ends, env.decisions())
    }

    #[test]
    fn the_thread_count_changes_nothing() {
        for kind in ["gb", "huainan"] {
            let one = run(kind, 6, 1, 60);
            assert!(one.2 > 0, "some episode ended");
            assert!(one.3 > 6 * 60, "opponents decided too");
            assert_eq!(one, run(kind, 6, 2, 60));
        }
        // Runs of three tables (two of them with three threads), the last one short.
        let one = run("gb", 23, 1, 40);
        assert_eq!(one, run("gb", 23, 2, 40));
        assert_eq!(one, run("gb", 23, 3, 40));
    }

    /// `sample_legal` draws only legal indices, the same ones for the same seed, every
    /// distinct legal action about equally often, and -1 for a seat with nothing to decide.
    #[test]
    fn sample_legal_is_a_uniform_legal_choice() {
        let s = selfplay("gb", PolicyKind::Random);
        let n = 4;
        let mut env = VecEnv::new(&s, n, 2, Some(2), true).unwrap();
        let (mut obs, mut mask, mut seat) = (
            vec![0u8; n * OBS_LEN],
            vec![0u8; n * N_ACTIONS],
            vec![0i8; n],
        );
        let (mut rew, mut done) = (vec![0f32; 4 * n], vec![false; n]);
        let (mut acts, mut again) = (vec![0i64; n], vec![0i64; n]);
        env.reset(5, &mut obs, &mut mask, &mut seat).unwrap();
        let mut wide = None;
        for step in 0..400 {
            env.sample_legal(step, &mut acts).unwrap();
            env.sample_legal(step, &mut again).unwrap();
            assert_eq!(acts, again);
            for (i, &a) in acts.iter().enumerate() {
                assert_eq!(mask[i * N_ACTIONS + a as usize], 1, "step {step} table {i}");
            }
            let legal = mask[..N_ACTIONS].iter().filter(|&&m| m == 1).count();
            if wide.is_none() && legal >= 5 {
                wide = Some((env.tables()[0].round().clone(), env.tables()[0].acting()));
            }
            env.step(&acts, &mut obs, &mut mask, &mut seat, &mut rew, &mut done)
                .unwrap();
        }
        // One table state with several legal actions, drawn from many times.
        let (round, acting) = wide.expect("a decision with five legal actions or more");
        let mut t = EnvTable::new(&s, 1).unwrap();
        t.round = round;
        t.acting = acting;
        let mut counts = [0u32; N_ACTIONS];
        let mut rng = Rng::new(9);
        let draws = 20_000;
        for _ in 0..draws {
            counts[t.sample_legal(&mut rng) as usize] += 1;
        }
        let mut want = vec![0u8; N_ACTIONS];
        encode::legal_mask(t.round.legal_actions(acting), &mut want).unwrap();
        let k = want.iter().filter(|&&m| m == 1).count() as f64;
        for (i, &c) in counts.iter().enumerate() {
            if want[i] == 0 {
                assert_eq!(c, 0, "index {i} is not legal");
            } else {
                let share = c as f64 / draws as f64 * k;
                assert!((0.85..1.15).contains(&share), "index {i}: {share}");
            }
        }
        // A table whose episode ended (no autoreset) has nothing to decide.
        let mut t = EnvTable::new(&s, 3).unwrap();
        while !t.step(t.sample_legal(&mut rng)).unwrap().1 {}
        assert_eq!(t.sample_legal(&mut rng), -1);
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let mut env = VecEnv::new(&spec("gb"), 2, 1, Some(1), true).unwrap();
        let mut obs = vec![0u8; 2 * OBS_LEN];
        let mut mask = vec![0u8; 2 * N_ACTIONS];
        let mut seat = vec![0i8; 2];
        env.reset(1, &mut obs, &mut mask, &mut seat).unwrap();
        let before = obs.clone();
        let legal = mask[..N_ACTIONS].iter().position(|&m| m == 1).unwrap() as i64;
        let illegal = mask[N_ACTIONS..].iter().position(|&m| m == 0).unwrap() as i64;
        let (mut r, mut d) = (vec![0f32; 2], vec![false; 2]);
        assert!(env
            .step(
                &[legal, illegal],
                &mut obs,
                &mut mask,
                &mut seat,
                &mut r,
                &mut d
            )
            .is_err());
        assert!(env
            .step(
                &[legal, 999],
                &mut obs,
                &mut mask,
                &mut seat,
                &mut r,
                &mut d
            )
            .is_err());
        assert_eq!(obs, before);
    }

    #[test]
    fn match_rewards_add_up_to_the_final_score() {
        let mut s = spec("gb");
        s.episode = Episode::Match;
        s.record = true;
        let mut t = EnvTable::new(&s, 11).unwrap();
        let mut total = 0.0;
        loop {
            let a = t.expert_action();
            let (r, done) = t.step(a).unwrap();
            total += r[1];
            if done {
                break;
            }
        }
        let hands = t.take_finished();
        assert_eq!(hands.len(), 4);
        let last = hands.last().unwrap();
        assert_eq!(total, last.scores_after[1] as f32);
        assert!(t.game().is_over());
    }

    fn selfplay(kind: &str, expert: PolicyKind) -> EnvSpec {
        EnvSpec {
            selfplay: true,
            expert: Some(expert),
            ..spec(kind)
        }
    }

    /// In self-play the acting seat is the lowest seat that must decide (claim windows ask
    /// their seats one at a time), its planes are byte for byte a fresh encoding of its
    /// observation and its mask is its legal actions, at every step of many hands of every
    /// rule set; the rewards of a match add up to every seat's final score.
    #[test]
    fn selfplay_steps_the_acting_seat_with_its_own_planes() {
        for kind in ["gb", "classic", "huainan"] {
            let mut fresh = vec![0u8; OBS_LEN];
            let mut legal = vec![0u8; N_ACTIONS];
            let (mut obs, mut mask) = (vec![0u8; OBS_LEN], vec![0u8; N_ACTIONS]);
            let (mut steps, mut windows, mut seats) = (0, 0, [0; 4]);
            for (k, expert) in [PolicyKind::Random, PolicyKind::Efficiency]
                .into_iter()
                .enumerate()
            {
                let mut s = selfplay(kind, expert);
                s.episode = Episode::Match;
                s.record = true;
                for seed in 0..3 {
                    let mut t = EnvTable::new(&s, seed * 2 + k as u64).unwrap();
                    let mut total = [0f32; 4];
                    loop {
                        let pending = t.round().pending();
                        let me = t.acting();
                        assert_eq!(me as u32, pending.trailing_zeros(), "{kind:?}");
                        windows += (pending.count_ones() > 1) as usize;
                        seats[me as usize] += 1;
                        t.write(&mut obs, &mut mask).unwrap();
                        let o = t.round().observe(me);
                        encode::encode(&o, &mut fresh).unwrap();
                        assert!(obs == fresh, "{kind:?} seed {seed} step {steps}");
                        encode::legal_mask(t.round().legal_actions(me), &mut legal).unwrap();
                        assert_eq!(mask, legal);
                        let a = t.expert_action();
                        let (r, done) = t.step(a).unwrap();
                        steps += 1;
                        for (a, b) in total.iter_mut().zip(r) {
                            *a += b;
                        }
                        if done {
                            break;
                        }
                    }
                    let hands = t.take_finished();
                    assert_eq!(hands.len(), 4);
                    let last = hands.last().unwrap().scores_after.map(|x| x as f32);
                    assert_eq!(total, last, "{kind:?} seed {seed}");
                    assert_eq!(total.iter().sum::<f32>(), 0.0);
                }
            }
            assert!(steps > 1000, "{kind:?}: {steps} steps");
            assert!(windows > 5, "{kind:?}: {windows} claim windows");
            assert!(seats.iter().all(|&n| n > 100), "{kind:?}: {seats:?}");
        }
    }

    /// Self-play results depend on the seed alone (not the thread count), tables reset
    /// themselves as episodes end, and `reset` with the same seed plays the same again.
    #[test]
    fn selfplay_is_reproducible_on_any_thread_count() {
        for kind in ["gb", "classic"] {
            let s = selfplay(kind, PolicyKind::Efficiency);
            let one = run_spec(&s, 6, 1, 200);
            assert!(one.2 > 0, "some episode ended");
            assert_eq!(one.3, 6 * 200, "one decision per step");
            assert_eq!(one, run_spec(&s, 6, 2, 200));
            assert_ne!(one.0, run_spec(&spec(kind), 6, 1, 200).0);
        }
        let s = selfplay("huainan", PolicyKind::Random);
        let mut env = VecEnv::new(&s, 3, 5, Some(2), true).unwrap();
        let (mut obs, mut mask, mut seat) = (
            vec![0u8; 3 * OBS_LEN],
            vec![0u8; 3 * N_ACTIONS],
            vec![0i8; 3],
        );
        let (mut rew, mut done, mut acts) = (vec![0f32; 12], vec![false; 3], vec![0i64; 3]);
        let mut play = |env: &mut VecEnv| {
            env.reset(9, &mut obs, &mut mask, &mut seat).unwrap();
            let mut out = Vec::new();
            for _ in 0..150 {
                env.expert_actions(&mut acts).unwrap();
                env.step(&acts, &mut obs, &mut mask, &mut seat, &mut rew, &mut done)
                    .unwrap();
                out.extend(obs.iter().chain(&mask).copied());
                out.extend(seat.iter().map(|&s| s as u8));
                out.extend(rew.iter().flat_map(|r| r.to_le_bytes()));
            }
            out
        };
        let first = play(&mut env);
        assert_eq!(first, play(&mut env));
    }

    /// A table's step (the action applied, the play up to the next learning decision, the
    /// planes and mask written, a new hand dealt when one ends) allocates nothing of its
    /// own, in self-play and with one learner: the encoders, masks and rewards reuse their
    /// buffers. What allocations remain come from the round's win evaluation and settlement
    /// (a turned-down candidate win's message, a finished hand's result), on under 2% of
    /// the steps once the table has played its first hands.
    #[test]
    fn a_step_allocates_nothing() {
        // The counter sees this thread's allocations.
        let probe = allocation_counter::measure(|| {
            std::hint::black_box(vec![0u8; 8]);
        });
        assert_eq!(probe.count_total, 1);
        for kind in ["gb", "classic", "huainan"] {
            for mut s in [selfplay(kind, PolicyKind::Random), spec(kind)] {
                s.expert = Some(PolicyKind::Random);
                s.opponents = [PolicyKind::Random; 3];
                let mut t = EnvTable::new(&s, 5).unwrap();
                let (mut obs, mut mask) = (vec![0u8; OBS_LEN], vec![0u8; N_ACTIONS]);
                let (mut allocating, mut ends) = (0, 0);
                for step in 0..5000 {
                    let a = t.expert_action();
                    let info = allocation_counter::measure(|| {
                        let (_, done) = t.step(a).unwrap();
                        if done {
                            t.next_episode().unwrap();
                            ends += 1;
                        }
                        t.write(&mut obs, &mut mask).unwrap();
                    });
                    if step >= 500 && info.count_total > 0 {
                        allocating += 1;
                    }
                }
                assert!(ends > 10, "{kind:?}: {ends} episodes");
                assert!(
                    allocating <= 90,
                    "{kind:?} selfplay {}: {allocating} of 4500 steps allocated",
                    s.selfplay
                );
            }
        }
    }
}
