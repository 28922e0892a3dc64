"""Derived tables for analytics and listing, taken from the reducer's state; rebuildable from the log.

Each projection row carries the `seq` of the event that produced it, so an append writes the
rows of its own seq and an undo deletes the rows from its target on. The columns are the
catalog's (`catalog.DERIVED`); the games row's derived columns are `game_columns`.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from msgspec.structs import astuple

from ..errors import InvalidEvent
from ..rulesets import get_ruleset
from ..state import GameState, game_status
from .catalog import DERIVED, LABEL_COLUMNS, PROJECTION_LOGS, PROJECTIONS


def rows_since(game_id: str, state: GameState, after_seq: int) -> dict[str, list[tuple[Any, ...]]]:
    """The projection rows produced by events after `after_seq` (0: all of them), as tuples
    in the column order of `catalog.DERIVED`."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    for table, log in PROJECTION_LOGS.items():
        entries = getattr(state, log)
        if not entries or entries[-1].seq <= after_seq:  # most events add to none of the logs
            out[table] = []
            continue
        first = len(entries)
        while first and entries[first - 1].seq > after_seq:
            first -= 1
        out[table] = [(game_id, *astuple(e)) for e in entries[first:]]
    r = state.result
    ended = r is not None and r.seq > after_seq
    out["game_results"] = [tuple(row[c] for c in DERIVED["game_results"]) for row in results_rows(game_id, state)] if ended else []
    out["vp_by_op"] = [(game_id, r.seq, name, op, vp) for name, p in state.players.items() for op, vp in p.vp.items()] if r and ended else []
    return out


def results_rows(game_id: str, state: GameState) -> list[dict[str, Any]]:
    """One row per player once the battle is over: the result from that player's side. Players
    sharing the win (ruling 5) each have a draw, the others a loss."""
    r = state.result
    if r is None:
        return []
    kill_op = get_ruleset(state.ruleset).kill_op
    rows = []
    for name, p in state.players.items():
        outcome = "win" if r.winner == name else "draw" if r.draw and (name in r.winners or not r.winners) else "loss"
        rows.append(
            {
                "game_id": game_id,
                "seq": r.seq,
                "player": name,
                "kill_team": p.kill_team,
                "opponents": ", ".join(o for o in state.players if o != name),
                "result": outcome,
                "ended_by": r.ended_by,
                "vp_total": p.total_vp,
                "kill_grade": p.kill_grade if kill_op else None,  # KT21, Multiplayer and Joint Ops have no kill op
                "cp_left": p.cp,
                "ruleset": state.ruleset,
                "date": state.date,
                "league": state.labels.get("league"),
                "season": state.labels.get("season"),
                "round": state.labels.get("round"),
                "table_label": state.labels.get("table"),
                "crit_op": state.crit_op,
                "killzone": state.killzone,
            }
        )
    return rows


def game_columns(state: GameState) -> dict[str, Any]:
    """The columns of a game's row that follow from its state (`ktlog verify` checks them)."""
    r = state.result
    result = None
    if r:
        result = json.dumps(
            {
                "winner": r.winner,
                "draw": r.draw,
                "ended_by": r.ended_by,
                "conceded_by": r.conceded_by,
                "score": {n: p.total_vp for n, p in state.players.items()},
                **({"winners": shared} if (shared := get_ruleset(state.ruleset).shared_win(state)) else {}),
            }
        )
    return {
        "killzone": state.killzone,
        "date": state.date,
        "pve": int(get_ruleset(state.ruleset).pve),
        "simulated": int(state.simulated),
        "disputes": len(state.open_disputes),
        **{column: state.labels.get(label) for label, column in LABEL_COLUMNS.items()},
        "players": json.dumps(list(state.players)),
        "kill_teams": json.dumps([p.kill_team for p in state.players.values()]),
        "status": game_status(state),
        "result": result,
        "reported": _reported(state),
        **(
            {"winner": r.winner, "draw": int(r.draw), "ended_by": r.ended_by, "conceded_by": r.conceded_by}
            if r
            else dict.fromkeys(("winner", "draw", "ended_by", "conceded_by"))
        ),
    }


def _reported(state: GameState) -> str | None:
    """The result reported for the game (`ResultReported`), as the games row keeps it: VP by
    player (and by op, if given), who reported or confirmed it, and its seq."""
    r = state.report
    if r is None:
        return None
    reported = {"vp": r.vp, **({"vp_by_op": r.vp_by_op} if r.vp_by_op else {}), "by": r.reported_by, "seq": r.seq}
    return json.dumps(reported, sort_keys=True)  # sorted: the same text from the live state and a refolded one


def columns_key(state: GameState) -> tuple[Any, ...] | None:
    """All `game_columns` reads of a state without a result, as one value: while it stays the
    same, so do the columns, and an append works them out no more. None once the game has a
    result (its score follows every VP): the columns are then worked out each time."""
    if state.result is not None:
        return None
    players = tuple((name, p.kill_team) for name, p in state.players.items())
    report = (state.report.seq, tuple(state.report.reported_by)) if state.report else None
    return (state.ruleset, state.killzone, state.date, state.simulated, state.phase, len(state.open_disputes), tuple(state.labels.items()), players, report)


def write(conn: sqlite3.Connection, game_id: str, state: GameState, after_seq: int, key: int | None = None) -> None:
    """Insert the game's projection rows of the events after `after_seq`; `key`, the game's
    key, if the caller knows it (else it is read only when some row is written: most events write none)."""
    insert(conn, game_id, rows_since(game_id, state, after_seq), key, state)


def insert(
    conn: sqlite3.Connection, game_id: str, rows_by_table: dict[str, list[tuple[Any, ...]]], key: int | None = None, state: GameState | None = None
) -> None:
    """Insert projection rows (`rows_since`), made here or by an import's checking process;
    `state`, where it is at hand, names the event of a number too large."""
    for table, rows in rows_by_table.items():
        if rows:
            key = key or conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            columns = PROJECTIONS[table]
            try:
                conn.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", [(*row, key) for row in rows])
            except OverflowError as exc:
                raise _too_large(table, rows, state) from exc


def out_of_range(state: GameState) -> InvalidEvent | None:
    """The error for a state whose running CP or VP totals leave SQLite's 64-bit integers (every
    other number an event gives is within NUMBER_LIMIT): found where the state is folded, so an
    import's checking process refuses the file before the writer sees it."""
    seq = _first_out_of_range(state)
    if seq is None:
        return None
    error = InvalidEvent(
        "a number this event gives (a CP or VP total) is too large to store; ktlog keeps whole numbers between -2^63 and 2^63-1: check the values entered",
        "event",
    )
    error.seq = seq
    return error


def delete(conn: sqlite3.Connection, game_id: str, since: int = 0) -> None:
    """The game's projection rows from events at `since` or later (all of them by default)."""
    for table in PROJECTIONS:
        conn.execute(f"DELETE FROM {table} WHERE game_id = ? AND seq >= ?", (game_id, since))


INT64 = range(-(2**63), 2**63)


def _too_large(table: str, rows: list[tuple[Any, ...]], state: GameState | None) -> InvalidEvent:
    """The error for an event whose numbers, or numbers the rules derive from them, do not fit
    SQLite's 64-bit integers, naming that event's seq: the row holding the number (rows carry
    their event's seq second) or, for a player's total (CP left, VP), the event whose change
    took the running total out of range."""
    error = InvalidEvent(
        f"a number this event gives ({table}) is too large to store; ktlog keeps whole numbers between -2^63 and 2^63-1: check the values entered", "event"
    )
    error.seq = (state and _first_out_of_range(state)) or next((r[1] for r in rows if any(isinstance(v, int) and v not in INT64 for v in r)), None)
    return error


def _first_out_of_range(state: GameState) -> int | None:
    """The seq of the first CP or VP change that takes a player's running total out of range."""
    found = []
    for log, field in (("cp_log", "delta"), ("vp_log", "vp")):
        totals: dict[str, int] = {}
        for entry in getattr(state, log):
            totals[entry.player] = totals.get(entry.player, 0) + getattr(entry, field)
            if totals[entry.player] not in INT64 or getattr(entry, field) not in INT64:
                found.append(entry.seq)
                break
    return min(found, default=None)
