"""``ModelBot``: the shipped model bot, a small network run in numpy.

The network (:class:`majiang.env.ModelPolicy`) scores every legal action from the
features of the position after it, which the Rust oracle computes from the seat's own
view (:func:`majiang.env.action_features`: the best fan plan's value and distance after
the action, the unseen copies of the tiles it can use, shanten per form, the learned
chance that the tile it gives away deals in, the opponents' ready chances, ...), and
plays the best. The weights ship as ``majiang/models/gb.npz`` (numpy, no torch needed);
``examples/train_model.py`` trains them (imitation of ``expert``, then policy-gradient
fine-tuning against ``efficiency`` bots). The built-in ``"model"`` policy
(``mj.simulate``, ``mj.arena``, ``mj.ladder``, ``VecEnv`` opponents) runs the same file in
Rust and makes the same choices.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._core import Action, Observation, action_features, index_to_action
from ..env.model import ModelPolicy
from .basic import _legal
from .efficiency import EfficiencyBot

__all__ = ["ModelBot"]


class ModelBot:
    """The model bot: ``act(observation)`` returns one of ``observation.legal_actions``.

    ``weights``: a weights file (``np.savez`` of the arrays :class:`~majiang.env.ModelPolicy`
    reads), or None for the shipped ``majiang/models/gb.npz``. The features plan for the
    minimum fan of the rules each observation was dealt under; the weights were trained
    on gb. A hand played with wild 宝 tiles (huainan) is played by the efficiency policy's
    wild-aware rules, as the Rust ``model`` policy does. ``seed`` seeds that fallback's
    tie-breaks; the model itself is deterministic (the best score, the first among
    equals: within ``ModelPolicy.TIE`` of the best score, as the Rust policy plays).
    """

    def __init__(self, weights: str | Path | None = None, seed: int | None = None) -> None:
        self.policy = ModelPolicy.load(weights)
        self._seed = seed
        self._wilds = EfficiencyBot(seed=seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> ModelBot:
        """Another seat's bot: the same weights (never changed), its own fallback."""
        twin = ModelBot.__new__(ModelBot)
        twin.policy = self.policy
        twin._seed = self._seed
        twin._wilds = EfficiencyBot(seed=self._seed)
        return twin

    def scores(self, observation: Observation) -> dict[Action, float]:
        """The score of each legal action (higher is better)."""
        idx, feats = action_features(observation)
        s = self.policy.scores(feats)
        return {index_to_action(int(i)): float(v) for i, v in zip(idx, s, strict=False)}

    def act(self, observation: Observation) -> Action:
        """The best-scoring legal action (``IllegalActionError`` when there is none)."""
        legal = _legal(observation)
        if len(legal) == 1:
            return legal[0]
        if observation.bao is not None:
            return self._wilds.act(observation)
        idx, feats = action_features(observation)
        return index_to_action(int(idx[self.policy.choose(feats)]))

    def __repr__(self) -> str:
        return f"ModelBot({self.policy.name!r})"
