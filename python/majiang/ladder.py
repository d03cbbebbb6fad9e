"""The ladder: every built-in bot against every other in duplicate games, with ratings.

For each ordered pair (A, B) of distinct bots, A plays alone against three copies of B
(``arena([A, B, B, B], duplicate=True)``): every wall is played four times with A rotated
through the four seats, so A and the B's hold every seat on the same tiles. The figure of
the pair is A's mean score change per hand; its 95% interval treats walls as the samples
(the four rotations of a wall are averaged first, which removes most of the luck of the
deal). Every pair plays the same walls (the same ``seed``).

Ratings. Each bot gets a number ``r`` such that ``r_A - r_B`` is as close as possible,
in least squares over every ordered pair played, to A's mean against three B's. With
both orders of a pair played this fits ``r_A - r_B`` to ``(M[A][B] - M[B][A]) / 2``. The
ratings are anchored so that ``random`` is 0 when it plays (otherwise their mean is 0):
a bot rated 10 scores about 10 points per hand more than ``random`` would in its place.
The model has one number per bot and no interaction (no bot is assumed to exploit
another), so it summarises the table rather than replacing it.
"""

from __future__ import annotations

import copy
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from ._core import RuleSet
from .errors import InvalidArgumentError, InvalidTypeError
from .sim import (
    MAX_IN_MEMORY_HANDS,
    ArenaResult,
    _check_seed,
    _check_threads,
    _rules_spec,
    arena,
)

__all__ = ["LadderResult", "fit_ratings", "ladder"]

#: Walls per pair when none is given.
DEFAULT_WALLS = 200


@dataclass
class LadderResult:
    """The pairwise figures and ratings of :func:`ladder`.

    ``mean[a, b]``: the mean score per hand of ``bots[a]`` alone against three
    ``bots[b]``; ``low`` / ``high``: its 95% interval (walls as samples). NaN on the
    diagonal and for pairs not played (an interrupted ladder). ``ratings``: one per bot
    (see the module documentation for the model and the anchor). ``walls``: walls per
    pair (each played four times).
    """

    bots: list[str]
    walls: int
    seed: int
    rules: str
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    ratings: np.ndarray
    rule_options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def snapshot(
        cls,
        bots: list[str],
        walls: int,
        seed: int,
        rules: str,
        rule_options: dict[str, Any],
        mean: np.ndarray,
        low: np.ndarray,
        high: np.ndarray,
    ) -> LadderResult:
        """The result of the pairs played so far: copies of the tables (NaN where not
        played) and the ratings fitted to them."""
        return cls(
            bots=list(bots),
            walls=walls,
            seed=seed,
            rules=rules,
            mean=mean.copy(),
            low=low.copy(),
            high=high.copy(),
            ratings=fit_ratings(bots, mean),
            rule_options=dict(rule_options),
        )

    @property
    def complete(self) -> bool:
        """True when every ordered pair was played."""
        off = ~np.eye(len(self.bots), dtype=bool)
        return bool(np.isfinite(self.mean[off]).all())

    def pairs(self) -> list[dict[str, Any]]:
        """Every pair played: ``bot``, ``opponent``, ``mean`` and ``ci95`` (low, high)."""
        out = []
        for a, name in enumerate(self.bots):
            for b, other in enumerate(self.bots):
                if a != b and math.isfinite(self.mean[a, b]):
                    out.append(
                        {
                            "bot": name,
                            "opponent": other,
                            "mean": float(self.mean[a, b]),
                            "ci95": (float(self.low[a, b]), float(self.high[a, b])),
                        }
                    )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain Python values (what ``majiang ladder --json`` prints)."""
        return {
            "bots": list(self.bots),
            "walls": self.walls,
            "hands_per_pair": 4 * self.walls,
            "seed": self.seed,
            "rules": self.rules,
            "complete": self.complete,
            "pairs": self.pairs(),
            "ratings": {b: float(r) for b, r in zip(self.bots, self.ratings, strict=True)},
        }

    def format_table(self) -> str:
        """The table of pairwise means (row bot alone against three of the column bot,
        mean per hand ± the half-width of its 95% interval) and the ratings, best first."""
        n = len(self.bots)
        anchor = "random = 0" if "random" in self.bots else "mean 0"
        lines = [
            f"ladder: {n} bots, {self.walls:,} walls per pair ({4 * self.walls:,} hands), "
            f"rules {self.rules}, seed {self.seed}"
            + ("" if self.complete else " (interrupted: some pairs not played)"),
            "mean score per hand of the row bot alone against three of the column bot "
            "(± 95% interval, walls as samples)",
        ]
        width = max(14, *(len(b) + 2 for b in self.bots))
        name_w = max(len(b) for b in self.bots) + 2
        lines.append(" " * name_w + "".join(f"{b:>{width}}" for b in self.bots))
        for a, name in enumerate(self.bots):
            cells = []
            for b in range(n):
                m = self.mean[a, b]
                if a == b or not math.isfinite(m):
                    cells.append(f"{'-':>{width}}")
                else:
                    half = (self.high[a, b] - self.low[a, b]) / 2
                    cells.append(f"{f'{m:+.2f} ±{half:.2f}':>{width}}")
            lines.append(f"{name:<{name_w}}" + "".join(cells))
        lines.append("")
        lines.append(f"rating (least squares r_row - r_col ~ table, {anchor})")
        order = sorted(range(n), key=lambda i: -self.ratings[i])
        for rank, i in enumerate(order, 1):
            r = self.ratings[i]
            shown = f"{r:+8.2f}" if math.isfinite(r) else f"{'-':>8}"
            lines.append(f"{rank:>3} {self.bots[i]:<{name_w}}{shown}")
        return "\n".join(lines)


def fit_ratings(bots: Sequence[str], mean: np.ndarray) -> np.ndarray:
    """Ratings from a table of pairwise means (``mean[a, b]``, NaN where not played): the
    least-squares fit of ``r_a - r_b`` to every finite off-diagonal ``mean[a, b]``,
    anchored so that ``random`` is 0 when it is among ``bots``, else so that the ratings
    sum to 0. Bots without any pair played get NaN."""
    n = len(bots)
    rows = []
    target = []
    for a in range(n):
        for b in range(n):
            if a != b and math.isfinite(mean[a, b]):
                row = np.zeros(n)
                row[a], row[b] = 1.0, -1.0
                rows.append(row)
                target.append(mean[a, b])
    out = np.full(n, np.nan)
    if not rows:
        return out
    design = np.array(rows)
    played = np.abs(design).sum(axis=0) > 0
    # The minimum-norm solution sums to 0 over the bots played (the design's rows are
    # orthogonal to the all-ones vector of each connected part).
    sol, *_ = np.linalg.lstsq(design[:, played], np.array(target), rcond=None)
    out[played] = sol
    names = list(bots)
    if "random" in names and played[names.index("random")]:
        out[played] -= out[names.index("random")]
    return out


def _pair_figures(result: ArenaResult) -> tuple[float, float, float]:
    """The lone bot's (index 0) mean score per hand and 95% interval, walls as samples."""
    s = result.summary()[0]
    lo, hi = s["ci95"]
    return float(s["mean_score"]), float(lo), float(hi)


def _bot_name(bot: Any) -> str:
    """A ladder entry's name: a built-in name as given, a Python bot's ``name`` attribute
    or else its class name."""
    if isinstance(bot, str):
        return bot
    return str(getattr(bot, "name", "") or type(bot).__name__)


def _seat_copy(entry: Any) -> Any:
    """Another seat's copy of a ladder entry (a name is its own copy)."""
    return entry if isinstance(entry, str) else copy.deepcopy(entry)


def _ladder_entries(bots: str | Sequence[Any] | None, walls: Any) -> tuple[list[str], list[Any]]:
    """The ladder's names and entries (a built-in name, or a Python bot with ``act``),
    checked like :func:`_ladder_bots`; a Python bot must copy (``copy.deepcopy``), as it
    takes three seats against a lone bot."""
    if bots is None or isinstance(bots, str):
        names = _ladder_bots(bots, walls)
        return names, list(names)
    entries = list(bots)
    python = [b for b in entries if not isinstance(b, str)]
    for b in python:
        if not callable(getattr(b, "act", None)):
            raise InvalidTypeError(
                f"a ladder entry is a built-in bot name or a bot with act(observation), "
                f"got {type(b).__name__}"
            )
        try:
            copy.deepcopy(b)
        except Exception as e:
            raise InvalidArgumentError(
                f"bot {_bot_name(b)!r} cannot be copied for the three seats it takes "
                f"against a lone bot: {e}"
            ) from None
    names = [_bot_name(b) for b in entries]
    # The built-in names are checked as a names-only ladder checks them (and walls too).
    _ladder_bots([b for b in entries if isinstance(b, str)], walls, minimum=0)
    if len(set(names)) != len(names):
        raise InvalidArgumentError("each bot may appear only once in a ladder (names must differ)")
    if len(names) < 2:
        raise InvalidArgumentError("a ladder needs at least two bots")
    return names, entries


def _ladder_bots(bots: str | Sequence[str] | None, walls: Any, *, minimum: int = 2) -> list[str]:
    """The ladder's bots (checked: known, distinct, at least `minimum`) after checking
    ``walls``; shared with :func:`majiang.distributed.ladder`."""
    if bots is None:
        names = list(_core.policy_names())
    elif isinstance(bots, str):
        names = [b.strip() for b in bots.split(",") if b.strip()]
    else:
        names = [str(b) for b in bots]
    known = set(_core.policy_names())
    unknown = [b for b in names if b not in known]
    if unknown:
        raise InvalidArgumentError(
            f"unknown bot {unknown[0]!r} (built-in bots: {', '.join(_core.policy_names())})"
        )
    if len(set(names)) != len(names):
        raise InvalidArgumentError("each bot may appear only once in a ladder")
    if len(names) < minimum:
        raise InvalidArgumentError("a ladder needs at least two bots")
    if isinstance(walls, bool) or not isinstance(walls, int):
        raise InvalidTypeError(f"walls must be an int, got {type(walls).__name__}")
    if not 1 <= walls <= MAX_IN_MEMORY_HANDS // 4:
        raise InvalidArgumentError(
            f"walls must be between 1 and {MAX_IN_MEMORY_HANDS // 4:,} (four games each, "
            f"kept in memory), got {walls:,}"
        )
    return names


def ladder(
    bots: str | Sequence[Any] | None = None,
    *,
    walls: int = DEFAULT_WALLS,
    seed: int = 0,
    rules: str | RuleSet = "gb",
    threads: int | None = None,
    progress: bool = False,
) -> LadderResult:
    """Plays every ordered pair of ``bots`` (default: every built-in bot, from
    ``_core.policy_names()``; a list or comma-separated text of at least two distinct
    names) in duplicate games, ``walls`` walls per pair (each played four times, the lone
    bot rotated through the seats), and returns a :class:`LadderResult` with the pairwise
    means and the ratings (model in the module documentation).

    A list may mix built-in names with Python bots (objects with ``act(observation)``,
    e.g. a :class:`~majiang.bots.ModelBot` or a batched policy in a
    :class:`~majiang.bots.PolicyBot`), named in the table by their ``name`` attribute or
    class name; a Python bot facing a lone bot takes three seats, as copies
    (``copy.deepcopy``) of the object given. Pairs with a Python bot play in the Rust
    arena through the Python-bot adapter (:func:`~majiang.arena`).

    ``seed``, ``rules`` and ``threads`` are :func:`~majiang.arena`'s; the same seed gives
    the same table whatever ``threads``. ``progress``: one line per pair on stderr.
    Ctrl-C raises ``KeyboardInterrupt`` whose ``partial`` is the :class:`LadderResult` of
    the pairs finished.
    """
    names, entries = _ladder_entries(bots, walls)
    seed = _check_seed(seed)
    threads = _check_threads(threads)
    rule_name, options = _rules_spec(rules)
    n = len(names)
    mean = np.full((n, n), np.nan)
    low = np.full((n, n), np.nan)
    high = np.full((n, n), np.nan)

    def result() -> LadderResult:
        return LadderResult.snapshot(names, walls, seed, rule_name, options, mean, low, high)

    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    for k, (a, b) in enumerate(pairs, 1):
        if progress:
            print(
                f"ladder: pair {k}/{len(pairs)}: {names[a]} against three {names[b]}",
                file=sys.stderr,
                flush=True,
            )
        try:
            lone = entries[a]
            three = [entries[b]] + [_seat_copy(entries[b]) for _ in range(2)]
            games = arena(
                [lone, *three],
                hands=4 * walls,
                seed=seed,
                rules=rules,
                duplicate=True,
                threads=threads,
            )
        except KeyboardInterrupt as e:
            e.partial = result()  # type: ignore[attr-defined]
            raise
        mean[a, b], low[a, b], high[a, b] = _pair_figures(games)
    return result()
