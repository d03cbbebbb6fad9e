"""``majiang botzone``: run a built-in bot as a Botzone bot (simple IO, JSON IO, keep-running)."""

from __future__ import annotations

import argparse
import sys

from ..botzone import BOTS, BotzonePlayer, ProtocolError, run


def register(sub: argparse._SubParsersAction) -> None:
    """Adds the ``botzone`` subcommand."""
    p = sub.add_parser(
        "botzone",
        help="run a built-in bot as a Botzone bot",
        description="Reads Botzone Chinese Standard Mahjong input on stdin and prints the "
        "bot's answer: simple IO (turn number, then requests and responses) or JSON IO "
        "(--io json); --keep-running stays up for the next requests. The same seed and "
        "input give the same answers in every mode.",
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


def main(args: argparse.Namespace) -> int:
    """Runs the bot on stdin/stdout."""

    def make() -> BotzonePlayer:
        return BotzonePlayer(
            args.bot, args.seed, private_walls=not args.shared_wall, flowers=args.flowers
        )

    try:
        run(make, sys.stdin, sys.stdout, io=args.io, keep_running=args.keep_running)
    except (ProtocolError, ValueError) as e:
        print(f"majiang botzone: {e}", file=sys.stderr)
        return 2
    return 0
