"""The tables page's rows: every game in progress and the latest finished ones, each with its
turning point, VP, CP and last event, read from the projection tables in four queries (no game
is folded: 1,000 games in progress answer in a few milliseconds)."""

from __future__ import annotations

from typing import Any

from ..play.database import GameRow, Store, listed_game
from ..text.describe import describe
from ..text.json_views import game_row

FINISHED_SHOWN = 20
"""How many of the latest finished games the tables page lists under the games in progress."""


def table_rows(store: Store, league: str | None = None, round: str | None = None, ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The games of the tables page, in progress first (newest first), then the latest
    finished; `league` and `round` narrow by label, `ids` to some games (a live update)."""
    where, args = ["coalesce(simulated, 0) = 0"], []  # games of `ktlog simulate` are nobody's table
    for column, value in (("league", league), ("round", round)):
        if value:
            where.append(f"{column} = ?")
            args.append(value)
    if ids is not None:
        where.append(f"id IN ({', '.join('?' * len(ids))})")
        args.extend(ids)
    clause = f"WHERE {' AND '.join(where)}"
    cursor = store.conn.execute(f"SELECT * FROM games {clause} ORDER BY status = 'finished', date DESC, created_at DESC", args)
    names = [d[0] for d in cursor.description]
    games = [listed_game(dict(zip(names, r))) for r in cursor]
    if ids is None:
        finished = [g for g in games if g.status == "finished"][:FINISHED_SHOWN]
        games = [g for g in games if g.status != "finished"] + finished
    return _with_figures(store, games)


def _with_figures(store: Store, games: list[GameRow]) -> list[dict[str, Any]]:
    if not games:
        return []
    keys = [g.id for g in games]
    marks = ", ".join("?" * len(keys))
    vp = _per_player(store, f"SELECT game_id, player, sum(vp) FROM vp_changes WHERE game_id IN ({marks}) GROUP BY game_id, player", keys)
    cp = _per_player(store, f"SELECT game_id, player, sum(delta) FROM cp_changes WHERE game_id IN ({marks}) GROUP BY game_id, player", keys)
    tp = dict(store.conn.execute(f"SELECT game_id, max(turning_point) FROM turning_points WHERE game_id IN ({marks}) GROUP BY game_id", keys).fetchall())
    last = {game_id: describe(event, spectator=True) for game_id, event in store.last_events(keys).items()}
    out = []
    for g in games:
        row = game_row(g)
        row["turning_point"] = tp.get(g.id, 0)
        row["vp"] = {p: vp.get((g.id, p), 0) for p in g.players}
        row["cp"] = {p: cp.get((g.id, p), 0) for p in g.players}
        row["last_event"] = last.get(g.id, "")
        out.append(row)
    return out


def _per_player(store: Store, sql: str, args: list[str]) -> dict[tuple[str, str], int]:
    return {(game, player): total for game, player, total in store.conn.execute(sql, args)}
