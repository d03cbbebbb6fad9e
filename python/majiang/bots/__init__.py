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
it chose its action (an :class:`Explanation`), and ``ExpertBot.value_of_options``
values every legal action in points by playouts (an :class:`OptionValues`).
``ModelBot`` runs the shipped model (a small network scoring each legal action from the
oracle's features) in numpy; the built-in ``"model"`` runs the same weights in Rust.
``PolicyBot`` plays any batched policy (the kind :func:`majiang.env.evaluate` and
``VectorEnv`` opponents take) one observation at a time, in a :class:`majiang.Game`,
:func:`majiang.arena` or :func:`majiang.ladder`.
"""

from __future__ import annotations

from ..botzone.external import BotzoneBot
from .basic import Bot, FirstBot, RandomBot
from .efficiency import EfficiencyBot
from .expert import ExpertBot
from .explain import Explanation
from .model import ModelBot
from .policy import PolicyBot
from .strong import StrongBot
from .values import OptionValue, OptionValues

__all__ = [
    "Bot",
    "BotzoneBot",
    "EfficiencyBot",
    "ExpertBot",
    "Explanation",
    "FirstBot",
    "ModelBot",
    "OptionValue",
    "OptionValues",
    "PolicyBot",
    "RandomBot",
    "StrongBot",
]
