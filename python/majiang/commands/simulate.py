"""``majiang simulate``: play many hands in Rust with built-in bots and print a summary."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path

from .. import _core
from .._untrusted import printable
from ..errors import InvalidArgumentError
from ..rules import unit
from ..signing import read_key
from ..sim import (
    MAX_IN_MEMORY_HANDS,
    MAX_SHARD_HANDS,
    SHARD_HANDS,
    SimResult,
    _check_file_target,
    simulate,
)
from . import add_rules_option, check_run_options, rule_set


def _err(msg: str) -> None:
    print(f"majiang simulate: {msg}", file=sys.stderr)


def _out_kind(out: str) -> str:
    """``"file"`` for a ``.npz`` file, ``"dir"`` for a shard directory; raises ValueError
    for anything else (a name with another extension)."""
    p = Path(out)
    if p.is_dir():
        return "dir"
    if p.suffix.lower() == ".npz":
        return "file"
    if p.suffix:
        raise InvalidArgumentError(
            f"--out {out}: give a .npz file (one file, at most {MAX_IN_MEMORY_HANDS:,} "
            "hands) or a directory without an extension (streamed shards)"
        )
    return "dir"


def _key(args: argparse.Namespace) -> bytes | None:
    return None if args.key_file is None else read_key(args.key_file)


def _verify(args: argparse.Namespace) -> int:
    """``--verify PATH``: re-plays the run's hands from its seed; exit status 1 when some
    differ, 2 when the run cannot be read."""
    try:
        result = SimResult.load(args.verify, key=_key(args))
        check = result.verify(args.sample, threads=args.threads)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except (ValueError, TypeError, OSError) as e:
        _err(str(e))
        return 2
    print(f"{printable(str(args.verify))}: {check.describe()}")
    return 0 if check.ok else 1


def _run(args: argparse.Namespace) -> int:
    if args.verify is not None:
        return _verify(args)
    if args.sample is not None:
        _err("--sample goes with --verify")
        return 2
    kind = None
    try:
        if args.out:
            kind = _out_kind(args.out)
            if kind == "file":
                if args.resume:
                    raise InvalidArgumentError(
                        "--resume continues a run in a directory, not a .npz file"
                    )
                _check_file_target(Path(args.out))
        elif args.resume:
            raise InvalidArgumentError("--resume needs --out DIRECTORY")
        check_run_options(args)
        if args.n < 0:
            raise InvalidArgumentError(f"-n must not be negative, got {args.n}")
        if kind != "dir" and args.n > MAX_IN_MEMORY_HANDS:
            raise InvalidArgumentError(
                f"-n {args.n:,} is more than the {MAX_IN_MEMORY_HANDS:,} hands a run keeps in "
                "memory: give --out DIRECTORY to stream them to disk"
            )
        if not 1 <= args.shard_hands <= MAX_SHARD_HANDS:
            raise InvalidArgumentError(
                f"--shard-hands must be from 1 to {MAX_SHARD_HANDS:,} (a shard is held in "
                f"memory until it is written), got {args.shard_hands}"
            )
        key = _key(args)
        if key is not None and kind != "dir":
            raise InvalidArgumentError("--key-file signs a shard directory: --out DIRECTORY")
        result = simulate(
            args.n,
            rules=rule_set(args.rules),
            bots=args.bots,
            seed=args.seed,
            threads=args.threads,
            progress=not args.quiet,
            out=args.out if kind == "dir" else None,
            resume=args.resume,
            shard_hands=args.shard_hands,
            key=key,
        )
        if kind == "file":
            result.save(args.out)
    except KeyboardInterrupt as e:
        part = getattr(e, "partial", None)
        done = f" after {len(part):,} hands" if isinstance(part, SimResult) else ""
        if kind == "dir" and isinstance(part, SimResult):
            where = f"; {args.out} holds them, --resume continues the run"
        elif kind == "file":
            where = f"; nothing written to {args.out}"
        else:
            where = ""
        _err(f"interrupted{done}{where}")
        return 130
    except (ValueError, TypeError, OSError) as e:
        _err(str(e))
        return 2
    if args.json:
        print(json.dumps(result.summary(top=args.top), ensure_ascii=False, indent=2))
    else:
        print(_aligned_summary(result, args.top))
        if args.out:
            what = "shards" if kind == "dir" else "arrays"
            print(f"{what} saved to {args.out}")
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
    if not fans or unit(summary["rules"]) != "fan":
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
        "the thread count. Ctrl-C stops the run (exit status 130); with --out DIRECTORY the "
        "hands finished are on disk and --resume continues the run.",
    )
    p.add_argument("-n", type=int, default=10_000, help="hands to play (default 10000)")
    add_rules_option(p)
    p.add_argument(
        "--bots",
        default="efficiency",
        help="one bot for every seat or four comma-separated ("
        + ", ".join(_core.policy_names())
        + "); default efficiency",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    p.add_argument(
        "--out",
        default=None,
        help="save the per-hand arrays: a .npz file (written when the run ends), or a "
        "directory of shards written as the run goes (any number of hands)",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run the --out directory holds, up to -n hands",
    )
    p.add_argument(
        "--shard-hands",
        type=int,
        default=SHARD_HANDS,
        help=f"hands per shard of an --out directory (default {SHARD_HANDS})",
    )
    p.add_argument(
        "--key-file",
        default=None,
        help="a file holding your signing key: sign the --out directory's manifest with it, "
        "or with --verify require the run to be signed with it (see docs/robustness.md)",
    )
    p.add_argument(
        "--verify",
        metavar="PATH",
        default=None,
        help="instead of a new run, re-play the hands of the run PATH holds (a .npz file or "
        "a shard directory) from its seed and compare every array; exit status 1 if some "
        "hand differs",
    )
    p.add_argument(
        "--sample",
        type=int,
        default=None,
        help="with --verify: re-play a random sample of this many hands, not all",
    )
    p.add_argument("--top", type=int, default=10, help="how many frequent fans to list")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_run)
