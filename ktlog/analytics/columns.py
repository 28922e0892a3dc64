"""The tables a league reads, from a ktlog database or from its Parquet dataset (`ktlog dataset
export`): the columns and their Polars types, the dataset's own types, and reading a dataset's
table.

A dataset's columns have the types every reader takes as they are (docs/dataset.md): labels are
text (a season of "2026" too), `date` a date, `created_at` and `checked_at` UTC timestamps, flags
booleans and the players, kill teams and opponents lists of text, where the database keeps
integers and JSON or ", "-joined text. `to_dataset` converts a table's frame from the
database's types, `from_dataset` back (but for the lists, which the statistics read as lists from
either source: `league_games`)."""

from __future__ import annotations

from typing import get_type_hints

import polars as pl
from polars.datatypes.classes import DataTypeClass

from ..errors import KtlogError
from ..play.matches import RECORDED_IN
from ..state import LOGS
from ..storage import catalog
from .figures import STORED
from .figures import STORED_SCHEMA as FIGURES
from .layout import FORMAT as FORMAT
from .layout import LAYOUT as LAYOUT
from .layout import METADATA as METADATA
from .layout import check_layout as check_layout
from .layout import is_dataset as is_dataset
from .layout import part_rows
from .place import Place

POLARS_TYPE = {int: pl.Int64, float: pl.Float64, str: pl.String}
GAME_COLUMNS = (
    "created_at",
    "ruleset",
    "killzone",
    "date",
    "league",
    "season",
    "round",
    "table_label",
    "status",
    "winner",
    "ended_by",
    "pve",
    "simulated",
    "disputes",
    "recorded_in",
)
"""The columns of the games table every statistic reads (besides its `game_key`, and its id as
`game_id`); `recorded_in`, the database that recorded the game, is worked out (`RECORDED_IN`)."""
GAME_LISTS = ("players", "kill_teams")
"""The games' lists of players and kill teams, read only by the statistics that use them
(`League.game_lists`): the two lists are about half the time of reading the games."""

PROJECTION_TABLES = ("game_results", "vp_by_op", "vp_changes", "attacks", "cp_changes", "incapacitations", "turning_points")
EXPORTED = ("games", *PROJECTION_TABLES, "verifications")
"""The database's tables a dataset holds."""
TABLES = (*EXPORTED, STORED)
"""A dataset's tables: the database's, and the figures summed from them at export (`figures.STORED`)."""

LISTS = ("players", "kill_teams", "opponents")
"""Columns the database keeps as JSON text (`players`, `kill_teams`) or ", "-joined text (`opponents`)."""
TIMES = ("created_at", "checked_at")
FLAGS = {
    "games": ("pve", "simulated"),
    "verifications": ("ok",),
    **{table: tuple(f for f, hint in get_type_hints(LOGS[log]).items() if hint is bool) for table, log in catalog.PROJECTION_LOGS.items()},
}
"""Each table's columns that are 0 or 1 in the database, true or false in the dataset."""
UTC = pl.Datetime("us", "UTC")


IDENTITY = {"player_id": str, "player_name": str, "player_label": str}
"""The columns a dataset's `game_results` adds to the database's (`play.players`): who each player
is, their name as shown (renamed or merged) and what tells them from a namesake (a club, a key)."""


WORKED_OUT = {"game_id": "id", "recorded_in": RECORDED_IN}
"""The games' columns the statistics read under another name, or work out: SQL over the games table."""


def games_query(columns: tuple[str, ...] = ("game_key", "game_id", *GAME_COLUMNS, *GAME_LISTS)) -> tuple[str, dict[str, type]]:
    """The games' `columns` as the statistics read them (every one by default): the id as `game_id`,
    and the database that recorded each (`recorded_in`)."""
    types = {c: str if c in WORKED_OUT else int if c == "game_key" else catalog.GAMES[c] for c in columns}
    return f"SELECT {', '.join(f'{WORKED_OUT[c]} AS {c}' if c in WORKED_OUT else c for c in columns)} FROM games", types


def table_query(name: str) -> tuple[str, dict[str, type]]:
    """A table's every column (the games: `games_query`)."""
    return games_query() if name == "games" else catalog.select(name)


def dataset_schema(table: str) -> pl.Schema:
    """A table's columns in a dataset and their types (`game_results` with who each player is, `IDENTITY`)."""
    if table == STORED:
        return FIGURES
    _, types = table_query(table)
    types = types | IDENTITY if table == "game_results" else types
    flags = FLAGS.get(table, ())

    def kind(column: str, sql: type) -> pl.DataType:
        if column in LISTS:
            return pl.List(pl.String)
        if column == "date":
            return pl.Date()
        if column in TIMES:
            return UTC
        return pl.Boolean() if column in flags else POLARS_TYPE[sql]()

    return pl.Schema({c: kind(c, t) for c, t in types.items()})


def type_name(dtype: pl.DataType | DataTypeClass) -> str:
    """A type as pyarrow names what the files hold (the metadata's and docs/dataset.md's names)."""
    names = {pl.String: "large_string", pl.Int64: "int64", pl.Float64: "double", pl.Boolean: "bool", pl.Date: "date32[day]"}
    if isinstance(dtype, pl.List):
        return f"large_list<element: {type_name(dtype.inner)}>"
    if isinstance(dtype, pl.Datetime):
        return "timestamp[us, tz=UTC]"
    return names[dtype.base_type()]


def to_dataset(table: str, frame: pl.DataFrame) -> pl.DataFrame:
    """A table's frame as the database gives it, in the dataset's types."""
    schema = dataset_schema(table)

    def convert(column: str) -> pl.Expr:
        col, dtype = pl.col(column), schema[column]
        if column == "opponents":  # computed from the game's players by `with_opponents`
            return col
        if isinstance(dtype, pl.List):
            return col.str.json_decode(dtype)
        if dtype == pl.Date:
            return col.str.to_date("%Y-%m-%d", strict=False)
        if dtype == UTC:
            return col.str.to_datetime(time_zone="UTC", time_unit="us", strict=False)
        return col.fill_null(0).cast(pl.Boolean) if dtype == pl.Boolean else col.cast(dtype)

    return frame.select(convert(c) for c in schema)


def from_dataset(table: str, frame: pl.DataFrame) -> pl.DataFrame:
    """A dataset's frame in the database's types (dates as text, flags 0 or 1, opponents joined
    with ", "), but for the games' lists of players and kill teams (`league_games`)."""

    def convert(column: str, dtype: pl.DataType) -> pl.Expr:
        col = pl.col(column)
        if column == "opponents":
            return col.list.join(", ")
        if dtype == pl.Date:
            return col.dt.to_string("%Y-%m-%d")
        return col.cast(pl.Int64) if dtype == pl.Boolean else col

    return frame.select(convert(c, t) for c, t in frame.schema.items())


def league_games(frame: pl.DataFrame) -> pl.DataFrame:
    """The database's games with their players and kill teams as lists, as a dataset has them."""
    return frame.with_columns(pl.col(c).str.json_decode(pl.List(pl.String)) for c in ("players", "kill_teams") if c in frame.columns)


def metadata_schema() -> dict[str, dict[str, str]]:
    """Every table's columns and their types, as the dataset's metadata gives them."""
    return {table: {c: type_name(t) for c, t in dataset_schema(table).items()} for table in TABLES}


def damaged_files(place: Place) -> list[str]:
    """The dataset's Parquet files whose footer cannot be read (cut short, overwritten, not
    Parquet), by their names in the dataset: looked for once a read has failed."""
    damaged = []
    for file in place.glob("*/*/*/*.parquet") + place.glob("elo/*.parquet"):
        try:
            pl.read_parquet_metadata(file, storage_options=place.storage_options)
        except (pl.exceptions.PolarsError, OSError):
            damaged.append(file[len(str(place)) :].lstrip("/"))
    return damaged


def _check_rows(place: Place, files: list[str]) -> None:
    """Refuse, before it is read, a part holding other rows than its export wrote (the counts in
    `metadata.json`): a part's rows repeated 20,000 times kept `stats --source` busy for minutes
    (issue 38). Only each file's footer is read."""
    expected = part_rows(place)
    for file in files:
        rel = file[len(str(place)) :].lstrip("/")
        if rel not in expected:
            continue  # written by an earlier ktlog, without its count
        rows = pl.scan_parquet(file, storage_options=place.storage_options).select(pl.len()).collect().item()
        if rows != expected[rel]:
            raise KtlogError(
                f"{place.name(rel)} holds {rows:,} rows where the dataset's {METADATA} says its export wrote {expected[rel]:,}: it was changed "
                "after the export (rows added, repeated or cut); export the dataset again into an empty folder"
            )


LATER = {"games": ("recorded_in",)}
"""Columns a dataset's files from an earlier ktlog lack (issue 40): read as missing (null) there."""


def _with_later_columns(place: Place, file: str, name: str, wanted: pl.Schema) -> pl.LazyFrame:
    """One file of a table, the `LATER` columns it lacks as nulls."""
    scan = pl.scan_parquet(file, hive_partitioning=False, storage_options=place.storage_options)
    have = set(scan.collect_schema().names())
    return scan.with_columns(pl.lit(None, wanted[c]).alias(c) for c in LATER[name] if c in wanted and c not in have)


def read_dataset_table(place: Place, name: str, columns: tuple[str, ...] | None, where: pl.Expr | None = None, files: list[str] | None = None) -> pl.DataFrame:
    """One table of a dataset (its `columns`, all by default; the rows `where` holds, all by
    default, read only where Parquet's statistics allow; from `files`, all of the table's by
    default), in the database's types but for the games' lists (`from_dataset`)."""
    schema = dataset_schema(name)
    wanted = pl.Schema({c: schema[c] for c in (columns or tuple(schema))})
    files = place.glob(f"{name}/*/*/*.parquet") if files is None else files
    if not files:
        return from_dataset(name, pl.DataFrame(schema=wanted))
    _check_rows(place, files)
    scan = pl.scan_parquet(files, hive_partitioning=False, storage_options=place.storage_options)
    try:
        try:
            frame = (scan if where is None else scan.filter(where)).select(list(wanted)).cast(wanted).collect()
        except pl.exceptions.ColumnNotFoundError:
            if not set(wanted).intersection(LATER.get(name, ())):
                raise
            scan = pl.concat([_with_later_columns(place, file, name, wanted) for file in files], how="diagonal_relaxed")
            frame = (scan if where is None else scan.filter(where)).select(list(wanted)).cast(wanted).collect()
    except (pl.exceptions.ColumnNotFoundError, pl.exceptions.SchemaError, pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError) as exc:
        raise KtlogError(
            f"a part of the {name} table in {place} is not one ktlog wrote ({str(exc).splitlines()[0][:120]}): another table's file or another "
            "program's put in its place? Export the dataset again into an empty folder"
        ) from exc
    if name == "games" and "game_key" in frame.columns and frame.get_column("game_key").n_unique() < frame.height:
        twice = frame.filter(pl.col("game_key").is_duplicated()).get_column("game_key")[0]
        raise KtlogError(
            f"{place} holds game key {twice} more than once (a game exported from two databases, or two datasets copied together); "
            "export each game from one database into an empty folder"
        )
    return from_dataset(name, frame)
