"""The objective markers and their state."""

from __future__ import annotations

from ktlog.state import GameState
from ktlog.text.render import marker_text

from .text_line import TextBlock


class MarkerPanel(TextBlock):
    """Wraps onto more lines rather than cut off a marker (Multiplayer and Joint Ops maps have many)."""

    DEFAULT_CSS = """
    MarkerPanel { height: auto; padding: 0 1; color: $text-muted; }
    """

    def show(self, state: GameState) -> None:
        if not state.markers:
            self.set("Objective markers: none yet")
            return
        self.set("Markers: " + " · ".join(marker_text(m, state, name=f"[b]{m.id}[/]") for m in state.markers.values()))
