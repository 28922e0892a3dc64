"""One match, one result, in the statistics: among a league's games, the matches recorded in two
databases (`play.matches`: each club recording it in its own, both imported or exported into one
dataset) counted once, as their counted recording; what every statistic says of them beside its
figures (`notes`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import polars as pl

from ..play.matches import LABELS, Match, Recording, matches

if TYPE_CHECKING:
    from .league import League


def recorded_twice(league: League, games: pl.DataFrame) -> list[Match]:
    """The matches recorded more than once among `games` (a league's, every recording): only the
    games of a day on which two databases recorded games are read further (their players)."""
    if games.height < 2 or games.get_column("recorded_in").n_unique() < 2:
        return []
    days = games.filter(pl.col("date").is_not_null()).group_by("date").agg(pl.col("recorded_in").n_unique().alias("databases")).filter(pl.col("databases") > 1)
    day = games.join(days.select("date"), on="date", how="semi")
    if day.is_empty():
        return []
    rows = day.join(league.game_lists.select("game_key", "players"), on="game_key", how="left")
    return matches(
        Recording(
            r["game_id"],
            r["recorded_in"],
            r["date"],
            tuple(r[label] for label in LABELS),
            tuple(r["players"] or ()),
            r["status"] == "finished",
            bool(r["disputes"]),
            str(r["created_at"]),
        )
        for r in rows.iter_rows(named=True)
    )


def left_out(found: list[Match]) -> list[str]:
    """The ids of the recordings the league leaves out: every match's but the counted one."""
    return [r.game_id for m in found for r in m.others]


def notes(league: League) -> list[str]:
    """What a statistic says of the matches recorded twice: a note naming the games left out, and a
    warning for each match whose recordings disagree (each player's result and VP)."""
    found = league.same_matches
    if not found:
        return []
    ids = [r.game_id for m in found for r in (m.counted, *m.others)]
    rows = league.read("game_results", ("game_id", "player", "result", "vp_total")).filter(pl.col("game_id").is_in(ids))
    results: dict[str, list[tuple[str, str, int]]] = {}
    for game_id, player, result, vp in rows.iter_rows():
        results.setdefault(game_id, []).append((player, result, vp))

    def resulted(r: Recording) -> Recording:
        return dataclasses.replace(r, result=tuple(results.get(r.game_id, ())))

    found = [Match(resulted(m.counted), tuple(map(resulted, m.others)), m.why) for m in found]
    others = left_out(found)
    said = ", ".join(f"{m.others[0].game_id[:8]} as {m.counted.game_id[:8]}" for m in found[:5])
    text = [
        f"note: {len(found)} match(es) recorded in two databases are counted once ({said}{' ...' if len(found) > 5 else ''}; {len(others)} recording(s) left out)"
    ]
    return text + [f"warning: {m.describe()}" for m in found if not m.agreed]
