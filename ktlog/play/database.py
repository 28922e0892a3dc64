"""The event store as the faces reach it: the one door from the commands, the TUI and the web
server to `ktlog.storage` (tests/test_layers.py and the import contracts keep it the only one).

A face opens a `Store`, lists its games (`GameRow`) and reads a game's events and states
through it; recording goes through `session`, creating a game through the builder and the
importer. Where the database lives and how long a face waits for a lock are the storage's.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from ..storage.dbfile import BUSY_TIMEOUT_MS, UI_BUSY_TIMEOUT_MS, default_db_path, identity, is_current, lost_under

if TYPE_CHECKING:
    from ..envelopes import GameRow
    from ..storage.store import Store

__all__ = ["BUSY_TIMEOUT_MS", "UI_BUSY_TIMEOUT_MS", "GameRow", "Store", "default_db_path", "identity", "is_current", "locked", "lost_under"]


def locked(exc: BaseException) -> bool:
    """Whether SQLite refused because another program holds a lock on the file."""
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


_LOADED_WHEN_ASKED = {"GameRow": "envelopes", "Store": "storage.store"}
"""What loads with the first command that asks for it (the store, its rules and events): a
command that only finds the database file (`ktlog stats --source DIR`, `--help`) starts without them."""


def __getattr__(name: str) -> Any:
    if name not in _LOADED_WHEN_ASKED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"ktlog.{_LOADED_WHEN_ASKED[name]}"), name)
