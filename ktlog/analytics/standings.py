"""The league table and Elo ratings."""

from __future__ import annotations

import polars as pl

from .league import League

ELO_START = 1500.0
ELO_K = 32.0
"""Elo: every player starts at 1500; K = 32; a draw scores 1/2; a concession is a loss."""

SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}

TIE_BREAKS = ("points", "vp_diff", "vp_for", "elo")
"""League table order: points (a win 1, a draw 1/2), then VP difference, then VP scored, then
Elo, then name."""


def _rate(results: pl.DataFrame, history: list[tuple] | None = None) -> dict[str, float]:
    """Every player's rating after the last game: a pure function of the results in date order
    (date, then the game's start time, then its id). With `history`, also appends (game, date,
    player, rating before, rating after) for each player of each game.

    Elo is a recurrence over games in order, so this walks the games once in Python (about
    0.15 s for 10,000 games); the grouping and ordering around it are Polars. Several players:
    each is scored against every other, averaged.
    """
    games = (
        results.select("game_id", "date", "created_at", "player", pl.col("result").replace_strict(SCORE).alias("score"))
        .sort("date", "created_at", "game_id", "player")
        .group_by("game_id", "date", "created_at", maintain_order=True)
        .agg("player", "score")
    )
    columns = ("game_id", "date", "player", "score") if history is not None else ("player", "score")
    ratings: dict[str, float] = {}
    for *game, players, scores in zip(*(games.get_column(c).to_list() for c in columns)):
        before = [ratings.get(p, ELO_START) for p in players]
        if len(players) == 2:  # the common case, spelled out: a tenth of the time of the general one
            (ra, rb), (sa, sb) = before, scores
            change = ELO_K * ((1.0 if sa > sb else 0.5 if sa == sb else 0.0) - 1 / (1 + 10 ** ((rb - ra) / 400)))
            after = [ra + change, rb - change]
        else:
            after = []
            for i, mine in enumerate(scores):
                pairs = [(r, s) for j, (r, s) in enumerate(zip(before, scores)) if j != i] or [(before[i], mine)]
                expected = sum(1 / (1 + 10 ** ((r - before[i]) / 400)) for r, _ in pairs) / len(pairs)
                actual = sum(1.0 if mine > s else 0.5 if mine == s else 0.0 for _, s in pairs) / len(pairs)
                after.append(before[i] + ELO_K * (actual - expected))
        ratings.update(zip(players, after))
        if history is not None:
            history.extend((*game, p, b, a) for p, b, a in zip(players, before, after))
    return ratings


def elo_history(results: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating after every game (`ktlog stats elo`, the Elo chart)."""
    history: list[tuple] = []
    _rate(results, history)
    schema = {"game_id": pl.String, "date": pl.String, "player": pl.String, "elo_before": pl.Float64, "elo": pl.Float64}
    return pl.DataFrame(history, schema=schema, orient="row")


def current_elo(results: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating after their last game (the standings' Elo column)."""
    ratings = _rate(results)
    return pl.DataFrame({"player": list(ratings), "elo": list(ratings.values())}, schema={"player": pl.String, "elo": pl.Float64})


def standings(league: League) -> pl.DataFrame:
    """Per player (their name as shown and `player_id`): games, wins, draws, losses, win rate (a draw half a win), VP for and against, VP difference, Elo."""
    league.read_ahead("game_results")
    rows = league.with_opponents
    table = (
        rows.group_by("player")
        .agg(
            pl.len().alias("games"),
            (pl.col("result") == "win").sum().alias("wins"),
            (pl.col("result") == "draw").sum().alias("draws"),
            (pl.col("result") == "loss").sum().alias("losses"),
            pl.col("vp_total").sum().alias("vp_for"),
            pl.col("vp_against").sum().alias("vp_against"),
        )
        .with_columns(points=pl.col("wins") + 0.5 * pl.col("draws"), vp_diff=pl.col("vp_for") - pl.col("vp_against"))
        .with_columns(win_rate=pl.col("points") / pl.col("games"))
        .join(current_elo(league.scope.results).with_columns(pl.col("elo").round(0).cast(pl.Int64)), on="player", how="left")
        .sort([*TIE_BREAKS, "player"], descending=[True, True, True, True, False])
        .with_row_index("rank", offset=1)
        .join(league.player_ids, on="player", how="left")
    )
    return league.entity_rows(table, "player").select(
        "rank", "player", "player_id", "games", "wins", "draws", "losses", "points", pl.col("win_rate").round(3), "vp_for", "vp_against", "vp_diff", "elo"
    )
