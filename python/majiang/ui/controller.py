"""The match behind the terminal game, without any display.

:class:`Controller` owns a :class:`majiang.Match`, the current :class:`majiang.Round`
and the three bots. The person sits at seat 0 (East in the first hand). The controller
never decides what is legal: the person picks one of the round's ``legal_actions`` and
the bots return one of theirs; the round applies it. Every finished hand is kept as a
:class:`majiang.HandRecord`, so the whole match can be written as a
:class:`majiang.MatchRecord` (``majiang replay FILE`` plays it back). With
:meth:`Controller.record_to` each hand is appended to the file as soon as it ends
(:class:`majiang.record.RecordWriter`), so quitting or a crash never loses a finished
hand; a record holds finished hands only, so a hand left unfinished is not in it, and
:meth:`Controller.close_record` marks the match unfinished (``complete: false``).

The app drives it with :meth:`Controller.step_bots`, one visible move at a time, with a
delay between moves; tests and scripts drive it with no delay at all.
"""

from __future__ import annotations

import inspect
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import bots as _bots
from .._core import Action, Match, Observation, Round, RuleSet
from ..errors import InvalidArgumentError, UsageError
from ..record import HandRecord, MatchRecord, RecordWriter

__all__ = [
    "LEVELS",
    "PERSON",
    "Controller",
    "bot_class_for_level",
    "make_bot",
    "relative_seat",
]

PERSON = 0
"""The person's seat (P1, East in the first hand)."""

LEVELS = ("easy", "normal", "hard")
"""Opponent levels: easy plays at random, normal by tile efficiency, hard is the
strongest bot available."""

# Each level lists the bots it wants, best first; the first one this build has is used.
_LEVEL_BOTS: dict[str, tuple[str, ...]] = {
    "easy": ("RandomBot",),
    "normal": ("EfficiencyBot", "RandomBot"),
    "hard": ("ExpertBot", "StrongBot", "EfficiencyBot", "RandomBot"),
}

_SEAT_NAMES = ("You", "Right", "Across", "Left")


def bot_class_for_level(level: str) -> type:
    """The bot class a level plays with: ``easy`` → ``RandomBot``, ``normal`` →
    ``EfficiencyBot``, ``hard`` → ``ExpertBot``; a level whose bot this build does not
    have yet gets the best one it has."""
    if level not in _LEVEL_BOTS:
        raise InvalidArgumentError(f"unknown level {level!r} (expected one of {', '.join(LEVELS)})")
    for name in _LEVEL_BOTS[level]:
        cls = getattr(_bots, name, None)
        if cls is not None:
            return cls
    raise UsageError("majiang.bots has no RandomBot")


def make_bot(cls: type, seed: int, rules: RuleSet) -> Any:
    """A bot of class `cls` seeded with `seed`; bots that plan for a rule set (their
    constructor takes ``rules``) are given the game's."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    if "rules" in params:
        return cls(seed=seed, rules=rules)
    return cls(seed=seed)


def relative_seat(seat: int, viewer: int = PERSON) -> str:
    """Where `seat` sits as seen from `viewer`: ``You``, ``Right`` (next to play),
    ``Across`` or ``Left`` (the seat whose discards `viewer` may chow)."""
    return _SEAT_NAMES[(seat - viewer) % 4]


@dataclass
class Move:
    """One step of the hand as the person sees it: who acted and the events it caused."""

    seat: int
    action: Action
    events: list[dict[str, Any]]


class Controller:
    """A match of one person (seat 0) against three bots.

    ``rules``: a preset name or a :class:`~majiang.RuleSet`. ``seed``: the match seed
    (random when None; :attr:`seed` tells it, so the game can be played again).
    ``level``: ``easy``, ``normal`` or ``hard`` (see :func:`bot_class_for_level`), or
    ``bots``: three objects with ``act(observation)`` for seats 1-3. ``hands``: the
    number of hands (default: the rule set's match length).
    """

    def __init__(
        self,
        rules: str | RuleSet = "gb",
        seed: int | None = None,
        level: str = "normal",
        hands: int | None = None,
        bots: Sequence[Any] | None = None,
    ) -> None:
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet(rules)
        self.seed = secrets.randbits(31) if seed is None else int(seed)
        if not 0 <= self.seed < 2**63:
            raise InvalidArgumentError(f"seed must be 0 <= seed < 2**63, got {seed}")
        self.level = level
        if bots is None:
            cls = bot_class_for_level(level)
            bots = [make_bot(cls, self.seed * 4 + s, self.rules) for s in (1, 2, 3)]
        bots = list(bots)
        if len(bots) != 3:
            raise InvalidArgumentError(f"the person plays against three bots, got {len(bots)}")
        self.bots: list[Any] = [None, *bots]
        self.match = Match(self.rules, self.seed, hands)
        self.record = MatchRecord(
            rules=self.rules.name,
            options=self.rules.options(),
            seed=self.seed,
            n_hands=self.match.hands,
            players=["Person", *(type(b).__name__ for b in bots)],
        )
        self.round: Round | None = None
        self.writer: RecordWriter | None = None
        self._advisor: Any = None
        self.record_error: str | None = None
        """Why the record file stopped growing (a failed write), or None."""
        self._hand_start: tuple[int, int, int, int, list[int]] | None = None
        self._events_seen = 0

    # ---- the match ------------------------------------------------------------------

    @property
    def bot_name(self) -> str:
        """The class name of the opponents (for the header)."""
        return type(self.bots[1]).__name__

    @property
    def advisor(self) -> Any:
        """The bot whose choice the hints show: the bot the level plays (hard: ExpertBot,
        normal: EfficiencyBot), so the advice is the opponents' own way of playing; the
        easy level, whose RandomBot gives no advice, takes the normal level's. Made on
        first use with a fixed seed, so that the same position always gets the same
        advice; None when no advising bot can play these rules."""
        if self._advisor is None:
            for level in (self.level, "normal"):
                if level not in _LEVEL_BOTS:
                    continue
                for name in _LEVEL_BOTS[level]:
                    if name == "RandomBot":
                        continue
                    cls = getattr(_bots, name, None)
                    if cls is None:
                        continue
                    try:
                        self._advisor = make_bot(cls, 0, self.rules)
                    except (ValueError, TypeError):
                        continue
                    return self._advisor
        return self._advisor

    @property
    def n_hands(self) -> int:
        """Hands in the match."""
        return self.match.hands

    @property
    def hand_number(self) -> int:
        """The current hand, counting from 1 (the next one between hands)."""
        if self.round is not None and not self.round.is_over:
            return self.match.hand_index + 1
        return min(self.match.hand_index + 1, self.match.hands)

    @property
    def match_over(self) -> bool:
        """True when every hand has been played and recorded."""
        return self.match.is_over

    @property
    def scores(self) -> list[int]:
        """Running scores (after every finished hand)."""
        return list(self.match.scores)

    def start_hand(self) -> Round:
        """Deals the next hand."""
        m = self.match
        self._hand_start = (m.hand_index, m.hand_seed, m.dealer, m.prevalent_wind, list(m.scores))
        self.round = m.start_hand()
        self._events_seen = 0
        return self.round

    def finish_hand(self) -> HandRecord:
        """Records the finished hand (scores, dealer and wind move on) and returns it."""
        r = self._require_round()
        if not r.is_over:
            raise UsageError("the hand is not over yet")
        assert self._hand_start is not None
        index, seed, dealer, wind, before = self._hand_start
        self.match.finish_hand(r)
        result = r.result
        assert result is not None  # the hand is over
        hand = HandRecord(
            index=index,
            seed=seed,
            dealer=dealer,
            prevalent_wind=wind,
            scores_before=before,
            result=result,
            scores_after=list(self.match.scores),
            events_json=r.events_json(),
        )
        self.record.hands.append(hand)
        self.record.final_scores = list(self.match.scores)
        if self.writer is not None:
            try:
                self.writer.add_hand(hand)
            except OSError as e:
                # The game goes on; the file keeps the hands written before (see
                # record_error) and the whole record can still be saved elsewhere.
                self.record_error = f"{self.writer.path}: {e.strerror or e}"
                self._drop_writer()
        return hand

    def _drop_writer(self) -> None:
        writer, self.writer = self.writer, None
        if writer is not None:
            try:
                writer.close()
            except OSError:
                pass

    def record_to(self, path: str) -> str:
        """Starts writing the match record to `path` (the header and the hands finished so
        far); every later hand is appended, synced to disk, as it ends. Returns the
        absolute path."""
        self.close_record()
        self.writer = RecordWriter(path, self.record)
        return self.writer.path

    def close_record(self) -> None:
        """Ends the record with its trailer: a complete match when every hand was played,
        otherwise an unfinished one holding the finished hands (the hand in progress, if
        any, is not recorded)."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    @property
    def hand_in_progress(self) -> bool:
        """True while a hand has been dealt and not finished."""
        return self.round is not None and not self.round.is_over

    def save_record(self, path: str) -> None:
        """Writes the match record so far as JSON lines (``majiang replay`` reads it),
        through a temporary file renamed over `path`."""
        self.record.save(path)

    # ---- one hand -------------------------------------------------------------------

    def _require_round(self) -> Round:
        if self.round is None:
            raise UsageError("no hand has been dealt")
        return self.round

    @property
    def hand_over(self) -> bool:
        """True when the current hand has ended (or none was dealt)."""
        return self.round is None or self.round.is_over

    def person_to_act(self) -> bool:
        """True when the person must decide now."""
        r = self.round
        return r is not None and not r.is_over and PERSON in r.pending

    def observation(self, seat: int = PERSON) -> Observation:
        """What `seat` sees now, with its legal actions."""
        return self._require_round().observation(seat)

    def legal_actions(self) -> list[Action]:
        """The person's legal actions now (empty when it is not the person's decision)."""
        r = self.round
        if r is None or r.is_over:
            return []
        return list(r.legal_actions(PERSON))

    def act(self, action: Action) -> Move:
        """Applies the person's action (one of :meth:`legal_actions`)."""
        r = self._require_round()
        r.apply(PERSON, action)
        return Move(PERSON, action, self.new_events())

    def step_bots(self) -> Move | None:
        """Lets the first bot that must decide act; None when no bot has to (the person
        must act, or the hand is over). In a claim window the bots answer before the
        person does, and nothing is resolved until everyone has answered."""
        r = self._require_round()
        if r.is_over:
            return None
        for s in r.pending:
            if s != PERSON:
                action = self.bots[s].act(r.observation(s))
                r.apply(s, action)
                return Move(s, action, self.new_events())
        return None

    def run_bots(self, on_move: Callable[[Move], None] | None = None) -> None:
        """Lets the bots act until the person must decide or the hand is over."""
        while (move := self.step_bots()) is not None:
            if on_move is not None:
                on_move(move)

    def new_events(self) -> list[dict[str, Any]]:
        """The events since the last call, as the person sees them."""
        r = self._require_round()
        events = r.events(PERSON, self._events_seen)
        self._events_seen = r.n_events
        return list(events)

    def hand_of(self, seat: int) -> list[int]:
        """A seat's concealed tiles: the person's at any time, anyone's once the hand is
        over (all hands are shown at the end)."""
        r = self._require_round()
        if seat != PERSON and not r.is_over:
            raise UsageError("another seat's hand is shown only when the hand is over")
        return list(r.hand(seat))

    def melds_of(self, seat: int) -> list[Any]:
        """A seat's melds once the hand is over (concealed kongs shown)."""
        r = self._require_round()
        if seat != PERSON and not r.is_over:
            raise UsageError("another seat's concealed kongs are shown only at the end")
        return list(r.melds(seat))

    def seat_wind(self, seat: int) -> int:
        """A seat's wind in the current hand, 0-3 (E S W N)."""
        if self.round is not None:
            dealer = self.round.dealer
        else:
            dealer = self.match.dealer
        return (seat - dealer) % 4
