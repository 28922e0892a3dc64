"""Quick integrity checks run with every statistic (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each game's result row against the score recorded with the game (a result edited in
place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
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
        recorded = league.games.filter(pl.col("result").is_not_null()).select(
            "game_id",
            pl.col("result").str.json_path_match("$.winner").alias("recorded_winner"),
            pl.col("result").str.json_path_match("$.score").str.extract_all(r'(?:^|[^\\])"\s*:\s*-?\d+')  # a value follows a name's closing quote (a name may hold "A:3")
            .list.eval(pl.element().str.extract(r"(-?\d+)$").cast(pl.Int64)).list.sum().alias("recorded_total"),
        )
        results = league.results.group_by("game_id").agg(
            pl.col("vp_total").sum().alias("total"), pl.col("player").filter(pl.col("result") == "win").first().alias("winner")
        )
        mismatched = results.join(recorded, on="game_id").filter(
            (pl.col("total") != pl.col("recorded_total")) | (pl.col("winner").fill_null("") != pl.col("recorded_winner").fill_null(""))
        )
        problems += [(row["game_id"], "its result rows do not match the score recorded with the game") for row in mismatched.iter_rows(named=True)]
    return sorted(set(problems))
