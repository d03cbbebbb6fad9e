"""PolicyBot: a batched policy (the environments' kind) as a bot of Game, arena and
ladder, making the choices it makes in the environments."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import majiang as mj
from majiang.bots import ModelBot, PolicyBot
from majiang.env import N_GB_PLANES, N_PLANES, ModelPolicy

EFF = ["efficiency"] * 3


def _eff_bots() -> list[mj.bots.EfficiencyBot]:
    return [mj.bots.EfficiencyBot(seed=i) for i in range(3)]


class FirstLegal:
    """The first legal index of every row."""

    name = "first-legal"

    def __call__(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        return batch["action_mask"].argmax(1)


class Recorder:
    """Records the batches it is given; plays the first legal action."""

    features = "v2"

    def __init__(self) -> None:
        self.batches: list[dict[str, np.ndarray]] = []

    def __call__(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        self.batches.append({k: v.copy() for k, v in batch.items()})
        return batch["action_mask"].argmax(1)


class Answer:
    """Answers what it is told to."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.lock = threading.Lock()  # makes the object impossible to deepcopy

    def __call__(self, batch: dict[str, np.ndarray]) -> object:
        return self.answer


def test_the_model_as_a_batched_policy_plays_as_model_bot_and_the_rust_model():
    wrapped = mj.arena([PolicyBot(ModelPolicy.load()), *EFF], hands=160, seed=11)
    numpy_bot = mj.arena([ModelBot(), *EFF], hands=160, seed=11)
    rust = mj.arena(["model", *EFF], hands=160, seed=11)
    for other in (numpy_bot, rust):
        assert (wrapped.scores == other.scores).all()
        assert (wrapped.winner == other.winner).all()
        assert (wrapped.fan_total == other.fan_total).all()


def test_the_batch_is_the_environment_row_of_the_observation():
    rec = Recorder()
    bot = PolicyBot(rec)
    assert bot.features == "v2" and not bot.candidates
    mj.Game("gb", bots=[bot, *_eff_bots()], seed=2, hands=1).play()
    assert rec.batches, "the bot was asked"
    for b in rec.batches:
        assert b["observation"].shape == (1, N_PLANES + N_GB_PLANES, 34)
        assert b["action_mask"].shape == (1, mj.env.N_ACTIONS)
        assert b["action_mask"].sum() > 1, "a single legal action is played without asking"
    cand = PolicyBot(ModelPolicy.load())
    obs = None

    def grab(o: mj.Observation) -> mj.Action:
        nonlocal obs
        obs = o
        return o.legal_actions[0]

    class Grab:
        def act(self, o: mj.Observation) -> mj.Action:
            return grab(o)

    mj.Game("gb", bots=[Grab(), *_eff_bots()], seed=4, hands=1).play()
    assert obs is not None
    b = cand.batch(obs)
    idx, feats = mj.env.action_features(obs)
    k = len(idx)
    assert (b["cand_index"][0, :k] == idx).all() and (b["cand_index"][0, k:] == -1).all()
    assert np.allclose(b["cand_features"][0, :k], feats)
    assert (b["observation"][0] == mj.env.encode(obs)).all()


def test_an_illegal_index_is_the_bots_fault_in_the_arena():
    # Action index 0 (discard 1m) is illegal at most decisions of a hand.
    with pytest.raises(mj.IllegalBotActionError) as e:
        mj.arena([PolicyBot(Answer(np.array([0]))), *EFF], hands=4, seed=1)
    assert e.value.bot == 0
    with pytest.raises(mj.BotError, match="outside the action space") as e:
        mj.arena([PolicyBot(Answer(np.array([mj.env.N_ACTIONS + 5]))), *EFF], hands=4, seed=1)
    assert e.value.bot == 0


def test_an_answer_that_is_not_an_index_names_the_policy():
    bot = PolicyBot(Answer(np.array([0.5])), name="halves")
    with pytest.raises(mj.BotError, match="InvalidTypeError.*halves.*integer action index"):
        mj.Game("gb", bots=[bot, *_eff_bots()], seed=3, hands=1).play()
    with pytest.raises(mj.InvalidTypeError, match="callable"):
        PolicyBot(42)  # type: ignore[arg-type]
    with pytest.raises(mj.InvalidArgumentError, match="features"):
        PolicyBot(FirstLegal(), features="v3")


def test_a_ladder_mixes_names_and_python_bots():
    table = mj.ladder(
        [PolicyBot(FirstLegal()), "efficiency", ModelBot()], walls=8, seed=5, threads=1
    )
    assert table.bots == ["first-legal", "efficiency", "ModelBot"]
    assert table.complete
    alone = mj.arena([PolicyBot(FirstLegal()), *EFF], hands=32, seed=5, threads=1)
    assert table.mean[0, 1] == pytest.approx(alone.summary()[0]["mean_score"])


def test_a_ladder_refuses_what_it_cannot_seat():
    with pytest.raises(mj.InvalidArgumentError, match="copied"):
        mj.ladder([PolicyBot(Answer(0)), "efficiency"], walls=2)
    with pytest.raises(mj.InvalidArgumentError, match="names must differ"):
        mj.ladder([PolicyBot(FirstLegal()), PolicyBot(FirstLegal())], walls=2)
    with pytest.raises(mj.InvalidTypeError, match="act"):
        mj.ladder([object(), "efficiency"], walls=2)
    with pytest.raises(mj.InvalidArgumentError, match="unknown bot"):
        mj.ladder([PolicyBot(FirstLegal()), "nobody"], walls=2)


@pytest.mark.parametrize("rules", mj.rules.NAMES)
def test_a_batched_policy_plays_every_rule_set_and_preset(rules):
    for policy in (FirstLegal(), ModelPolicy.load()):
        games = mj.arena([PolicyBot(policy), *EFF], hands=8, seed=1, rules=rules)
        assert len(games) == 8 and (games.scores.sum(axis=1) == 0).all()
