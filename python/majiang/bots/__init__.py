"""Bots: anything with ``act(observation) -> action`` can play.

A bot receives an :class:`majiang.Observation` (what its seat can see, with
``observation.legal_actions``) and returns one of ``observation.legal_actions``. The
engine checks the action; anything else raises :class:`majiang.IllegalActionError`.

``RandomBot`` picks uniformly among the legal actions and ``FirstBot`` takes the first.
The built-in policies written in Rust play through ``EfficiencyBot`` (tile efficiency
toward a fan plan) and ``StrongBot`` (the strongest: fan plans, lookahead to scoring ready
hands, defense); ``simulate`` and ``arena`` run the same policies by name.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .._core import Action, Observation

__all__ = ["Bot", "EfficiencyBot", "FirstBot", "RandomBot", "StrongBot"]


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
        """A random legal action."""
        return self._rng.choice(observation.legal_actions)

    def __repr__(self) -> str:
        return "RandomBot()"


class FirstBot:
    """Always plays the first legal action (wins come first when offered). Deterministic;
    useful for tests and as the simplest possible opponent."""

    def act(self, observation: Observation) -> Action:
        """The first legal action."""
        return observation.legal_actions[0]

    def __repr__(self) -> str:
        return "FirstBot()"


from .efficiency import EfficiencyBot  # noqa: E402
from .strong import StrongBot  # noqa: E402
