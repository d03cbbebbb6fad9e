"""Deterministic searches for deals where something happens to the person.

The tests and the screenshots need hands in which the person is offered a pung, a
chow or a win. :class:`ScriptedPerson` is a simple, fully deterministic player for seat 0
(it wins when it can, takes the claims it is told to, and otherwise discards the tile that
leaves the lowest shanten with the most unseen useful tiles); :func:`find_seed` plays one
hand per seed against the bots of a level, with no display, and returns the first seed
whose hand satisfies a condition. Because the bots are seeded from the match seed, a test
that plays the same seed through the app with the same choices sees the same hand.

``python -m majiang.ui.scenarios`` prints a seed for each of the situations the tests use.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import majiang as _mj

from .._core import Action
from .controller import Controller
from .hints import oracle_options, unseen_counts

__all__ = ["HandLog", "ScriptedPerson", "find_seed", "keys_for", "play_hand"]


@dataclass
class ScriptedPerson:
    """A deterministic player for seat 0.

    ``claims``: the claim kinds it takes when offered (``"pung"``, ``"chow"``,
    ``"kong"``); it always wins when a win is offered if ``win``. On its turn it declares
    no kong and discards by tile efficiency (see :meth:`discard`).
    """

    claims: tuple[str, ...] = ("pung",)
    win: bool = True
    prefer_drawn: bool = False
    ready: bool = False

    def discard(self, obs: Any, rules: Any) -> int:
        """The tile to discard: lowest shanten after the discard, then the most unseen
        copies of useful tiles, then the drawn tile, then the lowest tile code."""
        hand = list(obs.hand)
        melds = list(obs.melds[obs.seat])
        unseen = unseen_counts(obs)
        legal = {a.tile for a in obs.legal_actions if a.kind == "discard"}
        kw = oracle_options(obs, rules)
        best: tuple[Any, ...] | None = None
        choice = -1
        for t in sorted(set(hand)):
            if t not in legal:
                continue
            rest = list(hand)
            rest.remove(t)
            sh = _mj.shanten(rest, melds, **kw)
            n = sum(unseen[u] for u in _mj.useful_tiles(rest, melds, **kw))
            key = (
                (sh, 0 if t == obs.drawn else 1, -n, t)
                if self.prefer_drawn
                else (sh, -n, 0 if t == obs.drawn else 1, t)
            )
            if best is None or key < best:
                best, choice = key, t
        return choice

    def act(self, obs: Any, rules: Any) -> Action:
        """The action for the person's present decision."""
        legal = list(obs.legal_actions)
        kinds = {a.kind: a for a in legal}
        if self.win and "win" in kinds:
            return kinds["win"]
        if obs.phase == "turn":
            tile = self.discard(obs, rules)
            if self.ready:
                for a in legal:
                    if a.kind == "ready" and a.tile == tile:
                        return a
            for a in legal:
                if a.kind == "discard" and a.tile == tile:
                    return a
            return next(a for a in legal if a.kind == "discard")
        for kind in ("kong", "pung", "chow"):
            if kind in self.claims and kind in kinds:
                return kinds[kind]
        return kinds.get("pass", legal[-1])


@dataclass
class HandLog:
    """What happened to the person in one hand."""

    seed: int
    offered: list[set[str]] = field(default_factory=list)
    offers: list[list[Action]] = field(default_factory=list)
    taken: list[Action] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def was_offered(self, kind: str) -> bool:
        """True if the person could choose `kind` at some point."""
        return any(kind in o for o in self.offered)

    def offered_several(self, kind: str) -> bool:
        """True if the person could once choose between several actions of `kind`
        (several chows of one discard, several kongs)."""
        return any(sum(a.kind == kind for a in o) > 1 for o in self.offers)

    def took(self, kind: str) -> bool:
        """True if the person chose `kind`."""
        return any(a.kind == kind for a in self.taken)

    @property
    def person_won(self) -> bool:
        """True if the person won the hand."""
        return any(w["seat"] == 0 for w in (self.result or {}).get("wins", []))


def play_hand(
    seed: int,
    *,
    rules: str = "gb",
    level: str = "easy",
    person: ScriptedPerson | None = None,
) -> HandLog:
    """Plays the first hand of match `seed` with the scripted person, no display."""
    person = person or ScriptedPerson()
    c = Controller(rules, seed, level, hands=1)
    c.start_hand()
    log = HandLog(seed)
    while not c.hand_over:
        c.run_bots()
        if c.hand_over:
            break
        obs = c.observation()
        log.offers.append(list(obs.legal_actions))
        log.offered.append({a.kind for a in obs.legal_actions})
        action = person.act(obs, c.rules)
        log.taken.append(action)
        c.act(action)
    r = c.round
    assert r is not None
    log.result = r.result
    return log


def find_seed(
    condition: Callable[[HandLog], bool],
    *,
    rules: str = "gb",
    level: str = "easy",
    person: ScriptedPerson | None = None,
    seeds: Iterable[int] = range(5000),
) -> int | None:
    """The first seed whose first hand, played by `person`, satisfies `condition`."""
    for seed in seeds:
        if condition(play_hand(seed, rules=rules, level=level, person=person)):
            return seed
    return None


def keys_for(screen: Any, action: Action) -> list[str]:
    """The keys a person presses on the table screen (:class:`~majiang.ui.app.GameScreen`)
    to play `action`: arrows to the tile and Enter (or ``d`` for the drawn tile), or the
    claim key, followed by the number of the choice when the key offers several."""
    kind = action.kind
    if kind in ("discard", "ready"):
        obs = screen.c.observation()
        tiles, drawn = screen._split_hand(obs)
        if kind == "discard" and drawn is not None and action.tile == drawn:
            return ["d"]
        slot = tiles.index(action.tile) if action.tile in tiles else len(tiles)
        n = len(tiles) + (1 if drawn is not None else 0)
        here = screen.selected
        right = (slot - here) % n
        left = (here - slot) % n
        moves = ["right"] * right if right <= left else ["left"] * left
        return [*moves, "enter" if kind == "discard" else "r"]
    key = {
        "win": "h",
        "kong": "k",
        "concealed_kong": "k",
        "added_kong": "k",
        "pung": "p",
        "chow": "c",
        "pass": "space",
    }[kind]
    same = [a for a in screen.c.legal_actions() if a.kind in _KEY_GROUP[key]]
    if len(same) > 1:
        return [key, str(same.index(action) + 1)]
    return [key]


_KEY_GROUP = {
    "h": ("win",),
    "k": ("kong", "concealed_kong", "added_kong"),
    "p": ("pung",),
    "c": ("chow",),
    "space": ("pass",),
}


def pung_then_win(log: HandLog) -> bool:
    """The person claims a pung and later wins."""
    return log.took("pung") and log.person_won


def main(argv: list[str] | None = None) -> int:
    """Prints a seed for each scenario the tests and screenshots use."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="gb")
    p.add_argument("--level", default="easy")
    p.add_argument("--limit", type=int, default=5000)
    args = p.parse_args(argv)
    seeds = range(args.limit)
    for name, cond in (
        ("pung offered", lambda g: g.was_offered("pung")),
        ("person wins", lambda g: g.person_won),
        ("pung then win", pung_then_win),
    ):
        seed = find_seed(cond, rules=args.rules, level=args.level, seeds=seeds)
        print(f"{name}: {seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
