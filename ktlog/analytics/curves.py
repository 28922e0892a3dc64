"""VP curves: the race for VP in one game, and how winners and losers got there across games."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..errors import KtlogError
from ..storage.catalog import select
from ..storage.log import archived_of_type
from .league import League, read_table

TURNING_POINTS = (1, 2, 3, 4)


CURVE = {"seq": pl.Int64, "turning_point": pl.Int64, "player": pl.String, "vp": pl.Int64}
"""A VP curve in long form (a player's name is a value, never a column name: a player may be
called `seq` or `VP`)."""


def game_curve(league: League, game_id: str) -> pl.DataFrame:
    """One game's VP after each event that changed it (a step function), in long form: seq,
    turning point, player, VP so far (every player at every such seq, in the game's order)."""
    players_rows = league.results.filter(pl.col("game_id") == game_id)
    players = pl.DataFrame({"player": players_rows.get_column("player"), "order": range(players_rows.height)})
    changes = league.vp_changes.filter(pl.col("game_key").is_in(players_rows.get_column("game_key").implode()))
    moments = changes.select("seq", "turning_point").unique()
    scored = changes.group_by("seq", "player").agg(pl.col("vp").sum())
    return (
        moments.join(players, how="cross")
        .join(scored, on=["seq", "player"], how="left")
        .sort("order", "seq")
        .with_columns(pl.col("vp").fill_null(0).cum_sum().over("player"))
        .sort("seq", "order")
        .select(list(CURVE))
        .cast(CURVE)  # type: ignore[arg-type]  # polars types the keys as its own union; these are column names
    )


def game_race(league: League, game_id: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One game's VP race to draw, from seq 0 to its last event: `game_curve` opened by zeros
    at seq 0 and closed by the final VP at the last seq; and its turning point boundaries
    (seq, label "TP1" ...)."""
    steps = game_curve(league, game_id)
    players = league.results.filter(pl.col("game_id") == game_id).get_column("player")
    game = "game_key = (SELECT game_key FROM games WHERE id = ?)"
    db = league.database("a game's events")
    last = read_table(db, "SELECT head_seq AS seq FROM games WHERE id = ?", {"seq": int}, [game_id]).item()
    start = pl.DataFrame({"seq": 0, "turning_point": 0, "player": players, "vp": 0}, schema=CURVE)
    end = (steps.filter(pl.col("seq") == pl.col("seq").max()) if steps.height else start).with_columns(pl.lit(last, dtype=pl.Int64).alias("seq"))
    race = pl.concat([start, steps, end])
    return race, _turning_point_starts(db, game, game_id)


def _turning_point_starts(db: Path, game: str, game_id: str) -> pl.DataFrame:
    """Where each turning point of the game starts (its `TurningPointStarted`), labelled TP1...:
    from its archived blocks (`storage.log`) and its events stored as rows."""
    blocks = read_table(db, f"SELECT first_seq, events FROM game_archives WHERE {game} ORDER BY first_seq", {"first_seq": int}, [game_id])
    try:
        archived = archived_of_type(blocks.rows(), "TurningPointStarted") if blocks.height else []
    except ValueError as exc:
        raise KtlogError(f"game {game_id[:8]}'s archived events cannot be read ({exc}): run `ktlog verify {game_id[:8]}`") from exc
    query, types = select("events", ("seq", "payload"))
    rows = read_table(db, f"{query} WHERE {game} AND type = 'TurningPointStarted'", types, [game_id])
    starts = pl.concat([pl.DataFrame(archived, schema={"seq": pl.Int64, "payload": pl.String}, orient="row"), rows.select("seq", "payload")])
    return starts.sort("seq").select("seq", pl.format("TP{}", pl.col("payload").str.json_path_match("$.turning_point")).alias("label"))


def after_each_turning_point(league: League) -> pl.DataFrame:
    """Every player of every finished game, with the result and their VP after each turning
    point (columns tp1 ... tp4, cumulative)."""
    league.read_ahead("game_results", "vp_changes")
    tp = pl.col("turning_point")
    scored = league.vp_changes.group_by("game_key", "player").agg(*(pl.col("vp").filter(tp == n).sum().alias(f"tp{n}") for n in TURNING_POINTS))
    columns = [f"tp{n}" for n in TURNING_POINTS]
    return (
        league.results.select("game_key", "game_id", "player", "result")
        .join(scored, on=["game_key", "player"], how="left")
        .with_columns(pl.col(columns).fill_null(0))
        .with_columns(pl.sum_horizontal(columns[:n]).alias(column) for n, column in enumerate(columns, 1))
    )


def by_turning_point(league: League) -> pl.DataFrame:
    """The same, one row per player per turning point: game, player, result, turning point, VP so far."""
    return (
        after_each_turning_point(league)
        .unpivot(index=["game_key", "game_id", "player", "result"], variable_name="turning_point", value_name="vp_so_far")
        .with_columns(pl.col("turning_point").str.slice(2).cast(pl.Int64))
        .sort("game_id", "player", "turning_point")
    )


def average_curves(league: League) -> pl.DataFrame:
    """Average VP after each turning point of the winners and of the losers (draws left out)."""
    columns = [f"tp{n}" for n in TURNING_POINTS]
    return (
        after_each_turning_point(league)
        .filter(pl.col("result") != "draw")
        .group_by("result")
        .agg(*(pl.col(c).mean() for c in columns), pl.len().alias("players"))
        .unpivot(index=["result", "players"], on=columns, variable_name="turning_point", value_name="avg_vp")
        .select("result", pl.col("turning_point").str.slice(2).cast(pl.Int64), pl.col("avg_vp").round(3), "players")
        .sort("result", "turning_point", descending=[True, False])
    )


def comebacks(league: League) -> pl.DataFrame:
    """How often a player trailing after TP2 or TP3 (behind the leader of their game: the
    opponent with two players) came back to win outright (a draw or shared win is no win)."""
    wide = after_each_turning_point(league)
    trailing = pl.concat(
        wide.filter(pl.col(f"tp{n}") < pl.col(f"tp{n}").max().over("game_key")).select(
            pl.lit(n, pl.Int64).alias("trailing_after_tp"), (pl.col("result") == "win").alias("won")
        )
        for n in (2, 3)
    )
    counts = trailing.group_by("trailing_after_tp").agg(pl.len().alias("trailing_players"), pl.col("won").sum().cast(pl.UInt32).alias("came_back_to_win"))
    return (
        pl.DataFrame({"trailing_after_tp": [2, 3]})
        .join(counts, on="trailing_after_tp", how="left")
        .with_columns(pl.col("trailing_players", "came_back_to_win").fill_null(0))
        .with_columns((pl.col("came_back_to_win") / pl.col("trailing_players")).round(3).alias("comeback_rate"))
    )
