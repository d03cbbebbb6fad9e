"""Batch simulation and the duplicate arena (re-exported by :mod:`majiang`).

:func:`simulate` plays whole hands in Rust with the built-in policies, on every core, with
the GIL released, and returns a :class:`SimResult` of numpy arrays. :func:`arena` plays
built-in bots against each other, by default in duplicate (every wall played four times
with the seats rotated), and returns an :class:`ArenaResult` with per-bot figures.

Hand ``i`` of a run depends only on ``(seed, i)`` (its wall, its dealer ``i % 4``, its
prevalent wind ``(i // 4) % 4`` and its bots' random choices), so the same seed gives the
same arrays whatever the thread count, and a run split into shards
(:func:`majiang.distributed.simulate`) gives the same arrays as one call.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from . import _core
from ._core import RuleSet

__all__ = ["ArenaResult", "SimResult", "arena", "simulate"]

_COLUMNS = ("winner", "discarder", "fan_total", "turns", "dealer", "scores", "fans")
_ARENA_COLUMNS = ("wall", "seats", "winner", "discarder", "fan_total", "scores")


def _rules_name(rules: str | RuleSet) -> str:
    return rules.name if isinstance(rules, RuleSet) else str(rules)


def _bot_list(bots: str | Sequence[str]) -> list[str]:
    if isinstance(bots, str):
        names = [b.strip() for b in bots.split(",")]
    else:
        names = [str(b) for b in bots]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"bots needs one name or four (one per seat), got {len(names)}")
    known = _core.policy_names()
    for n in names:
        if n not in known:
            raise ValueError(f"unknown bot {n!r} (built-in bots: {', '.join(known)})")
    return names


def _check_count(name: str, n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{name} must be >= 0, got {n}")
    return int(n)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be 0 <= seed < 2**64, got {seed}")
    return int(seed)


class _Progress:
    """A one-line text progress bar on stderr."""

    def __init__(self, total: int, label: str, stream: IO[str] | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        frac = min(done / self.total, 1.0)
        width = 30
        filled = int(frac * width)
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {done:,}/{self.total:,} {frac:6.1%} {rate:,.0f}/s"
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _chunks(n: int, progress: bool, multiple: int = 1) -> list[tuple[int, int]]:
    if not progress or n == 0:
        return [(0, n)]
    size = max(2_000, math.ceil(n / 100))
    size = multiple * math.ceil(size / multiple)
    return [(a, min(size, n - a)) for a in range(0, n, size)]


@dataclass
class SimResult:
    """The outcome of :func:`simulate`: numpy arrays of length ``n_hands``.

    ``winner`` (int8, -1 for an exhaustive draw), ``discarder`` (int8, the seat that dealt
    in; -1 for a self-draw or a draw), ``fan_total`` (int32, flowers included, 0 without a
    winner), ``turns`` (uint16, discards in the hand), ``dealer`` (int8), ``scores``
    (``(n_hands, 4)`` int32, each seat's change, summing to 0 per hand) and ``fans``
    (``(n_hands, 16)`` uint8, the ids of the winner's fans, 0 = none; names in
    :meth:`fan_names`).
    """

    winner: np.ndarray
    discarder: np.ndarray
    fan_total: np.ndarray
    turns: np.ndarray
    dealer: np.ndarray
    scores: np.ndarray
    fans: np.ndarray
    rules: str = "gb"
    bots: list[str] = field(default_factory=lambda: ["efficiency"] * 4)
    seed: int = 0

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    @classmethod
    def _from_arrays(cls, parts: list[dict[str, np.ndarray]], **meta: Any) -> SimResult:
        cols = {}
        for c in _COLUMNS:
            arrays = [p[c] for p in parts]
            cols[c] = np.concatenate(arrays) if len(arrays) != 1 else arrays[0]
        return cls(**cols, **meta)

    @staticmethod
    def fan_names() -> dict[int, tuple[str, str]]:
        """Fan id to ``(english, chinese)`` name."""
        return dict(_core.fan_names())

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays by name."""
        return {c: getattr(self, c) for c in _COLUMNS}

    def equals(self, other: SimResult) -> bool:
        """True if every array is identical."""
        return all(np.array_equal(getattr(self, c), getattr(other, c)) for c in _COLUMNS)

    def save(self, path: str) -> None:
        """Writes the arrays (and the run's rules, bots and seed) to an ``.npz`` file."""
        np.savez_compressed(
            path,
            **self.arrays(),
            rules=np.array(self.rules),
            bots=np.array(self.bots),
            seed=np.array(self.seed, dtype=np.uint64),
        )

    @classmethod
    def load(cls, path: str) -> SimResult:
        """Reads a file written by :meth:`save`."""
        with np.load(path) as z:
            return cls(
                **{c: z[c] for c in _COLUMNS},
                rules=str(z["rules"]),
                bots=[str(b) for b in z["bots"]],
                seed=int(z["seed"]),
            )

    def summary(self, top: int = 10) -> dict[str, Any]:
        """Figures over all hands: ``hands``, ``win_rate``, ``self_draw_share`` (of wins),
        ``exhaustive_draw_rate``, ``mean_fan`` (of wins), ``fan_histogram`` (fan total ->
        wins), ``top_fans`` (``(name, name_zh, wins with it, share of wins)``, most frequent
        first), ``mean_turns``, ``seat_win_rate`` and ``seat_mean_score`` per seat."""
        n = len(self)
        won = self.winner >= 0
        wins = int(won.sum())
        self_drawn = int((won & (self.discarder < 0)).sum())
        totals = self.fan_total[won]
        hist_values, hist_counts = np.unique(totals, return_counts=True)
        ids = self.fans[won].ravel()
        tally = np.bincount(ids[ids > 0].astype(np.int64), minlength=256)
        names = self.fan_names()
        order = np.argsort(-tally, kind="stable")
        top_fans = []
        for i in order[:top]:
            if tally[i] == 0:
                break
            en, zh = names.get(int(i), (f"fan {int(i)}", ""))
            top_fans.append((en, zh, int(tally[i]), float(tally[i] / max(wins, 1))))
        seat_wins = [int((self.winner == s).sum()) for s in range(4)]
        return {
            "hands": n,
            "rules": self.rules,
            "bots": list(self.bots),
            "seed": self.seed,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "self_draw_share": self_drawn / wins if wins else 0.0,
            "exhaustive_draw_rate": (n - wins) / n if n else 0.0,
            "mean_fan": float(totals.mean()) if wins else 0.0,
            "fan_histogram": {
                int(v): int(c) for v, c in zip(hist_values, hist_counts, strict=True)
            },
            "top_fans": top_fans,
            "mean_turns": float(self.turns.mean()) if n else 0.0,
            "seat_win_rate": [w / n if n else 0.0 for w in seat_wins],
            "seat_mean_score": [float(x) for x in self.scores.mean(axis=0)] if n else [0.0] * 4,
        }

    def format_summary(self, top: int = 10) -> str:
        """The summary as text (what ``majiang simulate`` prints)."""
        s = self.summary(top=top)
        # Huainan hands are valued in 倍 (form value times multipliers), not in fan.
        huainan = str(s["rules"]).startswith("huainan")
        mean = (
            f"mean value       {s['mean_fan']:.2f} (of wins, 倍 after multipliers)"
            if huainan
            else f"mean fan         {s['mean_fan']:.2f} (of wins, flowers included)"
        )
        lines = [
            f"hands            {s['hands']:,}  (rules {s['rules']}, bots {','.join(s['bots'])},"
            f" seed {s['seed']})",
            f"win rate         {s['win_rate']:.2%}  ({s['wins']:,} wins)",
            f"self-draw share  {s['self_draw_share']:.2%} of wins",
            f"exhaustive draws {s['exhaustive_draw_rate']:.2%}",
            mean,
            f"mean hand length {s['mean_turns']:.1f} discards",
            "win rate by seat " + "  ".join(f"{x:.2%}" for x in s["seat_win_rate"]),
            "mean score/seat  " + "  ".join(f"{x:+.2f}" for x in s["seat_mean_score"]),
            "value histogram (value: wins)" if huainan else "fan histogram (total: wins)",
        ]
        hist = s["fan_histogram"]
        if hist:
            peak = max(hist.values())
            for total, count in sorted(hist.items()):
                bar = "#" * max(1, round(40 * count / peak))
                lines.append(f"  {total:>4} {count:>10,} {bar}")
        if huainan:
            return "\n".join(lines)
        lines.append("most frequent fans (share of wins)")
        for en, zh, count, share in s["top_fans"]:
            lines.append(f"  {en:<28} {zh:<6} {count:>10,}  {share:6.2%}")
        return "\n".join(lines)


def simulate(
    n_hands: int,
    *,
    rules: str | RuleSet = "gb",
    bots: str | Sequence[str] = "efficiency",
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
) -> SimResult:
    """Plays ``n_hands`` whole hands in Rust with built-in policies and returns the arrays.

    ``rules``: ``"gb"``, ``"classic"``, ``"huainan"`` or a :class:`~majiang.RuleSet` (in
    huainan ``fan_total`` holds the winner's value in 倍). ``bots``: one built-in policy name
    for all seats (``"random"``, ``"efficiency"``, ``"strong"``, ``"strong_lite"``,
    ``"strong_search"``), or four (a list, or comma-separated text). ``threads``: worker
    threads (all cores when None). ``progress``: a progress bar on stderr. The GIL is
    released while hands are played. Same seed and arguments, same arrays, whatever
    ``threads``.
    """
    n = _check_count("n_hands", n_hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    bar = _Progress(n, "simulate") if progress else None
    parts = []
    done = 0
    for start, count in _chunks(n, progress):
        parts.append(
            _core.simulate_hands(
                count, rules=rules, bots=names, seed=seed, start=start, threads=threads
            )
        )
        done += count
        if bar:
            bar.update(done)
    if bar:
        bar.close()
    return SimResult._from_arrays(parts, rules=_rules_name(rules), bots=names, seed=seed)


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    n = len(x)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = float(x.mean())
    if n < 2:
        return m, (m, m)
    half = 1.959964 * float(x.std(ddof=1)) / math.sqrt(n)
    return m, (m - half, m + half)


@dataclass
class ArenaResult:
    """The games of :func:`arena`, indexed by bot (the position in ``bots``).

    Arrays of length ``games``: ``wall`` (the wall each game was played on), ``seats``
    (``(games, 4)``, each bot's seat), ``winner`` / ``discarder`` (the bot index, -1 none),
    ``fan_total`` and ``scores`` (``(games, 4)``, each bot's change of score).
    """

    bots: list[str]
    wall: np.ndarray
    seats: np.ndarray
    winner: np.ndarray
    discarder: np.ndarray
    fan_total: np.ndarray
    scores: np.ndarray
    rules: str = "gb"
    seed: int = 0
    duplicate: bool = True

    def __len__(self) -> int:
        return int(self.winner.shape[0])

    def summary(self) -> list[dict[str, Any]]:
        """Per bot (in ``bots`` order): ``bot``, ``games``, ``mean_score`` and its ``ci95``
        (low, high), ``win_rate``, ``deal_in_rate``, ``self_draw_rate``, ``mean_fan`` (of
        its wins) and ``draw_rate`` (exhaustive draws).

        The interval treats walls as the independent samples: under duplicate play the four
        games of a wall are averaged first, which removes most of the luck of the deal."""
        n = len(self)
        draws = float((self.winner < 0).mean()) if n else 0.0
        out = []
        for b, name in enumerate(self.bots):
            sc = self.scores[:, b].astype(np.float64)
            if n and self.duplicate:
                walls, inverse = np.unique(self.wall, return_inverse=True)
                inverse = inverse.ravel()
                sums = np.bincount(inverse, weights=sc, minlength=len(walls))
                counts = np.bincount(inverse, minlength=len(walls))
                mean, ci = _mean_ci(sums / counts)
            else:
                mean, ci = _mean_ci(sc)
            wins = self.winner == b
            n_wins = int(wins.sum())
            out.append(
                {
                    "bot": name,
                    "seat": b,
                    "games": n,
                    "mean_score": mean,
                    "ci95": ci,
                    "win_rate": n_wins / n if n else 0.0,
                    "deal_in_rate": float((self.discarder == b).mean()) if n else 0.0,
                    "self_draw_rate": float((wins & (self.discarder < 0)).mean()) if n else 0.0,
                    "mean_fan": float(self.fan_total[wins].mean()) if n_wins else 0.0,
                    "draw_rate": draws,
                }
            )
        return out

    def format_table(self) -> str:
        """The per-bot figures as a text table (what ``majiang arena`` prints)."""
        # Huainan wins are valued in 倍, not in fan.
        value = "mean 倍" if str(self.rules).startswith("huainan") else "mean fan"
        head = (
            f"{'#':>2} {'bot':<12} {'mean score':>11} {'95% CI':>19} {'win':>7} "
            f"{'deal-in':>8} {'self-draw':>9} {value:>8} {'draws':>7}"
        )
        lines = [
            f"{len(self):,} hands, rules {self.rules}, seed {self.seed}, "
            f"{'duplicate' if self.duplicate else 'fixed seats'}",
            head,
        ]
        for i, s in enumerate(self.summary()):
            lo, hi = s["ci95"]
            lines.append(
                f"{i:>2} {s['bot']:<12} {s['mean_score']:>+11.3f} "
                f"{f'[{lo:+.2f}, {hi:+.2f}]':>19} {s['win_rate']:>7.2%} "
                f"{s['deal_in_rate']:>8.2%} {s['self_draw_rate']:>9.2%} "
                f"{s['mean_fan']:>8.2f} {s['draw_rate']:>7.2%}"
            )
        return "\n".join(lines)


def arena(
    bots: str | Sequence[str],
    *,
    hands: int,
    seed: int = 0,
    rules: str | RuleSet = "gb",
    duplicate: bool = True,
    threads: int | None = None,
    progress: bool = False,
) -> ArenaResult:
    """Plays ``hands`` hands between four built-in bots (``"random"``, ``"efficiency"``,
    ``"strong"``, ``"strong_lite"``, ``"strong_search"``; a list or comma-separated text,
    seat order of the first game) and returns per-bot
    figures in an :class:`ArenaResult`.

    ``duplicate`` (default): each wall is played four times with the seats rotated, so
    every bot plays every seat on the same tiles; ``hands`` is then rounded up to a
    multiple of four. Multithreaded (``threads``; all cores when None), GIL released; the
    same seed gives the same games whatever the thread count.
    """
    n = _check_count("hands", hands)
    seed = _check_seed(seed)
    names = _bot_list(bots)
    if duplicate:
        n = 4 * math.ceil(n / 4)
    bar = _Progress(n, "arena") if progress else None
    parts = []
    done = 0
    for start, count in _chunks(n, progress, 4 if duplicate else 1):
        parts.append(
            _core.arena_games(
                count,
                rules=rules,
                bots=names,
                seed=seed,
                start=start,
                duplicate=duplicate,
                threads=threads,
            )
        )
        done += count
        if bar:
            bar.update(done)
    if bar:
        bar.close()
    cols = {c: np.concatenate([p[c] for p in parts]) for c in _ARENA_COLUMNS}
    return ArenaResult(bots=names, **cols, rules=_rules_name(rules), seed=seed, duplicate=duplicate)
