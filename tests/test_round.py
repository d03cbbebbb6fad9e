"""The Round API: stepping, observations that hide what a seat cannot see, events, and a
random-play smoke test over a few thousand hands checking the invariants."""

import random

import pytest

import majiang as mj

A = mj.Action


def test_actions_are_values():
    assert A("discard", "5m") == A("discard", 4)
    assert hash(A("pung", "1z")) == hash(A("pung", 27))
    assert A("chow", "3m").tile == 2 and A("win").tile is None
    assert repr(A("discard", 4)) == 'Action("discard", "5m")'
    assert str(A("chow", "3m")) == "chow 345m"
    assert A.from_code(A("kong", "9s").code) == A("kong", "9s")
    import pickle

    assert pickle.loads(pickle.dumps(A("ready", "1p"))) == A("ready", "1p")
    with pytest.raises(mj.IllegalActionError, match="needs a tile"):
        A("discard")
    with pytest.raises(mj.IllegalActionError, match="lowest tile"):
        A("chow", "8m")
    with pytest.raises(mj.InvalidHandError):
        A("discard", 99)


def test_a_fresh_round_waits_for_the_dealer():
    r = mj.Round("gb", seed=5, dealer=1, prevalent_wind=2)
    assert r.phase == "turn" and r.pending == (1,) and r.turn == 1
    assert r.dealer == 1 and r.prevalent_wind == 2
    assert len(r.hand(1)) == 14 and all(len(r.hand(s)) == 13 for s in (0, 2, 3))
    obs = r.observation(1)
    assert obs.seat == 1 and obs.seat_wind == 0 and obs.prevalent_wind == 2
    assert obs.hand == r.hand(1) and sum(obs.counts) == 14
    assert obs.legal_actions == r.legal_actions(1)
    assert all(a.kind in ("discard", "win", "concealed_kong") for a in obs.legal_actions)
    assert r.observation(2).legal_actions == []
    assert r.observation(2).seat_wind == 1
    assert "Round(" in repr(r) and "Observation(" in repr(obs)


def test_observations_hide_other_hands_and_draws():
    r = mj.Round("gb", seed=8)
    r.apply(
        0,
        r.legal_actions(0)[-1]
        if r.legal_actions(0)[-1].kind == "discard"
        else r.legal_actions(0)[0],
    )
    while r.phase == "claim":
        for s in r.pending:
            r.apply(s, A("pass"))
    seat = r.turn
    other = (seat + 1) % 4
    mine = r.events(seat=seat)
    theirs = r.events(seat=other)
    assert mine[-1]["type"] == "draw" and mine[-1]["tile"] is not None
    assert theirs[-1] == {"type": "draw", "seat": seat, "tile": None, "tail": False}
    deal = [e for e in theirs if e["type"] == "deal"]
    assert all(all(x is None for x in e["tiles"]) for e in deal if e["seat"] != other)
    assert all(x is not None for e in deal if e["seat"] == other for x in e["tiles"])
    obs = r.observation(other)
    assert obs.hand == r.hand(other)
    assert obs.hand_sizes == [len(r.hand(s)) for s in range(4)]
    assert obs.drawn is None and r.observation(seat).drawn == r.drawn
    # Snapshots do not change when the hand moves on.
    before = obs.wall_remaining
    r.apply(seat, A("discard", r.drawn))
    assert obs.wall_remaining == before


def test_a_round_can_be_copied_for_look_ahead():
    import copy

    r = mj.Round("gb", seed=4)
    c = copy.copy(r)
    c.apply(0, [a for a in c.legal_actions(0) if a.kind == "discard"][0])
    assert r.n_events < c.n_events and r.phase == "turn"
    d = copy.deepcopy(r)
    assert d.events() == r.events() and d.clone().hand(0) == r.hand(0)


def test_poll_events_has_a_cursor_per_viewer():
    r = mj.Round("gb", seed=3)
    first = r.poll_events()
    assert first[0]["type"] == "dice" and r.poll_events() == []
    assert len(r.poll_events(seat=2)) == len(first)
    r.apply(0, [a for a in r.legal_actions(0) if a.kind == "discard"][0])
    new = r.poll_events()
    assert new[0]["type"] == "discard"
    assert r.poll_events(seat=2)[0]["type"] == "discard"
    assert r.n_events == len(r.events())
    assert [len(x) for x in (r.events_json(),)] == [r.n_events]


def test_bad_arguments():
    with pytest.raises(ValueError, match="dealer must be a seat"):
        mj.Round("gb", dealer=4)
    with pytest.raises(mj.RuleError):
        mj.Round("riichi")
    with pytest.raises(mj.InvalidHandError, match="14 tiles"):
        mj.Round("gb", hands=["123m", "", "", ""])
    with pytest.raises(mj.InvalidHandError, match="too many copies"):
        mj.Round("gb", hands=["11111m456p789s123z", "1m" * 13, "2m" * 13, "3m" * 13])
    with pytest.raises(ValueError, match="seat must be a seat, 0-3, got 9"):
        mj.Round("gb").observation(9)


def _conserved(r, n_tiles):
    n = r.wall_remaining
    for s in range(4):
        n += len(r.hand(s)) + len(r.flowers(s)) + sum(len(m) for m in r.melds(s))
    obs = r.observation(0)
    n += sum(1 for (_, _, claimed, _) in obs.discard_log if not claimed)
    if r.phase == "rob_kong":
        n += 1
    return n == n_tiles


@pytest.mark.parametrize("rules, n_tiles, hands", [("gb", 144, 2000), ("classic", 136, 1000)])
def test_random_hands_keep_the_invariants(rules, n_tiles, hands):
    rng = random.Random(7)
    wins = 0
    minimum = mj.RuleSet(rules).options()["min_fan"]
    for seed in range(hands):
        r = mj.Round(rules, seed=seed, dealer=seed % 4)
        steps = 0
        while not r.is_over:
            pending = r.pending
            assert pending
            for s in pending:
                acts = r.legal_actions(s)
                assert acts
                r.apply(s, rng.choice(acts))
            steps += 1
            if steps % 16 == 0:
                assert _conserved(r, n_tiles), seed
            for s in range(4):
                k = len(r.melds(s))
                assert len(r.hand(s)) in (13 - 3 * k, 14 - 3 * k)
        assert _conserved(r, n_tiles)
        res = r.result
        assert sum(res["deltas"]) == 0
        assert res["exhaustive"] == (not res["wins"])
        for w in res["wins"]:
            wins += 1
            melds = [mj.Meld(k, m) for k, m in w["melds"]]
            assert mj.is_win(w["hand"], melds)
            assert w["fan_total"] - w["flowers"] >= minimum
            assert w["deltas"][w["seat"]] > 0
    assert wins > 0


def _all_actions():
    out = []
    for code in range(9 * 64):
        try:
            out.append(A.from_code(code))
        except mj.IllegalActionError:
            pass
    return out


def test_arbitrary_actions_are_applied_only_when_legal():
    actions = _all_actions()
    assert len(actions) > 200
    rng = random.Random(3)
    for seed in range(40):
        r = mj.Round("gb" if seed % 2 else "classic", seed=seed)
        while not r.is_over:
            seat = rng.randrange(4)
            a = rng.choice(actions)
            legal = r.legal_actions(seat)
            if a in legal:
                r.apply(seat, a)
                continue
            before = r.n_events
            with pytest.raises(mj.IllegalActionError):
                r.apply(seat, a)
            assert r.n_events == before
            # Keep the hand moving.
            for s in r.pending:
                r.apply(s, rng.choice(r.legal_actions(s)))
        assert sum(r.result["deltas"]) == 0
        with pytest.raises(mj.IllegalActionError, match="over"):
            r.apply(0, A("pass"))
