"""Brute-force references for the oracle, written independently of the Rust engine, and
property tests (hypothesis) that compare the engine with them.

The brute forces work on plain lists of 34 counts:

* ``is_complete`` splits a hand into sets and a pair (or a special form) by recursion;
* ``exact_distance`` finds, by depth-first search over the hand forms, the fewest tiles
  that must be drawn so that the hand contains a complete hand, where a kind held ``u``
  times in melds may appear at most ``4 - u`` times in the concealed part. Shanten is that
  number minus one. The search takes an upper bound and only explores configurations up to
  it, which keeps it fast on the near-ready hands where the four-copy limit matters.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

import majiang as mj

ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
KNITTED = [[9 * s + r for s in range(3) for r in range(perm[s], 9, 3)] for perm in PERMS]
# Every set as a list of kinds: 34 pungs, then the 21 chows.
SETS = [[t, t, t] for t in range(34)] + [
    [9 * s + r, 9 * s + r + 1, 9 * s + r + 2] for s in range(3) for r in range(7)
]
FORMS = ["regular", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"]


def counts_of(tiles) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def used_of(melds) -> list[int]:
    u = [0] * 34
    for m in melds:
        for t in m.tiles:
            u[t] += 1
    return u


# --- complete hands ---------------------------------------------------------------------


def _sets_and_pair(c: list[int], sets: int, pair: bool) -> bool:
    """True if ``c`` splits into exactly ``sets`` sets and (if ``pair``) one pair."""
    i = next((t for t in range(34) if c[t]), None)
    if i is None:
        return sets == 0 and not pair
    if pair and c[i] >= 2:
        c[i] -= 2
        ok = _sets_and_pair(c, sets, False)
        c[i] += 2
        if ok:
            return True
    if sets and c[i] >= 3:
        c[i] -= 3
        ok = _sets_and_pair(c, sets - 1, pair)
        c[i] += 3
        if ok:
            return True
    if sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        ok = _sets_and_pair(c, sets - 1, pair)
        for t in (i, i + 1, i + 2):
            c[t] += 1
        if ok:
            return True
    return False


def is_complete(c: list[int], n_melds: int, form: str | None = None) -> bool:
    """True if the full concealed counts ``c`` (beside ``n_melds`` melds) are a complete
    hand in ``form`` (any GB form when None)."""
    c = list(c)
    forms = FORMS if form is None else [form]
    for f in forms:
        if f == "regular" and _sets_and_pair(c, 4 - n_melds, True):
            return True
        if n_melds == 0 and sum(c) == 14:
            if f == "seven_pairs" and sum(x // 2 for x in c) == 7 and all(x % 2 == 0 for x in c):
                return True
            orphans = [c[t] for t in ORPHANS]
            if f == "thirteen_orphans" and all(orphans) and sum(orphans) == 14:
                return True
            if f == "honors_knitted" and max(c) == 1:
                if any(all(t in k or t >= 27 for t in range(34) if c[t]) for k in KNITTED):
                    return True
        if f == "knitted_straight" and n_melds <= 1:
            for k in KNITTED:
                if all(c[t] for t in k):
                    rest = list(c)
                    for t in k:
                        rest[t] -= 1
                    if _sets_and_pair(rest, 1 - n_melds, True):
                        return True
    return False


# --- exact distances ----------------------------------------------------------------------


def _cost(c: list[int], need: list[int]) -> int:
    return sum(max(n - h, 0) for n, h in zip(need, c, strict=True))


GROUPS = [list(range(9 * g, 9 * g + 9)) for g in range(3)] + [list(range(27, 34))]
# Each group's sets as (kind, copies) lists.
GROUP_SETS = [[sorted(Counter(s).items()) for s in SETS if s[0] in kinds] for kinds in GROUPS]


def _group_best(c, limit, g: int, top: int, bound: int) -> dict:
    """:func:`_search_group` on the group's own counts and limits, remembered: the proofs
    ask about the same groups over and over (a draw changes only one group)."""
    kinds = GROUPS[g]
    return _group_cached(tuple(c[t] for t in kinds), tuple(limit[t] for t in kinds), g, top, bound)


@lru_cache(maxsize=1 << 16)
def _group_cached(cg: tuple, lg: tuple, g: int, top: int, bound: int) -> dict:
    c = [0] * 34
    limit = [0] * 34
    for i, t in enumerate(GROUPS[g]):
        c[t] = cg[i]
        limit[t] = lg[i]
    return _search_group(c, limit, g, top, bound)


def _search_group(c, limit, g: int, top: int, bound: int) -> dict:
    """Every configuration of up to ``top`` sets and at most one pair inside group ``g``
    that costs at most ``bound`` draws, searched exhaustively: the cheapest cost of each
    (sets, pair) count."""
    best: dict = {}
    need = [0] * 34
    sets = GROUP_SETS[g]

    def add(kinds) -> int:
        """Puts ``kinds`` (a list of (kind, copies)) into the configuration; returns the
        draws that adds, or -1 (adding nothing) when a kind would exceed its limit."""
        for t, r in kinds:
            if need[t] + r > limit[t]:
                return -1
        draws = 0
        for t, r in kinds:
            before = need[t]
            need[t] = before + r
            # The copies beyond what the hand holds are draws.
            draws += max(0, before + r - max(c[t], before))
        return draws

    def remove(kinds) -> None:
        for t, r in kinds:
            need[t] -= r

    def go(start: int, m: int, p: int, paid: int) -> None:
        key = (m, p)
        if paid < best.get(key, bound + 1):
            best[key] = paid
        if m == top:
            return
        for i in range(start, len(sets)):
            kinds = sets[i]
            extra = add(kinds)
            if extra < 0:
                continue
            if paid + extra <= bound:
                go(i, m + 1, p, paid + extra)
            remove(kinds)

    go(0, 0, 0, 0)
    for t in GROUPS[g]:
        pair = [(t, 2)]
        extra = add(pair)
        if extra >= 0:
            if extra <= bound:
                go(0, 0, 1, extra)
            remove(pair)
    return best


def _regular(c, limit, sets_needed, bound, extra=None) -> int:
    """Fewest draws to contain ``sets_needed`` sets and a pair (plus ``extra`` counts that
    must also be present), each kind within ``limit``; ``bound + 1`` if more than ``bound``.

    Each group's configurations are enumerated exhaustively up to the bound, then the
    groups are combined over every split of the sets and the pair."""
    if extra:
        if any(e > lim for e, lim in zip(extra, limit, strict=True)):
            return bound + 1
        base = sum(max(e - h, 0) for e, h in zip(extra, c, strict=True))
        c = [max(h - e, 0) for h, e in zip(c, extra, strict=True)]
        limit = [lim - e for lim, e in zip(limit, extra, strict=True)]
    else:
        base = 0
    if base > bound:
        return bound + 1
    per_group = [_group_best(c, limit, g, sets_needed, bound - base) for g in range(4)]
    totals = {(0, 0): 0}
    for best in per_group:
        merged: dict = {}
        for (m1, p1), x in totals.items():
            for (m2, p2), y in best.items():
                key = (m1 + m2, p1 + p2)
                if key[0] <= sets_needed and key[1] <= 1 and x + y < merged.get(key, bound + 1):
                    merged[key] = x + y
        totals = merged
    return min(bound + 1, base + totals.get((sets_needed, 1), bound + 1))


def exact_distance(c, used, n_melds, form, bound) -> int:
    """The exact replacement number of ``form`` if at most ``bound`` (else ``bound + 1``).
    ``used`` holds the copies in melds; negative values lift the four-copy limit."""
    limit = [4 - u for u in used]
    if form == "regular":
        return _regular(c, limit, 4 - n_melds, bound)
    if form == "knitted_straight":
        best = bound + 1
        for k in KNITTED:
            extra = [0] * 34
            for t in k:
                extra[t] = 1
            best = min(best, _regular(c, limit, 1 - n_melds, bound, extra))
        return best
    best = bound + 1
    if form == "seven_pairs":
        # Choose seven pairs; a kind may give two (all four copies).
        slots = []
        for t in range(34):
            slots.append(max(2 - c[t], 0))
            slots.append(max(4 - c[t], 0) - max(2 - c[t], 0) if c[t] >= 2 else 2)
        return min(best, sum(sorted(slots)[:7]))
    if form == "thirteen_orphans":
        for p in ORPHANS:
            need = [0] * 34
            for t in ORPHANS:
                need[t] = 1
            need[p] = 2
            best = min(best, _cost(c, need))
        return best
    if form == "honors_knitted":
        for k in KNITTED:
            pool = k + list(range(27, 34))
            held = sum(1 for t in pool if c[t])
            best = min(best, 14 - min(held, 14))
        return best
    raise ValueError(form)


# --- property tests -----------------------------------------------------------------------

tile_lists = st.lists(st.integers(0, 33), min_size=14, max_size=14)


def _valid(tiles) -> bool:
    return max(counts_of(tiles)) <= 4


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14).filter(_valid))
def test_is_win_matches_brute_force_random(tiles):
    assert mj.is_win(tiles) == is_complete(counts_of(tiles), 0)


@st.composite
def near_complete(draw):
    """A complete regular hand (melds, sets and a pair), then maybe a few tiles swapped;
    copies beyond four are replaced by the lowest kinds that still have room."""
    used = [0] * 34
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        s = SETS[draw(st.integers(0, len(SETS) - 1))]
        if all(used[t] + s.count(t) <= 4 for t in s):
            kind = "pung" if s[0] == s[1] else "chow"
            melds.append(mj.Meld(kind, s))
            for t in s:
                used[t] += 1
    k = len(melds)
    tiles = []
    for _ in range(4 - k):
        tiles += SETS[draw(st.integers(0, len(SETS) - 1))]
    tiles += [draw(st.integers(0, 33))] * 2
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    kept, cnt = [], [0] * 34
    for t in tiles:
        if cnt[t] + used[t] < 4:
            kept.append(t)
            cnt[t] += 1
    t = 0
    while len(kept) < 14 - 3 * k:
        if cnt[t] + used[t] < 4:
            kept.append(t)
            cnt[t] += 1
        else:
            t += 1
    return kept, melds


@settings(max_examples=300, deadline=None)
@given(near_complete())
def test_is_win_matches_brute_force_near_complete(case):
    tiles, melds = case
    assert mj.is_win(tiles, melds) == is_complete(counts_of(tiles), len(melds))


@settings(max_examples=200, deadline=None)
@given(near_complete())
def test_shanten_matches_exact_search(case):
    tiles, melds = case
    tiles = tiles[:-1]  # a waiting hand
    c, used = counts_of(tiles), used_of(melds)
    forms = mj.shanten_forms(tiles, melds)
    for form, s in forms.items():
        assert exact_distance(c, used, len(melds), form, s + 1) == s + 1, (tiles, melds, form)
    waits = [
        t
        for t in range(34)
        if c[t] + used[t] < 4 and is_complete(counts_of(tiles + [t]), len(melds))
    ]
    assert mj.waits(tiles, melds) == waits
