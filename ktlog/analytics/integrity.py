"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each player's result row against the VP by op recorded with the game and the game's
winner (a result edited in place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
"""

from __future__ import annotations

import polars as pl

from ..storage import catalog
from .league import League, read_table


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    query, types = catalog.select("verifications", ("game_id", "problem", "bad_seq"))
    verdicts = read_table(league.db, f"{query} WHERE ok = 0", types)
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
    return sorted(set(problems + tables_behind_events(league)))


TABLES_BEHIND = """
SELECT e.game_id, count(*) AS events, max(e.seq) AS last_seq, g.head_seq,
       coalesce(g.head_hash = (SELECT h.hash FROM events h WHERE h.game_id = e.game_id AND h.seq = g.head_seq), 0) AS head_holds
FROM events e LEFT JOIN games g ON g.id = e.game_id
GROUP BY e.game_id
HAVING g.head_seq IS NULL OR events != g.head_seq OR last_seq != g.head_seq OR NOT head_holds
UNION ALL
SELECT id, 0, 0, head_seq, 0 FROM games WHERE id NOT IN (SELECT game_id FROM events)
"""
"""Per game, the count and last position of its events against its games row (the row the
statistics' tables are written with): a cheap check, one pass over the events' index."""


def tables_behind_events(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for each game whose row disagrees with its stored events: a
    deleted games row (the game would vanish from the statistics), events added or removed
    behind ktlog's back, or a head edited."""
    rows = read_table(league.db, TABLES_BEHIND, {"game_id": str, "events": int, "last_seq": int, "head_seq": int, "head_holds": int})
    problems = []
    for row in rows.iter_rows(named=True):
        if row["head_seq"] is None:
            what = f"its {row['events']} events are stored but its games row is missing, so the statistics leave it out"
        else:
            what = f"its games row says {row['head_seq']} events but {row['events']} are stored (the last at seq {row['last_seq']}) or its head hash differs"
        problems.append((row["game_id"], f"{what}; `ktlog rebuild` rewrites the tables from the events"))
    return problems
