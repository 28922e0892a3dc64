"""A tournament's rows (schema 18, `catalog.TOURNAMENTS`, `TOURNAMENT_PLAYERS`,
`TOURNAMENT_TABLES`): read and written for `play.tournament`, which holds the rules. Each write
is one transaction, checked against what is stored inside it (a second organiser's terminal
sees the first's pairing, never half of it)."""

from __future__ import annotations

import json
from typing import Any

from ..envelopes import now
from ..errors import KtlogError
from .store import Store


def rows(store: Store, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    cursor = store.conn.execute(sql, args)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def tournament(store: Store, name: str) -> dict[str, Any] | None:
    found = rows(store, "SELECT * FROM tournaments WHERE name = ?", (name,))
    return found[0] if found else None


def names(store: Store) -> list[str]:
    return [r["name"] for r in rows(store, "SELECT name FROM tournaments ORDER BY created_at, name")]


def create(store: Store, name: str, rounds: int, ruleset: str | None, tie_breakers: str) -> None:
    with store.writing():
        if tournament(store, name):
            raise KtlogError(f"a tournament named {name!r} exists already; choose another name (`ktlog tournament standings {name}` shows it)")
        store.conn.execute(
            "INSERT INTO tournaments (name, created_at, rounds, ruleset, tie_breakers) VALUES (?, ?, ?, ?, ?)", (name, now(), rounds, ruleset, tie_breakers)
        )


def players(store: Store, name: str) -> list[str]:
    return [r["player"] for r in rows(store, "SELECT player FROM tournament_players WHERE tournament = ? ORDER BY rowid", (name,))]


def add_players(store: Store, name: str, players: list[str]) -> None:
    """Register players, refused whole once the first round is paired."""
    with store.writing():
        if tables(store, name):
            raise KtlogError(f"{name}: registration closed when round 1 was paired; nobody was added")
        at = now()
        store.conn.executemany("INSERT OR IGNORE INTO tournament_players (tournament, player, added_at) VALUES (?, ?, ?)", [(name, p, at) for p in players])


def tables(store: Store, name: str) -> list[dict[str, Any]]:
    """Every table of the tournament, with its game's result columns and each player's kill team
    and VP (from `game_results` when it is finished), in round and table order."""
    found = rows(
        store,
        "SELECT t.*, g.status, g.winner, g.draw, g.ended_by, g.conceded_by, g.players AS game_players, g.kill_teams AS game_kill_teams "
        "FROM tournament_tables t LEFT JOIN games g ON g.id = t.game_id WHERE t.tournament = ? ORDER BY t.round, t.table_no",
        (name,),
    )
    vp: dict[str, dict[str, int]] = {}
    for r in rows(
        store,
        "SELECT r.game_id, r.player, r.vp_total FROM game_results r JOIN tournament_tables t ON t.game_id = r.game_id WHERE t.tournament = ?",
        (name,),
    ):
        vp.setdefault(r["game_id"], {})[r["player"]] = r["vp_total"]
    for r in found:
        r["vp"] = vp.get(r["game_id"], {})
        r["kill_teams"] = dict(zip(json.loads(r.pop("game_players") or "[]"), json.loads(r.pop("game_kill_teams") or "[]")))
    return found


def write_round(store: Store, name: str, round_: int, seed: int | None, pairs: list[tuple[int, str, str | None]]) -> None:
    """Store a round's tables, refused if another writer paired it first."""
    with store.writing():
        if rows(store, "SELECT 1 FROM tournament_tables WHERE tournament = ? AND round >= ?", (name, round_)):
            raise KtlogError(f"{name}: round {round_} was paired by another writer meanwhile; `ktlog tournament results {name}` shows it")
        if seed is not None:
            store.conn.execute("UPDATE tournaments SET seed = ? WHERE name = ?", (seed, name))
        at = now()
        store.conn.executemany(
            "INSERT INTO tournament_tables (tournament, round, table_no, player_a, player_b, paired_at) VALUES (?, ?, ?, ?, ?, ?)",
            [(name, round_, table, a, b, at) for table, a, b in pairs],
        )


def linked_to(store: Store, game_id: str) -> str | None:
    """The tournament, round and table a game is linked to, in words (None: to none)."""
    found = rows(store, "SELECT tournament, round, table_no FROM tournament_tables WHERE game_id = ?", (game_id,))
    return f"{found[0]['tournament']} round {found[0]['round']} table {found[0]['table_no']}" if found else None


def link_game(store: Store, name: str, round_: int, table: int, game_id: str) -> None:
    """Link a game to a table, inside the caller's transaction (the game's own, or `record_table`'s)."""
    _check_open(store, name, round_, table)
    if linked := linked_to(store, game_id):
        raise KtlogError(f"game {game_id[:8]} is linked to {linked} already; nothing was changed")
    store.conn.execute("UPDATE tournament_tables SET game_id = ? WHERE tournament = ? AND round = ? AND table_no = ?", (game_id, name, round_, table))


def record_table(store: Store, name: str, round_: int, table: int, *, game_id: str | None = None, no_show: str | None = None) -> None:
    """Record a table's game, or the player who did not show, in a transaction of its own."""
    with store.writing():
        if game_id is not None:
            link_game(store, name, round_, table, game_id)
            return
        _check_open(store, name, round_, table)
        store.conn.execute("UPDATE tournament_tables SET no_show = ? WHERE tournament = ? AND round = ? AND table_no = ?", (no_show, name, round_, table))


def _check_open(store: Store, name: str, round_: int, table: int) -> None:
    taken = rows(store, "SELECT game_id, no_show FROM tournament_tables WHERE tournament = ? AND round = ? AND table_no = ?", (name, round_, table))
    if taken and (taken[0]["game_id"] or taken[0]["no_show"]):
        what = f"game {taken[0]['game_id'][:8]}" if taken[0]["game_id"] else f"a no-show of {taken[0]['no_show']}"
        raise KtlogError(f"{name} round {round_} table {table} has {what} recorded already; nothing was changed")
