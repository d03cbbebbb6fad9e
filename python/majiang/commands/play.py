"""``majiang play``: the terminal game, one person against three bots; ``--web`` serves
the same game to a local browser."""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import shlex
import sys

from .._core import RuleSet
from ..coach.store import COLOURS, DataFileError, Store, summarize
from ..rules import NAMES
from . import add_rules_option, fail, rule_set

INSTALL_HINT = (
    "majiang play needs Textual, which is not installed.\n"
    'Install it with the game\'s extra:  pip install "majiang[ui]"\n'
    '(from a source checkout: pip install ".[ui]"; or just: pip install textual)'
)


def _seating() -> str:
    """Where the person sits, rule set by rule set, from each one's first-dealer rule."""
    east = [n for n in NAMES if RuleSet(n).options().get("first_dealer") == "east"]
    drawn = [n for n in NAMES if n not in east]
    parts = []
    if east:
        parts.append(f"under {', '.join(east)} you are East (the dealer) in the first hand")
    if drawn:
        parts.append(f"{', '.join(drawn)} draw the first dealer, so you may start in any seat")
    return "; ".join(parts)


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``play`` to the ``majiang`` command line."""
    p = sub.add_parser(
        "play",
        help="play a match against three bots in the terminal",
        description="Play Chinese mahjong in the terminal: you take the bottom seat against "
        f"three bots ({_seating()}). Arrows and Enter discard, d discards the drawn tile, "
        "the action bar shows the claims you may make (c chow, p pung, k kong, h win, "
        "Space pass), t shows hints (what the level's bot would play; --explain says why), "
        "? shows help (keys, rules, fans, your statistics), o the settings, q then y quits. "
        "Settings (level, hints, explain, colours) and statistics are kept in your data "
        "directory ($XDG_DATA_HOME/majiang, or --data-dir).",
    )
    add_rules_option(p)
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="match seed; the same seed deals the same walls (default: random)",
    )
    p.add_argument(
        "--level",
        choices=("easy", "normal", "hard"),
        default=None,
        help="opponents: easy = RandomBot, normal = EfficiencyBot, hard = ExpertBot "
        "(default: your saved setting, else normal); the hints advise as the level's bot "
        "plays (easy: as normal's)",
    )
    p.add_argument(
        "--ascii", action="store_true", help="write tiles as 1m 9p 5z instead of Chinese characters"
    )
    p.add_argument(
        "--hints",
        action="store_true",
        help="show the hints from the start: what the level's bot would play, shanten, "
        "useful tiles, the danger of each tile, the fans within reach",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="show the hints from the start, with the bot's reasons (its leading candidates "
        "and the figures it compared)",
    )
    p.add_argument(
        "--colours",
        choices=COLOURS,
        default=None,
        help="full: the tiles' own colours; basic: the 16 colours of any terminal; none: "
        "no colour (marks show danger and advice) (default: your saved setting, else full)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="save the match record to FILE (play it back with majiang replay, review it "
        "with majiang review); a FILE that exists is kept, and the match goes to a new "
        "name beside it (FILE-2, FILE-3, ...)",
    )
    p.add_argument(
        "--delay",
        type=float,
        default=0.4,
        metavar="SECONDS",
        help="pause after each bot move (default 0.4)",
    )
    p.add_argument(
        "--hands",
        type=int,
        default=None,
        help="hands in the match (default: the rule set's match length)",
    )
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        default=None,
        help="where settings and statistics are kept (default: $XDG_DATA_HOME/majiang, "
        "else ~/.local/share/majiang)",
    )
    p.add_argument(
        "--stats",
        action="store_true",
        help="print your statistics across matches (from the data directory) and leave",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="serve the game to a browser on this machine (http://127.0.0.1:PORT) instead "
        "of playing in the terminal; each browser tab plays its own match",
    )
    p.add_argument(
        "--port", type=int, default=8000, help="the port --web listens on (default 8000)"
    )
    # Set by --web for the game it starts per browser tab: no summary on standard output,
    # which carries the screen to the browser.
    p.add_argument("--served", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


WEB_HINT = (
    "majiang play --web needs textual-serve, which is not installed.\n"
    'Install it with the web extra:  pip install "majiang[web]"\n'
    '(from a source checkout: pip install ".[web]")'
)


def game_command(args: argparse.Namespace) -> list[str]:
    """The command line of the game that ``--web`` starts for each browser tab: the same
    options, in the terminal mode, marked as served."""
    cmd = [sys.executable, "-m", "majiang", "play", "--rules", args.rules]
    cmd += ["--delay", str(args.delay), "--served"]
    if args.level is not None:
        cmd += ["--level", args.level]
    if args.seed is not None:
        cmd += ["--seed", str(args.seed)]
    if args.hands is not None:
        cmd += ["--hands", str(args.hands)]
    if args.ascii:
        cmd.append("--ascii")
    if args.hints:
        cmd.append("--hints")
    if args.explain:
        cmd.append("--explain")
    if args.colours is not None:
        cmd += ["--colours", args.colours]
    if args.data_dir is not None:
        cmd += ["--data-dir", os.path.abspath(args.data_dir)]
    if args.record:
        # Each tab's match takes a name of its own beside this one.
        cmd += ["--record", os.path.abspath(args.record)]
    return cmd


def serve(args: argparse.Namespace) -> int:
    """``--web``: serves the game on 127.0.0.1 (never on other interfaces) until Ctrl-C."""
    if importlib.util.find_spec("textual_serve") is None:
        print(WEB_HINT, file=sys.stderr)
        return 1
    if not 0 < args.port < 65536:
        print(f"majiang play: --port must be 1-65535, got {args.port}", file=sys.stderr)
        return 2
    from ..ui.web import LocalServer

    server = LocalServer(
        shlex.join(game_command(args)), host="127.0.0.1", port=args.port, title="majiang"
    )
    print(f"majiang is served on http://127.0.0.1:{args.port}  (Ctrl-C stops)", flush=True)
    try:
        server.serve()
    except OSError as e:
        print(f"majiang play: cannot serve on 127.0.0.1:{args.port}: {e}", file=sys.stderr)
        return 1
    return 0


def new_record_path(path: str) -> tuple[str, bool]:
    """A file name for a new match record at `path`, never an earlier record's: `path`
    itself when no file has it, else the first free ``NAME-2.EXT``, ``NAME-3.EXT``, ...
    beside it. The name is taken at once (an empty file created with ``O_EXCL``), so two
    games started together never share it. Returns the path and whether it is `path`."""
    p = os.path.abspath(path)
    stem, ext = os.path.splitext(p)
    for n in range(1, 10_000):
        candidate = p if n == 1 else f"{stem}-{n}{ext}"
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        return candidate, n == 1
    raise FileExistsError(f"{p} and 9,998 names beside it already hold records")


#: ``_fail(message, status=2)``: this command's one-line failure (:func:`fail`).
_fail = functools.partial(fail, "play")


def print_stats(store: Store, ascii: bool = False) -> int:
    """``--stats``: the statistics across matches, as text."""
    from rich.console import Console

    from ..ui.help import stats_page

    try:
        summaries = summarize(store.stats())
    except DataFileError as e:
        return _fail(str(e))
    console = Console(highlight=False, soft_wrap=False)
    console.print(f"Statistics kept in {store.path(store.STATS)}")
    console.print(stats_page(summaries, ascii))
    return 0


def run(args: argparse.Namespace) -> int:
    """Starts the game; exit status 1 with a how-to-install message without Textual."""
    store = Store(args.data_dir)
    if args.stats:
        if importlib.util.find_spec("rich") is None:
            print(INSTALL_HINT, file=sys.stderr)
            return 1
        return print_stats(store, args.ascii)
    if importlib.util.find_spec("textual") is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    if args.seed is not None and not 0 <= args.seed < 2**63:
        return _fail(f"--seed must be a whole number from 0 to {2**63 - 1:,}, got {args.seed}")
    if args.delay < 0:
        return _fail("--delay must not be negative")
    if args.hands is not None and args.hands < 1:
        return _fail("--hands must be at least 1")
    try:
        saved = store.settings()
    except DataFileError as e:
        return _fail(str(e))
    if args.web:
        return serve(args)
    record_path = None
    renamed = False
    if args.record:
        from ..record import check_record_path

        try:
            check_record_path(args.record)
            record_path, first = new_record_path(args.record)
            renamed = not first
        except OSError as e:
            return _fail(f"--record: {e}")
    from ..ui import run as run_game

    try:
        app = run_game(
            rules=rule_set(args.rules),
            seed=args.seed,
            level=args.level or saved.level,
            ascii=args.ascii,
            record=record_path,
            delay=args.delay,
            hands=args.hands,
            explain=args.explain or saved.explain,
            hints=args.hints or saved.hints,
            colours=args.colours or saved.colours,
            data_dir=str(store.dir),
        )
    except BaseException:
        _drop_empty(record_path)
        raise
    c = app.controller
    if args.served:
        return 0
    if c.record.hands:
        print(
            f"Scores after {len(c.record.hands)} of {c.n_hands} hands: "
            + ", ".join(
                f"{n} {s:+d}"
                for n, s in zip(("You", "Right", "Across", "Left"), c.scores, strict=True)
            )
        )
    if app.stats_error:
        print(f"majiang play: statistics not kept: {app.stats_error}", file=sys.stderr)
    if record_path and c.record_error:
        print(
            f"majiang play: the record stopped at a failed write: {c.record_error}", file=sys.stderr
        )
        return 1
    if record_path:
        # Each finished hand was appended as it ended; the hand in progress is not kept.
        done = len(c.record.hands)
        note = ""
        if c.hand_in_progress:
            note = (
                f"; hand {done + 1}, left unfinished, is not in it "
                f"(majiang play --seed {c.seed} deals it again)"
            )
        kept = f" ({args.record} holds an earlier match, kept as it was)" if renamed else ""
        print(
            f"Record of {done} of {c.n_hands} hands saved to {record_path}{kept}{note} "
            f"(majiang replay {record_path}, majiang review {record_path})"
        )
    return 0


def _drop_empty(path: str | None) -> None:
    """Removes the name taken for a record when the game never wrote to it."""
    if path is None:
        return
    try:
        if os.path.getsize(path) == 0:
            os.unlink(path)
    except OSError:
        pass
