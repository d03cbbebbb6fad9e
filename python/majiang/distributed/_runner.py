"""Running shards as Ray tasks: a bounded number in flight, progress, failures.

Every workload of :mod:`majiang.distributed` is a list of :class:`Job` (a range of the
run and the arguments of the task that plays it) handed to :func:`run_jobs`, which keeps
at most a few tasks per CPU of the cluster in flight (so the driver holds a bounded
number of task handles and results whatever the size of the run), gives each finished
task to the workload's ``on_done`` in the order they finish, and prints the progress
line. Ray retries a task whose worker process died (``max_retries``); a task that
raises, or runs out of retries, is a failure: no new task is started, the tasks in
flight finish (their results are kept), and the failures are returned for the workload
to report.
"""

from __future__ import annotations

import math
import socket
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Any, NoReturn

from ..errors import InvalidArgumentError, MajiangError, MissingExtraError, ShardError
from ..sim import MAX_THREADS, _check_int

__all__ = ["Failure", "Job", "hostname", "ray_module", "run_jobs"]

#: Seconds between two progress lines when stderr is not a terminal (a log file).
LOG_EVERY = 30.0
#: Seconds between two redraws of the progress line on a terminal.
DRAW_EVERY = 0.5


def ray_module(address: str | None) -> Any:
    """Ray, connected: to the cluster Ray is already initialized with, else to
    ``address`` (``RAY_ADDRESS`` when None, else a local instance)."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise MissingExtraError('majiang.distributed needs Ray: pip install "majiang[ray]"') from e
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    return ray


def hostname() -> str:
    """The name of the node this runs on (what a worker reports)."""
    return socket.gethostname()


def check_threads(threads: Any) -> int:
    """``threads_per_shard``: 1 to MAX_THREADS, or None for one thread (a task per CPU)."""
    if threads is None:
        return 1
    threads = _check_int("threads_per_shard", threads)
    if not 1 <= threads <= MAX_THREADS:
        raise InvalidArgumentError(
            f"threads_per_shard must be between 1 and {MAX_THREADS} (or None), got {threads}"
        )
    return threads


def check_retries(max_retries: Any) -> int:
    """``max_retries``: 0 to 100."""
    n = _check_int("max_retries", max_retries)
    if not 0 <= n <= 100:
        raise InvalidArgumentError(f"max_retries must be between 0 and 100, got {n}")
    return n


@dataclass
class Job:
    """One task of a run: ``first`` and ``count`` place it in the run (in ``unit``s),
    ``what`` names it in words, ``args`` are the task function's arguments, ``key``
    is what the workload files its result under."""

    first: int
    count: int
    what: str
    args: tuple[Any, ...]
    key: Any = None


@dataclass
class Failure:
    """A job that failed: the worker's error as text, its node when known, and the
    worker's own exception when Ray returned it (``cause``)."""

    job: Job
    error: str
    node: str | None
    cause: BaseException | None


class TaskFailed(MajiangError):
    """A task's exception and the node it was raised on (which Ray does not report),
    as the task sends it to the driver; :func:`describe` unwraps it."""

    def __init__(self, node: str, error: BaseException) -> None:
        super().__init__(node, error)
        self.node = node
        self.error = error


def on_node(task: Callable[..., Any], *args: Any) -> Any:
    """What a Ray task runs: ``task(*args)``, its exception sent with this node's name."""
    try:
        return task(*args)
    except Exception as e:
        raise TaskFailed(hostname(), e) from None


def describe(e: BaseException) -> tuple[str, str | None, BaseException | None]:
    """The worker's error of a failed task as ``(text, node, cause)``: the exception a
    task raised (unwrapped from Ray's ``RayTaskError``), or what Ray says happened (a
    worker that died, a node lost)."""
    cause = getattr(e, "cause", None)
    node = getattr(e, "ip", None)
    if isinstance(cause, TaskFailed):
        node, cause = cause.node, cause.error
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}", node, cause
    first = str(e).strip().splitlines()
    return f"{type(e).__name__}: {first[0] if first else ''}".rstrip(": "), node, None


def clock(seconds: float) -> str:
    """A duration as ``1h02m03s`` / ``2m03s`` / ``3s``."""
    s = max(0, int(round(seconds)))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h}h{m:02d}m{s:02d}s"
    return f"{m}m{s:02d}s" if m else f"{s}s"


class Progress:
    """The progress line of a cluster run on stderr: what is done of the total, the
    rate of this session (the run's hands or games or inputs per second since it
    started, what a resumed run found done left out), the time left at that rate, and
    the tasks in flight. On a terminal the line is redrawn in place; into a log file a
    line is written every :data:`LOG_EVERY` seconds and at the end. Failures are
    written on lines of their own as they happen, also when ``show`` is false (no
    progress line)."""

    def __init__(
        self,
        label: str,
        unit: str,
        total: int,
        done: int,
        show: bool = True,
        stream: IO[str] | None = None,
    ) -> None:
        self.show = show
        self.label = label
        self.unit = unit
        self.total = total
        self.start_done = done
        self.done = done
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self.last = -math.inf
        self.running = 0
        self.drawn = False

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        session = self.done - self.start_done
        rate = session / elapsed if elapsed > 0 else 0.0
        frac = self.done / self.total if self.total else 1.0
        left = self.total - self.done
        if left <= 0:
            eta = "done"
        elif rate > 0:
            eta = f"ETA {clock(left / rate)}"
        else:
            eta = "ETA -"
        return (
            f"{self.label}: {self.done:,}/{self.total:,} {self.unit} ({frac:.1%}), "
            f"{rate:,.0f} {self.unit}/s, {eta}, {self.running} running, "
            f"{clock(elapsed)} elapsed"
        )

    def every(self) -> float:
        """Seconds between two lines (or redraws)."""
        return DRAW_EVERY if self.tty else LOG_EVERY

    def update(self, done: int, running: int, force: bool = False) -> None:
        self.done, self.running = done, running
        if not self.show:
            return
        now = time.monotonic()
        if not force and now - self.last < self.every():
            return
        self.last = now
        if self.tty:
            self.stream.write("\r\x1b[K" + self.line())
            self.drawn = True
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A line of its own (a failure), the progress line drawn again below it."""
        if self.tty and self.drawn:
            self.stream.write("\r\x1b[K")
        self.stream.write(f"{self.label}: {text}\n")
        self.stream.flush()
        self.drawn = False
        self.last = -math.inf

    def close(self) -> None:
        self.update(self.done, self.running, force=True)
        if self.show and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def window_size(ray: Any, cpus: int) -> int:
    """Tasks kept in flight: two per slot of the cluster (its CPUs over the CPUs a task
    asks for), so that every slot has its next task queued; at least two."""
    try:
        total = float(ray.cluster_resources().get("CPU", 1))
    except Exception:  # noqa: BLE001 - a cluster that cannot say: assume one slot
        total = 1.0
    return max(2, 2 * int(total // max(cpus, 1)))


def run_jobs(
    ray: Any,
    task: Callable[..., Any],
    jobs: Iterable[Job],
    on_done: Callable[[Job, Any], None],
    *,
    name: str,
    cpus: int,
    max_retries: int,
    progress: Progress,
    after_each: Callable[[], None] | None = None,
) -> list[Failure]:
    """Runs ``task(*job.args)`` for each job as a Ray task named ``name`` (its worker
    process is titled ``ray::<name>`` while it plays) asking for ``cpus`` CPUs,
    retried ``max_retries`` times if its worker dies, with at most
    :func:`window_size` tasks in flight, and calls ``on_done(job, result)`` in the order
    tasks finish (an exception from ``on_done``, a :class:`~majiang.MajiangError` such
    as a shard whose digest does not match, counts as the job's failure). After the
    first failure no task is started; those in flight finish. ``after_each`` runs after
    every finished task (the manifest's periodic write). Ctrl-C, or an exception of
    ``after_each``, cancels the tasks in flight and is raised. Returns the failures, in
    the order they happened."""
    remote = ray.remote(num_cpus=cpus, max_retries=max_retries)(on_node).options(name=name)
    window = window_size(ray, cpus)
    pending = iter(jobs)
    running: dict[Any, Job] = {}
    failures: list[Failure] = []
    done = progress.done
    try:
        while True:
            while not failures and len(running) < window:
                job = next(pending, None)
                if job is None:
                    break
                running[remote.remote(task, *job.args)] = job
            if not running:
                break
            # A timeout, so that the line's elapsed time and rate move on during long shards.
            ready, _ = ray.wait(list(running), num_returns=1, timeout=progress.every())
            if not ready:
                progress.update(done, len(running))
            for ref in ready:
                job = running.pop(ref)
                try:
                    value = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - Ray's errors and the task's own
                    text, node, cause = describe(e)
                    failures.append(Failure(job, text, node, cause))
                else:
                    try:
                        on_done(job, value)
                    except MajiangError as e:
                        node = value.get("node") if isinstance(value, dict) else None
                        failures.append(Failure(job, f"{type(e).__name__}: {e}", node, e))
                    else:
                        done += job.count
                if failures and failures[-1].job is job:
                    f = failures[-1]
                    where = f" on {f.node}" if f.node else ""
                    progress.note(f"the shard of {job.what} failed{where}: {f.error}")
                if after_each is not None:
                    after_each()
                progress.update(done, len(running))
    except BaseException:
        # Ctrl-C, or the driver's own failure (a manifest it cannot write): the tasks in
        # flight are stopped rather than left to run for nobody.
        for ref in running:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - a task that ended meanwhile
                pass
        raise
    finally:
        progress.close()
    return failures


def raise_shard_error(
    failures: list[Failure], kept: str, *, unit: str, partial: Any = None
) -> NoReturn:
    """Raises the :class:`~majiang.ShardError` of a run with ``failures``: its text names
    the first failing shard (its range, node and the worker's error), how many failed,
    and ``kept`` (what the run kept and how to continue); ``unit`` names what a shard's
    range counts, ``partial`` is what the run kept."""
    f = failures[0]
    where = f" on {f.node}" if f.node else ""
    more = (
        f" ({len(failures)} shards failed; each is reported on stderr)" if len(failures) > 1 else ""
    )
    raise ShardError(
        f"the shard of {f.job.what} failed{where}: {f.error}{more}. {kept}",
        shard=f.job.what,
        first=f.job.first,
        count=f.job.count,
        unit=unit,
        error=f.error,
        node=f.node,
        failed=len(failures),
        partial=partial,
    ) from f.cause
