"""Text redrawn only when it changes: a fixed-size line (or few), or a block whose height
follows its text."""

from __future__ import annotations

from functools import lru_cache

from textual.content import Content
from textual.widgets import Static

parsed = lru_cache(maxsize=1024)(Content.from_markup)
"""Markup parsed once: the footer and the action bar cycle through a few texts, and parsing
their click actions costs milliseconds each time."""


def lines_of(parts: list[tuple[str, int]], width: int, gap: str = "  ") -> str:
    """Markup parts (each with its width in cells) in lines of at most `width` cells, broken
    between parts, never inside one."""
    lines: list[list[str]] = [[]]
    used = 0
    for markup, cells in parts:
        if lines[-1] and used + len(gap) + cells > width:
            lines.append([])
            used = 0
        used += (len(gap) if lines[-1] else 0) + cells
        lines[-1].append(markup)
    return "\n".join(gap.join(line) for line in lines)


class TextLine(Static):
    """Its size never depends on its text, so an update never re-lays out the screen."""

    _text: str | None = None

    def set(self, text: str) -> None:
        if text != self._text:
            before, self._text = self._text, text
            self.update(parsed(text), layout=self.relayout(before, text))

    def relayout(self, before: str | None, text: str) -> bool:
        """Whether showing `text` instead of `before` needs the screen laid out again."""
        return False


class TextBlock(TextLine):
    """Its height follows its text, so an update re-lays out the screen, but only when the text
    takes another number of lines: a layout that changes a height resizes the widgets under it,
    and each resized widget costs another layout and repaint in the next frame (20-40 ms)."""

    def relayout(self, before: str | None, text: str) -> bool:
        width = self.content_size.width
        return before is None or not width or parsed(before).get_height(self.styles, width) != parsed(text).get_height(self.styles, width)  # type: ignore[arg-type]  # Textual's Content reads a widget's styles (typed as its RulesMap)
