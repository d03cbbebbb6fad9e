"""The review of a game in the terminal (and the browser): one decision at a time, the
expert's value of every option, keys to the next and previous mistake.

:class:`ReviewScreen` reviews a :class:`~majiang.record.MatchRecord` with
:func:`majiang.coach.review.review` in a worker thread (the playouts run in Rust without
the GIL, so the screen keeps answering and shows which hand it is on), or shows a
:class:`~majiang.coach.review.Review` made elsewhere. The final standings of
``majiang play`` open it with ``v``; ``majiang review FILE --screen`` opens it on a file.

Keys: ``n`` / ``]`` the next mistake (the most points lost first), ``p`` / ``[`` the
previous one, ←/→ (or ↑/↓) the previous and next decision in play order, Esc or ``q``
closes.
"""

from __future__ import annotations

import os
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from .._core import MAX_THREADS
from ..coach.review import DEFAULT_SAMPLES, Decision, Review, review
from ..errors import MajiangError
from ..record import MatchRecord
from .tiles import inline, inline_tiles, meld_text, suit_style

__all__ = ["ReviewApp", "ReviewScreen", "decision_text", "summary_text"]


def summary_text(rv: Review) -> Text:
    """The review's summary in two lines."""
    s = rv.summary
    out = Text()
    if s["decisions"]:
        out.append(
            f"{s['decisions']} decisions · agreement {s['agreement']}% · points lost "
            f"{s['points_lost_per_hand']}/hand · clear mistakes {s['clear_mistakes']} "
            f"({s['clear_points_lost']} points)\n"
        )
    else:
        out.append("no decision with a choice\n")
    out.append(
        f"wins {s['wins']} · deal-ins {s['deal_ins']} · missed wins {s['missed_wins']} · "
        f"claim errors {s['claim_errors']} · score {s['score_change']:+d}",
        style="dim",
    )
    return out


def decision_text(d: Decision, ascii: bool = False) -> Group:
    """One decision: what the seat saw, what it played beside the expert and the best,
    and every option's value."""
    head = Text()
    head.append(f"Hand {d.hand + 1}, decision {d.number} · {d.phase}, wall {d.wall}\n", "bold")
    tiles = list(d.tiles)
    if d.drawn is not None and d.drawn in tiles:
        tiles.remove(d.drawn)
    head.append_text(inline_tiles(tiles, ascii))
    if d.drawn is not None:
        head.append("  + ")
        head.append(inline(d.drawn, ascii), style=suit_style(d.drawn) + " reverse")
    for m in d.melds:
        head.append("  ")
        head.append_text(meld_text("meld", m, ascii))
    if d.offered is not None:
        head.append("   offered ")
        head.append(inline(d.offered, ascii), style=suit_style(d.offered) + " reverse")
    verdict = Text()
    pv = d.played_value
    verdict.append(f"You played {d.played} ({pv.points:+.2f})")
    if not d.agrees:
        verdict.append(f"; the expert plays {d.expert}")
    if d.loss > 0:
        verdict.append(f"; the best is {d.best.action} ({d.best.points:+.2f})")
        style = "bold red" if d.clear else "yellow"
        note = "a clear mistake" if d.clear else "within the noise"
        verdict.append(f"\nLost {d.loss:.2f} ±{1.96 * pv.loss_se:.2f} points: {note}", style)
    else:
        verdict.append(" — the best value", style="green")
    if d.missed_win:
        verdict.append("\nA win was on offer and not taken.", style="bold red")
    return Group(head, Text(""), verdict, Text(""), Text(d.values.table()))


class ReviewScreen(Screen[None]):
    """The review of one seat of a game, a decision at a time."""

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; }
    #r-head { height: 3; padding: 0 1; background: $primary 30%; }
    #r-body { height: 1fr; padding: 0 1; }
    #r-keys { dock: bottom; height: 1; padding: 0 1; background: $primary 30%; }
    """

    BINDINGS = [
        Binding("n", "mistake(1)", "Next mistake"),
        Binding("right_square_bracket", "mistake(1)", "Next mistake", show=False),
        Binding("p", "mistake(-1)", "Previous mistake"),
        Binding("left_square_bracket", "mistake(-1)", "Previous mistake", show=False),
        Binding("right", "step(1)", "Next", show=False),
        Binding("down", "step(1)", "Next", show=False),
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("up", "step(-1)", "Previous", show=False),
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(
        self,
        record: MatchRecord | None = None,
        seat: int = 0,
        *,
        reviewed: Review | None = None,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        ascii: bool = False,
    ) -> None:
        super().__init__()
        if record is None and reviewed is None:
            raise MajiangError("a review screen needs a record or a review")
        self.record = record
        self.seat = seat
        self.samples = samples
        self.seed = seed
        self.ascii = ascii
        self.review: Review | None = reviewed
        self.error: str | None = None
        self.progress = (0, len(record.hands) if record is not None else 0)
        self.index = 0
        self.mistake = -1

    def compose(self) -> ComposeResult:
        yield Static("", id="r-head")
        with VerticalScroll(id="r-body"):
            yield Static("", id="r-decision")
        yield Static("", id="r-keys")

    def on_mount(self) -> None:
        if self.review is None:
            self.run_worker(self._work, thread=True, exclusive=True)
        self.redraw()

    def _work(self) -> None:
        assert self.record is not None

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            rv = review(
                self.record,
                self.seat,
                samples=self.samples,
                seed=self.seed,
                threads=min(os.cpu_count() or 1, MAX_THREADS),
                progress=progress,
            )
        except (MajiangError, ValueError) as e:
            self.app.call_from_thread(self._failed, str(e))
            return
        self.app.call_from_thread(self._done, rv)

    def _progress(self, done: int, total: int) -> None:
        self.progress = (done, total)
        self.redraw()

    def _failed(self, message: str) -> None:
        self.error = message
        self.redraw()

    def _done(self, rv: Review) -> None:
        self.review = rv
        self.index = 0
        self.mistake = -1
        self.redraw()

    @property
    def decisions(self) -> list[Decision]:
        """Every reviewed decision in play order (none until the review is done)."""
        return self.review.decisions if self.review is not None else []

    @property
    def mistakes(self) -> list[Decision]:
        """The mistakes, most points lost first."""
        return self.review.mistakes() if self.review is not None else []

    @property
    def current(self) -> Decision | None:
        """The decision shown."""
        ds = self.decisions
        return ds[self.index] if ds else None

    def redraw(self) -> None:
        """Draws the header, the decision shown and the keys."""
        head = Text()
        body: Any
        if self.error is not None:
            head.append("Review", style="bold")
            body = Text(f"The game cannot be reviewed: {self.error}", style="red")
        elif self.review is None:
            done, total = self.progress
            head.append("Review", style="bold")
            head.append(f"  reviewing hand {min(done + 1, total)} of {total}…")
            body = Text(
                f"Every option of every decision is played out on {self.samples} sampled "
                "deals; a hand takes a few seconds."
            )
        else:
            rv = self.review
            name = rv.players[rv.seat] if rv.seat < len(rv.players) else ""
            head.append(f"Review of seat {rv.seat} ({name})", style="bold")
            ms = self.mistakes
            where = f"  decision {self.index + 1} of {len(self.decisions)}"
            if self.mistake >= 0 and ms:
                where += f" · mistake {self.mistake + 1} of {len(ms)}"
            head.append(where + "\n")
            head.append_text(summary_text(rv))
            d = self.current
            body = decision_text(d, self.ascii) if d is not None else Text("Nothing to review.")
        self.query_one("#r-head", Static).update(head)
        self.query_one("#r-decision", Static).update(body)
        keys = Text()
        for key, what in (("n ]", "next mistake"), ("p [", "previous"), ("←→", "decisions")):
            keys.append(key, style="bold yellow")
            keys.append(f" {what}  ")
        keys.append("Esc", style="bold yellow")
        keys.append(" close")
        self.query_one("#r-keys", Static).update(keys)

    def action_mistake(self, step: int) -> None:
        """Shows the next (``step`` 1) or previous (-1) mistake, most points lost first."""
        ms = self.mistakes
        if not ms:
            self.notify("No mistake in this review.")
            return
        if self.mistake < 0:
            self.mistake = 0 if step > 0 else len(ms) - 1
        else:
            self.mistake = (self.mistake + step) % len(ms)
        target = ms[self.mistake]
        self.index = next(
            i
            for i, d in enumerate(self.decisions)
            if (d.hand, d.number) == (target.hand, target.number)
        )
        self.redraw()

    def action_step(self, step: int) -> None:
        """Shows the next or previous decision in play order."""
        n = len(self.decisions)
        if n:
            self.index = (self.index + step) % n
            self.redraw()

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.dismiss(None)
        else:
            self.app.exit()


class ReviewApp(App[None]):
    """``majiang review FILE --screen``: the review screen on its own."""

    TITLE = "majiang review"

    def __init__(self, reviewed: Review, ascii: bool = False) -> None:
        super().__init__()
        self.reviewed = reviewed
        self.ascii = ascii

    def on_mount(self) -> None:
        self.push_screen(ReviewScreen(reviewed=self.reviewed, ascii=self.ascii))
