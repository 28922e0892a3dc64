"""The event log's rows: an event as the row the events table stores (`event_rows`, the one
way into the table, every value checked there) and back (`row_envelope`); a game checked and
folded as what a writer inserts (`Folded`, `folded`), made in another process by an import."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..envelopes import check_game_id, check_ids, check_limits, decode_payload, event_id_text, event_ids_bytes
from ..errors import InvalidEvent
from ..events import Envelope
from ..state import GameState
from . import log, projections
from .catalog import EVENTS
from .snapshots import sealed_rows

FINISHED = "finished"
"""A finished game's status (`state.game_status`): its events but the last are archived (`log.archive`)."""


INSERT_EVENT = f"INSERT INTO events ({', '.join(EVENTS)}) VALUES ({', '.join('?' * len(EVENTS))})"
"""Rows of `event_rows`, each with the game's key first."""
RECORDED_AT, PAYLOAD, HASH = 4, 5, 6
"""Where an `event_rows` row holds the time recorded and the hash."""


def event_rows(sealed: list[tuple[Envelope, bytes]]) -> list[tuple[Any, ...]]:
    """Sealed events as rows of the events table, in INSERT_EVENT's column order after the game's
    key (which the games row gives when the rows are written): the one way into the table, so
    every event's values are checked here (`envelopes.check_limits`) before a row is written. Ids
    and hashes become bytes (`event_id_bytes`); the game's id is kept on its first event only.
    One pass: a game's id is checked once, an event id that is a UUID needs no other check."""
    rows = []
    checked_game = None
    for (e, p), event_id in zip(sealed, event_ids_bytes([e.event_id for e, _ in sealed]), strict=True):
        try:
            if not isinstance(event_id, bytes):
                check_ids(e.game_id, e.event_id)
            elif e.game_id != checked_game:
                check_game_id(e.game_id)
                checked_game = e.game_id
            check_limits(e.payload, p)
        except InvalidEvent as exc:
            exc.seq = e.seq
            raise
        rows.append((e.seq, event_id, type(e.payload).__name__, e.version, e.recorded_at, p.decode(), bytes.fromhex(e.hash), e.game_id if e.seq == 1 else None))
    return rows


@dataclass(frozen=True)
class Folded:
    """A game's events checked and folded, as what the writer inserts and nothing it must work
    out: an import's checking process makes it (`folded`), the importing one writes it."""

    rows: list[tuple[Any, ...]]
    """The events' rows (`event_rows`), the first `already` left out."""
    snapshots: list[tuple[int, bytes, bytes]]
    """`snapshot_rows`."""
    projections: dict[str, list[tuple[Any, ...]]]
    """Every projection row of the game (`projections.rows_since`)."""
    columns: dict[str, Any]
    """The games row's derived columns (`projections.game_columns`)."""
    ruleset: str
    seq: int
    """The head's seq."""
    blocks: list[log.Block]
    """A new finished game's events but its head, archived (`log.blocks`): the writer inserts
    them instead of those rows. Empty for a game in progress or the rest of a stored game."""


def folded(game_id: str, rows: list[tuple[Any, ...]], state: GameState, snapshots: list[tuple[int, bytes]], *, already: int = 0) -> Folded:
    """A game's `event_rows`, its state and its (seq, encoded state) snapshots as the writer
    inserts them (the events after `already`). Raises if a CP or VP total would not fit a column."""
    if error := projections.out_of_range(state):
        raise error
    columns = projections.game_columns(state)
    return Folded(
        rows[already:],
        snapshot_rows(rows, [(seq, blob) for seq, blob in snapshots if seq > already]),
        projections.rows_since(game_id, state, 0),
        columns,
        state.ruleset,
        state.seq,
        log.blocks(rows[:-1]) if columns["status"] == FINISHED and not already else [],
    )


def snapshot_rows(rows: list[tuple[Any, ...]], snapshots: list[tuple[int, bytes]]) -> list[tuple[int, bytes, bytes]]:
    """(seq, encoded state) snapshots of events (`event_rows`) as the rows to store, packed and
    sealed with the hashes of those rows."""
    seqs = {seq for seq, _ in snapshots}
    return sealed_rows(snapshots, {row[0]: row[HASH] for row in rows if row[0] in seqs})


@contextmanager
def readable(game_id: str, seq: int) -> Iterator[None]:
    """A stored row that does not read as an event, as `log.damaged` says it."""
    try:
        yield
    except log.UNREADABLE as exc:
        raise log.damaged(game_id, exc, seq) from exc


def row_envelope(game_id: str, row: tuple[Any, ...], prev_hash: str) -> Envelope:
    """An event as `log.rows` read it, of game `game_id`, whose previous event's hash is `prev_hash`."""
    seq, event_id, type_name, version, recorded_at, payload, digest = row
    return Envelope(
        game_id=game_id,
        seq=seq,
        event_id=event_id_text(event_id),
        version=version,
        recorded_at=recorded_at,
        payload=decode_payload(type_name, version, payload),
        prev_hash=prev_hash,
        hash=digest.hex() if isinstance(digest, bytes) else str(digest),  # one edited behind ktlog's back: `verify` names it
    )
