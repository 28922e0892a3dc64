"""A fixed-size line (or few) of text that is redrawn only when its text changes."""

from __future__ import annotations

from textual.widgets import Static


class TextLine(Static):
    """Its size never depends on its text, so an update never re-lays out the screen."""

    _text: str | None = None

    def set(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.update(text, layout=False)
