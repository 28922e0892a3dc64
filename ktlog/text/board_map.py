"""A board at one moment as a character map for a terminal: each cell a patch of the killzone,
terrain by its type, objective markers, and each operative as a letter (its player's first
operatives a, b, c ..., the second player's A, B, C ...) with a key below. A pure function of a
layout and placed operatives, for the TUI and the command line; names in the key are escaped."""

from __future__ import annotations

import string
from collections.abc import Sequence

from ..board.geometry import Board, Piece, Placed
from ..board.layout import MARKER_DIAMETER, Layout
from ..board.shapes import area, ccw, clip, inside
from .safe import visible

MIN_SHARE = 0.05
"""A part shows in a cell it covers a twentieth of (a wall's edge along a cell's does not count)."""
CELL_ASPECT = 2.0
"""A terminal cell is about twice as tall as it is wide."""
GLYPHS = (("hatchway", "H"), ("door", "+"), ("wall", "█"), ("accessible", "+"), ("vantage", "▒"), ("exposed", ":"), ("heavy", "▓"))
LIGHT = "░"
FLOOR = " "
ZONE = "·"
MARKER = "◎"
KEY_TEXT = "▓ heavy  ░ light  ▒ vantage  █ wall  + door  H hatchway  ◎ objective  · drop zone"


def _glyph(p: Piece) -> str:
    return next((g for trait, g in GLYPHS if trait in p.traits), LIGHT)


def grid_size(layout: Layout, cols: int, rows: int) -> tuple[int, int]:
    """The largest map of the board's proportions within cols x rows cells."""
    ratio = layout.width / layout.depth * CELL_ASPECT
    width = min(cols, int(rows * ratio))
    height = min(rows, int(width / ratio))
    return max(width, 1), max(height, 1)


def letters(operatives: Sequence[Placed]) -> dict[str, str]:
    """Each operative's letter: the first player's a-z, the second's A-Z, others' digits."""
    players: list[str] = []
    for o in operatives:
        if o.player not in players:
            players.append(o.player)
    alphabets = (string.ascii_lowercase, string.ascii_uppercase, string.digits, "αβγδεζηθικλμνξοπρστυφχψω")
    out: dict[str, str] = {}
    counts: dict[str, int] = {}
    for o in operatives:
        i = players.index(o.player)
        n = counts.get(o.player, 0)
        counts[o.player] = n + 1
        alphabet = alphabets[min(i, len(alphabets) - 1)]
        out[o.id] = alphabet[n] if n < len(alphabet) else "?"
    return out


def board_map(layout: Layout, operatives: Sequence[Placed] = (), cols: int = 80, rows: int = 20, *, open_hatchways: frozenset[str] = frozenset()) -> list[str]:
    """The map's lines, at most `cols` wide and `rows` tall, board only (see `board_key`)."""
    board = Board(layout, open_hatchways)
    width, height = grid_size(layout, cols, rows)
    sx, sy = layout.width / width, layout.depth / height
    grid = [[FLOOR] * width for _ in range(height)]
    zones = list(board.drop_zones.values())
    pieces = sorted(board.pieces, key=lambda p: (bool({"door", "hatchway"} & p.traits), p.top, "wall" in p.traits))  # doors over walls
    for row in range(height):
        for col in range(width):
            if any(inside(((col + 0.5) * sx, (row + 0.5) * sy), z) for z in zones):
                grid[row][col] = ZONE
    for p in pieces:  # every cell a part touches, so a thin wall is never lost between cells
        glyph = _glyph(p)
        for row in range(max(0, int(p.box[1] / sy)), min(height, int(p.box[3] / sy) + 1)):
            for col in range(max(0, int(p.box[0] / sx)), min(width, int(p.box[2] / sx) + 1)):
                cell = ccw([(col * sx, row * sy), ((col + 1) * sx, row * sy), ((col + 1) * sx, (row + 1) * sy), (col * sx, (row + 1) * sy)])
                if abs(area(clip(p.polygon, cell))) > MIN_SHARE * sx * sy:
                    grid[row][col] = glyph
    r = MARKER_DIAMETER / 2
    for m in layout.objectives:
        _put(grid, m.x, m.y, sx, sy, MARKER)
        for row in range(height):
            for col in range(width):
                if ((col + 0.5) * sx - m.x) ** 2 + ((row + 0.5) * sy - m.y) ** 2 <= r * r:
                    grid[row][col] = MARKER
    names = letters(operatives)
    for o in operatives:
        _put(grid, o.x, o.y, sx, sy, names[o.id])
    return ["".join(line) for line in grid]


def _put(grid: list[list[str]], x: float, y: float, sx: float, sy: float, glyph: str) -> None:
    row, col = int(y / sy), int(x / sx)
    if 0 <= row < len(grid) and 0 <= col < len(grid[0]):
        grid[row][col] = glyph


def board_key(operatives: Sequence[Placed], width: int = 80) -> list[str]:
    """The key under the map: what each letter is (id, order, wounds, level), then the glyphs."""
    names = letters(operatives)
    entries = []
    for o in operatives:
        wounds = f" {o.wounds}/{o.max_wounds}W" if o.wounds is not None and o.max_wounds else ""
        up = f' {o.z:g}"up' if o.z else ""
        entries.append(f"{names[o.id]} {visible(o.id)[:16]} {o.order[0].upper()}{wounds}{up}")
    return [*_wrapped(entries, width), *_wrapped(KEY_TEXT.split("  "), width)]


def _wrapped(entries: Sequence[str], width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for entry in entries:
        if line and len(line) + 2 + len(entry) > width:
            lines.append(line)
            line = ""
        line = f"{line}  {entry}" if line else entry
    return [*lines, line] if line else lines
