"""``majiang arena``: bots against each other, duplicate by default; built-in bots, and
Botzone bot programs seated among them (``--botzone-cmd``)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any

from .. import _core
from .._untrusted import printable
from ..errors import InvalidArgumentError
from ..sim import ArenaBotError, arena
from . import add_rules_option, check_run_options, rule_set

#: The ``--bots`` entry that seats the ``--botzone-cmd`` program.
BOTZONE_ENTRY = "botzone"


def _entries(args: argparse.Namespace) -> list[Any]:
    """The four entries: built-in names, and a BotzoneBot for each ``botzone`` entry."""
    from ..botzone.external import BotzoneBot

    text = args.bots
    if text is None:
        text = (
            "botzone,efficiency,efficiency,efficiency"
            if args.botzone_cmd
            else "efficiency,random,random,random"
        )
    names = [b.strip() for b in text.split(",")]
    if len(names) == 1:
        names = names * 4
    if BOTZONE_ENTRY not in names:
        if args.botzone_cmd:
            raise InvalidArgumentError(f"--botzone-cmd needs a {BOTZONE_ENTRY!r} entry in --bots")
        return names
    if not args.botzone_cmd:
        raise InvalidArgumentError(f"the {BOTZONE_ENTRY!r} entry of --bots needs --botzone-cmd")
    command = shlex.split(args.botzone_cmd)
    if not command:
        raise InvalidArgumentError("--botzone-cmd is empty")
    return [
        BotzoneBot(command, time_limit=args.time_limit) if n == BOTZONE_ENTRY else n for n in names
    ]


def _run(args: argparse.Namespace) -> int:
    entries: list[Any] = []
    try:
        check_run_options(args)
        entries = _entries(args)
        result = arena(
            entries,
            hands=args.hands,
            seed=args.seed,
            rules=rule_set(args.rules),
            duplicate=not args.no_duplicate,
            threads=args.threads,
            progress=not (args.quiet or args.json),
        )
    except KeyboardInterrupt as e:
        part = getattr(e, "partial", None)
        done = f" after {len(part):,} hands" if part is not None else ""
        print(f"majiang arena: interrupted{done}", file=sys.stderr)
        return 130
    except ArenaBotError as e:
        print(f"majiang arena: {e}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, OSError) as e:
        print(f"majiang arena: {e}", file=sys.stderr)
        return 2
    finally:
        for b in entries:
            if not isinstance(b, str):
                b.close()
        # What each program's failures were: the arena's figures count the replaced
        # answers, this says why.
        for b in entries:
            failures = getattr(b, "failures", None)
            if failures:
                last = failures[-1].split(": ", 1)[-1]
                print(
                    f"majiang arena: {printable(b.name)}: {len(failures)} failures, the seat "
                    f"played the fallback for the rest of {len(b.gave_up)} hands (the last "
                    f"failure: {last})",
                    file=sys.stderr,
                )
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
        help="play bots against each other (duplicate walls)",
        description="Plays bots against each other. In duplicate play (the default) "
        "every wall is played four times with the seats rotated, so each bot plays every "
        "seat on the same tiles. Prints per bot: mean score per hand with a 95% confidence "
        "interval (walls as samples), win rate, deal-in rate, self-draw rate, mean fan of "
        "its wins and the rate of hands without a winner; for a Botzone program, the "
        "answers replaced by its fallback (invalid). Ctrl-C stops the games (exit status "
        "130).",
    )
    p.add_argument(
        "--bots",
        default=None,
        help="four comma-separated bots ("
        + ", ".join(_core.policy_names())
        + f", or {BOTZONE_ENTRY} for the --botzone-cmd program); default "
        "efficiency,random,random,random, or botzone,efficiency,efficiency,efficiency with "
        "--botzone-cmd",
    )
    p.add_argument(
        "--botzone-cmd",
        default=None,
        metavar="CMD",
        help="a Botzone bot program (keep-running simple IO), e.g. 'python3 bot.py': each "
        f"{BOTZONE_ENTRY} entry of --bots runs its own copy",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=5.0,
        help="seconds the Botzone program may take per decision, every request of the "
        "decision included (default 5)",
    )
    p.add_argument("--hands", type=int, default=4_000, help="hands to play (default 4000)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    add_rules_option(p)
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--no-duplicate", action="store_true", help="keep every bot in its seat")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)
