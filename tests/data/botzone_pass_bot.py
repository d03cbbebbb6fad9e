"""A small Botzone-protocol bot for the tests (simple IO, keep-running).

It tracks its own hand from the requests, wins whenever told to try (``--hu``), pungs a
discard it holds two of, and otherwise discards the tile it drew. ``--bad`` makes it
answer an illegal move on every draw; ``--slow`` makes it sleep past any time limit on
its third draw.
"""

import sys
import time

NAMES = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + [
    "F1",
    "F2",
    "F3",
    "F4",
    "J1",
    "J2",
    "J3",
]


def main() -> None:
    bad = "--bad" in sys.argv
    slow = "--slow" in sys.argv
    hand: list[str] = []
    me = -1
    draws = 0
    last_response = "PASS"

    def answer(text: str) -> None:
        nonlocal last_response
        last_response = text
        print(text)
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)

    def handle(req: str) -> str:
        nonlocal me, draws
        w = req.split()
        if w[0] == "0":
            me = int(w[1])
            return "PASS"
        if w[0] == "1":
            hand[:] = w[5:18]
            return "PASS"
        if w[0] == "2":
            draws += 1
            hand.append(w[1])
            if slow and draws == 3 and live[0]:
                time.sleep(3)
            if bad:
                return "PLAY H1"
            return f"PLAY {w[1]}"
        p, op = int(w[1]), w[2]
        if p == me:
            if op == "PLAY":
                hand.remove(w[3])
            elif op == "PENG":
                tile = prev_tile[0]
                hand.remove(tile)
                hand.remove(tile)
                hand.remove(w[3])
            return "PASS"
        if op in ("PLAY", "PENG", "CHI"):
            prev_tile[0] = w[-1]
            if hand.count(w[-1]) >= 2 and len(hand) > 4:
                # Pung and discard the first other tile.
                rest = [t for t in hand if t != w[-1]]
                return f"PENG {rest[0]}"
        return "PASS"

    prev_tile = [""]
    live = [False]  # False while replaying the history of a restart
    first = sys.stdin.readline()
    n = int(first)
    lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
    for i in range(0, len(lines) - 1, 2):
        handle(lines[i])
    live[0] = True
    answer(handle(lines[-1]))
    for line in sys.stdin:
        if line.strip():
            answer(handle(line.strip()))


if __name__ == "__main__":
    main()
