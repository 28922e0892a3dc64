"""Derived tables for analytics, taken from the reducer's state; rebuildable from the log.

Each row carries the `seq` of the event that produced it, so an append writes the rows of
its own seq and an undo rewrites the game's rows from the state after it.
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from msgspec.structs import astuple

from ..state import AttackRecord, CPChanged, GameState, Incapacitation, TurningPointRecord, VPScored

LOGS: dict[str, tuple[str, type]] = {
    "vp_changes": ("vp_log", VPScored),
    "cp_changes": ("cp_log", CPChanged),
    "attacks": ("attacks", AttackRecord),
    "incapacitations": ("incapacitations", Incapacitation),
    "turning_points": ("turning_points", TurningPointRecord),
}
"""Projection table -> the state log its rows come from, and that log's entry struct."""


def _sql_type(annotation) -> type:
    """The column type for a state field: int (bools too), float, or text."""
    names = {getattr(a, "__name__", str(a)) for a in (get_args(annotation) or (annotation,))}
    return float if "float" in names else int if names & {"int", "bool"} else str


def _columns(struct: type) -> dict[str, type]:
    hints = get_type_hints(struct)
    return {"game_id": str, **{f: _sql_type(hints[f]) for f in struct.__struct_fields__}}


OPS = ("crit", "kill", "tac", "primary", "elimination", "mission")
"""The ops whose VP each game result row holds (vp_crit ...): KT24's four, Multiplayer Ops'
elimination op and KT21's mission VP; a ruleset without one scores 0 there."""

COLUMNS: dict[str, dict[str, type]] = {table: _columns(struct) for table, (_, struct) in LOGS.items()}
COLUMNS["game_results"] = {
    "game_id": str, "seq": int, "player": str, "kill_team": str, "opponents": str, "result": str,
    "ended_by": str, "vp_total": int, **{f"vp_{op}": int for op in OPS},
    "kill_grade": int, "cp_left": int, "ruleset": str, "date": str, "league": str, "season": str,
    "round": str, "table_label": str, "crit_op": str, "killzone": str,
}
"""Projection table -> the columns derived from the game's state (what `rows_since` gives)."""

GAME_KEY = "game_key"
"""Every projection row also carries its game's integer key (the games table's rowid), which the
analytics read and join on: a tenth of the cost of the 36-character game id."""

TABLES: dict[str, dict[str, type]] = {table: {**columns, GAME_KEY: int} for table, columns in COLUMNS.items()}
"""Projection table -> column types (the current schema; ktlog/store.py migrates to it)."""


def rows_since(game_id: str, state: GameState, after_seq: int) -> dict[str, list[tuple]]:
    """The projection rows produced by events after `after_seq` (0: all of them), as tuples
    in the column order of COLUMNS."""
    out: dict[str, list[tuple]] = {}
    for table, (log, _) in LOGS.items():
        entries = getattr(state, log)
        first = len(entries)
        while first and entries[first - 1].seq > after_seq:
            first -= 1
        out[table] = [(game_id, *astuple(e)) for e in entries[first:]]
    ended = state.result is not None and state.result.seq > after_seq
    out["game_results"] = [tuple(r[c] for c in COLUMNS["game_results"]) for r in results_rows(game_id, state)] if ended else []
    return out


def results_rows(game_id: str, state: GameState) -> list[dict[str, Any]]:
    """One row per player once the battle is over: the result from that player's side. Players
    sharing the win (ruling 5) each have a draw, the others a loss."""
    r = state.result
    if r is None:
        return []
    from ..rulesets import get_ruleset  # here, not at the top: the analytics read this module's columns without the rules

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
                **{f"vp_{op}": p.vp.get(op, 0) for op in OPS},
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
