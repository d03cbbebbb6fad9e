"""Why the strong bot chose its action: :class:`Explanation`, made by
:meth:`majiang.bots.StrongBot.explain` from the Rust policy's own figures (the decision is
the one :meth:`~majiang.bots.StrongBot.act` makes).

``str(explanation)`` is a short table: the action and the layer that decided it, the
leading candidates with their figures, and the opponents' threat. The figures are in the
units the policy compares: chances in 0-1 (shown as percentages), values in points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._core import Action, tile_name

__all__ = ["ClaimReason", "DiscardReason", "Explanation", "MODES", "SeatThreat"]

MODES: dict[str, str] = {
    "forced": "the only legal action",
    "win": "a win is always taken",
    "huainan": "the huainan efficiency path (wild-aware tile efficiency)",
    "attack": "the plan values: share of the best plan times the stake, minus danger",
    "lookahead": "the lookahead: chance of winning, minus danger",
    "fold": "folding: far from any plan against a likely-ready opponent, the safest tile",
    "kong": "a kong that keeps the plan value",
    "search": "the search: mean score change over rollouts",
    "claim": "the plan values: the claim must beat the pass by 10%",
}
"""What each decision mode means, by name."""

_SUITS = {0: "m", 1: "p", 2: "s"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _pts(x: float | None) -> str:
    """Points: two decimals, or three significant digits below 0.1 (far from ready the
    stake, and so every value, is small)."""
    if x is None:
        return "-"
    return f"{x:.2f}" if abs(x) >= 0.1 or x == 0 else f"{x:.2g}"


@dataclass(frozen=True)
class DiscardReason:
    """One candidate discard with the figures the bot compared.

    ``plan`` is the best fan plan the remaining tiles keep (``"half flush p"``,
    ``"all pungs"``, ``"plain"``...), ``distance`` the tiles it misses (1 = ready),
    ``fan`` what the plan is counted as worth (for a ready hand with a scoring wait, the
    best fan of its scoring waits), ``useful`` the unseen copies of the tiles the plan can
    use. ``chance`` is the lookahead's chance of winning (None when not asked),
    ``danger`` the chance the discard deals in, ``attack`` the plan-and-defense value in
    points (None: far behind the best plan), ``value`` the figure the decision compared
    (None: dropped), ``search`` the search's mean score change (None: not searched).
    """

    tile: int
    plan: str
    distance: int
    fan: float
    useful: int
    chance: float | None
    danger: float
    attack: float | None
    value: float | None
    search: float | None

    @property
    def name(self) -> str:
        """The tile in MPSZ notation (``"5m"``)."""
        return tile_name(self.tile)


@dataclass(frozen=True)
class ClaimReason:
    """One option of a claim window (the pass included): ``plan_value`` after the claim
    and its best discard (for the pass: the value without a claim times the 10% margin a
    claim must beat), the lookahead's ``chance`` of winning (after the claim: with the
    best ``discard``, its danger priced in; None when not asked) and the search's mean
    score change (None: not searched)."""

    action: Action
    plan_value: float
    chance: float | None
    discard: int | None
    search: float | None


@dataclass(frozen=True)
class SeatThreat:
    """How the defense reads one opponent: its chance of being ``ready`` now, the suit
    (0-2) its exposed sets point to (``flush_suit``, None without a sign), whether they
    are all pungs, and how many sets it shows."""

    seat: int
    ready: float
    flush_suit: int | None
    pungs: bool
    sets: int

    def describe(self, name: str | None = None) -> str:
        """``"seat 2 45% ready (flush p, pungs)"``, with `name` in place of the seat."""
        signs = []
        if self.flush_suit is not None:
            signs.append(f"flush {_SUITS.get(self.flush_suit, '?')}")
        if self.pungs:
            signs.append("pungs")
        extra = f" ({', '.join(signs)})" if signs else ""
        return f"{name or f'seat {self.seat}'} {round(100 * self.ready)}% ready{extra}"


@dataclass(frozen=True)
class Explanation:
    """Why the strong bot chose ``action``: the ``mode`` that decided (a key of
    :data:`MODES`), the deciding ``seat``, the attack ``stake`` (what finishing the hand
    is worth now, in points), the opponents' ``threats``, the candidate ``discards`` (best
    first) and, in a claim window, the ``claims`` (the pass first). ``expected_points``
    is true when the lookahead's figure (``chance``) is expected points (the expert's)
    rather than a chance of winning."""

    action: Action
    mode: str
    seat: int
    stake: float
    threats: tuple[SeatThreat, ...]
    discards: tuple[DiscardReason, ...]
    claims: tuple[ClaimReason, ...]
    expected_points: bool = False

    @classmethod
    def from_dict(cls, d: dict[str, Any], expected_points: bool = False) -> Explanation:
        """An explanation from the dict of ``_core.StrongPolicy.explain``
        (``expected_points``: the lookahead's figure is expected points, as the expert's
        is, rather than a chance)."""
        return cls(
            expected_points=expected_points,
            action=d["action"],
            mode=str(d["mode"]),
            seat=int(d["seat"]),
            stake=float(d["stake"]),
            threats=tuple(SeatThreat(**t) for t in d["threats"]),
            discards=tuple(DiscardReason(**c) for c in d["discards"]),
            claims=tuple(ClaimReason(**c) for c in d["claims"]),
        )

    @property
    def reason(self) -> str:
        """What the decision mode means (:data:`MODES`)."""
        return MODES.get(self.mode, self.mode)

    @property
    def max_threat(self) -> float:
        """The highest chance among the opponents of being ready."""
        return max((t.ready for t in self.threats), default=0.0)

    def top(self, n: int = 3) -> list[DiscardReason]:
        """The `n` leading candidate discards (the chosen one first)."""
        return list(self.discards[:n])

    def summary(self) -> str:
        """One line: the action and why (``"discard 1p: the lookahead: ..."``)."""
        return f"{self.action}: {self.reason}"

    def table(self, rows: int = 5, names: Sequence[str] | None = None) -> str:
        """The explanation as a short table: the summary, up to `rows` candidates with
        their figures, and the threats (`names`: a label per seat, e.g. relative
        names; seat numbers otherwise)."""
        lines = [self.summary()]
        if self.discards:
            look = " points" if self.expected_points else " chance"
            lines.append(f"    tile  plan               dist   fan  useful {look}  danger   value")
            for d in self.discards[:rows]:
                chosen = self.action.kind in ("discard", "ready") and self.action.tile == d.tile
                mark = ">" if chosen else " "
                value = d.value if d.search is None else d.search
                lines.append(
                    f"  {mark} {d.name:<4}  {d.plan:<17} {d.distance:>5} {d.fan:>5.0f} "
                    f"{d.useful:>7} {self._look(d.chance):>7} {_pct(d.danger):>7} {_pts(value):>7}"
                )
            if len(self.discards) > rows:
                lines.append(f"    ... {len(self.discards) - rows} more")
        if self.claims:
            look = " points" if self.expected_points else " chance"
            lines.append(f"    option            plan value {look}  then")
            for c in self.claims:
                mark = ">" if c.action == self.action else " "
                then = tile_name(c.discard) if c.discard is not None else ""
                look = self._look(c.chance)
                lines.append(
                    f"  {mark} {str(c.action):<17} {c.plan_value:>10.3f} {look:>7}  "
                    f"{then}" + (f"  search {c.search:+.2f}" if c.search is not None else "")
                )
        if self.threats:
            label = (lambda s: names[s]) if names is not None else (lambda s: None)
            lines.append("  threat: " + ", ".join(t.describe(label(t.seat)) for t in self.threats))
        if self.stake and self.mode in ("attack", "lookahead", "claim"):
            lines.append(f"  stake {_pts(self.stake)} points")
        return "\n".join(line.rstrip() for line in lines)

    def _look(self, x: float | None) -> str:
        """The lookahead's figure: expected points, or a chance as a percentage."""
        return _pts(x) if self.expected_points else _pct(x)

    def __str__(self) -> str:
        return self.table()
