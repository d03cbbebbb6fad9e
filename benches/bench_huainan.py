"""Huainan oracle speed: wild-aware ``is_win`` and ``shanten`` per call, next to the same
calls without wilds on the same hands (huainan without a 宝, and gb).

Run: ``python -m pytest benches/bench_huainan.py --benchmark-only``. Each benchmark runs the
whole corpus once per round; divide by ``len(CORPUS)`` for the cost of one call.
"""

import random

import pytest

import majiang as mj

N = 1000


def _corpus(seed, size):
    rng = random.Random(seed)
    out = []
    while len(out) < N:
        tiles = rng.sample([t for t in range(34) for _ in range(4)], size)
        bao = rng.choice(tiles) if rng.random() < 0.8 else rng.randrange(34)
        out.append((tiles, bao))
    return out


FULL = _corpus(1, 14)
WAITING = _corpus(2, 13)


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("huainan_wild", {"rules": "huainan", "wild": True}),
        ("huainan_no_wild", {"rules": "huainan"}),
        ("gb", {"rules": "gb"}),
    ],
)
@pytest.mark.parametrize("call", ["is_win", "shanten"])
def test_oracle_call(benchmark, call, name, kwargs):
    fn = getattr(mj, call)
    corpus = FULL if call == "is_win" else WAITING
    rules = kwargs["rules"]
    if kwargs.get("wild"):

        def go():
            for tiles, bao in corpus:
                fn(tiles, rules=rules, wild=bao)
    else:

        def go():
            for tiles, _ in corpus:
                fn(tiles, rules=rules)

    benchmark.group = call
    benchmark.extra_info["calls_per_round"] = len(corpus)
    benchmark(go)


def test_score_huainan(benchmark):
    hands = [
        ("5p123m456m789s234s", "7z", "5p"),
        ("123m456m789s234p9s", "9s", "5p"),
        ("11m33m55p77p22s44s9m", "6z", "9m"),
        ("147m258p36s2m1234z", "5z", "2m"),
    ] * 250

    def go():
        for hand, win, wild in hands:
            mj.score_huainan(hand, win, wild=wild, self_drawn=True)

    benchmark.extra_info["calls_per_round"] = len(hands)
    benchmark(go)
