"""``majiang shanten``: shanten per hand form, useful tiles and, for a full hand, the best
discards."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .. import _core
from ..oracle import shanten, shanten_forms, useful_tiles, waits
from ..rules import RULE_SETS
from .fan import _pad, _width, add_meld_arguments, melds_from_args


def _remaining(tile: int, hand: list[int], melds: list[_core.Meld]) -> int:
    """Copies of ``tile`` not in the hand or the melds."""
    seen = hand.count(tile) + sum(m.tiles.count(tile) for m in melds)
    return 4 - seen


def _useful(hand, melds, kw) -> list[dict]:
    return [
        {
            "tile": _core.tile_name(t),
            "code": t,
            "remaining": _remaining(t, hand, melds),
        }
        for t in useful_tiles(hand, melds, **kw)
    ]


def analyse(hand: list[int], melds: list[_core.Meld], rules: str, wild: str | None) -> dict:
    """Everything the command prints, as a JSON-ready dict."""
    kw = {"rules": rules, "wild": wild}
    n_melds = len(melds)
    out: dict = {
        "hand": _core.format_tiles(hand),
        "melds": [m.kind + ":" + _core.format_tiles(m.tiles) for m in melds],
        "rules": rules,
        "wild": wild,
        "shanten": shanten(hand, melds, **kw),
        "forms": shanten_forms(hand, melds, **kw),
    }
    if len(hand) == 13 - 3 * n_melds:
        useful = _useful(hand, melds, kw)
        out["useful"] = useful
        out["useful_total"] = sum(u["remaining"] for u in useful)
        out["waits"] = [_core.tile_name(t) for t in waits(hand, melds, **kw)]
        return out
    out["complete"] = out["shanten"] == -1
    discards = []
    for t in sorted(set(hand)):
        rest = list(hand)
        rest.remove(t)
        useful = _useful(rest, melds, kw)
        discards.append(
            {
                "tile": _core.tile_name(t),
                "code": t,
                "shanten": shanten(rest, melds, **kw),
                "useful": useful,
                "useful_total": sum(u["remaining"] for u in useful),
            }
        )
    discards.sort(key=lambda d: (d["shanten"], -d["useful_total"], d["code"]))
    out["discards"] = discards
    return out


def _table(rows: Sequence[tuple[str, ...]], right: set[int]) -> list[str]:
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for k, r in enumerate(rows):
        cells = [_pad(c, widths[i], right=i in right) for i, c in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def _tiles_with_counts(useful: list[dict]) -> str:
    return " ".join(f"{u['tile']}×{u['remaining']}" for u in useful) or "-"


def render(info: dict) -> str:
    """The analysis as readable text tables."""
    head = f"Hand {info['hand']}"
    if info["melds"]:
        head += "  melds " + " ".join(info["melds"])
    if info["wild"] is not None:
        head += f"  wild {info['wild']}"
    s = info["shanten"]
    status = "complete" if s == -1 else "ready" if s == 0 else f"{s}-shanten"
    lines = [head, f"Shanten {s} ({status}), rules {info['rules']}", ""]
    lines += _table([("Form", "Shanten")] + [(f, str(v)) for f, v in info["forms"].items()], {1})
    lines.append("")
    if "useful" in info:
        n = len(info["useful"])
        lines.append(f"Useful tiles: {n} kinds, {info['useful_total']} copies left")
        lines.append("  " + _tiles_with_counts(info["useful"]))
        if info["waits"]:
            lines.append("Waits: " + " ".join(info["waits"]))
        return "\n".join(lines)
    if info["complete"]:
        lines.append("The hand is complete.")
        lines.append("")
    rows = [("Discard", "Shanten", "Kinds", "Copies", "Useful tiles (copies left)")]
    for d in info["discards"]:
        rows.append(
            (
                d["tile"],
                str(d["shanten"]),
                str(len(d["useful"])),
                str(d["useful_total"]),
                _tiles_with_counts(d["useful"]),
            )
        )
    lines += _table(rows, {1, 2, 3})
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        hand = _core.parse_tiles(args.hand)
        melds = melds_from_args(args)
        info = analyse(hand, melds, args.rules, args.wild)
    except (_core.InvalidHandError, _core.RuleError) as e:
        print(f"majiang shanten: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        print(render(info))
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "shanten",
        help="shanten per hand form, useful tiles, best discards",
        description="Shanten of a hand in every hand form, the useful tiles with the copies "
        "still unseen, and for a full hand (14 - 3k tiles) every discard with its shanten "
        "and useful tiles, best first.",
        epilog="example: majiang shanten 13579m2468p1357s1z",
    )
    p.add_argument("hand", help="concealed tiles, MPSZ (123m456p...), 13-3k or 14-3k of them")
    add_meld_arguments(p)
    p.add_argument("--rules", default="gb", choices=RULE_SETS, help="rule set (gb)")
    p.add_argument("--wild", help="huainan: the wild (宝) tile kind, e.g. 5p")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(func=run)
