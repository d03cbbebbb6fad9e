"""``majiang arena``: built-in bots against each other, duplicate by default."""

from __future__ import annotations

import argparse
import json
import sys

from .. import _core
from ..sim import arena


def _run(args: argparse.Namespace) -> int:
    try:
        result = arena(
            args.bots,
            hands=args.hands,
            seed=args.seed,
            rules=args.rules,
            duplicate=not args.no_duplicate,
            threads=args.threads,
            progress=not (args.quiet or args.json),
        )
    except KeyboardInterrupt as e:
        part = getattr(e, "partial", None)
        done = f" after {len(part):,} hands" if part is not None else ""
        print(f"majiang arena: interrupted{done}", file=sys.stderr)
        return 130
    except (ValueError, TypeError) as e:
        print(f"majiang arena: {e}", file=sys.stderr)
        return 2
    if args.json:
        out = {
            "hands": len(result),
            "rules": result.rules,
            "seed": result.seed,
            "duplicate": result.duplicate,
            "bots": result.summary(),
        }
        print(json.dumps(out, indent=2))
    else:
        print(result.format_table())
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``arena`` subcommand."""
    p = subparsers.add_parser(
        "arena",
        help="play built-in bots against each other (duplicate walls)",
        description="Plays built-in bots against each other. In duplicate play (the default) "
        "every wall is played four times with the seats rotated, so each bot plays every "
        "seat on the same tiles. Prints per bot: mean score per hand with a 95% confidence "
        "interval (walls as samples), win rate, deal-in rate, self-draw rate, mean fan of "
        "its wins and the exhaustive-draw rate. Ctrl-C stops the games (exit status 130).",
    )
    p.add_argument(
        "--bots",
        default="efficiency,random,random,random",
        help="four comma-separated bots (" + ", ".join(_core.policy_names()) + ")",
    )
    p.add_argument("--hands", type=int, default=4_000, help="hands to play (default 4000)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument(
        "--rules", default="gb", choices=["gb", "classic", "huainan"], help="rule set (gb)"
    )
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--no-duplicate", action="store_true", help="keep every bot in its seat")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)
