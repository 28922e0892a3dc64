"""The database file: what makes a file a current ktlog database (its SQLite application id
and schema version), where it is by default, and opening one: pragmas, busy timeout, migrating
an older schema, write transactions, and what to tell the user about a wrong, damaged, locked
or read-only file.

Read-only commands check a file with `is_current` first, without loading the store or the rules,
and open a `Store` (which explains, migrates or refuses) only when the file is anything else.

Only SQLite opens a database file and its `-wal` and `-shm`, and only this process's SQLite (the
one Python's `sqlite3` links): its locks are POSIX locks, which belong to the process, and any
other open and close of the same file (Python's `open()`, a second copy of SQLite such as the
ADBC driver's) drops every lock the process holds on it. Another program then takes itself for
the last one, checkpoints and deletes the write-ahead log this process is still writing (issue
38). So a file's kind is learnt from `os.stat` and from SQLite's own answer, never by reading its
header, and `tests/test_one_opener.py` watches every open in a server, a TUI and the commands.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import platformdirs

from .. import __version__
from ..errors import StoreError
from . import new_database

APPLICATION_ID = 0x6B746C67  # "ktlg"
SCHEMA_VERSION = 23
"""Bumped with each migration; a database with a higher one needs a newer ktlog."""
SCHEMA_NEEDS_KTLOG = "0.1.0"
"""The first ktlog version that reads this schema (recorded in the database's meta table)."""
BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another writer's lock before it fails."""
UI_BUSY_TIMEOUT_MS = 1000
"""The terminal UI waits at most this long for another writer's lock; then it keeps the event for
ctrl+r, so the screen never freezes for the full BUSY_TIMEOUT_MS."""


Origin = tuple[str, str]
"""The database that recorded a game: its id and its label (`play.players`)."""


Rows = Callable[[str], Sequence[Sequence[Any]]]
"""A query's rows, by whichever SQLite library reads (Python's, or the statistics' ADBC driver:
one process must not open a file with both, or their locks undo each other)."""


def database_home(rows: Rows, path: Path | None) -> Origin:
    """A database's own id (meta `database_id`, made by migration 17; "" if deleted behind
    ktlog's back) and label: meta `database_label` (`ktlog player club`), else its file's name
    and the start of its id, as two clubs' `ktlog.db` differ."""
    meta = {key: value for key, value in rows("SELECT key, value FROM meta WHERE key IN ('database_id', 'database_label')")}
    database = str(meta.get("database_id") or "")
    stem = path.stem if path else "memory"
    return database, str(meta.get("database_label") or f"{stem[:40]}-{database[:4]}")


def default_db_path() -> Path:
    """`KTLOG_DB`, else ktlog.db in the user's data directory."""
    env = os.environ.get("KTLOG_DB")
    return Path(env) if env else platformdirs.user_data_path("ktlog") / "ktlog.db"


def is_current(path: Path) -> bool:
    """Whether `path` is a ktlog database of this schema version, ready to read as it is."""
    try:
        if not path.is_file() or not os.stat(path).st_size:
            return False  # a pipe or device is never opened: reading it could wait forever
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return bool(
                conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
                and conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
                and not rebuild_pending(conn)
            )
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return False


def open_database(path: Path | None, *, create: bool = True, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> tuple[sqlite3.Connection, bool]:
    """Connect to the database at `path` (None: in memory) and bring it to the current schema.
    Returns the connection (autocommit: see `transaction`) and whether a migration changed the
    derived tables of stored games, which must then be rebuilt from the log (`REBUILD_PENDING`)."""
    conn = _connect(path, create, busy_timeout_ms)
    try:
        return conn, _migrate(conn, path)
    except BaseException:
        conn.close()
        raise


def _connect(path: Path | None, create: bool, busy_timeout_ms: int) -> sqlite3.Connection:
    if path is None:
        return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    where = str(path)
    if path.exists():
        if path.is_dir():
            raise StoreError(f"{where} is a directory, not a database file; give the path of a .db file with --db")
        if not path.is_file():
            raise StoreError(f"{where} is not a regular file (a pipe or a device); give the path of a .db file with --db")
        if not create and not os.stat(path).st_size:
            raise StoreError(f"{where} is an empty file, not a ktlog database; record or import a game into it, or choose another with --db")
    elif not create:
        raise StoreError(f"no database at {where}; record or import a game first, or choose one with --db")
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for {where}: {exc.strerror}; choose another place with --db or KTLOG_DB") from exc
    if not create and not os.access(path.parent, os.W_OK):
        return _read_only(path, busy_timeout_ms)
    try:
        conn = sqlite3.connect(where, isolation_level=None, check_same_thread=False, timeout=busy_timeout_ms / 1000)
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        conn.execute("PRAGMA foreign_keys = ON")
        if _another_programs(conn):
            return conn  # `_migrate` refuses it, left exactly as it was (not even switched to WAL mode)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.DatabaseError as exc:
        folder = path.parent
        if not os.access(folder, os.W_OK):
            raise StoreError(
                f"cannot open {where}: its folder {folder} is read-only, and SQLite writes {path.name}-wal and "
                f"{path.name}-shm beside a database (and creates a new one there); make the folder writable, "
                "or copy the database to a writable folder and give that path with --db"
            ) from exc
        if exc.sqlite_errorcode == sqlite3.SQLITE_NOTADB:  # SQLite read the header: not "SQLite format 3"
            raise StoreError(f"{where} is not a SQLite database (it may be a game-log file: use `ktlog import`); choose another file with --db") from exc
        if "malformed" in str(exc):
            raise StoreError(
                f"cannot open {where}: the file is damaged ({exc}); it may have been cut short while being copied. "
                "Restore it from a backup, or import the games' exported files into a new database"
            ) from exc
        raise StoreError(f"cannot open {where} as a database: {exc}; choose another file with --db") from exc
    if mode.lower() != "wal" and os.access(where, os.W_OK):
        raise StoreError(f"{where}: cannot switch to WAL mode ({mode}); is the folder writable?")
    return conn


COMPANIONS = ("", "-wal", "-shm", "-journal")
"""Suffixes of the files SQLite keeps for a database: the file itself, its write-ahead log, its
shared memory and its rollback journal."""


def companion_of(path: Path, database: Path | None) -> str | None:
    """Which of the database's files `path` is, by its name or its inode (a link to it): its
    suffix in `COMPANIONS`, or None for another file. Nothing is opened: a file read or written
    there would drop this process's locks, or destroy the database."""
    if database is None:
        return None
    target = Path(path).resolve()
    for suffix in COMPANIONS:
        companion = Path(f"{database}{suffix}")
        if target == companion.resolve():
            return suffix
        with contextlib.suppress(OSError):
            if os.path.samefile(target, companion):
                return suffix
    return None


def held_open(path: Path) -> bool:
    """Whether this process has the database or a file SQLite keeps beside it open (a connection of its
    SQLite): another library must not open the file then (the module's docstring). Read from the
    process's open files (`/dev/fd`); where there is none (Windows), locks are not POSIX ones."""
    wanted = set()
    for name in (f"{path}{suffix}" for suffix in COMPANIONS):
        with contextlib.suppress(OSError):
            st = os.stat(name)
            wanted.add((st.st_dev, st.st_ino))
    try:
        fds = os.listdir("/dev/fd")
    except OSError:
        return False
    for fd in fds:
        with contextlib.suppress(OSError, ValueError):
            st = os.fstat(int(fd))
            if (st.st_dev, st.st_ino) in wanted:
                return True
    return False


def identity(path: Path) -> tuple[int, int] | None:
    """The file's device and inode (None when there is none): another pair is another file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def lost_under(path: Path, opened: tuple[int, int] | None) -> str | None:
    """What happened to a database this process opened as the file `opened` (its `identity`), in a
    sentence, or None while it is still the file at `path` with its write-ahead log: deleted or
    replaced, or its `-wal` or `-shm` deleted under the connections (a program that dropped its
    own locks thought itself the last and cleaned up, issue 38). What is written then reaches
    no one else, so a long-running writer (`ktlog serve`) stops and opens the file again."""
    now = identity(path)
    if now is None:
        return f"{path} was deleted or moved while the server had it open"
    if opened is not None and now != opened:
        return f"{path} was replaced by another file while the server had it open"
    real = os.path.realpath(path)
    with contextlib.suppress(OSError):
        for fd in os.listdir("/proc/self/fd"):  # Linux: where a file open here was deleted, its link says so
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/self/fd/{fd}")
                if target.startswith(real) and target.endswith(" (deleted)") and target[len(real) :].startswith(("-wal", "-shm")):
                    return f"the write-ahead log of {path} was deleted under the server by another program"
    return None


def read_uri(path: Path) -> str:
    """The URI another reader (the statistics' ADBC driver) opens a database with: the file as it
    is, or read-only in a folder nobody here may write (see `_read_only`)."""
    if os.access(path.parent, os.W_OK):
        return str(path)
    return f"{path.resolve().as_uri()}?mode=ro{'' if Path(f'{path}-wal').exists() else '&immutable=1'}"


def _read_only(path: Path, busy_timeout_ms: int) -> sqlite3.Connection:
    """A database in a folder nobody here may write (a read-only share, a mounted backup), opened
    to read (issue 24 #25: it could not be read at all). SQLite keeps its -wal and -shm files
    beside a database: with a -wal left there it reads through it; without, nothing can change
    the file, so it is read as immutable. A write is then refused as read-only."""
    try:
        conn = sqlite3.connect(read_uri(path), uri=True, isolation_level=None, check_same_thread=False, timeout=busy_timeout_ms / 1000)
        conn.execute("PRAGMA application_id").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"cannot read {path}: its folder {path.parent} is read-only ({exc}), and SQLite needs {path.name}-shm beside a database "
            "with a write-ahead log; copy the database to a writable folder and give that path with --db"
        ) from exc
    return conn


def _another_programs(conn: sqlite3.Connection) -> bool:
    """Whether a database has tables but not ktlog's application id."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    return app_id != APPLICATION_ID and conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table'").fetchone() is not None


def _migrate(conn: sqlite3.Connection, path: Path | None) -> bool:
    """Refuse another program's database or a newer ktlog's; create or migrate ktlog's tables.
    Returns whether the derived tables of stored games must be rebuilt."""
    where = path or ":memory:"
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{where} is not a usable SQLite database ({exc}); choose another file with --db") from exc
    if app_id != APPLICATION_ID and tables:
        raise StoreError(f"{where} is a SQLite database but not a ktlog one (it has tables {', '.join(sorted(tables)[:5])}); choose another file with --db")
    if version > SCHEMA_VERSION:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall()) if "meta" in tables else {}
        needs = f"ktlog {meta['needs_ktlog']} or newer" if "needs_ktlog" in meta else "a newer ktlog"
        raise StoreError(
            f"{where} was written by a newer ktlog (database schema {version}; this is ktlog {__version__}, which reads up to "
            f"schema {SCHEMA_VERSION}); install {needs} to open it"
        )
    if version == SCHEMA_VERSION:
        return rebuild_pending(conn)
    if not version and not tables and new_database.VERSION == SCHEMA_VERSION:
        _create(conn, path)
        return False
    from .migrations import COMPACTING_MIGRATIONS, REBUILDING_MIGRATIONS, migrations
    from .schema_library import sqlite_utils

    db = sqlite_utils.Database(conn, execute_plugins=False)
    pending = {m.name for m in migrations.pending(db)}
    with _setting_up(conn, path):
        migrations.apply(db)
        if version and pending & REBUILDING_MIGRATIONS and conn.execute("SELECT 1 FROM games").fetchone():
            conn.execute(f"INSERT OR REPLACE INTO meta (key, value) VALUES ('{REBUILD_PENDING}', ?)", (str(version),))
    if version and pending & COMPACTING_MIGRATIONS:
        try:
            conn.execute("VACUUM")  # the pages the old tables held go back to the disk
        except sqlite3.OperationalError:
            pass  # no room for the copy VACUUM makes: the file keeps its size, and new rows use the free pages
    return rebuild_pending(conn)


REBUILD_PENDING = "rebuild_pending"
"""The meta key a migration that changes the derived tables leaves, in its own transaction, with
the schema it came from; `Store.rebuild` removes it in the rebuild's. A process killed between
the two leaves it, and the next ktlog to open the file rebuilds (2 of 20 kills left the games'
derived columns empty before, and `verify` blamed an edit, issue 38)."""


def rebuild_pending(conn: sqlite3.Connection) -> bool:
    """Whether a migration's rebuild of the derived tables has not been done yet."""
    return conn.execute(f"SELECT 1 FROM meta WHERE key = '{REBUILD_PENDING}'").fetchone() is not None


def _create(conn: sqlite3.Connection, path: Path | None) -> None:
    """Make ktlog's tables in an empty file from `new_database`'s statements."""
    with _setting_up(conn, path):
        for statement in new_database.SCHEMA:
            conn.execute(statement)
        applied = dt.datetime.now(dt.UTC).isoformat(sep=" ")  # as sqlite-utils writes the time
        conn.executemany(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('ktlog', ?, ?)", [(m, applied) for m in new_database.MIGRATIONS]
        )


@contextlib.contextmanager
def _setting_up(conn: sqlite3.Connection, path: Path | None) -> Iterator[None]:
    """One transaction making or migrating ktlog's tables, then marking the file as ktlog's, of
    this schema, written by this ktlog."""
    try:
        with transaction(conn, path):
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            yield
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [("written_by", __version__), ("needs_ktlog", SCHEMA_NEEDS_KTLOG)])
            # The database's own id, made once (`play.players`: a player with no key is a name within the database that recorded them).
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))))")
    except sqlite3.OperationalError as exc:
        raise StoreError(f"cannot set up the ktlog tables in {path or ':memory:'}: {exc}; is the file read-only?") from exc


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, path: Path | None) -> Iterator[None]:
    """One write transaction, taking the write lock at once (no deadlock between writers)."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise store_error(exc, path) from exc
    try:
        yield
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.OperationalError) or (isinstance(exc, sqlite3.DatabaseError) and "malformed" in str(exc)):
            raise store_error(exc, path) from exc
        raise


@contextlib.contextmanager
def durable_once(conn: sqlite3.Connection) -> Iterator[None]:
    """Many write transactions made durable together: each stays atomic, but only the last
    waits for the disk (one fsync for a whole import instead of one per file)."""
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        yield
    finally:
        conn.execute("PRAGMA synchronous = FULL")
        if not conn.in_transaction:
            try:
                conn.execute("PRAGMA wal_checkpoint(FULL)")
            except sqlite3.OperationalError as exc:  # what was committed stays committed, in the write-ahead log
                raise StoreError(
                    f"what was written is recorded, but it could not be copied from the write-ahead log into the "
                    f"database ({exc}); free some space: the next ktlog to open the database copies it"
                ) from exc


def store_error(exc: Exception, path: Path | None, *, writing: bool = True) -> StoreError:
    """What a failed write or read means to the user: a lock, a read-only file, a damaged file,
    a full disk (`exc`: an error of sqlite3 or of the ADBC driver the analytics read with). A
    read (`writing` False) never says "nothing was recorded": it recorded nothing anyway."""
    text = str(exc)
    where = path or ":memory:"
    unchanged = "; nothing was recorded" if writing else ""
    if "locked" in text or "busy" in text:
        return StoreError(f"{where} is locked by another ktlog writing to it; wait a moment and try again")
    if "readonly" in text or "read-only" in text:
        return StoreError(f"{where} is read-only{unchanged}. Make the file writable or choose another with --db")
    if "malformed" in text or "not a database" in text:
        return StoreError(f"{where} is damaged ({text}){unchanged}. `ktlog verify` says what is wrong; restore it from a backup")
    if "full" in text or "disk" in text:
        return StoreError(f"the disk holding {where} is full{unchanged}. Free some space and try again")
    return StoreError(f"{where}: {text}")
