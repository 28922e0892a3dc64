"""The game's events in order: undone ones struck through, notes in their place.

The log shows the window of rows around the selected event, so adding an event redraws one
widget and never re-lays out the screen, however long the game. A spectator's log hides each
secret choice until the moment viewed reveals it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ktlog import events as ev
from ktlog.events import Envelope
from ktlog.play.timeline import Timeline
from ktlog.state import GameState
from ktlog.text.describe import describe

from .lines import LineCache


def _text(event: ev.Event, spectator: bool = False, state: GameState | None = None) -> Text:
    text = _words(event, spectator, state)
    if event.seat:  # recorded from a player's seat (the table's own events carry no mark)
        text.append(f" · {event.seat}", style="dim")
    return text


def _words(event: ev.Event, spectator: bool, state: GameState | None) -> Text:
    if isinstance(event, ev.Annotation):
        return Text(f"✎ on {event.target}: {event.text}", style="italic cyan")
    if isinstance(event, ev.EventVoided):
        return Text(f"↶ undo seq {event.target}", style="magenta")
    if isinstance(event, ev.EventCorrected):
        return Text(f"✔ seq {event.target} corrected: {describe(event.event, spectator, state)}", style="yellow")
    return Text(describe(event, spectator, state) + (f"  [override: {event.override}]" if event.override else ""))


class EventLog(Widget, can_focus=True):
    """One row per event: row i holds seq i + 1 (seqs are gapless). The selected row is the
    event a note attaches to (record) or the moment shown (replay)."""

    DEFAULT_CSS = """
    EventLog { border: round $primary-darken-2; height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    EventLog:focus { border: round $accent; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Earlier", show=False),
        Binding("down", "move(1)", "Later", show=False),
        Binding("pageup", "move(-10)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("enter", "choose", "Choose", show=False),
    ]

    @dataclass
    class Chosen(Message):
        """A row was clicked or Enter pressed on it."""

        seq: int

    def __init__(self, *, spectator: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.border_title = "Events"
        self.spectator = spectator
        self.rows: list[Text] = []
        self._secrets: dict[int, ev.Event] = {}
        """A spectator's rows whose text depends on the moment viewed (a secret, a reveal)."""
        self._undone: set[int] = set()
        self._targets: dict[int, int] = {}
        """The event each undo and note row talks about."""
        self.selected = 0
        self._top = 0
        self._placed_for = 0
        """The height the window was placed for."""
        self._changed: set[int] = set()
        """Rows added or restyled since the log was last drawn."""
        self.lines = LineCache(self)
        self._versions: dict[int, int] = {}
        """Rows restyled since they were first drawn (an undo strikes its target through)."""

    @property
    def last_seq(self) -> int:
        return len(self.rows)

    @property
    def selected_seq(self) -> int | None:
        return self.selected or None

    def load(self, timeline: Timeline, final: GameState | None = None) -> None:
        """Show a whole log. A spectator's log starts with every secret hidden (as at the game's
        creation); `final`, the game's last state, tells which rows a later moment reveals (the
        ruleset says, see `Timeline.revealed_later`), and `show_moment` rewords them."""
        envelopes = timeline.envelopes
        self.rows, self._targets, self._versions = [], {}, {}
        self._undone = {seq - 1 for seq in [*timeline.undone_by, *timeline.corrected_by] if not timeline.event(seq).meta}
        self.lines.clear()
        blind = timeline.created if self.spectator and envelopes else None
        self._secrets = {seq - 1: timeline.event(seq) for seq in timeline.revealed_later(final)} if blind is not None and final is not None else {}
        for row, e in enumerate(envelopes):
            self._remember(e)
            self.rows.append(self._row(row, e.payload, blind))
        self.show_seq(self.last_seq, place=True)

    def show_moment(self, state: GameState) -> None:
        """A spectator's rows that hold a secret, as the moment `state` shows them."""
        for row, event in self._secrets.items():
            text = self._row(row, event, state)
            if text.plain != self.rows[row].plain:
                self.rows[row] = text
                self._versions[row] = self._versions.get(row, 0) + 1
                self._changed.add(row)
        self.show_seq(self.selected)

    def _row(self, row: int, event: ev.Event, state: GameState | None) -> Text:
        text = _text(event, self.spectator, state)
        if row in self._undone:
            text.stylize("dim strike")
        return text

    def extend(self, envelopes: Iterable[Envelope]) -> None:
        """Add events recorded since the log was shown; an undo or a correction strikes its
        target through."""
        for e in envelopes:
            self._remember(e)
            self._changed.add(len(self.rows))
            self.rows.append(_text(e.payload))
            if isinstance(e.payload, ev.EventVoided | ev.EventCorrected):
                row = e.payload.target - 1
                self.rows[row].stylize("dim strike")
                self._versions[row] = self._versions.get(row, 0) + 1
                self._changed.add(row)
        self.show_seq(self.last_seq)

    def show_seq(self, seq: int, place: bool = False) -> None:
        """Select the row of `seq` and bring it into view. Only the lines that change are drawn
        again: a window that must move jumps by half its height, so recording an event usually
        redraws two lines of the log, not all of them."""
        before, top = self.selected, self._top
        self.selected = max(0, min(seq, self.last_seq))
        if self._window(place) != top or not self.size.height:
            self.refresh()
        else:
            for row in {before - 1, self.selected - 1, *self._changed}:
                if top <= row < top + self.content_size.height:
                    self.refresh(Region(0, row - top, self.content_size.width, 1))
        self._changed.clear()

    def note_target(self) -> int | None:
        """The event a note would be about: the selected one (for an undo's or a note's row,
        the event it talks about)."""
        seq = self.selected_seq
        return self._targets.get(seq, seq) if seq else None

    def _remember(self, e: Envelope) -> None:
        """What a meta event's row is about: its target (an undo, a correction, a note, a
        dispute), or the dispute a resolution closes."""
        p = e.payload
        if isinstance(p, ev.DisputeResolved):
            self._targets[e.seq] = p.dispute
        elif isinstance(p, ev.EventVoided | ev.EventCorrected | ev.Annotation | ev.EventDisputed):
            self._targets[e.seq] = p.target

    # --- drawing and moving -----------------------------------------------------------------

    def _window(self, place: bool = False) -> int:
        """The first row shown. The selected row stays in view: one step past an edge moves the
        window by half its height, so moving through the log redraws a few lines of it, not all
        of them, but never past the last row (issue 42: at the end of a game, the row just
        recorded stood in the middle of a half-empty log); a jump (or `place`) puts the row in
        the middle, or at the bottom near the end."""
        height = max(1, self.content_size.height)
        at, half = self.selected - 1, max(1, height // 2)
        if not place and at == self._top + height:
            self._top = min(self._top + half, max(0, len(self.rows) - height))
        elif not place and at == self._top - 1:
            self._top = max(0, self._top - half)
        elif place or not self._top <= at < self._top + height:
            self._top = max(0, min(at - height // 2, len(self.rows) - height))
        return self._top

    def render_line(self, y: int) -> Strip:
        if y == 0 and self._placed_for != self.content_size.height:  # first drawn, or resized
            self._placed_for = self.content_size.height
            self._window(place=True)
        i = self._top + y
        if i >= len(self.rows):
            return self.lines.strip("blank", Text("no events yet" if not self.rows and y == 0 else "", style="dim"))
        selected = i == self.selected - 1
        line = Text(f"{'▶' if selected else ' '}{i + 1:>4} ", style="bold" if selected else "dim").append_text(self.rows[i])
        if selected:  # the whole row, marked: a reversed dim number alone was easy to miss
            line.pad_right(self.content_size.width - line.cell_len)
            line.stylize("reverse")
        return self.lines.strip((i, selected, self._versions.get(i, 0)), line)

    def action_move(self, n: int) -> None:
        if self.rows:
            self.show_seq(max(1, self.selected + n))

    def action_choose(self) -> None:
        if self.selected:
            self.post_message(self.Chosen(self.selected))

    def on_click(self, event: events.Click) -> None:
        row = self._top + event.y - self.gutter.top
        if 0 <= row < len(self.rows):
            self.show_seq(row + 1)
            self.post_message(self.Chosen(row + 1))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.action_move(3)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.action_move(-3)
