"""What swings games across a league (`ktlog stats moments`): per kill team and kind of action,
how far it moved its player's win probability on average, and how often it decided a game.

Each moment of a finished two-player game is named by what the logs hold at its seq, the first
of: an attack (`shoot: WEAPON`, `fight: WEAPON`, the attacker's), a ploy or gambit (`ploy:
NAME`), VP scored (`OP VP`: a mission action's tac op, the crit op at a turning point's end ...),
initiative (`initiative`). A game's deciding moment is the one that raised its winner's
probability most (a draw has none).
"""

from __future__ import annotations

import polars as pl

from .league import League
from .performance import Z95, wilson
from .winprob import WinModel, league_rows, probability


def kinds(league: League) -> pl.DataFrame:
    """game_key, seq, the acting player and the kind of action of each moment (by the priority above)."""
    finished = league.finished_ids.select("game_key")

    def read(table: str, columns: tuple[str, ...]) -> pl.DataFrame:
        return league.read(table, columns).join(finished, on="game_key", how="semi")

    attacks = read("attacks", ("game_key", "seq", "player", "kind", "weapon", "retaliation")).filter(pl.col("retaliation") == 0)
    ploys = read("cp_changes", ("game_key", "seq", "player", "kind", "source")).filter(pl.col("kind").is_in(["ploy", "gambit"]))
    vp = read("vp_changes", ("game_key", "seq", "player", "op"))
    tps = read("turning_points", ("game_key", "seq", "initiative"))
    named = pl.concat(
        [
            attacks.select("game_key", "seq", "player", pl.format("{}: {}", "kind", "weapon").alias("action"), pl.lit(0).alias("rank")),
            ploys.select("game_key", "seq", "player", pl.format("ploy: {}", "source").alias("action"), pl.lit(1).alias("rank")),
            vp.select("game_key", "seq", "player", pl.format("{} VP", "op").alias("action"), pl.lit(2).alias("rank")),
            tps.select("game_key", "seq", pl.col("initiative").alias("player"), pl.lit("initiative").alias("action"), pl.lit(3).alias("rank")),
        ]
    )
    return named.sort("rank").group_by("game_key", "seq").first().drop("rank")


def swings(league: League, model: WinModel) -> pl.DataFrame:
    """Every moment's acting player, kind of action and swing (their probability after less
    before), with whether it decided its game."""
    rows = league_rows(league).with_columns(probability(model)).sort("game_key", "player", "seq")
    rows = rows.with_columns(swing=pl.col("p").diff().over("game_key", "player")).drop_nulls("swing")
    acted = kinds(league).join(rows.select("game_key", "seq", "player", "swing", "y"), on=["game_key", "seq", "player"])
    deciding = (
        rows.filter(pl.col("y") == 1.0)
        .sort("swing", "seq", descending=[True, False])
        .group_by("game_key")
        .first()
        .select("game_key", "seq", pl.lit(True).alias("decided"))
    )
    teams = league.results.select("game_key", "player", "kill_team")
    return acted.join(deciding, on=["game_key", "seq"], how="left").with_columns(pl.col("decided").fill_null(False)).join(teams, on=["game_key", "player"])


def moments_table(league: League, model: WinModel) -> pl.DataFrame:
    """Per kill team and kind of action: moments, games, mean swing (in probability points, with a
    95% interval), how many games it decided and the share of its moments that did (Wilson)."""
    n = pl.len()
    table = (
        swings(league, model)
        .group_by("kill_team", "action")
        .agg(
            n.alias("moments"),
            pl.col("game_key").n_unique().alias("games"),
            (pl.col("swing").mean() * 100).alias("mean_swing"),
            (pl.col("swing").std() * 100 * Z95 / n.sqrt()).alias("half"),
            pl.col("decided").sum().alias("decided"),
        )
        .with_columns(swing_low=pl.col("mean_swing") - pl.col("half"), swing_high=pl.col("mean_swing") + pl.col("half"))  # none from one moment
    )
    low, high = wilson(pl.col("decided").cast(pl.Float64), pl.col("moments").cast(pl.Float64))
    table = table.with_columns(decided_rate=pl.col("decided") / pl.col("moments"), decided_low=low, decided_high=high).drop("half")
    table = league.entity_rows(table, "kill_team")
    numbers = [c for c, t in table.schema.items() if t == pl.Float64]
    return table.with_columns(pl.col(numbers).round(3)).sort("kill_team", "decided", "mean_swing", descending=[False, True, True])
