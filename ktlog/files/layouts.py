"""Layout files (TOML): a killzone's board, terrain, drop zones and objective markers, as a person
writes them (docs/the-board.md). TOML, like a roster file: written by hand, with comments.

    name = "My table"
    width = 30                      # inches (default 30 x 22, pg 56)
    depth = 22

    [[drop_zones]]
    name = "A"
    rect = { x = 0, y = 16, width = 30, depth = 6 }

    [[objectives]]
    name = "1"
    x = 15
    y = 11

    [[terrain]]
    name = "Ruin"
    parts = [
      { name = "walls", traits = ["heavy"], height = 4, rect = { x = 6, y = 6, width = 4, depth = 1 } },
      { name = "floor", traits = ["vantage"], height = 3, bottom = 2.75, polygon = [[6, 7], [10, 7], [10, 10]] },
    ]

Every value is checked before it is used: a problem names its field and what to do."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import get_args

import msgspec

from ..board.checks import problems_of, summary
from ..board.layout import Layout, Trait
from ..data import LAYOUTS
from ..errors import KtlogError
from .inputs import read_text

LAYOUT_LIMIT = 2**20
"""Bytes at most in a layout file (a killzone of 300 parts is under 100 KB)."""


class LayoutError(KtlogError):
    pass


def shipped() -> dict[str, Path]:
    """The illustrative layouts ktlog ships, by name (their file's stem)."""
    return {p.stem: p for p in sorted(LAYOUTS.glob("*.toml"))}


def find_layout(spec: str) -> Layout:
    """A shipped layout by name (`volkus-like`), else a layout file, read and checked."""
    path = shipped().get(spec)
    if path is None and not Path(spec).is_file():
        raise LayoutError(f"no layout {spec!r}: give a layout file or one of {', '.join(shipped())} (docs/the-board.md)")
    return load_layout(path or spec)


def load_layout(path: str | Path) -> Layout:
    """Read and check a layout file; the error names its first three problems and how many more there are."""
    layout, problems = check_layout(path)
    if layout is not None:
        return layout
    raise LayoutError(f"{path}: {summary(problems)}")


def check_layout(path: str | Path) -> tuple[Layout | None, list[str]]:
    """A layout file read and checked: the layout, or None and every problem found."""
    try:
        text = read_text(Path(path), "a layout file", LAYOUT_LIMIT)
    except KtlogError as exc:
        return None, [f"cannot read the layout file: {exc}"]
    return layout_from_text(text)


def layout_from_text(text: str) -> tuple[Layout | None, list[str]]:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [f"not valid TOML: {exc}; fix that line of the layout file"]
    return layout_from_data(raw)


def layout_from_data(raw: object) -> tuple[Layout | None, list[str]]:
    """A layout from data read from a file (TOML or JSON), checked."""
    try:
        layout = msgspec.convert(raw, Layout)
    except msgspec.ValidationError as exc:
        return None, [_worded(str(exc))]
    problems = problems_of(layout)
    return (None, problems) if problems else (layout, [])


def _worded(message: str) -> str:
    """msgspec's "Expected `float`, got `str` - at `$.terrain[0].parts[1].height`" in the file's words."""
    found = re.match(r"(.*?)(?: - at `\$\.?(.*)`)?$", message)
    what, where = (found[1], found[2]) if found else (message, None)
    what = what.replace("`float`", "a number").replace("`int`", "a whole number").replace("`str`", "text").replace("`array`", "a list")
    what = what.replace("`object`", "a table").replace("Object contains unknown field", "unknown field")
    if where and re.search(r"traits\[\d+\]$", where):
        what = re.sub(r"Invalid enum value (.*)", rf"\1 is not a terrain type; give one of {', '.join(get_args(Trait))}", what)
    return f"field {where}: {what}; see docs/the-board.md for the layout format" if where else f"{what}; see docs/the-board.md for the layout format"
