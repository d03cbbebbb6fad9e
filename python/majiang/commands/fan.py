"""``majiang fan``: score a winning hand and print its fans."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata

from .. import _core
from ..fan import evaluate_fan
from ..rules import NAMES, unit

_KINDS = {
    "chow": "chow",
    "pung": "pung",
    "kong": "kong",
    "concealed_kong": "concealed_kong",
    "ck": "concealed_kong",
    "concealed": "concealed_kong",
}


def parse_meld(text: str) -> _core.Meld:
    """A meld from ``KIND:TILES`` (``chow:123m``, ``ck:9999s``) or bare MPSZ tiles, whose
    kind follows from the tiles (three in a row: chow, three alike: pung, four alike:
    exposed kong)."""
    if ":" in text:
        kind, tiles = text.split(":", 1)
        key = kind.strip().lower().replace("-", "_")
        if key not in _KINDS:
            raise _core.InvalidHandError(
                f"unknown meld kind {kind!r} in {text!r} (chow, pung, kong, concealed_kong/ck)"
            )
        return _core.Meld(_KINDS[key], tiles)
    codes = _core.parse_tiles(text)
    if len(codes) == 4:
        return _core.Meld("kong", codes)
    if len(codes) == 3 and len(set(codes)) == 1:
        return _core.Meld("pung", codes)
    return _core.Meld("chow", codes)


def _wind(text: str) -> int:
    table = {"E": 0, "S": 1, "W": 2, "N": 3, "0": 0, "1": 1, "2": 2, "3": 3}
    key = text.strip().upper()[:1] if not text.strip().isdigit() else text.strip()
    if key not in table:
        raise argparse.ArgumentTypeError(f"{text!r} is not a wind (E, S, W, N or 0-3)")
    return table[key]


def _option(text: str) -> tuple[str, bool | int | str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    key, value = text.split("=", 1)
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return key.strip(), True
    if low in ("false", "no", "off"):
        return key.strip(), False
    try:
        return key.strip(), int(value)
    except ValueError:
        return key.strip(), value.strip()


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def _pad(s: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - _width(s))
    return fill + s if right else s + fill


def render_table(result: _core.FanResult, minimum: int) -> str:
    """The fans as an aligned text table (Chinese and English names, points, count)."""
    rows = [("番种", "Fan", "Points", "Count", "Total")]
    for f in result.fans:
        rows.append((f.name_zh, f.name, str(f.points), str(f.count), str(f.points * f.count)))
    widths = [max(_width(r[i]) for r in rows) for i in range(5)]
    lines = []
    for k, r in enumerate(rows):
        cells = [_pad(r[0], widths[0]), _pad(r[1], widths[1])]
        cells += [_pad(r[i], widths[i], right=True) for i in (2, 3, 4)]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    met = "met" if result.meets_minimum else "NOT met"
    lines.append("")
    lines.append(
        f"Total {result.total} fan ({result.total_without_flowers} without flowers); "
        f"minimum {minimum}: {met}"
    )
    return "\n".join(lines)


def add_meld_arguments(p: argparse.ArgumentParser) -> None:
    """Adds ``--melds`` and ``--concealed-kong`` (read back by :func:`melds_from_args`)."""
    p.add_argument(
        "--melds",
        nargs="+",
        metavar="MELD",
        help="declared melds: 123m (chow), 555z (pung), 1111p (exposed kong) or KIND:TILES "
        "with KIND chow, pung, kong, ck (concealed kong)",
    )
    p.add_argument(
        "--concealed-kong", action="append", metavar="TILES", help="a concealed kong, e.g. 9999s"
    )


def melds_from_args(args: argparse.Namespace) -> list[_core.Meld]:
    """The melds given with ``--melds`` and ``--concealed-kong``."""
    melds = [parse_meld(m) for m in args.melds or []]
    return melds + [_core.Meld("concealed_kong", m) for m in args.concealed_kong or []]


def run(args: argparse.Namespace) -> int:
    try:
        rules = _core.RuleSet(args.rules, **dict(args.option or []))
        melds = melds_from_args(args)
        result = evaluate_fan(
            args.hand,
            args.win,
            melds,
            self_drawn=args.self_drawn,
            fourth_tile=args.fourth_tile,
            about_kong=args.about_kong,
            wall_last=args.wall_last,
            seat_wind=args.seat,
            prevalent_wind=args.prevalent,
            flowers=args.flowers,
            declared_ready=args.ready,
            rules=rules,
        )
    except ValueError as e:  # InvalidHandError, NotWinningError, RuleError
        print(f"majiang fan: error: {e}", file=sys.stderr)
        return 2
    minimum = int(rules.options()["min_fan"])
    if args.json:
        out = result.to_dict()
        out["input"] = {
            "hand": _core.format_tiles(args.hand),
            "win_tile": _core.tile_name(args.win),
            "melds": [m.kind + ":" + _core.format_tiles(m.tiles) for m in melds],
            "self_drawn": args.self_drawn,
            "fourth_tile": args.fourth_tile,
            "about_kong": args.about_kong,
            "wall_last": args.wall_last,
            "seat_wind": args.seat,
            "prevalent_wind": args.prevalent,
            "flowers": args.flowers,
            "declared_ready": args.ready,
            "rules": rules.name,
        }
        out["min_fan"] = minimum
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    shown = _core.format_tiles(args.hand)
    for m in melds:
        shown += f" [{_core.format_tiles(m.tiles)}{'*' if m.kind == 'concealed_kong' else ''}]"
    how = "self-drawn" if args.self_drawn else "discard"
    print(f"{shown} + {_core.tile_name(args.win)} ({how}, rules {rules.name})")
    print()
    print(render_table(result, minimum))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "fan",
        help="score a winning hand (GB / classic fans)",
        description="Score a winning hand: the fans with Chinese and English names, points, "
        "count, the total and whether the minimum is met.",
        epilog="example: majiang fan 123m456p789s2255z --win 5z --seat E",
    )
    p.add_argument("hand", help="concealed tiles WITHOUT the winning tile, MPSZ (123m456p...)")
    p.add_argument("--win", required=True, help="the winning tile, e.g. 5z")
    add_meld_arguments(p)
    p.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile")
    p.add_argument("--fourth-tile", action="store_true", help="the last copy of the tile (和绝张)")
    p.add_argument(
        "--about-kong",
        action="store_true",
        help="kong replacement (with --self-drawn) or robbing a kong (on a discard)",
    )
    p.add_argument(
        "--wall-last", action="store_true", help="last wall tile (self-drawn) or last discard"
    )
    p.add_argument("--seat", type=_wind, default=0, help="seat wind E/S/W/N (default E)")
    p.add_argument("--prevalent", type=_wind, default=0, help="prevalent wind (default E)")
    p.add_argument("--flowers", type=int, default=0, help="flower tiles held (gb)")
    p.add_argument("--ready", action="store_true", help="declared ready (classic 报听)")
    fan_priced = [n for n in NAMES if unit(n) == "fan"]
    p.add_argument("--rules", default="gb", choices=fan_priced, help="rule set (default gb)")
    p.add_argument(
        "--option",
        "-o",
        action="append",
        type=_option,
        metavar="KEY=VALUE",
        help="a rule option, e.g. -o mcr_separate_mixed_kongs=true",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)
