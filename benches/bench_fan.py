"""Fan evaluation: majiang against PyMahjongGB 1.4.0 on the same hands.

Run: ``python -m pytest benches/bench_fan.py --benchmark-only``. Every benchmark scores
the same list of winning hands (the seeded corpus of tests/test_fan_corpus.py), so the
per-round times compare directly: single calls from Python on both sides, and
majiang's numpy batch entry point.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import majiang as mj

MahjongGB = pytest.importorskip("MahjongGB")

_spec = importlib.util.spec_from_file_location(
    "fan_corpus", Path(__file__).resolve().parents[1] / "tests" / "test_fan_corpus.py"
)
assert _spec and _spec.loader
corpus = importlib.util.module_from_spec(_spec)
sys.modules["fan_corpus"] = corpus
_spec.loader.exec_module(corpus)

N = 20_000
HANDS = corpus.generate(N, seed=2024)
REF_ARGS = [corpus.to_reference(h) for h in HANDS]
OUR_ARGS = [corpus.to_majiang(h) for h in HANDS]
BATCH = corpus.to_batch(HANDS)


def _reference() -> int:
    calc = MahjongGB.MahjongFanCalculator
    n = 0
    for a in REF_ARGS:
        n += len(calc(*a, verbose=True))
    return n


def _single() -> int:
    ev = mj.evaluate_fan
    n = 0
    for hand, win, melds, kw in OUR_ARGS:
        n += len(ev(hand, win, melds, **kw).fans)
    return n


def _batch(threads: int | None = None) -> int:
    totals, _ = mj.evaluate_fan_batch(*BATCH, threads=threads)
    return int(totals.size)


def test_reference_calculator(benchmark):
    benchmark.extra_info["hands"] = N
    benchmark(_reference)


def test_evaluate_fan_single_calls(benchmark):
    benchmark.extra_info["hands"] = N
    benchmark(_single)


def test_evaluate_fan_batch(benchmark):
    benchmark.extra_info["hands"] = N
    benchmark(_batch)


def test_evaluate_fan_batch_one_thread(benchmark):
    benchmark.extra_info["hands"] = N
    benchmark(_batch, 1)
