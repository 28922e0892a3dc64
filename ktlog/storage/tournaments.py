"""A tournament's rows (schema 18 and 23, `catalog.TOURNAMENTS`, `TOURNAMENT_PLAYERS`,
`TOURNAMENT_TABLES`): read and written for `play.tournament`, which holds the rules. Each write
is one transaction, checked against what is stored inside it (a second organiser's terminal
sees the first's pairing, never half of it). `check_final` is the store's guard: a finished
game's result does not change once a later round was paired on it."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..envelopes import now
from ..errors import KtlogError

if TYPE_CHECKING:
    from .store import Store

Pairs = list[tuple[int, str, str | None]]
"""A round's tables: (table number, player a, player b or None for a bye)."""


def rows(store: Store, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    return _rows(store.conn, sql, args)


def _rows(conn: sqlite3.Connection, sql: str, args: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    cursor = conn.execute(sql, args)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor]


def tournament(store: Store, name: str) -> dict[str, Any] | None:
    found = rows(store, "SELECT * FROM tournaments WHERE name = ?", (name,))
    return found[0] if found else None


def names(store: Store) -> list[str]:
    return [r["name"] for r in rows(store, "SELECT name FROM tournaments ORDER BY created_at, name")]


def listing(store: Store) -> list[dict[str, Any]]:
    """Every tournament with its players' count and latest round, oldest first."""
    return rows(
        store,
        "SELECT t.name, t.created_at, t.rounds, t.ruleset, "
        "(SELECT count(*) FROM tournament_players p WHERE p.tournament = t.name) AS players, "
        "(SELECT coalesce(max(round), 0) FROM tournament_tables x WHERE x.tournament = t.name) AS round "
        "FROM tournaments t ORDER BY t.created_at, t.name",
    )


def create(store: Store, name: str, rounds: int, ruleset: str | None, tie_breakers: str, bye_points: float | None) -> None:
    with store.writing():
        if tournament(store, name):
            raise KtlogError(f"a tournament named {name!r} exists already; choose another name (`ktlog tournament standings {name}` shows it)")
        store.conn.execute(
            "INSERT INTO tournaments (name, created_at, rounds, ruleset, tie_breakers, bye_points) VALUES (?, ?, ?, ?, ?, ?)",
            (name, now(), rounds, ruleset, tie_breakers, bye_points),
        )


def players(store: Store, name: str) -> list[dict[str, Any]]:
    """The registered players, in the order they registered."""
    return rows(store, "SELECT * FROM tournament_players WHERE tournament = ? ORDER BY rowid", (name,))


def register(store: Store, name: str, entrants: list[dict[str, Any]], aliases: Iterable[tuple[str, str, str]], latest_round: int) -> None:
    """Register players (dicts of `TOURNAMENT_PLAYERS`' columns but the tournament's), and count
    each (database, name, player id) of `aliases` as that player's name in the league, in one
    transaction, refused whole if another writer paired a round meanwhile or registered one of them."""
    with store.writing():
        _unchanged_round(store, name, latest_round)
        taken = {r["player"] for r in players(store, name)} & {e["player"] for e in entrants}
        if taken:
            raise KtlogError(f"{', '.join(sorted(taken))} registered for {name} meanwhile (another organiser's terminal); nobody was added")
        at = now()
        store.conn.executemany(
            "INSERT INTO tournament_players (tournament, player, added_at, player_id, club, checked_in_at, joins_round) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(name, e["player"], at, e["player_id"], e["club"], e["checked_in_at"], e["joins_round"]) for e in entrants],
        )
        store.conn.executemany("INSERT OR IGNORE INTO player_aliases (database_id, name, player_id) VALUES (?, ?, ?)", list(aliases))


def update_player(store: Store, name: str, player: str, latest_round: int, **columns: Any) -> None:
    """Change a registered player's check-in, joining round or drop, refused if a round was paired meanwhile."""
    with store.writing():
        _unchanged_round(store, name, latest_round)
        store.conn.execute(
            f"UPDATE tournament_players SET {', '.join(f'{c} = ?' for c in columns)} WHERE tournament = ? AND player = ?", (*columns.values(), name, player)
        )


def remove_player(store: Store, name: str, player: str) -> None:
    """Take a registration back, refused if the player was paired meanwhile."""
    with store.writing():
        if rows(store, "SELECT 1 FROM tournament_tables WHERE tournament = ? AND (player_a = ? OR player_b = ?)", (name, player, player)):
            raise KtlogError(f"{player} was paired meanwhile (another organiser's terminal); `ktlog tournament drop` them instead; nothing was changed")
        store.conn.execute("DELETE FROM tournament_players WHERE tournament = ? AND player = ?", (name, player))


def _unchanged_round(store: Store, name: str, latest_round: int) -> None:
    found = store.conn.execute("SELECT coalesce(max(round), 0) FROM tournament_tables WHERE tournament = ?", (name,)).fetchone()[0]
    if found != latest_round:
        raise KtlogError(f"{name}: round {found} was paired meanwhile (another organiser's terminal); nothing was changed, look again and retry")


def tables(store: Store, name: str) -> list[dict[str, Any]]:
    """Every table of the tournament, with its game's result columns, the result reported for it
    and each player's kill team and VP (from `game_results` when it is finished), in round and
    table order."""
    found = rows(
        store,
        "SELECT t.*, g.status, g.winner, g.draw, g.ended_by, g.conceded_by, g.reported, g.players AS game_players, g.kill_teams AS game_kill_teams "
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
        r["reported"] = json.loads(r["reported"]) if r["reported"] else None
        r["kill_teams"] = dict(zip(json.loads(r.pop("game_players") or "[]"), json.loads(r.pop("game_kill_teams") or "[]")))
    return found


def write_round(store: Store, name: str, round_: int, seed: int | None, pairs: Pairs, *, again: bool = False) -> None:
    """Store a round's tables, refused if another writer paired it first; `again`: in place of
    the round's tables (a re-pair), refused if any of them has a game or a no-show by then.
    A re-pair of the round after a reopened one closes the reopening."""
    with store.writing():
        if again:
            taken = rows(
                store,
                "SELECT table_no FROM tournament_tables WHERE tournament = ? AND round = ? AND (game_id IS NOT NULL OR no_show IS NOT NULL)",
                (name, round_),
            )
            if taken or rows(store, "SELECT 1 FROM tournament_tables WHERE tournament = ? AND round > ?", (name, round_)):
                raise KtlogError(f"{name} round {round_} has a result by now (another organiser's terminal); nothing was re-paired")
            store.conn.execute("DELETE FROM tournament_tables WHERE tournament = ? AND round = ?", (name, round_))
            store.conn.execute("UPDATE tournaments SET reopened_round = NULL WHERE name = ? AND reopened_round = ?", (name, round_ - 1))
        elif rows(store, "SELECT 1 FROM tournament_tables WHERE tournament = ? AND round >= ?", (name, round_)):
            raise KtlogError(f"{name}: round {round_} was paired by another writer meanwhile; `ktlog tournament results {name}` shows it")
        if seed is not None:
            store.conn.execute("UPDATE tournaments SET seed = ? WHERE name = ?", (seed, name))
        at = now()
        store.conn.executemany(
            "INSERT INTO tournament_tables (tournament, round, table_no, player_a, player_b, paired_at) VALUES (?, ?, ?, ?, ?, ?)",
            [(name, round_, table, a, b, at) for table, a, b in pairs],
        )


def swap(store: Store, name: str, round_: int, changed: Pairs) -> None:
    """Seat two tables of a round anew (a swap of their players), refused if either has a game or a no-show by then."""
    with store.writing():
        for table, a, b in changed:
            _check_open(store, name, round_, table)
            store.conn.execute(
                "UPDATE tournament_tables SET player_a = ?, player_b = ? WHERE tournament = ? AND round = ? AND table_no = ?", (a, b, name, round_, table)
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


def undo_no_show(store: Store, name: str, round_: int, table: int, absent: str) -> None:
    """Take back a no-show, refused if it is not this one by then."""
    with store.writing():
        cursor = store.conn.execute(
            "UPDATE tournament_tables SET no_show = NULL WHERE tournament = ? AND round = ? AND table_no = ? AND no_show = ?", (name, round_, table, absent)
        )
        if cursor.rowcount != 1:
            raise KtlogError(f"{name} round {round_} table {table} has no no-show of {absent} by now (another organiser's terminal); nothing was changed")


def set_columns(store: Store, name: str, **columns: Any) -> None:
    """Change a tournament's own columns (the timer, a reopened round, the organiser's token)."""
    with store.writing():
        store.conn.execute(f"UPDATE tournaments SET {', '.join(f'{c} = ?' for c in columns)} WHERE name = ?", (*columns.values(), name))


def _check_open(store: Store, name: str, round_: int, table: int) -> None:
    taken = rows(store, "SELECT game_id, no_show FROM tournament_tables WHERE tournament = ? AND round = ? AND table_no = ?", (name, round_, table))
    if taken and (taken[0]["game_id"] or taken[0]["no_show"]):
        what = f"game {taken[0]['game_id'][:8]}" if taken[0]["game_id"] else f"a no-show of {taken[0]['no_show']}"
        raise KtlogError(f"{name} round {round_} table {table} has {what} recorded already; nothing was changed")


def check_final(conn: sqlite3.Connection, game_id: str, describe: Callable[[], str]) -> None:
    """Inside the store's write transaction, when an event changes the result of a finished
    game: refused if the game is a tournament table's whose result a later round was paired on,
    unless the organiser reopened that round (`ktlog tournament reopen`). `describe` words the change."""
    found = _rows(conn, "SELECT tournament, round, table_no FROM tournament_tables WHERE game_id = ?", (game_id,))
    if not found:
        return
    name, round_, table = found[0]["tournament"], found[0]["round"], found[0]["table_no"]
    event = _rows(
        conn, "SELECT reopened_round, (SELECT max(round) FROM tournament_tables WHERE tournament = ?) AS latest FROM tournaments WHERE name = ?", (name, name)
    )
    if not event or event[0]["latest"] <= round_ or event[0]["reopened_round"] == round_:
        return
    raise KtlogError(
        f"{describe()}: game {game_id[:8]} is {name} round {round_} table {table}, and round {round_ + 1} was paired on its result, so round "
        f"{round_} is final. To change it, `ktlog tournament reopen {shlex.quote(name)} {round_}` first (round {round_ + 1} is then marked as paired "
        "on results since changed); nothing was recorded"
    )
