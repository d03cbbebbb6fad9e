"""The oracle with ``rules="huainan", wild=...``: 宝 as jokers in the basic form, seven
pairs, 十三浪 and 九幺, checked against enumeration of the faces the 宝 may read."""

import itertools
import random

import pytest

import majiang as mj

TH = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def counts_of(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def sets_only(group, chows):
    g = list(group)
    for i in range(len(g)):
        r = g[i] % 3
        if r:
            if not chows or i + 2 >= len(g) or g[i + 1] < r or g[i + 2] < r:
                return False
            g[i + 1] -= r
            g[i + 2] -= r
    return True


def natural_basic(c):
    groups = [(c[0:9], True), (c[9:18], True), (c[18:27], True), (c[27:34], False)]
    mods = [sum(g) % 3 for g, _ in groups]
    if sorted(mods) != [0, 0, 0, 2]:
        return False
    pg = mods.index(2)
    for i, (g, ch) in enumerate(groups):
        if i != pg and not sets_only(g, ch):
            return False
    g, ch = groups[pg]
    for p in range(len(g)):
        if g[p] >= 2:
            h = list(g)
            h[p] -= 2
            if sets_only(h, ch):
                return True
    return False


def natural_lang(c):
    if sum(c) != 14 or max(c) > 1:
        return False
    for s in range(3):
        ranks = [r for r in range(9) if c[s * 9 + r]]
        if any(b - a < 3 for a, b in itertools.pairwise(ranks)):
            return False
    return True


def natural_win(c, melds):
    if natural_basic(c):
        return True
    if not melds and sum(c) == 14 and all(x in (0, 2, 4) for x in c):
        return True
    if not melds and natural_lang(c):
        return True
    melds_th = all(m.kind != "chow" and m.tile in TH for m in melds)
    return melds_th and all(x == 0 or t in TH for t, x in enumerate(c))


def wild_faces(nat, total):
    """Faces a wild can usefully read (see rust/huainan/brute.rs), sorted: near a natural
    tile, or one fresh terminal/honour and one absent face (``total`` counts the melds too)
    for groups made of wilds alone."""
    cand = set()
    for t in range(34):
        if nat[t]:
            if t < 27:
                s, r = divmod(t, 9)
                cand.update(s * 9 + q for q in range(max(0, r - 2), min(9, r + 3)))
            else:
                cand.add(t)
    cand.update([next((f for f in TH if total[f] == 0), 0), total.index(0)])
    return sorted(cand)


def reference(tiles, melds, bao):
    """Some assignment of faces to the 宝 makes a natural winning shape (enumerated)."""
    nat = counts_of(t for t in tiles if t != bao)
    w = len(tiles) - sum(nat)
    total = list(nat)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    for faces in itertools.combinations_with_replacement(wild_faces(nat, total), w):
        c = list(nat)
        for f in faces:
            c[f] += 1
        if natural_win(c, melds):
            return True
    if melds:
        return False
    for faces in itertools.combinations([f for f in range(34) if nat[f] == 0], w):
        c = list(nat)
        for f in faces:
            c[f] = 1
        if natural_lang(c):
            return True
    return False


def random_hand(rng):
    """A complete shape with some tiles turned into 宝, half the time with one tile changed."""
    while True:
        kind = rng.randrange(10)
        conc, melds = [], []
        if kind < 6:
            k = rng.choice([0, 0, 0, 1, 2, 3, 4])
            for i in range(4):
                if rng.random() < 0.5:
                    s, r = rng.randrange(3), rng.randrange(7)
                    tiles = [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
                    kind_name = "chow"
                else:
                    tiles = [rng.randrange(34)] * 3
                    kind_name = "pung"
                if i < k:
                    melds.append(mj.Meld(kind_name, tiles))
                else:
                    conc += tiles
            conc += [rng.randrange(34)] * 2
        elif kind < 8:
            for _ in range(7):
                conc += [rng.randrange(34)] * 2
        elif kind == 8:
            conc = rng.sample(range(27, 34), rng.randrange(5, 8))
            pats = [(0, 3, 6), (0, 3, 7), (0, 4, 8), (1, 4, 7), (1, 5, 8), (2, 5, 8)]
            for s in range(3):
                need = 14 - len(conc)
                conc += [s * 9 + r for r in rng.choice(pats)[: min(3, need)]]
        else:
            conc = [rng.choice(TH) for _ in range(14)]
        bao = rng.randrange(34)
        if any(bao in m.tiles for m in melds):
            continue
        target = rng.choice([0, 1, 1, 1, 2, 2, 2, 3])
        others = [i for i, t in enumerate(conc) if t != bao]
        rng.shuffle(others)
        for i in others[: max(0, target - conc.count(bao))]:
            conc[i] = bao
        if rng.random() < 0.5:
            i = rng.randrange(len(conc))
            if conc[i] != bao:
                conc[i] = rng.randrange(34)
        total = counts_of(conc + [t for m in melds for t in m.tiles])
        if max(total) > 4 or conc.count(bao) > 3:
            continue
        return conc, melds, bao


def test_is_win_equals_enumeration():
    rng = random.Random(20261129)
    wins = [0, 0, 0, 0]
    seen = [0, 0, 0, 0]
    for _ in range(3000):
        conc, melds, bao = random_hand(rng)
        want = reference(conc, melds, bao)
        got = mj.is_win(conc, melds, rules="huainan", wild=bao)
        assert got == want, (mj.format_tiles(conc), [str(m.tiles) for m in melds], bao)
        assert (mj.shanten(conc, melds, rules="huainan", wild=bao) == -1) == want
        w = conc.count(bao)
        seen[w] += 1
        wins[w] += want
    for w in range(4):
        assert seen[w] > 100 and 0.1 * seen[w] < wins[w] < 0.9 * seen[w], (wins, seen)


def test_waits_are_the_winning_draws():
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        conc, melds, bao = random_hand(rng)
        hand = conc[:-1]
        total = counts_of(hand + [t for m in melds for t in m.tiles])
        waits = mj.waits(hand, melds, rules="huainan", wild=bao)
        want = [
            t
            for t in range(34)
            if total[t] < 4 and mj.is_win(hand + [t], melds, rules="huainan", wild=bao)
        ]
        assert waits == want, (mj.format_tiles(hand), bao)
        checked += bool(want)
    assert checked > 500


def test_special_forms_with_wilds():
    # 十三浪 with the 宝 2m standing in for 9s; 九幺 with a 5s 宝.
    assert mj.is_win("147m258p36s2m12345z", rules="huainan", wild="2m")
    assert not mj.is_win("147m258p36s2m12345z", rules="huainan")
    assert mj.shanten_forms("147m258p369s1234z", rules="huainan")["shisanlang"] == 0
    assert mj.waits("147m258p369s1234z", rules="huainan") == mj.parse_tiles("567z")
    assert mj.waits("147m258p369s1234z", rules="huainan", wild="9m") == sorted(
        mj.parse_tiles("567z9m")
    )
    assert mj.is_win("119m19p19s123456z5s", rules="huainan", wild="5s")
    assert mj.shanten_forms("119m19p19s12345z55s", rules="huainan", wild="5s")["jiuyao"] == -1
    melds = [mj.Meld("pung", "111z")]
    assert mj.is_win("119m19p19s2344z", melds, rules="huainan")
    assert "jiuyao" not in mj.shanten_forms("1m", [mj.Meld("chow", "123p")] * 4, rules="huainan")
    assert mj.useful_tiles("119m19p19s12345z5p", rules="huainan", form="jiuyao") == TH
    # The fourth 5p beside a pung of 5p waits only on a 宝 (read as a fifth 5p).
    four = [mj.Meld("pung", "555p"), mj.Meld("pung", "666p"), mj.Meld("chow", "234m")]
    four.append(mj.Meld("chow", "567s"))
    assert mj.waits("5p", four, rules="huainan", wild="6z") == mj.parse_tiles("6z")
    assert mj.shanten("5p", four, rules="huainan", wild="6z") == 0
    assert mj.shanten("5p", four, rules="huainan") == 1


def jiuyao_shape(c, melds, pung_melds):
    if melds and not pung_melds:
        return False
    melds_th = all(m.kind != "chow" and m.tile in TH for m in melds)
    return melds_th and all(x == 0 or t in TH for t, x in enumerate(c))


def reference_with(tiles, melds, bao, wild_13lang, wild_jiuyao, fifth_copy, pung_melds):
    """``reference`` under the shape options: a 宝 that is not wild in 十三浪 / 九幺 counts
    as its own face there; without fifth copies no reading takes a face past four copies
    (melds included); without pung melds 九幺 takes no meld."""
    nat = counts_of(t for t in tiles if t != bao)
    w = len(tiles) - sum(nat)
    melded = counts_of(t for m in melds for t in m.tiles)
    total = [a + b for a, b in zip(nat, melded, strict=True)]
    everything = counts_of(tiles)
    if not melds and wild_13lang is False and natural_lang(everything):
        return True
    if not wild_jiuyao and jiuyao_shape(everything, melds, pung_melds):
        return True
    for faces in itertools.combinations_with_replacement(wild_faces(nat, total), w):
        c = list(nat)
        for f in faces:
            c[f] += 1
        if not fifth_copy and any(c[f] + melded[f] > 4 for f in range(34)):
            continue
        if natural_basic(c):
            return True
        if not melds and sum(c) == 14 and all(x in (0, 2, 4) for x in c):
            return True
        if wild_jiuyao and jiuyao_shape(c, melds, pung_melds):
            return True
    if melds or not wild_13lang:
        return False
    for faces in itertools.combinations([f for f in range(34) if nat[f] == 0], w):
        c = list(nat)
        for f in faces:
            c[f] = 1
        if natural_lang(c):
            return True
    return False


SHAPE_OPTIONS = [
    {"bao_wild_in_13lang": False},
    {"bao_wild_in_jiuyao": False},
    {"bao_wild_fifth_copy": False},
    {"jiuyao_allows_pung_melds": False},
    {
        "bao_wild_in_13lang": False,
        "bao_wild_in_jiuyao": False,
        "bao_wild_fifth_copy": False,
        "jiuyao_allows_pung_melds": False,
    },
]


@pytest.mark.parametrize("opts", SHAPE_OPTIONS, ids=lambda o: ",".join(o))
def test_shape_options_equal_enumeration(opts):
    """is_win, shanten, waits and useful_tiles under each D-7 / D-15 option setting agree
    with enumerating the faces the 宝 may read under that setting."""
    r = mj.RuleSet("huainan", **opts)
    flags = {
        "wild_13lang": opts.get("bao_wild_in_13lang", True),
        "wild_jiuyao": opts.get("bao_wild_in_jiuyao", True),
        "fifth_copy": opts.get("bao_wild_fifth_copy", True),
        "pung_melds": opts.get("jiuyao_allows_pung_melds", True),
    }
    rng = random.Random(sum(len(k) * (i + 1) for i, k in enumerate(opts)))
    wins = differ = waiting = 0
    for _ in range(1200):
        conc, melds, bao = random_hand(rng)
        want = reference_with(conc, melds, bao, **flags)
        got = mj.is_win(conc, melds, rules=r, wild=bao)
        assert got == want, (mj.format_tiles(conc), [str(m.tiles) for m in melds], bao)
        assert (mj.shanten(conc, melds, rules=r, wild=bao) == -1) == want
        wins += want
        differ += want != mj.is_win(conc, melds, rules="huainan", wild=bao)
        hand = conc[:-1]
        total = counts_of(hand + [t for m in melds for t in m.tiles])
        waits = mj.waits(hand, melds, rules=r, wild=bao)
        room = [t for t in range(34) if total[t] < 4]
        assert waits == [t for t in room if mj.is_win(hand + [t], melds, rules=r, wild=bao)]
        s = mj.shanten(hand, melds, rules=r, wild=bao)
        if waits:
            assert s == 0, (mj.format_tiles(hand), bao)
        if s != 0:
            # Useful tiles: the draws that lower the shanten.
            useful = mj.useful_tiles(hand, melds, rules=r, wild=bao)
            assert useful == [
                t for t in room if mj.shanten(hand + [t], melds, rules=r, wild=bao) < s
            ]
        waiting += bool(waits)
    assert wins > 150 and waiting > 150, (wins, waiting)
    # Each setting changes some answers against the defaults on these hands (九幺 with
    # pung melds is covered by the examples: these random 九幺 hands have no melds).
    assert differ > 0 or opts == {"jiuyao_allows_pung_melds": False}


def test_shape_options_examples():
    no13 = mj.RuleSet("huainan", bao_wild_in_13lang=False)
    assert mj.is_win("147m258p36s2m12345z", rules="huainan", wild="2m")
    assert not mj.is_win("147m258p36s2m12345z", rules=no13, wild="2m")
    assert mj.shanten_forms("147m258p36s2m1234z", rules=no13, wild="2m")["shisanlang"] == 1
    noj = mj.RuleSet("huainan", bao_wild_in_jiuyao=False)
    assert not mj.is_win("119m19p19s123456z5s", rules=noj, wild="5s")
    assert mj.waits("119m19p19s123456z", rules=noj, wild="5s") == TH
    assert mj.useful_tiles("119m19p19s12345z5p", rules=noj, wild="5p", form="jiuyao") == TH
    no5 = mj.RuleSet("huainan", bao_wild_fifth_copy=False)
    four = [mj.Meld("pung", "555p"), mj.Meld("pung", "666p"), mj.Meld("chow", "234m")]
    four.append(mj.Meld("chow", "567s"))
    assert mj.waits("5p", four, rules=no5, wild="6z") == []
    assert mj.shanten("5p", four, rules=no5, wild="6z") == 1
    nop = mj.RuleSet("huainan", jiuyao_allows_pung_melds=False)
    melds = [mj.Meld("pung", "111z")]
    assert not mj.is_win("119m19p19s2344z", melds, rules=nop)
    assert "jiuyao" not in mj.shanten_forms("119m19p19s2344z", melds, rules=nop)
    with pytest.raises(mj.InvalidHandError, match="jiuyao"):
        mj.useful_tiles("119m19p19s234z", melds, rules=nop, form="jiuyao")
