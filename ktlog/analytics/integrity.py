"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each player's result row against the VP by op recorded with the game and the game's
winner (a result edited in place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
"""

from __future__ import annotations

import polars as pl

from ..storage.log import HEADS_BEHIND
from .league import League, read_table
from .place import Place


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    verdicts = league.read("verifications", ("game_id", "ok", "problem", "bad_seq")).filter(pl.col("ok") == 0)
    problems = [
        (row["game_id"], f"`ktlog verify` found {row['problem']}" + (f" at seq {row['bad_seq']}" if row["bad_seq"] else ""))
        for row in verdicts.join(league.games.select("game_id"), on="game_id", how="semi").iter_rows(named=True)
    ]
    if league.finished_ids.height:
        # lazily, with only the columns compared: summed and joined, not pivoted (a league's millions of rows)
        by_op = league.by_op.lazy().group_by("game_key", "player").agg(pl.col("vp").sum().alias("vp_by_op"))
        results = (
            league.result_rows.lazy()
            .select("game_key", "player", "result", "vp_total")
            .join(by_op, on=["game_key", "player"], how="left")
            .group_by("game_key")
            .agg(
                (pl.col("vp_total") != pl.col("vp_by_op").fill_null(0)).any().alias("vp_differs"),
                (pl.col("result") == "win").sum().alias("wins"),
                pl.col("player").filter(pl.col("result") == "win").first().alias("winner"),
            )
        )
        recorded = league.as_shown(league.games.select("game_key", "game_id", "winner"), ("winner",)).rename({"winner": "recorded_winner"})
        mismatched = (
            results.join(recorded.lazy(), on="game_key")
            .filter(pl.col("vp_differs") | (pl.col("wins") > 1) | (pl.col("winner").fill_null("") != pl.col("recorded_winner").fill_null("")))
            .collect()
        )
        problems += [(row["game_id"], "its result rows do not match the score recorded with the game") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems + tables_behind_events(league)))


def tables_behind_events(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for each game whose row disagrees with its stored events: a
    deleted games row (the game would vanish from the statistics), events added or removed
    behind ktlog's back, or a head edited. A dataset has no events to compare: nothing to say."""
    if isinstance(league.db, Place):
        return []
    rows = read_table(league.db, HEADS_BEHIND, {"game_id": str, "head_seq": int})
    problems = []
    for row in rows.iter_rows(named=True):
        if row["head_seq"] is None:
            what = "its events are stored but its games row is missing, so the statistics leave it out"
        else:
            what = f"its games row (head seq {row['head_seq']}) does not match its last stored events: they were changed behind ktlog's back"
        problems.append((row["game_id"], f"{what}; `ktlog rebuild` rewrites the tables from the events"))
    return problems
