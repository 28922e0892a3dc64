"""Where an operative stands after a set-up or a move, in a game with a layout: the board's map
with a cursor (`screens.place`) before the event is recorded (issue 44). Without a layout, or
for any other event, the event as it is."""

from __future__ import annotations

from ktlog import events as ev
from ktlog.play.placing import Placing, placeable

from ..screens.place import PlaceDialog, title_of
from .registry import Asker


async def where(screen: Asker, event: ev.Event | None) -> ev.Event | None:
    """The event with the operative's position picked on the board (None: cancelled)."""
    if event is None or not placeable(screen.recorder.state, event):
        return event
    assert isinstance(event, ev.OperativeSetUp | ev.Moved)
    return await screen.ask(PlaceDialog(title_of(event), Placing(screen.steps, event)))
