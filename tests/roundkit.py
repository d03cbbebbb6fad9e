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
