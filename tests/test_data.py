"""majiang.data: real games in (Botzone logs, IJCAI dumps, human match files), every game
replayed through the engine, training samples out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import datakit
import majiang as mj
from majiang import data
from majiang.env import N_ACTIONS, N_PLANES, action_to_index, index_to_action

REAL = Path(__file__).parent / "data" / "real"
PASS = action_to_index(mj.Action("pass"))


def test_the_fixtures_of_each_format_replay_to_their_logged_results():
    ij = data.read_ijcai(REAL / "ijcai.txt")
    assert [g.entry for g in ij] == [f"Match {m}" for m in ("1000", "1002", "1004", "1006")]
    outcomes = set()
    for g in ij:
        r = g.replay()
        assert r.is_over and r.result == g.result and g.format == "ijcai"
        outcomes.add("huang" if not g.result["wins"] else g.result["wins"][0]["how"])
    assert outcomes == {"discard", "self_drawn", "huang"}
    hu = data.read_human(REAL / "human")
    assert len(hu) == 3 and all(g.replay().result == g.result for g in hu)
    assert {g.info["outcome"] for g in hu} == {"点炮", "自摸", "荒庄"}
    # The human games are played with flowers on one shared wall.
    assert all(len(g.wall) == 144 and g.rules.options()["flowers"] for g in hu)
    bz = data.read_botzone(REAL / "botzone.json")
    log = json.loads((REAL / "botzone.json").read_text())
    assert bz[0].deltas == log["log"][-1]["output"]["content"] or bz[0].deltas == [
        log["log"][-1]["output"]["content"][str(p)] for p in range(4)
    ]
    # read() tells the formats apart.
    assert len(data.read(REAL / "ijcai.txt")) == 4
    assert len(data.read(REAL / "human")) == 3
    assert len(data.read(REAL / "botzone.json")) == 1


def test_a_claim_that_lost_is_the_seat_s_own_decision():
    """``Ignore Player j Chi`` is what seat j answered: its decision in that window is the
    chow, which the engine resolves below the pung, as the judge did."""
    text = (REAL / "ijcai.txt").read_text()
    assert "Ignore Player" in text
    ij = data.read_ijcai(REAL / "ijcai.txt")
    decided = sum(mj.Action.from_code(c).kind == "chow" for g in ij for _, c in g.decisions)
    made = sum(e["type"] == "chow" for g in ij for e in g.replay().events())
    assert decided > made


def test_many_engine_games_written_in_each_format_read_back(tmp_path):
    parts = []
    for s in range(40):
        chows: dict = {}
        r = datakit.play(mj.botzone.rules(), s, 0, s % 4, "strong" if s % 3 else "random", chows)
        parts.append(datakit.ijcai_text(r, str(s), chows))
    (tmp_path / "dump.txt").write_text("\n".join(parts))
    games = data.read_ijcai(tmp_path / "dump.txt")
    assert len(games) == 40
    hd = tmp_path / "human"
    hd.mkdir()
    for s in range(40):
        r = datakit.play(mj.RuleSet("gb"), s, s % 4, s // 4 % 4, "efficiency")
        (hd / f"m{s:02d}.txt").write_text(datakit.human_text(r))
        want = r.result
        g = data.read_human(hd / f"m{s:02d}.txt")[0]
        assert g.result["deltas"] == want["deltas"] and g.dealer == s % 4


def _bad(tmp_path, text: str, name: str = "bad.txt") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_game_that_does_not_replay_is_named_with_its_reason(tmp_path):
    text = (REAL / "ijcai.txt").read_text()
    first = text.split("\n\n")[0]
    # An illegal discard: a tile the player does not hold.
    held = set(first.splitlines()[2].split()[3:])
    absent = next(t for t in ("J1", "J2", "J3", "F1", "F2", "F3", "F4") if t not in held)
    lines = first.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("Player 0 Play"))
    lines[k] = f"Player 0 Play {absent}"
    with pytest.raises(mj.DataError) as e:
        data.read_ijcai(_bad(tmp_path, "\n".join(lines)))
    assert e.value.kind == "illegal" and e.value.entry == "Match 1000"
    assert e.value.line == k + 1 and "not legal" in str(e.value)
    # Scores the engine does not give.
    lines = first.splitlines()
    lines[-1] = "Score 1 2 3 -6"
    with pytest.raises(mj.DataError) as e:
        data.read_ijcai(_bad(tmp_path, "\n".join(lines)))
    assert e.value.kind == "result" and "scores" in str(e.value)
    # A malformed line.
    lines = first.splitlines()
    lines.insert(7, "Player 9 Dance W1")
    with pytest.raises(mj.DataError) as e:
        data.read_ijcai(_bad(tmp_path, "\n".join(lines)))
    assert e.value.kind == "format" and e.value.line == 8
    # A fifth copy dealt.
    lines = first.splitlines()
    w = lines[2].split()
    lines[2] = " ".join(w[:3] + [w[3]] * 5 + w[8:])
    with pytest.raises(mj.DataError) as e:
        data.read_ijcai(_bad(tmp_path, "\n".join(lines)))
    assert e.value.kind == "draw"
    # A human file whose fan total is not the engine's.
    src = sorted((REAL / "human").glob("*.txt"))[0].read_text().splitlines()
    head = src[1].split("\t")
    src[1] = "\t".join([head[0], head[1], "['大四喜-88']", head[3]])
    with pytest.raises(mj.DataError) as e:
        data.read_human(_bad(tmp_path, "\n".join(src), "h.txt"))
    assert e.value.kind == "result" and "fan total 88" in str(e.value)
    assert isinstance(e.value, mj.MajiangError) and isinstance(e.value, ValueError)


def test_collect_counts_every_rejected_game_and_drops_none(tmp_path):
    blocks = (REAL / "ijcai.txt").read_text().strip().split("\n\n")
    bad = blocks[1].replace("Score", "Score 5 5 5", 1)
    text = "\n\n".join([blocks[0], bad, blocks[2], "Match 77\nWind 9\n"])
    ds = data.read_ijcai(_bad(tmp_path, text), errors="collect")
    assert len(ds.games) + len(ds.rejected) == 4
    assert ds.counts == {"games": 2, "rejected_format": 2}
    assert [e.entry for e in ds.rejected] == ["Match 1002", "Match 77"]
    with pytest.raises(mj.InvalidArgumentError):
        data.read_ijcai(REAL / "ijcai.txt", errors="ignore")
    with pytest.raises(mj.DataError) as e:
        data.read_ijcai(tmp_path / "missing.txt")
    assert "cannot read" in str(e.value)


def test_samples_hold_every_decision_with_its_mask_action_and_score():
    games = data.read_ijcai(REAL / "ijcai.txt") + data.read_human(REAL / "human")
    s = data.samples(games)
    n = sum(len(g.decisions) for g in games)
    assert len(s) == n and s.observation.shape == (n, N_PLANES, 34)
    assert s.action_mask.shape == (n, N_ACTIONS)
    assert (s.action_mask[np.arange(n), s.action] == 1).all()
    assert (s.action == PASS).sum() > 0, "the pass decisions are samples too"
    for gi, g in enumerate(games):
        rows = s.game == gi
        assert (s.score[rows] == np.asarray(g.deltas)[s.seat[rows]]).all()
        assert list(zip(s.seat[rows].tolist(), s.action[rows].tolist(), strict=False)) == [
            (seat, action_to_index(mj.Action.from_code(c))) for seat, c in g.decisions
        ]
    v2 = data.samples(games[:1], features="v2")
    assert v2.observation.shape[1] == N_PLANES + mj.env.N_GB_PLANES
    assert (v2.observation[:, :N_PLANES] == s.observation[: len(v2)]).all()


def test_suit_augmentation_moves_the_suits_of_planes_and_actions_together():
    games = data.read_ijcai(REAL / "ijcai.txt")[:1]
    base = data.samples(games)
    aug = data.samples(games, augment=True)
    n = len(base)
    assert len(aug) == 6 * n
    assert (aug.observation[:n] == base.observation).all()
    assert (aug.action_mask[np.arange(6 * n), aug.action] == 1).all()
    for k in range(1, 6):
        part = slice(k * n, (k + 1) * n)
        # Honours and pass/win keep their columns and indices; the hand keeps its size.
        assert (aug.observation[part][:, :, 27:] == base.observation[:, :, 27:]).all()
        assert (aug.observation[part][:, 0].sum(1) == base.observation[:, 0].sum(1)).all()
        same = np.isin(base.action, [PASS, action_to_index(mj.Action("win"))])
        assert (aug.action[part][same] == base.action[same]).all()
        moved = [index_to_action(int(a)) for a in aug.action[part][~same][:20]]
        orig = [index_to_action(int(a)) for a in base.action[~same][:20]]
        assert [a.kind for a in moved] == [a.kind for a in orig]
    assert not (aug.observation[n : 2 * n] == base.observation).all()


def test_shards_stream_to_disk_with_a_manifest(tmp_path):
    games = data.read_ijcai(REAL / "ijcai.txt")
    paths = data.write_shards(iter(games), tmp_path / "shards", shard_decisions=200)
    man = json.loads((tmp_path / "shards" / "manifest.json").read_text())
    assert man["games"] == 4 and man["shards"] == [p.name for p in paths] and len(paths) >= 2
    total = 0
    for p, count in zip(paths, man["decisions"], strict=False):
        with np.load(p) as z:
            assert len(z["action"]) == count and z["observation"].dtype == np.uint8
            total += count
    assert total == sum(len(g.decisions) for g in games)


def test_a_user_reading_a_bad_dump_gets_the_game_and_line(tmp_path):
    blocks = (REAL / "ijcai.txt").read_text().split("\n\n")
    bad = blocks[0].replace("Player 0 Deal W4", "Player 0 Deal X9", 1)
    p = _bad(tmp_path, bad)
    code = f"import majiang.data as d; d.read_ijcai({str(p)!r})"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert "majiang.DataError" in out.stderr
    assert "Match 1000" in out.stderr and "line 3" in out.stderr
    assert "'X9' is not a tile name" in out.stderr


def test_a_dump_streams_one_match_at_a_time(tmp_path):
    blocks = (REAL / "ijcai.txt").read_text().strip().split("\n\n")
    text = "\n\n".join(blocks * 25 + ["Match 9\nWind 0\n"])
    p = _bad(tmp_path, text, "big.txt")
    it = data.iter_ijcai(p)
    first = next(it)
    assert isinstance(first, data.Game) and first.entry == "Match 1000"
    rest = list(it)
    assert len(rest) == 100 and isinstance(rest[-1], mj.DataError)
    games = [g for g in rest if isinstance(g, data.Game)]
    paths = data.write_shards(iter(games[:8]), tmp_path / "s", shard_decisions=10_000)
    assert len(paths) == 1
