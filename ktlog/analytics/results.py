"""The league's results file (`ktlog stats results`): one row per player per finished game, in
league order, with what a league organiser's spreadsheet keeps: labels, opponents, the result,
VP by op and against, kills, tac ops and the standings' tie-breakers for that game.

Column by column in docs/running-a-league.md.
"""

from __future__ import annotations

import polars as pl

from .league import League
from .performance import per_game
from .standings import league_elo

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
"""A win is 1 point, a draw 1/2 (the standings' `points`)."""


def _label_order(column: str) -> pl.Expr:
    """Labels in order, numbers by value ("R2" before "R10" is not attempted: "2" before "10")."""
    return pl.col(column).str.to_integer(strict=False)


def results(league: League) -> pl.DataFrame:
    """One row per player per finished game, ordered by league, season, round, table, then the
    time the game was played, then the players' order in the game."""
    league.read_ahead("game_results", "incapacitations", "cp_changes", "turning_points", "vp_changes")
    rows = per_game(league)
    seats = (
        league.game_lists.join(league.games, on="game_key", how="semi")
        .select("game_key", pl.col("players").alias("player"))
        .with_columns(pl.int_ranges(pl.col("player").list.len()).alias("player_order"))
        .explode("player", "player_order")
        .pipe(league.as_shown, ("player",))
    )
    games = league.games.select("game_key", "league", "season", "round", pl.col("table_label").alias("table"), "ruleset", "ended_by")
    tac = (
        league.vp_changes.filter((pl.col("op") == "tac") & (pl.col("vp") > 0))
        .group_by("game_key", "player")
        .agg(pl.len().cast(pl.Int64).alias("tac_ops_scored"))
    )
    elo = league_elo(league, ("game_id", "player", "elo_before", "elo")).rename({"elo": "elo_after"})
    shared = rows.group_by("game_key").agg(((pl.col("result") == "loss").any() & (pl.col("result") == "draw").any()).alias("shared"))
    out = (
        rows.join(games, on="game_key", how="left")
        .join(seats, on=["game_key", "player"], how="left")
        .join(tac, on=["game_key", "player"], how="left")
        .join(elo, on=["game_id", "player"], how="left")
        .join(shared, on="game_key", how="left")
        .with_columns(
            pl.col("tac_ops_scored").fill_null(0),
            (pl.col("shared") & (pl.col("result") == "draw")).alias("shared_win"),
            pl.col("result").replace_strict(POINTS).alias("points"),
            (pl.col("vp_total") - pl.col("vp_against")).alias("vp_diff"),
            pl.col("opponent").alias("opponents"),
        )
        .sort(
            "league",
            _label_order("season"),
            "season",
            _label_order("round"),
            "round",
            _label_order("table"),
            "table",
            "date",
            "created_at",
            "game_id",
            "player_order",
            nulls_last=True,
        )
    )
    return league.entity_rows(out, "player").select(
        "league",
        "season",
        "round",
        "table",
        "date",
        "game_id",
        "ruleset",
        "player",
        "player_id",
        "opponents",
        "kill_team",
        pl.col("opponent_team").alias("opponent_teams"),
        "result",
        "shared_win",
        "ended_by",
        "vp_total",
        *league.vp_ops,
        "vp_against",
        "kill_grade",
        pl.col("operatives_lost").cast(pl.Int64),
        pl.col("enemies_incapacitated").cast(pl.Int64).alias("operatives_incapacitated"),
        "tac_ops_scored",
        "points",
        "vp_diff",
        pl.col("elo_before").round(1),
        pl.col("elo_after").round(1),
    )
