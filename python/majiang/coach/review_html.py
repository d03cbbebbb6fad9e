"""A review as one self-contained HTML page (:func:`render_html`, :func:`write_html`).

The page holds everything it shows: the tiles are drawn with CSS (the rank as a Chinese
numeral over the suit, honours as their character, in the colours of the terminal
table), the option values as bars, and ``j`` / ``k`` (or ``n`` / ``p``) jump to the next
and previous mistake with a few lines of inline script. It loads nothing from elsewhere
(no font, style sheet, script or image), so it can be mailed or opened offline. Every
text that comes from the file (the players' names) is escaped.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from .._core import tile_name
from .._files import atomic_write
from .review import Decision, Review

__all__ = ["render_html", "tile_html", "write_html"]

_NUMERALS = "一二三四五六七八九"
_SUITS = "万筒条"
_HONOURS = "东南西北中发白"
_FLOWERS = "梅兰竹菊春夏秋冬"
_CLASS = ("m", "p", "s")

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;
max-width:68em;padding:0 1em;color:#1e1e1e;background:#fafaf7}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
.method{color:#555;font-size:.9em}
table{border-collapse:collapse}td,th{padding:.15em .6em;text-align:left}
.summary td:first-child{color:#555}
.t{display:inline-block;width:1.55em;height:2.2em;margin:0 1px;border:1px solid #999;
border-radius:4px;background:#fffdf5;box-shadow:1px 1px 0 #bbb;text-align:center;
line-height:1.05em;font-size:.95em;vertical-align:middle;padding-top:.05em}
.t b{display:block;font-weight:normal}.t i{display:block;font-style:normal}
.t.m{color:#b3261e}.t.p{color:#1d4f91}.t.s{color:#1b7a3a}.t.z{color:#1e1e1e}
.t.h5{color:#b3261e}.t.h6{color:#1b7a3a}.t.h7{color:#1d4f91}.t.f{color:#8e3a8e}
.t.one{line-height:2.1em}.t.new{margin-left:.7em;border-color:#d08a00}
.meld{margin-left:.6em;padding:1px 3px;background:#e8e5da;border-radius:4px}
.dec{margin:.5em 0;padding:.45em .7em;border-left:4px solid #9c9;background:#fff}
.dec.soft{border-left-color:#dc6}.dec.clear{border-left-color:#d33;background:#fff5f5}
.dec:target,.dec.cur{outline:2px solid #36c}
.bar{display:inline-block;height:.7em;background:#8ab;vertical-align:middle}
.bar.neg{background:#c99}.opts td{font-variant-numeric:tabular-nums}
.played{font-weight:bold}.mark{color:#555}.keys{color:#555;font-size:.9em}
"""

_JS = """
(function(){var m=[].slice.call(document.querySelectorAll('.dec.clear, .dec.soft'));
m.sort(function(a,b){return (+b.dataset.loss)-(+a.dataset.loss);});var i=-1;
function go(d){if(!m.length)return;if(i>=0)m[i].classList.remove('cur');
i=(i+d+m.length)%m.length;m[i].classList.add('cur');
m[i].scrollIntoView({block:'center'});}
document.addEventListener('keydown',function(e){if(e.target.tagName==='INPUT')return;
if(e.key==='j'||e.key==='n')go(1);if(e.key==='k'||e.key==='p')go(-1);});})();
"""


def tile_html(t: int, new: bool = False) -> str:
    """One tile drawn as a small face: the rank over the suit, or an honour."""
    extra = " new" if new else ""
    name = tile_name(t)
    if t < 27:
        return (
            f'<span class="t {_CLASS[t // 9]}{extra}" title="{name}">'
            f"<b>{_NUMERALS[t % 9]}</b><i>{_SUITS[t // 9]}</i></span>"
        )
    if t < 34:
        return f'<span class="t z one h{t - 26}{extra}" title="{name}">{_HONOURS[t - 27]}</span>'
    return f'<span class="t f one{extra}" title="{name}">{_FLOWERS[(t - 34) % 8]}</span>'


def _tiles(ts: list[int] | tuple[int, ...]) -> str:
    return "".join(tile_html(t) for t in ts)


def _hand(d: Decision) -> str:
    tiles = list(d.tiles)
    drawn = ""
    if d.drawn is not None and d.drawn in tiles:
        tiles.remove(d.drawn)
        drawn = tile_html(d.drawn, new=True)
    melds = "".join(f'<span class="meld">{_tiles(m)}</span>' for m in d.melds)
    offered = ""
    if d.offered is not None:
        offered = f" &nbsp;offered {tile_html(d.offered, new=True)}"
    return _tiles(tiles) + drawn + melds + offered


def _action(a: object) -> str:
    return html.escape(str(a))


def _options(d: Decision) -> str:
    vals = list(d.values)
    scale = max((abs(o.points) for o in vals), default=1.0) or 1.0
    rows = []
    for o in vals:
        width = 8 * abs(o.points) / scale
        neg = " neg" if o.points < 0 else ""
        bar = f'<span class="bar{neg}" style="width:{width:.2f}em"></span>'
        cls = ' class="played"' if o.action == d.played else ""
        who = []
        if o.action == d.played:
            who.append("played")
        if o.expert:
            who.append("expert")
        loss = "best" if o.loss == 0 else f"−{o.loss:.2f} ± {1.96 * o.loss_se:.2f}"
        rows.append(
            f"<tr{cls}><td>{_action(o.action)}</td><td>{o.points:+.2f}</td>"
            f"<td>[{o.low:+.1f}, {o.high:+.1f}]</td><td>{bar}</td><td>{loss}</td>"
            f'<td class="mark">{" ".join(who)}</td></tr>'
        )
    head = (
        "<tr><th>option</th><th>points</th><th>95% interval</th><th></th>"
        "<th>loss</th><th></th></tr>"
    )
    return f'<table class="opts">{head}{"".join(rows)}</table>'


def _decision(d: Decision) -> str:
    cls = "clear" if d.loss > 0 and d.clear else "soft" if d.loss > 0 else "ok"
    pv = d.played_value
    verdict = f"played <b>{_action(d.played)}</b> ({pv.points:+.2f})"
    if not d.agrees:
        verdict += f", the expert {_action(d.expert)}"
    if d.loss > 0:
        verdict += (
            f", best {_action(d.best.action)} ({d.best.points:+.2f}): "
            f"lost {d.loss:.2f} ± {1.96 * pv.loss_se:.2f}"
            + (" — a clear mistake" if d.clear else " (within the noise)")
        )
    if d.missed_win:
        verdict += " — <b>a win not taken</b>"
    return (
        f'<div class="dec {cls}" id="h{d.hand + 1}-{d.number}" data-loss="{d.loss:.4f}">'
        f"<div>#{d.number} {html.escape(d.phase)}, wall {d.wall}: {_hand(d)}</div>"
        f"<div>{verdict}</div>"
        f"<details{' open' if d.clear else ''}><summary>every option</summary>"
        f"{_options(d)}</details></div>"
    )


def render_html(rv: Review) -> str:
    """The review as one HTML page."""
    s = rv.summary
    name = rv.players[rv.seat] if rv.seat < len(rv.players) else ""
    title = f"Review of seat {rv.seat} ({name}), {rv.rules}"
    rows = [
        ("hands", s["hands"]),
        ("decisions", s["decisions"]),
        ("agreement with the expert's choice", f"{s['agreement']}%"),
        ("played the best value", f"{s['best_agreement']}%"),
        (
            "points lost (all / per hand)",
            f"{s['points_lost']} / {s['points_lost_per_hand']}",
        ),
        (
            "clear mistakes (count / points / per hand)",
            f"{s['clear_mistakes']} / {s['clear_points_lost']} / {s['clear_points_lost_per_hand']}",
        ),
        (
            "behind the expert's choices (all / per hand)",
            f"{s['behind_expert']} / {s['behind_expert_per_hand']}",
        ),
        ("wins / deal-ins", f"{s['wins']} / {s['deal_ins']}"),
        ("missed wins / claim errors", f"{s['missed_wins']} / {s['claim_errors']}"),
        ("score change", f"{s['score_change']:+d}"),
    ]
    summary = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>" for k, v in rows
    )
    mistakes = "".join(
        f'<li><a href="#h{d.hand + 1}-{d.number}">hand {d.hand + 1} #{d.number}</a>: '
        f"played {_action(d.played)}, best {_action(d.best.action)}, "
        f"−{d.loss:.2f} ± {1.96 * d.played_value.loss_se:.2f}"
        + ("" if d.clear else " (within the noise)")
        + "</li>"
        for d in rv.mistakes()[:20]
    )
    hands = []
    for h in rv.hands:
        outcome = ", won" if h.won else ", dealt in" if h.dealt_in else ""
        hands.append(
            f'<h2 id="h{h.index + 1}">Hand {h.index + 1}: {h.delta:+d} points{outcome}; '
            f"{len(h.decisions)} decisions, {h.loss:.1f} points lost</h2>"
            + "".join(_decision(d) for d in h.decisions)
        )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>"
        f'<p class="method">Values: {html.escape(rv.method)}. A value is the expected '
        "score change of the hand for the seat, in points, after that option. The loss is "
        "the best option's value minus the played one's; a mistake is clear when the loss "
        "is beyond its 95% interval.</p>"
        f'<table class="summary">{summary}</table>'
        f"<h2>Mistakes, most points lost first</h2><ol>{mistakes or '<li>none</li>'}</ol>"
        '<p class="keys">Keys: <b>j</b> / <b>n</b> next mistake, <b>k</b> / <b>p</b> '
        "previous.</p>" + "".join(hands) + f"<script>{_JS}</script></body></html>\n"
    )


def write_html(rv: Review, path: str | os.PathLike[str]) -> str:
    """Writes :func:`render_html` to ``path`` (through a temporary file, so a reader sees
    the old page or the new one); returns the path."""
    p = Path(path)
    atomic_write(p, render_html(rv).encode("utf-8"))
    return str(p)
