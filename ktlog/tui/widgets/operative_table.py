"""One side's operatives: wounds (and injured), order, ready / expended / incapacitated, carried marker.

A plain widget drawing one line per operative (the window that fits, kept around the active
operative; the mouse wheel scrolls it): a table of 36 operatives redraws in a few milliseconds.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from ktlog.state import GameState, OperativeState

from .lines import LineCache

HEADINGS = ("W", "ord", "state")


def row(op: OperativeState, s: GameState) -> tuple[Text, ...]:
    active = s.activation is not None and s.activation.operative == op.id
    name_style = "dim strike" if op.incapacitated else ("bold reverse" if active else "")
    wounds = Text(f"{max(op.wounds, 0)}/{op.datacard.wounds}" + ("*" if op.injured else ""), style="bold yellow" if op.injured else "")
    order = Text("eng" if op.order == "engage" else "con", style="bold" if op.order == "engage" else "dim")
    if active:
        state = Text("ACTIVE", style="bold")
    elif not op.set_up and not op.incapacitated:
        state = Text("not set up", style="dim")
    else:
        label = {"incapacitated": "incap.", "selected": "set up"}.get(op.status, op.status)
        state = Text(label, style={"ready": "green", "expended": "dim", "selected": ""}.get(op.status, "red"))
    if op.carrying:
        state.append(f" ⚑{op.carrying}", style="bold cyan")
    if op.engaged_with:
        state.append(" ⚔" + ",".join(op.engaged_with), style="magenta")
    if op.apl != op.datacard.apl:
        state.append(f" APL{op.apl}", style="yellow")
    return (Text(op.id, style=name_style), wounds, order, state)


def _key(cells: tuple[Text, ...]) -> tuple:
    """A hashable stand-in for a row's cells (text and styles)."""
    return tuple((c.plain, str(c.style), tuple(c.spans)) for c in cells)


class OperativeTable(Widget):
    """The operatives of one player, under a heading line naming the player."""

    DEFAULT_CSS = """
    OperativeTable { width: 1fr; height: 1fr; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, player_index: int, **kwargs):
        super().__init__(**kwargs)
        self.player_index = player_index
        self.player: str | None = None
        self.rows: list[tuple[Text, ...]] = []
        self.active_row: int | None = None
        self._top = 0
        self._follow = False
        self._height = 1
        self._widths: list[int] = []
        self.lines = LineCache(self)

    def show(self, state: GameState) -> None:
        names = list(state.players)
        self.player = names[self.player_index] if self.player_index < len(names) else None
        ops = state.operatives_of(self.player) if self.player else []
        rows = [row(op, state) for op in ops]
        active = next((i for i, op in enumerate(ops) if state.activation and state.activation.operative == op.id), None)
        if rows != self.rows or active != self.active_row:
            self._follow = active is not None and active != self.active_row
            self.rows, self.active_row = rows, active
            self.refresh()

    def render_line(self, y: int) -> Strip:
        if y == 0:
            return self.lines.strip(("heading", self._place(), tuple(self._widths)), self._heading())
        i = self._top + y - 1
        if i >= len(self.rows) or y > self._height:
            return self.lines.strip("blank", Text())
        text = self._line(self.rows[i])
        last = y == self._height and i < len(self.rows) - 1
        if last:
            text.append(f"  ↓{len(self.rows) - i - 1} more", style="dim")
        return self.lines.strip((_key(self.rows[i]), tuple(self._widths), last and len(self.rows) - i), text)

    def _place(self) -> int:
        """Work out the rows shown (the first line is drawn first): returns the first row."""
        self._height = height = max(1, self.content_size.height - 1)
        if self._follow:  # bring a newly active operative into view
            self._follow = False
            if self.active_row < self._top:
                self._top = self.active_row
            elif self.active_row >= self._top + height:
                self._top = self.active_row - height + 1
        self._top = max(0, min(self._top, len(self.rows) - height))
        self._widths = [max([len(h)] + [len(r[i]) for r in self.rows]) for i, h in enumerate(("", *HEADINGS))]
        return self._top

    def _heading(self) -> Text:
        widths = self._widths
        heading = Text.assemble(
            (f"{self.player or 'waiting for a player':<{widths[0]}}", "bold"), *((f"  {h:<{w}}", "bold") for h, w in zip(HEADINGS, widths[1:]))
        )
        if self._top:
            heading.append(f"  ↑{self._top}", style="dim")
        return heading

    def _line(self, cells: tuple[Text, ...]) -> Text:
        line = Text()
        for i, (cell, width) in enumerate(zip(cells, self._widths)):
            if i:
                line.append("  ")
            line.append_text(cell)
            if i < len(cells) - 1:
                line.append(" " * (width - len(cell)))
        return line

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._top += 1
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._top = max(0, self._top - 1)
        self.refresh()
