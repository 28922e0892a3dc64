"""Snapshots of a game's state every SNAPSHOT_EVERY seqs, so that the state at any seq is the
nearest usable snapshot plus a few events (an undo makes the snapshots after its target unusable;
`reducer.resume` picks one that is not)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from ..events import Envelope, Event
from ..reducer import Record, resume
from ..state import GameState, decode_state

SNAPSHOT_EVERY = 100
"""A snapshot of the state is kept every this many seqs, so a seek applies fewer events."""


def write_snapshots(conn: sqlite3.Connection, game_id: str, snapshots: list[tuple[int, bytes]]) -> None:
    """(seq, encoded state) snapshots of a game, replacing any at those seqs."""
    conn.executemany("INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?,?,?)", [(game_id, seq, blob) for seq, blob in snapshots])


def state_at(conn: sqlite3.Connection, game_id: str, at: int, events: Callable[[int, int], list[Envelope]], then: Record | None = None) -> GameState:
    """The state after seq `at` from the stored snapshots and `events(after, upto)`; `then` is
    an undo or a correction about to be appended at seq `at` (checked and applied, not stored)."""
    voids = [
        (seq, json.loads(p)["target"])
        for seq, p in conn.execute(
            "SELECT seq, payload FROM events WHERE game_id = ? AND type IN ('EventVoided', 'EventCorrected') AND seq <= ?", (game_id, at)
        )
    ]
    if then:
        voids.append((then[0], then[1].target))

    def load(seq: int) -> GameState:
        return decode_state(conn.execute("SELECT state FROM snapshots WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()[0])

    def records_after(start: int) -> list[tuple[int, Event]]:
        return [(e.seq, e.payload) for e in events(start, at)] + ([then] if then else [])

    seqs = [r[0] for r in conn.execute("SELECT seq FROM snapshots WHERE game_id = ? AND seq <= ?", (game_id, at))]
    return resume(at, seqs, voids, load, records_after)[0]
