"""Review a played game: every decision of one seat valued by the expert, in points.

:func:`review` replays each hand of a :class:`~majiang.record.MatchRecord` (a
``majiang play --record`` file, or a Botzone judge log read by
:func:`majiang.botzone.read_log`) through the engine (:func:`~majiang.record.hand_round`,
:func:`~majiang.record.replay_moves`) and, at every decision of the chosen seat that had
a choice (two legal actions or more), asks :meth:`majiang.bots.ExpertBot.value_of_options`
for the value of each option. A :class:`Decision` holds what the seat saw, what it
played, the expert's choice and every option's value; a :class:`HandReview` the
decisions of one hand with its outcome for the seat; :class:`Review` the whole game with
its summary (:attr:`Review.summary`) and the mistakes ranked by points lost
(:meth:`Review.mistakes`).

The values are estimates (see :mod:`majiang.bots.values`): each has a standard error, and
a loss counts as *clear* only beyond its own 95% interval. The points lost at a decision
are the best option's mean minus the played option's mean; since the best is picked
among noisy means, the sum over many close decisions leans high, which is why the
summary also gives the points lost in clear mistakes alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._core import Action, format_tiles
from ..bots import ExpertBot
from ..bots.values import OptionValue, OptionValues
from ..errors import InvalidArgumentError, RecordError
from ..record import MatchRecord, hand_round, replay_moves

__all__ = [
    "DEFAULT_SAMPLES",
    "Decision",
    "HandReview",
    "Review",
    "load_game",
    "review",
]

DEFAULT_SAMPLES = 32
"""Sampled deals per decision a review plays by default."""

MAX_GAME_BYTES = 64 * 1024 * 1024
"""The largest file :func:`load_game` reads."""


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat.

    ``hand`` is the hand's index (0-based) and ``number`` the decision's within the hand
    (1-based, counting only decisions with a choice). ``phase`` is ``turn``, ``claim`` or
    ``rob_kong``; ``tiles`` the seat's concealed tiles (sorted), ``drawn`` the tile it
    just drew (None in a claim window), ``offered`` the tile under claim (None at its
    turn), ``melds`` its exposed melds as tile lists, ``wall`` the tiles left to draw.
    ``played`` is the action the seat took, ``values`` every option's value.
    """

    hand: int
    number: int
    seat: int
    phase: str
    tiles: tuple[int, ...]
    drawn: int | None
    offered: int | None
    melds: tuple[tuple[int, ...], ...]
    wall: int
    played: Action
    values: OptionValues

    @property
    def played_value(self) -> OptionValue:
        """The value of the action the seat played."""
        return self.values.value_of(self.played)

    @property
    def best(self) -> OptionValue:
        """The option with the highest mean."""
        return self.values.best

    @property
    def expert(self) -> Action:
        """The action the expert bot chooses here."""
        return self.values.expert_action

    @property
    def agrees(self) -> bool:
        """Whether the seat played the expert's choice."""
        return self.played == self.expert

    @property
    def loss(self) -> float:
        """Points lost: the best mean minus the played option's mean (0 when the seat
        played the best)."""
        return self.played_value.loss

    @property
    def gap(self) -> float:
        """Points behind the expert's choice: its mean minus the played option's
        (negative when the played option did better in the playouts; unbiased, unlike
        :attr:`loss`)."""
        return self.played_value.gap

    @property
    def clear(self) -> bool:
        """Whether the loss is beyond its 95% interval (see
        :attr:`OptionValue.clearly_worse <majiang.bots.OptionValue.clearly_worse>`)."""
        return self.played_value.clearly_worse

    @property
    def kind(self) -> str:
        """``"discard"`` at a turn with a discard to choose, ``"claim"`` in a window
        offering a chow, pung or kong, ``"win"`` where the only choice is to win or not,
        ``"kong"`` at a turn offering only kongs and the win besides the discard."""
        kinds = {o.action.kind for o in self.values}
        if self.phase != "turn":
            return "claim" if kinds & {"chow", "pung", "kong"} else "win"
        return "discard" if kinds & {"discard", "ready"} else "kong"

    @property
    def missed_win(self) -> bool:
        """A win was legal and the seat did not take it."""
        return self.played.kind != "win" and any(o.action.kind == "win" for o in self.values)

    @property
    def claim_error(self) -> bool:
        """A claim window (a chow, pung or kong on offer) where the seat's choice was
        clearly worse than the best."""
        return self.kind == "claim" and self.clear

    def situation(self) -> str:
        """What the seat saw, in one line (``"turn, wall 61: 1m2m... drew 5p"``)."""
        melds = "".join(f" [{format_tiles(list(m))}]" for m in self.melds)
        extra = ""
        if self.drawn is not None:
            extra = f", drew {format_tiles([self.drawn])}"
        if self.offered is not None:
            extra = f", offered {format_tiles([self.offered])}"
        return f"{self.phase}, wall {self.wall}: {format_tiles(list(self.tiles))}{melds}{extra}"

    def as_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data."""
        return {
            "hand": self.hand,
            "number": self.number,
            "seat": self.seat,
            "phase": self.phase,
            "kind": self.kind,
            "tiles": list(self.tiles),
            "tiles_text": format_tiles(list(self.tiles)),
            "drawn": self.drawn,
            "offered": self.offered,
            "melds": [list(m) for m in self.melds],
            "wall": self.wall,
            "played": str(self.played),
            "expert": str(self.expert),
            "best": str(self.best.action),
            "agrees": self.agrees,
            "loss": round(self.loss, 3),
            "loss_se": round(self.played_value.loss_se, 3),
            "gap": round(self.gap, 3),
            "gap_se": round(self.played_value.gap_se, 3),
            "clear": self.clear,
            "missed_win": self.missed_win,
            "values": self.values.as_dict(),
        }


@dataclass(frozen=True)
class HandReview:
    """The reviewed decisions of one hand and its outcome for the seat: ``delta`` its
    score change, ``won`` and ``dealt_in`` (it discarded, or added the kong robbed, the
    tile another seat won on)."""

    index: int
    seat: int
    decisions: tuple[Decision, ...]
    delta: int
    won: bool
    dealt_in: bool

    @property
    def loss(self) -> float:
        """Points lost at the hand's decisions."""
        return sum(d.loss for d in self.decisions)


@dataclass(frozen=True)
class Review:
    """A reviewed game: the rules, the ``seat`` reviewed and the ``players``' names, the
    ``hands`` reviewed, and how the values were estimated (``samples`` sampled deals per
    decision, ``seed``, the ``playout`` bot at the seat)."""

    rules: str
    seat: int
    players: tuple[str, ...]
    hands: tuple[HandReview, ...]
    samples: int
    seed: int
    playout: str
    source: str = ""

    @property
    def decisions(self) -> list[Decision]:
        """Every reviewed decision, in play order."""
        return [d for h in self.hands for d in h.decisions]

    def mistakes(self, clear_only: bool = False) -> list[Decision]:
        """The decisions where the seat lost points, the most first (``clear_only``:
        only those beyond their 95% interval)."""
        out = [d for d in self.decisions if d.loss > 0 and (d.clear or not clear_only)]
        return sorted(out, key=lambda d: (-d.loss, d.hand, d.number))

    @property
    def summary(self) -> dict[str, Any]:
        """The figures of the review: decisions, agreement with the expert's choice and
        with the best value (%), points lost in all and per hand (all losses, and the
        clear ones), points behind the expert's choices (the unbiased figure), deal-ins,
        missed wins, claim errors, the seat's score change."""
        ds = self.decisions
        n = len(ds)
        hands = len(self.hands)
        lost = sum(d.loss for d in ds)
        clear = [d for d in ds if d.loss > 0 and d.clear]
        clear_lost = sum(d.loss for d in clear)
        gap = sum(d.gap for d in ds)
        return {
            "hands": hands,
            "decisions": n,
            "agreement": round(100 * sum(d.agrees for d in ds) / n, 1) if n else None,
            "best_agreement": round(100 * sum(d.loss == 0 for d in ds) / n, 1) if n else None,
            "points_lost": round(lost, 2),
            "points_lost_per_hand": round(lost / hands, 2) if hands else None,
            "clear_mistakes": len(clear),
            "clear_points_lost": round(clear_lost, 2),
            "clear_points_lost_per_hand": round(clear_lost / hands, 2) if hands else None,
            "behind_expert": round(gap, 2),
            "behind_expert_per_hand": round(gap / hands, 2) if hands else None,
            "deal_ins": sum(h.dealt_in for h in self.hands),
            "wins": sum(h.won for h in self.hands),
            "missed_wins": sum(d.missed_win for d in ds),
            "claim_errors": sum(d.claim_error for d in ds),
            "score_change": sum(h.delta for h in self.hands),
        }

    @property
    def method(self) -> str:
        """How each value was estimated, in one line."""
        return (
            f"each option played out on the same {self.samples} sampled deals of the unseen "
            f"tiles, the {self.playout} bot at the seat and the efficiency bot at the others "
            f"(seed {self.seed}); values are mean points with a 95% interval"
            + (
                "; the private walls played as one shared wall of the same unseen tiles"
                if self.shared_wall
                else ""
            )
        )

    @property
    def shared_wall(self) -> bool:
        """Whether the playouts drew the private walls' tiles from one shared wall (a
        Botzone game: a view does not show whose wall holds which tile)."""
        return any(d.values.shared_wall for d in self.decisions)

    def as_dict(self) -> dict[str, Any]:
        """The review as JSON-ready data."""
        return {
            "format": "majiang-review",
            "version": 1,
            "source": self.source,
            "rules": self.rules,
            "seat": self.seat,
            "players": list(self.players),
            "method": {
                "samples": self.samples,
                "seed": self.seed,
                "playout_bot": self.playout,
                "opponent_bot": "efficiency",
                "shared_wall": self.shared_wall,
                "text": self.method,
            },
            "summary": self.summary,
            "mistakes": [[d.hand, d.number] for d in self.mistakes()],
            "hands": [
                {
                    "index": h.index,
                    "delta": h.delta,
                    "won": h.won,
                    "dealt_in": h.dealt_in,
                    "loss": round(h.loss, 3),
                    "decisions": [d.as_dict() for d in h.decisions],
                }
                for h in self.hands
            ],
        }

    def to_json(self) -> str:
        """:meth:`as_dict` as JSON text."""
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=1)


def _is_botzone_log(head: bytes) -> bool:
    """The bytes look like a Botzone log (one JSON object with a ``log`` list, or the
    list alone) rather than a match record (JSON lines opening with its header)."""
    head = head.lstrip()
    if head.startswith(b"["):
        return True
    if not head.startswith(b"{"):
        return False
    first = head.split(b"\n", 1)[0]
    if b'"majiang-record"' in first:
        return False
    return b'"log"' in head or b'"initdata"' in head


def load_game(path: str | Path) -> MatchRecord:
    """A game to review from ``path``: a majiang match record or a Botzone judge log
    (told apart by their opening). :class:`~majiang.RecordError` names what is wrong with
    a file that is neither, cut short or damaged; ``OSError`` when it cannot be read."""
    p = Path(path)
    if p.is_dir():
        raise RecordError(f"{path} is a directory, not a record")
    with open(p, "rb") as f:
        head = f.read(4096)
    if not head.strip():
        raise RecordError(f"{path} is empty")
    if _is_botzone_log(head):
        from ..botzone import read_log

        return read_log(p)
    return MatchRecord.load(p)


def default_seat(record: MatchRecord) -> int:
    """The seat a review looks at by default: the person's in a ``majiang play``
    record (the player named ``Person``), else 0."""
    return record.players.index("Person") if "Person" in record.players else 0


def review(
    record: MatchRecord,
    seat: int | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    playout: str = "expert",
    threads: int = 1,
    hands: list[int] | None = None,
    progress: Callable[[int, int], object] | None = None,
    source: str = "",
) -> Review:
    """Reviews ``seat`` (default :func:`default_seat`) in every hand of ``record`` (or
    the hands of index in ``hands``): each decision with a choice valued by
    :meth:`ExpertBot(seed, samples=samples, playout=playout).value_of_options
    <majiang.bots.ExpertBot.value_of_options>` (its playouts on ``threads`` threads; the
    values do not depend on it). ``progress(done, total)`` is called
    after each hand. The hands are replayed through the engine, so a record the engine
    does not reproduce raises :class:`~majiang.ReplayMismatchError`; a seat outside 0-3
    :class:`~majiang.InvalidArgumentError`; rules whose hidden state a view does not show
    (huainan) :class:`~majiang.RuleError`."""
    if seat is None:
        seat = default_seat(record)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise InvalidArgumentError(f"the seat must be 0-3, got {seat!r}")
    rules = record.rule_set()
    bot = ExpertBot(seed=seed, rules=rules, samples=samples, playout=playout, threads=threads)
    chosen = record.hands if hands is None else [h for h in record.hands if h.index in hands]
    out: list[HandReview] = []
    for done, h in enumerate(chosen):
        out.append(_review_hand(rules, h, seat, bot))
        if progress is not None:
            progress(done + 1, len(chosen))
    return Review(
        rules=record.rules,
        seat=seat,
        players=tuple(record.players),
        hands=tuple(out),
        samples=samples,
        seed=seed,
        playout=playout,
        source=source,
    )


def _review_hand(rules: Any, h: Any, seat: int, bot: ExpertBot) -> HandReview:
    r = hand_round(rules, h)
    decisions: list[Decision] = []

    def before(s: int, played: Action) -> None:
        if s != seat:
            return
        o = r.observation(s)
        if len(o.legal_actions) < 2:
            return
        values = bot.value_of_options(o)
        claim = o.claim[1] if o.claim is not None else None
        decisions.append(
            Decision(
                hand=h.index,
                number=len(decisions) + 1,
                seat=s,
                phase=o.phase,
                tiles=tuple(sorted(o.hand)),
                drawn=o.drawn if o.phase == "turn" else None,
                offered=claim,
                melds=tuple(tuple(m.tiles) for m in o.melds[s]),
                wall=o.wall_remaining,
                played=played,
                values=values,
            )
        )

    for _ in replay_moves(r, h, before=before):
        pass
    won = seat in [w["seat"] for w in h.result.get("wins", [])]
    dealt_in = any(
        e.get("type") == "win" and e.get("from") == seat and e.get("seat") != seat for e in h.events
    )
    return HandReview(
        index=h.index,
        seat=seat,
        decisions=tuple(decisions),
        delta=int(h.deltas[seat]),
        won=won,
        dealt_in=dealt_in,
    )


def iter_mistake_lines(rv: Review, limit: int = 10) -> Iterator[str]:
    """The ranked mistakes as text lines (at most ``limit``)."""
    for i, d in enumerate(rv.mistakes()[:limit], 1):
        mark = "" if d.clear else "  (within the noise)"
        yield (
            f"{i:>3}. hand {d.hand + 1} #{d.number}: played {d.played}, best {d.best.action} "
            f"(expert: {d.expert}): -{d.loss:.2f} ±{1.96 * d.played_value.loss_se:.2f} "
            f"points{mark}"
        )
