"""The Botzone protocol: tile names, requests and responses round-trip; the table a bot
builds from its requests; the rebuilt round a decision is taken on."""

import pytest

import majiang as mj
from majiang.botzone import (
    Deal,
    Draw,
    Move,
    Position,
    ProtocolError,
    Response,
    Table,
    format_request,
    format_response,
    parse_request,
    parse_response,
    tile_code,
    tile_name,
)


def test_tile_names_round_trip_in_code_order():
    names = [tile_name(c) for c in range(42)]
    assert names[:3] == ["W1", "W2", "W3"] and names[9] == "B1" and names[26] == "T9"
    assert names[27:34] == ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    assert names[34] == "H1" and names[41] == "H8"
    assert [tile_code(n) for n in names] == list(range(42))
    # J1 is 中 (red), J3 白 (white), as in majiang's 5z..7z order.
    assert mj.tile_name(tile_code("J1")) == "5z" and mj.tile_name(tile_code("J3")) == "7z"
    for bad in ("W0", "B10", "F5", "J4", "H9", "X1", "", "w1"):
        with pytest.raises(ProtocolError):
            tile_code(bad)
    with pytest.raises(ProtocolError):
        tile_name(42)


REQUESTS = [
    "0 2 1",
    "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2",
    "1 1 0 2 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2 H3 H1 H7",
    "2 J3",
    "3 1 DRAW",
    "3 1 BUHUA H5",
    "3 1 PLAY B3",
    "3 0 PENG W9",
    "3 3 CHI T5 F2",
    "3 2 GANG",
    "3 2 BUGANG W7",
]


@pytest.mark.parametrize("line", REQUESTS)
def test_requests_round_trip(line):
    assert format_request(parse_request(line)) == line


def test_requests_parse_to_their_fields():
    assert parse_request("0 2 1") == Position(2, 1)
    deal = parse_request(REQUESTS[2])
    assert isinstance(deal, Deal) and deal.flower_counts == (1, 0, 2, 0)
    assert deal.flowers == (36, 34, 40) and len(deal.hand) == 13
    assert parse_request("2 J3") == Draw(33)
    assert parse_request("3 3 CHI T5 F2") == Move(3, "CHI", (22, 28))
    assert parse_request("3 2 GANG") == Move(2, "GANG")


@pytest.mark.parametrize(
    "line",
    [
        "",
        "0 4 1",
        "1 0 0 0 0 W1 W2",
        "1 1 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2",
        "2",
        "2 H1 H2",
        "3 1 PLAY",
        "3 1 CHI T5",
        "3 1 GANG W1 W2",
        "3 5 DRAW",
        "4 1 PLAY W1",
    ],
)
def test_malformed_requests_are_refused(line):
    with pytest.raises(ProtocolError):
        parse_request(line)


@pytest.mark.parametrize(
    "line", ["PASS", "HU", "PLAY W5", "PENG J1", "CHI B2 T9", "GANG", "GANG F3", "BUGANG T1"]
)
def test_responses_round_trip(line):
    assert format_response(parse_response(line)) == line


def test_malformed_responses_are_refused():
    for line in ("", "PLAY", "CHI B2", "HU W1", "DRAW", "PASS W1"):
        with pytest.raises(ProtocolError):
            parse_response(line)
    with pytest.raises(ProtocolError):
        format_response(Response("PENG"))


def _table(*lines, answers=None):
    t = Table()
    answers = answers or {}
    for i, line in enumerate(lines):
        t.update(parse_request(line), answers.get(i))
    return t


DEAL = "1 0 0 0 0 W1 W1 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1"


def test_the_table_follows_claims_and_kongs():
    t = _table(
        "0 1 0",
        DEAL,
        "3 0 DRAW",
        "3 0 PLAY W4",
        "3 1 CHI W3 T9",  # the bot chows 234m on W4 (W2 W3 from its hand) and discards T9
        "3 2 DRAW",
        "3 2 PLAY F1",
        "3 3 PENG J1",  # another seat pungs F1; our F1 stay
        "3 0 DRAW",
        "3 0 PLAY B7",
        "2 W1",
        "3 1 GANG",  # our concealed kong of W1
        answers={11: Response("GANG", (0,))},
    )
    assert t.me == 1 and t.quan == 0
    assert sorted(t.hand) == sorted(mj.parse_tiles("456p78s11z"))
    assert t.melds[1] == [("chow", 1, 0), ("concealed_kong", 0, 1)]
    assert t.melds[3] == [("pung", 27, 2)]
    assert [d[2] for d in t.discards] == [True, False, True, False, False]
    assert t.taken == [2, 1, 1, 0]
    assert t.wall_remaining == 136 - 52 - 4 and t.wall_of(0) == 21 - 2


def test_another_seats_concealed_kong_is_hidden_and_a_discard_kong_is_exposed():
    t = _table("0 1 0", DEAL, "3 0 DRAW", "3 0 GANG", "3 0 DRAW", "3 0 PLAY J2", "3 2 GANG")
    assert t.melds[0] == [("concealed_kong", None, 0)]
    assert t.melds[2] == [("kong", 32, 0)]
    assert t.discards == [(0, 32, True)]


def test_inconsistent_requests_are_refused():
    with pytest.raises(ProtocolError):
        _table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W4", "3 1 PENG W9")
    with pytest.raises(ProtocolError):
        _table("0 1 0", "3 0 DRAW")
    with pytest.raises(ProtocolError):
        _table("0 1 0", DEAL, "2 W1", "3 1 GANG")  # our kong without our answer


def test_a_view_rebuilds_a_round_at_the_decision():
    t = _table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W4")
    r = mj.Round.from_view(mj.RuleSet("gb", flowers=False), t.view("claim", 0, 3), seed=4)
    assert r.phase == "claim" and r.wall_remaining == 136 - 53
    legal = r.legal_actions(1)
    assert {(a.kind, a.tile) for a in legal} == {("pass", None), ("chow", 1)}
    assert r.hand(1) == sorted(t.hand)


def test_malformed_views_raise():
    t = _table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W4")
    v = t.view("claim", 0, 3)
    with pytest.raises(mj.RuleError):
        mj.Round.from_view("gb", dict(v, claim=5))  # not the last discard
    with pytest.raises(mj.InvalidHandError):
        mj.Round.from_view("gb", dict(v, hand=v["hand"][:-1]))
    with pytest.raises(mj.InvalidArgumentError, match='the view needs "phase"'):
        mj.Round.from_view("gb", {k: x for k, x in v.items() if k != "phase"})
    with pytest.raises(mj.RuleError):
        mj.Round.from_view("gb", dict(v, wall_remaining=3))
