"""The simplest bots and the bot protocol: :class:`Bot` (anything with
``act(observation) -> action``), :class:`RandomBot` and :class:`FirstBot`. Re-exported by
:mod:`majiang.bots`; a module of its own so that :mod:`majiang.botzone` can run them
without importing the package that re-exports its ``BotzoneBot``.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .._core import Action, IllegalActionError, Observation

__all__ = ["Bot", "FirstBot", "RandomBot"]


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
