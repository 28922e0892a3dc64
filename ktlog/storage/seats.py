"""The seats room: a game's seats, each a player's token (kept as its hash) and the key the
seat's device registered (`play.seats` decides who may record what)."""

from __future__ import annotations

from typing import Any

from ..envelopes import now
from .room import Room


class Seats(Room):
    def issue(self, game_id: str, player: str, token_hash: str) -> None:
        """Give the player's seat of the game a new token (by its hash): an earlier token of
        that seat stops working, and the key it registered goes with it (a new device)."""
        with self.store.writing():
            self.conn.execute(
                "INSERT OR REPLACE INTO seats (game_id, player, token_hash, issued_at, revoked_at, public_key) VALUES (?,?,?,?,NULL,NULL)",
                (game_id, player, token_hash, now()),
            )

    def update(self, game_id: str, player: str, **columns: str | None) -> bool:
        """Set columns of a seat (`revoked_at`, `public_key`); whether the game has that seat."""
        with self.store.writing():
            cursor = self.conn.execute(
                f"UPDATE seats SET {', '.join(f'{c}=?' for c in columns)} WHERE game_id=? AND player=?", (*columns.values(), game_id, player)
            )
        return cursor.rowcount > 0

    def rows(self, *, game_id: str | None = None, token_hash: str | None = None) -> list[dict[str, Any]]:
        """The seats of a game, or the live (not revoked) seat holding a token, as rows."""
        if token_hash is not None:
            return self._rows("SELECT * FROM seats WHERE token_hash = ? AND revoked_at IS NULL", [token_hash])
        return self._rows("SELECT * FROM seats WHERE game_id = ? ORDER BY player", [game_id])
