"""Decision times of the expert bot beside the strong bot, in the same run.

Run: ``python benches/bench_expert.py [HANDS] [RULES]`` (default 200 hands of gb). Each
hand is played with ``expert`` or ``strong`` (alternating hands, so that both see the
same machine load) in seat 0 against three ``strong`` policies, through the Python
:class:`majiang.Round` API; every seat-0 decision with more than one legal action is
timed around ``Policy.choose``, after one untimed hand of each bot (the first decision
of a process builds the shared shanten tables, about two seconds). Prints the number of
decisions, the median, the 90th percentile and the largest time of each bot in
milliseconds.
"""

from __future__ import annotations

import statistics
import sys
import time

import majiang as mj
from majiang import _core


def decision_times(name: str, hands: range, rules: str = "gb") -> list[float]:
    """Times (s) of the `name` policy's seat-0 decisions with a choice in `hands`."""
    times: list[float] = []
    for h in hands:
        me = _core.Policy(name, rules=rules, seed=h)
        others = [_core.Policy("strong", rules=rules, seed=h * 4 + s) for s in (1, 2, 3)]
        r = mj.Round(rules, 9000 + h, h % 4, 0)
        while r.pending:
            seat = r.pending[0]
            obs = r.observation(seat)
            if seat == 0:
                t0 = time.perf_counter()
                a = me.choose(obs)
                dt = time.perf_counter() - t0
                if len(obs.legal_actions) > 1:
                    times.append(dt)
            else:
                a = others[seat - 1].choose(obs)
            r.apply(seat, a)
    return times


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rules = sys.argv[2] if len(sys.argv) > 2 else "gb"
    times: dict[str, list[float]] = {"expert": [], "strong": []}
    for name in times:
        decision_times(name, range(hands, hands + 1), rules)
    for h in range(hands):
        name = "expert" if h % 2 == 0 else "strong"
        times[name] += decision_times(name, range(h, h + 1), rules)
    for name, ts in times.items():
        ms = [t * 1000 for t in ts]
        print(
            f"{name:7s} {rules}: {len(ms)} decisions, median {statistics.median(ms):.3f} ms, "
            f"p90 {_quantile(ms, 0.9):.3f} ms, max {max(ms):.1f} ms"
        )


if __name__ == "__main__":
    main()
