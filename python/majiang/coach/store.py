"""What a player keeps between runs: settings, the statistics of every hand played at the
table, and the practice scores.

Everything lives in one directory, the user's data directory: ``$XDG_DATA_HOME/majiang``
(``~/.local/share/majiang`` when ``XDG_DATA_HOME`` is unset), or the directory a command's
``--data-dir`` names (:func:`data_dir`). Three files, each written through a temporary
file renamed over the old one (a crash never leaves half a file):

- ``settings.json``: the table's settings (:class:`Settings`: level, hints, explain,
  colours);
- ``stats.jsonl``: one line per finished hand of ``majiang play`` (:class:`HandStat`),
  summarised by :func:`summarize`;
- ``practice.json``: the score of each practice mode under each rule set
  (:class:`PracticeScore`) and the seed of its next exercise.

A file that cannot be read raises :class:`DataFileError` naming the file and the problem
(moving the file away starts afresh); nothing is ever silently reset.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .._files import atomic_write
from ..errors import InvalidArgumentError, MajiangError

__all__ = [
    "COLOURS",
    "DataFileError",
    "HandStat",
    "PracticeScore",
    "Settings",
    "Store",
    "StatsSummary",
    "bar_chart",
    "data_dir",
    "hand_stats",
    "summarize",
]

COLOURS = ("full", "basic", "none")
"""The colour settings: ``full`` (the tiles' own colours, in any terminal), ``basic``
(the 16 colours every terminal has) and ``none`` (no colour at all: the markers alone)."""

_LEVELS = ("easy", "normal", "hard")


class DataFileError(MajiangError, ValueError):
    """A file of the data directory that cannot be read (not JSON, a wrong field). The
    message names the file, the line when there is one, and the problem."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The directory a player's settings, statistics and practice scores live in:
    `override` when given, else ``$XDG_DATA_HOME/majiang``, else
    ``~/.local/share/majiang`` (an ``XDG_DATA_HOME`` that is not an absolute path is
    ignored, as the XDG specification says). The directory is not created here."""
    if override is not None:
        return Path(override).expanduser()
    base = os.environ.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "majiang"


@dataclass
class Settings:
    """The table's settings: the opponents' ``level``, whether the ``hints`` panel is
    open from the start, whether it ``explain``\\ s the advice (the advisor's candidates
    and figures), and the ``colours`` (one of :data:`COLOURS`)."""

    level: str = "normal"
    hints: bool = False
    explain: bool = False
    colours: str = "full"

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Raises :class:`~majiang.InvalidArgumentError` for a value out of its range."""
        if self.level not in _LEVELS:
            raise InvalidArgumentError(
                f"level must be one of {', '.join(_LEVELS)}, not {self.level!r}"
            )
        if self.colours not in COLOURS:
            raise InvalidArgumentError(
                f"colours must be one of {', '.join(COLOURS)}, not {self.colours!r}"
            )
        for name in ("hints", "explain"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidArgumentError(f"{name} must be on or off (true or false)")


@dataclass
class HandStat:
    """One finished hand of the person at the table: the match it belongs to (``match``,
    an id made when the match starts), the rules, the opponents' level, the match seed,
    the hand's number (1-based), whether the person won (``self_drawn``: by self-draw),
    dealt in (another seat won on the person's discard or kong), the value of the
    person's win (fan, or points in huainan; 0 without a win), the person's score change
    and when it was played (seconds since the epoch)."""

    match: str
    rules: str
    level: str
    seed: int
    hand: int
    won: bool
    self_drawn: bool
    dealt_in: bool
    value: int
    delta: int
    time: float = 0.0


def hand_stats(
    result: dict[str, Any],
    *,
    match: str,
    rules: str,
    level: str,
    seed: int,
    hand: int,
    seat: int = 0,
) -> HandStat:
    """The :class:`HandStat` of `seat` in a finished hand's `result`
    (:attr:`majiang.Round.result`)."""
    won = False
    self_drawn = False
    dealt_in = False
    value = 0
    for w in result.get("wins") or []:
        if w["seat"] == seat:
            won = True
            self_drawn = w["how"] == "self_drawn"
            value = int(w.get("value", w["fan_total"]))
        elif w["how"] != "self_drawn" and w.get("from") == seat:
            dealt_in = True
    return HandStat(
        match=match,
        rules=rules,
        level=level,
        seed=seed,
        hand=hand,
        won=won,
        self_drawn=self_drawn,
        dealt_in=dealt_in,
        value=value,
        delta=int(result["deltas"][seat]),
        time=time.time(),
    )


@dataclass
class MatchLine:
    """One match in a summary: its id, rules, level, seed, hands played and the person's
    points over them."""

    match: str
    rules: str
    level: str
    seed: int
    hands: int
    points: int

    @property
    def per_hand(self) -> float:
        """Points per hand in this match."""
        return self.points / self.hands if self.hands else 0.0


@dataclass
class StatsSummary:
    """The statistics of the hands of one rule set: hands played, wins (self-drawn among
    them), deal-ins, the mean value of a win (fan, or points in huainan), points per hand
    and every match in order."""

    rules: str
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    value_total: int = 0
    points: int = 0
    matches: list[MatchLine] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        """Wins per hand (0 without a hand)."""
        return self.wins / self.hands if self.hands else 0.0

    @property
    def deal_in_rate(self) -> float:
        """Deal-ins per hand."""
        return self.deal_ins / self.hands if self.hands else 0.0

    @property
    def average_value(self) -> float:
        """The mean value of a win (0 without a win)."""
        return self.value_total / self.wins if self.wins else 0.0

    @property
    def points_per_hand(self) -> float:
        """The person's mean score change per hand."""
        return self.points / self.hands if self.hands else 0.0


def summarize(stats: Iterable[HandStat]) -> dict[str, StatsSummary]:
    """The hands grouped by rule set (in the order first played), each summarised."""
    out: dict[str, StatsSummary] = {}
    where: dict[tuple[str, str], MatchLine] = {}
    for h in stats:
        s = out.setdefault(h.rules, StatsSummary(h.rules))
        s.hands += 1
        s.wins += h.won
        s.self_drawn += h.won and h.self_drawn
        s.deal_ins += h.dealt_in
        s.value_total += h.value if h.won else 0
        s.points += h.delta
        m = where.get((h.rules, h.match))
        if m is None:
            m = MatchLine(h.match, h.rules, h.level, h.seed, 0, 0)
            where[(h.rules, h.match)] = m
            s.matches.append(m)
        m.hands += 1
        m.points += h.delta
    return out


def bar_chart(values: Sequence[float], height: int = 3, ascii: bool = False) -> list[str]:
    """`values` as a small column chart, one column per value, zero in the middle: `height`
    rows above the zero line for the positive values and `height` below for the negative
    ones, scaled to the largest magnitude (eighths of a row with block characters, whole
    rows with `ascii`). Returns the rows top to bottom, the zero line (``─`` or ``-``)
    between them."""
    if height < 1:
        raise InvalidArgumentError(f"height must be at least 1, got {height}")
    top = max((abs(v) for v in values), default=0.0) or 1.0
    steps = 1 if ascii else 8
    up = " ▁▂▃▄▅▆▇█"
    down = " ▔▔▔▀▀▀▀█"  # the top of a cell, filling downward
    rows_up = [[" "] * len(values) for _ in range(height)]
    rows_down = [[" "] * len(values) for _ in range(height)]
    for i, v in enumerate(values):
        cells = round(abs(v) / top * height * steps)
        rows = rows_up if v > 0 else rows_down
        for r in range(height):
            fill = max(0, min(steps, cells - r * steps))
            if not fill:
                break
            if ascii:
                mark = "#"
            else:
                mark = up[fill] if v > 0 else down[fill]
            # Above the line the first row is the lowest; below it, the highest.
            rows[(height - 1 - r) if v > 0 else r][i] = mark
    line = ("-" if ascii else "─") * len(values)
    return ["".join(r) for r in rows_up] + [line] + ["".join(r) for r in rows_down]


@dataclass
class PracticeScore:
    """The score of one practice mode under one rule set: exercises ``tried`` and
    answered ``right``, the ``points`` earned (a partly right answer earns part of a
    point), the current and the best ``streak`` of right answers, and the ``seed`` of the
    next exercise."""

    tried: int = 0
    right: int = 0
    points: float = 0.0
    streak: int = 0
    best: int = 0
    seed: int = 0

    def add(self, credit: float, seed: int) -> None:
        """Counts an answer worth `credit` (0-1, 1 is right) to the exercise of `seed`;
        the next exercise is the one after it."""
        self.tried += 1
        self.points += credit
        if credit >= 1.0:
            self.right += 1
            self.streak += 1
            self.best = max(self.best, self.streak)
        else:
            self.streak = 0
        self.seed = seed + 1


def _check_fields(cls: type, obj: Any, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise DataFileError(f"{where}: expected a JSON object")
    names = {f.name: f for f in fields(cls)}
    unknown = set(obj) - set(names)
    if unknown:
        raise DataFileError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    for key, value in obj.items():
        want = names[key].type
        ok = {
            "str": isinstance(value, str),
            "int": isinstance(value, int) and not isinstance(value, bool),
            "bool": isinstance(value, bool),
            "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        }.get(str(want), True)
        if not ok:
            kind = {
                "str": "text",
                "int": "a whole number",
                "bool": "true or false",
                "float": "a number",
            }.get(str(want), str(want))
            raise DataFileError(f"{where}: {key} must be {kind}, not {json.dumps(value)}")
    return obj


class Store:
    """The files of one data directory (see the module's description). Reading a file
    that does not exist gives the defaults; writing creates the directory."""

    SETTINGS = "settings.json"
    STATS = "stats.jsonl"
    PRACTICE = "practice.json"

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.dir = data_dir(directory)

    def __repr__(self) -> str:
        return f"Store({str(self.dir)!r})"

    def path(self, name: str) -> Path:
        """The path of one of the store's files."""
        return self.dir / name

    def _read(self, name: str) -> str | None:
        p = self.path(name)
        try:
            return p.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:
            raise DataFileError(f"{p}: not UTF-8 text; move it away to start afresh") from None
        except OSError as e:
            raise DataFileError(f"{p}: cannot be read: {e.strerror or e}") from None

    def _write(self, name: str, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path(name), text.encode("utf-8"))

    def _json(self, name: str) -> Any:
        text = self._read(name)
        if text is None:
            return None
        try:
            return json.loads(text)
        except ValueError as e:
            raise DataFileError(
                f"{self.path(name)}: not JSON ({e}); move it away to start afresh"
            ) from None

    # ---- settings -----------------------------------------------------------------

    def settings(self) -> Settings:
        """The saved settings (the defaults when none are saved)."""
        obj = self._json(self.SETTINGS)
        if obj is None:
            return Settings()
        where = str(self.path(self.SETTINGS))
        try:
            return Settings(**_check_fields(Settings, obj, where))
        except InvalidArgumentError as e:
            raise DataFileError(f"{where}: {e}") from None

    def save_settings(self, settings: Settings) -> None:
        """Saves `settings` (checked first)."""
        settings.check()
        self._write(self.SETTINGS, json.dumps(asdict(settings), indent=2) + "\n")

    # ---- statistics ---------------------------------------------------------------

    def stats(self) -> list[HandStat]:
        """Every hand recorded, in the order played."""
        text = self._read(self.STATS)
        if text is None:
            return []
        out = []
        for no, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            where = f"{self.path(self.STATS)}: line {no}"
            try:
                obj = json.loads(line)
            except ValueError:
                raise DataFileError(
                    f"{where}: not JSON; move the file away to start afresh"
                ) from None
            obj = _check_fields(HandStat, obj, where)
            try:
                out.append(HandStat(**obj))
            except TypeError as e:
                raise DataFileError(f"{where}: {e}") from None
        return out

    def add_hand(self, stat: HandStat) -> None:
        """Appends one finished hand to the statistics."""
        self.dir.mkdir(parents=True, exist_ok=True)
        line = json.dumps(asdict(stat), separators=(",", ":")) + "\n"
        p = self.path(self.STATS)
        # Appended in one write: a crash loses at most this line, never an earlier one.
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)

    # ---- practice -----------------------------------------------------------------

    def practice(self) -> dict[str, PracticeScore]:
        """The practice scores by ``"<mode>/<rules>"``."""
        obj = self._json(self.PRACTICE)
        if obj is None:
            return {}
        where = str(self.path(self.PRACTICE))
        if not isinstance(obj, dict):
            raise DataFileError(f"{where}: expected a JSON object")
        return {
            str(k): PracticeScore(**_check_fields(PracticeScore, v, f"{where}: {k}"))
            for k, v in obj.items()
        }

    def practice_score(self, mode: str, rules: str) -> PracticeScore:
        """The score of one mode under one rule set (a fresh one when there is none)."""
        return self.practice().get(f"{mode}/{rules}", PracticeScore())

    def save_practice_score(self, mode: str, rules: str, score: PracticeScore) -> None:
        """Saves the score of one mode under one rule set, keeping the others."""
        scores = self.practice()
        scores[f"{mode}/{rules}"] = score
        body = {k: asdict(v) for k, v in sorted(scores.items())}
        self._write(self.PRACTICE, json.dumps(body, indent=2) + "\n")
