"""何切 (what to discard): a hand at a discard decision from a game the engine plays, the
player's discard graded against the expert's values.

:func:`discard_exercise` deals hands from the exercise's seed to four efficiency bots and
stops at a turn that is a real choice: only discards (or, in classic, a discard that
declares ready) are legal, at least four different tiles can go, the hand is one to
three tiles from ready (shanten 0-2) and the wall is neither fresh nor nearly empty.
What the seat sees is kept (its hand and drawn tile, every seat's melds and discards,
declared ready hands, the winds, the wall), and every legal option is valued by
:meth:`majiang.bots.ExpertBot.value_of_options` (expected points by playouts, with a 95%
interval) with the expert's own reasoning (:meth:`~majiang.bots.ExpertBot.explain`).

:meth:`DiscardExercise.grade` gives full credit for the best value or the expert's
choice, half credit for another discard whose loss is within the playouts' noise (not
beyond its 95% interval), none for a clearly worse one; the answer lists every option's
value and the expert's reasons. The same seed gives the same exercise everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core import Action, Observation, Round, RuleSet, format_tiles, shanten, tile_name
from ..bots import ExpertBot
from ..bots.values import Z95, OptionValues
from ..errors import InvalidArgumentError
from .practice import _TRIES, Grade, _bots, _check_seed, _melds, _play, _rules

__all__ = ["DEFAULT_SAMPLES", "DiscardExercise", "discard_exercise"]

DEFAULT_SAMPLES = 48
"""Sampled deals per option an exercise is valued on."""

_WALL = (20, 72)  # tiles left in the wall: not the first turns, not the last


@dataclass
class DiscardExercise:
    """A hand at a discard decision. ``seat`` is the deciding seat (0-3) and ``dealer``
    the dealer; ``hand`` its concealed tiles (the drawn tile included, sorted),
    ``drawn`` the tile it just drew (None after a claim); ``melds`` every seat's exposed
    melds as ``(kind, tiles)``, ``discards`` every seat's discards in order, ``ready``
    the seats that declared a ready hand; ``wall`` the tiles left to draw.

    The answer: ``values`` (every legal option valued by the expert's playouts, best
    first) and ``explanation`` (the expert's reasons, as
    :meth:`Explanation.table <majiang.bots.Explanation.table>` prints them)."""

    seed: int
    rules: str
    seat: int
    dealer: int
    hand: list[int]
    drawn: int | None
    melds: list[list[tuple[str, list[int]]]]
    discards: list[list[int]]
    ready: list[bool]
    seat_wind: int
    prevalent_wind: int
    wall: int
    values: OptionValues
    explanation: str = ""
    wild: int | None = field(default=None, repr=False)

    mode = "discard"

    @property
    def can_declare(self) -> bool:
        """Whether some discard can declare a ready hand (classic's 报听)."""
        return any(o.action.kind == "ready" for o in self.values)

    @property
    def choices(self) -> list[int]:
        """The tiles that can be discarded, sorted."""
        return sorted({o.action.tile for o in self.values if o.action.tile is not None})

    def action_for(self, tile: int, declare: bool = False) -> Action:
        """The legal action that discards ``tile`` (declaring ready when ``declare``);
        :class:`~majiang.InvalidArgumentError` when there is none."""
        kind = "ready" if declare else "discard"
        for o in self.values:
            if o.action.kind == kind and o.action.tile == tile:
                return o.action
        what = "declare ready with" if declare else "discard"
        raise InvalidArgumentError(
            f"cannot {what} {format_tiles([tile]) if 0 <= tile < 42 else tile} here "
            f"(the choices: {format_tiles(self.choices)})"
        )

    def grade(self, tile: int, declare: bool = False) -> Grade:
        """Grades discarding ``tile`` (declaring ready when ``declare``): 1 for the best
        value or the expert's choice, 0.5 for a loss within the noise, else 0."""
        a = self.action_for(tile, declare)
        v = self.values.value_of(a)
        best = self.values.best
        expert = self.values.value_of(self.values.expert_action)
        if v.loss == 0 or v.expert:
            credit = 1.0
        elif not v.clearly_worse:
            credit = 0.5
        else:
            credit = 0.0
        lines = [
            f"You played {a}: {v.points:+.2f} points (95% interval {v.low:+.2f} to {v.high:+.2f}).",
            f"The best value: {best.action}, {best.points:+.2f}; "
            f"the expert plays {expert.action}, {expert.points:+.2f}.",
        ]
        if v.loss > 0:
            within = "beyond the noise" if v.clearly_worse else "within the noise"
            lines.append(f"You lose {v.loss:.2f} ±{Z95 * v.loss_se:.2f} points ({within}).")
        lines.append("")
        lines.extend(self.values.table(rows=8).splitlines())
        if self.explanation:
            lines += ["", f"Why the expert plays {expert.action}:"]
            lines.extend(self.explanation.splitlines())
        return Grade(credit, credit == 1.0, lines)

    def to_dict(self) -> dict[str, Any]:
        """The exercise and its answer as plain data (tiles in MPSZ; each seat's discards
        in the order played)."""
        return {
            "mode": "discard",
            "seed": self.seed,
            "rules": self.rules,
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": format_tiles(self.hand),
            "drawn": format_tiles([self.drawn]) if self.drawn is not None else None,
            "melds": [[[k, format_tiles(t)] for k, t in ms] for ms in self.melds],
            "discards": [[tile_name(t) for t in d] for d in self.discards],
            "ready": list(self.ready),
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "wall": self.wall,
            "values": self.values.as_dict(),
            "explanation": self.explanation,
        }


def _is_choice(o: Observation, rules: RuleSet) -> bool:
    """A turn where only discards are legal, four or more tiles can go, the hand is 0-2
    from ready and the wall is in the middle of the hand."""
    if o.phase != "turn" or not _WALL[0] <= o.wall_remaining <= _WALL[1]:
        return False
    kinds = {a.kind for a in o.legal_actions}
    if not kinds <= {"discard", "ready"}:
        return False
    if len({a.tile for a in o.legal_actions}) < 4:
        return False
    try:
        return 0 <= shanten(o.hand, o.melds[o.seat], rules=rules) <= 2
    except ValueError:
        return False


def discard_exercise(
    rules: str | RuleSet = "gb", seed: int = 0, samples: int = DEFAULT_SAMPLES
) -> DiscardExercise:
    """The 何切 exercise of ``seed``: the first turn that is a real choice (see the module)
    at or after the ``seed % 5``-th such turn of the hands dealt from ``seed``, valued on
    ``samples`` sampled deals per option. gb and classic; huainan's hidden 宝 state cannot
    be sampled (:class:`~majiang.InvalidArgumentError`)."""
    rs = _rules(rules)
    _check_seed(seed)
    if rs.unit != "fan":
        raise InvalidArgumentError(
            f"the discard exercise is valued by playouts the {rs.name} rules do not allow "
            "(the 宝 state is hidden): gb and classic only"
        )
    skip = seed % 5
    found: list[Observation] = []

    def watch(r: Round) -> bool:
        nonlocal skip
        s = r.pending[0]
        o = r.observation(s)
        if _is_choice(o, rs):
            if skip == 0:
                found.append(o)
                return True
            skip -= 1
        return False

    for k in range(_TRIES):
        _play(rs, seed * _TRIES + k, _bots(seed), watch)
        if found:
            break
    if not found:  # pragma: no cover - every few hands hold such a turn
        raise InvalidArgumentError(f"no discard decision in the hands dealt from seed {seed}")
    o = found[0]
    bot = ExpertBot(seed=seed, rules=rs, samples=samples)
    values = bot.value_of_options(o)
    try:
        explanation = ExpertBot(seed=seed, rules=rs).explain(o).table(rows=6)
    except ValueError:  # pragma: no cover - the expert explains in gb and classic
        explanation = ""
    return DiscardExercise(
        seed=seed,
        rules=rs.preset or rs.name,
        seat=o.seat,
        dealer=o.dealer,
        hand=sorted(o.hand),
        drawn=o.drawn,
        melds=[_melds(ms) for ms in o.melds],
        discards=[list(d) for d in o.discards],
        ready=list(o.ready),
        seat_wind=o.seat_wind,
        prevalent_wind=o.prevalent_wind,
        wall=o.wall_remaining,
        values=values,
        explanation=explanation,
    )
