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
    """One row per player per finished game, with the opponents (`with_opponents`), their VP by
    op (`vp_ops`), the game's start time and what they did in it: each table summed by game and
    player (or by game) first, then joined to the rows, in one lazy query (Polars runs the sums
    side by side)."""
    game_player = ["game_key", "player"]
    kills = league.table("incapacitations").lazy()
    tps = league.table("turning_points").lazy()
    sums = [
        (league.by_op.lazy().group_by(game_player).agg(pl.col("vp").filter(pl.col("op") == op).sum().alias(f"vp_{op}") for op in league.ops), game_player),
        (kills.group_by(game_player).agg(pl.len().alias("operatives_lost")), game_player),
        (kills.group_by("game_key").agg(pl.len().alias("incapacitated")), ["game_key"]),
        (
            league.cp_changes.lazy()
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
        (league.games.lazy().select("game_key", "created_at"), ["game_key"]),
        (league.player_ids.lazy(), ["player"]),
    ]
    rows = with_opponents(league.result_rows).lazy()
    for frame, on in sums:
        rows = rows.join(frame, on=on, how="left")
    counts = ("operatives_lost", "cp_gained", "cp_spent", "turning_points_with_initiative")
    return (
        rows.with_columns(
            pl.col(league.vp_ops).fill_null(0),
            pl.col(counts).fill_null(0),
            pl.col("turning_points").fill_null(0),
            enemies_incapacitated=pl.col("incapacitated").fill_null(0) - pl.col("operatives_lost").fill_null(0),
            tp1_initiative=pl.when(pl.col("turning_points").is_not_null()).then(pl.col("tp1_initiative").fill_null(False)),  # no turning point: unknown
            score=pl.col("result").replace_strict({"win": 1.0, "draw": 0.5, "loss": 0.0}),
        )
        .drop("incapacitated")
        .collect()
    )


def most_used_ploys(league: League, by: str) -> pl.DataFrame:
    """The ploys and gambits each player or kill team used most, as "name (uses)" text."""
    ploys = league.cp_changes.filter(pl.col("kind").is_in(["gambit", "ploy", "reroll"]))
    owners = league.result_rows.select("game_key", "player", "kill_team")
    return (
        ploys.join(owners, on=["game_key", "player"])
        .group_by(by, "source")
        .agg(pl.len().alias("uses"))
        .sort([by, "uses", "source"], descending=[False, True, False])
        .group_by(by, maintain_order=True)
        .agg(pl.format("{} ({})", "source", "uses").head(TOP_PLOYS).str.join(", ").alias("most_used_ploys"))
    )


def entity_stats(league: League, by: str) -> pl.DataFrame:
    """`ktlog stats players` (by "player") and `ktlog stats teams` (by "kill_team").

    Kill team figures leave mirror matches out (a kill team against itself always wins half);
    `mirror_games` counts them.
    """
    league.read_ahead("game_results", "cp_changes", "incapacitations", "turning_points")
    games = per_game(league)
    mirrors = None
    if by == "kill_team":
        mirror = pl.col("kill_team") == pl.col("opponent_team")
        mirrors = games.filter(mirror).group_by("kill_team").agg(pl.col("game_id").n_unique().alias("mirror_games"))
        games = games.filter(~mirror)
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
        .join(most_used_ploys(league, by), on=by, how="left")
        .sort(["win_rate", "games", by], descending=[True, True, False])
    )
    if mirrors is not None:
        table = table.join(mirrors, on="kill_team", how="left").with_columns(pl.col("mirror_games").fill_null(0))
    rates = [c for c in table.columns if c not in (by, "games", "most_used_ploys", "mirror_games")]
    return league.entity_rows(table.with_columns(pl.col(rates).round(3)), by)
