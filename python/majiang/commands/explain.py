"""``majiang explain``: the strong bot's reasoning at every decision of one seat in a hand.

Without a file it deals a hand (``--rules``, ``--seed``) to four strong bots and prints,
at each decision of ``--seat`` that has a choice, the seat's hand and the bot's
explanation (:meth:`majiang.bots.StrongBot.explain`): the layer that decided, the leading
candidates with their plans, chances of winning, danger and values, the claim against the
pass, the opponents' threat. The hand is the one the bots play with ``act``.

With a match record (``majiang play --record``, :meth:`majiang.MatchRecord.save`) it
replays hand ``--hand`` through the engine and, at each decision of ``--seat`` (seat 0 is
the person in a ``majiang play`` record), prints what the seat played beside the strong
bot's choice and reasons; ``--differences`` keeps only the decisions where they differ.
"""

from __future__ import annotations

import argparse
import sys

from .._core import Action, Round, format_tiles
from ..rules import unit
from . import add_rules_option, rule_set

WIND = "ESWN"


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``explain`` to the ``majiang`` command line."""
    p = sub.add_parser(
        "explain",
        help="print the strong bot's reasoning at each decision of a hand",
        description="Print the strong bot's reasoning (the deciding layer, its candidates "
        "with chance of winning, danger and value, the claim against the pass, the "
        "opponents' threat) at each decision of one seat: in a hand it deals to four "
        "strong bots, or in a hand of a match record, beside what the seat played.",
    )
    p.add_argument("record", nargs="?", default=None, help="a match record (JSON lines)")
    add_rules_option(p)
    p.add_argument("--seed", type=int, default=0, help="the hand's seed (default 0)")
    p.add_argument("--seat", type=int, default=0, help="the seat to explain, 0-3 (default 0)")
    p.add_argument(
        "--hand", type=int, default=1, help="with a record: the hand to explain (1-based)"
    )
    p.add_argument("--rows", type=int, default=5, help="candidates shown per decision (default 5)")
    p.add_argument(
        "--differences",
        action="store_true",
        help="with a record: only the decisions where the seat played otherwise",
    )
    p.set_defaults(func=run)


def _header(r: Round, seat: int) -> str:
    o = r.observation(seat)
    drawn = f" (drew {format_tiles([o.drawn])})" if o.drawn is not None else ""
    wind = WIND[o.seat_wind]
    melds = "".join(f" [{format_tiles(list(m.tiles))}]" for m in o.melds[seat])
    return (
        f"seat {seat} ({wind}), {o.phase}, wall {o.wall_remaining}: "
        f"{format_tiles(sorted(o.hand))}{melds}{drawn}"
    )


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _self_play(args: argparse.Namespace) -> int:
    from ..bots import StrongBot

    rules = rule_set(args.rules)
    bots = [StrongBot(seed=s, rules=rules) for s in range(4)]
    r = Round(rules, args.seed)
    decisions = 0
    while not r.is_over:
        seat = r.pending[0]
        o = r.observation(seat)
        if seat == args.seat and len(o.legal_actions) > 1:
            e = bots[seat].explain(o)
            decisions += 1
            print(f"[{decisions}] {_header(r, seat)}")
            print(_indent(e.table(rows=args.rows)))
            print()
            a = e.action
        else:
            a = bots[seat].act(o)
        r.apply(seat, a)
    print(_outcome(r))
    return 0


def _outcome(r: Round) -> str:
    res = r.result or {}
    deltas = res.get("deltas", [0, 0, 0, 0])
    return "hand over: " + ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(deltas))


def _from_record(args: argparse.Namespace) -> int:
    from ..bots import StrongBot
    from ..record import MatchRecord, RecordError, ReplayMismatchError, hand_round, replay_moves

    try:
        rec = MatchRecord.load(args.record)
    except RecordError as e:
        print(f"majiang explain: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"majiang explain: cannot read {args.record}: {e.strerror or e}", file=sys.stderr)
        return 2
    hands = [h for h in rec.hands if h.index + 1 == args.hand]
    if not hands:
        print(f"majiang explain: no hand {args.hand} in the record", file=sys.stderr)
        return 2
    h = hands[0]
    rules = rec.rule_set()
    bot = StrongBot(seed=0, rules=rules)
    shown = 0
    decisions = 0

    def before(seat: int, played: Action) -> None:
        nonlocal shown, decisions
        o = r.observation(seat)
        if seat != args.seat or len(o.legal_actions) < 2:
            return
        decisions += 1
        e = bot.explain(o)
        same = e.action == played
        if args.differences and same:
            return
        shown += 1
        verdict = "same" if same else "DIFFERENT"
        print(f"[{decisions}] {_header(r, seat)}")
        print(f"  played {played}; strong bot: {e.action} ({verdict})")
        print(_indent(e.table(rows=args.rows)))
        print()

    try:
        r = hand_round(rules, h)
        for _ in replay_moves(r, h, before=before):
            pass
    except (ReplayMismatchError, ValueError) as e:
        print(f"majiang explain: the engine does not reproduce the hand: {e}", file=sys.stderr)
        return 1
    print(
        f"{decisions} decisions of seat {args.seat} in hand {args.hand}, "
        f"{shown} shown; " + _outcome(r)
    )
    return 0


def run(args: argparse.Namespace) -> int:
    """Runs ``majiang explain``: exit status 2 for bad arguments or an unreadable record,
    1 when the engine does not reproduce the recorded hand."""
    if not 0 <= args.seat <= 3:
        print(f"majiang explain: --seat must be 0-3, got {args.seat}", file=sys.stderr)
        return 2
    if args.rows < 1:
        print("majiang explain: --rows must be at least 1", file=sys.stderr)
        return 2
    if args.record is None:
        if unit(args.rules) != "fan":
            print(
                f"majiang explain: the strong bot plays {args.rules} by the efficiency path; "
                "its explanations name only that",
                file=sys.stderr,
            )
        if not 0 <= args.seed < 2**63:
            print(
                f"majiang explain: --seed must be a whole number from 0 to {2**63 - 1:,}, "
                f"got {args.seed}",
                file=sys.stderr,
            )
            return 2
        return _self_play(args)
    return _from_record(args)
