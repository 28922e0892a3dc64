"""Drawing a widget line by line with a cache: a line whose text did not change is not drawn
again. The operative tables and the event log redraw in a few milliseconds this way, whatever
their length."""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text
from textual.content import Content
from textual.strip import Strip
from textual.widget import Widget


class LineCache:
    """Strips of one widget by a key naming what each line shows."""

    def __init__(self, widget: Widget):
        self.widget = widget
        self._strips: dict[Hashable, Strip] = {}

    def strip(self, key: Hashable, text: Text) -> Strip:
        """The line for `text` (cached under `key`, which must change when the text does)."""
        width = self.widget.content_size.width
        style = self.widget.visual_style
        full_key = (key, width, style)
        strip = self._strips.get(full_key)
        if strip is None:
            content = Content.from_rich_text(text).truncate(width, ellipsis=True, pad=True)
            strip = self._strips[full_key] = Strip(content.render_segments(style)).crop_extend(0, width, style.rich_style)
            if len(self._strips) > 4096:  # a long replay: forget the oldest lines
                del self._strips[next(iter(self._strips))]
        return strip

    def clear(self) -> None:
        self._strips.clear()
