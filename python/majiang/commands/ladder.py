"""``majiang ladder``: every built-in bot against every other, pairwise means and ratings."""

from __future__ import annotations

import argparse
import json
import sys

from .. import _core
from ..ladder import DEFAULT_WALLS, ladder
from . import add_rules_option, rule_set


def _run(args: argparse.Namespace) -> int:
    try:
        result = ladder(
            args.bots,
            walls=args.walls,
            seed=args.seed,
            rules=rule_set(args.rules),
            threads=args.threads,
            progress=not (args.quiet or args.json),
        )
    except KeyboardInterrupt as e:
        part = getattr(e, "partial", None)
        print("majiang ladder: interrupted", file=sys.stderr)
        if part is not None and part.pairs():
            print(json.dumps(part.to_dict(), indent=2) if args.json else part.format_table())
        return 130
    except (ValueError, TypeError) as e:
        print(f"majiang ladder: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.format_table())
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``ladder`` subcommand."""
    p = subparsers.add_parser(
        "ladder",
        help="every built-in bot against every other (duplicate), with ratings",
        description="Plays every ordered pair of bots in duplicate games: the row bot alone "
        "against three of the column bot, every wall four times with the lone bot rotated "
        "through the seats. Prints the lone bot's mean score per hand with its 95% interval "
        "(walls as samples) for every pair, and a rating per bot: the least-squares fit of "
        "r_row - r_col to the table, anchored so that random is 0 (else mean 0). Ctrl-C "
        "stops and prints the pairs finished (exit status 130).",
    )
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots, at least two (default: every built-in bot: "
        + ", ".join(_core.policy_names())
        + ")",
    )
    p.add_argument(
        "--walls",
        type=int,
        default=DEFAULT_WALLS,
        help=f"walls per pair, each played four times (default {DEFAULT_WALLS})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    add_rules_option(p)
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=_run)
