"""Names shown for the huainan forms and multipliers: the Chinese name and an English
gloss for each id the engine reports (``qing_pengpeng`` → 清碰碰糊, "pure all pungs").
"""

from __future__ import annotations

__all__ = ["HUAINAN_FORMS", "HUAINAN_MULTIPLIERS", "huainan_form", "huainan_multiplier"]

HUAINAN_FORMS: dict[str, tuple[str, str]] = {
    "pinghu": ("平糊", "plain win"),
    "pinghu_zimo": ("平糊自摸", "plain win, self-drawn"),
    "pengpeng": ("碰碰糊", "all pungs"),
    "qing_pengpeng": ("清碰碰糊", "pure all pungs (no wild used)"),
    "baodiaotou": ("宝吊头", "宝 waiting alone"),
    "baodiaobao": ("宝吊宝", "宝 waiting, won on a 宝"),
    "baodiao_wubao": ("宝吊无宝", "宝 waiting, finished with no wild"),
    "qidui": ("七对", "seven pairs"),
    "qing_qidui": ("清七对", "pure seven pairs"),
    "haohua_qidui": ("豪华七对", "luxury seven pairs"),
    "qing_haohua_qidui": ("清豪华七对", "pure luxury seven pairs"),
    "shisanlang": ("十三浪", "thirteen waves"),
    "qixing_shisanlang": ("七星十三浪", "thirteen waves with all seven honours"),
    "jiuyao": ("九幺", "terminals and honours"),
    "qixing_jiuyao": ("七星九幺", "terminals and honours with all seven honours"),
    "jiebao": ("接宝", "catching a discarded 宝"),
    "sigebao": ("四个宝", "four 宝 drawn"),
}
"""Form id → (Chinese name, English gloss)."""

HUAINAN_MULTIPLIERS: dict[str, tuple[str, str]] = {
    "touji": ("偷机", "stealing a chance (宝 wait after passing)"),
    "tianhu": ("天糊", "heavenly win"),
    "dihu": ("地糊", "earthly win"),
    "gangkai": ("杠开", "win on a kong replacement"),
    "qianggang": ("抢杠", "robbing a kong"),
    "dandiao": ("单吊", "single wait with four melds"),
    "feibao": ("飞宝", "a 宝 discarded earlier, ×2 each"),
}
"""Multiplier id → (Chinese name, English gloss)."""


def _ascii_safe(text: str) -> str:
    return text.replace("宝", "wild")


def huainan_form(key: str, ascii: bool = False) -> tuple[str, str]:
    """A form's ``(Chinese, English)`` names; with `ascii` the Chinese is left empty and
    宝 reads "wild". An unknown id is shown as it is."""
    zh, en = HUAINAN_FORMS.get(key, (key, key))
    return ("", _ascii_safe(en)) if ascii else (zh, en)


def huainan_multiplier(key: str, ascii: bool = False) -> tuple[str, str]:
    """A multiplier's ``(Chinese, English)`` names (see :func:`huainan_form`)."""
    zh, en = HUAINAN_MULTIPLIERS.get(key, (key, key))
    return ("", _ascii_safe(en)) if ascii else (zh, en)
