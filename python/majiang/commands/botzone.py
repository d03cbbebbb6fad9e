"""``majiang botzone``: run a built-in bot as a Botzone bot (simple IO, JSON IO,
keep-running); ``majiang botzone export`` writes a hand of a record as the judge's input
log, ``majiang botzone import`` reads a Botzone log into a majiang record."""

from __future__ import annotations

import argparse
import json
import sys

from .._files import atomic_write
from ..botzone import BOTS, BotzonePlayer, ProtocolError, judge_log, read_log, run
from ..record import MatchRecord, RecordError


def register(sub: argparse._SubParsersAction) -> None:
    """Adds the ``botzone`` subcommand (and its ``export`` and ``import``)."""
    p = sub.add_parser(
        "botzone",
        help="run a built-in bot as a Botzone bot; export/import judge logs",
        description="Reads Botzone Chinese Standard Mahjong input on stdin and prints the "
        "bot's answer: simple IO (turn number, then requests and responses) or JSON IO "
        "(--io json); --keep-running stays up for the next requests. The same seed and "
        "input give the same answers in every mode. 'majiang botzone export RECORD' "
        "writes a hand as the judge's input log, 'majiang botzone import LOG' reads a "
        "Botzone log into a majiang record (which 'majiang replay' also opens directly).",
    )
    p.add_argument("--bot", choices=BOTS, default="strong", help="which bot plays")
    p.add_argument("--seed", type=int, default=0, help="seed of the bot's decisions")
    p.add_argument("--io", choices=("simple", "json"), default="simple")
    p.add_argument(
        "--keep-running",
        action="store_true",
        help="after each answer print the keep-running marker and wait for the next request",
    )
    p.add_argument(
        "--shared-wall",
        action="store_true",
        help="the judge draws from one wall (default: four private walls of 34)",
    )
    p.add_argument("--flowers", action="store_true", help="flowers are in play")
    p.set_defaults(func=main)
    logs = p.add_subparsers(dest="log_command", metavar="{export,import}")
    ex = logs.add_parser(
        "export",
        help="write a hand of a record as the Botzone judge's input log",
        description="Writes hand --hand of a match record played under Botzone's rules "
        "(mj.botzone.rules(): private walls, no flowers) as the judge's input: initdata "
        "(walltiles, quan) and the judge's requests alternating with every player's "
        "answers, ending with the scores. One line of JSON.",
    )
    ex.add_argument("record", help="the match record (JSON lines)")
    ex.add_argument("--hand", type=int, default=1, help="which hand (1-based, default 1)")
    ex.add_argument("-o", "--out", default=None, help="the log file (default: stdout)")
    ex.set_defaults(func=export)
    im = logs.add_parser(
        "import",
        help="read a Botzone log into a majiang record",
        description="Reads a Botzone log (the judge's input, or the log Botzone keeps of a "
        "finished match) into a one-hand majiang record dealt from the log's wall, "
        "after checking that every request and the final scores follow from the answers.",
    )
    im.add_argument("log", help="the Botzone log (JSON)")
    im.add_argument("-o", "--out", default=None, help="the record file (default: stdout)")
    im.set_defaults(func=import_)


def main(args: argparse.Namespace) -> int:
    """Runs the bot on stdin/stdout."""

    def make() -> BotzonePlayer:
        return BotzonePlayer(
            args.bot, args.seed, private_walls=not args.shared_wall, flowers=args.flowers
        )

    if sys.stdin.isatty():
        # Typed alone at a terminal: say what the command waits for instead of waiting
        # silently (the judge, or a pipe, gives no terminal).
        print(waiting_message(args.io, args.keep_running), file=sys.stderr, flush=True)

    try:
        run(make, sys.stdin, sys.stdout, io=args.io, keep_running=args.keep_running)
    except (ProtocolError, ValueError) as e:
        print(f"majiang botzone: {e}", file=sys.stderr)
        return 2
    return 0


def waiting_message(io: str, keep_running: bool) -> str:
    """What ``majiang botzone`` says when its input is a terminal: that it plays one
    Botzone bot and reads the judge's requests, in which form, and how to stop."""
    form = (
        "one JSON object with the requests and the bot's earlier responses"
        if io == "json"
        else "the turn number on one line, then the judge's requests and the bot's earlier "
        "responses, one per line"
    )
    more = " It answers each request and waits for the next." if keep_running else ""
    return (
        "majiang botzone: plays a Botzone bot. It waits for the Botzone judge's input on "
        f"standard input: {form}.{more} Run it from Botzone or with 'majiang arena'; to try "
        "it by hand, type the input and end it with Ctrl-D (Ctrl-C stops). "
        "'majiang botzone --help' says more."
    )


def export(args: argparse.Namespace) -> int:
    """``majiang botzone export``: exit status 2 when the record cannot be read or its hand
    cannot be written as a Botzone log."""
    try:
        rec = MatchRecord.load(args.record)
        text = json.dumps(judge_log(rec, args.hand - 1), ensure_ascii=False, separators=(",", ":"))
        if args.out is None:
            print(text)
        else:
            # Through a temporary file renamed over the target: a failed write keeps the
            # previous log whole.
            atomic_write(args.out, (text + "\n").encode("utf-8"))
    except (RecordError, OSError) as e:
        print(f"majiang botzone export: {e}", file=sys.stderr)
        return 2
    return 0


def import_(args: argparse.Namespace) -> int:
    """``majiang botzone import``: exit status 2 for a log that cannot be read."""
    try:
        rec = read_log(args.log)
        if args.out is None:
            sys.stdout.write(rec.to_json())
        else:
            rec.save(args.out)
        if rec.refusal is not None:
            # Read, but the judge ended the hand on a refused answer: the record holds no
            # finished hand.
            print(f"majiang botzone import: {args.log}: {rec.refusal}", file=sys.stderr)
    except (RecordError, OSError) as e:
        print(f"majiang botzone import: {e}", file=sys.stderr)
        return 2
    return 0
