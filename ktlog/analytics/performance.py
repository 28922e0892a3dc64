"""Per player and per kill team: results with their uncertainty, VP by op, kills, CP, ploys, initiative."""

from __future__ import annotations

import polars as pl

from .league import League, with_opponents

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""

TOP_PLOYS = 3


def wilson(points: pl.Expr, n: pl.Expr, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """The Wilson score interval of a rate (points out of n; a draw counts half)."""
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).sqrt()
    return centre - half, centre + half


def per_game(league: League) -> pl.DataFrame:
    """One row per player per finished game, with the opponents (`with_opponents`), what they did
    in it (`League.figures`: VP by op `vp_ops`, operatives lost and incapacitated, CP, turning
    points with the initiative), their score, the game's start time and their `player_id`."""
    return (
        with_opponents(_with_figures(league))
        .join(league.games.select("game_key", "created_at"), on="game_key", how="left")
        .join(league.player_ids, on="player", how="left")
    )


def _with_figures(league: League) -> pl.DataFrame:
    """The result rows with what each player did in the game (`League.figures`) and their score."""
    figures = league.figures.drop("game_key", "game_id", "player")
    return pl.concat([league.result_rows, figures], how="horizontal").with_columns(
        score=pl.col("result").replace_strict({"win": 1.0, "draw": 0.5, "loss": 0.0})
    )


def most_used_ploys(league: League, by: str, rows: pl.DataFrame | None = None) -> pl.DataFrame:
    """The ploys and gambits each player or kill team used most, as "name (uses)" text: in the
    games of `rows` (result rows with game_key, player and `by`), every result row's by default."""
    ploys = league.ploys
    if rows is not None or by != "player":  # by kill team: that of whoever paid for it
        counted = league.result_rows if rows is None else rows
        ploys = ploys.join(counted.select(*dict.fromkeys(("game_key", "player", by))), on=["game_key", "player"])
    return (
        ploys.group_by(by, "source")
        .agg(pl.len().alias("uses"))
        .sort([by, "uses", "source"], descending=[False, True, False])
        .group_by(by, maintain_order=True)
        .agg(pl.format("{} ({})", "source", "uses").head(TOP_PLOYS).str.join(", ").alias("most_used_ploys"))
    )


MIRROR = pl.col("kill_team") == pl.col("opponent_team")
"""A result row (`with_opponents`) of a mirror match: a two-player game of one kill team against
itself, which kill-team figures leave out (it always wins half)."""


def entity_stats(league: League, by: str) -> pl.DataFrame:
    """`ktlog stats players` (by "player") and `ktlog stats teams` (by "kill_team").

    Kill team figures leave mirror matches out (`MIRROR`), their most used ploys too;
    `mirror_games` counts them.
    """
    league.read_ahead("game_results", by_op=False)
    games = _with_figures(league)
    mirrors = None
    if by == "kill_team":
        games = with_opponents(games)
        mirrors = games.filter(MIRROR).group_by("kill_team").agg(pl.col("game_id").n_unique().alias("mirror_games"))
        games = games.filter(~MIRROR)
    n = pl.len()
    low, high = wilson(pl.col("score").sum(), n.cast(pl.Float64))
    table = (
        games.group_by(by)
        .agg(
            n.alias("games"),
            (pl.col("score").sum() / n).alias("win_rate"),
            low.alias("win_rate_low"),
            high.alias("win_rate_high"),
            *(pl.col(vp).mean().alias(f"avg_{vp}") for vp in (*league.vp_ops, "vp_total")),
            pl.col("kill_grade").mean().alias("avg_kill_grade"),
            pl.col("enemies_incapacitated").mean().alias("incapacitated_per_game"),
            pl.col("operatives_lost").mean().alias("lost_per_game"),
            pl.col("cp_gained").mean().alias("cp_gained_per_game"),
            pl.col("cp_spent").mean().alias("cp_spent_per_game"),
            (pl.col("turning_points_with_initiative").sum() / pl.col("turning_points").sum()).alias("initiative_rate"),
            pl.col("score").filter(pl.col("tp1_initiative")).mean().alias("win_rate_tp1_initiative"),
            pl.col("score").filter(~pl.col("tp1_initiative")).mean().alias("win_rate_no_tp1_initiative"),
        )
        .join(most_used_ploys(league, by, games if mirrors is not None else None), on=by, how="left")
        .sort(["win_rate", "games", by], descending=[True, True, False])
    )
    if mirrors is not None:
        table = table.join(mirrors, on="kill_team", how="left").with_columns(pl.col("mirror_games").fill_null(0))
    rates = [c for c in table.columns if c not in (by, "games", "most_used_ploys", "mirror_games")]
    return league.entity_rows(table.with_columns(pl.col(rates).round(3)), by)
