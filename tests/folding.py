"""Walk a game's events, checking the state after each one (the property tests use this)."""

from collections.abc import Iterator, Sequence

from ktlog.events import Event, EventVoided
from ktlog.reducer import apply_in_place, fold
from ktlog.state import GameState


def states_after_each_event(events: Sequence[Event]) -> Iterator[GameState]:
    """The state after each event in turn; an undo refolds what came before it. One object, updated in place."""
    state = GameState()
    for seq, event in enumerate(events, 1):
        if isinstance(event, EventVoided):
            state = fold(events[:seq])
        else:
            apply_in_place(state, event, seq)
        yield state
