"""``majiang review FILE``: every decision of one seat in a recorded game, with the
expert's value of each option in points (see :mod:`majiang.coach.review`).

FILE is a match record (``majiang play --record``) or a Botzone judge log. The report
goes to the terminal as text; ``--json`` prints it as JSON, ``--html OUT`` writes a
self-contained page (tiles drawn, nothing loaded from elsewhere), ``--screen`` opens it on
a terminal screen with keys for the next and previous mistake.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import sys
from typing import Any

from .._core import MAX_THREADS
from .._untrusted import printable
from ..coach.review import (
    DEFAULT_SAMPLES,
    Decision,
    Review,
    default_seat,
    iter_mistake_lines,
    load_game,
    review,
)
from ..errors import MajiangError, ReplayMismatchError
from . import fail


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``review`` to the ``majiang`` command line."""
    p = sub.add_parser(
        "review",
        help="every decision of a recorded game valued by the expert, mistakes ranked",
        description="Review a recorded game (a majiang record or a Botzone judge log): "
        "every decision of one seat with the expert's value of each option in points "
        "(expected score change, estimated by playouts on sampled deals, with a 95% "
        "interval), the choice played beside the best, the mistakes ranked by points lost "
        "and a summary (agreement, points lost per hand, deal-ins, missed wins, claim "
        "errors).",
    )
    p.add_argument("file", help="a match record (JSON lines) or a Botzone judge log")
    p.add_argument(
        "--seat",
        type=int,
        default=None,
        help="the seat to review, 0-3 (default: the person's seat of a majiang play "
        "record, else 0)",
    )
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.add_argument(
        "--html", metavar="OUT", default=None, help="also write a self-contained HTML page"
    )
    p.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        help=f"sampled deals per decision (default {DEFAULT_SAMPLES}; more: narrower "
        "intervals, slower)",
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of the sampled deals (0)")
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads the playouts run on (default: every core; the values do not depend on it)",
    )
    p.add_argument(
        "--hand", type=int, default=None, help="review only this hand (1-based; default all)"
    )
    p.add_argument(
        "--mistakes", type=int, default=10, help="mistakes listed in the text report (10)"
    )
    p.add_argument(
        "--screen",
        action="store_true",
        help="open the review on a terminal screen (n/p: next/previous mistake; needs Textual)",
    )
    p.add_argument("--ascii", action="store_true", help="with --screen: tiles as 1m 9p 5z")
    p.set_defaults(func=run)


#: ``_fail(message, status=2)``: this command's one-line failure (:func:`fail`).
_fail = functools.partial(fail, "review")


def _mark(d: Decision) -> str:
    if d.agrees and d.loss == 0:
        return "="
    if d.clear:
        return "X"
    return "~" if not d.agrees else "="


def text_report(rv: Review, mistakes: int = 10) -> str:
    """The review as the text the terminal shows."""
    name = printable(rv.players[rv.seat]) if rv.seat < len(rv.players) else ""
    out = [
        f"Review of seat {rv.seat} ({name}), {rv.rules}, "
        f"{len(rv.hands)} hand{'s' if len(rv.hands) != 1 else ''}",
        f"Values: {rv.method}.",
        "Marks: = the expert's choice or the best value; ~ another choice within the "
        "noise; X a clear mistake (the loss beyond its 95% interval).",
    ]
    for h in rv.hands:
        outcome = "won" if h.won else "dealt in" if h.dealt_in else ""
        out.append("")
        out.append(
            f"Hand {h.index + 1}: {h.delta:+d} points"
            + (f", {outcome}" if outcome else "")
            + f"; {len(h.decisions)} decisions, {h.loss:.1f} points lost"
        )
        for d in h.decisions:
            pv = d.played_value
            line = (
                f"  {_mark(d)} #{d.number:<3} {d.situation()}\n"
                f"        played {d.played} {pv.points:+.2f}"
            )
            if not d.agrees:
                line += f"; expert {d.expert} {d.values.value_of(d.expert).points:+.2f}"
            if d.loss > 0:
                line += (
                    f"; best {d.best.action} {d.best.points:+.2f}; "
                    f"lost {d.loss:.2f} ±{1.96 * pv.loss_se:.2f}"
                )
            if d.missed_win:
                line += "; WIN NOT TAKEN"
            out.append(line)
            if d.clear:
                out.append("\n".join("      " + x for x in d.values.table(rows=5).splitlines()))
    s = rv.summary
    out += ["", "Summary"]
    if s["decisions"]:
        out.append(
            f"  decisions {s['decisions']}; agreement with the expert {s['agreement']}%; "
            f"played the best value {s['best_agreement']}%"
        )
        out.append(
            f"  points lost {s['points_lost']} ({s['points_lost_per_hand']} per hand; "
            f"{s['clear_mistakes']} clear mistakes: {s['clear_points_lost']}, "
            f"{s['clear_points_lost_per_hand']} per hand)"
        )
        out.append(
            f"  behind the expert's choices {s['behind_expert']} points "
            f"({s['behind_expert_per_hand']} per hand)"
        )
    else:
        out.append("  no decision with a choice")
    out.append(
        f"  wins {s['wins']}, deal-ins {s['deal_ins']}, missed wins {s['missed_wins']}, "
        f"claim errors {s['claim_errors']}; score change {s['score_change']:+d}"
    )
    ranked = list(iter_mistake_lines(rv, mistakes))
    if ranked:
        out += ["", "Mistakes, most points lost first"] + ranked
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    """Runs ``majiang review``: exit status 2 for bad options or a file that cannot be
    read, 1 when the engine does not reproduce the game."""
    if args.seat is not None and not 0 <= args.seat <= 3:
        return _fail(f"--seat must be 0-3, got {args.seat}")
    if not 2 <= args.samples <= 100_000:
        return _fail(f"--samples must be 2 to 100,000, got {args.samples}")
    if not 0 <= args.seed < 2**63:
        return _fail(f"--seed must be a whole number from 0 to {2**63 - 1:,}, got {args.seed}")
    threads = args.threads if args.threads is not None else min(os.cpu_count() or 1, MAX_THREADS)
    if not 1 <= threads <= MAX_THREADS:
        return _fail(f"--threads must be from 1 to {MAX_THREADS}, got {threads}")
    if args.mistakes < 0:
        return _fail(f"--mistakes must be 0 or more, got {args.mistakes}")
    if args.screen and args.json:
        return _fail("--screen and --json go to different places: choose one")
    if args.screen and importlib.util.find_spec("textual") is None:
        return _fail('--screen needs Textual, which is not installed: pip install "majiang[ui]"', 1)
    try:
        rec = load_game(args.file)
    except MajiangError as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(f"cannot read {args.file}: {e.strerror or e}")
    hands = None
    if args.hand is not None:
        if not any(h.index + 1 == args.hand for h in rec.hands):
            return _fail(f"no hand {args.hand} in the record ({len(rec.hands)} hands)")
        hands = [args.hand - 1]
    if not rec.hands:
        return _fail(f"{args.file} holds no finished hand")
    seat = default_seat(rec) if args.seat is None else args.seat
    progress: Any = None
    if sys.stderr.isatty():

        def progress(done: int, total: int) -> None:
            print(f"\rreviewing: hand {done} of {total}", end="", file=sys.stderr, flush=True)

    try:
        rv = review(
            rec,
            seat,
            samples=args.samples,
            seed=args.seed,
            threads=threads,
            hands=hands,
            progress=progress,
            source=str(args.file),
        )
    except ReplayMismatchError as e:
        if progress is not None:
            print(file=sys.stderr)
        return _fail(f"{args.file}: the engine does not reproduce the game: {e}", 1)
    except MajiangError as e:
        if progress is not None:
            print(file=sys.stderr)
        return _fail(str(e))
    if progress is not None:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    if args.html is not None:
        from ..coach.review_html import write_html

        try:
            write_html(rv, args.html)
        except OSError as e:
            return _fail(f"cannot write {args.html}: {e.strerror or e}")
    if args.screen:
        from ..ui.review import ReviewApp

        ReviewApp(rv, ascii=args.ascii).run()
        return 0
    if args.json:
        print(rv.to_json())
    else:
        print(text_report(rv, args.mistakes))
        if args.html is not None:
            print(f"\nThe review is in {args.html}")
    return 0
