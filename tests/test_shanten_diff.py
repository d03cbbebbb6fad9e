"""Differential test of the oracle against PyMahjongGB (``import MahjongGB``).

A seeded corpus of 100,000 hands (13-3k and 14-3k concealed tiles beside 0-4 melds; random,
near-ready, single-suit, pair-rich, orphan-rich and knitted-rich) is checked form by form:
equal shanten and equal useful tiles. PyMahjongGB ignores the four-copy limit (its per-form
helpers do not even see the melds), so where the two disagree an exact brute-force search
(``test_shanten_brute.exact_distance``) proves our answer under the limit and shows that
the reference's answer is the one without it; a useful tile of the reference with no copy
left is dropped, and any other useful-tile difference is settled by the same search. A
14-tile hand is compared with the best of its discards (its shanten is the least shanten
left after one discard, or -1 when complete).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import majiang as mj

M = pytest.importorskip("MahjongGB")

from test_shanten_brute import (  # noqa: E402
    FORMS,
    KNITTED,
    ORPHANS,
    SETS,
    counts_of,
    exact_distance,
    is_complete,
    used_of,
)

N_HANDS = int(os.environ.get("MJ_DIFF_HANDS", 100_000))
SEED = 20240229
CODES = (
    [f"W{i}" for i in range(1, 10)]
    + [f"B{i}" for i in range(1, 10)]
    + [f"T{i}" for i in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
CODE_OF = {c: i for i, c in enumerate(CODES)}
REF_FORM = {
    "regular": M.RegularShanten,
    "seven_pairs": M.SevenPairsShanten,
    "thirteen_orphans": M.ThirteenOrphansShanten,
    "honors_knitted": M.HonorsAndKnittedTilesShanten,
    "knitted_straight": M.KnittedStraightShanten,
}
STYLES = ["random", "near", "near", "near", "suit", "pairs", "orphans", "knitted"]


# --- corpus ------------------------------------------------------------------------------


def _draw_meld(rng: random.Random, left: list[int]):
    for _ in range(50):
        r = rng.random()
        if r < 0.5:
            s, k = rng.randrange(3), rng.randrange(7)
            t = 9 * s + k
            if left[t] and left[t + 1] and left[t + 2]:
                for x in (t, t + 1, t + 2):
                    left[x] -= 1
                return mj.Meld("chow", [t, t + 1, t + 2])
        else:
            t = rng.randrange(34)
            kind = "pung" if r < 0.85 else rng.choice(["kong", "concealed_kong"])
            n = 3 if kind == "pung" else 4
            if left[t] >= n:
                left[t] -= n
                return mj.Meld(kind, [t] * n)
    return None


def _take(rng: random.Random, left: list[int], pool: list[int], n: int) -> list[int]:
    """``n`` tiles drawn from ``pool`` kinds (falling back on any kind) within ``left``."""
    out = []
    for _ in range(n):
        for _ in range(8):  # rejection sampling first: the pools are rarely exhausted
            t = pool[int(rng.random() * len(pool))]
            if left[t]:
                break
        else:
            choices = [t for t in pool if left[t]] or [t for t in range(34) if left[t]]
            t = rng.choice(choices)
        left[t] -= 1
        out.append(t)
    return out


def make_hand(rng: random.Random):
    """One corpus hand: (concealed tiles, melds, style)."""
    left = [4] * 34
    k = rng.choices([0, 1, 2, 3, 4], weights=[40, 20, 15, 13, 12])[0]
    style = rng.choice(STYLES)
    if style in ("pairs", "orphans", "knitted"):
        k = rng.choice([0, 0, 0, 1])
    melds = []
    for _ in range(k):
        m = _draw_meld(rng, left)
        if m is not None:
            melds.append(m)
    k = len(melds)
    n = 13 - 3 * k + (rng.random() < 0.4)
    if style == "random":
        tiles = _take(rng, left, list(range(34)), n)
    elif style == "suit":
        s = rng.randrange(4)
        tiles = _take(rng, left, list(range(9 * s, 9 * s + 9)) if s < 3 else list(range(27, 34)), n)
    elif style == "pairs":
        tiles = []
        while len(tiles) < n:
            t = rng.choice([t for t in range(34) if left[t]])
            for _ in range(min(2, left[t], n - len(tiles))):
                left[t] -= 1
                tiles.append(t)
    elif style == "orphans":
        tiles = _take(rng, left, ORPHANS, n - 2) + _take(rng, left, list(range(34)), 2)
    elif style == "knitted":
        pool = rng.choice(KNITTED) + (list(range(27, 34)) if rng.random() < 0.5 else [])
        extra = rng.randrange(0, 5)
        tiles = _take(rng, left, pool, n - extra) + _take(rng, left, list(range(34)), extra)
    else:  # near-ready: a complete hand, one tile removed or some swapped
        tiles = []
        for _ in range(4 - k):
            for _ in range(20):
                s = rng.choice(SETS)
                c = Counter(s)
                if all(left[t] >= m for t, m in c.items()):
                    for t in s:
                        left[t] -= 1
                    tiles += s
                    break
        tiles += _take(rng, left, [rng.randrange(34)], 2)
        tiles = tiles[: 14 - 3 * k]
        while len(tiles) < 14 - 3 * k:
            tiles += _take(rng, left, list(range(34)), 1)
        rng.shuffle(tiles)
        if n == 13 - 3 * k:
            left[tiles.pop()] += 1
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            i = rng.randrange(len(tiles))
            left[tiles[i]] += 1
            tiles[i] = _take(rng, left, list(range(34)), 1)[0]
    return sorted(tiles), melds, style


def corpus():
    rng = random.Random(SEED)
    return [make_hand(rng) for _ in range(N_HANDS)]


# --- the reference ----------------------------------------------------------------------


def ref_form(form: str, tiles, n_melds: int, codes=None):
    """PyMahjongGB's (shanten, useful kinds) for a waiting hand, or None when the form
    does not apply."""
    if form in ("seven_pairs", "thirteen_orphans", "honors_knitted") and n_melds:
        return None
    if form == "knitted_straight" and n_melds > 1:
        return None
    s, useful = REF_FORM[form](codes or tuple(CODES[t] for t in tiles))
    return s, {CODE_OF[u] for u in useful}


def ref_overall_full(tiles, melds) -> int:
    """PyMahjongGB's overall shanten of a full hand that is not complete: the best discard."""
    pack = tuple(
        ("CHI", CODES[m.tile + 1], 1)
        if m.kind == "chow"
        else ("PENG" if m.kind == "pung" else "GANG", CODES[m.tile], 0 if m.concealed else 1)
        for m in melds
    )
    best = 99
    for x in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(x)
        best = min(best, M.MahjongShanten(pack, tuple(CODES[t] for t in rest)))
    return best


def ref_form_full(form: str, tiles, n_melds: int):
    """PyMahjongGB's shanten for a full hand: the best discard, -1 when complete."""
    best = None
    for x in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(x)
        r = ref_form(form, rest, n_melds)
        if r is None:
            return None
        s, useful = r
        if s == 0 and x in useful:
            return -1
        best = s if best is None else min(best, s)
    return best


# --- the test -----------------------------------------------------------------------------


def _prove(tiles, melds, forms, ours, theirs, stats):
    """Where our shanten (the least over ``forms``) differs from the reference's, two exact
    searches settle it: with the four-copy limit (copies in the hand and the melds count)
    the least distance is ours, and with no limit at all it is the reference's. So the
    difference is exactly a block or wait that needs a copy that does not exist."""
    c, used = counts_of(tiles), used_of(melds)
    k = len(melds)
    exact = min(exact_distance(c, used, k, f, ours + 1) for f in forms)
    assert exact == ours + 1, (mj.format_tiles(tiles), melds, forms, ours, theirs, exact)
    free = [-10] * 34  # no copy limit
    loose = min(exact_distance(c, free, k, f, theirs + 1) for f in forms)
    assert loose == theirs + 1, (mj.format_tiles(tiles), melds, forms, ours, theirs, loose)
    stats["shanten proven"] += 1


def _prove_useful(tiles, melds, form, s, ours, theirs, stats):
    """Our useful tiles where they differ from the reference's: a kind with no copy left
    is never useful; any other difference is settled by the exact search."""
    c, used = counts_of(tiles), used_of(melds)
    gone = {t for t in range(34) if c[t] + used[t] >= 4}
    assert ours.isdisjoint(gone)
    if ours == theirs - gone:
        if theirs & gone:
            stats["useful: exhausted kinds dropped"] += 1
        return
    for t in ours ^ (theirs - gone):
        c2 = counts_of(tiles + [t])
        d = exact_distance(c2, used, len(melds), form, s + 1)
        assert (t in ours) == (d <= s), (mj.format_tiles(tiles), melds, form, t)
    stats["useful proven"] += 1


def test_differential_against_pymahjonggb():
    stats = Counter()
    for tiles, melds, style in corpus():
        k = len(melds)
        full = len(tiles) == 14 - 3 * k
        ours = mj.shanten_forms(tiles, melds)
        stats["full" if full else "waiting"] += 1
        stats[f"melds={k}"] += 1
        stats[style] += 1
        overall = mj.shanten(tiles, melds)
        assert overall == min(ours.values())
        if full:
            complete = is_complete(counts_of(tiles), k)
            assert mj.is_win(tiles, melds) == complete == (overall == -1), (tiles, melds)
            if not complete:
                theirs = ref_overall_full(tiles, melds)
                stats["compared overall"] += 1
                if overall != theirs:
                    _prove(tiles, melds, list(ours), overall, theirs, stats)
            # Per form, one reference call per discard: the cheap forms on every other hand,
            # the regular and knitted ones on one in twenty.
            forms = []
            if k == 0 and stats["full"] % 2 == 0:
                forms = ["seven_pairs", "thirteen_orphans", "honors_knitted"]
            if stats["full"] % 20 == 0:
                forms += ["regular", "knitted_straight"] if k <= 1 else ["regular"]
            for form in forms:
                theirs = ref_form_full(form, tiles, k)
                if ours[form] != theirs:
                    _prove(tiles, melds, [form], ours[form], theirs, stats)
                stats[f"compared {form}"] += 1
            continue
        codes = tuple(CODES[t] for t in tiles)
        for form in FORMS:
            ref = ref_form(form, tiles, k, codes)
            assert (ref is None) == (form not in ours), (tiles, melds, form)
            if ref is None:
                continue
            s, theirs = ref
            stats[f"compared {form}"] += 1
            if ours[form] != s:
                _prove(tiles, melds, [form], ours[form], s, stats)
                continue
            useful = set(mj.useful_tiles(tiles, melds, form=form))
            if useful != theirs:
                _prove_useful(tiles, melds, form, s, useful, theirs, stats)
        waits = mj.waits(tiles, melds)
        if overall == 0:
            stats["ready"] += 1
        if overall == 0 and stats["ready"] % 10 == 0:
            c, used = counts_of(tiles), used_of(melds)
            expect = [
                t
                for t in range(34)
                if c[t] + used[t] < 4 and is_complete(counts_of(tiles + [t]), k)
            ]
            assert waits == expect, (tiles, melds)
        elif overall > 0:
            assert waits == []
    print("\n" + ", ".join(f"{key}: {n}" for key, n in sorted(stats.items())))
    assert stats["waiting"] + stats["full"] == N_HANDS
    assert stats["shanten proven"] + stats["useful proven"] > 0
