"""Derived tables for analytics, taken from the reducer's state; rebuildable from the log.

Each row carries the `seq` of the event that produced it, so an append writes the rows of
its own seq and an undo rewrites the game's rows from the state after it.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import astuple

from .state import AttackRecord, CPChanged, GameState, Incapacitation, TurningPointRecord, VPScored

TABLES: dict[str, dict[str, type]] = {
    "vp_changes": {"game_id": str, "seq": int, "turning_point": int, "player": str, "op": str, "vp": int, "reason": str},
    "cp_changes": {"game_id": str, "seq": int, "turning_point": int, "player": str, "delta": int, "kind": str, "source": str},
    "attacks": {
        "game_id": str, "seq": int, "turning_point": int, "kind": str, "retaliation": int, "mode": str,
        "player": str, "operative": str, "weapon": str, "target_player": str, "target": str,
        "attack_dice": int, "hit": int, "normal_hits": int, "critical_hits": int,
        "defence_dice": int, "save": int, "normal_saves": int, "critical_saves": int,
        "damage": int, "incapacitated": int,
    },
    "incapacitations": {
        "game_id": str, "seq": int, "turning_point": int, "player": str, "operative": str,
        "by_player": str, "by_operative": str, "source": str,
    },
    "turning_points": {"game_id": str, "seq": int, "turning_point": int, "initiative": str},
    "game_results": {
        "game_id": str, "seq": int, "player": str, "kill_team": str, "opponents": str, "result": str,
        "ended_by": str, "vp_total": int, "vp_crit": int, "vp_kill": int, "vp_tac": int, "vp_primary": int,
        "kill_grade": int, "cp_left": int, "ruleset": str, "date": str, "league": str, "season": str,
        "round": str, "table_label": str,
    },
}
"""Projection table -> column types. Every table has `game_id` and `seq`."""

LOGS = {
    "vp_changes": "vp_log",
    "cp_changes": "cp_log",
    "attacks": "attacks",
    "incapacitations": "incapacitations",
    "turning_points": "turning_points",
}
"""Projection table -> the state log its rows come from."""

for _table, _struct in {"vp_changes": VPScored, "cp_changes": CPChanged, "attacks": AttackRecord,
                        "incapacitations": Incapacitation, "turning_points": TurningPointRecord}.items():
    assert list(TABLES[_table])[1:] == list(_struct.__struct_fields__), f"{_table} columns follow {_struct.__name__}"


def rows_since(game_id: str, state: GameState, after_seq: int) -> dict[str, list[tuple]]:
    """The projection rows produced by events after `after_seq` (0: all of them), as tuples
    in the column order of TABLES."""
    out: dict[str, list[tuple]] = {}
    for table, log in LOGS.items():
        entries = getattr(state, log)
        first = len(entries)
        while first and entries[first - 1].seq > after_seq:
            first -= 1
        out[table] = [(game_id, *astuple(e)) for e in entries[first:]]
    ended = state.result is not None and state.result.seq > after_seq
    out["game_results"] = [tuple(r[c] for c in TABLES["game_results"]) for r in results_rows(game_id, state)] if ended else []
    return out


def results_rows(game_id: str, state: GameState) -> list[dict[str, Any]]:
    """One row per player once the battle is over: the result from that player's side."""
    r = state.result
    if r is None:
        return []
    rows = []
    for name, p in state.players.items():
        outcome = "draw" if r.draw else ("win" if r.winner == name else "loss")
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
                **{f"vp_{op}": p.vp.get(op, 0) for op in ("crit", "kill", "tac", "primary")},
                "kill_grade": p.kill_grade,
                "cp_left": p.cp,
                "ruleset": state.ruleset,
                "date": state.date,
                "league": state.labels.get("league"),
                "season": state.labels.get("season"),
                "round": state.labels.get("round"),
                "table_label": state.labels.get("table"),
            }
        )
    return rows
