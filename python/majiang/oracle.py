"""The oracle part of the public API (re-exported by :mod:`majiang`).

Shanten, useful tiles, waits and complete hands for every GB hand form (regular, seven
pairs, thirteen orphans, honors-and-knitted, knitted straight), exact with respect to the
four-copy limit: copies in the hand and in the melds count, so a tile held four times is
never a wait and a block that would need a fifth copy is never counted.

All functions take ``hand, melds=(), *, rules="gb", wild=None``. ``hand`` is MPSZ text or a
sequence of tile codes; ``melds`` a sequence of :class:`majiang.Meld`. With
``rules="huainan"`` the forms are Huainan's: the basic form (``regular``), seven pairs
(``seven_pairs``), 十三浪 (``shisanlang``) and 九幺 (``jiuyao``), under the shape options of a
``RuleSet("huainan", ...)`` (docs/rules/huainan.md §6.1, §8.1); ``wild`` names the wild (宝)
kind: every tile of that kind in the hand is a wild that may stand for any tile, a fifth
copy included. Bad input
raises :class:`majiang.InvalidHandError` naming the problem.
"""

from ._core import is_win, shanten, shanten_batch, shanten_forms, useful_tiles, waits

__all__ = ["shanten", "shanten_forms", "useful_tiles", "waits", "is_win", "shanten_batch"]
