"""A room of the store: the tables of one purpose beside the event log (seats, keys and
signatures, players, file checks), reached as an attribute of its `Store` (`store.seats` ...).

A room reads and writes through its store's connection and write transactions, so its writes
join an append's transaction when made inside one (`Store.writing`), and a file `ktlog verify`
found damaged refuses them as it refuses an append.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import Store


class Room:
    """The tables of one purpose, read and written through `store`."""

    def __init__(self, store: Store):
        self.store = store

    @property
    def conn(self) -> sqlite3.Connection:
        return self.store.conn

    def _rows(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[dict[str, Any]]:
        """A query's rows as dicts by column name."""
        cursor = self.conn.execute(sql, args)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor]
