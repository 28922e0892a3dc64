"""The players room: players as identities beside the log (a name as shown, the names databases
recorded counted as theirs: `play.players` renames and merges) and which database recorded each
game (`origin`), since a name is a player's within the database that recorded it."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from ..envelopes import now
from .catalog import DATABASE_ID
from .dbfile import Origin, database_home
from .room import Room


class Players(Room):
    def record(self, player_id: str, name: str, aliases: Iterable[tuple[str, str]], *, merged: str | None = None) -> None:
        """In one transaction: a player's name as shown, names as databases recorded them counted
        as theirs (database id, name), and with `merged` another player's names and aliases
        taken over (`play.players`: rename, merge). The log keeps the names as recorded."""
        with self.store.writing():
            if merged is not None:
                self.conn.execute("UPDATE player_aliases SET player_id = ? WHERE player_id = ?", (player_id, merged))
                self.conn.execute("DELETE FROM player_names WHERE player_id = ?", (merged,))
            self.conn.executemany(
                "INSERT OR REPLACE INTO player_aliases (database_id, name, player_id) VALUES (?,?,?)", [(db, n, player_id) for db, n in aliases]
            )
            self.conn.execute("INSERT OR REPLACE INTO player_names (player_id, name, changed_at) VALUES (?,?,?)", (player_id, name, now()))

    def keep_origin(self, game_id: str, origin: Origin | None) -> None:
        """Remember which database recorded a game, unless it is this one or known already (the
        first database a game came from is the one that recorded it); in the caller's transaction."""
        if origin is not None and origin[0] != self.store.meta(DATABASE_ID):
            self.conn.execute("INSERT OR IGNORE INTO game_origins (game_id, database_id, label) VALUES (?,?,?)", (game_id, *origin))

    def origin(self, game_id: str) -> Origin:
        """The database that recorded a game: the one it was imported from, or this one."""
        row = self.conn.execute("SELECT database_id, label FROM game_origins WHERE game_id = ?", (game_id,)).fetchone()
        return (str(row[0]), str(row[1])) if row else self.home()

    def home(self) -> Origin:
        """This database's id and label (`dbfile.database_home`)."""
        if self.store.meta(DATABASE_ID) is None:  # its row deleted behind ktlog's back: a new id, as a new database would make
            self.store.set_meta(DATABASE_ID, uuid.uuid4().hex)
        return database_home(self.store.rows, self.store.path)
