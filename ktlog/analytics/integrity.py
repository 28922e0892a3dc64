"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: results edited in place (each player's VP in `game_results` against the sum of the
VP changes the events produced), and the verdicts of the latest `ktlog verify` (an event
edited, deleted or reordered behind ktlog's back is found there: run it after merging tables).
"""

from __future__ import annotations

import polars as pl

from .league import League, read_table


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    verdicts = read_table(league.db, "SELECT game_id, problem, bad_seq FROM verifications WHERE ok = 0", {"game_id": str, "problem": str, "bad_seq": int})
    problems = [
        (row["game_id"], f"`ktlog verify` found {row['problem']}" + (f" at seq {row['bad_seq']}" if row["bad_seq"] else ""))
        for row in verdicts.join(league.games.select("game_id"), on="game_id", how="semi").iter_rows(named=True)
    ]
    if league.finished_ids.height:
        scored = league.vp_changes.group_by("game_id", "player").agg(pl.col("vp").sum().alias("scored"))
        mismatched = (
            league.results.select("game_id", "player", "vp_total").join(scored, on=["game_id", "player"], how="left")
            .filter(pl.col("vp_total") != pl.col("scored").fill_null(0))
        )
        problems += [(row["game_id"], f"{row['player']}'s result ({row['vp_total']}VP) is not the sum of the VP scored") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems))
