"""Snapshots of a game's state every SNAPSHOT_EVERY seqs, so that the state at any seq is the
nearest usable snapshot plus a few events (an undo makes the snapshots after its target unusable;
`reducer.resume` picks one that is not).

A snapshot is trusted only through its seal: a hash of the hash of the event it was taken at (the
chain) and of its bytes. A snapshot whose seal does not hold, or that does not decode, is passed
over (the state is folded from an earlier one or from the start) and reported to the caller.

The state is stored compressed (zlib, level 1: a fifth of its size, about 130 us to compress a
state of 15 KB and 45 us to read it back); the seal is over the state's own bytes.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..events import Event, EventCorrected, EventVoided
from ..reducer import resume
from ..state import Checkpoint, GameState, decode_state, inflate
from . import log

SNAPSHOT_EVERY = 100
"""A snapshot of the state is kept every this many seqs, so a seek applies fewer events."""
CHUNKS_KEPT = 256
"""Log chunks a store keeps decoded (`Decoded.chunks`, by their bytes): a long game's are a few
dozen."""


def pack(blob: bytes) -> bytes:
    """An encoded state as the snapshots table stores it."""
    return zlib.compress(blob, 1)


def unpack(stored: object) -> bytes:
    """The encoded state a stored snapshot holds; ValueError if it holds none (not bytes, not
    zlib's, or larger than `state.INFLATED_LIMIT`)."""
    if not isinstance(stored, bytes):
        raise ValueError("a snapshot is bytes")
    return inflate(stored)


def seal(event_hash: bytes, blob: bytes) -> bytes:
    """What binds a snapshot to the chain: SHA-256 of the hash of its seq's event (as hex text)
    and its bytes."""
    return hashlib.sha256(event_hash.hex().encode() + b"\n" + bytes(blob)).digest()


def sealed_rows(snapshots: list[tuple[int, bytes]], hashes: dict[int, bytes]) -> list[tuple[int, bytes, bytes]]:
    """(seq, encoded state) snapshots as rows to store: (seq, packed state, seal), given the
    hash of the event at each seq. Made where the states are folded (an import's checking
    process), so the writer only inserts them."""
    return [(seq, pack(blob), seal(hashes[seq], blob)) for seq, blob in snapshots]


def write_snapshots(conn: sqlite3.Connection, game_key: int, snapshots: list[tuple[int, bytes]]) -> None:
    """(seq, encoded state) snapshots of a game (whose events at those seqs are written already),
    sealed, replacing any at those seqs."""
    if not snapshots:
        return
    write_sealed(conn, game_key, sealed_rows(snapshots, log.hashes(conn, game_key, [seq for seq, _ in snapshots])))


def write_sealed(conn: sqlite3.Connection, game_key: int, rows: list[tuple[int, bytes, bytes]]) -> None:
    """Snapshot rows (`sealed_rows`) of a game, replacing any at those seqs."""
    conn.executemany("INSERT OR REPLACE INTO snapshots (game_key, seq, state, seal) VALUES (?,?,?,?)", [(game_key, *row) for row in rows])


DECODED_KEPT = 64
"""States a store keeps (`Decoded`): a replay's seeks to and fro in a few games."""


class Decoded:
    """The snapshots a store decoded lately and the states its seeks gave (at most
    DECODED_KEPT, the least lately used let go), each kept as a `Checkpoint` by (game_key, seq):
    a seek at or after one (no rewind between reaching back past it, as for a snapshot)
    restores it and folds the events after, without reading, unpacking, checking and decoding a
    snapshot; a replay stepping on folds one event. The state after a seq follows from the
    events up to it, which never change, so one kept is good until another connection writes to
    the file (`current`: SQLite's data_version) or a write of this store's rolls back (`clear`)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[int, int], Checkpoint] = OrderedDict()
        self._version: int | None = None
        self.chunks: dict[bytes, Any] = {}
        """The log chunks of the snapshots decoded (`state.decode_state`'s `known`): as they
        are known by their bytes, any snapshot holding the same bytes shares them."""

    def trim(self) -> None:
        """Let the earliest kept log chunks go past CHUNKS_KEPT."""
        for packed in list(self.chunks)[: max(0, len(self.chunks) - CHUNKS_KEPT)]:
            del self.chunks[packed]

    def current(self, conn: sqlite3.Connection) -> None:
        """Let every kept snapshot go if another connection committed since the last look."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self._kept.clear()
            self._version = version

    def clear(self) -> None:
        self._kept.clear()

    def restore(self, game_key: int, seq: int) -> GameState | None:
        """A new state as the snapshot at `seq` holds it, if it is kept."""
        kept = self._kept.get((game_key, seq))
        if kept is None:
            return None
        self._kept.move_to_end((game_key, seq))
        return kept.restore()

    def seqs(self, game_key: int, upto: int) -> list[int]:
        """The seqs, up to `upto`, of the game's states kept."""
        return [seq for key, seq in self._kept if key == game_key and seq <= upto]

    def keep(self, game_key: int, seq: int, state: GameState) -> None:
        """Keep the state after `seq` (a snapshot decoded, a seek's result; its logs copied: the
        caller's to change)."""
        self._kept[(game_key, seq)] = Checkpoint(state, own_logs=True)
        if len(self._kept) > DECODED_KEPT:
            self._kept.popitem(last=False)


class _Untrusted(Exception):
    def __init__(self, seq: int):
        self.seq = seq


def state_at(
    conn: sqlite3.Connection,
    game_key: int,
    at: int,
    records: Callable[[int, int], list[tuple[int, Event]]],
    then: tuple[int, EventVoided | EventCorrected] | None = None,
    distrusted: list[int] | None = None,
    decoded: Decoded | None = None,
) -> GameState:
    """The state after seq `at` from the stored snapshots and `records(after, upto)` (the (seq, event) of the events after
    seq `after` up to `upto`); `then` is
    an undo or a correction about to be appended at seq `at` (checked and applied, not stored). The seq of each
    snapshot passed over because its seal does not hold is added to `distrusted`. `decoded`:
    the snapshots decoded lately, used and added to."""

    def load(seq: int) -> GameState:
        state = decoded.restore(game_key, seq) if decoded else None
        if state is None:
            state = read(seq)
            if decoded is not None:
                decoded.keep(game_key, seq, state)
                decoded.trim()
        return state

    def read(seq: int) -> GameState:
        row = conn.execute("SELECT state, seal FROM snapshots WHERE game_key = ? AND seq = ?", (game_key, seq)).fetchone()
        event_hash = log.hashes(conn, game_key, [seq]).get(seq)
        if row is None or event_hash is None:
            raise _Untrusted(seq)
        try:
            blob = unpack(row[0])
        except ValueError as exc:
            raise _Untrusted(seq) from exc
        if not isinstance(event_hash, bytes) or row[1] != seal(event_hash, blob):
            raise _Untrusted(seq)
        try:
            return decode_state(blob, decoded.chunks if decoded is not None else None)
        except Exception as exc:  # sealed but not a state: written by something else than ktlog
            raise _Untrusted(seq) from exc

    def records_after(start: int) -> list[tuple[int, Event]]:
        return records(start, at) + ([then] if then else [])

    seqs = sorted(
        {
            *(r[0] for r in conn.execute("SELECT seq FROM snapshots WHERE game_key = ? AND seq <= ?", (game_key, at))),
            *(decoded.seqs(game_key, at) if decoded else ()),
        }
    )
    while True:
        start = _usable_snapshot(conn, game_key, seqs, at, then)
        try:
            state = resume(at, [start] if start else [], [], load, records_after)[0]
        except _Untrusted as exc:
            seqs.remove(exc.seq)
            if distrusted is not None:
                distrusted.append(exc.seq)
            continue
        if decoded is not None and then is None and start != at:  # the next seek near it folds from here
            decoded.keep(game_key, at, state)
        return state


def _usable_snapshot(conn: sqlite3.Connection, game_key: int, seqs: list[int], at: int, then: tuple[int, EventVoided | EventCorrected] | None) -> int:
    """The latest of the snapshot `seqs` (in order) that no rewind up to `at` reaches back past
    (`reducer.usable_snapshot_seq`), 0 if none. Only the rewinds after it are read (the partial
    index holds them): a seek in a long game reads the few undos since a snapshot, not all."""
    lowest = then[1].target if then else math.inf  # the earliest target of the rewinds read
    upto = at
    for start in reversed(seqs):
        if start < upto:
            lowest = min([lowest, *log.rewind_targets(conn, game_key, start, upto)])
            upto = start
        if lowest > start:
            return start
    return 0
