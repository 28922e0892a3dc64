"""The `--json` objects of `ktlog score` and `ktlog show`: stable keys, documented in the README."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rulesets import get_ruleset
from ..state import GameState, game_status

if TYPE_CHECKING:
    from ..envelopes import GameRow


def game_row(g: GameRow) -> dict[str, Any]:
    """One game of `ktlog games --json` (and the web's tables)."""
    return {
        "id": g.id,
        "status": g.status,
        "ruleset": g.ruleset,
        "killzone": g.killzone,
        "date": g.date,
        "labels": g.labels,
        "players": g.players,
        "kill_teams": g.kill_teams,
        "result": g.result,
        "events": g.head_seq,
        "simulated": g.simulated,
    }


def score_view(game_id: str, state: GameState, spectator: bool = False) -> dict[str, Any]:
    """`ktlog score --json`: documented in the README; keep the keys stable. A spectator sees
    "hidden" as the reason of VP scored on a secret not yet revealed."""
    ruleset = get_ruleset(state.ruleset)
    players = []
    for name, p in state.players.items():
        vp = {op: p.vp.get(op, 0) for op in ruleset.ops}
        vp["total"] = p.total_vp
        scored = [
            {
                "seq": v.seq,
                "turning_point": v.turning_point,
                "op": v.op,
                "vp": v.vp,
                "reason": "hidden" if spectator and ruleset.hidden_score(state, v) else v.reason,
            }
            for v in state.vp_log
            if v.player == name
        ]
        players.append({"name": name, "kill_team": p.kill_team, "vp": vp, "kill_grade": p.kill_grade, "cp": p.cp, "scored": scored})
    r = state.result
    result = {
        "winner": r.winner if r else None,
        "draw": bool(r and r.draw),
        "ended_by": r.ended_by if r else None,
        "conceded_by": r.conceded_by if r else None,
        "winners": get_ruleset(state.ruleset).shared_win(state),
    }
    view = {
        "game": game_id,
        "ruleset": state.ruleset,
        "status": game_status(state),
        "turning_point": state.turning_point,
        "players": players,
        "result": result,
        **disputes_view(state),
    }
    progress = ruleset.progress(state)
    if progress:
        view["progress"] = progress
    return view


def disputes_view(state: GameState) -> dict[str, Any]:
    """While a dispute is open: `provisional` true and the `open_disputes` (no keys otherwise,
    so an undisputed game's view is as it always was)."""
    disputes = [{"seq": d.seq, "target": d.target, "reason": d.reason, "by": d.raised_by or "table"} for d in state.open_disputes]
    return {"provisional": True, "open_disputes": disputes} if disputes else {}


def state_view(game_id: str, state: GameState, spectator: bool = False) -> dict[str, Any]:
    """`ktlog show --json`: the whole state at one moment, with derived figures spelled out
    (`order`: the player order the turning point's activations go by, initiative first; all
    three or four players in Multiplayer Ops, pg 99). A spectator sees each secret choice not yet revealed as "hidden" (and no reason naming it)."""
    operatives = []
    ruleset = get_ruleset(state.ruleset)
    for o in state.operatives.values():
        operatives.append(
            {
                "id": o.id,
                "player": o.player,
                "name": o.datacard.name,
                "wounds": o.wounds,
                "max_wounds": o.datacard.wounds,
                "injured": o.injured,
                "status": o.status,
                "order": o.order,
                "apl": o.apl,
                "move": ruleset.move(state, o),
                "carrying": o.carrying,
                "within_control_range_of": list(o.engaged_with),
            }
        )
    markers = [
        {
            "id": m.id,
            "placed_by": m.placed_by,
            "secured_by": m.secured_by,
            "transmitting": m.transmitting,
            "looted_this_tp": m.looted_tp == state.turning_point and state.turning_point > 0,
            "carried_by": m.carried_by,
            "controlled_by": m.controlled_by,
        }
        for m in state.markers.values()
    ]
    view = score_view(game_id, state, spectator)
    for player in view["players"]:
        if resources := state.players[player["name"]].resources:
            player["resources"] = dict(resources)
        secrets = ruleset.secrets(state, player["name"])
        if secrets:
            player["secrets"] = {key: {"choice": _secret(choice, revealed, spectator), "revealed": revealed} for key, (choice, revealed) in secrets.items()}
    view.update(
        {
            "seq": state.seq,
            "phase": state.phase,
            "killzone": state.killzone,
            "date": state.date,
            "labels": state.labels,
            "crit_op": state.crit_op,
            "initiative": state.initiative,
            "order": list(state.order),
            "next_player": state.next_player,
            "active_operative": state.activation.operative if state.activation else None,
            "operatives": operatives,
            "markers": markers,
            "warnings": [{"seq": w.seq, "rule": w.rule, "message": w.message, "reason": w.reason} for w in state.warnings],
            "notes": [{"seq": n.seq, "target": n.target, "text": n.text} for n in state.notes],
        }
    )
    return view


def _secret(choice: str | None, revealed: bool, spectator: bool) -> str | None:
    """A secret choice as shown: None before it is made, "hidden" from a spectator until revealed."""
    return "hidden" if spectator and choice is not None and not revealed else choice
