"""Builds :class:`~majiang.record.MatchRecord` objects from finished hands."""

from __future__ import annotations

from typing import Any

from .._core import RuleSet
from ..record import HandRecord, MatchRecord


def rule_set(rules: Any) -> RuleSet:
    """A :class:`~majiang.RuleSet` from a name or a RuleSet."""
    return rules if isinstance(rules, RuleSet) else RuleSet(rules)


def new_record(rules: RuleSet, seed: int, hands: int, players: list[str]) -> MatchRecord:
    """An empty record of a match of `hands` hands seeded `seed`."""
    return MatchRecord(
        rules=rules.name,
        options=rules.options(),
        seed=seed,
        n_hands=hands,
        players=list(players),
    )


def hand_record(
    index: int,
    seed: int,
    round: Any,
    scores_before: list[int],
    scores_after: list[int],
) -> HandRecord:
    """The record of one finished hand."""
    return HandRecord(
        index=index,
        seed=seed,
        dealer=round.dealer,
        prevalent_wind=round.prevalent_wind,
        scores_before=list(scores_before),
        result=round.result,
        scores_after=list(scores_after),
        events_json=round.events_json(),
    )
