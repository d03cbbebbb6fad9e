"""Fit the expert's learned defense (rust/policy/strong/danger_model.rs) on self-play.

Regenerating the shipped weights (a few minutes on two cores)::

    maturin develop --release
    python benches/train_danger.py --write
    cargo fmt && maturin develop --release

plays ``--train-hands`` hands seeded ``--train-seed`` and ``--test-hands`` hands seeded
``--test-seed`` with ``_core.danger_samples`` (four strong bots by default: the opponents
the expert is measured against, whose play the weights do not change), fits

- the ready model: ``P(ready) = sigmoid(w_r . seat_x)`` on every (decision, opponent) row;
- the wait model: ``P(deal_in | ready) = sigmoid(w_w . [seat_x, tile_x])`` on the rows
  whose opponent was ready, except the passed kinds (discarded by another seat after the
  opponent's last discard, which its unchanged hand did not win on): those get one
  constant, their observed rate (a few are wins that 和绝张 has lifted to the minimum since),

by Newton's method (iteratively reweighted least squares) with an L2 penalty ``--l2`` on
every weight but the bias, and prints, on the held-out hands, the log-loss, the Brier
score and a calibration table (deciles of the prediction: mean predicted against observed)
of the learned chances against the hand-made model's (``h_ready``, ``h_danger``) on the
same rows. ``--write`` replaces the weight tables between the ``BEGIN WEIGHTS`` and
``END WEIGHTS`` markers of danger_model.rs (rebuild the extension afterwards).

The features and labels are described in rust/policy/strong/danger_data.rs and
danger_model.rs. Nothing beyond numpy is needed.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import numpy as np

from majiang import _core

MODEL = Path(__file__).resolve().parent.parent / "rust" / "policy" / "strong" / "danger_model.rs"


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def fit(x: np.ndarray, y: np.ndarray, l2: float, iters: int = 25) -> np.ndarray:
    """Logistic regression by Newton's method; column 0 is the (unpenalised) bias."""
    x = x.astype(np.float64)
    y = y.astype(np.float64)
    n, p = x.shape
    w = np.zeros(p)
    w[0] = np.log((y.mean() + 1e-9) / (1.0 - y.mean() + 1e-9))
    pen = np.full(p, l2 * n / 1e4)
    pen[0] = 0.0
    for _ in range(iters):
        q = sigmoid(x @ w)
        g = x.T @ (q - y) + pen * w
        h = (x * (q * (1.0 - q))[:, None]).T @ x + np.diag(pen + 1e-9)
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p.astype(np.float64), 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(((p.astype(np.float64) - y) ** 2).mean())


def calibration(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[tuple[float, float, int]]:
    """(mean predicted, observed rate, rows) per decile of the prediction."""
    order = np.argsort(p, kind="stable")
    out = []
    for part in np.array_split(order, bins):
        out.append((float(p[part].mean()), float(y[part].mean()), len(part)))
    return out


def report(name: str, preds: dict[str, np.ndarray], y: np.ndarray) -> None:
    print(f"\n{name}: {len(y)} rows, observed rate {y.mean():.4f}")
    for k, p in preds.items():
        print(
            f"  {k:10s} log-loss {log_loss(p, y):.5f}  Brier {brier(p, y):.5f}  mean {p.mean():.4f}"
        )
    print("  deciles: " + "  ".join(f"{k} (pred/obs)" for k in preds))
    tables = {k: calibration(p, y) for k, p in preds.items()}
    for i in range(10):
        print("   ", "   ".join(f"{tables[k][i][0]:.4f}/{tables[k][i][1]:.4f}" for k in preds))


def samples(hands: int, seed: int, bots: str) -> dict:
    """The rows of ``hands`` hands seeded ``seed``; ``bots`` may name several tables
    separated by ``+`` (each a bot or four comma-separated bots), each playing ``hands``
    hands, their rows concatenated."""
    parts = []
    for table in bots.split("+"):
        t = time.time()
        d = _core.danger_samples(hands, seed, bots=table)
        took = time.time() - t
        print(f"{table}: {hands} hands seed {seed}: {len(d['ready'])} seat rows, ", end="")
        print(f"{len(d['deal_in'])} tile rows ({took:.0f} s)")
        parts.append(d)
    return concat(parts)


def concat(parts: list[dict]) -> dict:
    """The rows of several ``danger_samples`` results, the tile rows' ``seat_row`` shifted
    to the concatenated seat rows."""
    if len(parts) == 1:
        return parts[0]
    out = {}
    for k, v in parts[0].items():
        if not isinstance(v, np.ndarray):
            out[k] = v
        elif k == "seat_row":
            offsets = np.cumsum([0] + [len(p["ready"]) for p in parts[:-1]])
            out[k] = np.concatenate([p[k] + o for p, o in zip(parts, offsets, strict=True)])
        else:
            out[k] = np.concatenate([p[k] for p in parts])
    return out


def wait_x(d: dict) -> np.ndarray:
    return np.hstack([d["seat_x"][d["seat_row"]], d["tile_x"]])


def passed(d: dict, names: list[str]) -> np.ndarray:
    return d["tile_x"][:, names.index("passed_last")] > 0.5


def predict_wait(
    x: np.ndarray, is_passed: np.ndarray, w: np.ndarray, passed_rate: float
) -> np.ndarray:
    return np.where(is_passed, passed_rate, sigmoid(x.astype(np.float64) @ w))


def rust_float(v: float) -> str:
    """Seven significant digits, written as the shortest literal of that f32."""
    return np.format_float_positional(np.float32(float(f"{v:.6e}")), unique=True, trim="0")


def rust_table(name: str, doc: str, w: np.ndarray, names: list[str]) -> str:
    lines = [f"/// {line}" for line in doc.splitlines()]
    lines.append(f"pub const {name}: [f32; {len(w)}] = [")
    for v, n in zip(w, names, strict=True):
        lines.append(f"    {rust_float(v)}, // {n}")
    lines.append("];")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train-hands", type=int, default=1500)
    ap.add_argument("--train-seed", type=int, default=1)
    ap.add_argument("--test-hands", type=int, default=800)
    ap.add_argument("--test-seed", type=int, default=2)
    ap.add_argument(
        "--bots",
        default="strong",
        help="the table: a bot, four comma-separated bots, or several tables joined by +",
    )
    ap.add_argument("--l2", type=float, default=0.1)
    ap.add_argument("--write", action="store_true", help="write the weights into danger_model.rs")
    a = ap.parse_args()

    train = samples(a.train_hands, a.train_seed, a.bots)
    seat_names = list(train["seat_features"])
    tile_names = list(train["tile_features"])

    w_ready = fit(train["seat_x"], train["ready"], a.l2)
    on = train["ready"][train["seat_row"]] == 1
    is_passed = passed(train, tile_names)
    fit_rows = on & ~is_passed
    w_wait = fit(wait_x(train)[fit_rows], train["deal_in"][fit_rows], a.l2)
    pr = on & is_passed
    passed_rate = float((train["deal_in"][pr].sum() + 1.0) / (pr.sum() + 2.0))
    print(f"passed kinds of ready opponents: {pr.sum()} rows, {train['deal_in'][pr].sum()} wins")
    del train

    test = samples(a.test_hands, a.test_seed, a.bots)
    p_ready = sigmoid(test["seat_x"].astype(np.float64) @ w_ready)
    p_wait = predict_wait(wait_x(test), passed(test, tile_names), w_wait, passed_rate)
    p_deal = p_ready[test["seat_row"]] * p_wait
    report("ready (held out)", {"hand-made": test["h_ready"], "learned": p_ready}, test["ready"])
    report(
        "deal-in (held out)", {"hand-made": test["h_danger"], "learned": p_deal}, test["deal_in"]
    )
    on = test["ready"][test["seat_row"]] == 1
    report("wait given ready (held out)", {"learned": p_wait[on]}, test["deal_in"][on])

    print("\nready weights:")
    for n, v in zip(seat_names, w_ready, strict=True):
        print(f"  {n:22s} {v:+.3f}")
    print("wait weights:")
    for n, v in zip(seat_names + tile_names, w_wait, strict=True):
        print(f"  {n:22s} {v:+.3f}")

    print(f"passed kinds: {passed_rate:.3g}")

    if a.write:
        src = (
            f"`--train-hands {a.train_hands} --train-seed {a.train_seed}"
            f" --bots {a.bots} --l2 {a.l2}`"
        )
        block = "\n\n".join(
            [
                rust_table(
                    "READY_WEIGHTS",
                    "Weights of the ready model, in [`SEAT_FEATURES`] order: fitted by\n"
                    f"`benches/train_danger.py` on gb self-play,\n{src}.",
                    w_ready,
                    seat_names,
                ),
                rust_table(
                    "WAIT_WEIGHTS",
                    "Weights of the wait model, [`SEAT_FEATURES`] then [`TILE_FEATURES`]: fitted\n"
                    f"on the ready rows of the same data,\n{src}.",
                    w_wait,
                    seat_names + tile_names,
                ),
                "/// The chance that a passed kind (see [`OpponentReading::wait`]) wins for a"
                " ready\n"
                f"/// opponent: its observed rate in the same data,\n/// {src}.\n"
                f"pub const PASSED_WAIT: f32 = {rust_float(passed_rate)};",
            ]
        )
        text = MODEL.read_text()
        new = re.sub(
            r"(// BEGIN WEIGHTS[^\n]*\n).*?(\n// END WEIGHTS)",
            lambda m: m.group(1) + block + m.group(2),
            text,
            flags=re.S,
        )
        MODEL.write_text(new)
        print(f"\nwrote {MODEL}")


if __name__ == "__main__":
    main()
