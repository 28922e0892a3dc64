"""VP curves: the race for VP in one game, and how winners and losers got there across games."""

from __future__ import annotations

import polars as pl

from .league import League

TURNING_POINTS = (1, 2, 3, 4)


def game_curve(league: League, game_id: str) -> pl.DataFrame:
    """One game's VP after each event that changed it (a step function): seq, turning point,
    each player's VP, and the difference (first player minus second)."""
    changes = league.vp_changes.filter(pl.col("game_id") == game_id)
    players = league.results.filter(pl.col("game_id") == game_id).get_column("player").to_list()
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


def by_turning_point(league: League) -> pl.DataFrame:
    """Every player's VP at the end of each turning point of every finished game, with the result."""
    changes = league.vp_changes
    grid = league.results.select("game_id", "player", "result").join(pl.DataFrame({"turning_point": TURNING_POINTS}), how="cross")
    scored = changes.group_by("game_id", "player", "turning_point").agg(pl.col("vp").sum())
    return (
        grid.join(scored, on=["game_id", "player", "turning_point"], how="left")
        .with_columns(pl.col("vp").fill_null(0))
        .sort("game_id", "player", "turning_point")
        .with_columns(pl.col("vp").cum_sum().over("game_id", "player").alias("vp_so_far"))
    )


def average_curves(league: League) -> pl.DataFrame:
    """Average VP after each turning point of the winners and of the losers (draws left out)."""
    return (
        by_turning_point(league).filter(pl.col("result") != "draw")
        .group_by("result", "turning_point").agg(pl.col("vp_so_far").mean().round(3).alias("avg_vp"), pl.len().alias("players"))
        .sort("result", "turning_point", descending=[True, False])
    )


def comebacks(league: League) -> pl.DataFrame:
    """How often a player trailing after TP2 or TP3 came back to win (two-player games)."""
    tp = by_turning_point(league)
    other = tp.select("game_id", "turning_point", pl.col("player").alias("opponent"), pl.col("vp_so_far").alias("opponent_vp"))
    trailing = (
        tp.join(other, on=["game_id", "turning_point"]).filter(pl.col("player") != pl.col("opponent"))
        .filter(pl.col("turning_point").is_in([2, 3]), pl.col("vp_so_far") < pl.col("opponent_vp"))
    )
    return (
        trailing.group_by("turning_point")
        .agg(pl.len().alias("trailing_players"), (pl.col("result") == "win").sum().alias("came_back_to_win"))
        .with_columns((pl.col("came_back_to_win") / pl.col("trailing_players")).round(3).alias("comeback_rate"))
        .sort("turning_point")
        .rename({"turning_point": "trailing_after_tp"})
    )
