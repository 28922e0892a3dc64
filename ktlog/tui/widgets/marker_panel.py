"""The objective markers and their state."""

from __future__ import annotations

from ktlog.state import GameState, MarkerState

from .text_line import TextLine


def marker_text(m: MarkerState, s: GameState) -> str:
    bits = []
    if m.secured_by:
        bits.append(f"secured {m.secured_by}")
    if m.transmitting:
        bits.append("transmitting")
    if m.sabotaged:
        bits.append("sabotaged")
    if m.looted_tp == s.turning_point and s.turning_point:
        bits.append("looted")
    if m.carried_by:
        bits.append(f"carried by {m.carried_by}")
    if m.controlled_by:
        bits.append(f"held {m.controlled_by}")
    return f"[b]{m.id}[/]" + (f" ({', '.join(bits)})" if bits else "")


class MarkerPanel(TextLine):
    DEFAULT_CSS = """
    MarkerPanel { height: 1; padding: 0 1; color: $text-muted; }
    """

    def show(self, state: GameState) -> None:
        if not state.markers:
            self.set("Objective markers: none yet")
            return
        self.set("Markers: " + " · ".join(marker_text(m, state) for m in state.markers.values()))
