"""A league as a Parquet dataset (`ktlog dataset export DIR`), for Polars, DuckDB, pandas,
pyarrow or Spark to read with their defaults, and for `ktlog stats ... --source DIR` to compute
every statistic from. DIR is a folder or an `s3://bucket/prefix` (`place.py`).

Layout (docs/dataset.md), one folder per season and league, one file per source database:

    DIR/metadata.json
    DIR/<table>/<season>/<league>/part-<source>.parquet

`season` and `league` are columns of the files only: the folder names are labels escaped as Hive
escapes them (and a leading `.` or `_`, which pyarrow and Spark skip), a missing label `~`, and
never `name=value`, so no reader takes a column from them. A folder name has no type: each reader
would guess one (a season of "2026" an integer to DuckDB, pyarrow and Polars), and a column both
in the files and in the folder names is one pandas and pyarrow refuse to merge.

Tables: `games` (one row per game, its `game_key` joins the others), `game_results` (one row
per player per finished game), `vp_by_op`, `vp_changes` (VP by op and moment), `attacks` (the
dice of every attack), `cp_changes`, `incapacitations`, `turning_points` and `verifications`,
with the database's columns (`ktlog.storage.catalog`) in the dataset's types (`columns.dataset_schema`,
listed in `metadata.json`'s `schema`); `game_results` adds who each player is
(`player_id`, `player_name`, `player_label`: `play.players`); `player_games`, what each player
did in each game, summed from the partition's files once they are written (`figures.store_figures`:
the statistics read it while it is of those very files); and `elo/elo.parquet`, the
league's Elo history (`standings.store_elo`: computed at export over every source's games, so
the statistics need not rate every game again; they read it only while it is of the very
results they count); and `answers/standings.parquet`, `players` and `teams`: those statistics of
the dataset's league without filters, with their notes (`answers.store_answers`, last, over every
source's games: `ktlog stats` reads them while they are of the very files beside them).

Several databases (the clubs of a circuit) export into one DIR, each under its source name
(`--name`, by default the database file's name and a hash of its path): the dataset is the union
of their games, and a game already exported from another source is refused. So `game_key` is the
game's own, not a database's rowid: `dataset_key`, the first 8 bytes of the BLAKE2b hash of the
game id as a signed 64-bit integer, the same in every database (an integer joins ten times
faster than the 36-character id, which every table also carries).

Run again, a source's export rewrites only its files of the partitions holding a game with events
stored after the position it last exported, or a player renamed or merged since (`metadata.json`'s
`sources`: `last_position`, and `players`, a hash of who played each partition's games), each
file atomically.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .. import __version__
from ..errors import KtlogError
from ..storage import log
from ..storage.dbfile import SCHEMA_VERSION, database_home
from .answers import store_answers
from .columns import EXPORTED, FORMAT, IDENTITY, LAYOUT, METADATA, TABLES, metadata_schema, table_query, to_dataset
from .figures import STORED, store_figures
from .layout import PARTITIONS, folder
from .league import Filters, read_table
from .place import Place
from .standings import STORED_ELO, store_elo

RESULTS = ("win", "draw", "loss")
"""`game_results.result`, as `ktlog stats results` (results.csv) gives it too."""


@dataclass(frozen=True)
class ExportReport:
    dataset: str
    partitions_written: int
    partitions_kept: int
    games: int
    last_position: int

    def describe(self) -> str:
        if not self.partitions_written:
            return f"{self.dataset}: nothing new since position {self.last_position}; {self.partitions_kept} partition(s) kept as they were"
        return (
            f"{self.dataset}: wrote {self.partitions_written} partition(s) ({self.games} games), kept {self.partitions_kept}; "
            f"exported up to position {self.last_position}"
        )


def _where(filters: Filters, recorded_here: bool) -> tuple[str, list]:
    """The games the filters take in (player and team narrow rows, not games: refused here);
    simulated games only if asked for; with `recorded_here`, only the games this database recorded."""
    if filters.player or filters.team:
        raise KtlogError("a dataset holds whole games: --player and --team narrow statistics, not a dataset; drop them")
    clauses, args = [] if filters.simulated else ["coalesce(simulated, 0) = 0"], []
    if recorded_here:
        clauses.append("id NOT IN (SELECT game_id FROM game_origins)")
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


def _filters_text(filters: Filters, recorded_here: bool) -> dict[str, str | bool]:
    text: dict[str, str | bool] = {k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in vars(filters).items() if v is not None}
    return text | ({"recorded_here": True} if recorded_here else {})


def dataset_key(game_id: str) -> int:
    """A game's `game_key` in a dataset: the first 8 bytes of the BLAKE2b hash of its id, as a
    signed 64-bit integer. The same in every database, so several databases' exports combine;
    hashed because ids as ktlog's tests and other tools write them may share their first bytes
    (`01000000-0000-4000-8000-000000000000`), and a time-ordered UUID's first bytes are its time."""
    return int.from_bytes(hashlib.blake2b(game_id.encode(), digest_size=8).digest(), "big", signed=True)


SOURCE_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")


def source_name(db: Path) -> str:
    """The default name of a database's files in a dataset: its file name's letters and digits and
    a hash of its full path (two clubs' `ktlog.db` differ)."""
    stem = re.sub(r"[^A-Za-z0-9_-]", "", db.stem)[:24] or "db"
    return f"{stem}-{hashlib.blake2b(str(db.resolve()).encode(), digest_size=4).hexdigest()}"


Progress = Callable[[int, int], None]
"""Told (done, total) as partitions are written."""


def export(
    db: Path,
    place: Place,
    filters: Filters | None = None,
    name: str | None = None,
    progress: Progress | None = None,
    recorded_here: bool = False,
) -> ExportReport:
    """Export the games of `db` passing `filters` into `place` as the source `name`, or only what
    changed since that source's last export there (which must have used the same database and
    filters). Other sources' files in `place` stay as they are; a game they hold is refused.
    `recorded_here`: only the games `db` recorded, not those it imported from another database."""
    filters = filters or Filters()
    name = name or source_name(db)
    if not SOURCE_NAME.fullmatch(name):
        raise KtlogError(f"--name {name[:60]!r}: a source name is 1 to 40 letters, digits, '-' or '_'; nothing was written")
    where, args = _where(filters, recorded_here)
    meta = _read_metadata(place)
    mine = meta["sources"].get(name, {})
    if mine and (mine.get("source_database") != str(db.resolve()) or mine.get("filters") != _filters_text(filters, recorded_here)):
        raise KtlogError(
            f"{place} holds an export of {mine.get('source_database')} with filters {mine.get('filters') or 'none'} under the name {name!r}; "
            "run the same export again, give this database another name with --name, or export into an empty folder; nothing was written"
        )
    if mine.get("schema_version") != SCHEMA_VERSION:
        mine = {}  # another schema: everything again
    last = mine.get("last_position", 0)
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        position = log.position(conn)
        every = conn.execute(f"SELECT DISTINCT season, league FROM games WHERE {where}", args).fetchall()
        keys = json.dumps([key for key, _, _ in log.changed_since(conn, last)])
        changed = conn.execute(
            f"SELECT DISTINCT season, league FROM games WHERE {where} AND game_key IN (SELECT value FROM json_each(?))", [*args, keys]
        ).fetchall()
        placed = conn.execute(f"SELECT id, season, league FROM games WHERE {where}", args).fetchall()
        people = _identities(conn, db)
    conn.close()
    ids = [gid for gid, _, _ in placed]
    _refuse_games_of_other_sources(place, name, ids)
    who = _who_plays(people, placed)
    changed += [p for p in every if p not in changed and who.get(folder(*p)) != mine.get("players", {}).get(folder(*p))]  # a rename or merge is no event
    games = 0
    rows: dict[str, int] = dict(mine.get("rows", {}))  # each part's rows as written, for the readers to check
    for done, (season, league) in enumerate(changed):
        written = _write_partition(db, place, name, where, args, season, league, people)
        games += written["games"]
        rows |= {f"{table}/{folder(season, league)}/{_file(name)}": n for table, n in written.items()}
        if progress:
            progress(done + 1, len(changed))
    kept = [f"{folder(season, league)}/{_file(name)}" for season, league in set(every) - set(changed)]
    store_figures(place, [p for p in kept if not place.exists(f"{STORED}/{p}")])  # a dataset exported before ktlog stored them
    _write_metadata(place, meta, name, db, _filters_text(filters, recorded_here), position, who, rows)
    if changed or not place.exists(STORED_ELO):
        store_elo(place)  # the league's Elo over every source's games, computed once here rather than by every statistic
    store_answers(place)  # last, of every file as it now is (none worked out when they are of them already)
    return ExportReport(str(place), len(changed), len(every) - len(changed), games, position)


def _refuse_games_of_other_sources(place: Place, name: str, ids: list[str]) -> None:
    """Refuse, before anything is written, an export holding a game another source exported
    into `place` already (its rows would count twice)."""
    others = [p for p in place.glob("games/*/*/*.parquet") if not p.endswith(f"/{_file(name)}")]
    if not others or not ids:
        return
    both = (
        pl.scan_parquet(others, hive_partitioning=False, include_file_paths="file", storage_options=place.storage_options)
        .select("game_id", "file")
        .filter(pl.col("game_id").is_in(ids))
        .sort("game_id")
        .collect()
    )
    if both.height:
        game_id, file = both.row(0)
        raise KtlogError(
            f"game {game_id[:8]} (and {both.height - 1} more) is in {place} already, exported from another database ({file.rsplit('/', 1)[-1]}); "
            "a dataset takes each game from one database: leave it out of one of them (--recorded-here exports only the games this database recorded, "
            "not those it imported; or filter it out, or import every club's games into one central database); nothing was written"
        )


def _file(name: str) -> str:
    return f"part-{name}.parquet"


def _identities(conn: sqlite3.Connection, db: Path) -> pl.DataFrame:
    """Who each player of each game is (`play.players`): game_id, player (as recorded), and the
    `IDENTITY` columns a dataset's game_results adds."""
    from ..play.players import roster

    def query(sql: str) -> list[tuple]:
        return conn.execute(sql).fetchall()

    found = roster(query, database_home(query, db))
    rows = [(game_id, name, pid, found.players[pid].name, found.players[pid].label) for _, game_id, name, pid in found.seats]
    return pl.DataFrame(rows, schema=["game_id", "player", *IDENTITY], orient="row")


def _who_plays(people: pl.DataFrame, placed: list[tuple[str, str | None, str | None]]) -> dict[str, str]:
    """Each partition's folder and a SHA-256 of who played its games (`_identities`' rows): an
    export rewrites a partition whose players were renamed or merged since it was written."""
    games = pl.DataFrame(placed, schema={"game_id": pl.String, "season": pl.String, "league": pl.String}, orient="row")
    rows = (
        people.join(games, on="game_id")
        .sort("season", "league", "game_id", "player", nulls_last=True)
        .select("season", "league", pl.concat_list(pl.exclude("season", "league").cast(pl.String).fill_null("\x00")).list.join("\x1f").alias("row"))
    )
    digests: dict[str, str] = {}
    for (season, league), part in rows.group_by("season", "league", maintain_order=True):
        digests[folder(season, league)] = hashlib.sha256("\x1e".join(part.get_column("row")).encode()).hexdigest()
    return digests


def _write_partition(db: Path, place: Place, name: str, where: str, args: list, season: str | None, league: str | None, people: pl.DataFrame) -> dict[str, int]:
    """Every table's rows of the games of one season and league in the dataset's types, each
    file replaced whole, their `game_key` the dataset's (`dataset_key`); game_results with who
    each player is (`people`). Returns each table's rows written."""
    label = " AND ".join(f"{k} IS ?" for k in PARTITIONS)
    keys = f"SELECT game_key FROM games WHERE {where} AND {label}"
    params = [*args, season, league]
    games = pl.DataFrame()
    written: dict[str, int] = {}
    for table in EXPORTED:
        query, types = table_query(table)
        if table == "verifications":
            sql = f"{query} WHERE game_id IN (SELECT id FROM games WHERE {where} AND {label})"
        else:
            sql = f"{query} WHERE game_key IN ({keys})"
        frame = read_table(db, sql, types, params)
        if table == "games":
            games = frame
        if table == "game_results":
            frame = _with_opponents(frame, games)
        if "game_key" in frame.columns:
            stable = games.get_column("game_id").map_elements(dataset_key, return_dtype=pl.Int64)
            frame = frame.with_columns(pl.col("game_key").replace_strict(games.get_column("game_key"), stable, return_dtype=pl.Int64))
        if table == "game_results":
            frame = frame.join(people, on=["game_id", "player"], how="left")
        place.write_parquet(f"{table}/{folder(season, league)}/{_file(name)}", to_dataset(table, frame))
        written[table] = frame.height
    store_figures(place, [f"{folder(season, league)}/{_file(name)}"])  # last: an export stopped before it leaves figures of other files, never read
    return written


def _with_opponents(results: pl.DataFrame, games: pl.DataFrame) -> pl.DataFrame:
    """The results with each player's opponents as a list, in the game's order of players (the
    database joins them with ", ", which a name may hold)."""
    seats = games.select("game_key", pl.col("players").str.json_decode(pl.List(pl.String)).alias("opponent")).explode("opponent")
    opponents = (
        results.select("game_key", "player")
        .join(seats, on="game_key", maintain_order="left_right")
        .filter(pl.col("opponent") != pl.col("player"))
        .group_by("game_key", "player", maintain_order=True)
        .agg(pl.col("opponent").alias("opponents"))
    )
    return (
        results.drop("opponents")
        .join(opponents, on=["game_key", "player"], how="left", maintain_order="left")
        .with_columns(pl.col("opponents").fill_null([]))
        .select(results.columns)
    )


def _read_metadata(place: Place) -> dict:
    """A dataset's metadata (a new dataset's when there is none yet)."""
    if not place.exists(METADATA):
        return {"sources": {}}
    try:
        meta = json.loads(place.read(METADATA))
    except ValueError as exc:
        raise KtlogError(f"cannot read {place.name(METADATA)} ({exc}); export into an empty folder") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise KtlogError(f"{place.name(METADATA)} is not a ktlog dataset's metadata; export into an empty folder")
    if not isinstance(meta.get("sources"), dict) or meta.get("layout") != LAYOUT:
        raise KtlogError(f"{place.name(METADATA)} is a dataset of an earlier ktlog (another layout of its files); export into an empty folder")
    return meta


def _write_metadata(
    place: Place, meta: dict, name: str, db: Path, filters: dict[str, str | bool], position: int, who: dict[str, str], rows: dict[str, int]
) -> None:
    sources = meta["sources"] | {
        name: {
            "source_database": str(db.resolve()),
            "filters": filters,
            "last_position": position,
            "players": who,
            "rows": dict(sorted(rows.items())),
            "schema_version": SCHEMA_VERSION,
            "ktlog_version": __version__,
            "exported_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
    }
    meta = {
        "format": FORMAT,
        "layout": LAYOUT,
        "schema_version": SCHEMA_VERSION,
        "ktlog_version": __version__,
        "tables": list(TABLES),
        "folders": [*PARTITIONS, "labels %XX-escaped, a missing one `~`; season and league are columns of the files, never taken from the folder names"],
        "schema": metadata_schema(),
        "result_values": list(RESULTS),
        "game_key": "the first 8 bytes of BLAKE2b(game_id), a signed 64-bit integer: the same from every database",
        "sources": dict(sorted(sources.items())),
    }
    place.write(METADATA, json.dumps(meta, indent=2).encode() + b"\n")
