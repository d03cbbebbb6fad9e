"""Hints for the person: how far the hand is from ready, which tiles help and how many
copies of them are still unseen (tiles with no copy left are not listed: they cannot
help), what the advisor would play and why, and (gb, classic) which fans the hand is
heading for and whether the rule set's minimum is within reach, counted as the rules
count it (in gb flowers do not count toward the 8-fan minimum; they are added after).

The advisor is the bot the table's level plays (:attr:`Controller.advisor
<majiang.ui.controller.Controller.advisor>`: ExpertBot at ``hard``), so the advice is the
opponents' own way of playing. Its reasons (:meth:`majiang.bots.ExpertBot.explain`) are
shown with each figure named for what it is: a chance of winning is a percentage, the
expert's expected points are points, a claim is compared with the figure that decided it;
the candidates are listed once, in the advisor's order.

:func:`short_win` says why a complete hand is not offered a win: the fans it counts, and
the minimum it misses.

Everything is computed in Rust: the oracle (:func:`majiang.shanten`,
:func:`majiang.useful_tiles`, :func:`majiang.waits`, :func:`majiang.evaluate_fan`), the
strong policy's fan plans and danger reading (``_core.fan_plan``,
``_core.danger_reading``), and fan names and points come from
:func:`majiang.fan_catalog`; this module only chooses what to ask and lays the answers
out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

import majiang as _mj
from majiang import _core
from majiang.rules import unit

from .controller import relative_seat
from .tiles import inline, suit_style

__all__ = [
    "DiscardOption",
    "advisor_for",
    "FanOutlook",
    "Hints",
    "DANGER_SHADE",
    "compute_hints",
    "danger_lines",
    "hint_text",
    "reason_lines",
    "ShortWin",
    "short_win",
    "oracle_options",
    "unseen_counts",
]


@dataclass
class DiscardOption:
    """What discarding `tile` leaves: its shanten and the useful tiles with their unseen
    copies."""

    tile: int
    shanten: int
    useful: list[tuple[int, int]]

    @property
    def unseen(self) -> int:
        """Unseen copies of all useful tiles together."""
        return sum(n for _, n in self.useful)


@dataclass
class FanOutlook:
    """Where the hand can end up: the best fan total over the completions looked at (won
    on a discard or self-drawn), the fans of that completion, and whether any completion
    meets the minimum. ``best_counted`` is the best total as the minimum counts it
    (without flowers unless the rule set counts them); ``best_total`` is that
    completion's whole total, flowers included."""

    exact: bool
    best_counted: int = 0
    best_total: int = 0
    best_fans: list[tuple[str, str, int]] = field(default_factory=list)
    reachable: bool = False
    best_self_drawn: bool = False
    completions: int = 0
    patterns: list[tuple[str, str, int]] = field(default_factory=list)


@dataclass
class Hints:
    """Everything the hint panel shows."""

    shanten: int
    useful: list[tuple[int, int]]
    discards: list[DiscardOption]
    suggestion: Any = None
    outlook: FanOutlook | None = None
    min_fan: int = 8
    advisor: str = ""
    # The strong policy's defensive reading: each seat's chance of being ready (the
    # person's own entry 0) and each kind's chance of dealing in if discarded.
    ready: list[float] = field(default_factory=list)
    deal_in: list[float] = field(default_factory=list)
    # Why the advisor chose its suggestion (a majiang.bots.Explanation), when it explains.
    explanation: Any = None


def unseen_counts(obs: Any) -> list[int]:
    """Copies of each of the 34 kinds the person has not seen: four less those in the
    hand, on the table (discards, exposed melds) and in the person's concealed kongs."""
    left = [4] * 34
    for t in obs.hand:
        if t < 34:
            left[t] -= 1
    for t, n in enumerate(obs.visible):
        left[t] -= n
    for m in obs.melds[obs.seat]:
        if m.kind == "concealed_kong":
            left[m.tile] -= 4
    return [max(0, n) for n in left]


def _wild(obs: Any) -> int | None:
    """The huainan 宝 kind (every copy wild), else None."""
    w = getattr(obs, "bao", None)
    return None if w is None else int(w)


def oracle_options(obs: Any, rules: Any) -> dict[str, Any]:
    """The keyword arguments of the oracle for this position: the rules, and in huainan
    the 宝 as ``wild``."""
    kw: dict[str, Any] = {"rules": rules}
    wild = _wild(obs)
    if wild is not None:
        kw["wild"] = wild
    return kw


def _fan_list(fans: Sequence[Any]) -> list[tuple[str, str, int]]:
    return [(f.name_zh, f.name, f.points * f.count) for f in fans]


def fan_outlook(
    hand: Sequence[int],
    melds: Sequence[Any],
    *,
    rules: Any,
    seat_wind: int,
    prevalent_wind: int,
    flowers: int,
    unseen: Sequence[int],
) -> FanOutlook:
    """The fans a 13 - 3k tile hand can reach. Ready: every wait is scored. One tile from
    ready: every useful draw, every discard that keeps the hand ready and every wait of
    the result is scored. At any distance: the fans of the strong policy's plan for the
    hand (:func:`patterns`)."""
    hand = list(hand)
    s = _mj.shanten(hand, melds, rules=rules)
    opts = rules.options() if not isinstance(rules, str) else _mj.RuleSet(rules).options()
    flowers_count = bool(opts.get("flowers_count_toward_min", False))
    completions: list[tuple[list[int], int]] = []
    if s == 0:
        completions = [(hand, w) for w in _mj.waits(hand, melds, rules=rules) if unseen[w] > 0]
    elif s == 1:
        seen: set[tuple[tuple[int, ...], int]] = set()
        for u in _mj.useful_tiles(hand, melds, rules=rules):
            if unseen[u] == 0:
                continue
            fourteen = sorted([*hand, u])
            for d in sorted(set(fourteen)):
                thirteen = list(fourteen)
                thirteen.remove(d)
                if _mj.shanten(thirteen, melds, rules=rules) != 0:
                    continue
                for w in _mj.waits(thirteen, melds, rules=rules):
                    key = (tuple(thirteen), w)
                    if key not in seen and unseen[w] > 0:
                        seen.add(key)
                        completions.append((thirteen, w))
    out = FanOutlook(exact=s <= 1)
    if out.exact:
        for thirteen, w in completions:
            for self_drawn in (False, True):
                try:
                    res = _mj.evaluate_fan(
                        thirteen,
                        w,
                        melds,
                        self_drawn=self_drawn,
                        seat_wind=seat_wind,
                        prevalent_wind=prevalent_wind,
                        flowers=flowers,
                        rules=rules,
                    )
                except ValueError:
                    continue
                out.completions += 1
                if res.meets_minimum:
                    out.reachable = True
                counted = res.total if flowers_count else res.total_without_flowers
                if (counted, res.total) > (out.best_counted, out.best_total):
                    out.best_counted = counted
                    out.best_total = res.total
                    out.best_fans = _fan_list(res.fans)
                    out.best_self_drawn = self_drawn
    out.patterns = patterns(
        hand, melds, rules=rules, seat_wind=seat_wind, prevalent_wind=prevalent_wind
    )
    return out


@dataclass
class ShortWin:
    """A complete hand that is not offered a win because it counts too few fans: the
    fans it ``counted`` toward the minimum, the ``minimum``, the fans themselves as
    ``(name_zh, name, points)``, and the fans from flowers, which in gb do not count
    toward the minimum."""

    counted: int
    minimum: int
    fans: list[tuple[str, str, int]]
    flowers: int = 0

    def brief(self) -> str:
        """``"7 fans, 8 needed"``."""
        return f"{self.counted} {'fan' if self.counted == 1 else 'fans'}, {self.minimum} needed"

    def words(self, ascii: bool = False) -> str:
        """``"7 fans, 8 needed: All Chows 2, ..."``."""
        names = ", ".join(_fan_name(zh, en, ascii) + f" {p}" for zh, en, p in self.fans if p)
        fans = "fan" if self.counted == 1 else "fans"
        text = f"{self.counted} {fans}, {self.minimum} needed"
        if names:
            text += f": {names}"
        if self.flowers:
            text += f" (+{self.flowers} for flowers, which do not count toward it)"
        return text


def short_win(obs: Any, rules: Any, tile: int | None = None) -> ShortWin | None:
    """Why the person's complete hand is not offered a win, when the reason is the
    minimum fan: with `tile` (another seat's discard or added kong) or, without it, with
    the tile just drawn. None when a win is offered, when the hand is not complete, when
    the rule set scores no fans, or when the hand counts enough fans (then another rule
    bars the win)."""
    if unit(rules) != "fan" or any(a.kind == "win" for a in obs.legal_actions):
        return None
    hand = list(obs.hand)
    melds = list(obs.melds[obs.seat])
    if tile is None:
        if len(hand) % 3 != 2 or obs.drawn is None or obs.drawn not in hand:
            return None
        win_tile = obs.drawn
        hand.remove(win_tile)
    else:
        if len(hand) % 3 != 1:
            return None
        win_tile = tile
    if _mj.shanten([*hand, win_tile], melds, rules=rules) != -1:
        return None
    opts = rules.options()
    minimum = int(opts.get("min_fan", 8))
    # The last copy of its kind: the other three are on the table (a discard being
    # claimed is on the table too).
    on_table = obs.visible[win_tile] - (1 if tile is not None else 0)
    try:
        res = _mj.evaluate_fan(
            hand,
            win_tile,
            melds,
            self_drawn=tile is None,
            fourth_tile=on_table >= 3,
            about_kong=obs.phase == "rob_kong",
            wall_last=obs.wall_remaining == 0,
            seat_wind=obs.seat_wind,
            prevalent_wind=obs.prevalent_wind,
            flowers=len(obs.flowers[obs.seat]),
            declared_ready=bool(obs.ready[obs.seat]),
            rules=rules,
        )
    except ValueError:
        return None
    if opts.get("flowers_count_toward_min", False):
        return None if res.total >= minimum else ShortWin(res.total, minimum, _fan_list(res.fans))
    counted = res.total_without_flowers
    if counted >= minimum:
        return None
    flower_fan = _flower_fan_id()
    fans = _fan_list([f for f in res.fans if f.id != flower_fan])
    return ShortWin(counted, minimum, fans, res.total - counted)


def _flower_fan_id() -> int:
    """The catalog's id of the flowers' fan."""
    return next(f["id"] for f in _mj.fan_catalog() if f["name"] == "Flower Tiles")


def _catalog() -> dict[int, tuple[str, str, int]]:
    """Fan id to ``(name_zh, name, points)``, from the engine's fan catalog."""
    return {f["id"]: (f["name_zh"], f["name"], f["points"]) for f in _mj.fan_catalog()}


def patterns(
    hand: Sequence[int],
    melds: Sequence[Any],
    *,
    rules: Any,
    seat_wind: int,
    prevalent_wind: int,
) -> list[tuple[str, str, int]]:
    """The fans the hand is heading for, as ``(name_zh, name, points)``: those of the fan
    plan the strong policy reads in it (the plan's own fan and the honor pungs it keeps;
    :func:`majiang._core.fan_plan`), named and scored by the fan catalog."""
    plan = _core.fan_plan(
        list(hand), list(melds), seat_wind=seat_wind, prevalent_wind=prevalent_wind, rules=rules
    )
    catalog = _catalog()
    return [catalog[i] for i in plan["fans"]]


def compute_hints(controller: Any) -> Hints:
    """The hints for the person's present position."""
    c = controller
    obs = c.observation()
    rules = c.rules
    hand = list(obs.hand)
    melds = list(obs.melds[obs.seat])
    unseen = unseen_counts(obs)
    kw = oracle_options(obs, rules)

    def useful_of(h: list[int]) -> list[tuple[int, int]]:
        # A useful kind with no copy left cannot be drawn: it is not worth listing.
        return [(t, unseen[t]) for t in _mj.useful_tiles(h, melds, **kw) if unseen[t] > 0]

    discards: list[DiscardOption] = []
    if len(hand) % 3 == 2:
        sh = _mj.shanten(hand, melds, **kw)
        for d in sorted(set(hand)):
            rest = list(hand)
            rest.remove(d)
            discards.append(DiscardOption(d, _mj.shanten(rest, melds, **kw), useful_of(rest)))
        discards.sort(key=lambda o: (o.shanten, -o.unseen, o.tile))
        useful: list[tuple[int, int]] = []
    else:
        sh = _mj.shanten(hand, melds, **kw)
        useful = useful_of(hand)

    suggestion = None
    explanation = None
    advisor = advisor_for(c)
    if advisor is not None and obs.legal_actions:
        if hasattr(advisor, "begin_hand"):
            # Reseeded at every question, so that its tie-breaks do not drift: the same
            # position always gets the same advice.
            advisor.begin_hand(0)
        if hasattr(advisor, "explain"):
            try:
                explanation = advisor.explain(obs)
            except ValueError:
                # A policy that does not explain under these rules (the expert in
                # huainan): its choice alone.
                explanation = None
        suggestion = explanation.action if explanation is not None else advisor.act(obs)

    outlook = None
    fan_priced = unit(rules) == "fan"
    min_fan = int(rules.options().get("min_fan", 8)) if fan_priced else 0
    if fan_priced and hasattr(_mj, "evaluate_fan"):
        base = hand
        if len(hand) % 3 == 2 and discards:
            # The hand after the advised discard (the efficiency's best without advice),
            # so the outlook speaks of the hand the advice leaves.
            kind = getattr(suggestion, "kind", None)
            advised = suggestion.tile if suggestion is not None else None
            gone = advised if kind in ("discard", "ready") and advised is not None else None
            if gone is None:
                gone = discards[0].tile
            base = list(hand)
            base.remove(gone)
        if sh >= 0 or len(hand) % 3 == 1:
            outlook = fan_outlook(
                base,
                melds,
                rules=rules,
                seat_wind=obs.seat_wind,
                prevalent_wind=obs.prevalent_wind,
                flowers=len(obs.flowers[obs.seat]),
                unseen=unseen,
            )
    ready, deal_in = _core.danger_reading(obs)
    return Hints(
        sh,
        useful,
        discards,
        suggestion,
        outlook,
        min_fan,
        advisor=type(advisor).__name__ if advisor is not None else "",
        ready=ready,
        deal_in=deal_in,
        explanation=explanation,
    )


def advisor_for(controller: Any) -> Any:
    """The bot whose choice the hints show (see :attr:`Controller.advisor
    <majiang.ui.controller.Controller.advisor>`); None for a controller without one."""
    return getattr(controller, "advisor", None)


def _tiles_with_counts(items: Sequence[tuple[int, int]], ascii: bool, most: int = 7) -> Text:
    out = Text()
    for i, (t, n) in enumerate(items[:most]):
        if i:
            out.append(" ")
        out.append(inline(t, ascii), style=suit_style(t))
        out.append(f"×{n}" if not ascii else f"x{n}", style="dim")
    if len(items) > most:
        out.append(f" +{len(items) - most} more kinds", style="dim")
    return out


_ACTION_WORDS = {
    "discard": "discard",
    "ready": "declare ready discarding",
    "added_kong": "add to your pung, making a kong:",
    "concealed_kong": "declare a concealed kong of",
    "kong": "kong",
    "pung": "pung",
    "win": "win",
    "pass": "pass",
}


def _fan_name(zh: str, en: str, ascii: bool) -> str:
    return en if ascii else f"{zh} {en}"


def _shanten_words(s: int, ascii: bool = False) -> str:
    if s < 0:
        return "complete: you can win"
    if s == 0:
        return "ready" if ascii else "ready (听牌)"
    return f"{s} from ready ({s}-shanten)"


DANGER_SHADE = 0.10
"""A tile whose chance of dealing in is at least this is shaded as dangerous."""


def danger_lines(out: Text, h: Hints, controller: Any, ascii: bool) -> None:
    """Appends the defensive reading: each opponent's chance of being ready and, on the
    person's turn, the riskiest tiles of the hand and the risk of the advised discard."""
    if not h.ready:
        return
    seat = controller.observation().seat
    parts = [f"{relative_seat(s, seat)} {round(100 * h.ready[s])}%" for s in range(4) if s != seat]
    out.append("  ready now: " + ", ".join(parts), style="magenta")
    hand = sorted(set(controller.observation().hand))
    if h.discards and hand:
        risky = sorted(hand, key=lambda t: (-h.deal_in[t], t))[:3]
        out.append("\n  deal-in risk: ")
        for i, t in enumerate(risky):
            out.append(", " if i else "")
            out.append(inline(t, ascii), style=suit_style(t))
            out.append(f" {round(100 * h.deal_in[t])}%")
        a = h.suggestion
        if a is not None and a.kind in ("discard", "ready") and a.tile is not None:
            out.append("; advised ")
            out.append(inline(a.tile, ascii), style=suit_style(a.tile))
            out.append(f" {round(100 * h.deal_in[a.tile])}%")
        out.append(
            f"\n  in your hand: ! = {round(100 * DANGER_SHADE)}%+ deal-in risk, * = advised",
            style="dim",
        )
    out.append("\n")


def _pts(x: float) -> str:
    """A figure in points: two decimals, or two significant digits below 0.1 (so that
    no figure a decision compared reads ``0.00``)."""
    if x == 0 or abs(x) >= 0.1:
        return f"{x:.2f}"
    return f"{x:.2g}"


def _expert(e: Any, advisor: str) -> bool:
    """True when the explanation's lookahead figures are expected points (the expert),
    not chances of winning."""
    return advisor == "ExpertBot"


_MODE_WORDS = {
    "forced": "the only legal action",
    "win": "a win is always taken",
    "huainan": "wild-aware tile efficiency",
    "attack": "the fan plans: each discard's share of the best plan's value, less its danger",
    "fold": "folding: far from any plan against a likely-ready opponent, the safest tile",
    "kong": "a kong that keeps the plan's value",
    "search": "rollouts: the mean score change of each option over sampled deals",
}


def mode_words(e: Any, advisor: str) -> str:
    """What decided, in words that match the figures the hints show beside it."""
    if e.mode == "lookahead":
        what = "the expected points of winning" if _expert(e, advisor) else "the chance of winning"
        if e.claims:
            return f"the lookahead: {what} after each option (a claim must beat the pass)"
        return f"the lookahead: {what} after each discard, less its danger"
    if e.mode == "claim":
        return (
            "the fan plans: the value after each claim against the pass, which carries the "
            "margin a claim must beat"
        )
    return _MODE_WORDS.get(e.mode, str(e.mode))


def discard_figures(d: Any, e: Any, advisor: str) -> str:
    """The figures the advisor compared for one candidate discard, each named for what it
    is: the chance of winning (or the expert's expected points), the chance of dealing
    in, and the value the decision ranked by."""
    parts = []
    if d.chance is not None:
        if _expert(e, advisor):
            parts.append(f"win worth {_pts(d.chance)} pts")
        else:
            parts.append(f"chance {100 * d.chance:.0f}%")
    parts.append(f"deal-in {100 * d.danger:.0f}%")
    if d.search is not None:
        parts.append(f"rollouts {d.search:+.2f} pts")
    elif d.value is not None:
        parts.append(f"value {_pts(d.value)}")
    return ", ".join(parts)


def claim_figure(c: Any, e: Any, advisor: str) -> str:
    """The figure a claim window's option was compared by, named: in the lookahead the
    chance of winning after it (the expert: expected points), after rollouts their mean,
    otherwise the plan value (the pass's with the margin a claim must beat)."""
    if c.search is not None:
        return f"rollouts {c.search:+.2f} pts"
    if e.mode == "lookahead" and c.chance is not None:
        if _expert(e, advisor):
            return f"win worth {_pts(c.chance)} pts"
        return f"chance {100 * c.chance:.0f}%"
    figure = f"plan value {_pts(c.plan_value)}"
    if c.action.kind == "pass":
        figure += " (with the margin)"
    return figure


def reason_lines(
    out: Text,
    e: Any,
    ascii: bool,
    most: int = 3,
    advisor: str = "",
    options: Sequence[DiscardOption] = (),
) -> None:
    """Appends why the advisor chose its action (`e`, an Explanation): what decided,
    then its `most` leading discards in its own order, each with what it leaves (from
    `options`: shanten and useful tiles) and the figures compared, or each option of the
    claim window with the figure it was compared by."""
    out.append(f"  why: {mode_words(e, advisor)}\n", style="dim")
    by_tile = {o.tile: o for o in options}
    for d in e.discards[:most]:
        chosen = e.action.kind in ("discard", "ready") and e.action.tile == d.tile
        out.append("  " + ("▸ " if not ascii else "> ") if chosen else "    ")
        out.append(inline(d.tile, ascii), style=suit_style(d.tile))
        o = by_tile.get(d.tile)
        if o is not None:
            out.append(f" → {_shanten_words(o.shanten, ascii)}, {o.unseen} useful")
        out.append(f"; {d.plan} {d.fan:.0f} fan; ")
        out.append(discard_figures(d, e, advisor) + "\n")
        if chosen and o is not None and o.useful:
            out.append("      useful: ")
            out.append_text(_tiles_with_counts(o.useful, ascii))
            out.append("\n")
    for c in e.claims:
        chosen = c.action == e.action
        out.append("  " + ("▸ " if not ascii else "> ") if chosen else "    ")
        out.append(_ACTION_WORDS.get(c.action.kind, c.action.kind))
        if c.action.tile is not None and c.action.kind != "pass":
            if c.action.kind == "chow":
                run = (c.action.tile, c.action.tile + 1, c.action.tile + 2)
                out.append(" " + "".join(inline(x, ascii) for x in run))
            else:
                out.append(" ")
                out.append(inline(c.action.tile, ascii), style=suit_style(c.action.tile))
        out.append(": " + claim_figure(c, e, advisor))
        if c.discard is not None:
            out.append(", then ")
            out.append(inline(c.discard, ascii), style=suit_style(c.discard))
        out.append("\n")


def hint_text(
    controller: Any, ascii: bool = False, hints: Hints | None = None, explain: bool = True
) -> Text:
    """The hint panel's text for the person's present position (`hints`: already
    computed for it; `explain`: with the advisor's reasons and figures)."""
    h = hints if hints is not None else compute_hints(controller)
    out = Text()
    out.append("Hints  ", style="bold")
    # The advice first: on a short terminal the panel shows only its first lines.
    if h.suggestion is not None:
        out.append(f"{h.advisor or 'bot'} would play: ", style="cyan")
        a = h.suggestion
        if a.kind == "chow" and a.tile is not None:
            run = (a.tile, a.tile + 1, a.tile + 2)
            out.append("chow " + "".join(inline(x, ascii) for x in run))
        elif a.tile is not None:
            out.append(_ACTION_WORDS.get(a.kind, a.kind) + " ")
            out.append(inline(a.tile, ascii), style=suit_style(a.tile))
        else:
            out.append(_ACTION_WORDS.get(a.kind, a.kind))
        out.append("\n")
    e = h.explanation if explain else None
    if e is not None:
        reason_lines(out, e, ascii, advisor=h.advisor, options=h.discards)
    if h.discards and (e is None or not e.discards):
        # One list, one order: the advisor's choice first, then by what each leaves.
        advised = getattr(h.suggestion, "tile", None)
        rows = sorted(h.discards, key=lambda o: o.tile != advised)
        for o in rows[:3]:
            mark = ("▸ " if not ascii else "> ") if o.tile == advised else "  "
            out.append("  " + mark)
            out.append(inline(o.tile, ascii), style=suit_style(o.tile))
            out.append(f" → {_shanten_words(o.shanten, ascii)}, {o.unseen} useful unseen: ")
            out.append_text(_tiles_with_counts(o.useful, ascii))
            out.append("\n")
    elif not h.discards:
        out.append(
            f"  {_shanten_words(h.shanten, ascii)}; useful ({sum(n for _, n in h.useful)} unseen): "
        )
        out.append_text(_tiles_with_counts(h.useful, ascii))
        out.append("\n")
    danger_lines(out, h, controller, ascii)
    ahead = h.outlook
    if ahead is not None:
        if ahead.exact and ahead.completions:
            how = " self-drawn" if ahead.best_self_drawn else ""
            out.append(f"  best finish{how} {ahead.best_counted} fan", style="bold")
            if ahead.best_total != ahead.best_counted:
                out.append(
                    f" ({ahead.best_total} with flowers, which do not count toward the minimum)",
                    style="dim",
                )
            out.append(": ")
            out.append(
                ", ".join(_fan_name(zh, en, ascii) + f" {p}" for zh, en, p in ahead.best_fans if p)
            )
            verdict = (
                "reachable" if ahead.reachable else "not reached by these waits (luck fans aside)"
            )
            out.append(
                f"\n  {h.min_fan}-fan minimum: {verdict}",
                style="green" if ahead.reachable else "red",
            )
        elif ahead.exact:
            out.append(
                f"  {h.min_fan}-fan minimum: no winning tile left for this shape", style="red"
            )
        else:
            out.append(f"  {h.min_fan}-fan minimum: too far from ready to tell", style="dim")
        if ahead.patterns:
            out.append("\n  heading for: ")
            out.append(
                ", ".join(_fan_name(zh, en, ascii) + f" ({p})" for zh, en, p in ahead.patterns)
            )
    return out
