"""``majiang play``: the terminal game, one person against three bots; ``--web`` serves
the same game to a local browser."""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import sys

from . import add_rules_option, rule_set

INSTALL_HINT = (
    "majiang play needs Textual, which is not installed.\n"
    'Install it with the game\'s extra:  pip install "majiang[ui]"\n'
    '(from a source checkout: pip install ".[ui]"; or just: pip install textual)'
)


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``play`` to the ``majiang`` command line."""
    p = sub.add_parser(
        "play",
        help="play a match against three bots in the terminal",
        description="Play Chinese mahjong in the terminal: you sit East against three "
        "bots. Arrows and Enter discard, d discards the drawn tile, the action bar shows "
        "the claims you may make (c chow, p pung, k kong, h win, Space pass), t shows "
        "hints (what the strong bot would play and why; --explain shows them from the "
        "start), q then y quits.",
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
        default="normal",
        help="opponents: easy = RandomBot, normal = EfficiencyBot, "
        "hard = ExpertBot or the strongest bot available (default normal)",
    )
    p.add_argument(
        "--ascii", action="store_true", help="write tiles as 1m 9p 5z instead of Chinese characters"
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="show the hints from the start: what the strong bot would play and why (its "
        "leading candidates with their chance of winning, danger and value)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="save the match record to FILE (play it back with majiang replay)",
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
    cmd += ["--level", args.level, "--delay", str(args.delay), "--served"]
    if args.seed is not None:
        cmd += ["--seed", str(args.seed)]
    if args.hands is not None:
        cmd += ["--hands", str(args.hands)]
    if args.ascii:
        cmd.append("--ascii")
    if args.explain:
        cmd.append("--explain")
    if args.record:
        cmd += ["--record", args.record]
    return cmd


def serve(args: argparse.Namespace) -> int:
    """``--web``: serves the game on 127.0.0.1 (never on other interfaces) until Ctrl-C."""
    if importlib.util.find_spec("textual_serve") is None:
        print(WEB_HINT, file=sys.stderr)
        return 1
    if not 0 < args.port < 65536:
        print(f"majiang play: --port must be 1-65535, got {args.port}", file=sys.stderr)
        return 2
    from textual_serve.server import Server

    server = Server(
        shlex.join(game_command(args)), host="127.0.0.1", port=args.port, title="majiang"
    )
    print(f"majiang is served on http://127.0.0.1:{args.port}  (Ctrl-C stops)", flush=True)
    try:
        server.serve()
    except OSError as e:
        print(f"majiang play: cannot serve on 127.0.0.1:{args.port}: {e}", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    """Starts the game; exit status 1 with a how-to-install message without Textual."""
    if importlib.util.find_spec("textual") is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    if args.seed is not None and not 0 <= args.seed < 2**63:
        print(f"majiang play: --seed must be 0 <= N < 2**63, got {args.seed}", file=sys.stderr)
        return 2
    if args.delay < 0:
        print("majiang play: --delay must not be negative", file=sys.stderr)
        return 2
    if args.hands is not None and args.hands < 1:
        print("majiang play: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.web:
        return serve(args)
    record_path = None
    if args.record:
        from ..record import check_record_path

        try:
            record_path = check_record_path(args.record)
        except OSError as e:
            print(f"majiang play: --record: {e}", file=sys.stderr)
            return 2
    from ..ui import run as run_game

    app = run_game(
        rules=rule_set(args.rules),
        seed=args.seed,
        level=args.level,
        ascii=args.ascii,
        record=record_path,
        delay=args.delay,
        hands=args.hands,
        explain=args.explain,
    )
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
        print(
            f"Record of {done} of {c.n_hands} hands saved to {record_path}{note} "
            f"(majiang replay {record_path})"
        )
    return 0
