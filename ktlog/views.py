"""What the CLI (and other tools) show of a game: stable JSON views and plain-text renderings."""

from __future__ import annotations

from typing import Any

from . import events as ev
from .notation import format_dice, format_steps
from .reducer import describe_result
from .rules import get_ruleset
from .state import GameState


def score_view(game_id: str, state: GameState) -> dict[str, Any]:
    """`ktlog score --json`: documented in the README; keep the keys stable."""
    ruleset = get_ruleset(state.ruleset)
    players = []
    for name, p in state.players.items():
        vp = {op: p.vp.get(op, 0) for op in ruleset.ops}
        vp["total"] = p.total_vp
        scored = [
            {"seq": v.seq, "turning_point": v.turning_point, "op": v.op, "vp": v.vp, "reason": v.reason}
            for v in state.vp_log if v.player == name
        ]
        players.append({"name": name, "kill_team": p.kill_team, "vp": vp, "kill_grade": p.kill_grade, "cp": p.cp, "scored": scored})
    r = state.result
    result = {
        "winner": r.winner if r else None,
        "draw": bool(r and r.draw),
        "ended_by": r.ended_by if r else None,
        "conceded_by": r.conceded_by if r else None,
    }
    return {
        "game": game_id,
        "ruleset": state.ruleset,
        "status": {"setup": "setup", "over": "finished"}.get(state.phase, "in progress"),
        "turning_point": state.turning_point,
        "players": players,
        "result": result,
    }


def state_view(game_id: str, state: GameState) -> dict[str, Any]:
    """`ktlog show --json`: the whole state at one moment, with derived figures spelled out."""
    operatives = []
    for o in state.operatives.values():
        operatives.append(
            {
                "id": o.id, "player": o.player, "name": o.datacard.name, "wounds": o.wounds, "max_wounds": o.datacard.wounds,
                "injured": o.injured, "status": o.status, "order": o.order, "apl": o.apl, "move": o.move,
                "carrying": o.carrying, "within_control_range_of": list(o.engaged_with),
            }
        )
    markers = [
        {"id": m.id, "placed_by": m.placed_by, "secured_by": m.secured_by, "transmitting": m.transmitting,
         "looted_this_tp": m.looted_tp == state.turning_point and state.turning_point > 0, "carried_by": m.carried_by,
         "controlled_by": m.controlled_by}
        for m in state.markers.values()
    ]
    view = score_view(game_id, state)
    view.update(
        {
            "seq": state.seq, "phase": state.phase, "killzone": state.killzone, "date": state.date, "labels": state.labels,
            "crit_op": state.crit_op, "initiative": state.initiative, "next_player": state.next_player,
            "active_operative": state.activation.operative if state.activation else None,
            "operatives": operatives, "markers": markers,
            "warnings": [{"seq": w.seq, "rule": w.rule, "message": w.message, "reason": w.reason} for w in state.warnings],
            "notes": [{"seq": n.seq, "target": n.target, "text": n.text} for n in state.notes],
        }
    )
    return view


# --- text ------------------------------------------------------------------------------------


def render_score(game_id: str, state: GameState) -> str:
    ruleset = get_ruleset(state.ruleset)
    lines = [f"Game {game_id[:8]}  {ruleset.title}  {state.killzone}  {state.date}  (turning point {state.turning_point}, {describe_result(state)})"]
    for name, p in state.players.items():
        ops = ", ".join(f"{op} {p.vp.get(op, 0)}" for op in ruleset.ops)
        lines.append(f"  {name} ({p.kill_team}): {p.total_vp} VP  [{ops}]  kill grade {p.kill_grade}")
        for v in state.vp_log:
            if v.player == name:
                lines.append(f"      TP{v.turning_point}  seq {v.seq:<4} +{v.vp} {v.op:<5} {v.reason}")
    r = state.result
    if r:
        lines.append("Result: " + ("draw" if r.draw else f"{r.winner} wins") + (f" ({r.conceded_by} conceded)" if r.conceded_by else ""))
    return "\n".join(lines)


def render_state(game_id: str, state: GameState) -> str:
    ruleset = get_ruleset(state.ruleset)
    labels = "  ".join(f"{k} {v}" for k, v in state.labels.items())
    lines = [
        f"Game {game_id[:8]}  {ruleset.title}  {state.killzone}  {state.date}  {labels}".rstrip(),
        f"seq {state.seq}  " + _phase_line(state),
    ]
    for name, p in state.players.items():
        ops = ", ".join(f"{op} {p.vp.get(op, 0)}" for op in ruleset.ops)
        lines.append("")
        lines.append(f"{name} ({p.kill_team})  CP {p.cp}  VP {p.total_vp} [{ops}]  kill grade {p.kill_grade}")
        lines.append(f"  {'operative':<22}{'wounds':<9}{'order':<9}{'state':<15}notes")
        for o in state.operatives_of(name):
            notes = []
            if o.injured:
                notes.append("injured")
            if o.carrying:
                notes.append(f"carrying {o.carrying}")
            if o.engaged_with:
                notes.append("in control range of " + ", ".join(o.engaged_with))
            if o.apl != o.datacard.apl:
                notes.append(f"APL {o.apl}")
            status = "active" if state.activation and state.activation.operative == o.id else o.status
            lines.append(f"  {o.id:<22}{f'{max(o.wounds, 0)}/{o.datacard.wounds}':<9}{o.order:<9}{status:<15}{', '.join(notes)}")
    if state.markers:
        lines.append("")
        lines.append("Objective markers: " + "; ".join(_marker(m, state) for m in state.markers.values()))
    if state.warnings:
        lines.append("")
        lines.append("Warnings (rules set aside or flagged):")
        lines.extend(f"  seq {w.seq}: {w.message} ({w.rule}); reason: {w.reason}" for w in state.warnings)
    if state.notes:
        lines.append("")
        lines.append("Notes:")
        lines.extend(f"  on seq {n.target}: {n.text}" for n in state.notes)
    return "\n".join(lines)


def _phase_line(state: GameState) -> str:
    if state.phase == "setup":
        return "setting up the battle" + (f"; set-up initiative {state.setup_initiative}" if state.setup_initiative else "")
    if state.phase == "over":
        return f"battle over: {describe_result(state)}"
    text = f"turning point {state.turning_point}, {state.phase} phase"
    if state.phase == "between":
        text = f"turning point {state.turning_point} ended"
    parts = [text, f"crit op {state.crit_op}"]
    if state.initiative:
        parts.append(f"initiative {state.initiative}")
    if state.phase == "strategy" and state.gambit_turn:
        parts.append(f"gambit step: {state.gambit_turn} to use a gambit or pass")
    if state.phase == "firefight":
        if state.activation:
            act = state.activation
            parts.append(f"{'counteracting' if act.counteract else 'active'}: {act.operative} ({act.ap_spent}AP spent)")
        elif any(o.status == "ready" for o in state.operatives.values()):
            parts.append(f"next to activate: {state.next_player}")
        else:
            parts.append("every operative expended: end the turning point")
    return "  ".join(parts)


def _marker(m, state: GameState) -> str:
    bits = []
    if m.secured_by:
        bits.append(f"secured by {m.secured_by}")
    if m.transmitting:
        bits.append("transmitting")
    if m.looted_tp == state.turning_point and state.turning_point:
        bits.append("looted this TP")
    if m.carried_by:
        bits.append(f"carried by {m.carried_by}")
    if m.controlled_by:
        bits.append(f"controlled by {m.controlled_by}")
    return m.id + (f" ({', '.join(bits)})" if bits else "")


def describe(event: ev.Event) -> str:
    """A one-line summary of an event, as a person would say it."""
    e = event
    match e:
        case ev.GameCreated():
            return f"game created: {e.ruleset} on {e.killzone}, {e.date}"
        case ev.PlayerJoined():
            return f"{e.player} joins with {e.kill_team}"
        case ev.OperativeAdded():
            return f"{e.player} selects {e.operative} ({e.datacard.name})"
        case ev.RolledOff():
            return f"{e.purpose} roll-off: " + ", ".join(f"{p} {v}" for p, v in e.rolls.items())
        case ev.InitiativeDecided():
            return f"{e.player} has initiative"
        case ev.ObjectiveMarkerSetUp():
            return f"{e.player} sets up objective marker {e.marker}"
        case ev.CritOpRolled():
            return f"crit op roll {e.roll}"
        case ev.DropZoneChosen():
            return f"{e.player} takes drop zone {e.drop_zone}"
        case ev.EquipmentSelected():
            return f"{e.player} equipment: {', '.join(e.equipment) or 'none'}"
        case ev.OperativeSetUp():
            return f"{e.operative} set up"
        case ev.TurningPointStarted():
            return f"turning point {e.turning_point} begins"
        case ev.StrategicGambitUsed():
            return f"{e.player} uses {e.gambit} ({e.cp}CP)"
        case ev.GambitPassed():
            return f"{e.player} passes"
        case ev.FirefightPloyUsed():
            return f"{e.player} uses {e.ploy} ({e.cp}CP)" + (f" on {e.operative}" if e.operative else "")
        case ev.CommandPointsAdjusted():
            return f"{e.player} CP {e.delta:+d}: {e.reason}"
        case ev.OperativeActivated():
            return f"{e.operative} activates ({e.order})"
        case ev.ActivationEnded():
            return f"{e.operative} ends its activation"
        case ev.CounteractStarted():
            return f"{e.operative} counteracts"
        case ev.AplModified():
            return f"{e.operative} APL {e.delta:+d}: {e.reason}"
        case ev.Shot():
            return f"{e.operative} shoots {e.weapon} at " + "; ".join(_shot(a) for a in e.attacks) + (f"; Hot roll {e.hot_roll}" if e.hot_roll else "")
        case ev.Fought():
            text = f"{e.operative} {e.action.lower()}s {e.target} ({e.weapon}"
            if e.damage is not None or e.damage_taken is not None:
                return text + f"): {e.damage or 0} damage dealt, {e.damage_taken or 0} taken"
            text += f" {format_dice(e.attack_dice.rolls) if e.attack_dice else '-'} vs {e.target_weapon or 'no weapon'} {format_dice(e.target_dice.rolls) if e.target_dice else '-'})"
            return text + (f" steps {format_steps(e.steps)}" if e.steps else "")
        case ev.Charged():
            return f"{e.operative} charges {', '.join(e.targets)}"
        case ev.UniqueActionPerformed():
            return f"{e.operative} performs {e.action}"
        case ev.KillzoneActionPerformed():
            return f"{e.operative} performs {e.action}"
        case ev.MarkerPickedUp() | ev.MarkerPlaced() | ev.MarkerSecured() | ev.MarkerLooted() | ev.TransmissionInitiated():
            return f"{e.operative}: {e.name} on {e.marker}"
        case ev.Action():
            return f"{e.operative}: {e.name}"
        case ev.WoundsRegained():
            return f"{e.operative} regains {e.wounds} wounds ({e.reason})"
        case ev.DamageInflicted():
            return f"{e.operative} takes {e.damage} damage ({e.source})" + (f" from {e.by}" if e.by else "")
        case ev.ObjectivesControlled():
            return "objective control: " + ", ".join(f"{m} {p or 'nobody'}" for m, p in e.control.items())
        case ev.TurningPointEnded():
            return f"turning point {e.turning_point} ends"
        case ev.GameConceded():
            return f"{e.player} concedes"
        case ev.EventVoided():
            return f"undo seq {e.target}"
        case ev.Annotation():
            return f"note on seq {e.target}: {e.text}"
    return type(e).__name__


def _shot(a: ev.ShootingAttack) -> str:
    if a.damage is not None:
        return f"{a.target} ({a.damage} damage)"
    flags = [f for f, on in (("cover", a.cover), ("obscured", a.obscured)) if on]
    saves = format_dice(a.defence_dice.rolls) if a.defence_dice and a.defence_dice.rolls else "no dice"
    return f"{a.target} ({format_dice(a.attack_dice.rolls)} vs {saves}{', ' + ', '.join(flags) if flags else ''})"


def render_replay_summary(game_id: str, replay) -> str:
    """Turning point by turning point: initiative, what fell, the score at the end."""
    final = replay.final
    names = list(final.players)
    lines = [f"Replay of {game_id[:8]}: " + " vs ".join(f"{n} ({p.kill_team})" for n, p in final.players.items())
             + f", {final.killzone}, crit op {final.crit_op}"]
    for tp in range(1, final.turning_point + 1):
        state = replay.seek(replay.turning_point_end(tp))
        activations = sum(1 for s in replay.activations() if replay.turning_point_start(tp) < s <= state.seq)
        lines.append(f"  TP{tp}: initiative {state.initiative_in(tp)}, {activations} activations; "
                     + "  ".join(f"{n} {state.players[n].total_vp}VP" for n in names))
        for inc in state.incapacitations:
            if inc.turning_point == tp:
                by = f" by {inc.by_operative}" if inc.by_operative else f" ({inc.source})"
                lines.append(f"       {inc.operative} ({inc.player}) incapacitated{by}")
        for note in state.notes:
            if replay.turning_point_start(tp) <= note.target <= state.seq:
                lines.append(f"       note on seq {note.target}: {note.text}")
    lines.append(f"  Result: {describe_result(final)}")
    return "\n".join(lines)
