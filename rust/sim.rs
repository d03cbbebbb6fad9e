//! Parallel batch simulation of whole hands, and the duplicate arena on the same machinery.
//!
//! # Seeding (results do not depend on the thread count)
//!
//! Hand `i` of a run with seed `S` is a pure function of `(S, i)`:
//!
//! - its wall is shuffled from `derive_seed(S, i)` ([`hand_seed`]);
//! - its dealer is `i mod 4` and its prevalent wind `(i / 4) mod 4` ([`deal_of`]), the
//!   rotation of a gb match;
//! - the policy of seat `s` is reseeded with [`policy_seed`]`(derive_seed(S, i), s)` before
//!   the hand.
//!
//! Threads only decide which hands they play, never what happens in them, so the arrays
//! of a run are the same on 1 thread, on 2, or split into shards over several machines
//! (run hands `start..start + count` and concatenate).
//!
//! # Arena
//!
//! [`ArenaSpec`] plays `bots` against each other. With `duplicate`, game `j` plays wall
//! `j / 4` with the seats rotated by `j mod 4` (bot `b` sits at seat `(b + j) mod 4`), so
//! every bot plays every seat of every wall; the dealer and the wind follow the wall.
//!
//! Every hand is driven through the one [`Round`] state machine by [`play_out`]; nothing
//! here knows a rule.
//!
//! # Long runs
//!
//! [`run`] plays a range of hands (or arena games) in blocks handed out in index order to
//! the worker threads and gives the finished items back to the caller's thread in index
//! order, a block at a time. The caller is woken at least every [`TICK`] to look for an
//! interrupt, and may stop the run at any point: the workers finish the hand they are
//! playing and stop, and every item already given back is a prefix of what an
//! uninterrupted run would give. Workers never run more than a few blocks ahead of the
//! caller, so the memory of a run is bounded by what the caller keeps.

use crate::error::{MjError, MjResult};
use crate::hand::MeldKind;
use crate::policy::{play_out, Policy, PolicyKind};
use crate::round::{Round, WinKind};
use crate::rules::Rules;
use crate::tile;
use crate::wall::derive_seed;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Most distinct fans recorded per hand.
pub const MAX_FANS: usize = 16;
/// Size of the fan tally (fan ids are below this).
pub const FAN_IDS: usize = 128;

const POLICY_STREAM: u64 = 0x5EED_B075_0000_0001;

/// The wall seed of hand `index` of a run seeded `seed`.
#[inline]
pub fn hand_seed(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index)
}

/// The seed of seat `seat`'s policy for a hand whose wall seed is `hand_seed`.
#[inline]
pub fn policy_seed(hand_seed: u64, seat: u8) -> u64 {
    derive_seed(hand_seed ^ POLICY_STREAM, seat as u64)
}

/// Dealer and prevalent wind of hand `index`: the dealer moves every hand, the wind every
/// four.
#[inline]
pub fn deal_of(index: u64) -> (u8, u8) {
    ((index % 4) as u8, ((index / 4) % 4) as u8)
}

/// How one hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandOutcome {
    /// The winning seat, -1 after an exhaustive draw.
    pub winner: i8,
    /// The seat that dealt in (discard or robbed kong), -1 for a self-draw or a draw.
    pub discarder: i8,
    /// The winner's fan total (flowers included), 0 without a winner.
    pub fan_total: i32,
    /// Discards made in the hand.
    pub turns: u16,
    /// Every seat's change of score (sums to 0).
    pub scores: [i32; 4],
    /// The dealer.
    pub dealer: u8,
    /// Ids of the winner's fans (0 = none); ids index [`fan_name`].
    pub fans: [u8; MAX_FANS],
}

impl Default for HandOutcome {
    fn default() -> Self {
        HandOutcome {
            winner: -1,
            discarder: -1,
            fan_total: 0,
            turns: 0,
            scores: [0; 4],
            dealer: 0,
            fans: [0; MAX_FANS],
        }
    }
}

/// The English and Chinese names of fan id `id`, if it is one.
pub fn fan_name(id: u8) -> Option<(&'static str, &'static str)> {
    crate::fan::Fan::all()
        .find(|f| f.id() == id)
        .map(|f| (f.name_en(), f.name_zh()))
}

/// Totals over a batch that are not per hand: how many wins include each fan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FanTally(pub [u64; FAN_IDS]);

impl Default for FanTally {
    fn default() -> Self {
        FanTally([0; FAN_IDS])
    }
}

impl FanTally {
    /// Adds one hand's fans.
    pub fn add(&mut self, o: &HandOutcome) {
        for &id in o.fans.iter().filter(|&&id| id != 0) {
            self.0[id as usize % FAN_IDS] += 1;
        }
    }
}

/// Everything invariant checking found wrong in a batch (empty when all is well).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Violations {
    /// How many problems.
    pub count: u64,
    /// The first few, described.
    pub first: Vec<String>,
}

impl Violations {
    fn push(&mut self, msg: String) {
        self.count += 1;
        if self.first.len() < 10 {
            self.first.push(msg);
        }
    }
    /// The problems of both.
    pub fn merge(mut self, other: Violations) -> Violations {
        self.count += other.count;
        for m in other.first {
            if self.first.len() < 10 {
                self.first.push(m);
            }
        }
        self
    }
}

/// One thread's table: a reusable round (events not recorded: nothing here reads them)
/// and four policies.
pub struct Table {
    rules: Rules,
    round: Option<Round>,
    policies: [Box<dyn Policy>; 4],
}

impl Table {
    /// A table for `rules` with the policies of `kinds` (seat order).
    pub fn new(rules: &Rules, kinds: &[PolicyKind; 4]) -> Table {
        Table {
            rules: rules.clone(),
            round: None,
            policies: std::array::from_fn(|s| kinds[s].build(rules)),
        }
    }

    /// The round of the last hand played.
    pub fn round(&self) -> Option<&Round> {
        self.round.as_ref()
    }

    /// Plays one hand on the wall `wall_seed` with `dealer` and `wind`; seat `s`'s policy
    /// is `order[s]` of this table's policies, reseeded with `seeds[s]`. With `check`,
    /// every state is verified ([`check_state`]) and problems are added to `violations`.
    pub fn play(
        &mut self,
        wall_seed: u64,
        dealer: u8,
        wind: u8,
        order: [usize; 4],
        seeds: [u64; 4],
        violations: Option<&mut Violations>,
    ) -> MjResult<HandOutcome> {
        match self.round.as_mut() {
            Some(r) => r.reset(wall_seed, dealer, wind)?,
            None => {
                let mut r = Round::new(&self.rules, wall_seed, dealer, wind)?;
                r.set_record_events(false);
                self.round = Some(r);
            }
        }
        let Some(round) = self.round.as_mut() else {
            return Err(MjError::rule("no round".to_string()));
        };
        for s in 0..4 {
            self.policies[order[s]].begin_hand(seeds[s]);
        }
        // Seat order view of the policies: swap them into place, play, swap back.
        permute(&mut self.policies, order);
        let played = match violations {
            Some(v) => play_checked(round, &mut self.policies, v),
            None => play_out(round, &mut self.policies).map(|_| ()),
        };
        permute(&mut self.policies, inverse(order));
        played?;
        Ok(outcome(round))
    }
}

/// Reorders `items` in place so that position `s` holds what was at `order[s]` (a
/// permutation of 0..4).
fn permute<T>(items: &mut [T; 4], order: [usize; 4]) {
    let mut at = [0, 1, 2, 3];
    for (s, &want) in order.iter().enumerate() {
        if let Some(j) = (s..4).find(|&j| at[j] == want) {
            items.swap(s, j);
            at.swap(s, j);
        }
    }
}

/// The permutation that undoes [`permute`] by `order`.
fn inverse(order: [usize; 4]) -> [usize; 4] {
    let mut back = [0; 4];
    for (s, &p) in order.iter().enumerate() {
        back[p] = s;
    }
    back
}

/// Reads the outcome of a finished round.
pub fn outcome(round: &Round) -> HandOutcome {
    let mut o = HandOutcome {
        dealer: round.dealer(),
        turns: round.discards().len() as u16,
        ..Default::default()
    };
    if let Some(res) = round.result() {
        o.scores = res.deltas;
        if let Some(w) = res.winner() {
            o.winner = w.seat as i8;
            o.discarder = if w.kind == WinKind::SelfDrawn {
                -1
            } else {
                w.from as i8
            };
            o.fan_total = w.value.total() as i32;
            for (slot, fc) in o.fans.iter_mut().zip(w.value.fan_list()) {
                *slot = fc.fan.0;
            }
        }
    }
    o
}

/// Drives `round` to its end like [`play_out`], checking every state it passes through
/// with [`check_state`] and the end with [`check_result`].
pub fn play_checked(
    round: &mut Round,
    policies: &mut [Box<dyn Policy>; 4],
    v: &mut Violations,
) -> MjResult<()> {
    check_state(round, v);
    loop {
        let pending = round.pending();
        if pending == 0 {
            break;
        }
        let seat = pending.trailing_zeros() as u8;
        let action = policies[seat as usize].act(&crate::policy::RoundView { round, seat });
        if !round.legal_actions(seat).contains(&action) {
            v.push(format!(
                "seat {seat} chose {} which is not legal",
                action.describe()
            ));
        }
        round.apply(seat, action)?;
        check_state(round, v);
    }
    check_result(round, v);
    Ok(())
}

/// Tile conservation and hand sizes: every tile of the wall is in exactly one place (a
/// hand, a meld, the discards, the flowers, or the wall), no kind has more than four
/// copies, and no seat holds more than 14 tiles counting its melds as three.
pub fn check_state(round: &Round, v: &mut Violations) {
    let mut per_kind = [0u32; 42];
    let mut total = 0usize;
    for s in 0..4u8 {
        let st = round.seat(s);
        let held: u32 = st.hand.iter().map(|&c| c as u32).sum();
        if held != st.n_hand as u32 {
            v.push(format!(
                "seat {s}: {} concealed tiles recorded, {held} held",
                st.n_hand
            ));
        }
        let size = st.n_hand as usize + 3 * st.n_melds as usize;
        if !(13..=14).contains(&size) {
            v.push(format!("seat {s} holds {size} tiles (melds as three)"));
        }
        for (t, &c) in st.hand.iter().enumerate() {
            per_kind[t] += c as u32;
            total += c as usize;
        }
        for m in st.melds() {
            let n = m.kind.size();
            total += n;
            if m.kind == MeldKind::Chow {
                for k in 0..3 {
                    per_kind[(m.tile + k) as usize] += 1;
                }
            } else {
                per_kind[m.tile as usize] += n as u32;
            }
        }
        for &f in st.flowers() {
            per_kind[f as usize] += 1;
            total += 1;
        }
    }
    for d in round.discards().iter().filter(|d| !d.claimed) {
        per_kind[d.tile as usize] += 1;
        total += 1;
    }
    // While an added kong may be robbed, its tile has left the hand and is not yet in the
    // meld (a robbed kong's tile then joins the winner's hand).
    if round.phase() == crate::round::Phase::RobKong && !round.robbing_claimed_kong() {
        if let Some((_, t)) = round.claim() {
            per_kind[t as usize] += 1;
            total += 1;
        }
    }
    let wall = round.wall();
    for i in 0..wall.len() {
        if !wall.is_taken(i) {
            if let Some(t) = wall.peek(i) {
                per_kind[t as usize] += 1;
            }
        }
    }
    total += wall.standing();
    if total != wall.len() {
        v.push(format!(
            "{total} tiles accounted for, the wall had {}",
            wall.len()
        ));
    }
    for (t, &c) in per_kind.iter().enumerate() {
        let limit = if tile::is_flower(t as u8) { 1 } else { 4 };
        if c > limit {
            v.push(format!("{} copies of {}", c, tile::name(t as u8)));
        }
    }
}

/// The end of a hand: scores sum to zero, and every win is a complete hand whose fan
/// (without flowers) reaches the rule set's minimum (Huainan: whose value is positive).
/// Completeness is read by [`complete_by_search`] and [`huainan_complete_by_search`], a
/// plain search written apart from the engine's win test, so that a fault there is seen.
pub fn check_result(round: &Round, v: &mut Violations) {
    let Some(res) = round.result() else {
        v.push("the hand ended without a result".to_string());
        return;
    };
    let sum: i32 = res.deltas.iter().sum();
    if sum != 0 {
        v.push(format!("scores sum to {sum}: {:?}", res.deltas));
    }
    let min = round.rules().fan.min_fan as u32;
    if let Some(h) = round.huainan() {
        // Huainan: a win is a complete hand with the 宝 wild, or one of the instant wins
        // (接宝, 四个宝), and carries a positive value; there is no fan minimum.
        for w in &res.wins {
            let melds = &w.melds[..w.n_melds as usize];
            let Some(sc) = w.value.huainan() else {
                v.push(format!("seat {} won without a Huainan value", w.seat));
                continue;
            };
            if !sc.form.is_special() && !huainan_complete_by_search(&w.hand, melds, h.bao) {
                v.push(format!(
                    "seat {} won with an incomplete hand {}",
                    w.seat,
                    tile::format_counts(&w.hand)
                ));
            }
            if sc.value == 0 {
                v.push(format!("seat {} won with the value 0", w.seat));
            }
        }
        return;
    }
    for w in &res.wins {
        if !complete_by_search(&w.hand, w.n_melds as usize) {
            v.push(format!(
                "seat {} won with an incomplete hand {}",
                w.seat,
                tile::format_counts(&w.hand)
            ));
        }
        if w.value.fans().is_none() {
            v.push(format!("seat {} won without fans", w.seat));
        }
        let fan = if round.rules().fan.flowers_count_toward_min {
            w.value.total()
        } else {
            w.value.total_without_flowers()
        };
        if fan < min {
            v.push(format!(
                "seat {} won with {fan} fan, below the minimum {min}",
                w.seat
            ));
        }
    }
}

// ---- complete hands by plain search (the invariant checks' own reading) -----------------

/// The suited kinds of the six knitted patterns: suit `s` holds the ranks `r`, `r + 3`,
/// `r + 6` with `r = KNITS[p][s]`.
const KNITS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// True if suited kind `t` belongs to knitted pattern `p`.
fn in_knit(p: usize, t: usize) -> bool {
    t < 27 && (t % 9) % 3 == KNITS[p][t / 9]
}

/// Splits `c` into sets (pungs, chows) and, if `pair`, one pair, with `wilds` tiles that
/// may stand for anything; tries every set the lowest held kind can start.
fn split_sets(c: &mut tile::Counts, wilds: u8, pair: bool) -> bool {
    let Some(i) = c.iter().position(|&x| x > 0) else {
        return if pair {
            wilds >= 2 && (wilds - 2) % 3 == 0
        } else {
            wilds % 3 == 0
        };
    };
    let rank = i % 9;
    let suited = i < 27;
    // Pairs (with a wild for the second copy) and pungs (wilds for missing copies).
    for (size, is_pair) in [(2u8, true), (3u8, false)] {
        if is_pair && !pair {
            continue;
        }
        for natural in (1..=size.min(c[i])).rev() {
            let fill = size - natural;
            if fill > wilds {
                continue;
            }
            c[i] -= natural;
            let ok = split_sets(c, wilds - fill, pair && !is_pair);
            c[i] += natural;
            if ok {
                return true;
            }
        }
    }
    // Chows holding `i` as their lowest natural tile: i, i+1, i+2, or (an 8 in 7-8-9) a
    // wild below i, i+1; each other tile natural or a wild.
    if suited && rank <= 7 {
        let (others, below): (&[usize], u8) = if rank <= 6 {
            (&[i + 1, i + 2], 0)
        } else {
            (&[i + 1], 1)
        };
        for take in 0..1u8 << others.len() {
            let natural = |k: usize| take >> k & 1 == 1;
            if (0..others.len()).any(|k| natural(k) && c[others[k]] == 0) {
                continue;
            }
            let fill = below + (0..others.len()).filter(|&k| !natural(k)).count() as u8;
            if fill > wilds {
                continue;
            }
            c[i] -= 1;
            for k in (0..others.len()).filter(|&k| natural(k)) {
                c[others[k]] -= 1;
            }
            let ok = split_sets(c, wilds - fill, pair);
            c[i] += 1;
            for k in (0..others.len()).filter(|&k| natural(k)) {
                c[others[k]] += 1;
            }
            if ok {
                return true;
            }
        }
    }
    false
}

/// Whether `concealed` (14 - 3k tiles beside `n_melds` melds) completes a hand in one of
/// the five GB forms: four sets and a pair, seven pairs, thirteen orphans, honors and
/// knitted, or a knitted straight with a set and a pair. A plain search of its own, for
/// checking the engine's win test.
pub fn complete_by_search(concealed: &tile::Counts, n_melds: usize) -> bool {
    let n: usize = concealed.iter().map(|&x| x as usize).sum();
    if n_melds > 4 || n != 14 - 3 * n_melds {
        return false;
    }
    let mut c = *concealed;
    if split_sets(&mut c, 0, true) {
        return true;
    }
    if n_melds == 0 {
        if concealed.iter().all(|&x| x % 2 == 0) {
            return true;
        }
        let orphans = tile::TERMINALS_AND_HONORS;
        if orphans.iter().all(|&t| concealed[t as usize] > 0)
            && (0..tile::N_KINDS).all(|t| concealed[t] == 0 || orphans.contains(&(t as tile::Tile)))
        {
            return true;
        }
        let singles = concealed.iter().all(|&x| x <= 1);
        if singles && (0..6).any(|p| (0..27).all(|t| concealed[t] == 0 || in_knit(p, t))) {
            return true;
        }
    }
    n_melds <= 1
        && (0..6).any(|p| {
            let mut rest = *concealed;
            for t in (0..27).filter(|&t| in_knit(p, t)) {
                if rest[t] == 0 {
                    return false;
                }
                rest[t] -= 1;
            }
            split_sets(&mut rest, 0, true)
        })
}

/// Whether a Huainan hand can be complete when every copy of `bao` may stand for any tile
/// (fifth copies included): the basic form, seven pairs, 十三浪 (no two tiles of a suit
/// less than three ranks apart, no honour twice) or 九幺 (terminals and honours only, no
/// chow meld). Every option of the rule set narrows these readings, so a hand that fails
/// here wins under none of them. A plain search of its own, for the invariant checks.
pub fn huainan_complete_by_search(
    concealed: &tile::Counts,
    melds: &[crate::hand::Meld],
    bao: tile::Tile,
) -> bool {
    let n: usize = concealed.iter().map(|&x| x as usize).sum();
    if melds.len() > 4 || n != 14 - 3 * melds.len() {
        return false;
    }
    let mut nat = *concealed;
    let wilds = std::mem::take(&mut nat[bao as usize]);
    if split_sets(&mut nat.clone(), wilds, true) {
        return true;
    }
    let orphan = |t: usize| tile::is_terminal_or_honor(t as tile::Tile);
    let orphan_melds = melds
        .iter()
        .all(|m| m.kind != MeldKind::Chow && orphan(m.tile as usize));
    if orphan_melds && (0..tile::N_KINDS).all(|t| nat[t] == 0 || orphan(t)) {
        return true;
    }
    if !melds.is_empty() {
        return false;
    }
    let odd = nat.iter().filter(|&&x| x % 2 == 1).count() as u8;
    if odd <= wilds && (wilds - odd) % 2 == 0 {
        return true;
    }
    // 十三浪: the naturals spread out, and room for every wild as a new tile.
    if nat.iter().any(|&x| x > 1) {
        return false;
    }
    let spread = |m: u16| (0..9).all(|r| m >> r & 1 == 0 || m >> (r + 1) & 3 == 0);
    let mut room = nat[27..].iter().filter(|&&x| x == 0).count();
    for s in 0..3 {
        let held = (0..9).fold(0u16, |m, r| m | ((nat[9 * s + r] as u16) << r));
        if !spread(held) {
            return false;
        }
        let most = (0..512u16)
            .filter(|&m| m & held == held && spread(m))
            .map(|m| m.count_ones())
            .max()
            .unwrap_or(0);
        room += (most - held.count_ones()) as usize;
    }
    wilds as usize <= room
}

/// A simulation: rules, one policy per seat and a seed.
#[derive(Clone)]
pub struct SimSpec {
    /// The rules.
    pub rules: Rules,
    /// The policy of each seat.
    pub bots: [PolicyKind; 4],
    /// The run's seed.
    pub seed: u64,
}

/// Most worker threads a run may ask for.
pub const MAX_THREADS: usize = 256;

impl SimSpec {
    /// Plays hand `index` on `table`; with `check`, every state is verified and the
    /// problems are returned beside the outcome.
    pub fn play(
        &self,
        table: &mut Table,
        index: u64,
        check: bool,
    ) -> MjResult<(HandOutcome, Violations)> {
        let ws = hand_seed(self.seed, index);
        let (dealer, wind) = deal_of(index);
        let seeds = std::array::from_fn(|s| policy_seed(ws, s as u8));
        let mut v = Violations::default();
        let o = table.play(
            ws,
            dealer,
            wind,
            [0, 1, 2, 3],
            seeds,
            check.then_some(&mut v),
        )?;
        Ok((o, v))
    }
}

/// The thread count used when none is given: `RAYON_NUM_THREADS` when it holds a positive
/// number (as for every rayon pool), else the cores available.
pub fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |c| c.get()))
        .min(MAX_THREADS)
}

/// A pool of `threads` worker threads named `majiang-<i>` (all cores when `None` or 0);
/// more than [`MAX_THREADS`] is an error.
pub fn pool(threads: Option<usize>) -> MjResult<rayon::ThreadPool> {
    let mut b = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("majiang-{i}"));
    if let Some(n) = threads.filter(|&n| n > 0) {
        if n > MAX_THREADS {
            return Err(MjError::rule(format!(
                "threads must be between 1 and {MAX_THREADS}, got {n}"
            )));
        }
        b = b.num_threads(n);
    }
    b.build()
        .map_err(|e| MjError::rule(format!("cannot start the worker threads: {e}")))
}

/// Plays hands `start..start + count` of `spec` on `pool`, in hand order, each through
/// `play(table, wall seed, dealer, wind, policy seeds)` on a per-thread [`Table`].
fn par_hands<T: Send>(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
    play: impl Fn(&mut Table, u64, u8, u8, [u64; 4]) -> MjResult<T> + Sync + Send,
) -> MjResult<Vec<T>> {
    pool.install(|| {
        (0..count)
            .into_par_iter()
            .with_min_len(64)
            .map_init(
                || Table::new(&spec.rules, &spec.bots),
                |table, k| {
                    let i = start + k as u64;
                    let ws = hand_seed(spec.seed, i);
                    let (dealer, wind) = deal_of(i);
                    play(
                        table,
                        ws,
                        dealer,
                        wind,
                        std::array::from_fn(|s| policy_seed(ws, s as u8)),
                    )
                },
            )
            .collect()
    })
}

/// Plays hands `start..start + count` of `spec` on `pool`, in hand order.
pub fn simulate(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<Vec<HandOutcome>> {
    par_hands(
        spec,
        start,
        count,
        pool,
        |table, ws, dealer, wind, seeds| table.play(ws, dealer, wind, [0, 1, 2, 3], seeds, None),
    )
}

/// Like [`simulate`], verifying every state of every hand; returns the outcomes and what
/// was found wrong.
pub fn simulate_checked(
    spec: &SimSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<(Vec<HandOutcome>, Violations)> {
    let parts = par_hands(
        spec,
        start,
        count,
        pool,
        |table, ws, dealer, wind, seeds| {
            let mut v = Violations::default();
            let o = table.play(ws, dealer, wind, [0, 1, 2, 3], seeds, Some(&mut v))?;
            Ok((o, v))
        },
    )?;
    let mut out = Vec::with_capacity(parts.len());
    let mut all = Violations::default();
    for (o, v) in parts {
        out.push(o);
        all = all.merge(v);
    }
    Ok((out, all))
}

/// An arena: `bots` (in list order) against each other.
#[derive(Clone)]
pub struct ArenaSpec {
    /// The rules.
    pub rules: Rules,
    /// The four bots; bot `b` sits at seat `b` in game 0.
    pub bots: [PolicyKind; 4],
    /// The seed.
    pub seed: u64,
    /// Rotate the seats over each wall (four games per wall).
    pub duplicate: bool,
}

/// One arena game, seen per bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaGame {
    /// The wall (games of one wall share it under duplicate play).
    pub wall: u64,
    /// Seat of each bot.
    pub seats: [u8; 4],
    /// The winning bot, -1 on a draw.
    pub winner: i8,
    /// The bot that dealt in, -1 for a self-draw or a draw.
    pub discarder: i8,
    /// The winner's fan total.
    pub fan_total: i32,
    /// Each bot's change of score.
    pub scores: [i32; 4],
}

impl ArenaSpec {
    /// Wall index, seats of the bots, dealer and wind of game `j`.
    pub fn game(&self, j: u64) -> (u64, [u8; 4]) {
        if self.duplicate {
            let r = (j % 4) as u8;
            (j / 4, std::array::from_fn(|b| (b as u8 + r) % 4))
        } else {
            (j, [0, 1, 2, 3])
        }
    }
}

impl ArenaSpec {
    /// Plays arena game `j` on `table`.
    pub fn play(&self, table: &mut Table, j: u64) -> MjResult<ArenaGame> {
        let (w, seats) = self.game(j);
        let ws = hand_seed(self.seed, w);
        let (dealer, wind) = deal_of(w);
        // order[seat] = the bot sitting there; its seed depends on the game.
        let mut order = [0usize; 4];
        for (b, &s) in seats.iter().enumerate() {
            order[s as usize] = b;
        }
        let gs = derive_seed(ws, j);
        let seeds = std::array::from_fn(|s| policy_seed(gs, s as u8));
        let o = table.play(ws, dealer, wind, order, seeds, None)?;
        let bot_at = |seat: i8| {
            if seat < 0 {
                -1
            } else {
                order[seat as usize] as i8
            }
        };
        Ok(ArenaGame {
            wall: w,
            seats,
            winner: bot_at(o.winner),
            discarder: bot_at(o.discarder),
            fan_total: o.fan_total,
            scores: std::array::from_fn(|b| o.scores[seats[b] as usize]),
        })
    }
}

/// Plays arena games `start..start + count` on `pool`, in order.
pub fn arena(
    spec: &ArenaSpec,
    start: u64,
    count: usize,
    pool: &rayon::ThreadPool,
) -> MjResult<Vec<ArenaGame>> {
    pool.install(|| {
        (0..count)
            .into_par_iter()
            .with_min_len(16)
            .map_init(
                || Table::new(&spec.rules, &spec.bots),
                |table, k| spec.play(table, start + k as u64),
            )
            .collect()
    })
}

/// How often, at least, [`run`] hands control back to its caller (to look for an
/// interrupt) while the workers play.
pub const TICK: Duration = Duration::from_millis(20);

/// The caller's side of a [`run`]: everything here is called on the caller's thread.
pub trait RunHost<T> {
    /// Runs `wait`, a blocking wait of at most [`TICK`] for the workers (the Python
    /// bindings release the GIL around it).
    fn wait<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R;
    /// Called after every wait: `false` stops the run (the workers finish the item they
    /// are playing and stop); finished items are still given to [`RunHost::take`].
    fn keep_going(&mut self) -> bool;
    /// The next finished items, in index order; `first` is the index of the first one.
    /// `false` stops the run and nothing more is given.
    fn take(&mut self, first: u64, items: Vec<T>) -> bool;
}

/// How a [`run`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunEnd {
    /// Items given to the host (the first `done` items of the range).
    pub done: u64,
    /// The host stopped the run before its end.
    pub stopped: bool,
}

/// One finished block: its number and its items (or the error that ended it).
type Finished<T> = (u64, MjResult<Vec<T>>);

/// Plays items `start..start + count` on the threads of `pool`, item `i` through
/// `play(table, i)` on a per-thread [`Table`] for `rules` and `bots`, in blocks of
/// `block` items, and gives the finished items to `host` in index order (see the module
/// documentation). An item depends only on its index, so what the host receives is the
/// same for any pool, block size or stopping point, up to where it stops.
#[allow(clippy::too_many_arguments)]
pub fn run<T: Send, H: RunHost<T>>(
    pool: &rayon::ThreadPool,
    rules: &Rules,
    bots: &[PolicyKind; 4],
    start: u64,
    count: u64,
    block: u64,
    play: impl Fn(&mut Table, u64) -> MjResult<T> + Sync,
    host: &mut H,
) -> MjResult<RunEnd> {
    if start.checked_add(count).is_none() {
        return Err(MjError::rule(
            "the last index of a run must stay below 2**64".to_string(),
        ));
    }
    let block = block.max(1);
    let blocks = count.div_ceil(block);
    // Workers take block b only once the host holds every block before b - window: the
    // items in flight stay bounded, with room for the host to be busy (writing a shard)
    // while the workers go on.
    let window = (4 * pool.current_num_threads() as u64 + 4).max(256);
    let stop = AtomicBool::new(false);
    let next = AtomicU64::new(0);
    let released = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<Finished<T>>();
    let (stop, next, released, play) = (&stop, &next, &released, &play);
    let worker = move || {
        let tx = tx;
        pool.broadcast(|_| {
            let tx = tx.clone();
            let mut table = Table::new(rules, bots);
            loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= blocks {
                    return;
                }
                while b >= released.load(Ordering::Acquire) + window {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                let first = start + b * block;
                let len = block.min(count - b * block);
                let mut items = Vec::with_capacity(len as usize);
                for i in first..first + len {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    match play(&mut table, i) {
                        Ok(x) => items.push(x),
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            let _ = tx.send((b, Err(e)));
                            return;
                        }
                    }
                }
                if tx.send((b, Ok(items))).is_err() {
                    return;
                }
            }
        });
    };
    std::thread::scope(|scope| {
        let handle = scope.spawn(worker);
        let mut pending: BTreeMap<u64, Vec<T>> = BTreeMap::new();
        let mut rx = Some(rx);
        let mut next_block = 0u64;
        let mut done = 0u64;
        let mut stopped = false;
        let mut refused = false;
        let mut error: Option<(u64, MjError)> = None;
        while let Some(r) = rx.take() {
            let (r, msg) = host.wait(move || {
                let m = r.recv_timeout(TICK);
                (r, m)
            });
            match msg {
                Ok((b, Ok(items))) => {
                    pending.insert(b, items);
                    while let Some(items) = pending.remove(&next_block) {
                        next_block += 1;
                        released.store(next_block, Ordering::Release);
                        if refused || error.is_some() {
                            continue;
                        }
                        let n = items.len() as u64;
                        if !host.take(start + done, items) {
                            refused = true;
                            stop.store(true, Ordering::Relaxed);
                        }
                        done += n;
                    }
                }
                Ok((b, Err(e))) => {
                    let first_error = match &error {
                        Some((eb, _)) => b < *eb,
                        None => true,
                    };
                    if first_error {
                        error = Some((b, e));
                    }
                    stop.store(true, Ordering::Relaxed);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            rx = Some(r);
            if !stopped && !host.keep_going() {
                stopped = true;
                stop.store(true, Ordering::Relaxed);
            }
        }
        if handle.join().is_err() {
            return Err(MjError::rule("a worker thread failed".to_string()));
        }
        match error {
            Some((_, e)) => Err(e),
            None => Ok(RunEnd {
                done,
                stopped: stopped || refused,
            }),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(bots: &str, rules: Rules) -> SimSpec {
        let k = PolicyKind::parse(bots).unwrap();
        SimSpec {
            rules,
            bots: [k; 4],
            seed: 42,
        }
    }

    fn hand(text: &str) -> tile::Counts {
        tile::to_counts(&tile::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn search_reads_every_gb_form() {
        for (text, melds, win) in [
            ("123m456m789m123p55p", 0, true),
            ("123m456m789m123p56p", 0, false),
            ("111m222m333m99p", 1, true),
            ("11m22m33m44p55p66s77z", 0, true),
            ("11m11m33m44p55p66s77z", 0, true),
            ("19m19p19s1234567z1z", 0, true),
            ("19m19p19s1234566z2m", 0, false),
            ("147m258p369s12345z", 0, true),
            ("147m258p369s11345z", 0, false),
            ("147m258p369s234m55z", 0, true),
            ("147m258p369s55z", 1, true),
            ("147m258p36s2345m55z", 0, false),
            ("55z", 4, true),
        ] {
            assert_eq!(complete_by_search(&hand(text), melds), win, "{text}");
        }
    }

    #[test]
    fn search_agrees_with_the_engine_on_random_hands() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = derive_seed(state, 1);
            state % n
        };
        let none = [0u8; 34];
        let (mut wins, mut checked) = (0, 0);
        for _ in 0..20_000 {
            // Four random sets and a pair, then (half the time) one tile swapped.
            let mut c = [0u8; 34];
            let mut ok = true;
            for k in 0..5 {
                let t = next(34) as usize;
                let chow = k < 4 && t < 27 && t % 9 <= 6 && next(2) == 0;
                let tiles: Vec<usize> = match (k, chow) {
                    (4, _) => vec![t, t],
                    (_, true) => vec![t, t + 1, t + 2],
                    _ => vec![t, t, t],
                };
                for x in tiles {
                    c[x] += 1;
                    ok &= c[x] <= 4;
                }
            }
            if next(2) == 0 {
                let held: Vec<usize> = (0..34).filter(|&t| c[t] > 0).collect();
                let out = held[next(held.len() as u64) as usize];
                let into = next(34) as usize;
                c[out] -= 1;
                c[into] += 1;
                ok &= c[into] <= 4;
            }
            if !ok {
                continue;
            }
            let want = crate::shanten::is_win(&c, &none, 0, 0);
            assert_eq!(
                complete_by_search(&c, 0),
                want,
                "{}",
                tile::format_counts(&c)
            );
            checked += 1;
            wins += want as usize;
        }
        assert!(
            checked > 10_000 && wins > 3_000 && wins < checked,
            "{wins}/{checked}"
        );
    }

    #[test]
    fn huainan_search_holds_for_every_engine_win() {
        let o = crate::huainan::oracle::ShapeOptions::of(&Rules::named("huainan").unwrap().huainan);
        let bao = 4; // 5m
        for (text, win) in [
            ("123m456p789s123p55m", true),
            ("123m456p789s12p5m77s", true),
            ("5555m123p456s789s1z", true),
            ("11m22m33m44p55p66s7z1z", false),
            ("11m22m33m44p55p5m66s7z", true),
            ("11m22m33m44p5m66s77z1z", true),
            ("147m258p369s12345z", true),
            ("145m258p369s12345z", true),
            ("19m19p19s1234567z5m", true),
            ("129m19p19s1234567z", false),
        ] {
            let c = hand(text);
            assert_eq!(huainan_complete_by_search(&c, &[], bao), win, "{text}");
            if crate::shanten::wild::is_win(&c, &[], Some(bao), &o) {
                assert!(win, "{text}");
            }
        }
        let mut state = 11u64;
        let mut next = |n: u64| {
            state = derive_seed(state, 1);
            state % n
        };
        let mut wins = 0;
        for _ in 0..20_000 {
            let mut c = [0u8; 34];
            let mut n = 0;
            while n < 14 {
                let t = if next(4) == 0 {
                    bao as usize
                } else {
                    next(34) as usize
                };
                if c[t] < 4 {
                    c[t] += 1;
                    n += 1;
                }
            }
            if crate::shanten::wild::is_win(&c, &[], Some(bao), &o) {
                wins += 1;
                assert!(
                    huainan_complete_by_search(&c, &[], bao),
                    "{}",
                    tile::format_counts(&c)
                );
            }
        }
        assert!(wins > 50, "{wins}");
    }

    /// Keeps what a run gives; stops once it holds `stop_at` items.
    struct Collect<T> {
        items: Vec<T>,
        firsts: Vec<u64>,
        stop_at: Option<usize>,
        refuse_at: Option<usize>,
    }

    impl<T> Collect<T> {
        fn new() -> Self {
            Collect {
                items: Vec::new(),
                firsts: Vec::new(),
                stop_at: None,
                refuse_at: None,
            }
        }
    }

    impl<T> RunHost<T> for Collect<T> {
        fn wait<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R {
            wait()
        }
        fn keep_going(&mut self) -> bool {
            !matches!(self.stop_at, Some(k) if self.items.len() >= k)
        }
        fn take(&mut self, first: u64, items: Vec<T>) -> bool {
            self.firsts.push(first);
            self.items.extend(items);
            !matches!(self.refuse_at, Some(k) if self.items.len() >= k)
        }
    }

    #[test]
    fn run_gives_the_hands_of_one_batch_in_order() {
        let s = spec("efficiency", Rules::gb());
        let want = simulate(&s, 30, 300, &pool(Some(1)).unwrap()).unwrap();
        for (threads, block) in [(1, 7), (2, 1), (2, 64), (3, 1000)] {
            let mut host = Collect::new();
            let end = run(
                &pool(Some(threads)).unwrap(),
                &s.rules,
                &s.bots,
                30,
                300,
                block,
                |t, i| s.play(t, i, false).map(|(o, _)| o),
                &mut host,
            )
            .unwrap();
            assert_eq!(
                end,
                RunEnd {
                    done: 300,
                    stopped: false
                }
            );
            assert_eq!(host.items, want, "threads {threads} block {block}");
            let mut at = 30;
            for (k, &f) in host.firsts.iter().enumerate() {
                assert_eq!(f, at, "block {k} starts at {f}");
                at += block.min(330 - at);
            }
        }
    }

    #[test]
    fn a_stopped_run_gives_a_prefix_and_a_refusal_ends_the_giving() {
        let s = spec("random", Rules::gb());
        let want = simulate(&s, 0, 2000, &pool(Some(2)).unwrap()).unwrap();
        let play = |t: &mut Table, i| s.play(t, i, false).map(|(o, _)| o);
        let mut host = Collect::new();
        host.stop_at = Some(100);
        let end = run(
            &pool(Some(2)).unwrap(),
            &s.rules,
            &s.bots,
            0,
            2000,
            10,
            play,
            &mut host,
        )
        .unwrap();
        assert!(end.stopped);
        assert!(end.done >= 100 && end.done < 2000, "{end:?}");
        assert_eq!(end.done as usize, host.items.len());
        assert_eq!(&host.items[..], &want[..host.items.len()]);

        let mut host = Collect::new();
        host.refuse_at = Some(25);
        let end = run(
            &pool(Some(2)).unwrap(),
            &s.rules,
            &s.bots,
            0,
            2000,
            10,
            play,
            &mut host,
        )
        .unwrap();
        assert!(end.stopped);
        assert_eq!(host.items.len(), 30);
        assert_eq!(&host.items[..], &want[..30]);
    }

    #[test]
    fn run_checks_its_range_and_plays_nothing_for_zero() {
        let s = spec("random", Rules::gb());
        let p = pool(Some(1)).unwrap();
        let play = |t: &mut Table, i| s.play(t, i, false).map(|(o, _)| o);
        let mut host = Collect::new();
        assert!(run(&p, &s.rules, &s.bots, u64::MAX, 2, 8, play, &mut host).is_err());
        let end = run(&p, &s.rules, &s.bots, 5, 0, 8, play, &mut host).unwrap();
        assert_eq!(end.done, 0);
        assert!(host.items.is_empty());
        assert!(pool(Some(MAX_THREADS + 1)).is_err());
    }

    #[test]
    fn arena_through_run_matches_the_batch() {
        let a = ArenaSpec {
            rules: Rules::gb(),
            bots: [
                PolicyKind::Efficiency,
                PolicyKind::Random,
                PolicyKind::Random,
                PolicyKind::Random,
            ],
            seed: 9,
            duplicate: true,
        };
        let p = pool(Some(2)).unwrap();
        let want = arena(&a, 4, 60, &p).unwrap();
        let mut host = Collect::new();
        run(
            &p,
            &a.rules,
            &a.bots,
            4,
            60,
            16,
            |t, j| a.play(t, j),
            &mut host,
        )
        .unwrap();
        assert_eq!(host.items, want);
    }

    #[test]
    fn permute_places_and_restores() {
        for order in [[0, 1, 2, 3], [1, 2, 3, 0], [3, 2, 1, 0], [2, 0, 3, 1]] {
            let mut items = ['a', 'b', 'c', 'd'];
            permute(&mut items, order);
            for s in 0..4 {
                assert_eq!(items[s], ['a', 'b', 'c', 'd'][order[s]]);
            }
            permute(&mut items, inverse(order));
            assert_eq!(items, ['a', 'b', 'c', 'd']);
        }
    }

    #[test]
    fn same_seed_same_outcomes_whatever_the_threads_and_shards() {
        let s = spec("efficiency", Rules::gb());
        let one = simulate(&s, 0, 200, &pool(Some(1)).unwrap()).unwrap();
        let two = simulate(&s, 0, 200, &pool(Some(2)).unwrap()).unwrap();
        assert_eq!(one, two);
        let mut shards = simulate(&s, 0, 120, &pool(Some(2)).unwrap()).unwrap();
        shards.extend(simulate(&s, 120, 80, &pool(Some(1)).unwrap()).unwrap());
        assert_eq!(one, shards);
    }

    #[test]
    fn invariants_hold_for_every_bot_and_rule_set() {
        for rules in [
            Rules::gb(),
            Rules::named("classic").unwrap(),
            Rules::named("huainan").unwrap(),
        ] {
            for bots in ["random", "efficiency"] {
                let s = spec(bots, rules.clone());
                let (out, v) = simulate_checked(&s, 0, 300, &pool(Some(2)).unwrap()).unwrap();
                assert_eq!(v.count, 0, "{bots}: {:?}", v.first);
                assert_eq!(out.len(), 300);
                for o in &out {
                    assert_eq!(o.scores.iter().sum::<i32>(), 0);
                }
            }
        }
    }

    #[test]
    fn efficiency_bots_win_in_gb() {
        let s = spec("efficiency", Rules::gb());
        let out = simulate(&s, 0, 400, &pool(Some(2)).unwrap()).unwrap();
        let wins = out.iter().filter(|o| o.winner >= 0).count();
        assert!(wins > 100, "only {wins} wins in 400 hands");
        assert!(out
            .iter()
            .filter(|o| o.winner >= 0)
            .all(|o| o.fan_total >= 8));
    }

    #[test]
    fn duplicate_arena_rotates_seats_over_one_wall() {
        let a = ArenaSpec {
            rules: Rules::gb(),
            bots: [
                PolicyKind::Efficiency,
                PolicyKind::Random,
                PolicyKind::Random,
                PolicyKind::Random,
            ],
            seed: 5,
            duplicate: true,
        };
        let games = arena(&a, 0, 40, &pool(Some(2)).unwrap()).unwrap();
        for (j, g) in games.iter().enumerate() {
            assert_eq!(g.wall, j as u64 / 4);
            assert_eq!(g.seats[0] as usize, j % 4);
            assert_eq!(g.scores.iter().sum::<i32>(), 0);
        }
        let again = arena(&a, 20, 20, &pool(Some(1)).unwrap()).unwrap();
        assert_eq!(&games[20..], &again[..]);
    }

    #[test]
    fn huainan_plays_with_the_wild_aware_policy() {
        let s = spec("efficiency", Rules::named("huainan").unwrap());
        let a = simulate(&s, 0, 40, &pool(Some(2)).unwrap()).unwrap();
        let b = simulate(&s, 0, 40, &pool(Some(1)).unwrap()).unwrap();
        assert_eq!(a, b);
        assert!(a.iter().all(|h| h.scores.iter().sum::<i32>() == 0));
        assert!(a.iter().filter(|h| h.winner >= 0).count() > 20);
    }
}
