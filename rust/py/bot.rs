//! Python bots at a Rust table: [`PyBot`] is a [`Policy`] that asks a Python object with
//! `act(observation)` for every decision of its seat, so an arena that seats Python bots
//! among the built-in ones is dealt, seated, seeded and played by the Rust arena
//! ([`ArenaDeal`]) like any other, one game after another on the calling thread.
//!
//! A Python bot that raises, or answers with something the round refuses, ends the arena
//! with `majiang.BotError` (`IllegalBotActionError` for an action that is not legal) naming
//! the bot, its name, the game and its seat, with `partial` the arrays of the games
//! finished before it and the bot's own exception chained. Ctrl-C (a `KeyboardInterrupt`
//! raised inside the bot, or seen between games) stops the run with the games finished.

use super::action::PyAction;
use super::convert;
use super::errors::{BotError, IllegalBotActionError};
use super::observation::PyObservation;
use super::sim::{GameColumns, PyHost};
use crate::error::MjError;
use crate::policy::{Policy, PolicyKind, TableView};
use crate::round::Action;
use crate::rules::Rules;
use crate::sim::{self, ArenaDeal, RunEnd, Table};
use pyo3::exceptions::PyException;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex, MutexGuard};

/// One seat of an arena: a built-in policy or a Python bot.
pub(super) enum Entry {
    /// A built-in policy.
    Builtin(PolicyKind),
    /// An object with `act(observation)` (and optionally `begin_hand(seed)`).
    Python(Py<PyAny>),
}

/// What went wrong with a Python bot.
enum Failure {
    /// `act` or `begin_hand` raised.
    Raised(PyErr, &'static str),
    /// `act` returned something that is not an `Action`.
    NotAnAction(PyErr),
}

/// What the seats of one table share: the bot that made the last decision (so that an
/// action the round refuses is blamed on the right bot) and the first failure of a
/// Python bot.
#[derive(Default)]
struct Log {
    last: Option<usize>,
    failure: Option<(usize, Failure)>,
}

type SharedLog = Arc<Mutex<Log>>;

fn lock(log: &SharedLog) -> MutexGuard<'_, Log> {
    log.lock().unwrap_or_else(|e| e.into_inner())
}

/// An action the round refuses whatever its penalty rules (not among the seat's legal
/// actions, and not a win): the answer of a Python bot that failed, so that the hand
/// stops at its next step.
fn refused(legal: &[Action]) -> Action {
    std::iter::once(Action::Pass)
        .chain((0..crate::tile::N_KINDS as u8).map(Action::Discard))
        .find(|a| !legal.contains(a))
        .unwrap_or(Action::Pass)
}

/// A built-in policy at a table with Python bots: plays as itself and notes its
/// decisions in the table's log.
struct Noted {
    inner: Box<dyn Policy>,
    bot: usize,
    log: SharedLog,
}

impl Policy for Noted {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn begin_hand(&mut self, seed: u64) {
        self.inner.begin_hand(seed);
    }
    fn act(&mut self, view: &dyn TableView) -> Action {
        lock(&self.log).last = Some(self.bot);
        self.inner.act(view)
    }
    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(Noted {
            inner: self.inner.boxed_clone(),
            bot: self.bot,
            log: self.log.clone(),
        })
    }
}

/// A Python bot as a policy: each decision builds the seat's `Observation` (the round's
/// own snapshot, as `Round.observation` gives it) and calls `act(observation)` with the
/// GIL; each hand starts with `begin_hand(seed)` when the object has that method. A
/// failure is kept in the table's log and answered with a refused action.
pub(super) struct PyBot {
    obj: Py<PyAny>,
    bot: usize,
    log: SharedLog,
}

impl PyBot {
    fn ask(&self, py: Python<'_>, view: &dyn TableView) -> Result<Action, Failure> {
        let raised = |e| Failure::Raised(e, "");
        let obs = Py::new(
            py,
            PyObservation {
                inner: Box::new(view.observation()),
            },
        )
        .map_err(raised)?;
        let answer = self
            .obj
            .bind(py)
            .call_method1(intern!(py, "act"), (obs,))
            .map_err(raised)?;
        match answer.cast::<PyAction>() {
            Ok(a) => Ok(a.get().inner),
            Err(_) => Err(Failure::NotAnAction(super::errors::type_error(format!(
                "act returned {}, not a majiang.Action (one of observation.legal_actions)",
                convert::type_name(&answer)
            )))),
        }
    }
}

impl Policy for PyBot {
    fn name(&self) -> &'static str {
        "python"
    }

    fn begin_hand(&mut self, seed: u64) {
        if lock(&self.log).failure.is_some() {
            return;
        }
        let told = Python::attach(|py| -> PyResult<()> {
            if let Some(f) = self.obj.bind(py).getattr_opt(intern!(py, "begin_hand"))? {
                if f.is_callable() {
                    f.call1((seed,))?;
                }
            }
            Ok(())
        });
        if let Err(e) = told {
            lock(&self.log).failure = Some((self.bot, Failure::Raised(e, " in begin_hand")));
        }
    }

    fn act(&mut self, view: &dyn TableView) -> Action {
        {
            let mut log = lock(&self.log);
            log.last = Some(self.bot);
            if log.failure.is_some() {
                return refused(view.legal());
            }
        }
        match Python::attach(|py| self.ask(py, view)) {
            Ok(a) => a,
            Err(f) => {
                lock(&self.log).failure = Some((self.bot, f));
                refused(view.legal())
            }
        }
    }

    fn boxed_clone(&self) -> Box<dyn Policy> {
        Box::new(PyBot {
            obj: Python::attach(|py| self.obj.clone_ref(py)),
            bot: self.bot,
            log: self.log.clone(),
        })
    }
}

/// What a bot is blamed for: its index, what it did, whether the action was illegal, and
/// the exception to chain.
struct Blame {
    bot: usize,
    what: String,
    illegal: bool,
    cause: PyErr,
}

impl Blame {
    /// An illegal action of `bot`.
    fn illegal(bot: usize, cause: PyErr) -> Blame {
        Blame {
            bot,
            what: "returned an illegal action".to_string(),
            illegal: true,
            cause,
        }
    }

    /// The `BotError` (or `IllegalBotActionError`) for game `j`, its cause chained;
    /// `partial` is set by the caller.
    fn error(
        self,
        py: Python<'_>,
        deal: ArenaDeal,
        names: &[String; 4],
        j: u64,
    ) -> PyResult<PyErr> {
        let (w, seats) = deal.game(j);
        let (bot, seat) = (self.bot, seats[self.bot]);
        let detail = self.cause.value(py).str()?.to_string();
        let msg = format!(
            "bot {bot} ({}) {} in game {j} (wall {w}, seat {seat}): {detail}",
            names[bot], self.what
        );
        let err = if self.illegal {
            IllegalBotActionError::new_err(msg)
        } else {
            BotError::new_err(msg)
        };
        let v = err.value(py);
        v.setattr("bot", bot)?;
        v.setattr("name", &names[bot])?;
        v.setattr("game", j)?;
        v.setattr("seat", seat)?;
        err.set_cause(py, Some(self.cause));
        Ok(err)
    }
}

/// Plays arena games `start .. start + n` with Python bots among `entries` (bot `b` is
/// `entries[b]`, named `names[b]` in errors), one after another on this thread, and
/// returns the arrays of `arena_games`.
#[allow(clippy::too_many_arguments)]
pub(super) fn arena_with_bots<'py>(
    py: Python<'py>,
    rules: &Rules,
    entries: &[Entry; 4],
    names: &[String; 4],
    deal: ArenaDeal,
    start: u64,
    n: u64,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let log = SharedLog::default();
    let policies: [Box<dyn Policy>; 4] = std::array::from_fn(|b| -> Box<dyn Policy> {
        match &entries[b] {
            Entry::Builtin(k) => Box::new(Noted {
                inner: k.build(rules),
                bot: b,
                log: log.clone(),
            }),
            Entry::Python(obj) => Box::new(PyBot {
                obj: obj.clone_ref(py),
                bot: b,
                log: log.clone(),
            }),
        }
    });
    let mut table = Table::with_policies(rules, policies);
    let mut host: PyHost<'py, GameColumns> = PyHost::new(py, start, None, 1, progress);
    super::sim::reserve(&mut host.cols, n, "games")?;
    let play = |t: &mut Table, j: u64| {
        let game = deal.play(t, j)?;
        // A failure in a hand that asked the bot nothing more ends the run here too.
        if lock(&log).failure.is_some() {
            return Err(MjError::action("a Python bot failed".to_string()));
        }
        Ok(game)
    };
    let end = sim::run_in_order(&mut table, start, n, play, &mut host);
    let Err(engine) = end else {
        return host.finish(end);
    };
    // The game that failed is the one after those given to the host.
    let j = start + host.cols_len() as u64;
    let (failure, last) = {
        let mut l = lock(&log);
        (l.failure.take(), l.last)
    };
    let blame = match failure {
        Some((_, Failure::Raised(e, _))) if !e.is_instance_of::<PyException>(py) => {
            // Ctrl-C inside the bot (or another BaseException): not the bot's failure.
            let done = host.cols_len() as u64;
            host.fail(e);
            return host.finish(Ok(RunEnd {
                done,
                stopped: true,
            }));
        }
        Some((bot, Failure::Raised(e, during))) => Blame {
            bot,
            what: format!("raised {}{during}", e.get_type(py).name()?),
            illegal: false,
            cause: e,
        },
        Some((bot, Failure::NotAnAction(e))) => Blame::illegal(bot, e),
        None => match (last, &engine) {
            (Some(bot), MjError::IllegalAction(_)) if matches!(entries[bot], Entry::Python(_)) => {
                Blame::illegal(bot, engine.into())
            }
            _ => return Err(engine.into()),
        },
    };
    let err = blame.error(py, deal, names, j)?;
    err.value(py).setattr("partial", host.take_kept()?)?;
    Err(err)
}
