"""The tables page's read model: every game in progress and the latest finished ones, each with
its turning point, VP, CP and last event, read from the games table and the projections
(`storage.games`: four queries, no game folded: 1,000 games in progress answer in a few
milliseconds), and the leagues and rounds its filter offers."""

from __future__ import annotations

from typing import Any

from ..envelopes import GameRow
from ..storage.store import Store
from ..text.describe import describe
from ..text.json_views import game_row

FINISHED_SHOWN = 20
"""How many of the latest finished games the tables page lists under the games in progress."""
FILTERS = ("league", "round")
"""The labels the tables page narrows by."""


def table_rows(store: Store, league: str | None = None, round: str | None = None, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The games of the tables page, in progress first (newest first), then the latest
    finished; `league` and `round` narrow by label, `ids` to some games (a live update).
    Games of `ktlog simulate` are nobody's table."""
    games = store.listing.at_tables({k: v for k, v in (("league", league), ("round", round)) if v}, ids)
    if ids is None:
        finished = [g for g in games if g.status == "finished"][:FINISHED_SHOWN]
        games = [g for g in games if g.status != "finished"] + finished
    return _with_figures(store, games)


def labels(store: Store) -> dict[str, list[str]]:
    """The leagues and rounds of the games, for the tables page's filter."""
    return {label: store.listing.labels(label) for label in FILTERS}


def _with_figures(store: Store, games: list[GameRow]) -> list[dict[str, Any]]:
    if not games:
        return []
    keys = [g.id for g in games]
    figures = store.listing.figures(keys)
    last = {game_id: describe(event, spectator=True) for game_id, event in store.last_events(keys).items()}
    out = []
    for g in games:
        turning_point, vp, cp = figures.get(g.id, (0, {}, {}))
        row = game_row(g)
        row["turning_point"] = turning_point
        row["vp"] = {p: vp.get(p, 0) for p in g.players}
        row["cp"] = {p: cp.get(p, 0) for p in g.players}
        row["last_event"] = last.get(g.id, "")
        out.append(row)
    return out
