"""Kill team against kill team."""

from __future__ import annotations

import polars as pl

from .league import League


def matchups(league: League) -> pl.DataFrame:
    """One row per pairing of kill teams: games and the first team's record against the second.

    A mirror match is one game with both its results in the pairing (a win and a loss, or two draws).
    A Multiplayer Ops game counts in the pairing of each kill team with each opponent's, with
    the game's result for the first (two losers both have a loss).
    """
    rows = league.pairings.with_columns(score=pl.col("result").replace_strict({"win": 1.0, "draw": 0.5, "loss": 0.0}))
    table = (
        rows.group_by("kill_team", "opponent_team")
        .agg(
            pl.col("game_id").n_unique().alias("games"),
            (pl.col("result") == "win").sum().alias("wins"),
            (pl.col("result") == "draw").sum().alias("draws"),
            (pl.col("result") == "loss").sum().alias("losses"),
            pl.col("score").mean().round(3).alias("win_rate"),
        )
        .sort("kill_team", "opponent_team")
    )
    return league.entity_rows(table, "kill_team")


def matrix(table: pl.DataFrame) -> pl.DataFrame:
    """The matchups as a matrix: a row per kill team, a column per opponent, "62% (8)" cells."""
    cells = table.with_columns(cell=pl.format("{}% ({})", (pl.col("win_rate") * 100).round(0).cast(pl.Int64), "games"))
    return cells.pivot(on="opponent_team", index="kill_team", values="cell", sort_columns=True).sort("kill_team").fill_null("-")
