"""Bots: anything with ``act(observation) -> action`` can play.

A bot receives an :class:`majiang.Observation` (what its seat can see, with
``observation.legal_actions``) and returns one of ``observation.legal_actions``. The
engine checks the action; anything else raises :class:`majiang.IllegalActionError`.

``RandomBot`` picks uniformly among the legal actions and ``FirstBot`` plays the first
one. ``BotzoneBot`` runs an external Botzone bot program (see :mod:`majiang.botzone`).
``EfficiencyBot`` (tile efficiency toward a fan plan), ``StrongBot`` (fan plans,
lookahead to scoring ready hands, defense) and ``ExpertBot`` (the strongest: the strong
bot valuing close hands by the expected points of winning) run the built-in Rust
policies on the round's own observation, so they play exactly as inside
:func:`majiang.simulate` and :func:`majiang.arena`; ``StrongBot.explain`` also says why
it chose its action (an :class:`Explanation`). ``ModelBot`` runs the shipped model (a
small network scoring each legal action from the oracle's features) in numpy; the
built-in ``"model"`` runs the same weights in Rust.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .._core import Action, IllegalActionError, Observation

__all__ = [
    "Bot",
    "BotzoneBot",
    "EfficiencyBot",
    "ExpertBot",
    "ModelBot",
    "Explanation",
    "FirstBot",
    "RandomBot",
    "StrongBot",
]


def _legal(observation: Observation) -> list[Action]:
    """The observation's legal actions; ``IllegalActionError`` when there are none."""
    legal = observation.legal_actions
    if not legal:
        raise IllegalActionError(
            f"seat {observation.seat} has no legal action to choose from in this observation"
        )
    return legal


@runtime_checkable
class Bot(Protocol):
    """The bot protocol: one method that picks an action."""

    def act(self, observation: Observation) -> Action:
        """Returns one of ``observation.legal_actions``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action. ``seed`` makes it reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        """A random legal action (``IllegalActionError`` if there is none)."""
        return self._rng.choice(_legal(observation))

    def __repr__(self) -> str:
        return "RandomBot()"


class FirstBot:
    """Always plays the first legal action (wins come first when offered). Deterministic;
    useful for tests and as the simplest possible opponent."""

    def act(self, observation: Observation) -> Action:
        """The first legal action (``IllegalActionError`` if there is none)."""
        return _legal(observation)[0]

    def __repr__(self) -> str:
        return "FirstBot()"


from ..botzone.external import BotzoneBot  # noqa: E402
from .efficiency import EfficiencyBot  # noqa: E402
from .model import ModelBot  # noqa: E402
from .expert import ExpertBot  # noqa: E402
from .explain import Explanation  # noqa: E402
from .strong import StrongBot  # noqa: E402
