"""VP curves: the race for VP in one game, and how winners and losers got there across games."""

from __future__ import annotations

import polars as pl

from .league import League

TURNING_POINTS = (1, 2, 3, 4)


def game_curve(league: League, game_id: str) -> pl.DataFrame:
    """One game's VP after each event that changed it (a step function): seq, turning point,
    each player's VP, and the difference (first player minus second)."""
    players_rows = league.results.filter(pl.col("game_id") == game_id)
    players = players_rows.get_column("player").to_list()
    changes = league.vp_changes.filter(pl.col("game_key") == players_rows.get_column("game_key").first())
    if not players:
        players = changes.get_column("player").unique(maintain_order=True).to_list()
    steps = (
        changes.group_by("seq", "turning_point", "player").agg(pl.col("vp").sum())
        .pivot(on="player", index=["seq", "turning_point"], values="vp").sort("seq")
    )
    for p in players:
        if p not in steps.columns:
            steps = steps.with_columns(pl.lit(0).alias(p))
    steps = steps.with_columns(pl.col(players).fill_null(0).cum_sum())
    if len(players) == 2:
        steps = steps.with_columns((pl.col(players[0]) - pl.col(players[1])).alias("difference"))
    return steps.select("seq", "turning_point", *players, *(["difference"] if len(players) == 2 else []))


def after_each_turning_point(league: League) -> pl.DataFrame:
    """Every player of every finished game, with the result and their VP after each turning
    point (columns tp1 ... tp4, cumulative)."""
    tp = pl.col("turning_point")
    scored = league.vp_changes.group_by("game_key", "player").agg(
        *(pl.col("vp").filter(tp == n).sum().alias(f"tp{n}") for n in TURNING_POINTS)
    )
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
        after_each_turning_point(league).filter(pl.col("result") != "draw")
        .group_by("result").agg(*(pl.col(c).mean() for c in columns), pl.len().alias("players"))
        .unpivot(index=["result", "players"], on=columns, variable_name="turning_point", value_name="avg_vp")
        .select("result", pl.col("turning_point").str.slice(2).cast(pl.Int64), pl.col("avg_vp").round(3), "players")
        .sort("result", "turning_point", descending=[True, False])
    )


def comebacks(league: League) -> pl.DataFrame:
    """How often a player trailing after TP2 or TP3 came back to win (two-player games)."""
    wide = after_each_turning_point(league)
    other = wide.select("game_key", pl.col("player").alias("opponent"), pl.col("tp2").alias("opponent_tp2"), pl.col("tp3").alias("opponent_tp3"))
    rows = wide.join(other, on="game_key").filter(pl.col("player") != pl.col("opponent"))
    won = pl.col("result") == "win"
    return pl.DataFrame(
        [
            (n, rows.filter(pl.col(f"tp{n}") < pl.col(f"opponent_tp{n}")).height, rows.filter(pl.col(f"tp{n}") < pl.col(f"opponent_tp{n}"), won).height)
            for n in (2, 3)
        ],
        schema={"trailing_after_tp": pl.Int64, "trailing_players": pl.UInt32, "came_back_to_win": pl.UInt32},
        orient="row",
    ).with_columns((pl.col("came_back_to_win") / pl.col("trailing_players")).round(3).alias("comeback_rate"))
