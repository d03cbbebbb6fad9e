"""Writers of the real-game formats majiang.data reads (docs/data.md), from hands played
by the engine: the test fixtures are games whose every fact is known."""

from __future__ import annotations

from majiang import Round, _core
from majiang.botzone.protocol import tile_name

_ZH_WINDS = "东南西北"


def play(
    rules,
    seed: int,
    dealer: int = 0,
    wind: int = 0,
    bots: str = "efficiency",
    chows: dict[int, dict[int, int]] | None = None,
) -> Round:
    """A hand of `rules` played to its end by four built-in bots. `chows`, when given,
    receives for the index of each discard event the seats that could have chowed it
    (their lowest chow), for the ``Ignore`` clauses of a dump."""
    r = Round(rules, seed, dealer, wind)
    pol = [_core.Policy(bots, seed=seed * 4 + s) for s in range(4)]
    if chows is None:
        chows = {}
    while not r.is_over:
        s = r.pending[0]
        if r.phase == "claim":
            k = r.n_events - 1
            for q in r.pending:
                c = [a for a in r.legal_actions(q) if a.kind == "chow"]
                if c:
                    chows.setdefault(k, {})[q] = c[0].tile
        r.apply(s, pol[s].choose(r.observation(s)))
    return r


def ijcai_text(r: Round, match: str, chows: dict[int, dict[int, int]] | None = None) -> str:
    """The hand as an IJCAI strong-AI dump block (botzone rules, dealer 0); with the
    `chows` of :func:`play`, a pung or kong lists the chows it beat as ``Ignore``."""
    out = [f"Match {match}", f"Wind {r.prevalent_wind}"]
    first_draw = None
    for e in r.events():
        if e["type"] == "deal":
            tiles = e["tiles"]
            out.append(f"Player {e['seat']} Deal " + " ".join(tile_name(t) for t in tiles[:13]))
            if len(tiles) == 14:
                first_draw = (e["seat"], tiles[13])
    if first_draw:
        out.append(f"Player {first_draw[0]} Draw {tile_name(first_draw[1])}")
    chows = chows or {}
    last_discard = None
    for k, e in enumerate(r.events()):
        t, s = e["type"], e.get("seat")
        if t in ("pung", "kong") and last_discard in chows:
            # A chow that lost to this claim, as the dump shows it.
            lost = "".join(
                f" Ignore Player {q} Chi {tile_name(low + 1)}"
                for q, low in sorted(chows[last_discard].items())
                if q != s
            )
        else:
            lost = ""
        if t == "discard":
            last_discard = k
        if t == "draw":
            out.append(f"Player {s} Draw {tile_name(e['tile'])}")
        elif t == "discard":
            out.append(f"Player {s} Play {tile_name(e['tile'])}")
        elif t == "chow":
            out.append(f"Player {s} Chi {tile_name(e['low'] + 1)}")
        elif t == "pung":
            out.append(f"Player {s} Peng {tile_name(e['tile'])}{lost}")
        elif t == "kong":
            out.append(f"Player {s} Gang {tile_name(e['tile'])}{lost}")
        elif t == "concealed_kong":
            out.append(f"Player {s} AnGang {tile_name(e['tile'])}")
        elif t == "added_kong":
            out.append(f"Player {s} BuGang {tile_name(e['tile'])}")
        elif t == "win":
            out.append(f"Player {s} Hu {tile_name(e['tile'])}")
    res = r.result
    if res["wins"]:
        w = res["wins"][0]
        fans = "+".join(f"{f['name_zh']}*{f['count']}" for f in w["fans"])
        out.append(f"Fan {w['fan_total']} {fans}")
    else:
        out.append("Huang")
    out.append("Score " + " ".join(str(d) for d in res["deltas"]))
    return "\n".join(out) + "\n"


def human_text(r: Round, name: str = "2020-01-01-1.txt") -> str:
    """The hand as a human match file (gb rules with flowers)."""
    res = r.result
    if res["wins"]:
        w = res["wins"][0]
        fans = [f"'{f['name_zh']}-{f['points'] * f['count']}'" for f in w["fans"]]
        outcome = "自摸" if w["how"] not in ("discard", "rob") else "点炮"
        total = w["fan_total"]
    else:
        fans, outcome, total = [], "荒庄", 0
    out = [name, f"{_ZH_WINDS[r.prevalent_wind]}\t{total}\t[{', '.join(fans)}]\t{outcome}"]
    deals = {e["seat"]: e["tiles"] for e in r.events() if e["type"] == "deal"}
    flowers = [0, 0, 0, 0]
    for s in range(4):
        flowers[s] = sum(1 for t in deals[s] if t >= 34)
        out.append(f"{s}\t[{', '.join(repr(tile_name(t)) for t in deals[s])}]\t{flowers[s]}")
    after: dict[int, list[str]] = {}  # seat -> what its next tail draws follow
    last_discard = None
    for e in r.events():
        t, s = e["type"], e.get("seat")
        if t == "flower":
            out.append(f"{s}\t补花\t['{tile_name(e['tile'])}']")
            after.setdefault(s, []).append("补花后摸牌")
        elif t == "draw":
            act = (after.get(s) or ["杠后摸牌"]).pop(0) if e["tail"] else "摸牌"
            out.append(f"{s}\t{act}\t['{tile_name(e['tile'])}']")
        elif t == "discard":
            out.append(f"{s}\t打牌\t['{tile_name(e['tile'])}']")
            last_discard = (e["seat"], e["tile"])
        elif t == "chow":
            tiles = [tile_name(x) for x in range(e["low"], e["low"] + 3)]
            out.append(f"{s}\t吃\t{tiles}\t{tile_name(e['tile'])}\t{e['from']}")
        elif t == "pung":
            out.append(
                f"{s}\t碰\t{[tile_name(e['tile'])] * 3}\t{tile_name(e['tile'])}\t{e['from']}"
            )
        elif t == "kong":
            out.append(
                f"{s}\t明杠\t{[tile_name(e['tile'])] * 4}\t{tile_name(e['tile'])}\t{e['from']}"
            )
            after.setdefault(s, []).append("杠后摸牌")
        elif t == "concealed_kong":
            out.append(f"{s}\t暗杠\t{[tile_name(e['tile'])] * 4}\t{tile_name(e['tile'])}\t{s}")
            after.setdefault(s, []).append("杠后摸牌")
        elif t == "added_kong":
            out.append(f"{s}\t补杠\t{[tile_name(e['tile'])] * 4}\t{tile_name(e['tile'])}\t{s}")
            after.setdefault(s, []).append("杠后摸牌")
        elif t == "win":
            out.append(f"{s}\t和牌\t['{tile_name(e['tile'])}']")
    del last_discard
    return "\n".join(out) + "\n"
