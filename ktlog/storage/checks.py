"""The checks room: what `ktlog verify` found, kept beside the log: the latest verdict of each
game, and what is wrong with the file itself (while that stands, the store writes nothing)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..envelopes import now
from .room import Room

DAMAGED = "damaged"
"""The meta key holding what `ktlog verify` found wrong with the file (integrity check, schema)."""


class Checks(Room):
    def damage(self) -> str | None:
        """What `ktlog verify` found wrong with the file, if it stands."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (DAMAGED,)).fetchone()
        return None if row is None else str(row[0])

    def record_file_check(self, problems: list[str]) -> None:
        """Keep what `ktlog verify` found wrong with the file itself: while it stands, every write is refused."""
        with self.store.unguarded():
            if problems:
                self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (DAMAGED, "; ".join(problems)))
            else:
                self.conn.execute("DELETE FROM meta WHERE key = ?", (DAMAGED,))

    def record_verdicts(self, verdicts: Iterable[Any]) -> None:
        """Keep the latest `ktlog verify` verdict of each game (not part of the log)."""
        with self.store.unguarded():
            self.conn.executemany(
                "INSERT OR REPLACE INTO verifications (game_id, checked_at, head_seq, ok, bad_seq, problem) VALUES (?,?,?,?,?,?)",
                [(v.game_id, now(), v.events, int(v.ok), v.bad_seq, v.problem) for v in verdicts],
            )
