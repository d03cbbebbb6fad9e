"""``majiang replay FILE``: step through a match record in the terminal.

In a terminal it opens the record in the game's table view (every hand open, → and ←
step forward and back, ↓ and ↑ change hand, the fan table at the end of each hand; needs
Textual). ``--text`` steps through lines instead: each hand's opening tiles, every draw,
discard and meld with the acting player's hand, and the result with its fans and
payments, one keypress a step (no Enter: any key is the next step, ``n`` the next hand,
``q`` quits); ``--all`` prints everything at once. Players are named as the game names
them: a record of ``majiang play`` says You, Right, Across and Left; other records name
the players as their header does. ``--verify`` first re-plays the record through the
engine and reports any difference. FILE may also be a Botzone log (the judge's input, or
the log Botzone keeps of a match), read with :func:`majiang.botzone.read_log`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from .._core import format_tiles, wind_name
from .._untrusted import load_json, printable
from ..errors import InvalidArgumentError
from ..record import HandRecord, MatchRecord, RecordError, replay_record
from ..signing import read_key

WIND_ZH = "东南西北"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds the ``replay`` subcommand."""
    p = subparsers.add_parser(
        "replay",
        help="step through a match record",
        description="Step through a match record (JSON lines written by MatchRecord.to_json) "
        "or a Botzone log (the judge's input, or the log Botzone keeps of a match).",
    )
    p.add_argument("file", help="the record (JSON lines)")
    p.add_argument("--all", action="store_true", help="print the whole record without pausing")
    p.add_argument(
        "--text", action="store_true", help="step through lines instead of the table view"
    )
    p.add_argument("--ascii", action="store_true", help="tiles as 1m 9p 5z in the table view")
    p.add_argument("--hand", type=int, default=None, help="show only this hand (1-based)")
    p.add_argument(
        "--verify",
        action="store_true",
        help="re-play the record through the engine first, and say what that proved (where "
        "the deals came from, whether a digest or a signature was checked)",
    )
    p.add_argument(
        "--require-seed",
        action="store_true",
        help="with --verify: fail unless every hand was dealt from the wall its seed "
        "shuffles (a record or Botzone log giving its own walls fails)",
    )
    p.add_argument(
        "--key-file",
        default=None,
        help="a file holding your signing key: the record must be signed with it "
        "(see docs/robustness.md)",
    )
    p.set_defaults(func=run)


_SEAT_NAMES = ("You", "Right", "Across", "Left")
_names: list[str] = list(_SEAT_NAMES)


def _set_names(rec: MatchRecord) -> None:
    """Names the players: as ``majiang play`` does when the record is of a person's game
    (seat 0 is ``Person``), otherwise by the header's names (with the seat number when a
    name repeats)."""
    players = list(rec.players)
    if players and players[0] == "Person":
        _names[:] = list(_SEAT_NAMES)
    else:
        # Names come from the file: shown with their control characters escaped.
        _names[:] = [
            printable(p) if players.count(p) == 1 else f"{printable(p)} #{s + 1}"
            for s, p in enumerate(players)
        ]


def _has_textual() -> bool:
    import importlib.util

    return importlib.util.find_spec("textual") is not None


def _player(seat: int) -> str:
    return _names[seat]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _read_key() -> str:
    """One keypress from the terminal, without waiting for Enter (Ctrl-C raises
    KeyboardInterrupt, Ctrl-D EOFError)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        data = os.read(fd, 8)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
    if not data or data[:1] == b"\x04":
        raise EOFError
    return data[:1].decode("ascii", "replace")


def _tiles(tiles) -> str:
    return format_tiles(list(tiles)) if tiles else "-"


class _Table:
    """Tracks every player's tiles from the events (the record has full information)."""

    def __init__(self, hand: HandRecord) -> None:
        self.hand = hand
        self.concealed: list[Counter[int]] = [Counter() for _ in range(4)]
        self.melds: list[list[str]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.river: list[list[int]] = [[] for _ in range(4)]

    def wind(self, seat: int) -> str:
        return WIND_ZH[(seat - self.hand.dealer) % 4]

    def label(self, seat: int) -> str:
        return f"{_player(seat)} {self.wind(seat)}"

    def show(self, seat: int) -> str:
        parts = [_tiles(self.concealed[seat].elements())]
        if self.melds[seat]:
            parts.append("melds " + " ".join(self.melds[seat]))
        if self.flowers[seat]:
            parts.append("flowers " + _tiles(self.flowers[seat]))
        return " | ".join(parts)

    def _take(self, seat: int, tile: int, n: int = 1) -> None:
        self.concealed[seat][tile] -= n
        if self.concealed[seat][tile] <= 0:
            del self.concealed[seat][tile]

    def apply(self, e: dict[str, Any]) -> str | None:
        """Updates the table; returns a line describing the event (None: nothing to say)."""
        kind: str = e["type"]
        seat: int = e.get("seat", -1)
        if kind == "dice":
            dice = "+".join(map(str, e["dice"]))
            return (
                f"dice {dice}: the wall of the player {e['break_seat']} seats after the dealer, "
                f"{e['break_stack']} stacks"
            )
        if kind == "deal":
            for x in e["tiles"]:
                self.concealed[seat][x] += 1
            return None
        if kind == "draw":
            self.concealed[seat][e["tile"]] += 1
            where = "replacement" if e["tail"] else "draw"
            return f"{self.label(seat)} {where} {_tiles([e['tile']])}"
        if kind == "flower":
            self._take(seat, e["tile"])
            self.flowers[seat].append(e["tile"])
            return f"{self.label(seat)} sets aside flower {_tiles([e['tile']])}"
        if kind == "discard":
            self._take(seat, e["tile"])
            self.river[seat].append(e["tile"])
            ready = " and declares ready" if e.get("ready") else ""
            return f"{self.label(seat)} discards {_tiles([e['tile']])}{ready}   [{self.show(seat)}]"
        if kind in ("chow", "pung", "kong"):
            t = e["tile"]
            if kind == "chow":
                tiles = [e["low"], e["low"] + 1, e["low"] + 2]
                for x in tiles:
                    if x != t:
                        self._take(seat, x)
            else:
                tiles = [t] * (3 if kind == "pung" else 4)
                self._take(seat, t, len(tiles) - 1)
            if self.river[e["from"]]:
                self.river[e["from"]].pop()
            self.melds[seat].append(_tiles(tiles))
            src = _player(e["from"])
            return f"{self.label(seat)} {kind}s {_tiles([t])} from {src}   [{self.show(seat)}]"
        if kind == "concealed_kong":
            self._take(seat, e["tile"], 4)
            self.melds[seat].append("[" + _tiles([e["tile"]] * 4) + "]")
            return f"{self.label(seat)} declares a concealed kong of {_tiles([e['tile']])}"
        if kind == "added_kong":
            self._take(seat, e["tile"])
            pung = _tiles([e["tile"]] * 3)
            if pung in self.melds[seat]:
                self.melds[seat][self.melds[seat].index(pung)] = _tiles([e["tile"]] * 4)
            return f"{self.label(seat)} adds {_tiles([e['tile']])} to a pung"
        if kind == "win":
            how = {
                "self_drawn": "by self-draw",
                "discard": f"on {_player(e['from'])}'s discard",
                "robbed_kong": f"robbing {_player(e['from'])}'s kong",
            }[e["how"]]
            return f"{self.label(seat)} wins {how} with {_tiles([e['tile']])}: {e['fan']} fan"
        if kind == "penalty":
            return f"{self.label(seat)} declared a false win and pays {e['each']} to each player"
        if kind == "exhaustive_draw":
            return "the wall is exhausted: a drawn hand"
        if kind == "bao":
            return (
                f"宝: dice {e['throw']} from the tail turn up {_tiles([e['indicator']])}, "
                f"so every {_tiles([e['tile']])} is wild"
            )
        return f"{kind} {e}"


def _hand_lines(rec: MatchRecord, hand: HandRecord) -> Iterator[str]:
    t = _Table(hand)
    yield ""
    yield (
        f"Hand {hand.index + 1} of {rec.n_hands}: dealer {_player(hand.dealer)}, "
        f"prevalent wind {wind_name(hand.prevalent_wind)} ({WIND_ZH[hand.prevalent_wind]}), "
        f"scores {hand.scores_before}"
    )
    events = [json.loads(e) for e in hand.events_json]
    i = 0
    while i < len(events) and events[i]["type"] in ("dice", "deal"):
        line = t.apply(events[i])
        if line:
            yield "  " + line
        i += 1
    for s in range(4):
        yield f"  {t.label(s)} dealt: {t.show(s)}"
    for e in events[i:]:
        line = t.apply(e)
        if line:
            yield "  " + line
    res = hand.result
    for w in res["wins"]:
        melds = " ".join(printable(str(m)) for _, m in w["melds"])
        yield f"  Winning hand of {_player(w['seat'])}: {_tiles(w['hand'])}" + (
            f" | melds {melds}" if melds else ""
        )
        if "form" in w:
            mults = "".join(f" x{f} {printable(m)}" for m, f in w["multipliers"])
            yield f"    {printable(w['form_zh'])} {printable(w['form'])}{mults}: {w['value']}"
            continue
        for f in w["fans"]:
            count = f" x{f['count']}" if f["count"] > 1 else ""
            yield f"    {printable(f['name_zh'])} {printable(f['name'])}: {f['points']}{count}"
        yield f"    total {w['fan_total']} fan"
    for s in range(4):
        yield f"  {t.label(s)} discards: {_tiles(t.river[s])}"
    yield "  Payments: " + ", ".join(f"{_player(s)} {d:+d}" for s, d in enumerate(res["deltas"]))
    yield "  Scores: " + ", ".join(f"{_player(s)} {x}" for s, x in enumerate(hand.scores_after))


def _is_botzone_log(path: str) -> bool:
    """The file looks like a Botzone log (one JSON object with a ``log`` list, or the
    list alone) rather than a match record (JSON lines opening with its header)."""
    with open(path, "rb") as f:
        head = f.read(4096).lstrip()
    if head.startswith(b"["):
        return True
    if not head.startswith(b"{"):
        return False
    first = head.split(b"\n", 1)[0]
    try:
        obj = load_json(first)
    except ValueError:
        # A long one-line log, or an object written over several lines.
        return b'"majiang-record"' not in first and (b'"log"' in head or b'"initdata"' in head)
    return isinstance(obj, dict) and obj.get("format") != "majiang-record" and "log" in obj


def _proved(rec: MatchRecord, botzone: bool, require_seed: bool) -> list[str]:
    """What a successful ``--verify`` proved, and what it did not."""
    if not rec.walls:
        deals = "from the seed: each hand's wall is the one the match seed shuffles"
    elif require_seed:
        deals = "from the walls the file gives, each the wall its hand's seed shuffles"
    else:
        deals = (
            "from the walls the file gives, not from the seed: the play follows from those "
            "walls, but nothing shows how they were shuffled (--require-seed refuses them)"
        )
    if botzone:
        digest = "none: a Botzone log carries no digest"
    else:
        digest = {
            "checked": "the trailer's SHA-256 of every line matched (catches damage, not "
            "deliberate edits)",
            "none": "none: a version 1 record has none",
            "no trailer": "none checked: the record has no trailer (an unfinished match, or "
            "its trailer was removed)",
        }.get(rec.digest, rec.digest)
    signature = {
        "none": "none",
        "not checked": "present, not checked (give --key-file to check it)",
        "checked": "checked with your key: the record is as it was signed",
    }.get(rec.signature, rec.signature)
    return [f"deals: {deals}", f"digest: {digest}", f"signature: {signature}"]


def run(args: argparse.Namespace) -> int:
    """Runs ``majiang replay``: exit status 2 for a file that cannot be read or is not a
    valid record, 1 when ``--verify`` finds that the engine does not reproduce it."""
    rec: MatchRecord
    botzone = False
    try:
        key = None if args.key_file is None else read_key(args.key_file)
        if _is_botzone_log(args.file):
            from ..botzone import read_log

            if key is not None:
                raise RecordError("a Botzone log is not signed: --key-file checks records")
            rec = read_log(args.file)
            botzone = True
        else:
            rec = MatchRecord.load(args.file, key=key)
    except (RecordError, InvalidArgumentError) as e:
        print(f"majiang replay: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"majiang replay: cannot read {args.file}: {e.strerror or e}", file=sys.stderr)
        return 2
    if args.require_seed and not args.verify:
        print("majiang replay: --require-seed goes with --verify", file=sys.stderr)
        return 2
    _set_names(rec)
    played = f"{len(rec.hands)} of {_plural(rec.n_hands, 'hand')}"
    if args.verify:
        try:
            replay_record(rec, require_seed=args.require_seed)
        except ValueError as e:
            print(
                f"majiang replay: {args.file}: the engine does not reproduce the record: {e}",
                file=sys.stderr,
            )
            return 1
        if rec.complete:
            print(f"verified: the engine reproduces every event of the {played}")
        else:
            print(
                f"verified: the engine reproduces every event of the {played} (an unfinished match)"
            )
        for line in _proved(rec, botzone, args.require_seed):
            print(f"  {line}")
    print(
        f"{rec.rules} match, seed {rec.seed}, {played}"
        + ("" if rec.complete else " (unfinished)")
        + f"; players {', '.join(printable(p) for p in rec.players)}"
    )
    hands = rec.hands
    if args.hand is not None:
        hands = [h for h in hands if h.index + 1 == args.hand]
        if not hands:
            print(f"majiang replay: no hand {args.hand} in the record", file=sys.stderr)
            return 2
    interactive = not args.all and sys.stdin.isatty()
    if interactive and not args.text and sys.stdout.isatty() and _has_textual():
        from ..ui.replay import ReplayApp

        start = hands[0].index if hands else 0
        ReplayApp(rec, ascii=args.ascii, start_hand=start).run()
        return 0
    if interactive:
        print("Any key: next step, n: next hand, q: quit")
    try:
        for h in hands:
            for line in _hand_lines(rec, h):
                print(line)
                if interactive and line.startswith("  ") and not line.startswith("    "):
                    sys.stdout.flush()
                    answer = _read_key().lower()
                    if answer == "q":
                        return 0
                    if answer == "n":
                        break
    except EOFError:  # Ctrl-D at the prompt: stop
        print()
        return 0
    except KeyboardInterrupt:  # Ctrl-C: stop without a traceback
        print()
        return 130
    label = "Final scores" if rec.complete else f"Scores after {_plural(len(rec.hands), 'hand')}"
    print(f"{label}: {', '.join(f'{_player(s)} {x}' for s, x in enumerate(rec.final_scores))}")
    return 0
