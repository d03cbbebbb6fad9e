"""``majiang practice`` in the terminal: one exercise at a time, graded, the score kept.

:class:`PracticeApp` shows an exercise of :mod:`majiang.coach.practice` (or of
:mod:`majiang.coach.discard` for 何切), takes the answer from the keyboard, grades it,
explains the answer, and goes on to the exercise of the next seed. With a data directory
each answer is added to the mode's score there (:class:`majiang.coach.store.Store`), and
the next run starts where this one stopped.

Keys:

- fans: ↑/↓ choose a fan (a form or a multiplier in huainan), Space ticks it, the digits
  type the total (Backspace takes one back), Enter answers;
- waits: the arrows move over the 34 kinds, Space marks a wait, ``m`` marks a wait that
  reaches the minimum (gb, classic), Enter answers;
- discard (何切): ←/→ choose a tile of the hand, ``r`` declares a ready hand with it
  (classic's 报听, where allowed), Enter discards it;
- after an answer: Enter or ``n`` the next exercise; ``q`` leaves at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from .._core import RuleSet
from ..coach.discard import DiscardExercise
from ..coach.practice import FanExercise, Grade, WaitsExercise, generate
from ..coach.store import PracticeScore, Store
from ..errors import InvalidArgumentError, UsageError
from .names import HUAINAN_FORMS, HUAINAN_MULTIPLIERS
from .tiles import inline, inline_tiles, meld_tiles, suit_style, wind_label

__all__ = ["Choice", "PracticeApp", "PracticeScreen", "discard_text", "exercise_text"]

_PLACES = ("You", "Right", "Across", "Left")

_HOW = {"self_drawn": "self-drawn", "discard": "on a discard", "robbed_kong": "robbing a kong"}


@dataclass
class Choice:
    """One line of a fans exercise's list: what it names (a fan, a huainan form or
    multiplier), its label, and whether it is ticked."""

    key: str
    label: str
    kind: str = "fan"  # fan | form | multiplier
    ticked: bool = False


def exercise_text(ex: Any, ascii: bool = False) -> Group:
    """The question of an exercise: the hand drawn as tiles, the melds, the winds and
    what the scorer must know."""
    parts: list[Any] = []
    line = Text()
    line.append_text(meld_tiles("hand", ex.hand, ascii))
    if isinstance(ex, FanExercise):
        line.append("  + ")
        line.append(inline(ex.tile, ascii), style=suit_style(ex.tile) + " reverse")
    for kind, tiles in ex.melds:
        line.append("   ")
        line.append_text(meld_tiles(kind, tiles, ascii))
    parts.append(line)
    facts = Text()
    facts.append(f"Seat {wind_label(ex.seat_wind, ascii)}, ", style="cyan")
    facts.append(f"prevalent {wind_label(ex.prevalent_wind, ascii)}", style="cyan")
    wild = ex.wild
    if wild is not None:
        facts.append("   wild: " if ascii else "   宝: ")
        facts.append(inline(wild, ascii), style=suit_style(wild) + " reverse")
    if isinstance(ex, FanExercise):
        facts.append(f"   won {_HOW.get(ex.how, ex.how)}")
        if ex.flowers:
            facts.append(f"   {ex.flowers} flower{'s' if ex.flowers > 1 else ''}")
    parts.append(facts)
    for c in getattr(ex, "circumstances", []):
        parts.append(Text(f"  · {c}", style="yellow"))
    return Group(*parts)


def discard_order(ex: DiscardExercise) -> list[int]:
    """The hand's tiles in the order shown: sorted, the drawn tile last."""
    tiles = sorted(ex.hand)
    if ex.drawn is not None and ex.drawn in tiles:
        tiles.remove(ex.drawn)
        tiles.append(ex.drawn)
    return tiles


def discard_text(ex: DiscardExercise, cursor: int | None, ascii: bool = False) -> Group:
    """The table of a 何切 exercise as the seat sees it: each other seat's discards,
    melds and declared ready hand, then the hand (the drawn tile apart) with the tile at
    ``cursor`` highlighted."""
    parts: list[Any] = []
    facts = Text()
    facts.append(f"Seat {wind_label(ex.seat_wind, ascii)}, ", style="cyan")
    facts.append(f"prevalent {wind_label(ex.prevalent_wind, ascii)}, ", style="cyan")
    facts.append(f"{ex.wall} tiles left in the wall", style="cyan")
    parts.append(facts)
    for k in (3, 2, 1, 0):
        s = (ex.seat + k) % 4
        line = Text()
        line.append(f"{_PLACES[k]:<7}", style="bold")
        if ex.ready[s]:
            line.append("READY ", style="bold red")
        line.append_text(inline_tiles(ex.discards[s], ascii))
        for kind, tiles in ex.melds[s]:
            line.append("   ")
            line.append_text(meld_tiles(kind, tiles, ascii))
        parts.append(line)
    hand = Text()
    order = discard_order(ex)
    for i, t in enumerate(order):
        if ex.drawn is not None and i == len(order) - 1:
            hand.append("  ")
        style = suit_style(t) + (" reverse" if i == cursor else "")
        hand.append(inline(t, ascii), style=style)
        hand.append(" ")
    parts.append(Text(""))
    parts.append(hand)
    return Group(*parts)


def _fan_choices(ex: FanExercise, ascii: bool) -> list[Choice]:
    if ex.huainan:
        out = [
            Choice(key, en if ascii else f"{zh} {en}", "form")
            for key, (zh, en) in HUAINAN_FORMS.items()
        ]
        out += [
            Choice(key, ("×: " if ascii else "× ") + (en if ascii else f"{zh} {en}"), "multiplier")
            for key, (zh, en) in HUAINAN_MULTIPLIERS.items()
        ]
        return out
    return [
        Choice(f.name, f"{f.points:>2}  " + (f.name if ascii else f"{f.name_zh} {f.name}"))
        for f in ex.candidates()
    ]


@dataclass
class Answer:
    """The answer being typed: the list's cursor and ticks, the number typed, the waits
    marked (kind → reaches the minimum)."""

    cursor: int = 0
    number: str = ""
    choices: list[Choice] = field(default_factory=list)
    marks: dict[int, bool] = field(default_factory=dict)
    declare: bool = False


class PracticeScreen(Screen[None]):
    """One exercise after another of one mode."""

    DEFAULT_CSS = """
    PracticeScreen { layout: vertical; }
    #p-head { height: 1; padding: 0 1; background: $primary 30%; }
    #p-body { height: 1fr; padding: 0 1; }
    #p-keys { dock: bottom; height: 1; padding: 0 1; background: $primary 30%; }
    """

    BINDINGS = [
        Binding("up", "move(0, -1)", "Up", show=False),
        Binding("down", "move(0, 1)", "Down", show=False),
        Binding("left", "move(-1, 0)", "Left", show=False),
        Binding("right", "move(1, 0)", "Right", show=False),
        Binding("space", "tick", "Tick", show=False),
        Binding("m", "mark_minimum", "Minimum", show=False),
        Binding("r", "declare", "Declare ready", show=False),
        Binding("backspace", "erase", "Erase", show=False),
        Binding("enter", "enter", "Answer", show=False),
        Binding("n", "next", "Next", show=False),
        Binding("q", "leave", "Quit", show=False),
        *(Binding(str(d), f"digit({d})", str(d), show=False) for d in range(10)),
    ]

    def __init__(
        self,
        mode: str,
        rules: RuleSet,
        seed: int,
        ascii: bool = False,
        store: Store | None = None,
        score: PracticeScore | None = None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.rules = rules
        self.seed = seed
        self.ascii = ascii
        self.store = store
        self.score = score or PracticeScore(seed=seed)
        self.exercise: Any = None
        self.answer = Answer()
        self.grade: Grade | None = None
        self.save_error: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="p-head")
        with VerticalScroll(id="p-body"):
            yield Static("", id="p-question")
            yield Static("", id="p-answer")
            yield Static("", id="p-result")
        yield Static("", id="p-keys")

    def on_mount(self) -> None:
        self.load(self.seed)

    # ---- the exercise -----------------------------------------------------------

    def load(self, seed: int) -> None:
        """Generates and shows the exercise of `seed`."""
        self.seed = seed
        self.exercise = generate(self.mode, self.rules, seed)
        self.answer = Answer()
        if isinstance(self.exercise, FanExercise):
            self.answer.choices = _fan_choices(self.exercise, self.ascii)
        if isinstance(self.exercise, DiscardExercise):
            self.answer.cursor = len(self.exercise.hand) - 1
        self.grade = None
        self.redraw()

    @property
    def rules_name(self) -> str:
        """The rule set's name in the scores (a preset's own name)."""
        return self.rules.preset or self.rules.name

    def redraw(self) -> None:
        """Draws the header, the question, the answer and, once answered, the grade."""
        s = self.score
        head = Text()
        head.append(f"practice {self.mode} · {self.rules.preset or self.rules.name}  ", "bold")
        head.append(f"seed {self.seed}  ")
        head.append(f"score {s.points:g}/{s.tried}  right {s.right}  streak {s.streak}")
        head.append(f" (best {s.best})", style="dim")
        self.query_one("#p-head", Static).update(head)
        self.query_one("#p-question", Static).update(self._question())
        self.query_one("#p-answer", Static).update(self._answer_view())
        self.query_one("#p-result", Static).update(self._result_view())
        self.query_one("#p-keys", Static).update(self._keys())

    def _question(self) -> Group:
        ex = self.exercise
        if isinstance(ex, DiscardExercise):
            cursor = self.answer.cursor if self.grade is None else None
            ask = "Which tile do you discard? (←/→ choose, Enter discards"
            ask += ", r declares ready with it)" if ex.can_declare else ")"
            if self.answer.declare:
                ask += "  declaring ready"
            return Group(discard_text(ex, cursor, self.ascii), Text(""), Text(ask, style="bold"))
        if isinstance(ex, FanExercise):
            ask = (
                "Name the form, its multipliers and the value."
                if ex.huainan
                else "Name every fan of this hand and the total."
            )
        elif ex.scoring:
            ask = (
                f"Mark every tile this hand waits on (Space), and those that reach "
                f"{ex.minimum} fan won on a discard (m). Flowers do not count; no special "
                "circumstance (not the last tile, nothing declared)."
            )
        else:
            ask = (
                "Mark every tile this hand waits on (Space); the 宝 is wild."
                if not (self.ascii)
                else "Mark every tile this hand waits on (Space); the wild tile is wild."
            )
        return Group(exercise_text(ex, self.ascii), Text(""), Text(ask, style="bold"))

    def _answer_view(self) -> Any:
        a = self.answer
        done = self.grade is not None
        if isinstance(self.exercise, FanExercise):
            out = Text()
            for i, c in enumerate(a.choices):
                here = i == a.cursor and not done
                out.append("▸ " if here and not self.ascii else "> " if here else "  ")
                out.append("[x] " if c.ticked else "[ ] ", style="bold" if c.ticked else "")
                out.append(c.label + "\n", style="reverse" if here else "")
            what = "value" if self.exercise.huainan else "total"
            out.append(f"\n{what}: ", style="bold")
            out.append(a.number or "_", style="bold yellow")
            return out
        if isinstance(self.exercise, DiscardExercise):
            return Text("")
        return self._grid()

    def _grid(self) -> Text:
        """The 34 kinds in four rows (the suits, then the honours): waits marked ``o``,
        those reaching the minimum ``8`` (the minimum's first digit), the cursor
        highlighted."""
        a = self.answer
        out = Text()
        for row in range(4):
            kinds = range(row * 9, row * 9 + (9 if row < 3 else 7))
            for t in kinds:
                here = t == a.cursor and self.grade is None
                mark = " "
                if t in a.marks:
                    mark = "8" if a.marks[t] else "o"
                face = inline(t, self.ascii)
                style = suit_style(t) + (" reverse" if here else "")
                out.append(f"{face:<3}" if self.ascii else face, style=style)
                out.append(mark + " ", style="bold yellow")
            out.append("\n")
        return out

    def _result_view(self) -> Any:
        if self.grade is None:
            return Text("")
        g = self.grade
        if g.right:
            head = Text("Right!", style="bold green")
        else:
            head = Text(f"Credit {g.credit:g} of 1", style="bold red")
        body = Text("\n".join(g.lines))
        more = Text(
            "" if self.save_error is None else f"The score could not be saved: {self.save_error}",
            style="red",
        )
        return Group(Text(""), head, body, more, Text("Enter: the next exercise", style="dim"))

    def _keys(self) -> Text:
        if self.grade is not None:
            items = [("Enter n", "next"), ("q", "quit")]
        elif isinstance(self.exercise, FanExercise):
            items = [("↑↓", "choose"), ("Space", "tick"), ("0-9", "total"), ("Enter", "answer")]
            items.append(("q", "quit"))
        elif isinstance(self.exercise, DiscardExercise):
            items = [("←→", "choose")]
            if self.exercise.can_declare:
                items.append(("r", "declare ready"))
            items += [("Enter", "discard"), ("q", "quit")]
        else:
            items = [("arrows", "move"), ("Space", "wait")]
            if self.exercise.scoring:
                items.append(("m", "reaches the minimum"))
            items += [("Enter", "answer"), ("q", "quit")]
        out = Text()
        for key, what in items:
            out.append(key, style="bold yellow")
            out.append(f" {what}  ")
        return out

    # ---- keys -----------------------------------------------------------------------

    def action_move(self, dx: int, dy: int) -> None:
        if self.grade is not None:
            return
        a = self.answer
        if isinstance(self.exercise, FanExercise):
            step = dy or dx
            a.cursor = (a.cursor + step) % len(a.choices)
        elif isinstance(self.exercise, DiscardExercise):
            a.cursor = (a.cursor + (dx or dy)) % len(self.exercise.hand)
        else:
            row, col = divmod(a.cursor, 9)
            if dy:
                row = (row + dy) % 4
            col = (col + dx) % 9
            width = 7 if row == 3 else 9
            a.cursor = row * 9 + min(col, width - 1)
        self.redraw()

    def action_tick(self) -> None:
        if self.grade is not None or isinstance(self.exercise, DiscardExercise):
            return
        a = self.answer
        if isinstance(self.exercise, FanExercise):
            c = a.choices[a.cursor]
            if c.kind == "form" and not c.ticked:
                for other in a.choices:
                    if other.kind == "form":
                        other.ticked = False
            c.ticked = not c.ticked
        elif a.cursor in a.marks:
            del a.marks[a.cursor]
        else:
            a.marks[a.cursor] = False
        self.redraw()

    def action_mark_minimum(self) -> None:
        if self.grade is not None or not isinstance(self.exercise, WaitsExercise):
            return
        if not self.exercise.scoring:
            return
        a = self.answer
        a.marks[a.cursor] = not a.marks.get(a.cursor, False)
        self.redraw()

    def action_declare(self) -> None:
        if self.grade is None and isinstance(self.exercise, DiscardExercise):
            if self.exercise.can_declare:
                self.answer.declare = not self.answer.declare
                self.redraw()

    def action_digit(self, d: int) -> None:
        if self.grade is None and isinstance(self.exercise, FanExercise):
            if len(self.answer.number) < 4:
                self.answer.number += str(d)
                self.redraw()

    def action_erase(self) -> None:
        if self.grade is None and self.answer.number:
            self.answer.number = self.answer.number[:-1]
            self.redraw()

    def action_enter(self) -> None:
        if self.grade is not None:
            self.action_next()
            return
        try:
            self.grade = self.grade_answer()
        except InvalidArgumentError as e:
            # A ready declaration with a tile that does not make the hand ready.
            self.query_one("#p-result", Static).update(Text(str(e), style="red"))
            return
        self.score.add(self.grade.credit, self.seed)
        if self.store is not None:
            try:
                self.store.save_practice_score(self.mode, self.rules_name, self.score)
                self.save_error = None
            except OSError as e:
                self.save_error = f"{self.store.dir}: {e.strerror or e}"
        self.redraw()

    def grade_answer(self) -> Grade:
        """Grades what is typed now."""
        ex = self.exercise
        a = self.answer
        number = int(a.number) if a.number else None
        if isinstance(ex, DiscardExercise):
            tile = discard_order(ex)[a.cursor]
            return ex.grade(tile, declare=a.declare)
        if isinstance(ex, FanExercise):
            ticked = [c for c in a.choices if c.ticked]
            if ex.huainan:
                form = next((c.key for c in ticked if c.kind == "form"), "")
                mults = [c.key for c in ticked if c.kind == "multiplier"]
                return ex.grade(form=form, multipliers=mults, total=number)
            return ex.grade([c.key for c in ticked], number)
        return ex.grade(list(a.marks), [t for t, reach in a.marks.items() if reach])

    def action_next(self) -> None:
        if self.grade is None:
            return
        self.load(self.seed + 1)

    def action_leave(self) -> None:
        self.app.exit()


class PracticeApp(App[None]):
    """``majiang practice``: exercises of one mode under one rule set, from `seed` (None:
    where the saved score left off, else 0)."""

    TITLE = "majiang practice"

    def __init__(
        self,
        mode: str = "fans",
        rules: str | RuleSet = "gb",
        seed: int | None = None,
        ascii: bool = False,
        data_dir: str | None = None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.rules = rules if isinstance(rules, RuleSet) else RuleSet(rules)
        self.store = Store(data_dir) if data_dir is not None else None
        name = self.rules.preset or self.rules.name
        self.score = (
            self.store.practice_score(mode, name) if self.store is not None else PracticeScore()
        )
        self.start = self.score.seed if seed is None else seed
        self.ascii = ascii

    def on_mount(self) -> None:
        self.push_screen(
            PracticeScreen(self.mode, self.rules, self.start, self.ascii, self.store, self.score)
        )

    @property
    def practice(self) -> PracticeScreen:
        """The exercise screen."""
        for s in self.screen_stack:
            if isinstance(s, PracticeScreen):
                return s
        raise UsageError("the practice screen is not shown")
