//! Python bindings for the built-in policies, `simulate` and `arena`: the batch entry points
//! release the GIL and return numpy arrays; `Policy` runs a built-in policy on an
//! `Observation` for the Python bots.

use super::action::action_obj;
use super::bot::Entry;
use super::bound::ForRules;
use super::convert::{self, Flag, Int, Text};
use super::events::seat_arg;
use super::observation::PyObservation;
use super::round::PyRound;
use super::rules::PyRuleSet;
use super::runs;
use crate::error::MjError;
use crate::policy::{Policy, PolicyKind, RoundView};
use crate::round::{Action, Observation};
use crate::sim::{
    self, ArenaDeal, ArenaGame, ArenaSpec, HandOutcome, RunEnd, RunHost, SimSpec, Violations,
    MAX_FANS,
};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// Reads `bots`: one name, or a sequence of four names.
pub(super) fn bot_kinds(obj: &Bound<'_, PyAny>) -> PyResult<[PolicyKind; 4]> {
    if let Ok(s) = obj.cast::<PyString>() {
        let names: Vec<String> = s
            .to_cow()?
            .split(',')
            .map(|x| x.trim().to_string())
            .collect();
        return kinds_of(&names);
    }
    let names: Vec<String> = match obj.extract() {
        Ok(v) => v,
        Err(_) => {
            return Err(super::errors::type_error(format!(
                "bots must be a bot name or a sequence of four names, got {}",
                convert::type_name(obj)
            )))
        }
    };
    kinds_of(&names)
}

/// A policy name (a `ValueError` naming the built-in bots for an unknown one).
fn policy_kind(name: &str) -> PyResult<PolicyKind> {
    PolicyKind::parse(name).map_err(|e| MjError::argument(e.message()).into())
}

fn kinds_of(names: &[String]) -> PyResult<[PolicyKind; 4]> {
    let kinds: Vec<PolicyKind> = names
        .iter()
        .map(|n| policy_kind(n))
        .collect::<Result<_, _>>()?;
    match kinds.len() {
        1 => Ok([kinds[0]; 4]),
        4 => Ok([kinds[0], kinds[1], kinds[2], kinds[3]]),
        n => Err(MjError::argument(format!(
            "bots needs one name or four (one per seat), got {n}"
        ))
        .into()),
    }
}

fn seed_arg(seed: i128) -> PyResult<u64> {
    convert::seed("seed", seed)
}

/// Most hands (or arena games) one call keeps in memory; longer runs go through `sink`.
pub const MAX_IN_MEMORY: u64 = 20_000_000;

/// Most hands a streamed run holds in memory before handing them to its sink (about 41
/// bytes each: 41 MB).
pub const MAX_SINK_HANDS: u64 = 1_000_000;

/// Hands per block handed to a worker thread (about half a millisecond of efficiency
/// play; the caller's thread wakes once a block to take it).
const SIM_BLOCK: u64 = 64;
/// Hands per block when all four seats play at random: a hand takes about a tenth of
/// an efficiency hand, and waking the caller's thread every 64 of them cost about 2.5%
/// of the run's CPU time.
const RANDOM_SIM_BLOCK: u64 = 512;

/// Hands per block of a simulation with `bots`: the blocks of any size give the same
/// hands, in the same order.
fn sim_block(bots: &[PolicyKind; 4]) -> u64 {
    if bots.iter().all(|&b| b == PolicyKind::Random) {
        RANDOM_SIM_BLOCK
    } else {
        SIM_BLOCK
    }
}
/// Games per block of an arena run.
const ARENA_BLOCK: u64 = 16;

/// Column buffers for the items of a run, turned into a dict of numpy arrays.
pub(super) trait Columns<T>: Default {
    /// Reserves room for `n` more items at once, so that a run that cannot fit in
    /// memory fails at its start with `MemoryError` instead of aborting half-way.
    fn reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError>;
    fn push(&mut self, item: T);
    fn len(&self) -> usize;
    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>>;
}

/// The per-hand arrays of `simulate_hands`.
#[derive(Default)]
struct HandColumns {
    winner: Vec<i8>,
    discarder: Vec<i8>,
    fan_total: Vec<i32>,
    turns: Vec<u16>,
    dealer: Vec<i8>,
    scores: Vec<i32>,
    fans: Vec<u8>,
    violations: Option<Violations>,
}

impl Columns<(HandOutcome, Option<Violations>)> for HandColumns {
    fn reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        self.winner.try_reserve_exact(n)?;
        self.discarder.try_reserve_exact(n)?;
        self.fan_total.try_reserve_exact(n)?;
        self.turns.try_reserve_exact(n)?;
        self.dealer.try_reserve_exact(n)?;
        self.scores.try_reserve_exact(4 * n)?;
        self.fans.try_reserve_exact(MAX_FANS * n)
    }

    fn push(&mut self, (o, v): (HandOutcome, Option<Violations>)) {
        self.winner.push(o.winner);
        self.discarder.push(o.discarder);
        self.fan_total.push(o.fan_total);
        self.turns.push(o.turns);
        self.dealer.push(o.dealer as i8);
        self.scores.extend_from_slice(&o.scores);
        self.fans.extend_from_slice(&o.fans);
        if let Some(v) = v {
            let all = self.violations.take().unwrap_or_default();
            self.violations = Some(all.merge(v));
        }
    }

    fn len(&self) -> usize {
        self.winner.len()
    }

    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let n = self.winner.len();
        let d = PyDict::new(py);
        d.set_item("winner", PyArray1::from_vec(py, self.winner))?;
        d.set_item("discarder", PyArray1::from_vec(py, self.discarder))?;
        d.set_item("fan_total", PyArray1::from_vec(py, self.fan_total))?;
        d.set_item("turns", PyArray1::from_vec(py, self.turns))?;
        d.set_item("dealer", PyArray1::from_vec(py, self.dealer))?;
        d.set_item(
            "scores",
            PyArray1::from_vec(py, self.scores).reshape([n, 4])?,
        )?;
        d.set_item(
            "fans",
            PyArray1::from_vec(py, self.fans).reshape([n, MAX_FANS])?,
        )?;
        if let Some(v) = self.violations {
            d.set_item("violations", v.count)?;
            d.set_item("violation_examples", v.first)?;
        }
        Ok(d)
    }
}

/// The per-game arrays of `arena_games`.
#[derive(Default)]
pub(super) struct GameColumns {
    wall: Vec<i64>,
    seats: Vec<i8>,
    winner: Vec<i8>,
    discarder: Vec<i8>,
    fan_total: Vec<i32>,
    scores: Vec<i32>,
}

impl Columns<ArenaGame> for GameColumns {
    fn reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        self.wall.try_reserve_exact(n)?;
        self.seats.try_reserve_exact(4 * n)?;
        self.winner.try_reserve_exact(n)?;
        self.discarder.try_reserve_exact(n)?;
        self.fan_total.try_reserve_exact(n)?;
        self.scores.try_reserve_exact(4 * n)
    }

    fn push(&mut self, g: ArenaGame) {
        self.wall.push(g.wall as i64);
        self.seats.extend(g.seats.iter().map(|&s| s as i8));
        self.winner.push(g.winner);
        self.discarder.push(g.discarder);
        self.fan_total.push(g.fan_total);
        self.scores.extend_from_slice(&g.scores);
    }

    fn len(&self) -> usize {
        self.wall.len()
    }

    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let n = self.wall.len();
        let d = PyDict::new(py);
        d.set_item("wall", PyArray1::from_vec(py, self.wall))?;
        d.set_item("seats", PyArray1::from_vec(py, self.seats).reshape([n, 4])?)?;
        d.set_item("winner", PyArray1::from_vec(py, self.winner))?;
        d.set_item("discarder", PyArray1::from_vec(py, self.discarder))?;
        d.set_item("fan_total", PyArray1::from_vec(py, self.fan_total))?;
        d.set_item(
            "scores",
            PyArray1::from_vec(py, self.scores).reshape([n, 4])?,
        )?;
        Ok(d)
    }
}

/// The Python side of a run: checks for Ctrl-C between waits, keeps the items (or hands
/// them to `sink` every `sink_every` items) and reports progress.
pub(super) struct PyHost<'py, C> {
    py: Python<'py>,
    pub(super) cols: C,
    /// Where the items go, `sink(first_index, arrays)`, when not kept.
    sink: Option<Bound<'py, PyAny>>,
    sink_every: usize,
    /// Index of the first item in `cols`.
    first: u64,
    /// `progress(items done)`, at most every 100 ms.
    progress: Option<Bound<'py, PyAny>>,
    shown: std::time::Instant,
    done: u64,
    interrupt: Option<PyErr>,
    failure: Option<PyErr>,
}

impl<'py, C> PyHost<'py, C> {
    pub(super) fn new(
        py: Python<'py>,
        first: u64,
        sink: Option<Bound<'py, PyAny>>,
        sink_every: usize,
        progress: Option<Bound<'py, PyAny>>,
    ) -> Self
    where
        C: Default,
    {
        PyHost {
            py,
            cols: C::default(),
            sink: sink.filter(|s| !s.is_none()),
            sink_every: sink_every.max(1),
            first,
            progress: progress.filter(|p| !p.is_none()),
            shown: std::time::Instant::now(),
            done: 0,
            interrupt: None,
            failure: None,
        }
    }

    /// Records an exception raised by Python code called here: Ctrl-C arrives as
    /// `KeyboardInterrupt` from whatever Python code runs when it comes.
    pub(super) fn fail(&mut self, e: PyErr) {
        if e.is_instance_of::<PyKeyboardInterrupt>(self.py) && self.interrupt.is_none() {
            self.interrupt = Some(e);
        } else if self.failure.is_none() {
            self.failure = Some(e);
        }
    }

    /// Hands the kept items to the sink (once a sink call fails, it is not called again,
    /// so what it received is always a prefix of the run).
    fn flush<T>(&mut self) -> bool
    where
        C: Columns<T>,
    {
        let Some(sink) = self.sink.clone() else {
            return true;
        };
        if self.cols.len() == 0 || self.failure.is_some() {
            return self.failure.is_none();
        }
        let cols = std::mem::take(&mut self.cols);
        let n = cols.len() as u64;
        let called = cols
            .into_dict(self.py)
            .and_then(|d| sink.call1((self.first, d)));
        self.first += n;
        match called {
            Ok(_) => true,
            Err(e) => {
                self.sink = None;
                self.fail(e);
                false
            }
        }
    }

    fn show(&mut self) {
        if let Some(p) = self.progress.clone() {
            if let Err(e) = p.call1((self.done,)) {
                self.progress = None;
                self.fail(e);
            }
            self.shown = std::time::Instant::now();
        }
    }

    /// How many items are kept.
    pub(super) fn cols_len<T>(&self) -> usize
    where
        C: Columns<T>,
    {
        self.cols.len()
    }

    /// The arrays of the items kept so far (taken out of the host).
    pub(super) fn take_kept<T>(&mut self) -> PyResult<Bound<'py, PyDict>>
    where
        C: Columns<T>,
    {
        std::mem::take(&mut self.cols).into_dict(self.py)
    }

    /// Ends the call: raises what went wrong (an interrupt carries `done`, the items
    /// finished, and when they were kept `partial`, their arrays), else returns the kept
    /// arrays.
    pub(super) fn finish<T>(mut self, end: Result<RunEnd, MjError>) -> PyResult<Bound<'py, PyDict>>
    where
        C: Columns<T>,
    {
        if let Err(e) = end {
            return Err(self.failure.take().unwrap_or_else(|| e.into()));
        }
        if self.sink.is_some() {
            self.flush();
        }
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        self.show();
        let py = self.py;
        if let Some(e) = self.interrupt.take() {
            let exc = e.value(py);
            exc.setattr("done", self.done)?;
            if self.sink.is_none() {
                exc.setattr("partial", self.cols.into_dict(py)?)?;
            }
            return Err(e);
        }
        self.cols.into_dict(py)
    }
}

impl<T, C: Columns<T>> RunHost<T> for PyHost<'_, C> {
    fn wait<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R {
        self.py.detach(wait)
    }

    fn keep_going(&mut self) -> bool {
        if self.interrupt.is_none() {
            if let Err(e) = self.py.check_signals() {
                self.interrupt = Some(e);
            }
        }
        if self.interrupt.is_none() && self.shown.elapsed() >= std::time::Duration::from_millis(100)
        {
            self.show();
        }
        self.interrupt.is_none() && self.failure.is_none()
    }

    fn take(&mut self, _first: u64, items: Vec<T>) -> bool {
        for x in items {
            self.cols.push(x);
            self.done += 1;
            if self.cols.len() >= self.sink_every && !self.flush() {
                return false;
            }
        }
        self.failure.is_none()
    }
}

/// Reserves the kept arrays of a run of `n` items, or raises `MemoryError`.
pub(super) fn reserve<T, C: Columns<T>>(cols: &mut C, n: u64, what: &str) -> PyResult<()> {
    cols.reserve(n as usize).map_err(|_| {
        super::errors::OutOfMemoryError::new_err(format!(
            "not enough memory to keep {n} {what}; stream them to disk instead (out=PATH)"
        ))
    })
}

/// Reads the common arguments of a run: the count (at most [`MAX_IN_MEMORY`] when the
/// items are kept), the first index and the threads.
fn run_args(
    count: &Bound<'_, PyAny>,
    count_name: &str,
    start: &Bound<'_, PyAny>,
    threads: Option<&Bound<'_, PyAny>>,
    kept: bool,
) -> PyResult<(u64, u64, Option<usize>)> {
    let n = runs::ranged_arg(count, count_name, 0, u64::MAX as i128)? as u64;
    if kept && n > MAX_IN_MEMORY {
        return Err(MjError::argument(format!(
            "{count_name}={n} is more than the {MAX_IN_MEMORY} a call keeps in memory; \
             stream the results to disk instead (out=PATH)"
        ))
        .into());
    }
    let start = runs::u64_arg(start, "start")?;
    if start.checked_add(n).is_none() {
        return Err(
            MjError::argument(format!("start + {count_name} must stay below 2**64")).into(),
        );
    }
    Ok((n, start, runs::threads_arg(threads)?))
}

/// Plays hands `start .. start + n_hands` of a simulation in Rust (GIL released) and
/// returns a dict of numpy arrays: `winner`, `discarder` (int8, -1 none), `fan_total`
/// (int32), `turns` (uint16), `dealer` (int8), `scores` (n, 4) int32 and `fans` (n, 16)
/// uint8 (the winner's fan ids, 0 = none); with `check`, also `violations` and
/// `violation_examples`.
///
/// With `sink`, the arrays are not kept: `sink(first_index, arrays)` is called with
/// every `sink_hands` hands in order (and the rest at the end or on an interrupt), and
/// memory does not grow with `n_hands`. Without it `n_hands` is at most
/// `MAX_IN_MEMORY`. `progress(hands_done)` is called about every 100 ms. Ctrl-C stops
/// the run within a hand and raises `KeyboardInterrupt` with `done` (hands finished, in
/// order from `start`) and, without a sink, `partial` (their arrays).
#[pyfunction]
#[pyo3(signature = (n_hands, *, rules, bots, seed=None, start=None, threads=None, check=Flag(false), sink=None, sink_hands=Int(100_000), progress=None))]
#[pyo3(
    text_signature = "(n_hands, *, rules, bots, seed=None, start=None, threads=None, check=False, sink=None, sink_hands=100000, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn simulate_hands<'py>(
    py: Python<'py>,
    n_hands: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    check: Flag,
    sink: Option<Bound<'py, PyAny>>,
    sink_hands: Int<u64>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let zero = 0i64.into_pyobject(py)?.into_any();
    let kept = sink.as_ref().map_or(true, |s| s.is_none());
    let (n, start, threads) = run_args(n_hands, "n_hands", start.unwrap_or(&zero), threads, kept)?;
    let spec = SimSpec {
        rules: convert::rules(rules)?,
        bots: bot_kinds(bots)?,
        seed: runs::u64_arg(seed.unwrap_or(&zero), "seed")?,
    };
    let check = check.0;
    let sink_hands = sink_hands.0;
    if !(1..=MAX_SINK_HANDS).contains(&sink_hands) {
        return Err(MjError::argument(format!(
            "sink_hands must be between 1 and {MAX_SINK_HANDS} (the hands held in memory \
             before each sink call), got {sink_hands}"
        ))
        .into());
    }
    let sink_hands = sink_hands as usize;
    let pool = sim::pool(threads)?;
    let mut host: PyHost<'py, HandColumns> = PyHost::new(py, start, sink, sink_hands, progress);
    // With `check`, the counts are there even for zero hands.
    host.cols.violations = check.then(Violations::default);
    if kept {
        reserve(&mut host.cols, n, "hands")?;
    }
    let end = sim::run(
        &pool,
        &spec.rules,
        &spec.bots,
        start,
        n,
        sim_block(&spec.bots),
        |table, i| {
            let (o, v) = spec.play(table, i, check)?;
            Ok((o, check.then_some(v)))
        },
        &mut host,
    );
    host.finish(end)
}

/// The entries of an arena: `bots` as built-in policies when they all are names, else
/// each a name or a Python bot (any other object).
fn arena_entries(bots: &Bound<'_, PyAny>) -> PyResult<Result<[PolicyKind; 4], [Entry; 4]>> {
    if bots.cast::<PyString>().is_ok() {
        return bot_kinds(bots).map(Ok);
    }
    let items: Vec<Bound<'_, PyAny>> = match bots.try_iter() {
        Ok(it) => it.collect::<PyResult<_>>()?,
        Err(_) => return bot_kinds(bots).map(Ok),
    };
    if items.iter().all(|b| b.cast::<PyString>().is_ok()) {
        return bot_kinds(bots).map(Ok);
    }
    if items.len() != 4 {
        return Err(MjError::argument(format!(
            "bots needs four entries (one per seat) when one is a Python bot, got {}",
            items.len()
        ))
        .into());
    }
    let mut entries = Vec::with_capacity(4);
    for b in &items {
        entries.push(match b.cast::<PyString>() {
            Ok(name) => Entry::Builtin(policy_kind(&name.to_cow()?)?),
            Err(_) => Entry::Python(b.clone().unbind()),
        });
    }
    // Four entries were checked above; a count that disagrees is reported, not a panic.
    let entries = <[Entry; 4]>::try_from(entries).map_err(|e| {
        MjError::argument(format!(
            "bots needs four entries (one per seat), got {}",
            e.len()
        ))
    })?;
    Ok(Err(entries))
}

/// Plays arena games `start .. start + n_games` and returns a dict of numpy arrays, per
/// game and indexed by bot (the position in `bots`): `wall` (int64), `seats` (n, 4) int8
/// (each bot's seat), `winner` and `discarder` (int8 bot index, -1 none), `fan_total`
/// (int32), `scores` (n, 4) int32. `n_games` is at most `MAX_IN_MEMORY`; `progress` and
/// Ctrl-C as in `simulate_hands`.
///
/// `bots`: built-in names (one for every seat, or four), played on `threads` worker
/// threads with the GIL released; or four entries, each a name or a Python bot (an
/// object with `act(observation)` and optionally `begin_hand(seed)`), played one game
/// after another on this thread through the same deal and seating, the Python bots asked
/// with the GIL (`threads` is not used). `names` (four strings) name the bots in a
/// `BotError`: a Python bot that raises, or answers with an action the round refuses,
/// raises `BotError` (`IllegalBotActionError`) with `bot`, `name`, `game`, `seat` and
/// `partial` (the arrays of the games finished before it), its exception chained.
#[pyfunction]
#[pyo3(signature = (n_games, *, rules, bots, seed=None, start=None, duplicate=Flag(true), threads=None, progress=None, names=None))]
#[pyo3(
    text_signature = "(n_games, *, rules, bots, seed=None, start=None, duplicate=True, threads=None, progress=None, names=None)"
)]
#[allow(clippy::too_many_arguments)]
fn arena_games<'py>(
    py: Python<'py>,
    n_games: &Bound<'py, PyAny>,
    rules: &Bound<'py, PyAny>,
    bots: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyAny>>,
    duplicate: Flag,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<Bound<'py, PyAny>>,
    names: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let duplicate = duplicate.0;
    let zero = 0i64.into_pyobject(py)?.into_any();
    let (n, start, threads) = run_args(n_games, "n_games", start.unwrap_or(&zero), threads, true)?;
    let rules = convert::rules(rules)?;
    let deal = ArenaDeal {
        seed: runs::u64_arg(seed.unwrap_or(&zero), "seed")?,
        duplicate,
    };
    let kinds = match arena_entries(bots)? {
        Ok(kinds) => kinds,
        Err(entries) => {
            let names: [String; 4] = match names {
                None => std::array::from_fn(|b| match &entries[b] {
                    Entry::Builtin(k) => k.as_str().to_string(),
                    Entry::Python(obj) => convert::type_name(obj.bind(py)),
                }),
                Some(v) => <[String; 4]>::try_from(v).map_err(|v| {
                    MjError::argument(format!("names needs four names, got {}", v.len()))
                })?,
            };
            return super::bot::arena_with_bots(
                py, &rules, &entries, &names, deal, start, n, progress,
            );
        }
    };
    let spec = ArenaSpec {
        rules,
        bots: kinds,
        seed: deal.seed,
        duplicate,
    };
    let pool = sim::pool(threads)?;
    let mut host: PyHost<'py, GameColumns> = PyHost::new(py, start, None, 1, progress);
    reserve(&mut host.cols, n, "games")?;
    let end = sim::run(
        &pool,
        &spec.rules,
        &spec.bots,
        start,
        n,
        ARENA_BLOCK,
        |table, j| spec.play(table, j),
        &mut host,
    );
    host.finish(end)
}

/// Fan ids (as in `simulate_hands(...)["fans"]`) to `(english, chinese)` names.
#[pyfunction]
fn fan_names(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for id in 1..=u8::MAX {
        if let Some((en, zh)) = sim::fan_name(id) {
            d.set_item(id, (en, zh))?;
        }
    }
    Ok(d)
}

/// The names of the built-in policies.
#[pyfunction]
fn policy_names() -> Vec<&'static str> {
    PolicyKind::ALL.iter().map(|k| k.as_str()).collect()
}

// ---- a built-in policy on a Python observation ---------------------------------------

/// The Rust observation inside a majiang `Observation` (a `TypeError` for anything else).
pub(super) fn observation_of<'a, 'py>(
    obj: &'a Bound<'py, PyAny>,
) -> PyResult<&'a Bound<'py, PyObservation>> {
    obj.cast::<PyObservation>().map_err(|_| {
        super::errors::type_error(format!(
            "observation must be a majiang.Observation (from Round.observation), got {}",
            convert::type_name(obj)
        ))
    })
}

/// The action a policy chose, checked against the observation's legal actions: the shared
/// `Action` object, or `IllegalActionError` naming the policy and its choice.
pub(super) fn checked_choice<'py>(
    py: Python<'py>,
    policy: &str,
    obs: &Observation,
    chosen: Action,
) -> PyResult<Bound<'py, PyAny>> {
    let chosen = legal_choice(policy, obs, chosen)?;
    Ok(action_obj(py, chosen)?.into_bound(py).into_any())
}

/// `chosen` if it is one of the observation's legal actions, else the error naming the
/// policy and its choice.
fn legal_choice(policy: &str, obs: &Observation, chosen: Action) -> Result<Action, MjError> {
    if obs.legal.as_slice().contains(&chosen) {
        Ok(chosen)
    } else {
        Err(MjError::action(format!(
            "the {policy} policy chose {}, which is not one of the legal actions",
            chosen.describe()
        )))
    }
}

/// Fails with `IllegalActionError` when the observation leaves nothing to decide.
pub(super) fn check_has_choice(obs: &Observation) -> PyResult<()> {
    if obs.legal.as_slice().is_empty() {
        return Err(MjError::action(format!(
            "seat {} has no legal action to choose from in this observation",
            obs.seat
        ))
        .into());
    }
    Ok(())
}

/// The live view of `seat` in `round` (the view `simulate` plays from).
pub(super) fn live_view<'a>(round: &'a PyRound, seat: Int<i128>) -> PyResult<RoundView<'a>> {
    Ok(RoundView {
        round: &round.inner,
        seat: seat_arg("seat", seat)?,
    })
}

/// A built-in policy (`"random"`, `"efficiency"`, `"strong"`, `"strong_lite"`,
/// `"strong_search"` or `"expert"`) playing from Python observations:
/// `Policy("efficiency", seed=0).choose(observation)` returns one of
/// `observation.legal_actions`. It reads the round's own snapshot inside the
/// `Observation` (the rules and the 宝 included), so it plays exactly as inside
/// `simulate`. Without `rules=` it plays the rules each observation was dealt under;
/// with `rules=` only those (another observation raises `RuleError`).
#[pyclass(name = "Policy", module = "majiang")]
pub struct PyPolicy {
    kind: PolicyKind,
    /// The seed it was built with.
    seed: u64,
    /// The seed of the last `reseed`, applied to a policy built after it.
    reseeded: Option<u64>,
    policy: ForRules<Box<dyn Policy>>,
}

impl PyPolicy {
    /// The policy for an observation dealt under `rules`.
    fn for_rules(&mut self, rules: &crate::rules::Rules) -> PyResult<&mut Box<dyn Policy>> {
        let (kind, seed, reseeded) = (self.kind, self.seed, self.reseeded);
        self.policy.get(kind.as_str(), rules, |r| {
            let mut p = kind.build_seeded(r, seed);
            if let Some(s) = reseeded {
                p.begin_hand(s);
            }
            p
        })
    }
}

#[pymethods]
impl PyPolicy {
    #[new]
    #[pyo3(signature = (name, *, rules=None, seed=Int(0)))]
    #[pyo3(text_signature = "(name, *, rules=None, seed=0)")]
    fn new(name: Text, rules: Option<&Bound<'_, PyAny>>, seed: Int<i128>) -> PyResult<Self> {
        let fixed = match rules {
            Some(r) if !r.is_none() => Some(convert::rules(r)?),
            _ => None,
        };
        Ok(PyPolicy {
            kind: policy_kind(&name)?,
            seed: seed_arg(seed.0)?,
            reseeded: None,
            policy: ForRules::new(fixed),
        })
    }

    /// The policy's name.
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.as_str()
    }

    /// The rules it was built for (`rules=`), or None when it plays the rules of each
    /// observation.
    #[getter]
    fn rules(&self) -> Option<PyRuleSet> {
        self.policy.fixed().map(|r| PyRuleSet { inner: r.clone() })
    }

    /// Reseeds the policy's random choices.
    fn reseed(&mut self, seed: Int<i128>) -> PyResult<()> {
        let seed = seed_arg(seed.0)?;
        self.reseeded = Some(seed);
        if let Some(p) = self.policy.current() {
            p.begin_hand(seed);
        }
        Ok(())
    }

    /// The policy's choice, one of `observation.legal_actions` (the same object).
    /// `observation` must be a majiang `Observation` (a `TypeError` otherwise); an
    /// observation without legal actions, or a choice outside them, raises
    /// `IllegalActionError`; one dealt under rules other than `rules=`, `RuleError`.
    fn choose<'py>(&mut self, observation: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let obs = &observation_of(observation)?.get().inner;
        check_has_choice(obs)?;
        let name = self.kind.as_str();
        let a = self.for_rules(&obs.rules)?.act(&**obs);
        checked_choice(observation.py(), name, obs, a)
    }

    /// The policy's choice for `seat` read from the live round (the view `simulate`
    /// plays from) instead of an `Observation` snapshot: lets tests check that both
    /// views lead to the same play.
    fn _choose_live<'py>(
        &mut self,
        py: Python<'py>,
        round: PyRef<'_, PyRound>,
        seat: Int<i128>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let view = live_view(&round, seat)?;
        let obs = round.inner.observe(view.seat);
        check_has_choice(&obs)?;
        let name = self.kind.as_str();
        let a = self.for_rules(&obs.rules)?.act(&view);
        checked_choice(py, name, &obs, a)
    }

    /// The choice `choose` makes, with the reasons, as a dict (the strong family only:
    /// the layout of `StrongPolicy.explain`); `ValueError` for a policy that does not
    /// explain, other errors as in `choose`.
    fn explain<'py>(&mut self, observation: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let obs = &observation_of(observation)?.get().inner;
        check_has_choice(obs)?;
        let name = self.kind.as_str();
        let (_, e) = self.for_rules(&obs.rules)?.explain(&**obs)?;
        super::strong::explanation_dict(observation.py(), name, obs, &e)
    }

    fn __repr__(&self) -> String {
        format!("Policy({:?})", self.kind.as_str())
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    runs::load_numpy(m.py())?;
    m.add("MAX_IN_MEMORY", MAX_IN_MEMORY)?;
    m.add("MAX_SINK_HANDS", MAX_SINK_HANDS)?;
    m.add("MAX_THREADS", sim::MAX_THREADS)?;
    m.add_class::<PyPolicy>()?;
    m.add_function(wrap_pyfunction!(simulate_hands, m)?)?;
    m.add_function(wrap_pyfunction!(arena_games, m)?)?;
    m.add_function(wrap_pyfunction!(fan_names, m)?)?;
    m.add_function(wrap_pyfunction!(policy_names, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::Round;
    use crate::rules::Rules;

    #[test]
    fn a_choice_outside_the_legal_actions_is_an_error() {
        let round = Round::new(&Rules::gb(), 1, 0, 0).unwrap();
        let obs = round.observe(0);
        let legal = obs.legal.as_slice()[0];
        assert_eq!(legal_choice("test", &obs, legal), Ok(legal));
        let win = Action::from_parts("win", None).unwrap();
        let pass = Action::from_parts("pass", None).unwrap();
        let illegal = [win, pass]
            .into_iter()
            .find(|a| !obs.legal.as_slice().contains(a))
            .unwrap();
        let e = legal_choice("test", &obs, illegal).unwrap_err();
        assert!(matches!(e, MjError::IllegalAction(_)), "{e:?}");
        assert!(e.message().contains("the test policy chose"), "{e}");
    }
}
