//! Long runs: blocks of hands (or arena games) handed back to the caller's thread in
//! index order, stoppable at any point.

use super::table::Table;
use crate::error::{MjError, MjResult};
use crate::policy::PolicyKind;
use crate::rules::Rules;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often, at least, [`run`] hands control back to its caller (to look for an
/// interrupt) while the workers play.
pub const TICK: Duration = Duration::from_millis(20);

/// The caller's side of a [`run`] or a [`run_in_order`]: everything here is called on the
/// caller's thread.
pub trait RunHost<T> {
    /// Runs `wait`, blocking work on the caller's thread (the Python bindings release the
    /// GIL around it): in [`run`] a wait of at most [`TICK`] for the workers, in
    /// [`run_in_order`] one item played.
    fn wait<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R;
    /// Called after every wait: `false` stops the run (the workers finish the item they
    /// are playing and stop); finished items are still given to [`RunHost::take`].
    fn keep_going(&mut self) -> bool;
    /// The next finished items, in index order; `first` is the index of the first one.
    /// `false` stops the run and nothing more is given.
    fn take(&mut self, first: u64, items: Vec<T>) -> bool;
}

/// How a [`run`] (or a [`run_in_order`]) ended.
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

/// Plays items `start..start + count` one after another on the caller's thread, item `i`
/// through `play(table, i)` inside [`RunHost::wait`], and gives each to `host` as soon as
/// it is finished; after each, [`RunHost::keep_going`] may stop the run. For tables whose
/// policies must not be shared between threads or played in parallel (a policy that
/// keeps state across hands outside the seeds, such as a Python bot): the items are the
/// ones [`run`] plays, so a table of built-in policies gives the same items both ways.
/// An error of `play` ends the run with that error; the items given before it stay given.
pub fn run_in_order<T: Send, H: RunHost<T>>(
    table: &mut Table,
    start: u64,
    count: u64,
    play: impl Fn(&mut Table, u64) -> MjResult<T> + Sync,
    host: &mut H,
) -> MjResult<RunEnd> {
    if start.checked_add(count).is_none() {
        return Err(MjError::rule(
            "the last index of a run must stay below 2**64".to_string(),
        ));
    }
    let play = &play;
    let mut done = 0u64;
    for i in start..start + count {
        let item = host.wait(|| play(&mut *table, i))?;
        done += 1;
        if !host.take(i, vec![item]) || !host.keep_going() {
            return Ok(RunEnd {
                done,
                stopped: done < count,
            });
        }
    }
    Ok(RunEnd {
        done,
        stopped: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PolicyKind;
    use crate::sim::test_spec as spec;
    use crate::sim::{arena, pool, simulate, ArenaSpec, MAX_THREADS};

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
    fn an_arena_in_order_on_given_policies_matches_the_batch() {
        let a = ArenaSpec {
            rules: Rules::gb(),
            bots: [
                PolicyKind::Efficiency,
                PolicyKind::Random,
                PolicyKind::StrongLite,
                PolicyKind::Random,
            ],
            seed: 13,
            duplicate: true,
        };
        let want = arena(&a, 8, 40, &pool(Some(2)).unwrap()).unwrap();
        let mut table =
            Table::with_policies(&a.rules, std::array::from_fn(|b| a.bots[b].build(&a.rules)));
        let mut host = Collect::new();
        let end = run_in_order(&mut table, 8, 40, |t, j| a.play(t, j), &mut host).unwrap();
        assert_eq!(
            end,
            RunEnd {
                done: 40,
                stopped: false
            }
        );
        assert_eq!(host.items, want);
        assert_eq!(host.firsts, (8..48).collect::<Vec<u64>>());

        // Stopped after 5 items: those 5, and nothing played after them.
        let mut host = Collect::new();
        host.stop_at = Some(5);
        let end = run_in_order(&mut table, 8, 40, |t, j| a.play(t, j), &mut host).unwrap();
        assert_eq!(
            end,
            RunEnd {
                done: 5,
                stopped: true
            }
        );
        assert_eq!(&host.items[..], &want[..5]);
        assert!(run_in_order(&mut table, u64::MAX, 2, |t, j| a.play(t, j), &mut host).is_err());
    }

    #[test]
    fn an_error_ends_a_run_in_order_after_the_items_before_it() {
        let s = spec("random", Rules::gb());
        let mut table = Table::new(&s.rules, &s.bots);
        let mut host = Collect::new();
        let e = run_in_order(
            &mut table,
            0,
            10,
            |t, i| {
                if i == 3 {
                    Err(MjError::action("refused".to_string()))
                } else {
                    s.play(t, i, false).map(|(o, _)| o)
                }
            },
            &mut host,
        )
        .unwrap_err();
        assert_eq!(e.message(), "refused");
        assert_eq!(host.items.len(), 3);
    }
}
