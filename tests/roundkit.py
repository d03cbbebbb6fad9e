"""Helpers for tests that drive a `Round` by hand on an arranged wall."""

import majiang as mj

A = mj.Action
T = mj.parse_tiles


def t(s):
    """The one tile code of MPSZ text such as ``"5p"``."""
    (x,) = T(s)
    return x


def pass_all(r):
    """Every seat with a pending claim or robbing decision passes."""
    if r.phase not in ("claim", "rob_kong"):
        return
    for s in r.pending:
        r.apply(s, A("pass"))


def discard_drawn(r):
    """The seat to act discards what it drew; any claim window is passed."""
    assert r.phase == "turn"
    r.apply(r.turn, A("discard", r.drawn))
    pass_all(r)


def others(*used):
    """Three 13-tile hands of plain tiles that leave `used` (MPSZ text) possible."""
    left = [4] * 34
    for u in used:
        for x in T(u):
            left[x] -= 1
    pool = [x for x in (27, 28, 29, 30, 31, 32, 33, *range(27)) for _ in range(left[x])]
    return [pool[13 * k : 13 * k + 13] for k in range(3)]


def first_turn(hand):
    """Seat 0's view when it deals itself `hand` (14 tiles): its first turn."""
    r = mj.Round("gb", seed=0, hands=[hand, *others(hand)])
    assert r.pending == (0,)
    return r.observation(0)


def first_claim(hand, tile):
    """Seat 0's view (holding `hand`, 13 tiles) when seat 3 deals and discards `tile` at
    once."""
    a, b, c = others(hand, tile)
    r = mj.Round("gb", seed=0, dealer=3, hands=[hand, a, b, c[1:] + [t(tile)] + c[:1]])
    r.apply(3, A("discard", tile))
    assert r.phase == "claim" and 0 in r.pending
    return r.observation(0)
