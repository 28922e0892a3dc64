"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each player's result row against the VP by op recorded with the game and the game's
winner (a result edited in place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
"""

from __future__ import annotations

import polars as pl

from .columns import is_dataset
from .league import League, read_table


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
        recorded = league.as_shown(league.games.select("game_key", "game_id", "winner"), ("winner",)).rename({"winner": "recorded_winner"})
        mismatched = results.join(recorded, on="game_key").filter(
            pl.col("vp_differs") | (pl.col("wins") > 1) | (pl.col("winner").fill_null("") != pl.col("recorded_winner").fill_null(""))
        )
        problems += [(row["game_id"], "its result rows do not match the score recorded with the game") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems + tables_behind_events(league)))


TABLES_BEHIND = """
WITH RECURSIVE stored(game_key) AS (
    SELECT min(game_key) FROM events
    UNION ALL SELECT (SELECT min(game_key) FROM events WHERE game_key > stored.game_key) FROM stored WHERE stored.game_key IS NOT NULL
)
SELECT (SELECT game_id FROM events WHERE game_key = stored.game_key AND seq = 1) AS game_id, NULL AS head_seq
FROM stored WHERE game_key IS NOT NULL AND game_key NOT IN (SELECT game_key FROM games)
UNION ALL
SELECT id, head_seq FROM games
WHERE coalesce((SELECT lower(hex(hash)) FROM events WHERE game_key = games.game_key AND seq = games.head_seq), '') != coalesce(head_hash, '')
   OR EXISTS (SELECT 1 FROM events WHERE game_key = games.game_key AND seq = games.head_seq + 1)
"""
"""Per game, its games row (the row the statistics' tables are written with) against its last
events: the event at its head seq has its head hash and none comes after it; and every game that
has events has a row. A cheap check: a few index lookups a game (the ids of the games with
events are walked through the index, one lookup each), never a pass over every event."""


def tables_behind_events(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for each game whose row disagrees with its stored events: a
    deleted games row (the game would vanish from the statistics), events added or removed
    behind ktlog's back, or a head edited. A dataset has no events to compare: nothing to say."""
    if is_dataset(league.db):
        return []
    rows = read_table(league.db, TABLES_BEHIND, {"game_id": str, "head_seq": int})
    problems = []
    for row in rows.iter_rows(named=True):
        if row["head_seq"] is None:
            what = "its events are stored but its games row is missing, so the statistics leave it out"
        else:
            what = f"its games row (head seq {row['head_seq']}) does not match its last stored events: they were changed behind ktlog's back"
        problems.append((row["game_id"], f"{what}; `ktlog rebuild` rewrites the tables from the events"))
    return problems
