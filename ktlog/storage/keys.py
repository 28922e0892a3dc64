"""The keys room: the league's keyring (each public key pinned to the name it signs for) and the
signatures kept of games' heads (`play.keyring` and `play.signatures` decide what they mean)."""

from __future__ import annotations

from ..envelopes import now
from .room import Room


class Keys(Room):
    # --- the keyring ----------------------------------------------------------------------

    def keyring(self) -> list[tuple[str, str, str, str, str | None]]:
        """Every pinned key as (name, public key, how, pinned at, revoked at), by name, then as pinned."""
        return self.conn.execute("SELECT name, public_key, how, pinned_at, revoked_at FROM keyring ORDER BY name, pinned_at").fetchall()

    def pinned(self, public_key: str) -> tuple[str, str | None] | None:
        """The name a key is pinned to and when it was revoked (None: it stands), or None if it is not pinned."""
        row = self.conn.execute("SELECT name, revoked_at FROM keyring WHERE public_key = ?", (public_key,)).fetchone()
        return None if row is None else (row[0], row[1])

    def has_live_key(self, name: str) -> bool:
        """Whether a key not revoked is pinned to `name`."""
        return self.conn.execute("SELECT 1 FROM keyring WHERE name = ? AND revoked_at IS NULL", (name,)).fetchone() is not None

    def pin(self, public_key: str, name: str, how: str) -> None:
        """Pin a public key to a name in the league's keyring (again, if it was revoked)."""
        with self.store.writing():
            self.conn.execute(
                "INSERT INTO keyring (public_key, name, how, pinned_at) VALUES (?,?,?,?) "
                "ON CONFLICT (public_key) DO UPDATE SET name = excluded.name, how = excluded.how, pinned_at = excluded.pinned_at, revoked_at = NULL",
                (public_key, name, how, now()),
            )

    def revoke(self, public_key: str) -> None:
        """Mark a pinned key revoked: signatures by it count as no one's from now on."""
        with self.store.writing():
            self.conn.execute("UPDATE keyring SET revoked_at = ? WHERE public_key = ? AND revoked_at IS NULL", (now(), public_key))

    # --- signatures -----------------------------------------------------------------------

    def add_signatures(self, game_id: str, signatures: list[tuple[int, str, str, str]]) -> None:
        """Keep checked signatures of a game: (head_seq, signer, public key, signature) each."""
        with self.store.writing():
            self.conn.executemany(
                "INSERT OR IGNORE INTO signatures (game_id, head_seq, signer, public_key, signature, recorded_at) VALUES (?,?,?,?,?,?)",
                [(game_id, *s, now()) for s in signatures],
            )

    def signatures(self, game_id: str) -> list[tuple[str, str, int, str]]:
        """A game's kept signatures as (signer, public key, head seq, signature), as kept."""
        return self.conn.execute("SELECT signer, public_key, head_seq, signature FROM signatures WHERE game_id = ? ORDER BY recorded_at", (game_id,)).fetchall()

    def signers_at(self, game_id: str, head_seq: int) -> list[str]:
        """Who kept a signature of the game at `head_seq`, as kept."""
        rows = self.conn.execute("SELECT signer FROM signatures WHERE game_id = ? AND head_seq = ? ORDER BY recorded_at", (game_id, head_seq))
        return [signer for (signer,) in rows]

    def signed_heads(self) -> list[str]:
        """The games with a signature of their head as it stands."""
        return [g for (g,) in self.conn.execute("SELECT DISTINCT s.game_id FROM signatures s JOIN games g ON g.id = s.game_id AND g.head_seq = s.head_seq")]
