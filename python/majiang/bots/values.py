"""The value of every option at a decision, in points: :class:`OptionValues`, made by
:meth:`majiang.bots.ExpertBot.value_of_options`.

Each legal action of an observation is tried on the same sampled deals (the tiles the
seat cannot see drawn at random: determinizations), the hand is played to its end (by
default the expert bot at the deciding seat, the efficiency bot at the others), and the
seat's score change is averaged. A value is therefore the expected points of the hand
for the seat after that action when it then plays on as the expert does; the standard
error and the 95% interval say how
far the average of this many playouts may be from that expectation. The loss of an
option is the best option's mean minus its own, with the standard error of that paired
difference (both options faced the same deals). See docs/review.md for the cost.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .._core import Action

__all__ = ["OPPONENT_BOT", "OptionValue", "OptionValues", "Z95"]

OPPONENT_BOT = "efficiency"
"""The built-in policy that plays the other seats in the playouts."""

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True)
class OptionValue:
    """One legal action and its value for the deciding seat.

    ``points`` is the mean score change of the seat over the playouts after ``action``
    (points of the rule set: a gain is positive), ``std_err`` its standard error.
    ``loss`` is the best option's ``points`` minus this one's (0 for the best) and
    ``loss_se`` the standard error of that difference. ``gap`` is the expert's choice's
    ``points`` minus this one's (negative when this option did better in the playouts)
    and ``gap_se`` its standard error. ``expert`` is true for the action the expert bot
    chooses.

    ``loss`` is measured from the best of several noisy means, so over many close
    options it leans high; ``gap`` is measured from an option chosen without looking at
    the playouts, so it does not.
    """

    action: Action
    points: float
    std_err: float
    loss: float
    loss_se: float
    gap: float
    gap_se: float
    expert: bool

    @property
    def low(self) -> float:
        """The lower end of the 95% interval of ``points``."""
        return self.points - Z95 * self.std_err

    @property
    def high(self) -> float:
        """The upper end of the 95% interval of ``points``."""
        return self.points + Z95 * self.std_err

    @property
    def clearly_worse(self) -> bool:
        """Whether the loss is beyond its own 95% interval (more than 1.96 standard
        errors above 0): the playouts tell this option from the best one."""
        return self.loss > Z95 * self.loss_se

    def as_dict(self) -> dict[str, object]:
        """The value as JSON-ready data (the action as its text)."""
        return {
            "action": str(self.action),
            "points": round(self.points, 3),
            "std_err": round(self.std_err, 3),
            "ci95": [round(self.low, 3), round(self.high, 3)],
            "loss": round(self.loss, 3),
            "loss_se": round(self.loss_se, 3),
            "gap": round(self.gap, 3),
            "gap_se": round(self.gap_se, 3),
            "expert": self.expert,
        }


@dataclass(frozen=True)
class OptionValues:
    """The value of every legal action of one observation, best first.

    ``options`` holds one :class:`OptionValue` per legal action, highest ``points``
    first; ``samples`` is the number of determinizations (each plays every option once,
    so ``playouts`` = samples × options); ``playout_bot`` the built-in policy that played
    the deciding seat on (:data:`OPPONENT_BOT` played the others); ``seed`` the seed that
    fixed the deals; ``expert_action`` the action the expert bot chooses (its own
    reasoning, which may differ from the best mean when the options are close).
    ``shared_wall`` is true when the rules' private walls were played as one shared wall
    of the same unseen tiles (a view does not show whose wall holds which tile).
    """

    seat: int
    options: tuple[OptionValue, ...]
    samples: int
    seed: int
    expert_action: Action
    playout_bot: str = "expert"
    shared_wall: bool = False

    @property
    def playouts(self) -> int:
        """Hands played out in all: samples times options."""
        return self.samples * len(self.options)

    @property
    def best(self) -> OptionValue:
        """The option with the highest mean."""
        return self.options[0]

    @property
    def method(self) -> str:
        """How the values were estimated, in one line."""
        return (
            f"{self.samples} sampled deals x {len(self.options)} options = "
            f"{self.playouts} playouts, the {self.playout_bot} bot at the seat and the "
            f"{OPPONENT_BOT} bot at the others, seed {self.seed}"
            + ("; the private walls played as one shared wall" if self.shared_wall else "")
        )

    def value_of(self, action: Action) -> OptionValue:
        """The value of ``action`` (``KeyError`` when it is not a legal action here)."""
        for o in self.options:
            if o.action == action:
                return o
        raise KeyError(f"{action} is not one of the legal actions")

    def __iter__(self) -> Iterator[OptionValue]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def as_dict(self) -> dict[str, object]:
        """The values as JSON-ready data."""
        return {
            "seat": self.seat,
            "samples": self.samples,
            "playouts": self.playouts,
            "playout_bot": self.playout_bot,
            "opponent_bot": OPPONENT_BOT,
            "shared_wall": self.shared_wall,
            "seed": self.seed,
            "expert": str(self.expert_action),
            "options": [o.as_dict() for o in self.options],
        }

    def table(self, rows: int | None = None) -> str:
        """The values as a short table, best first (``rows``: at most that many)."""
        lines = ["    option             points   95% interval      loss"]
        shown = self.options if rows is None else self.options[:rows]
        for o in shown:
            mark = "*" if o.expert else " "
            loss = "best" if o.loss == 0 else f"{o.loss:.2f} ±{Z95 * o.loss_se:.2f}"
            interval = f"[{o.low:+7.2f}, {o.high:+7.2f}]"
            lines.append(f"  {mark} {str(o.action):<17} {o.points:+7.2f}  {interval}  {loss}")
        if rows is not None and len(self.options) > rows:
            lines.append(f"    ... {len(self.options) - rows} more")
        lines.append(f"  (* the expert's choice; {self.method})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()
