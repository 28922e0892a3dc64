"""One side's operatives: wounds (and injured), order, ready / expended / incapacitated, carried marker.

A plain widget drawing one line per operative (the window that fits, kept around the active
operative; the mouse wheel scrolls it): a table of 36 operatives redraws in a few milliseconds.
The state column is never cut: in a narrow table the columns close up, then the extras are
worded shortly, and only then are long operative names shortened.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from ktlog.state import GameState, OperativeState

from .lines import LineCache

HEADINGS = ("W", "ord", "state")
NAME_MIN = 6
"""The narrowest the name column gets before the state column is shortened instead."""


def row(op: OperativeState, s: GameState, compact: bool = False) -> tuple[Text, ...]:
    """The cells of an operative's line; `compact` words the extras of its state shortly (the
    enemies in its control range as a count), for a table too narrow for them."""
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
        state.append(" ⚔" + (str(len(op.engaged_with)) if compact else ",".join(op.engaged_with)), style="magenta")
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
        self.full: list[tuple[Text, ...]] = []
        self.compact: list[tuple[Text, ...]] = []
        self.active_row: int | None = None
        self._top = 0
        self._follow = False
        self._height = 1
        self._widths: list[int] = []
        self._gap = "  "
        self.lines = LineCache(self)

    def show(self, state: GameState) -> None:
        names = list(state.players)
        self.player = names[self.player_index] if self.player_index < len(names) else None
        ops = state.operatives_of(self.player) if self.player else []
        full = [row(op, state) for op in ops]
        active = next((i for i, op in enumerate(ops) if state.activation and state.activation.operative == op.id), None)
        if full != self.full or active != self.active_row:
            self._follow = active is not None and active != self.active_row
            self.full, self.compact, self.active_row = full, [row(op, state, compact=True) for op in ops], active
            self.rows = full
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
            text.append(f" ↓{len(self.rows) - i - 1}", style="dim")
        return self.lines.strip((_key(self.rows[i]), tuple(self._widths), last and len(self.rows) - i), text)

    def _place(self) -> int:
        """Work out the rows shown (the first line is drawn first): returns the first row."""
        self._height = height = max(1, self.content_size.height - 1)
        if self._follow:  # bring a newly active operative into view
            self._follow = False
            row = self.active_row
            if row is not None and row < self._top:
                self._top = row
            elif row is not None and row >= self._top + height:
                self._top = row - height + 1
        self._top = max(0, min(self._top, len(self.rows) - height))
        more = len(f" ↓{len(self.full)}") if len(self.full) > height else 0  # "↓5": five more below
        self._fit(self.content_size.width - more)
        return self._top

    def _fit(self, width: int) -> None:
        """Choose the column widths, the gap and the rows (full or compact) for `width` cells:
        the state column whole, the name column what is left (at least NAME_MIN)."""
        for rows, gap in ((self.full, "  "), (self.full, " "), (self.compact, " ")):
            widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(("", *HEADINGS))]
            others = sum(widths[1:]) + len(gap) * len(HEADINGS)
            if widths[0] + others <= width or rows is self.compact:
                break
        widths[0] = max(NAME_MIN, min(widths[0], width - others))
        self.rows, self._gap, self._widths = rows, gap, widths

    def _heading(self) -> Text:
        widths = self._widths
        heading = Text.assemble(
            (_cut(self.player or "waiting for a player", widths[0]), "bold"), *((f"{self._gap}{h:<{w}}", "bold") for h, w in zip(HEADINGS, widths[1:]))
        )
        if self._top:
            heading.append(f"  ↑{self._top}", style="dim")
        return heading

    def _line(self, cells: tuple[Text, ...]) -> Text:
        line = Text()
        for i, (cell, width) in enumerate(zip(cells, self._widths)):
            if i:
                line.append(self._gap)
            if len(cell) > width:  # a long name in a narrow table
                cell = Text(_cut(cell.plain, width), style=cell.style)
            line.append_text(cell)
            if i < len(cells) - 1:
                line.append(" " * (width - len(cell)))
        return line

    def on_resize(self, event: events.Resize) -> None:
        self.lines.clear()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._top += 1
        self.refresh()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._top = max(0, self._top - 1)
        self.refresh()


def _cut(text: str, width: int) -> str:
    """`text` in exactly `width` cells: padded, or shortened with a final "~" (which a
    person reads as "shortened", and which the screens' test tells from a cut-off "…")."""
    return f"{text:<{width}}" if len(text) <= width else text[: width - 1] + "~"
