"""A league as a Parquet dataset (`ktlog dataset export DIR`), for Polars, DuckDB or Spark to
read without ktlog, and for `ktlog stats ... --source DIR` to compute every statistic from.

Layout (Hive style, one folder per season and league, labels escaped as Hive does, a missing label
`__HIVE_DEFAULT_PARTITION__`):

    DIR/metadata.json
    DIR/<table>/season=<season>/league=<league>/part-0.parquet

Tables: `games` (one row per game, its `game_key` joins the others), `game_results` (one row
per player per finished game), `vp_by_op`, `vp_changes` (VP by op and moment), `attacks` (the
dice of every attack), `cp_changes`, `incapacitations`, `turning_points` and `verifications`,
with the database's columns (`ktlog.storage.catalog`). The files keep `season` and `league` in
the games table as columns too: read with hive partitioning off, or let the engine add them.

Run again, an export rewrites only the partitions holding a game with events stored after the
position it last exported (`metadata.json`'s `last_position`), each file atomically.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..errors import KtlogError
from ..files.atomic import write_atomically
from ..storage.dbfile import SCHEMA_VERSION
from .league import Filters, read_table
from .tables import FORMAT, METADATA, table_query

PARTITIONS = ("season", "league")
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""Hive's folder name for a missing value (Spark, DuckDB and Polars read it as null)."""
PROJECTION_TABLES = ("game_results", "vp_by_op", "vp_changes", "attacks", "cp_changes", "incapacitations", "turning_points")
TABLES = ("games", *PROJECTION_TABLES, "verifications")


@dataclass(frozen=True)
class ExportReport:
    partitions_written: int
    partitions_kept: int
    games: int
    last_position: int

    def describe(self, folder: Path) -> str:
        if not self.partitions_written:
            return f"{folder}: nothing new since position {self.last_position}; {self.partitions_kept} partition(s) kept as they were"
        return (
            f"{folder}: wrote {self.partitions_written} partition(s) ({self.games} games), kept {self.partitions_kept}; "
            f"exported up to position {self.last_position}"
        )


def _where(filters: Filters) -> tuple[str, list]:
    """The games the filters take in (player and team narrow rows, not games: refused here)."""
    if filters.player or filters.team:
        raise KtlogError("a dataset holds whole games: --player and --team narrow statistics, not a dataset; drop them")
    clauses, args = [], []
    for column in ("league", "season", "round", "ruleset"):
        value = getattr(filters, column)
        if value is not None:
            clauses.append(f"{column} = ?")
            args.append(value)
    for op, day in ((">=", filters.since), ("<=", filters.until)):
        if day:
            clauses.append(f"date {op} ?")
            args.append(day.isoformat())
    return (" AND ".join(clauses) or "1"), args


HIVE_ESCAPED = set("\"#%'*/:=?\\{[]^") | {chr(c) for c in range(0x20)} | {"\x7f"}
"""The characters Hive writes as %XX in a partition's folder name (the others stay as they are)."""


def _folder(season: str | None, league: str | None) -> str:
    return "/".join(f"{k}={NULL_PARTITION if v is None else _escape(v)}" for k, v in zip(PARTITIONS, (season, league)))


def _escape(value: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in HIVE_ESCAPED else c for c in value)


def _filters_text(filters: Filters) -> dict[str, str]:
    return {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in vars(filters).items() if v is not None}


def export(db: Path, folder: Path, filters: Filters | None = None) -> ExportReport:
    """Export the games of `db` passing `filters` into `folder`, or only what changed since the
    last export there (which must have used the same database and filters)."""
    filters = filters or Filters()
    where, args = _where(filters)
    meta_path = folder / METADATA
    meta = _read_metadata(meta_path)
    if meta and (meta.get("source_database") != str(db.resolve()) or meta.get("filters") != _filters_text(filters)):
        raise KtlogError(
            f"{folder} holds an export of {meta.get('source_database')} with filters {meta.get('filters') or 'none'}; "
            "export into an empty folder, or run the same export again"
        )
    if meta and meta.get("schema_version") != SCHEMA_VERSION:
        meta = {}  # another schema: everything again
    last = meta.get("last_position", 0) if meta else 0
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        position = conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
        every = conn.execute(f"SELECT DISTINCT season, league FROM games WHERE {where}", args).fetchall()
        changed = conn.execute(
            f"SELECT DISTINCT season, league FROM games WHERE {where} AND game_key IN (SELECT DISTINCT game_key FROM events WHERE position > ?)", [*args, last]
        ).fetchall()
    conn.close()
    folder.mkdir(parents=True, exist_ok=True)
    games = 0
    for season, league in changed:
        games += _write_partition(db, folder, where, args, season, league)
    _write_metadata(meta_path, db, filters, position)
    return ExportReport(len(changed), len(every) - len(changed), games, position)


def _write_partition(db: Path, folder: Path, where: str, args: list, season: str | None, league: str | None) -> int:
    """Every table's rows of the games of one season and league, each file replaced whole."""
    label = " AND ".join(f"{k} IS ?" for k in PARTITIONS)
    keys = f"SELECT game_key FROM games WHERE {where} AND {label}"
    params = [*args, season, league]
    games = 0
    for name in TABLES:
        query, types = table_query(name)
        if name == "games":
            sql = f"{query} WHERE game_key IN ({keys})"
        elif name == "verifications":
            sql = f"{query} WHERE game_id IN (SELECT id FROM games WHERE {where} AND {label})"
        else:
            sql = f"{query} WHERE game_key IN ({keys})"
        frame = read_table(db, _inline(sql, params), types)
        games = frame.height if name == "games" else games
        target = folder / name / _folder(season, league)
        target.mkdir(parents=True, exist_ok=True)
        write_atomically(target / "part-0.parquet", frame.write_parquet)
    return games


def _inline(sql: str, params: list) -> str:
    """The query with its parameters as SQL literals (the ADBC reader takes none)."""
    for value in params:
        literal = "NULL" if value is None else "'" + str(value).replace("'", "''") + "'"
        sql = sql.replace("?", literal, 1)
    return sql


def _read_metadata(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise KtlogError(f"cannot read {path} ({exc}); export into an empty folder") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise KtlogError(f"{path} is not a ktlog dataset's metadata; export into an empty folder")
    return meta


def _write_metadata(path: Path, db: Path, filters: Filters, position: int) -> None:
    meta = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "ktlog_version": __version__,
        "source_database": str(db.resolve()),
        "filters": _filters_text(filters),
        "last_position": position,
        "exported_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "tables": list(TABLES),
        "partitioned_by": list(PARTITIONS),
    }
    write_atomically(path, lambda f: f.write(json.dumps(meta, indent=2).encode() + b"\n"))
