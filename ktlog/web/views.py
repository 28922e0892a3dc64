"""The JSON objects of the web view that `ktlog show --json` has no twin for: an event as a row
of the log, and a message of a game's event stream. Every text stays plain text here; the HTML
pages and the browser escape it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..events import Annotation, Envelope, EventVoided, TurningPointStarted
from ..play.timeline import Timeline
from ..state import GameState
from ..text.describe import describe
from ..text.json_views import state_view


def event_row(envelope: Envelope, state: GameState, spectator: bool = True) -> dict[str, Any]:
    """An event as a spectator sees it at the moment `state` (or its player, who sees their own
    secret choices): its seq, type and words; a note names the event it is about, an undo the
    event it voids."""
    e = envelope.payload
    row: dict[str, Any] = {"seq": envelope.seq, "type": envelope.type, "recorded_at": envelope.recorded_at, "text": describe(e, spectator, state)}
    if e.override:
        row["override"] = e.override
    if isinstance(e, Annotation):
        row["note"] = {"target": e.target, "text": e.text}
    elif isinstance(e, EventVoided):
        row["voids"] = e.target
    elif isinstance(e, TurningPointStarted):
        row["turning_point"] = e.turning_point
    return row


def log_rows(
    timeline: Timeline, state: GameState, last: int | None = None, describe_as: Callable[[Envelope], dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The game's log as the page first shows it: each event but the notes (the `last` of them
    only, when given), with its notes and the seq of the undo that voided it; each row made by
    `describe_as` (default: as a spectator sees it)."""
    rows = []
    envelopes = [e for e in timeline.envelopes if not isinstance(e.payload, Annotation)]
    for envelope in envelopes[-last:] if last else envelopes:
        row = describe_as(envelope) if describe_as else event_row(envelope, state)
        row["notes"] = timeline.notes.get(envelope.seq, [])
        if envelope.seq in timeline.undone_by:
            row["undone_by"] = timeline.undone_by[envelope.seq]
        rows.append(row)
    return rows


def stream_messages(game_id: str, rows: list[dict[str, Any]], state: GameState, rewrite: dict[int, str]) -> list[tuple[int, dict[str, Any]]]:
    """The stream messages of a batch of new events, as (seq, object): one per event, the last
    also carrying the state after the batch (`ktlog show --json --spectator` without its notes:
    each note is an event of the stream, and a long game's notes would make every message
    megabytes) and the earlier rows a reveal has re-worded."""
    messages = [(row["seq"], {"game": game_id, "event": row}) for row in rows]
    if not messages:
        messages = [(state.seq, {"game": game_id})]
    last = messages[-1][1]
    last["state"] = {k: v for k, v in state_view(game_id, state, spectator=True).items() if k != "notes"}
    if rewrite:
        last["rewrite"] = {str(seq): text for seq, text in rewrite.items()}
    return messages
