"""Huainan (淮南麻将) with four wild 宝 tiles: choosing the 宝, the 宝吊头 state and the
scoring of a finished hand (docs/rules/huainan.md).

>>> import majiang as mj
>>> mj.bao_for_indicator("9m") == mj.parse_tiles("1m")[0]
True
>>> s = mj.score_huainan("5p123m456m789s234s", "7z", wild="5p", self_drawn=True)
>>> (s.form, s.value)
('baodiaotou', 2)
"""

from ._core import (
    HuainanScore,
    bao_for_indicator,
    bao_indicator_index,
    is_bao_diaotou,
    score_huainan,
    score_huainan_special,
)

__all__ = [
    "HuainanScore",
    "bao_for_indicator",
    "bao_indicator_index",
    "is_bao_diaotou",
    "score_huainan",
    "score_huainan_special",
]
