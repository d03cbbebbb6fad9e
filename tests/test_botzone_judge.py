"""The Botzone preset against the judge's rules (judge/main.cpp of the competition's public
repository, docs/rules/botzone.md §6), written down here on their own: every action
majiang offers under ``mj.botzone.rules()`` is one the judge accepts, and every log
``write_log`` writes reads back (``read_log``) to the same scores — false wins by any seat
at any place in claim order, kongs at an empty own wall, the last tile of each wall."""

import json
import random

import majiang as mj
from majiang.botzone import judge_log, parse_log
from majiang.record import HandRecord, MatchRecord, round_from_wall

RULES = mj.botzone.rules()
Q = 34


# ---- the judge's acceptance rules, from judge/main.cpp -------------------------------------


def judge_accepts(r, seat, a):
    """Whether the judge takes ``a`` from ``seat`` now (its answer's form aside): what
    checkInputDRAW, checkInputPLAY1-3 and checkInputGANG take, and the wall checks of
    roundOutput after a claim."""
    hand = r.hand(seat)
    walls = r.seat_walls
    if r.phase == "turn":
        assert seat == r.turn
        if a.kind == "win":
            return r.drawn is not None  # HU answers a draw (the score is the calculator's)
        if a.kind == "discard":
            return a.tile in hand
        if a.kind in ("concealed_kong", "added_kong"):
            # GANG / BUGANG: a tile in one's own wall and in the next player's.
            if r.drawn is None or walls[seat] == 0 or walls[(seat + 1) % 4] == 0:
                return False
            if a.kind == "concealed_kong":
                return hand.count(a.tile) == 4
            return a.tile in hand and any(
                m.kind == "pung" and m.tile == a.tile for m in r.melds(seat)
            )
        return False
    d, x = r.claim
    if seat == d:
        return a.kind == "pass"
    if a.kind in ("pass", "win"):
        return True
    if r.phase == "rob_kong":
        return False  # only PASS or a robbing HU to BUGANG
    if walls[(d + 1) % 4] == 0:
        return False  # no PENG, CHI or GANG once the discarder's next player's wall is empty
    if a.kind == "pung":
        return a.tile == x and hand.count(x) >= 2
    if a.kind == "kong":
        return a.tile == x and hand.count(x) >= 3
    if a.kind == "chow":
        low = a.tile
        tiles = [low, low + 1, low + 2]
        if seat != (d + 1) % 4 or x >= 27 or x not in tiles or low % 9 > 6:
            return False
        tiles.remove(x)
        return all(t in hand for t in tiles)
    return False


def check_offers(r):
    """Every action majiang offers now is one the judge takes; after a pung or a chow the
    claim and the discard are one answer, so only discards follow."""
    for s in r.pending:
        for a in r.legal_actions(s):
            assert judge_accepts(r, s, a), (s, a, r.phase, r.hand(s), r.seat_walls)
        if r.phase == "turn" and r.drawn is None:
            assert {a.kind for a in r.legal_actions(s)} == {"discard"}


# ---- records and their logs -----------------------------------------------------------------


def record_of(r, seed=0):
    result = json.loads(json.dumps(r.result))
    hand = HandRecord(
        0, seed, r.dealer, r.prevalent_wind, [0] * 4, result, result["deltas"], r.events_json()
    )
    hand.wall = list(r.wall)
    return MatchRecord(
        "gb", RULES.options(), seed, 1, list("abcd"), [hand], result["deltas"], walls=True
    )


def round_trips(r, seed=0):
    """The finished round written as a judge log and read back: the same scores (Botzone
    player p is the seat p places after the dealer), and the record replays."""
    assert r.is_over
    log = judge_log(record_of(r, seed))
    back = parse_log(json.dumps(log))
    assert back.refusal is None
    d = r.dealer
    want = [r.result["deltas"][(d + p) % 4] for p in range(4)]
    assert back.final_scores == want
    assert log["log"][-1]["output"]["content"] == {str(p): x for p, x in enumerate(want)}
    back.replay()
    return back


def finish(r, bots):
    while not r.is_over:
        check_offers(r)
        s = r.pending[0]
        r.apply(s, bots[s].act(r.observation(s)))


def false_wins(r, bots, rng, seed):
    """At a discard or an added kong: each other seat's false (or true) win, alone and
    against a true win of another seat, on copies of the round; each read back."""
    kinds = set()
    if r.phase in ("claim", "rob_kong"):
        d = r.claim[0]
    elif r.phase == "turn" and r.drawn is not None and r.n_events:
        last = r.events(since=r.n_events - 2)
        if last[0]["type"] not in ("discard", "added_kong"):
            return kinds
        d = last[0]["seat"]
    else:
        return kinds
    winners = [s for s in r.pending if mj.Action("win") in r.legal_actions(s)]
    for k in (1, 2, 3):
        s = (d + k) % 4
        c = r.clone()
        try:
            c.apply(s, mj.Action("win"))
        except mj.IllegalActionError:
            continue  # the seat already answered this discard (one answer a player)
        for w in winners:
            if not c.is_over and w != s and w in c.pending:
                c.apply(w, mj.Action("win"))
        finish(c, bots)
        back = round_trips(c, seed)
        how = back.hands[0].events[-1]["type"]
        if how == "penalty":
            # The judge reads the answers in claim order from the discarder: a true win
            # before the false one stands, one after it is never read.
            before = [w for w in winners if (w - d) % 4 < k]
            assert not before, (s, winners)
            assert back.final_scores.count(10) == 3
        kinds.add((k, how, bool(winners), r.phase))
    return kinds


# ---- random hands -------------------------------------------------------------------------


def test_random_hands_offer_only_what_the_judge_accepts_and_their_logs_read_back():
    seen, ends = set(), set()
    for seed in range(12):
        rng = random.Random(seed)
        r = mj.Round(RULES, seed, seed % 4, (seed // 4) % 4)
        bots = [
            mj.bots.RandomBot(seed * 4 + s) if s % 2 else mj.bots.EfficiencyBot(seed=seed + s)
            for s in range(4)
        ]
        while not r.is_over:
            check_offers(r)
            if rng.random() < 0.04 or (r.phase == "claim" and rng.random() < 0.3):
                seen |= false_wins(r, bots, rng, seed)
            s = r.pending[0]
            r.apply(s, bots[s].act(r.observation(s)))
        round_trips(r, seed)
        ends.add(r.events()[-1]["type"])
    # False wins at each place in claim order, in open windows and closed ones, lost to a
    # true win and not; hands ending in a win and in a draw.
    assert {k for k, *_ in seen} == {1, 2, 3}
    assert {"win", "exhaustive_draw"} <= ends
    assert any(how == "penalty" and phase == "claim" for _, how, _, phase in seen)
    assert any(how == "penalty" and phase == "turn" for _, how, _, phase in seen)
    assert any(how == "win" and true for _, how, true, _ in seen)


# ---- arranged walls: the end of each private wall ------------------------------------------


def arranged(quarters, seed=1):
    """A round on private walls where seat ``i`` (the dealer 0) takes ``quarters[i]`` first
    (its deal, then its draws), each quarter filled up with what is left."""
    left = [4] * 34
    for q in quarters:
        for t in q:
            left[t] -= 1
    rest = [t for t in range(34) for _ in range(left[t])]
    random.Random(seed).shuffle(rest)
    wall = []
    for q in quarters:
        n = Q - len(q)
        wall += list(q) + rest[:n]
        del rest[:n]
    return round_from_wall(RULES, wall, 1, 0, 0)


def tsumogiri(r, take=lambda r, s, legal: None):
    """Every seat discards what it drew and passes every claim, unless ``take`` picks
    another action; the offers are checked on the way."""
    while not r.is_over:
        check_offers(r)
        s = r.pending[0]
        legal = r.legal_actions(s)
        a = take(r, s, legal)
        if a is None:
            turn = r.phase == "turn"
            a = mj.Action("discard", r.drawn) if turn else mj.Action("pass")
        r.apply(s, a)


W5 = 4
#: Twenty draws nobody needs (no W5, at most two of a kind).
FILL = [*range(9, 27), 0, 1]
SEAT1 = [W5] * 3 + [27] * 3 + [28] * 3 + [29] * 3 + [30]


def test_no_kong_on_ones_own_turn_at_an_empty_own_wall():
    # D1: seat 1 holds three W5 from the deal and draws the fourth as its wall's last tile
    # (its 21st draw), while seat 2's wall still holds one. The judge refuses GANG then:
    # majiang does not offer it.
    r = arranged([[], SEAT1 + FILL + [W5], [], []])
    offered = []

    def take(r, s, legal):
        if r.phase == "turn" and s == 1 and r.drawn == W5:
            offered.append((r.seat_walls, sorted(a.kind for a in legal if "kong" in a.kind)))
        return None

    tsumogiri(r, take)
    assert offered == [([0, 0, 1, 1], [])]
    round_trips(r)
    # One draw earlier, with a tile left in its wall, the kong is offered and taken.
    r = arranged([[], SEAT1 + FILL[:19] + [W5], [], []])
    took = []

    def kong(r, s, legal):
        a = mj.Action("concealed_kong", W5)
        if a in legal:
            took.append(r.seat_walls[1])
            return a
        return None

    tsumogiri(r, kong)
    assert took == [1]
    round_trips(r)


def test_a_kong_on_a_discard_at_an_empty_own_wall_ends_at_its_replacement():
    # D6: seat 1 holds three W5; seat 2 discards the fourth as its last draw, when seat 1's
    # own wall is empty and seat 3's (the discarder's next) holds one. The judge takes the
    # kong (it checks only the discarder's next wall) and the hand ends at the replacement.
    seat2 = [1] * 3 + [31] * 3 + [32] * 3 + [33] * 3 + [0]
    r = arranged([[], SEAT1, seat2 + FILL + [W5], []])
    konged = []

    def take(r, s, legal):
        a = mj.Action("kong", W5)
        if a in legal:
            konged.append(r.seat_walls)
            return a
        return None

    tsumogiri(r, take)
    assert konged == [[0, 0, 0, 1]]
    assert [e["type"] for e in r.events()[-2:]] == ["kong", "exhaustive_draw"]
    back = round_trips(r)
    log = judge_log(back)
    assert log["log"][-1]["output"]["display"]["action"] == "HUANG"
    requests = [e["output"]["content"]["0"] for e in log["log"][::2][:-1]]
    assert requests[-2:] == ["3 2 PLAY W5", "3 1 GANG"]


def test_false_wins_at_the_last_tile_of_each_wall():
    # Every seat discards what it draws to the end of the walls: at each of the last
    # discards (the discarder's next wall empty or about to be), any other seat's false win
    # ends the hand with the judge's penalty, and the log reads back.
    r = arranged([[], [], [], []], seed=5)
    bots = [mj.bots.FirstBot()] * 4
    seen = set()

    def take(r, s, legal):
        if r.wall_remaining <= 8:
            for k, how, _, phase in false_wins(r, bots, random.Random(0), 0):
                seen.add((k, how, phase, min(r.seat_walls)))
        if r.phase == "turn":
            return mj.Action("discard", r.drawn)
        return mj.Action("pass")

    tsumogiri(r, take)
    assert r.result["exhaustive"]
    round_trips(r)
    assert {k for k, how, *_ in seen if how == "penalty"} == {1, 2, 3}
    assert any(w == 0 for *_, w in seen)


def test_majiang_botzone_does_not_kong_at_an_empty_own_wall():
    # D2: a built-in player whose bot wants every kong it is offered (the round it rebuilds
    # from its view has one shared wall) answers GANG with a tile left in its own wall, and
    # plays a tile when the fourth W5 was its wall's last.
    from majiang.botzone import BotzonePlayer

    class Konger(BotzonePlayer):
        def _ask(self, phase, turn, claim=None):
            asked = super()._ask(phase, turn, claim)
            if asked is not None and phase == "turn":
                r, bot, a = asked
                kongs = [x for x in r.legal_actions(self.table.me) if x.kind == "concealed_kong"]
                return (r, bot, kongs[0]) if kongs else asked
            return asked

    held = SEAT1[:13]
    pool = [t for t in range(34) if t != W5 for _ in range(4 - held.count(t))]

    def requests(last):
        name = mj.botzone.tile_name
        lines = ["0 1 0", "1 0 0 0 0 " + " ".join(name(t) for t in held)]
        tiles = iter(pool)
        for k in range(last):
            lines += ["3 0 DRAW", f"3 0 PLAY {name(next(tiles))}"]
            if k < last - 1:
                t = name(next(tiles))
                lines += [f"2 {t}", f"3 1 PLAY {t}"]
                for p in (2, 3):
                    lines += [f"3 {p} DRAW", f"3 {p} PLAY {name(next(tiles))}"]
            else:
                lines.append("2 W5")
        return lines

    for last, want in ((20, "GANG W5"), (21, "PLAY W5")):
        p = Konger("efficiency", seed=1)
        answers = [p.step(line) for line in requests(last)]
        assert p.table.wall_of(1) == 21 - last
        assert answers[-1] == want
