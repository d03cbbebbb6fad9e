"""The play part of the public API (re-exported by :mod:`majiang`).

- :class:`Round`: one hand, driven step by step (``pending`` seats decide,
  ``apply(seat, action)``), with per-seat :class:`Observation` and events.
- :class:`Match`: the hands of a match with dealer and wind rotation.
- :class:`Game`: a match played by bots from Python; ``Game.play()`` returns a
  :class:`MatchRecord` (JSON lines, replayable through the engine).
- :mod:`majiang.bots`: the bot protocol, ``RandomBot`` and the built-in policies.
"""

from . import bots
from ._core import Action, Match, Observation, Round, wind_name
from .game import Game
from .record import HandRecord, MatchRecord, ReplayMismatchError, replay_record

__all__ = [
    "Action",
    "Game",
    "HandRecord",
    "Match",
    "MatchRecord",
    "Observation",
    "ReplayMismatchError",
    "Round",
    "bots",
    "replay_record",
    "wind_name",
]
