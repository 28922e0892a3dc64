"""Dice against expectation: hit, critical and save rates, and the luck index.

Only attacks recorded with dice count. Expected rates come from the Hit and Save stats as
modified and the Lethal threshold of each roll; expected damage is computed when the attack
is resolved (`ktlog.rules.shooting.expected_damage`, shooting only: the luck index is actual
damage minus expected damage over the same attacks; re-rolls count as luck).
"""

from __future__ import annotations

import polars as pl

from .league import League


def _chance_of_success(threshold: pl.Expr) -> pl.Expr:
    """A D6 result of `threshold` or more, where a 6 always succeeds and a 1 always fails."""
    return (7 - threshold).clip(1, 5) / 6


def dice(league: League, by: str = "player") -> pl.DataFrame:
    """Per player (as attacker, and as defender for saves) or per weapon."""
    attacks = league.table("attacks").filter(pl.col("mode") == "dice")
    attacks = attacks.with_columns(
        expected_successes=pl.col("attack_dice") * _chance_of_success(pl.col("hit")),
        expected_criticals=pl.col("attack_dice") * _chance_of_success(pl.max_horizontal("crit_on", "hit")),
        expected_saves=pl.col("defence_dice") * _chance_of_success(pl.col("save")),
        expected_critical_saves=pl.col("defence_dice") / 6,
    )
    key = "player" if by == "player" else "weapon"
    shooting = pl.col("kind") == "shoot"
    table = (
        attacks.group_by(key)
        .agg(
            pl.len().alias("attacks"),
            pl.col("attack_dice").sum().alias("dice_rolled"),
            (pl.col("rolled_successes").sum() / pl.col("attack_dice").sum()).alias("hit_rate"),
            (pl.col("expected_successes").sum() / pl.col("attack_dice").sum()).alias("expected_hit_rate"),
            (pl.col("rolled_criticals").sum() / pl.col("attack_dice").sum()).alias("crit_rate"),
            (pl.col("expected_criticals").sum() / pl.col("attack_dice").sum()).alias("expected_crit_rate"),
            pl.col("damage").filter(shooting).sum().alias("shooting_damage"),
            pl.col("expected_damage").filter(shooting).sum().alias("expected_shooting_damage"),
        )
        .with_columns(luck_index=pl.col("shooting_damage") - pl.col("expected_shooting_damage"))
    )
    if by == "player":
        saves = (
            attacks.filter(shooting)
            .group_by(pl.col("target_player").alias("player"))
            .agg(
                pl.col("defence_dice").sum().alias("save_dice_rolled"),
                (pl.col("rolled_saves").sum() + pl.col("rolled_critical_saves").sum()).alias("saves"),
                pl.col("expected_saves").sum().alias("expected_saves"),
            )
            .with_columns(save_rate=pl.col("saves") / pl.col("save_dice_rolled"), expected_save_rate=pl.col("expected_saves") / pl.col("save_dice_rolled"))
        )
        table = table.join(saves.drop("saves", "expected_saves"), on="player", how="full", coalesce=True)
        table = league.entity_rows(table, "player")
    numbers = [c for c, t in table.schema.items() if t == pl.Float64]
    return table.with_columns(pl.col(numbers).round(3)).sort("luck_index", descending=True, nulls_last=True)
