"""Write ktlog/storage/new_database.py again from a file the migrations make (`make
new-database`): run it after adding a migration, or new files are made by running every
migration (slower, and tests/test_store.py says the module is stale)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from ktlog.storage import new_database
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.store import Store

MODULE = Path(new_database.__file__)


def main() -> None:
    new_database.VERSION = -1  # stale: the migrations make the file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "migrated.db"
        Store(path).close()
        conn = sqlite3.connect(path)
        statements = [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
        names = [name for (name,) in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
        conn.close()
    source = MODULE.read_text(encoding="utf-8")
    docstring = source[: source.index('"""', 3) + 3]
    lines = [
        docstring,
        "",
        f"VERSION = {SCHEMA_VERSION}",
        '"""The schema version these statements make."""',
        "MIGRATIONS = (",
        *(f"    {name!r}," for name in names),
        ")",
        '"""The migrations a database made by SCHEMA counts as applied (sqlite-utils\' `_sqlite_migrations`)."""',
        "SCHEMA = (",
        *(f"    {statement!r}," for statement in statements),
        ")",
        '"""CREATE statements in the order SQLite lists them (tables before their indexes and triggers)."""',
        "",
    ]
    MODULE.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {MODULE} (schema {SCHEMA_VERSION}, {len(statements)} statements)")


if __name__ == "__main__":
    main()
