"""What makes a file a current ktlog database, known without opening it as a `Store` (which
loads sqlite-utils and the rules): its SQLite application id and schema version, and where the
database is by default. Read-only commands check a file with `is_current` first and open a
`Store` (which explains, migrates or refuses) only when the file is anything else."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import platformdirs

APPLICATION_ID = 0x6B746C67  # "ktlg"
SCHEMA_VERSION = 6
"""Bumped with each migration; a database with a higher one needs a newer ktlog."""


def default_db_path() -> Path:
    """`KTLOG_DB`, else ktlog.db in the user's data directory."""
    env = os.environ.get("KTLOG_DB")
    return Path(env) if env else platformdirs.user_data_path("ktlog") / "ktlog.db"


def is_current(path: Path) -> bool:
    """Whether `path` is a ktlog database of this schema version, ready to read as it is."""
    try:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return False
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID and conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return False
