"""What each player did in each finished game (VP by op, operatives lost and incapacitated, CP
gained and spent, turning points with the initiative): summed from the projection tables
(`game_figures`), and stored in a dataset at export (`player_games`, `store_figures`) so the
statistics read one row per player per game instead of summing millions of rows per query.

A stored file is read only while it is of the very rows it was summed from: its Parquet metadata
`ktlog.figures_of` is the SHA-256 of the bytes of its partition's input files (`INPUTS`), and its
rows name the same games and players, in the same order, as the results counted. Otherwise (a
file edited or copied in, an export stopped between files, a dataset from before it) the figures
are summed again, as a database's always are.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import polars as pl

from ..storage import catalog
from .place import Place

if TYPE_CHECKING:
    from .league import League

STORED = "player_games"
"""A dataset's table of stored figures: `STORED/<season>/<league>/part-<source>.parquet`, beside
the same partition's `game_results`, one row per row of it, in its order."""
INPUTS = ("vp_by_op", "incapacitations", "cp_changes", "turning_points")
"""The tables the figures are summed from."""
KEYS = ("game_key", "game_id", "player")
COUNTS = ("operatives_lost", "enemies_incapacitated", "cp_gained", "cp_spent", "turning_points", "turning_points_with_initiative")
SCHEMA = pl.Schema(
    {
        "game_key": pl.Int64,
        "game_id": pl.String,
        "player": pl.String,
        **{f"vp_{op}": pl.Int64 for op in catalog.OPS},
        **dict.fromkeys(COUNTS, pl.Int64),
        "tp1_initiative": pl.Boolean,
    }
)
"""The figures' columns (docs/dataset.md): a VP column for each of `catalog.OPS` (a partition
scoring another op stores no figures)."""
OPPONENTS = pl.Schema({"vp_total": pl.Int64, "players": pl.Int64, "vp_against": pl.Float64})
"""`STORED`'s columns after the figures, which the standings read (`stored_opponents`): the row's
VP (as the results had it at export), the players of its game and the mean of their opponents'
VP (null in a game of one player), a function of the game's result rows alone."""
STORED_SCHEMA = pl.Schema({**SCHEMA, **OPPONENTS})
"""`STORED`'s columns."""
FINGERPRINT = "ktlog.figures_of"
_READ = {
    "vp_by_op": {"game_key": pl.Int64, "player": pl.String, "op": pl.String, "vp": pl.Int64},
    "incapacitations": {"game_key": pl.Int64, "player": pl.String},
    "cp_changes": {"game_key": pl.Int64, "player": pl.String, "delta": pl.Int64},
    "turning_points": {"game_key": pl.Int64, "turning_point": pl.Int64, "initiative": pl.String},
}
"""The columns the sums read of each input (a missing file: no rows)."""


def game_figures(
    results: pl.DataFrame, by_op: pl.DataFrame, incapacitations: pl.DataFrame, cp_changes: pl.DataFrame, turning_points: pl.DataFrame, ops: list[str]
) -> pl.DataFrame:
    """One row per result row (game_key, game_id, player), in its order: the player's VP of each
    of `ops`, operatives lost, enemy operatives incapacitated (the game's incapacitations less
    their own), CP gained and spent, the game's turning points, those with their initiative and
    whether they had it in the first (null when the game has no turning point). Each table is
    summed by game and player (or by game) first, then joined once (Polars runs the sums side by side)."""
    game_player = ["game_key", "player"]
    kills, tps = incapacitations.lazy(), turning_points.lazy()
    sums = [
        (by_op.lazy().group_by(game_player).agg(pl.col("vp").filter(pl.col("op") == op).sum().alias(f"vp_{op}") for op in ops), game_player),
        (kills.group_by(game_player).agg(pl.len().alias("operatives_lost")), game_player),
        (kills.group_by("game_key").agg(pl.len().alias("incapacitated")), ["game_key"]),
        (
            cp_changes.lazy()
            .group_by(game_player)
            .agg(pl.col("delta").clip(lower_bound=0).sum().alias("cp_gained"), (-pl.col("delta").clip(upper_bound=0)).sum().alias("cp_spent")),
            game_player,
        ),
        (tps.group_by("game_key").agg(pl.len().alias("turning_points")), ["game_key"]),
        (
            tps.group_by("game_key", player="initiative").agg(
                pl.len().alias("turning_points_with_initiative"), (pl.col("turning_point") == 1).any().alias("tp1_initiative")
            ),
            game_player,
        ),
    ]
    rows = results.lazy().select(KEYS)
    for frame, on in sums:
        rows = rows.join(frame, on=on, how="left", maintain_order="left")
    counts = pl.col("operatives_lost", "cp_gained", "cp_spent", "turning_points", "turning_points_with_initiative")
    return (
        rows.with_columns(
            pl.col(f"vp_{op}" for op in ops).fill_null(0),
            counts.fill_null(0).cast(pl.Int64),
            enemies_incapacitated=(pl.col("incapacitated").fill_null(0) - pl.col("operatives_lost").fill_null(0)).cast(pl.Int64),
            tp1_initiative=pl.when(pl.col("turning_points").is_not_null()).then(pl.col("tp1_initiative").fill_null(False)),  # no turning point: unknown
        )
        .select(*KEYS, *(f"vp_{op}" for op in ops), *COUNTS, "tp1_initiative")
        .collect()
    )


def _partition(place: Place, table: str, full_name: str) -> str:
    """`<season>/<league>/part-<source>.parquet` of one of `table`'s files (as `Place.glob` names it)."""
    return full_name[len(place.name(table)) + 1 :]


def _inputs(place: Place, partition: str, keep: bool = False) -> tuple[str, dict[str, bytes]]:
    """The SHA-256 of one partition's `INPUTS` files (a missing one counted as missing), and their bytes if `keep`."""
    return place.digest([(table, f"{table}/{partition}") for table in INPUTS], keep)


def store_figures(place: Place, partitions: list[str] | None = None) -> None:
    """Sum the figures of the dataset's partitions (`<season>/<league>/part-<source>.parquet`;
    every partition holding results by default) from its files and store them (`STORED`) with the
    fingerprint of the files they were summed from. A partition scoring an op outside
    `catalog.OPS` is stored with no fingerprint, so never read."""
    if partitions is None:
        partitions = [_partition(place, "game_results", f) for f in place.glob("game_results/*/*/*.parquet")]
    for partition in partitions:
        of, found = _inputs(place, partition, keep=True)
        frames = {t: pl.read_parquet(io.BytesIO(found[t]), columns=list(_READ[t])) if t in found else pl.DataFrame(schema=_READ[t]) for t in INPUTS}
        results = pl.read_parquet(io.BytesIO(place.read(f"game_results/{partition}")), columns=[*KEYS, "vp_total"])
        ops = set(frames["vp_by_op"].get_column("op").unique())
        figures = game_figures(results, frames["vp_by_op"], frames["incapacitations"], frames["cp_changes"], frames["turning_points"], list(catalog.OPS))
        figures = pl.concat([figures, opponents_vp(results)], how="horizontal")
        place.write_parquet(f"{STORED}/{partition}", figures, metadata={FINGERPRINT: of if ops <= set(catalog.OPS) else ""})


def opponents_vp(results: pl.DataFrame) -> pl.DataFrame:
    """`OPPONENTS` of each result row (game_key, vp_total), in its order: its game's players and
    the mean of the other players' VP (`league.with_opponents`'s VP against)."""
    game = "game_key"
    players = pl.len().over(game).cast(pl.Int64)
    against = (pl.col("vp_total").sum().over(game) - pl.col("vp_total")) / (players - 1)
    return results.select(pl.col("vp_total"), players.alias("players"), pl.when(players > 1).then(against).alias("vp_against")).cast(OPPONENTS)


def _stored_files(league: League) -> tuple[Place, list[str]] | None:
    """The league's dataset and its `STORED` files: None for a database's league, or a dataset without them."""
    place = league.db
    files = league.files(STORED) if isinstance(place, Place) else []
    return (place, files) if isinstance(place, Place) and files else None


def stored_opponents(league: League) -> pl.DataFrame | None:
    """The result rows of the league (`League.result_rows`) with each one's VP against, read from a
    dataset's `STORED` files: None when the league is a database's, or a file is from before these
    columns, or the stored rows are not the results' (the same games in the same order, with the
    same VP: all the VP against depends on). The VP against is whole (Int64) when every game has
    two players, as `with_opponents` gives it."""
    stored = _stored_files(league)
    if stored is None:
        return None
    place, files = stored
    try:
        frame = pl.scan_parquet(files, hive_partitioning=False, storage_options=place.storage_options).select("game_key", *OPPONENTS).collect()
    except pl.exceptions.ColumnNotFoundError:  # stored before the opponents were
        return None
    rows = league.result_rows
    frame = frame.filter(pl.col("game_key").is_in(league.finished_ids.get_column("game_key").implode()))
    if not frame.select("game_key", "vp_total").equals(rows.select("game_key", "vp_total")):
        return None
    two = frame.select((pl.col("players") == 2).all()).item()
    return rows.with_columns(frame.get_column("vp_against").cast(pl.Int64 if two else pl.Float64))


def stored_figures(league: League) -> pl.DataFrame | None:
    """The figures a dataset stores for the league's result rows (`League.result_rows`: the same
    rows in the same order, players named as shown), or None when the league is a database's,
    or any stored file is not of the files it was summed from, or its rows are not the results'."""
    found = _stored_files(league)
    if found is None:
        return None
    place, files = found
    for file in files:
        stored = pl.read_parquet_metadata(file, storage_options=place.storage_options).get(FINGERPRINT)
        if not stored or stored != _inputs(place, _partition(place, STORED, file))[0]:
            return None
    frame = pl.scan_parquet(files, hive_partitioning=False, storage_options=place.storage_options).select(list(SCHEMA)).cast(SCHEMA).collect()
    figures = league.as_shown(frame.filter(pl.col("game_key").is_in(league.finished_ids.get_column("game_key").implode())), ("player",))
    keys = list(KEYS)
    return figures if figures.select(keys).equals(league.result_rows.select(keys)) else None
