"""The event log as stored: the one module that knows how the events are laid out in the file.
Every reader of the log (the store, the snapshots, `ktlog verify`, signatures, the web's tables
and follower, the dataset export, the statistics' checks) asks here, never the tables.

A game in progress keeps its events as rows of `events` (one a row, its hash beside it). When a
game is finished its events but the last move, in the same transaction, into `game_archives`:
blocks of up to BLOCK_EVENTS events in seq order, each one zlib stream of the events' columns
(event ids, types, versions, times recorded, payloads as their canonical JSON, the first
SHORT_HASH bytes of each hash) and, beside it, the full hash of its last event. The event at the
head stays a row (its hash is the chain's end; the log's position and the head's event are read
from the rows), and an event appended later (a dispute, an undo of the end) is a row again until
the game ends again. A reader gets every event back byte for byte, its hash computed from its
content and the one before (SHA-256, as when it was recorded); `ktlog verify` checks each event
against its short hash (naming the seq of an edit) and the chain against each block's last hash
and the rows' hashes. Every event id, archived or not, is in `event_ids` (one index for the
uniqueness of ids, filled by a trigger on `events`).

An event is read as a `Row`: (seq, event id as stored, type, version, recorded_at, payload as
its canonical JSON text, hash as its 32 bytes).
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

import msgspec

from ..envelopes import GENESIS, chain_hash, event_id_text
from ..errors import StoreError
from .catalog import REWINDS

Row = tuple[Any, ...]
"""(seq, event_id, type, version, recorded_at, payload, hash), as stored (a value edited behind
ktlog's back may be of any type: `ktlog verify` names it)."""

BLOCK_EVENTS = 512
"""Events at most in one archived block: a reader of one event of a long game unpacks and hashes
at most this many (a game of a few hundred events is one block)."""
SHORT_HASH = 4
"""Bytes of each archived event's hash kept in its block, so `ktlog verify` names the seq of an
edit; the chain itself is checked in full at each block's end and at the head."""
LEVEL = 6
"""zlib's level for a block (level 1: 4 bytes an event more, a quarter less CPU)."""
ARCHIVED_LIMIT = 256 * 2**20
"""Bytes at most a block unpacks to: a forged one cannot make a reader allocate without bound."""

_COLUMNS = "seq, event_id, type, version, recorded_at, payload, hash"
_pack = msgspec.msgpack.Encoder()
_unpack = msgspec.msgpack.Decoder()


# --- blocks ---------------------------------------------------------------------------------


def pack(rows: list[Row]) -> bytes:
    """Events (`Row`s in seq order) as an archived block: their columns, each event's short hash."""
    ids = [r[1] for r in rows]
    uuids = all(isinstance(i, bytes) and len(i) == 16 for i in ids)
    columns = [
        b"".join(ids) if uuids else ids,
        [r[2] for r in rows],
        [r[3] for r in rows],
        [r[4] for r in rows],
        [r[5] for r in rows],
        b"".join(bytes(r[6][:SHORT_HASH]).ljust(SHORT_HASH, b"\0") if isinstance(r[6], bytes) else bytes(SHORT_HASH) for r in rows),
    ]
    return zlib.compress(_pack.encode(columns), LEVEL)


@lru_cache(maxsize=64)
def unpack(block: bytes) -> tuple[tuple[Any, str, int, str, Any, bytes], ...]:
    """An archived block's events as (event_id, type, version, recorded_at, payload, short hash)
    each; ValueError if it is not a block ktlog wrote (a reader says the game cannot be read)."""
    try:
        inflate = zlib.decompressobj()
        data = inflate.decompress(block, ARCHIVED_LIMIT)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError("an archived block cut short or larger than ARCHIVED_LIMIT")
        ids, types, versions, times, payloads, short = _unpack.decode(data)
        if isinstance(ids, bytes):
            ids = [ids[i : i + 16] for i in range(0, len(ids), 16)]
        shorts = [short[i : i + SHORT_HASH] for i in range(0, len(short), SHORT_HASH)]
        if not len(ids) == len(types) == len(versions) == len(times) == len(payloads) == len(shorts):
            raise ValueError("its columns are of different lengths")
        return tuple(zip(ids, types, versions, times, payloads, shorts))
    except (zlib.error, msgspec.DecodeError, TypeError) as exc:
        raise ValueError(f"not an archived block ({exc})") from exc


def archived_of_type(blocks: list[tuple[int, bytes]], type_name: str) -> list[tuple[int, str]]:
    """The seq and payload of each event of `type_name` in a game's archived blocks, given as
    (first seq, block) each (for a reader on a connection of its own, as the statistics' ADBC
    one); ValueError if a block is not one ktlog wrote."""
    return [(seq, event[4]) for first, block in blocks for seq, event in enumerate(unpack(block), first) if event[1] == type_name]


class _Chain:
    """A block's events as `Row`s, each hash worked out from the event's content and the one
    before, as far as a reader has asked: a seek checks the seal of a snapshot against the chain
    up to its event, not to the block's end."""

    __slots__ = ("events", "first", "game_id", "lock", "prev_hash", "rows")

    def __init__(self, block: bytes, game_id: str, first: int, prev_hash: str):
        self.events = unpack(block)
        self.game_id, self.first, self.prev_hash = game_id, first, prev_hash
        self.rows: list[Row] = []
        self.lock = threading.Lock()  # the web server's threads share the chains

    def upto(self, count: int | None) -> list[Row]:
        """The block's first `count` rows (None: all; each one worked out once)."""
        with self.lock:
            rows, prev_hash = self.rows, self.prev_hash
            for seq, (event_id, type_name, version, recorded_at, payload, _) in enumerate(self.events[len(rows) : count], self.first + len(rows)):
                digest = chain_hash(prev_hash, self.game_id, seq, event_id_text(event_id), version, recorded_at, payload.encode())
                rows.append((seq, event_id, type_name, version, recorded_at, payload, bytes.fromhex(digest)))
                prev_hash = digest
            self.prev_hash = prev_hash
            return rows[:count]


@lru_cache(maxsize=64)
def _chain(block: bytes, game_id: str, first: int, prev_hash: str) -> _Chain:
    return _Chain(block, game_id, first, prev_hash)


def _span(start: int, first: int, last: int | None) -> slice:
    """Where seqs `first` to `last` (None: to the end) lie in a block whose seqs run on from `start`."""
    return slice(max(0, first - start), None if last is None else max(0, last - start + 1))


def _blocks(conn: sqlite3.Connection, game_key: int, first: int, last: int | None) -> list[tuple[int, int, bytes, bytes | None]]:
    """(first seq, last seq, block, the hash before it) of the game's blocks holding seqs first..last."""
    return conn.execute(
        "SELECT a.first_seq, a.last_seq, a.events, (SELECT p.last_hash FROM game_archives p WHERE p.game_key = a.game_key AND p.last_seq = a.first_seq - 1) "
        "FROM game_archives a WHERE a.game_key = ? AND a.last_seq >= ? AND a.first_seq <= ? ORDER BY a.first_seq",
        (game_key, first, last if last is not None else 2**62),
    ).fetchall()


def _game_id(conn: sqlite3.Connection, game_key: int) -> str:
    row = conn.execute(
        "SELECT coalesce((SELECT id FROM games WHERE game_key = ?), (SELECT game_id FROM game_archives WHERE game_key = ? AND first_seq = 1))",
        (game_key, game_key),
    ).fetchone()
    return str(row[0])


def _archived(conn: sqlite3.Connection, game_key: int, first: int, last: int | None) -> list[Row]:
    blocks = _blocks(conn, game_key, first, last)
    if not blocks:
        return []
    game_id = _game_id(conn, game_key)
    rows: list[Row] = []
    for start, _, block, prev in blocks:
        before = GENESIS if start == 1 else prev.hex() if isinstance(prev, bytes) else ""
        span = _span(start, first, last)
        rows += _chain(block, game_id, start, before).upto(span.stop)[span]
    return rows


# --- reading --------------------------------------------------------------------------------

UNREADABLE = (ValueError, TypeError, AttributeError, KeyError, UnicodeError, msgspec.MsgspecError)
"""What reading a block or a row edited behind ktlog's back raises (not a block, a version or a
payload of another type ...)."""


def damaged(game_id: str, exc: Exception, seq: int | None = None) -> StoreError:
    """A stored event that does not read, in words: `ktlog verify` names the seq; `export`,
    `score` and `log` said "bug in ktlog" (issue 38)."""
    at = f" at seq {seq}" if seq is not None else ""
    return StoreError(
        f"the stored events of game {game_id[:8]} cannot be read{at} ({str(exc)[:120]}): the file was changed behind ktlog's back. "
        "`ktlog verify` names the event; restore the database from a backup, or import the game's exported file into a new one"
    )


R = TypeVar("R")


def _said(read: Callable[..., R]) -> Callable[..., R]:
    """A reader of one game's events whose damage is a `damaged` StoreError."""

    @functools.wraps(read)
    def reading(conn: sqlite3.Connection, game_key: int, *args: Any, **kwargs: Any) -> R:
        try:
            return read(conn, game_key, *args, **kwargs)
        except UNREADABLE as exc:
            raise damaged(_game_id(conn, game_key), exc) from exc

    return reading


@_said
def rows(conn: sqlite3.Connection, game_key: int, *, first: int = 1, last: int | None = None) -> list[Row]:
    """A game's events from seq `first` to `last` (default: its head), in seq order."""
    sql = f"SELECT {_COLUMNS} FROM events WHERE game_key = ? AND seq >= ?" + (" AND seq <= ?" if last is not None else "") + " ORDER BY seq"
    return _archived(conn, game_key, first, last) + conn.execute(sql, [game_key, first] + ([last] if last is not None else [])).fetchall()


@_said
def payloads(conn: sqlite3.Connection, game_key: int, first: int, last: int) -> list[tuple[int, Any, Any, Any]]:
    """(seq, type, version, payload) of a game's events from seq `first` to `last`, in seq order:
    what a fold reads, without the hashes `rows` works out for each archived event."""
    found: list[tuple[int, Any, Any, Any]] = []
    for start, _, block, _ in _blocks(conn, game_key, first, last):
        found += [(seq, e[1], e[2], e[4]) for seq, e in enumerate(unpack(block)[_span(start, first, last)], max(first, start))]
    return (
        found
        + conn.execute(
            "SELECT seq, type, version, payload FROM events WHERE game_key = ? AND seq >= ? AND seq <= ? ORDER BY seq", (game_key, first, last)
        ).fetchall()
    )


def stored_rows(conn: sqlite3.Connection, game_key: int) -> list[tuple[Any, ...]]:
    """Every event stored under a game's key as `ktlog verify` checks it, trusting nothing: in the
    order stored, each a `Row` whose hash is what is stored to check it against (32 bytes; an
    archived event's SHORT_HASH bytes, but the last of its block's), followed by the game id it
    names (only its first event names one). An archived event's seq is its place in its block."""
    out: list[tuple[Any, ...]] = []
    blocks = conn.execute("SELECT first_seq, last_seq, last_hash, game_id, events FROM game_archives WHERE game_key = ? ORDER BY first_seq", (game_key,))
    for start, end, last_hash, named, block in blocks:
        for seq, (event_id, type_name, version, recorded_at, payload, short) in enumerate(unpack(block), start):
            out.append((seq, event_id, type_name, version, recorded_at, payload, last_hash if seq == end else short, named if seq == 1 else None))
    rows = conn.execute(f"SELECT {_COLUMNS}, game_id FROM events WHERE game_key = ? ORDER BY position", (game_key,)).fetchall()
    return out + rows


@_said
def event(conn: sqlite3.Connection, game_key: int, seq: int) -> tuple[str, str] | None:
    """The type and payload of a game's event at `seq`, None if there is none."""
    row: tuple[str, str] | None = conn.execute("SELECT type, payload FROM events WHERE game_key = ? AND seq = ?", (game_key, seq)).fetchone()
    if row is None:
        return next(((r[2], r[5]) for r in _archived(conn, game_key, seq, seq)), None)
    return row


@_said
def hashes(conn: sqlite3.Connection, game_key: int, seqs: list[int]) -> dict[int, Any]:
    """The hash of a game's events at `seqs` (32 bytes each; a seq with no event is left out)."""
    if not seqs:
        return {}
    found = dict(conn.execute(f"SELECT seq, hash FROM events WHERE game_key = ? AND seq IN ({', '.join('?' * len(seqs))})", (game_key, *seqs)))
    missing = [seq for seq in seqs if seq not in found]
    if missing:
        found |= {r[0]: r[6] for r in _archived(conn, game_key, min(missing), max(missing)) if r[0] in missing}
    return found


@_said
def rewind_targets(conn: sqlite3.Connection, game_key: int, after: int, upto: int) -> list[int]:
    """The seqs the undos and corrections of a game in seqs (after, upto] reach back to (a partial
    index holds the rows' few; an archived block is read whole)."""
    rows = conn.execute(f"SELECT payload FROM events WHERE game_key = ? AND {REWINDS} AND seq > ? AND seq <= ?", (game_key, after, upto))
    targets = [json.loads(p)["target"] for (p,) in rows]
    for start, _, block, _ in _blocks(conn, game_key, after + 1, upto):
        targets += [json.loads(e[4])["target"] for e in unpack(block)[_span(start, after + 1, upto)] if e[1] in ("EventVoided", "EventCorrected")]
    return targets


def holder(conn: sqlite3.Connection, event_id: bytes | str, game_key: int) -> tuple[str, int] | None:
    """(game id, seq) of the event of another game than `game_key` whose id is `event_id`."""
    row = conn.execute(
        "SELECT i.game_key, g.id FROM event_ids i JOIN games g USING (game_key) WHERE i.event_id = ? AND i.game_key != ?", (event_id, game_key)
    ).fetchone()
    if row is None:
        return None
    return row[1], next((r[0] for r in rows(conn, row[0]) if r[1] == event_id), 0)


def unlisted(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    """(game key, game id, time recorded) of the first event of each game whose events are
    stored without its games row (deleted behind ktlog's back): the log names its games itself."""
    found = conn.execute("SELECT game_key, game_id, recorded_at FROM events WHERE seq = 1 AND game_key NOT IN (SELECT game_key FROM games)").fetchall()
    for key, game_id, block in conn.execute(
        "SELECT game_key, game_id, events FROM game_archives WHERE first_seq = 1 AND game_key NOT IN (SELECT game_key FROM games)"
    ):
        found.append((key, game_id, unpack(block)[0][3]))
    return found


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
SELECT coalesce((SELECT game_id FROM events WHERE game_key = stored.game_key AND seq = 1),
                (SELECT game_id FROM game_archives WHERE game_key = stored.game_key AND first_seq = 1)) AS game_id, NULL AS head_seq
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


# --- archiving ------------------------------------------------------------------------------


def archive(conn: sqlite3.Connection, game_key: int, upto: int) -> int:
    """Move a game's events up to seq `upto` that are still rows into blocks, in the caller's
    transaction (the rows are deleted once their blocks are written: a crash leaves one or the
    other). Their stored hashes are kept as they are (short, and in full at each block's end), so
    an edit made before still fails `ktlog verify`. Returns how many events moved; none if the
    rows do not run on from the archive without a gap (`ktlog verify` names such a game)."""
    first = conn.execute("SELECT coalesce(max(last_seq), 0) + 1 FROM game_archives WHERE game_key = ?", (game_key,)).fetchone()[0]
    if upto < first:
        return 0
    rows = conn.execute(f"SELECT {_COLUMNS}, game_id FROM events WHERE game_key = ? AND seq >= ? AND seq <= ? ORDER BY seq", (game_key, first, upto)).fetchall()
    if [r[0] for r in rows] != list(range(first, upto + 1)):
        return 0
    write_blocks(conn, game_key, blocks(rows))
    conn.execute("DELETE FROM events WHERE game_key = ? AND seq >= ? AND seq <= ?", (game_key, first, upto))
    return len(rows)


Block = tuple[int, int, Any, Any, bytes]
"""An archived block as the writer inserts it: (first seq, last seq, hash of the last event, the
game id its first event names, `pack`ed events)."""


def blocks(rows: list[tuple[Any, ...]]) -> list[Block]:
    """Events in seq order as blocks (rows of `_COLUMNS` and the game id column, as the events
    table holds them; `rows.event_rows` makes such rows): made where the rows are (an import's
    checking process), so the writer only inserts."""
    chunks = [rows[i : i + BLOCK_EVENTS] for i in range(0, len(rows), BLOCK_EVENTS)]
    return [(b[0][0], b[-1][0], b[-1][6], b[0][7], pack(b)) for b in chunks]


def write_blocks(conn: sqlite3.Connection, game_key: int, archived: list[Block], event_ids: Sequence[Any] = ()) -> None:
    """Insert a game's blocks, and the ids of their events that are not in `event_ids` yet (those
    never stored as rows): a taken id fails the insert (sqlite3.IntegrityError naming event_id)."""
    conn.executemany("INSERT INTO event_ids (event_id, game_key) VALUES (?, ?)", [(event_id, game_key) for event_id in event_ids])
    conn.executemany(
        "INSERT INTO game_archives (game_key, first_seq, last_seq, last_hash, game_id, events) VALUES (?,?,?,?,?,?)", [(game_key, *b) for b in archived]
    )


GUARDS = (
    "CREATE TABLE IF NOT EXISTS event_ids (event_id BLOB PRIMARY KEY, game_key INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TRIGGER IF NOT EXISTS events_ids AFTER INSERT ON events BEGIN INSERT INTO event_ids (event_id, game_key) VALUES (new.event_id, new.game_key); END",
    "CREATE TRIGGER IF NOT EXISTS archives_no_update BEFORE UPDATE ON game_archives "
    "BEGIN SELECT RAISE(ABORT, 'archived events are append-only: record a correction (undo) instead'); END",
    "CREATE TRIGGER IF NOT EXISTS archives_no_delete BEFORE DELETE ON game_archives "
    "BEGIN SELECT RAISE(ABORT, 'archived events are append-only: record a correction (undo) instead'); END",
)
"""What keeps the archive's promises (`migrations.restore_guards` makes them): every event id in `event_ids` (a second event with an id
fails its insert), and blocks never changed or deleted."""
ARCHIVED_ONLY = "WHEN NOT EXISTS (SELECT 1 FROM game_archives WHERE game_key = old.game_key AND old.seq BETWEEN first_seq AND last_seq)"
"""The condition under which `events_no_delete` refuses: a row is deleted only once it is archived."""
