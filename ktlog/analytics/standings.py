"""The league table and Elo ratings."""

from __future__ import annotations

import functools
import operator

import polars as pl

from .figures import stored_opponents
from .league import League, NothingToCompute, with_opponents
from .place import Place

ELO_START = 1500.0
ELO_K = 32.0
"""Elo: every player starts at 1500; K = 32; a draw scores 1/2; a concession is a loss."""

SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}

TIE_BREAKS = ("points", "vp_diff", "vp_for", "elo")
"""League table order: points (a win 1, a draw 1/2), then VP difference, then VP scored, then
Elo, then name."""


ELO_SCHEMA = {"game_id": pl.String, "date": pl.String, "player": pl.String, "elo_before": pl.Float64, "elo": pl.Float64}


def elo_history(results: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating before and after every game (game, date, player, elo_before, elo),
    in rating order: a pure function of the results in date order (date, then the game's start
    time, then its id). Several players: each is scored against every other, averaged.

    Elo is a recurrence over games in order, so this walks the games once in Python (about
    0.15 s for 10,000 games); the grouping and ordering around it are Polars. A dataset stores
    it (`store_elo`), and `league_elo` reads it from there.
    """
    games = (
        results.select("game_id", "date", "created_at", "player", pl.col("result").replace_strict(SCORE).alias("score"))
        .sort("date", "created_at", "game_id", "player")
        .group_by("game_id", "date", "created_at", maintain_order=True)
        .agg("player", "score")
    )
    ratings: dict[str, float] = {}
    history: list[tuple] = []
    for game_id, date, players, scores in zip(*(games.get_column(c).to_list() for c in ("game_id", "date", "player", "score"))):
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
        history.extend((game_id, date, p, b, a) for p, b, a in zip(players, before, after))
    return pl.DataFrame(history, schema=ELO_SCHEMA, orient="row")


def current_elo(history: pl.DataFrame) -> pl.DataFrame:
    """Each player's rating after their last game (the standings' Elo column), from their
    history in rating order."""
    return history.group_by("player").agg(pl.col("elo").last())


STORED_ELO = "elo/elo.parquet"
"""A dataset's Elo history (`ktlog dataset export` stores it): `elo_history`'s rows, in rating
order, over the league without filters; the Parquet file's `ktlog.elo_of` is the fingerprint of
the results it was computed from."""
FINGERPRINTED = ("game_id", "date", "player", "result")
"""The result columns Elo is a function of (and the game's start time, which its first event
fixes for good, so its id stands for it)."""


def _fingerprint(rows: pl.DataFrame) -> str:
    """A hash of the fingerprinted columns of every result row, in any order: each column hashed
    with a seed of its own, a row's hashes mixed (xor, hashed again) and the rows' sum taken (a
    fifth of the time of hashing each row as a struct; Polars' hash: a new Polars may hash
    otherwise, and the stored Elo is then computed again, never misread)."""
    row = functools.reduce(operator.xor, (pl.col(c).hash(seed) for seed, c in enumerate(FINGERPRINTED, 26)))
    return str(rows.select(row.hash(seed=25).sum()).item())


def _rated(league: League) -> pl.DataFrame:
    """The result rows with their game's start time, to rate in order."""
    return league.result_rows.join(league.games.select("game_key", "created_at"), on="game_key", how="left")


def store_elo(place: Place) -> None:
    """Compute the Elo history of the dataset at `place` (its league without filters) and store
    it there (`STORED_ELO`), so the statistics read it instead of rating every game again (a
    league with no result stores an empty history that no results match)."""
    league = League(place)
    try:
        history, of = elo_history(_rated(league)), _fingerprint(league.result_rows)
    except NothingToCompute:
        history, of = pl.DataFrame(schema=ELO_SCHEMA), ""
    place.write_parquet(STORED_ELO, history, metadata={"ktlog.elo_of": of})


def league_elo(league: League, columns: tuple[str, ...] | None = None) -> pl.DataFrame:
    """The league's Elo history (`elo_history` of its results without --player and --team, its
    `columns`): a dataset's stored one when it was computed from these very results, computed
    otherwise."""
    scope, place = league.scope, league.db
    if isinstance(place, Place) and place.exists(STORED_ELO):
        stored = place.name(STORED_ELO)
        if pl.read_parquet_metadata(stored, storage_options=place.storage_options).get("ktlog.elo_of") == _fingerprint(scope.result_rows):
            return pl.read_parquet(stored, columns=list(columns) if columns else None, storage_options=place.storage_options)
    history = elo_history(_rated(scope))
    return history.select(columns) if columns else history


def standings(league: League) -> pl.DataFrame:
    """Per player (their name as shown and `player_id`): games, wins, draws, losses, win rate (a draw half a win), VP for and against, VP difference, Elo."""
    league.read_ahead("game_results", by_op=False)
    rows = stored_opponents(league)
    if rows is None:
        rows = with_opponents(league.result_rows)
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
        .join(current_elo(league_elo(league, ("player", "elo"))).with_columns(pl.col("elo").round(0).cast(pl.Int64)), on="player", how="left")
        .sort([*TIE_BREAKS, "player"], descending=[True, True, True, True, False])
        .with_row_index("rank", offset=1)
        .join(league.player_ids, on="player", how="left")
    )
    return league.entity_rows(table, "player").select(
        "rank", "player", "player_id", "games", "wins", "draws", "losses", "points", pl.col("win_rate").round(3), "vp_for", "vp_against", "vp_diff", "elo"
    )
