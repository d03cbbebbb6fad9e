"""Differential test against PyMahjongGB 1.4.0 on a seeded corpus of winning hands.

The generator builds winning hands constructively, biased toward rare fans: regular hands
from themed tile pools (one suit, green, reversible, terminals, honors, even, fives, rank
bands) whose sets are often related to the sets before them (same chow in another suit,
shifted chows or pungs, straights), templates for the big fans (four winds, dragons,
terminal chows, four kongs ...), seven pairs (with four of a kind, shifted pairs),
thirteen orphans, the knitted forms and nine gates. Each hand gets 0-4 melds (chows,
pungs, exposed and concealed kongs) and consistent flags, winds and flowers.

Run ``python tests/test_fan_corpus.py [N] [SEED]`` to print the per-fan coverage table.
"""

from __future__ import annotations

import functools
import random
import sys
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest

import majiang as mj

WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
HONORS = WINDS + DRAGONS


def tile(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


def suit_of(t: int) -> int:
    return t // 9 if t < 27 else 3


def rank_of(t: int) -> int:
    return t % 9 + 1 if t < 27 else t - 26


@dataclass
class Hand:
    """One generated win: concealed tiles without the winning tile, melds as
    (kind, lowest tile), the winning tile, flags, winds and flowers."""

    concealed: list[int]
    melds: list[tuple[str, int]]
    win: int
    self_drawn: bool = False
    fourth_tile: bool = False
    about_kong: bool = False
    wall_last: bool = False
    seat: int = 0
    prevalent: int = 0
    flowers: int = 0
    form: str = "regular"
    meta: dict = field(default_factory=dict)


# ------------------------------------------------------------------ tile pools ------


def _suited(ranks, suits=(0, 1, 2)):
    return [tile(s, r) for s in suits for r in ranks]


POOLS = {
    "any": list(range(34)),
    "suited": list(range(27)),
    "green": [19, 20, 21, 23, 25, 32],
    "reversible": _suited([1, 2, 3, 4, 5, 8, 9], (1,)) + _suited([2, 4, 5, 6, 8, 9], (2,)) + [33],
    "terminals": _suited([1, 9]),
    "terminals_honors": _suited([1, 9]) + HONORS,
    "honors": HONORS,
    "even": _suited([2, 4, 6, 8]),
    "fives": _suited([3, 4, 5, 6, 7]),
    "low": _suited([1, 2, 3]),
    "mid": _suited([4, 5, 6]),
    "high": _suited([7, 8, 9]),
    "low4": _suited([1, 2, 3, 4]),
    "high4": _suited([6, 7, 8, 9]),
    "simples": _suited(range(2, 9)),
    "outside": _suited([1, 2, 3, 7, 8, 9]) + HONORS,
}
POOL_WEIGHTS = {
    "any": 30,
    "suited": 10,
    "green": 3,
    "reversible": 3,
    "terminals": 2,
    "terminals_honors": 3,
    "honors": 2,
    "even": 3,
    "fives": 3,
    "low": 2,
    "mid": 2,
    "high": 2,
    "low4": 2,
    "high4": 2,
    "simples": 4,
    "outside": 4,
}


def _pool(rng: random.Random) -> list[int]:
    name = rng.choices(list(POOL_WEIGHTS), weights=list(POOL_WEIGHTS.values()))[0]
    pool = POOLS[name]
    r = rng.random()
    if r < 0.15:  # one suit only (with or without honors)
        s = rng.randrange(3)
        keep = [t for t in pool if suit_of(t) == s or (t >= 27 and rng.random() < 0.5)]
        pool = keep or pool
    elif r < 0.3:  # drop one suit
        s = rng.randrange(3)
        pool = [t for t in pool if suit_of(t) != s] or pool
    return pool


def _sets_from(pool: list[int], kind: str) -> list[tuple[str, int]]:
    return _sets_cached(tuple(pool), kind)


@functools.lru_cache(maxsize=4096)
def _sets_cached(pool: tuple[int, ...], kind: str) -> list[tuple[str, int]]:
    ps = set(pool)
    if kind == "pung":
        return [("pung", t) for t in pool]
    return [("chow", t) for t in pool if t < 27 and t % 9 <= 6 and t + 1 in ps and t + 2 in ps]


def _related(rng: random.Random, base: tuple[str, int]) -> tuple[str, int] | None:
    kind, t = base
    if t >= 27:
        if kind == "pung":
            group = WINDS if t in WINDS else DRAGONS
            return ("pung", rng.choice(group))
        return None
    s, r = suit_of(t), rank_of(t)
    op = rng.randrange(6)
    if op == 0:
        return (kind, t)
    if op == 1:
        ns = rng.choice([x for x in range(3) if x != s])
        return (kind, tile(ns, r))
    d = rng.choice([1, 2, 3, -1, -2, -3] if op < 4 else [1, -1])
    nr = r + d
    ns = s if op < 4 else rng.choice([x for x in range(3) if x != s])
    lim = 7 if kind == "chow" else 9
    if 1 <= nr <= lim:
        return (kind, tile(ns, nr))
    return None


def _counts_ok(sets, pair, extra_kongs=()) -> bool:
    c = Counter()
    for kind, t in sets:
        if kind == "chow":
            c.update([t, t + 1, t + 2])
        else:
            c[t] += 3
    c[pair] += 2
    for t in extra_kongs:
        c[t] += 1
    return max(c.values()) <= 4


TEMPLATES = [
    "big_winds",
    "little_winds",
    "big_dragons",
    "little_dragons",
    "pure_terminal",
    "mixed_terminal",
    "pure_straight",
    "mixed_straight",
    "four_shifted_chows",
    "quadruple_chow",
    "four_shifted_pungs",
    "all_pungs",
]


def _template(rng: random.Random, name: str):
    s = rng.randrange(3)
    o = [x for x in range(3) if x != s]
    rng.shuffle(o)
    any_set = lambda: rng.choice(_sets_from(POOLS["any"], rng.choice(["chow", "pung"])))  # noqa: E731
    if name == "big_winds":
        return [("pung", w) for w in WINDS], rng.choice(range(34))
    if name == "little_winds":
        ws = WINDS[:]
        rng.shuffle(ws)
        return [("pung", w) for w in ws[:3]] + [any_set()], ws[3]
    if name == "big_dragons":
        return [("pung", d) for d in DRAGONS] + [any_set()], rng.randrange(34)
    if name == "little_dragons":
        ds = DRAGONS[:]
        rng.shuffle(ds)
        return [("pung", d) for d in ds[:2]] + [any_set(), any_set()], ds[2]
    if name == "pure_terminal":
        return [("chow", tile(s, 1))] * 2 + [("chow", tile(s, 7))] * 2, tile(s, 5)
    if name == "mixed_terminal":
        a, b = o
        sets = [
            ("chow", tile(a, 1)),
            ("chow", tile(a, 7)),
            ("chow", tile(b, 1)),
            ("chow", tile(b, 7)),
        ]
        return sets, tile(s, 5)
    if name == "pure_straight":
        return [
            ("chow", tile(s, 1)),
            ("chow", tile(s, 4)),
            ("chow", tile(s, 7)),
            any_set(),
        ], rng.randrange(34)
    if name == "mixed_straight":
        return [
            ("chow", tile(s, 1)),
            ("chow", tile(o[0], 4)),
            ("chow", tile(o[1], 7)),
            any_set(),
        ], rng.randrange(34)
    if name == "four_shifted_chows":
        step = rng.choice([1, 2])
        start = rng.randrange(1, 8 - 3 * step)
        return [("chow", tile(s, start + k * step)) for k in range(4)], rng.randrange(34)
    if name == "quadruple_chow":
        r = rng.randrange(1, 8)
        return [("chow", tile(s, r))] * 4, rng.randrange(34)
    if name == "four_shifted_pungs":
        start = rng.randrange(1, 7)
        return [("pung", tile(s, start + k)) for k in range(4)], rng.randrange(34)
    pool = _pool(rng)
    return [rng.choice(_sets_from(pool, "pung")) for _ in range(4)], rng.choice(pool)


def _regular(rng: random.Random):
    if rng.random() < 0.25:
        return _template(rng, rng.choice(TEMPLATES))
    pool = _pool(rng)
    p_pung = rng.choice([0.0, 0.2, 0.4, 0.6, 1.0])
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        made = None
        if sets and rng.random() < 0.5:
            made = _related(rng, rng.choice(sets))
        if made is None:
            kind = "pung" if rng.random() < p_pung else "chow"
            options = _sets_from(pool, kind) or _sets_from(pool, "pung")
            made = rng.choice(options)
        sets.append(made)
    return sets, rng.choice(pool)


def _knitted_straight_rows():
    rows = []
    for a, b, c in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]:
        row = [tile(a, r) for r in (1, 4, 7)] + [tile(b, r) for r in (2, 5, 8)]
        rows.append(row + [tile(c, r) for r in (3, 6, 9)])
    return rows


KNITTED = _knitted_straight_rows()
ORPHANS = [0, 8, 9, 17, 18, 26] + HONORS


def _special(rng: random.Random) -> tuple[list[int], str] | None:
    """14 concealed tiles of a special form."""
    form = rng.choices(
        ["seven_pairs", "shifted_pairs", "orphans", "knitted", "nine_gates"],
        weights=[8, 2, 2, 3, 2],
    )[0]
    if form == "seven_pairs":
        pool = _pool(rng)
        kinds = [rng.choice(pool) for _ in range(7)]
        c = Counter(kinds)
        if max(c.values()) > 2:
            return None
        return [t for t in kinds for _ in range(2)], form
    if form == "shifted_pairs":
        s, start = rng.randrange(3), rng.randrange(1, 4)
        return [tile(s, start + k) for k in range(7) for _ in range(2)], form
    if form == "orphans":
        return ORPHANS + [rng.choice(ORPHANS)], form
    if form == "knitted":
        row = rng.choice(KNITTED)
        n = rng.choice([7, 8, 9])
        suited = rng.sample(row, n)
        return suited + rng.sample(HONORS, 14 - n), form
    s = rng.randrange(3)
    base = [tile(s, r) for r in [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9]]
    return base + [tile(s, rng.randrange(1, 10))], form


def _knitted_regular(rng: random.Random):
    row = rng.choice(KNITTED)
    for _ in range(20):
        kind = rng.choice(["chow", "pung"])
        s = rng.choice(_sets_from(POOLS["any"], kind))
        pair = rng.randrange(34)
        c = Counter(row)
        c.update([s[1], s[1] + 1, s[1] + 2] if s[0] == "chow" else [s[1]] * 3)
        c[pair] += 2
        if max(c.values()) <= 4:
            return row, s, pair
    return None


def _expand(kind: str, t: int) -> list[int]:
    if kind == "chow":
        return [t, t + 1, t + 2]
    if kind == "pung":
        return [t] * 3
    return [t] * 4


def _one(rng: random.Random) -> Hand | None:
    r = rng.random()
    melds: list[tuple[str, int]] = []
    if r < 0.12:
        sp = _special(rng)
        if sp is None:
            return None
        tiles, form = sp
        if max(Counter(tiles).values()) > 4:
            return None
        standing = tiles
    elif r < 0.2:
        kn = _knitted_regular(rng)
        if kn is None:
            return None
        row, s, pair = kn
        form = "knitted_straight"
        standing = row + [pair, pair]
        if rng.random() < 0.4:
            kind = s[0]
            if kind == "pung" and rng.random() < 0.4:
                kind = rng.choice(["kong", "concealed_kong"])
                if Counter(row + [pair, pair])[s[1]] > 0:
                    kind = "pung"
            melds.append((kind, s[1]))
        else:
            standing += _expand(s[0], s[1])
    else:
        sets, pair = _regular(rng)
        form = "regular"
        if not _counts_ok(sets, pair):
            return None
        weights = [30, 20, 20, 15, 15]
        k = rng.choices(range(5), weights=weights)[0]
        order = list(range(4))
        rng.shuffle(order)
        as_meld = set(order[:k])
        standing = [pair, pair]
        kong_p = rng.choice([0.0, 0.3, 0.7])
        used = Counter()
        for kind, t in sets:
            used.update(_expand(kind, t))
        used[pair] += 2
        for i, (kind, t) in enumerate(sets):
            if i in as_meld:
                if kind == "pung" and rng.random() < kong_p and used[t] == 3:
                    kind = rng.choice(["kong", "concealed_kong"])
                    used[t] += 1
                melds.append((kind, t))
            else:
                standing += _expand(kind, t)
    if not standing:
        return None
    win = rng.choice(standing)
    concealed = list(standing)
    concealed.remove(win)
    h = Hand(concealed=sorted(concealed), melds=melds, win=win, form=form)
    _flags(rng, h)
    return h


def _flags(rng: random.Random, h: Hand) -> None:
    if rng.random() < 0.25:  # a plain discard win: room for 无番和
        h.seat, h.prevalent = rng.randrange(4), rng.randrange(4)
        return
    h.self_drawn = rng.random() < 0.5
    in_hand = h.concealed.count(h.win)
    in_melds = sum(_expand(k, t).count(h.win) for k, t in h.melds)
    has_kong = any(k in ("kong", "concealed_kong") for k, _ in h.melds)
    if rng.random() < 0.12:
        h.wall_last = True
    elif rng.random() < (0.4 if has_kong else 0.12):
        if h.self_drawn and has_kong:
            h.about_kong = True
        elif not h.self_drawn and in_hand == 0 and in_melds == 0:
            h.about_kong = True
    if in_hand == 0 and rng.random() < 0.2:
        h.fourth_tile = True
    present_winds = [
        t - 27 for t in set(h.concealed + [h.win] + [t for _, t in h.melds]) if 27 <= t <= 30
    ]

    def pick() -> int:
        if present_winds and rng.random() < 0.6:
            return rng.choice(present_winds)
        return rng.randrange(4)

    h.seat, h.prevalent = pick(), pick()
    h.flowers = rng.choice([0, 0, 0, 0, 1, 2, 3, 8])


def generate(n: int, seed: int = 0) -> list[Hand]:
    """`n` seeded winning hands (the same list for the same seed on every machine)."""
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < n:
        h = _one(rng)
        if h is not None:
            out.append(h)
    return out


# ------------------------------------------------------------------ conversions -----

_REF = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def to_reference(h: Hand) -> tuple:
    """MahjongFanCalculator's positional arguments."""
    packs = []
    for i, (kind, t) in enumerate(h.melds):
        offer = 1 + (i + t) % 3
        if kind == "chow":
            packs.append(("CHI", _REF[t + 1], offer))
        elif kind == "pung":
            packs.append(("PENG", _REF[t], offer))
        else:
            packs.append(("GANG", _REF[t], 0 if kind == "concealed_kong" else offer))
    return (
        tuple(packs),
        tuple(_REF[t] for t in h.concealed),
        _REF[h.win],
        h.flowers,
        h.self_drawn,
        h.fourth_tile,
        h.about_kong,
        h.wall_last,
        h.seat,
        h.prevalent,
    )


def to_majiang(h: Hand) -> tuple:
    """``evaluate_fan``'s arguments: (hand, win_tile, melds, keyword flags)."""
    melds = [mj.Meld(kind, _expand(kind, t)) for kind, t in h.melds]
    kw = dict(
        self_drawn=h.self_drawn,
        fourth_tile=h.fourth_tile,
        about_kong=h.about_kong,
        wall_last=h.wall_last,
        seat_wind=h.seat,
        prevalent_wind=h.prevalent,
        flowers=h.flowers,
    )
    return h.concealed, h.win, melds, kw


_KIND = {"chow": 1, "pung": 2, "kong": 3, "concealed_kong": 4}


def to_batch(hands: list[Hand]) -> tuple:
    """``evaluate_fan_batch``'s positional arrays."""
    n = len(hands)
    rows = np.repeat(np.arange(n), [len(h.concealed) for h in hands])
    cols = np.fromiter((t for h in hands for t in h.concealed), dtype=np.intp, count=rows.size)
    counts = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(counts, (rows, cols), 1)
    melds = np.zeros((n, 4, 2), dtype=np.uint8)
    for i, h in enumerate(hands):
        for j, (kind, t) in enumerate(h.melds):
            melds[i, j] = (_KIND[kind], t)
    flags = np.array(
        [h.self_drawn | h.fourth_tile << 1 | h.about_kong << 2 | h.wall_last << 3 for h in hands],
        dtype=np.uint8,
    )
    win = np.array([h.win for h in hands], dtype=np.uint8)
    seat = np.array([h.seat for h in hands], dtype=np.uint8)
    prev = np.array([h.prevalent for h in hands], dtype=np.uint8)
    flowers = np.array([h.flowers for h in hands], dtype=np.uint8)
    return counts, win, melds, flags, seat, prev, flowers


ZH_TO_ID = {f["name_zh"]: f["id"] for f in mj.fan_catalog()}


def reference_rows(calc, hands: list[Hand]) -> list[tuple]:
    """Each hand's fans from the reference as a sorted tuple of (id, count)."""
    out = []
    for h in hands:
        rows = calc(*to_reference(h), verbose=True)
        out.append(tuple(sorted((ZH_TO_ID[r[2]], r[1]) for r in rows)))
    return out


def batch_rows(hands: list[Hand]) -> tuple[list[tuple], np.ndarray]:
    """Each hand's fans from majiang's batch entry point, in the same form."""
    totals, table = mj.evaluate_fan_batch(*to_batch(hands))
    r, c = np.nonzero(table)
    v = table[r, c]
    rows: list[list] = [[] for _ in hands]
    for i, j, k in zip(r.tolist(), c.tolist(), v.tolist(), strict=True):
        rows[i].append((j, k))
    return [tuple(x) for x in rows], totals


def coverage(rows: list[tuple]) -> Counter:
    c: Counter = Counter()
    for r in rows:
        for fid, _ in r:
            c[fid] += 1
    return c


# ------------------------------------------------------------------ tests -----------

CORPUS_SIZE = 200_000
SEED = 20240118


@pytest.fixture(scope="module")
def corpus():
    return generate(CORPUS_SIZE, SEED)


def test_corpus_matches_reference(corpus):
    mjgb = pytest.importorskip("MahjongGB")
    ref = reference_rows(mjgb.MahjongFanCalculator, corpus)
    ours, totals = batch_rows(corpus)
    bad = [i for i in range(len(corpus)) if ref[i] != ours[i]]
    detail = [(to_reference(corpus[i]), ref[i], ours[i]) for i in bad[:5]]
    assert not bad, f"{len(bad)} disagreements, first: {detail}"
    assert (totals > 0).all()
    cov = coverage(ref)
    missing = [f["name_zh"] for f in mj.fan_catalog() if f["id"] <= 82 and cov[f["id"]] == 0]
    assert not missing, f"fans never produced by the corpus: {missing}"
    forms = Counter(h.form for h in corpus)
    assert set(forms) == {
        "regular",
        "knitted_straight",
        "seven_pairs",
        "shifted_pairs",
        "orphans",
        "knitted",
        "nine_gates",
    }
    melds = Counter(len(h.melds) for h in corpus)
    assert all(melds[k] > 1000 for k in range(5))
    kinds = Counter(k for h in corpus for k, _ in h.melds)
    assert all(kinds[k] > 1000 for k in _KIND)
    for flag in ("self_drawn", "fourth_tile", "about_kong", "wall_last"):
        assert sum(getattr(h, flag) for h in corpus) > 1000


def test_single_calls_match_batch(corpus):
    sample = corpus[:3000]
    rows, totals = batch_rows(sample)
    for h, row, total in zip(sample, rows, totals, strict=True):
        hand, win, melds, kw = to_majiang(h)
        r = mj.evaluate_fan(hand, win, melds, **kw)
        assert tuple((f.id, f.count) for f in r.fans) == row
        assert r.total == total


def main(argv: list[str]) -> None:
    import MahjongGB

    n = int(argv[1]) if len(argv) > 1 else CORPUS_SIZE
    seed = int(argv[2]) if len(argv) > 2 else SEED
    hands = generate(n, seed)
    cov = coverage(reference_rows(MahjongGB.MahjongFanCalculator, hands))
    print(f"| # | fan | English | hands ({n:,} seeded, seed {seed}) |")
    print("|---|---|---|---|")
    for f in mj.fan_catalog():
        if f["id"] <= 82:
            print(f"| {f['id']} | {f['name_zh']} | {f['name']} | {cov[f['id']]:,} |")
    print()
    print("| hand form | hands |")
    print("|---|---|")
    for form, k in sorted(Counter(h.form for h in hands).items()):
        print(f"| {form} | {k:,} |")
    print()
    print("| melds | hands |")
    print("|---|---|")
    for k, v in sorted(Counter(len(h.melds) for h in hands).items()):
        print(f"| {k} | {v:,} |")
    print()
    print("| meld kind | melds |")
    print("|---|---|")
    for k, v in sorted(Counter(kind for h in hands for kind, _ in h.melds).items()):
        print(f"| {k} | {v:,} |")
    print()
    print("| flag | hands |")
    print("|---|---|")
    for flag in ("self_drawn", "fourth_tile", "about_kong", "wall_last"):
        print(f"| {flag} | {sum(getattr(h, flag) for h in hands):,} |")
    print(f"| flowers > 0 | {sum(h.flowers > 0 for h in hands):,} |")


if __name__ == "__main__":
    main(sys.argv)
