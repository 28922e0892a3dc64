"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each player's result row against the VP by op recorded with the game and the game's
winner (a result edited in place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
"""

from __future__ import annotations

import polars as pl

from .league import League


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    verdicts = league.read("verifications", ("game_id", "ok", "problem", "bad_seq")).filter(pl.col("ok") == 0)
    problems = [
        (row["game_id"], f"`ktlog verify` found {row['problem']}" + (f" at seq {row['bad_seq']}" if row["bad_seq"] else ""))
        for row in verdicts.join(league.games.select("game_id"), on="game_id", how="semi").iter_rows(named=True)
    ]
    if league.finished_ids.height:
        results = league.results.group_by("game_key").agg(
            (pl.col("vp_total") != pl.sum_horizontal(league.vp_ops)).any().alias("vp_differs"),
            (pl.col("result") == "win").sum().alias("wins"),
            pl.col("player").filter(pl.col("result") == "win").first().alias("winner"),
        )
        recorded = league.games.select("game_key", "game_id", pl.col("winner").alias("recorded_winner"))
        mismatched = results.join(recorded, on="game_key").filter(
            pl.col("vp_differs") | (pl.col("wins") > 1) | (pl.col("winner").fill_null("") != pl.col("recorded_winner").fill_null(""))
        )
        problems += [(row["game_id"], "its result rows do not match the score recorded with the game") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems))
