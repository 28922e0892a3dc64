"""The record screen's flows: for each kind of move, a plain async function that asks what the
move needs (in small dialogs) and records the event. `run(screen, kind)` takes the kind's flow
from the registry, or asks the move's questions as ktlog.play.questions describes them
(`questions.ask_move`): a ruleset's own kinds need no flow of their own.

The flows that are not kinds of move (a note, a correction, an override, a dispute, the seats, the "more" menu)
are in the registry too, under their own names.
"""

from __future__ import annotations

from . import attacks, disputes, editing, sequence  # noqa: F401  (each registers its flows)
from .questions import run
from .registry import FLOWS

__all__ = ["FLOWS", "run"]
