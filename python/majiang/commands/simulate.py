"""``majiang simulate``: play many hands in Rust with built-in bots and print a summary."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata

from .. import _core
from ..sim import simulate


def _run(args: argparse.Namespace) -> int:
    try:
        result = simulate(
            args.n,
            rules=args.rules,
            bots=args.bots,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet,
        )
    except (ValueError, TypeError) as e:
        print(f"majiang simulate: {e}", file=sys.stderr)
        return 2
    if args.out:
        result.save(args.out)
    if args.json:
        print(json.dumps(result.summary(top=args.top), ensure_ascii=False, indent=2))
    else:
        print(_aligned_summary(result, args.top))
        if args.out:
            print(f"arrays saved to {args.out}")
    return 0


def _cells(text: str) -> int:
    """Terminal cells `text` takes: Chinese characters are two cells wide."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _aligned_summary(result: object, top: int) -> str:
    """The summary text, with the Chinese names of the frequent fans padded by terminal
    cells rather than by characters, so the counts line up."""
    text = result.format_summary(top=top)  # type: ignore[attr-defined]
    summary = result.summary(top=top)  # type: ignore[attr-defined]
    fans = summary.get("top_fans") or []
    if not fans or str(summary["rules"]).startswith("huainan"):
        return text
    lines = text.split("\n")
    head = lines[: len(lines) - len(fans)]
    width = max(6, *(_cells(zh) for _, zh, _, _ in fans))
    for en, zh, count, share in fans:
        head.append(f"  {en:<28} {zh}{' ' * (width - _cells(zh))} {count:>10,}  {share:6.2%}")
    return "\n".join(head)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``simulate`` subcommand."""
    p = subparsers.add_parser(
        "simulate",
        help="simulate many hands with built-in bots (Rust, all cores)",
        description="Plays N whole hands in Rust with built-in bots, in parallel, and prints "
        "the win rate, self-draw share, exhaustive draws, mean fan, a fan histogram, the most "
        "frequent fans and the mean hand length. The same seed gives the same hands whatever "
        "the thread count.",
    )
    p.add_argument("-n", type=int, default=10_000, help="hands to play (default 10000)")
    p.add_argument(
        "--rules", default="gb", choices=["gb", "classic", "huainan"], help="rule set (gb)"
    )
    p.add_argument(
        "--bots",
        default="efficiency",
        help="one bot for every seat or four comma-separated ("
        + ", ".join(_core.policy_names())
        + "); default efficiency",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument("--out", default=None, help="save the per-hand arrays to this .npz file")
    p.add_argument("--top", type=int, default=10, help="how many frequent fans to list")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)
