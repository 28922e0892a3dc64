"""The event log as stored: the one module that knows how the events are laid out in the file.
Every reader of the log (the store, the snapshots, `ktlog verify`, signatures, the web's tables
and follower, the dataset export, the statistics' checks) asks here, never the tables.

An event is read as a `Row`: (seq, event id as stored, type, version, recorded_at, payload as
its canonical JSON text, hash as its 32 bytes).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .catalog import REWINDS

Row = tuple[Any, ...]
"""(seq, event_id, type, version, recorded_at, payload, hash), as stored (a value edited behind
ktlog's back may be of any type: `ktlog verify` names it)."""

_COLUMNS = "seq, event_id, type, version, recorded_at, payload, hash"


def rows(conn: sqlite3.Connection, game_key: int, *, first: int = 1, last: int | None = None) -> list[Row]:
    """A game's events from seq `first` to `last` (default: its head), in seq order."""
    sql = f"SELECT {_COLUMNS} FROM events WHERE game_key = ? AND seq >= ?" + (" AND seq <= ?" if last is not None else "") + " ORDER BY seq"
    return conn.execute(sql, [game_key, first] + ([last] if last is not None else [])).fetchall()


def stored_rows(conn: sqlite3.Connection, game_key: int) -> list[tuple[Any, ...]]:
    """Every event stored under a game's key as `ktlog verify` checks it, trusting nothing: in the
    order stored, each `Row` followed by the game id it names (only its first event names one)."""
    return conn.execute(f"SELECT {_COLUMNS}, game_id FROM events WHERE game_key = ? ORDER BY position", (game_key,)).fetchall()


def event(conn: sqlite3.Connection, game_key: int, seq: int) -> tuple[str, str] | None:
    """The type and payload of a game's event at `seq`, None if there is none."""
    row: tuple[str, str] | None = conn.execute("SELECT type, payload FROM events WHERE game_key = ? AND seq = ?", (game_key, seq)).fetchone()
    return row


def hashes(conn: sqlite3.Connection, game_key: int, seqs: list[int]) -> dict[int, Any]:
    """The stored hash of a game's events at `seqs` (32 bytes each; a seq with no event is left out)."""
    if not seqs:
        return {}
    return dict(conn.execute(f"SELECT seq, hash FROM events WHERE game_key = ? AND seq IN ({', '.join('?' * len(seqs))})", (game_key, *seqs)))


def rewind_targets(conn: sqlite3.Connection, game_key: int, after: int, upto: int) -> list[int]:
    """The seqs the undos and corrections of a game in seqs (after, upto] reach back to (a partial
    index holds them: a few rows however long the game)."""
    rows = conn.execute(f"SELECT payload FROM events WHERE game_key = ? AND {REWINDS} AND seq > ? AND seq <= ?", (game_key, after, upto))
    return [json.loads(p)["target"] for (p,) in rows]


def holder(conn: sqlite3.Connection, event_id: bytes | str, game_key: int) -> tuple[str, int] | None:
    """(game id, seq) of the event of another game than `game_key` whose id is `event_id`."""
    row: tuple[str, int] | None = conn.execute(
        "SELECT g.id, e.seq FROM events e JOIN games g USING (game_key) WHERE e.event_id = ? AND e.game_key != ?", (event_id, game_key)
    ).fetchone()
    return row


def unlisted(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    """(game key, game id, time recorded) of the first event of each game whose events are
    stored without its games row (deleted behind ktlog's back): the log names its games itself."""
    return conn.execute("SELECT game_key, game_id, recorded_at FROM events WHERE seq = 1 AND game_key NOT IN (SELECT game_key FROM games)").fetchall()


def last_events(conn: sqlite3.Connection, game_ids: list[str]) -> list[tuple[str, str, int, str]]:
    """(game id, type, version, payload) of the event at the head of each of these games."""
    marks = ", ".join("?" * len(game_ids))
    return conn.execute(
        f"SELECT g.id, e.type, e.version, e.payload FROM events e JOIN games g ON e.game_key = g.game_key AND e.seq = g.head_seq WHERE g.id IN ({marks})",
        game_ids,
    ).fetchall()


def position(conn: sqlite3.Connection) -> int:
    """How far the log has grown: the position of the latest event stored (0 for none). It only
    grows, so a reader that keeps it finds what came after (`changed_since`)."""
    return int(conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])


def changed_since(conn: sqlite3.Connection, since: int) -> list[tuple[int, str, int]]:
    """(game key, game id, position of its latest event) of each game with events stored after `since` (a `position`)."""
    return conn.execute(
        "SELECT g.game_key, g.id, max(e.position) FROM events e JOIN games g USING (game_key) WHERE e.position > ? GROUP BY e.game_key", (since,)
    ).fetchall()


HEADS_BEHIND = """
WITH RECURSIVE stored(game_key) AS (
    SELECT min(game_key) FROM events
    UNION ALL SELECT (SELECT min(game_key) FROM events WHERE game_key > stored.game_key) FROM stored WHERE stored.game_key IS NOT NULL
)
SELECT (SELECT game_id FROM events WHERE game_key = stored.game_key AND seq = 1) AS game_id, NULL AS head_seq
FROM stored WHERE game_key IS NOT NULL AND game_key NOT IN (SELECT game_key FROM games)
UNION ALL
SELECT id, head_seq FROM games
WHERE coalesce((SELECT lower(hex(hash)) FROM events WHERE game_key = games.game_key AND seq = games.head_seq), '') != coalesce(head_hash, '')
   OR EXISTS (SELECT 1 FROM events WHERE game_key = games.game_key AND seq = games.head_seq + 1)
"""
"""(game_id, head_seq) of each game whose games row disagrees with its last stored events: the
event at its head seq has another hash, or one comes after it (head_seq NULL: a game with events
and no row). A cheap check: a few index lookups a game (the ids of the games with events are
walked through the index, one lookup each), never a pass over every event. Plain SQL, for the
statistics' reader (`analytics.integrity`)."""
