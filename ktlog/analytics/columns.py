"""The tables a league reads, from a ktlog database or from its Parquet dataset (`ktlog dataset
export`): the columns and their Polars types, and reading a dataset's table."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..errors import KtlogError
from ..storage import catalog

POLARS_TYPE = {int: pl.Int64, float: pl.Float64, str: pl.String}
FORMAT = "ktlog-dataset"
METADATA = "metadata.json"
"""A dataset's folder holds this file (its format, schema version, source and last position)."""

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
    "players",
    "kill_teams",
    "winner",
    "ended_by",
    "pve",
    "simulated",
    "disputes",
)
"""The columns of the games table the statistics read (besides its `game_key`, and its id as
`game_id`)."""


IDENTITY = {"player_id": str, "player_name": str, "player_label": str}
"""The columns a dataset's `game_results` adds to the database's (`play.players`): who each player
is, their name as shown (renamed or merged) and what tells them from a namesake (a club, a key)."""


def games_query() -> tuple[str, dict[str, type]]:
    """The games as the statistics read them: the id as `game_id`."""
    types = {"game_key": int, "game_id": str, **{c: catalog.GAMES[c] for c in GAME_COLUMNS}}
    return f"SELECT game_key, id AS game_id, {', '.join(GAME_COLUMNS)} FROM games", types


def table_query(name: str) -> tuple[str, dict[str, type]]:
    """A table's every column (the games: `games_query`)."""
    return games_query() if name == "games" else catalog.select(name)


def is_dataset(path: Path) -> bool:
    return (path / METADATA).is_file()


def read_dataset_table(folder: Path, name: str, columns: tuple[str, ...] | None) -> pl.DataFrame:
    """One table of a dataset (its `columns`, all by default), typed as the database's."""
    _, types = table_query(name)
    files = sorted((folder / name).glob("*/*/*.parquet"))
    if name == "game_results" and files and set(IDENTITY) <= set(pl.read_parquet_schema(files[0])):
        types |= IDENTITY
    wanted = {c: types[c] for c in (columns or tuple(types)) if c in types or c not in IDENTITY}  # an older dataset has no identities
    schema = pl.Schema({c: POLARS_TYPE[t] for c, t in wanted.items()})
    if not files:
        return pl.DataFrame(schema=schema)
    frame = pl.scan_parquet(files, hive_partitioning=False).select(list(wanted)).cast(schema).collect()
    if name == "games" and "game_key" in frame.columns and frame.get_column("game_key").n_unique() < frame.height:
        twice = frame.filter(pl.col("game_key").is_duplicated()).get_column("game_key")[0]
        raise KtlogError(
            f"{folder} holds game key {twice} more than once (a game exported from two databases, or two datasets copied together); "
            "export each game from one database into an empty folder"
        )
    return frame
