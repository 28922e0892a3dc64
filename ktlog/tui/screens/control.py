"""Who controls each objective marker at the end of the turning point (pg 85)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Label, Static

from ktlog import events as ev
from ktlog.state import GameState

from .modal import Modal


class ControlDialog(Modal):
    BINDINGS = [Binding("enter", "confirm", "Record")]

    def __init__(self, state: GameState):
        super().__init__()
        self.markers = list(state.markers)
        self.holders: list[str | None] = [None, *state.players]
        self.control = {m: state.markers[m].controlled_by for m in self.markers}

    def compose(self) -> ComposeResult:
        yield Label("[b]Objective markers: who controls each[/]")
        yield Static(id="rows")
        yield Label("press a marker's number to change who holds it; Enter records; Esc cancels", classes="hint")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        lines = [f"[b]{i}[/] {m}: [b]{self.control[m] or 'nobody'}[/]" for i, m in enumerate(self.markers, 1)]
        self.query_one("#rows", Static).update("\n".join(lines))

    def on_key(self, event: events.Key) -> None:
        if self.cycle(event.character):
            event.stop()

    def cycle(self, key: str | None) -> bool:
        """A marker's number: the next holder of that marker (nobody, then each player)."""
        if not (key and key.isdigit() and 1 <= int(key) <= len(self.markers)):
            return False
        marker = self.markers[int(key) - 1]
        at = self.holders.index(self.control[marker])
        self.control[marker] = self.holders[(at + 1) % len(self.holders)]
        self._show()
        return True

    async def feed(self, key: str, character: str | None) -> None:
        if not self.cycle(character):
            await super().feed(key, character)

    def action_confirm(self) -> None:
        self.dismiss(ev.ObjectivesControlled(control=dict(self.control)))
