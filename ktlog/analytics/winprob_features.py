"""What the win-probability model reads: one row per (game, seq, player) at every moment a
state's logs changed, from the reducer's own logs (`GameState.vp_log`, `cp_log`, `attacks`,
`incapacitations`, `turning_points`: the rows the projection tables hold), so the replay of a
game and the league's tables give the same features. No rule is recomputed here: VP, CP, damage
and incapacitations are summed as the rules recorded them.

Every feature is a difference seen from the row's player (theirs less their opponent's), or one
multiplied by how far the battle is (`late`: the turning point over 4): a two-player model with
no intercept, so each player's probability is one less the other's.
"""

from __future__ import annotations

import msgspec
import polars as pl

from ..state import GameState

LAST_TURNING_POINT = 4

BASELINE_FEATURES = ("vp_diff", "vp_diff_late")
"""The baseline's: VP difference, and VP difference as the battle ends (turning point / 4)."""
FEATURES = (*BASELINE_FEATURES, "lost_diff", "lost_diff_late", "damage_diff", "cp_diff", "initiative")
"""The model's: the baseline's, then operatives lost (the opponent's less the player's, and late),
damage dealt less damage taken in attacks, CP difference, and initiative this turning point
(1 the player's, -1 the opponent's, 0 before the first)."""

LOG_COLUMNS: dict[str, dict[str, pl.DataType]] = {
    "vp": {"game_key": pl.Int64(), "seq": pl.Int64(), "player": pl.String(), "op": pl.String(), "vp": pl.Int64()},
    "cp": {"game_key": pl.Int64(), "seq": pl.Int64(), "player": pl.String(), "delta": pl.Int64()},
    "attacks": {"game_key": pl.Int64(), "seq": pl.Int64(), "target_player": pl.String(), "damage": pl.Int64()},
    "incapacitations": {"game_key": pl.Int64(), "seq": pl.Int64(), "player": pl.String()},
    "turning_points": {"game_key": pl.Int64(), "seq": pl.Int64(), "turning_point": pl.Int64(), "initiative": pl.String()},
}
"""The log columns the features read, by log (the projection table's name in `TABLE`)."""
TABLE = {"vp": "vp_changes", "cp": "cp_changes", "attacks": "attacks", "incapacitations": "incapacitations", "turning_points": "turning_points"}
STATE_LOG = {"vp": "vp_log", "cp": "cp_log", "attacks": "attacks", "incapacitations": "incapacitations", "turning_points": "turning_points"}

Logs = dict[str, pl.DataFrame]


def state_logs(state: GameState, game_key: int = 0) -> Logs:
    """A state's logs as the frames `moments` reads (the rows its projections would hold)."""
    logs = {}
    for name, columns in LOG_COLUMNS.items():
        entries = msgspec.to_builtins(getattr(state, STATE_LOG[name]))
        rows = [{c: game_key if c == "game_key" else e.get(c) for c in columns} for e in entries]
        logs[name] = pl.DataFrame(rows, schema=columns, orient="row") if rows else pl.DataFrame(schema=columns)
    return logs


def state_players(state: GameState, game_key: int = 0) -> pl.DataFrame:
    """The players of a two-player state, in the game's order (0, 1), with no outcome."""
    return pl.DataFrame({"game_key": [game_key] * len(state.players), "player": list(state.players), "order": range(len(state.players))}).cast(
        {"order": pl.Int64}
    )


def moments(logs: Logs, players: pl.DataFrame) -> pl.DataFrame:
    """One row per game, per moment (seq 0, then each seq at which a log gained an entry) and per
    player of two-player games: game_key, seq, player, turning_point and the `FEATURES`.
    `players`: game_key, player, order (0 or 1), and any columns to keep (the outcome)."""
    two = players.join(players.group_by("game_key").len().filter(pl.col("len") == 2).select("game_key"), on="game_key", how="semi")
    keys = two.select("game_key").unique()
    logs = {name: frame.join(keys, on="game_key", how="semi") for name, frame in logs.items()}
    changes = pl.concat(
        [
            logs["vp"]
            .group_by("game_key", "seq", "player")
            .agg(pl.col("vp").sum().alias("vp"), pl.lit(0).alias("cp"), pl.lit(0).alias("lost"), pl.lit(0).alias("taken")),
            logs["cp"]
            .group_by("game_key", "seq", "player")
            .agg(pl.lit(0).alias("vp"), pl.col("delta").sum().alias("cp"), pl.lit(0).alias("lost"), pl.lit(0).alias("taken")),
            logs["incapacitations"]
            .group_by("game_key", "seq", "player")
            .agg(pl.lit(0).alias("vp"), pl.lit(0).alias("cp"), pl.len().alias("lost"), pl.lit(0).alias("taken")),
            logs["attacks"]
            .rename({"target_player": "player"})
            .group_by("game_key", "seq", "player")
            .agg(pl.lit(0).alias("vp"), pl.lit(0).alias("cp"), pl.lit(0).alias("lost"), pl.col("damage").sum().alias("taken")),
        ],
        how="vertical_relaxed",
    )
    changes = changes.group_by("game_key", "seq", "player").agg(pl.col("vp", "cp", "lost", "taken").sum())
    seqs = pl.concat([keys.with_columns(seq=pl.lit(0, pl.Int64)), changes.select("game_key", "seq"), logs["turning_points"].select("game_key", "seq")]).unique()
    by_order = [
        seqs.join(two.filter(pl.col("order") == side).select("game_key", "player"), on="game_key")
        .join(changes, on=["game_key", "seq", "player"], how="left")
        .sort("game_key", "seq")
        .select(
            "game_key",
            "seq",
            pl.col("player").alias(f"player{side}"),
            *(pl.col(c).fill_null(0).cum_sum().over("game_key").alias(f"{c}{side}") for c in ("vp", "cp", "lost", "taken")),
        )
        for side in (0, 1)
    ]
    pair = by_order[0].join(by_order[1], on=["game_key", "seq"])
    tps = logs["turning_points"].sort("game_key", "seq")
    pair = (
        pair.sort("game_key", "seq")
        .join_asof(tps.select("game_key", "seq", "turning_point", "initiative"), on="seq", by="game_key", strategy="backward", check_sortedness=False)
        .with_columns(pl.col("turning_point").fill_null(0))
    )
    late = pl.col("turning_point").cast(pl.Float64) / LAST_TURNING_POINT
    side0 = pair.select(
        "game_key",
        "seq",
        pl.col("player0").alias("player"),
        "turning_point",
        vp_diff=(pl.col("vp0") - pl.col("vp1")).cast(pl.Float64),
        lost_diff=(pl.col("lost1") - pl.col("lost0")).cast(pl.Float64),
        damage_diff=(pl.col("taken1") - pl.col("taken0")).cast(pl.Float64),
        cp_diff=(pl.col("cp0") - pl.col("cp1")).cast(pl.Float64),
        initiative=pl.when(pl.col("initiative") == pl.col("player0")).then(1.0).when(pl.col("initiative") == pl.col("player1")).then(-1.0).otherwise(0.0),
        opponent=pl.col("player1"),
    )
    side1 = side0.select(
        "game_key",
        "seq",
        pl.col("opponent").alias("player"),
        "turning_point",
        *(-pl.col(c) for c in ("vp_diff", "lost_diff", "damage_diff", "cp_diff", "initiative")),
        pl.col("player").alias("opponent"),
    )
    rows = pl.concat([side0, side1]).with_columns(vp_diff_late=pl.col("vp_diff") * late, lost_diff_late=pl.col("lost_diff") * late)
    extra = [c for c in players.columns if c not in ("game_key", "player", "order")]
    return rows.join(players.select("game_key", "player", *extra), on=["game_key", "player"]).select(
        "game_key", "seq", "player", "opponent", "turning_point", *FEATURES, *extra
    )
