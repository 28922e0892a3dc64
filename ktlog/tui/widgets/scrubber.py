"""A one-line scrubber: where the replay is in the game; click anywhere on it to jump there."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Scrubber(Widget):
    DEFAULT_CSS = """
    Scrubber { height: 1; padding: 0 1; }
    """

    @dataclass
    class Seek(Message):
        seq: int

    position: reactive[int] = reactive(0)

    def __init__(self, head: int, ticks: dict[int, str], **kwargs):
        super().__init__(**kwargs)
        self.head = max(head, 1)
        self.ticks = ticks
        """seq -> a mark shown on the bar (turning point starts)."""

    def _label(self) -> str:
        return f" {self.position}/{self.head}"

    def _bar_width(self) -> int:
        return max(10, self.content_region.width - len(f" {self.head}/{self.head}"))

    def render(self) -> str:
        width = self._bar_width()
        cells = ["─"] * width
        for seq, mark in self.ticks.items():
            cells[min(width - 1, seq * (width - 1) // self.head)] = mark
        at = min(width - 1, self.position * (width - 1) // self.head)
        done = "".join(cells[:at])
        return f"[b $accent]{done}[/]●{''.join(cells[at + 1 :])}{self._label()}"

    def on_click(self, event: events.Click) -> None:
        x = event.x - self.styles.padding.left
        width = self._bar_width()
        if 0 <= x < width:
            self.post_message(self.Seek(round(x * self.head / (width - 1))))
