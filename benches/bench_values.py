"""Cost of ``ExpertBot.value_of_options`` per decision: the decisions of seat 0 in hands
four strong bots play (gb and classic), each valued with a given number of sampled deals
and playout bot; wall clock (ms) and playouts per decision, median and mean, and the
standard errors the values come with.

Run: ``python benches/bench_values.py [--hands 2] [--samples 32 64] [--playout expert]``.
Single-threaded (the playouts of one decision run on one core).
"""

from __future__ import annotations

import argparse
import statistics
import time

import majiang as mj
from majiang.bots import ExpertBot, StrongBot


def decisions(rules: str, hands: int) -> list[mj.Observation]:
    """Seat 0's observations with a choice in ``hands`` hands of four strong bots."""
    out = []
    for seed in range(hands):
        bots = [StrongBot(seed=s) for s in range(4)]
        r = mj.Round(rules, 100 + seed)
        while not r.is_over:
            s = r.pending[0]
            o = r.observation(s)
            if s == 0 and len(o.legal_actions) > 1:
                out.append(o)
            r.apply(s, bots[s].act(o))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=2)
    p.add_argument("--samples", type=int, nargs="+", default=[32, 64])
    p.add_argument("--playout", nargs="+", default=["expert", "efficiency"])
    p.add_argument("--rules", nargs="+", default=["gb", "classic"])
    a = p.parse_args()
    print(
        "rules    playout     samples  decisions  ms/decision (median, mean)  "
        "playouts/decision  mean s.e."
    )
    for rules in a.rules:
        obs = decisions(rules, a.hands)
        for playout in a.playout:
            for n in a.samples:
                bot = ExpertBot(seed=0, samples=n, playout=playout)
                ms, playouts, ses = [], [], []
                for o in obs:
                    t = time.perf_counter()
                    v = bot.value_of_options(o)
                    ms.append(1000 * (time.perf_counter() - t))
                    playouts.append(v.playouts)
                    ses.extend(x.std_err for x in v)
                print(
                    f"{rules:<8} {playout:<11} {n:>7} {len(obs):>10}  "
                    f"{statistics.median(ms):>10.0f} {statistics.fmean(ms):>8.0f}        "
                    f"{statistics.fmean(playouts):>14.0f}  {statistics.fmean(ses):>9.2f}"
                )


if __name__ == "__main__":
    main()
