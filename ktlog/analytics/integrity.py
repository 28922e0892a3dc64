"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

They catch what tampering most often leaves behind without re-hashing or re-folding every
event: a game whose last event is missing, changed or followed by events ktlog did not write
(against the head seq and hash the game recorded), results edited in place (each player's VP
in `game_results` against the sum of their VP changes), and games that failed the latest
`ktlog verify`. An edit in the middle of a log that keeps its hashes is found by `ktlog verify`.
"""

from __future__ import annotations

import polars as pl

from .league import League, read_table


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    heads = read_table(
        league.db,
        "SELECT g.id AS game_id, g.head_seq, g.head_hash, e.hash AS last_hash, "
        "EXISTS (SELECT 1 FROM events x WHERE x.game_id = g.id AND x.seq > g.head_seq) AS beyond "
        "FROM games g LEFT JOIN events e ON e.game_id = g.id AND e.seq = g.head_seq",
        {"game_id": str, "head_seq": int, "head_hash": str, "last_hash": str, "beyond": int},
    ).join(league.games.select("game_id"), on="game_id", how="semi")
    problems = [
        (row["game_id"], "its last event is missing or not the one ktlog recorded")
        for row in heads.filter(pl.col("last_hash").is_null() | (pl.col("last_hash") != pl.col("head_hash"))).iter_rows(named=True)
    ]
    problems += [(row["game_id"], "it has events after its recorded head") for row in heads.filter(pl.col("beyond") == 1).iter_rows(named=True)]
    verdicts = read_table(league.db, "SELECT game_id, problem, bad_seq FROM verifications WHERE ok = 0", {"game_id": str, "problem": str, "bad_seq": int})
    problems += [
        (row["game_id"], f"`ktlog verify` found {row['problem']}" + (f" at seq {row['bad_seq']}" if row["bad_seq"] else ""))
        for row in verdicts.join(league.games.select("game_id"), on="game_id", how="semi").iter_rows(named=True)
    ]
    if league.finished_ids.height:
        scored = league.table("vp_changes", "game_id, player, vp").group_by("game_id", "player").agg(pl.col("vp").sum().alias("scored"))
        mismatched = (
            league.results.select("game_id", "player", "vp_total").join(scored, on=["game_id", "player"], how="left")
            .filter(pl.col("vp_total") != pl.col("scored").fill_null(0))
        )
        problems += [(row["game_id"], f"{row['player']}'s result ({row['vp_total']}VP) is not the sum of the VP scored") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems))
