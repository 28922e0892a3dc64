"""Where an operative is set up or ends a move, by keys on the board's character map (issue 44,
docs/the-board.md): a cursor on the operative, moved 1" by the arrow keys, 0.25" with Shift, as
far as the move allows toward it with `f`; the panel shows the inches the move counts and what is
left, and whether the rules take it there with the rule and page when not (ktlog.play.placing).
Enter answers the event with x, y (and z on Vantage terrain) when the rules take it; on an
illegal spot it refuses in words and stays open (`!` enters it anyway, to be refused and
overridden with a reason as any step). Esc cancels."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Label

from ktlog.board.geometry import Placed
from ktlog.events import OperativeSetUp
from ktlog.play.placing import Placeable, Placing, Spot
from ktlog.text.board_map import board_key, board_map, grid_size

from ..markup import escape
from ..widgets.text_line import TextBlock
from .modal import Modal

STEP = 1.0
FINE = 0.25
"""Inches a cursor key moves: an arrow 1", with Shift a quarter (fine placing against a wall)."""
MIN_MAP_ROWS = 8
OTHER_ROWS = 10
"""The dialog's lines but the map's: its borders, title, the spot's two to four lines, the keys."""
MIN_KEY_WIDTH = 20
"""Columns the key needs beside the map; with fewer it goes below."""
GAP = "  "
START = "○"
"""Where the operative stood before the move."""
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


class PlaceMap(Widget):
    """The board with the operatives, the one placed at the cursor (drawn reversed) and where it
    started; the key below as far as it fits."""

    DEFAULT_CSS = "PlaceMap { width: 1fr; }"

    def __init__(self, placing: Placing) -> None:
        super().__init__()
        self.placing = placing
        self.cursor = (0.0, 0.0, 0.0)

    def show(self, x: float, y: float, z: float) -> None:
        self.cursor = (x, y, z)
        self.refresh()

    def render(self) -> Text:
        width, height = self.content_size
        if width < 10 or height < 4:
            return Text("")
        p = self.placing
        operatives = p.operatives_at(*self.cursor)
        beside = width - grid_size(p.layout, width, height)[0] - len(GAP)
        key = board_key(operatives, beside) if beside >= MIN_KEY_WIDTH else []
        if key and len(key) <= height and max(map(len, key)) <= beside:  # beside the map, as tall as the panel
            lines, cursor = self._map(operatives, width, height)
            lines = [line + (GAP + key[i] if i < len(key) else "") for i, line in enumerate(lines)]
        else:  # below it, the glyphs' legend left out first, then operatives, to keep the map readable
            key = board_key(operatives, width)
            legend = len(board_key([], width))
            while key and height - len(key) < MIN_MAP_ROWS:
                key = key[:-legend] if legend else key[:-1]
                legend = 0
            lines, cursor = self._map(operatives, width, max(3, height - len(key)))
            lines += key
        text = Text("\n".join(lines), no_wrap=True, overflow="crop")
        row, col = cursor
        offset = sum(len(line) + 1 for line in lines[:row]) + col
        text.stylize("reverse bold", offset, offset + 1)
        return text

    def _map(self, operatives: list[Placed], width: int, height: int) -> tuple[list[str], tuple[int, int]]:
        """The board within `width` x `height` (in its proportions) with where the operative
        started, and the cursor's cell (row, column)."""
        layout = self.placing.layout
        cols, rows = grid_size(layout, width, height)
        sx, sy = layout.width / cols, layout.depth / rows
        lines = board_map(layout, operatives, width, height)
        cursor = _cell(self.cursor[0], self.cursor[1], sx, sy, cols, rows)
        start = self.placing.start
        if start is not None and (began := _cell(start.x, start.y, sx, sy, cols, rows)) != cursor:
            lines = _put(lines, began, START)
        return lines, cursor


def _cell(x: float, y: float, sx: float, sy: float, cols: int, rows: int) -> tuple[int, int]:
    return min(rows - 1, max(0, int(y / sy))), min(cols - 1, max(0, int(x / sx)))


def _put(lines: list[str], cell: tuple[int, int], glyph: str) -> list[str]:
    row, col = cell
    line = lines[row]
    return [*lines[:row], line[:col] + glyph + line[col + 1 :], *lines[row + 1 :]]


class PlaceDialog(Modal):
    """The board as a dialog; answers the event with the operative's position (None: cancelled)."""

    BINDINGS = [
        *(Binding(key, f"nudge({dx * STEP}, {dy * STEP})", key, show=False) for key, (dx, dy) in MOVES.items()),
        *(Binding(f"shift+{key}", f"nudge({dx * FINE}, {dy * FINE})", f"shift+{key}", show=False) for key, (dx, dy) in MOVES.items()),
        Binding("f", "furthest", "As far as allowed", show=False),
        Binding("v", "level", "Level", show=False),
        Binding("home", "back_to_start", "Back to start", show=False),
        Binding("enter", "place", "Record", show=False),
        Binding("exclamation_mark", "anyway", "Anyway", show=False),
    ]

    def __init__(self, title: str, placing: Placing) -> None:
        super().__init__()
        self.title_text = title
        self.placing = placing
        self.x, self.y, self.z = placing.origin()
        self.spot: Spot | None = None

    def compose(self) -> ComposeResult:
        yield Label(f"[b]{escape(self.title_text)}[/]")
        yield PlaceMap(self.placing)
        yield TextBlock(id="where")
        yield Label('arrows 1", Shift+arrows ¼", f as far as the move allows, v level, Home back, Enter records, ! anyway, Esc cancels', classes="hint")

    def on_mount(self) -> None:
        self.fit()
        self.update()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """The map as tall as the screen leaves beside the dialog's other lines (a height that
        follows its content would not stop at the screen's)."""
        self.query_one(PlaceMap).styles.height = max(MIN_MAP_ROWS, self.app.size.height - OTHER_ROWS)

    def update(self, refused: bool = False) -> None:
        """Judge the spot under the cursor and show it."""
        self.spot = spot = self.placing.judge(self.x, self.y, self.z)
        self.query_one(PlaceMap).show(self.x, self.y, self.z)
        lines = [escape(f"{self.placing.op.id} at x={self.x:g} y={self.y:g}{self._level()} · {self.placing.distance(spot)}")]
        if spot.problem is None:
            lines.append("[green]legal here: Enter records it[/]")
        elif refused:
            lines.append(f"[bold red]Not recorded: {escape(spot.problem)}. Move it, or ! to enter it anyway (a kill team rule, pg 55); Esc cancels[/]")
        else:
            lines.append(f"[bold red]not here: {escape(spot.problem)}[/]")
        self.query_one("#where", TextBlock).set("\n".join(lines))

    def _level(self) -> str:
        if not self.z:
            return ""
        part = self.placing.board.standing_on(self.placing.at(self.x, self.y, self.z))
        return f" z={self.z:g} ({part.name})" if part is not None else f" z={self.z:g}"

    def action_nudge(self, dx: float, dy: float) -> None:
        x, y = round(self.x + dx, 2), round(self.y + dy, 2)
        if not self.placing.on_board(x, y):
            self.app.bell()
            return
        self.x, self.y = x, y
        if self.z not in self.placing.levels(x, y):
            self.z = 0.0  # off the Vantage part: to the floor
        self.update()

    def action_furthest(self) -> None:
        self.x, self.y, self.z = self.placing.furthest(self.x, self.y, self.z)
        self.update()

    def action_level(self) -> None:
        """The next level up at the cursor (floor, then each Vantage part's top), round again."""
        levels = self.placing.levels(self.x, self.y)
        self.z = levels[(levels.index(self.z) + 1) % len(levels)] if self.z in levels else 0.0
        self.update()

    def action_back_to_start(self) -> None:
        self.x, self.y, self.z = self.placing.origin()
        self.update()

    def action_place(self) -> None:
        if self.spot is not None and self.spot.problem is None:
            self.dismiss(self.spot.event)
            return
        self.app.bell()
        self.update(refused=True)

    def action_anyway(self) -> None:
        """Enter it where the rules refuse it: the step is refused with its reason, and ! then
        records it with the kill team rule that allows it (precedence, pg 55)."""
        if self.spot is not None:
            self.dismiss(self.spot.event)


def title_of(event: Placeable) -> str:
    verb = "Set up" if isinstance(event, OperativeSetUp) else event.name
    return f"{verb} {event.operative}: where does it end?"
