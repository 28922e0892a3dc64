"""What every statistic says beside its figures (`not_counted`): the games it leaves out, and the
quick integrity checks run with it (the full check is `ktlog verify`).

Re-hashing and re-folding every event of a league takes minutes, so statistics check what they
can afford: each player's result row against the VP by op recorded with the game and the game's
winner (a result edited in place in `game_results` no longer matches), and the verdicts of the latest `ktlog verify` (an
event edited, deleted or reordered behind ktlog's back is found there: run it after merging
tables; it also compares every derived table with the log).
"""

from __future__ import annotations

import polars as pl

from ..storage.log import HEADS_BEHIND
from . import recordings
from .league import League, read_table
from .place import Place


def not_counted(league: League) -> list[str]:
    """What the figures leave out, to say on stderr after them: games in progress, games with open
    disputes, the recordings of a match counted once (`recordings.notes`), games failing the checks."""
    notes = []
    if league.samples_left_out:
        notes.append(f"note: the {league.samples_left_out} sample games (`ktlog demo`) are left out beside your own games (--samples takes them in)")
    elif league.sample_games and not league.filters.samples:
        notes.append(f"note: the figures take in the {league.sample_games} sample games (`ktlog demo`) until a game of your own is finished")
    if league.in_progress.height:
        ids = ", ".join(league.in_progress.get_column("game_id").str.slice(0, 8).to_list()[:5])
        notes.append(f"note: {league.in_progress.height} game(s) in progress are not counted ({ids}{'...' if league.in_progress.height > 5 else ''})")
    disputed = league.games.filter(pl.col("disputes").fill_null(0) > 0).get_column("game_id").str.slice(0, 8).to_list()
    if disputed:
        notes.append(
            f"note: {len(disputed)} game(s) have open disputes, so their results are provisional ({', '.join(disputed[:5])}{'...' if len(disputed) > 5 else ''})"
        )
    notes += recordings.notes(league)
    notes += [
        f"warning: game {game_id[:8]} failed verification: {problem}. Its figures may be wrong; run `ktlog verify {game_id[:8]}`"
        for game_id, problem in suspicious_games(league)
    ]
    return notes


def shared_wins(league: League) -> list[str]:
    """A note naming the games the league counts that ended in a shared win (Multiplayer Ops: the
    players tied for the most VP share it, RULES.md's ruling), which W/D/L counts as a draw for
    those who shared it: said by the statistics that count wins, draws and losses."""
    games = (
        league.result_rows.group_by("game_id")
        .agg(pl.col("player").filter(pl.col("result") == "draw").sort().alias("sharing"), (pl.col("result") == "loss").any().alias("beaten"))
        .filter(pl.col("beaten") & (pl.col("sharing").list.len() > 1))
        .sort("game_id")
    )
    if games.is_empty():
        return []
    named = [f"{game_id[:8]} ({' and '.join(sharing)})" for game_id, sharing in games.select("game_id", "sharing").iter_rows()]
    return [f"note: {games.height} game(s) ended in a shared win, counted as a draw for those who shared it: {', '.join(named[:5])}{'...' * (len(named) > 5)}"]


def suspicious_games(league: League) -> list[tuple[str, str]]:
    """(game id, what is wrong) for every game of the league that fails a quick check."""
    verdicts = league.read("verifications", ("game_id", "ok", "problem", "bad_seq")).filter(pl.col("ok") == 0)
    problems = [
        (row["game_id"], f"`ktlog verify` found {row['problem']}" + (f" at seq {row['bad_seq']}" if row["bad_seq"] else ""))
        for row in verdicts.join(league.games.select("game_id"), on="game_id", how="semi").iter_rows(named=True)
    ]
    if league.finished_ids.height:
        rows = league.result_rows.lazy().select("game_key", "player", "result", "vp_total")
        winners = rows.filter(pl.col("result") == "win").select("game_key", "player")
        recorded = league.as_shown(league.games.select("game_key", "game_id", "winner"), ("winner",)).lazy()
        mismatched = pl.concat(
            [
                _vp_not_by_op(league).select("game_key"),
                winners.filter(pl.col("game_key").is_duplicated()).select("game_key"),
                recorded.join(rows.select("game_key").unique(), on="game_key", how="semi")  # the games with results
                .join(winners, on="game_key", how="left")
                .filter(pl.col("player").fill_null("") != pl.col("winner").fill_null(""))
                .select("game_key"),
            ]
        ).unique()
        ids = recorded.join(mismatched, on="game_key", how="semi").select("game_id").collect().get_column("game_id")
        problems += [(game_id, "its result rows do not match the score recorded with the game") for game_id in ids]
    return sorted(set(problems + tables_behind_events(league)))


def _vp_not_by_op(league: League) -> pl.LazyFrame:
    """The result rows whose VP differs from the player's VP by op recorded with the game: read
    beside each row from a dataset's stored figures while they are of its files (no join), or
    summed by game and player and joined (a league's millions of rows: never pivoted)."""
    rows = league.result_rows.lazy().select("game_key", "player", "vp_total")
    figures = league.stored_figures
    if figures is not None:  # a row for each result row, in its order
        by_op = figures.lazy().select(pl.sum_horizontal(c for c in figures.columns if c.startswith("vp_")).alias("vp_by_op"))
        return pl.concat([rows, by_op], how="horizontal").filter(pl.col("vp_total") != pl.col("vp_by_op"))
    sums = league.by_op.lazy().group_by("game_key", "player").agg(pl.col("vp").sum().alias("vp_by_op"))
    return rows.join(sums, on=["game_key", "player"], how="left").filter(pl.col("vp_total") != pl.col("vp_by_op").fill_null(0))


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
