"""What a store appended lately to a game, so that an undo of one of those events takes the
state before it without folding from a snapshot: the state kept (a `Checkpoint`) every EVERY appends (not on
every append: encoding a late game's state costs more CPU than the append's own INSERT and
COMMIT) and the events since, applied again on an undo (at most EVERY - 1 of them)."""

from __future__ import annotations

from ..events import Event
from ..reducer import apply_in_place
from ..state import Checkpoint, GameState

EVERY = 10
"""The state is kept after every this many appends."""
KEPT = 3
"""Encoded states kept: an undo reaches back (KEPT - 1) * EVERY appends at least without a fold."""


class Recent:
    """The latest events a store appended to one game (newest last) and the kept states
    `states[k]`, each the state after `events[: k * EVERY]`."""

    def __init__(self, state: GameState):
        """Start from `state`, the state before the next append."""
        self.states = [Checkpoint(state)]
        self.events: list[tuple[int, Event]] = []

    def appended(self, seq: int, event: Event, after: GameState) -> None:
        """`event` was appended at `seq`, giving the state `after`."""
        self.events.append((seq, event))
        if len(self.events) % EVERY == 0:
            self.states.append(Checkpoint(after))
            if len(self.states) > KEPT:  # the oldest state and the events it led to are let go
                del self.states[0]
                del self.events[:EVERY]

    def undo(self, target: int) -> GameState | None:
        """The state before the event at seq `target`, which an undo takes back, if it is the
        latest event kept here (it is then let go); None if not (the store folds instead)."""
        if not self.events or self.events[-1][0] != target:
            return None
        del self.events[-1]
        k = len(self.events) // EVERY
        del self.states[k + 1 :]
        state = self.states[k].restore()
        for seq, event in self.events[k * EVERY :]:  # accepted from this very state before: applied again the same
            apply_in_place(state, event, seq)
        return state
