"""A game's stored events edited directly in the SQLite file, as an attacker who read the source
would, whether they are rows of `events` (a game in progress) or in `game_archives` blocks (a
finished game's, `ktlog.storage.log`): the tampering tests make the same edit to either layout.
The append-only triggers must be dropped first."""

from __future__ import annotations

import sqlite3
from typing import Any

from ktlog.envelopes import GENESIS, chain_hash, event_id_text
from ktlog.storage.log import SHORT_HASH, pack, unpack

COLUMNS = ("event_id", "type", "version", "recorded_at", "payload", "hash")
"""What an edit may change of an event (its seq is its place)."""


class RawLog:
    """One game's events as stored, to edit: `update`, `delete`, `swap`, `reseal_from`."""

    def __init__(self, conn: sqlite3.Connection, game_id: str):
        self.conn = conn
        self.game_id = game_id
        self.key, self.head = conn.execute("SELECT game_key, head_seq FROM games WHERE id = ?", (game_id,)).fetchone()

    def archived(self, seq: int) -> tuple[int, list[list[Any]]] | None:
        """(first seq, its events as lists of COLUMNS) of the block holding `seq`, None if `seq` is a row."""
        row = self.conn.execute(
            "SELECT first_seq, events FROM game_archives WHERE game_key = ? AND ? BETWEEN first_seq AND last_seq", (self.key, seq)
        ).fetchone()
        return None if row is None else (row[0], [list(e) for e in unpack(row[1])])

    def _write(self, first: int, events: list[list[Any]]) -> None:
        block = pack([(0, *e) for e in events])
        self.conn.execute("UPDATE game_archives SET events = ? WHERE game_key = ? AND first_seq = ?", (block, self.key, first))

    def get(self, seq: int) -> dict[str, Any]:
        """The event at `seq` as stored (an archived one's hash is its short hash)."""
        found = self.archived(seq)
        if found:
            first, events = found
            return dict(zip(COLUMNS, events[seq - first], strict=True))
        row = self.conn.execute(f"SELECT {', '.join(COLUMNS)} FROM events WHERE game_key = ? AND seq = ?", (self.key, seq)).fetchone()
        return dict(zip(COLUMNS, row, strict=True))

    def update(self, seq: int, **values: Any) -> None:
        """Set columns of the event at `seq` (an archived one's block is packed again)."""
        found = self.archived(seq)
        if found is None:
            self.conn.execute(f"UPDATE events SET {', '.join(f'{c} = ?' for c in values)} WHERE game_key = ? AND seq = ?", (*values.values(), self.key, seq))
            return
        first, events = found
        for column, value in values.items():
            events[seq - first][COLUMNS.index(column)] = value
        self._write(first, events)

    def delete(self, seq: int) -> None:
        """Remove the event at `seq` (from its block: the later ones move up a seq)."""
        found = self.archived(seq)
        if found is None:
            self.conn.execute("DELETE FROM events WHERE game_key = ? AND seq = ?", (self.key, seq))
            return
        first, events = found
        del events[seq - first]
        self._write(first, events)

    def swap(self, a: int, b: int) -> None:
        """Exchange the events at two seqs (their rows' seqs, or their places in a block)."""
        if self.archived(a) is None:
            for old, new in ((a, -1), (b, a), (-1, b)):
                self.conn.execute("UPDATE events SET seq = ? WHERE game_key = ? AND seq = ?", (new, self.key, old))
            return
        first, events = self.archived(a)  # type: ignore[misc]
        events[a - first], events[b - first] = events[b - first], events[a - first]
        self._write(first, events)

    def reseal_from(self, seq: int) -> None:
        """Recompute every hash from `seq` on from the events' content, and the head's: the short
        hashes and blocks' last hashes of archived events too."""
        prev = GENESIS
        for s in range(1, self.head + 1):
            e = self.get(s)
            digest = chain_hash(prev, self.game_id, s, event_id_text(e["event_id"]), e["version"], e["recorded_at"], e["payload"].encode())
            if s >= seq:
                full = bytes.fromhex(digest)
                self.update(s, hash=full[:SHORT_HASH] if self.archived(s) else full)
                self.conn.execute("UPDATE game_archives SET last_hash = ? WHERE game_key = ? AND last_seq = ?", (full, self.key, s))
            prev = digest
        self.conn.execute("UPDATE games SET head_hash = ? WHERE id = ?", (prev, self.game_id))
