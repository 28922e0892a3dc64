"""A ktlog database: `Store`, the entry every layer above opens, is the event log
(`event_log.EventLog`: appending, importing and reading games, the write transactions) and its
rooms, the tables of one purpose beside the log, each in its own module: `games` (the games
table, `store.listing`), `seats`, `keys` (the keyring and signatures), `players` and `checks`
(`ktlog verify`'s verdicts, the file's damage); a tournament's tables are `tournaments`'.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..envelopes import GameRow
from .checks import Checks
from .dbfile import BUSY_TIMEOUT_MS, default_db_path, durable_once, open_database
from .event_log import EventLog, Raced
from .games import Games
from .keys import Keys
from .players import Players
from .seats import Seats

if TYPE_CHECKING:
    import contextlib

    import sqlite_utils

__all__ = ["Raced", "Store"]


class Store(EventLog):
    """A ktlog database. Open it with `Store(path)`; `Store(":memory:")` for tests.

    A game is created with its first events, grows by appended events (each checked by the
    rules, refused with the rule and its page) and is read back as its events or its state:

    >>> from ktlog.events import GameCreated, PlayerJoined, TurningPointStarted
    >>> store = Store(":memory:")
    >>> game = store.new_game(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"), [PlayerJoined(player="Ana", kill_team="Kasrkin")])
    >>> store.append(game, PlayerJoined(player="Ben", kill_team="Legionaries")).seq
    3
    >>> [envelope.type for envelope in store.events(game)]
    ['GameCreated', 'PlayerJoined', 'PlayerJoined']
    >>> store.state(game).players["Ben"].kill_team
    'Legionaries'
    >>> store.append(game, TurningPointStarted(turning_point=1))
    Traceback (most recent call last):
    ktlog.errors.InvalidEvent: set up every operative before the battle: no operatives selected (pg 110)
    >>> store.close()
    """

    def __init__(self, path: str | Path | None = None, *, create: bool = True, busy_timeout_ms: int = BUSY_TIMEOUT_MS):
        self.path = Path(path) if path not in (None, ":memory:") else (default_db_path() if path is None else None)
        self.busy_timeout_ms = busy_timeout_ms
        self.listing = Games(self)
        """The games table: the games listed, their heads, the tables page's reads."""
        self.seats = Seats(self)
        self.keys = Keys(self)
        """The league's keyring and the signatures kept of games' heads."""
        self.players = Players(self)
        """Players as identities, and the database that recorded each game."""
        self.checks = Checks(self)
        """What `ktlog verify` found: each game's verdict, the file's damage."""
        self.conn, stale = open_database(self.path, create=create, busy_timeout_ms=busy_timeout_ms)
        super().__init__()
        if stale:
            self.rebuild()  # derived tables of an older schema are filled in from the log

    @cached_property
    def db(self) -> sqlite_utils.Database:
        """The database through sqlite-utils, for tests and tools (imported at first use: the
        store reads through its connection)."""
        from .schema_library import sqlite_utils

        return sqlite_utils.Database(self.conn, execute_plugins=False)  # ktlog uses no plugins: no scan of installed packages

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_for_locks(self, ms: int) -> None:
        """How long a read or write of this store waits for another program's lock before it is
        refused (0: never waits)."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(ms)}")

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Many write transactions made durable together (one fsync for a whole import)."""
        return durable_once(self.conn)

    # --- games ------------------------------------------------------------------------------

    def games(self, newest: int | None = None) -> list[GameRow]:
        """Every game, oldest first; or only the `newest` games, newest first (`games.Games`)."""
        return self.listing.listed(newest)

    def game(self, game_id: str) -> GameRow:
        return self.listing.game(game_id)

    def resolve(self, prefix: str) -> str:
        """The id of the game whose id is `prefix` or starts with it."""
        return self.listing.resolve(prefix)

    def has_game(self, game_id: str) -> bool:
        return self.listing.has(game_id)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """A query's rows as tuples (`dbfile.Rows`)."""
        return self.conn.execute(sql).fetchall()

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._write():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
