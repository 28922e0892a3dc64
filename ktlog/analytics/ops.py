"""How results differ by crit op and by killzone."""

from __future__ import annotations

import polars as pl

from .league import League


def ops(league: League) -> pl.DataFrame:
    """Per crit op and killzone: games, the crit op VP distribution, total VP, margins and draws."""
    rows = league.with_opponents
    margin = (pl.col("vp_total") - pl.col("vp_against")).abs()
    return (
        rows.group_by("crit_op", "killzone")
        .agg(
            pl.col("game_id").n_unique().alias("games"),
            pl.col("vp_crit").mean().round(3).alias("crit_vp_mean"),
            pl.col("vp_crit").quantile(0.25).alias("crit_vp_p25"),
            pl.col("vp_crit").median().alias("crit_vp_median"),
            pl.col("vp_crit").quantile(0.75).alias("crit_vp_p75"),
            pl.col("vp_crit").max().alias("crit_vp_max"),
            pl.col("vp_kill").mean().round(3).alias("kill_vp_mean"),
            pl.col("vp_elimination").mean().round(3).alias("elimination_vp_mean"),
            pl.col("vp_mission").mean().round(3).alias("mission_vp_mean"),
            pl.col("vp_total").mean().round(3).alias("total_vp_mean"),
            margin.filter(pl.col("result") == "win").mean().round(3).alias("winning_margin_mean"),
            ((pl.col("result") == "draw").sum() / pl.len()).round(3).alias("draw_rate"),
        )
        .sort("crit_op", "killzone")
    )
