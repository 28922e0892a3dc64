"""What the CLI (and other tools) show of a game: stable JSON views and plain-text renderings."""

from __future__ import annotations

from typing import Any

from .. import events as ev
from .notation import format_dice, format_steps
from ..reducer import describe_result, outcome_text, shared_win
from ..rulesets import RULESETS, get_ruleset
from ..state import GameState
from ..storage.store import GameRow


def game_result(g: GameRow) -> str:
    """A finished game's result in a line, from its row in the games table: "Ana won 8-7",
    "a draw 7-7", "Pia and Quinn share the win 9-9-5-5", "Hugo won" (Joint Ops: no VP)."""
    r = g.result
    outcome = outcome_text(r["winner"], r["draw"], r.get("winners", ()))
    if r.get("conceded_by"):
        outcome += f" ({r['conceded_by']} conceded)"
    ruleset = RULESETS.get(g.ruleset)
    if ruleset is not None and not ruleset.ops:
        return outcome
    return f"{outcome} " + "-".join(str(v) for v in r["score"].values())


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
        "winners": shared_win(state),
    }
    view = {
        "game": game_id,
        "ruleset": state.ruleset,
        "status": {"setup": "setup", "over": "finished"}.get(state.phase, "in progress"),
        "turning_point": state.turning_point,
        "players": players,
        "result": result,
    }
    progress = ruleset.progress(state)
    if progress:
        view["progress"] = progress
    return view


def state_view(game_id: str, state: GameState, spectator: bool = False) -> dict[str, Any]:
    """`ktlog show --json`: the whole state at one moment, with derived figures spelled out
    (`order`: the player order the turning point's activations go by, initiative first; all
    three or four players in Multiplayer Ops, pg 99). A spectator sees each secret choice not yet revealed as "hidden" (and no reason naming it)."""
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
    ruleset = get_ruleset(state.ruleset)
    for player in view["players"]:
        secrets = ruleset.secrets(state, player["name"])
        if secrets:
            player["secrets"] = {
                key: {"choice": _secret(choice, revealed, spectator), "revealed": revealed} for key, (choice, revealed) in secrets.items()
            }
        if spectator:
            for scored, v in zip(player["scored"], (v for v in state.vp_log if v.player == player["name"])):
                if ruleset.hidden_score(state, v):
                    scored["reason"] = "hidden"
    view.update(
        {
            "seq": state.seq, "phase": state.phase, "killzone": state.killzone, "date": state.date, "labels": state.labels,
            "crit_op": state.crit_op, "initiative": state.initiative, "order": list(state.order), "next_player": state.next_player,
            "active_operative": state.activation.operative if state.activation else None,
            "operatives": operatives, "markers": markers,
            "warnings": [{"seq": w.seq, "rule": w.rule, "message": w.message, "reason": w.reason} for w in state.warnings],
            "notes": [{"seq": n.seq, "target": n.target, "text": n.text} for n in state.notes],
        }
    )
    return view


def _secret(choice: str | None, revealed: bool, spectator: bool) -> str | None:
    """A secret choice as shown: None before it is made, "hidden" from a spectator until revealed."""
    return "hidden" if spectator and choice is not None and not revealed else choice


# --- text ------------------------------------------------------------------------------------


def secret_text(choice: str | None, revealed: bool, spectator: bool) -> str:
    """A secret choice in words: "not chosen", the choice once revealed, else "hidden" from a
    spectator and "CHOICE (secret)" for the players."""
    if choice is None:
        return "not chosen"
    if revealed:
        return choice
    return "hidden" if spectator else f"{choice} (secret)"


def render_score(game_id: str, state: GameState) -> str:
    ruleset = get_ruleset(state.ruleset)
    lines = [f"Game {game_id[:8]}  {ruleset.title}  {state.killzone}  {state.date}  (turning point {state.turning_point}, {describe_result(state)})"]
    progress = ruleset.progress(state)
    if progress:
        lines.append("  " + ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in progress.items()))
    for name, p in state.players.items():
        if not ruleset.ops:
            lines.append(f"  {name} ({p.kill_team})")
            continue
        ops = ", ".join(f"{op} {p.vp.get(op, 0)}" for op in ruleset.ops)
        grade = f"  kill grade {p.kill_grade}" if ruleset.kill_op else ""
        lines.append(f"  {name} ({p.kill_team}): {p.total_vp} VP  [{ops}]{grade}")
        for v in state.vp_log:
            if v.player == name:
                lines.append(f"      TP{v.turning_point}  seq {v.seq:<4} +{v.vp} {v.op:<5} {v.reason}")
    r = state.result
    if r:
        lines.append("Result: " + outcome_text(r.winner, r.draw, shared_win(state)) + (f" ({r.conceded_by} conceded)" if r.conceded_by else ""))
    return "\n".join(lines)


def render_state(game_id: str, state: GameState, spectator: bool = False) -> str:
    """The state as text; a spectator sees each secret choice not yet revealed as "hidden"."""
    ruleset = get_ruleset(state.ruleset)
    labels = "  ".join(f"{k} {v}" for k, v in state.labels.items())
    lines = [
        f"Game {game_id[:8]}  {ruleset.title}  {state.killzone}  {state.date}  {labels}".rstrip(),
        f"seq {state.seq}  " + _phase_line(state),
    ]
    for name, p in state.players.items():
        ops = ", ".join(f"{op} {p.vp.get(op, 0)}" for op in ruleset.ops)
        lines.append("")
        grade = f"  kill grade {p.kill_grade}" if ruleset.kill_op else ""
        lines.append(f"{name} ({p.kill_team})  CP {p.cp}  VP {p.total_vp} [{ops}]{grade}")
        secrets = ruleset.secrets(state, name)
        if secrets:
            lines.append("  " + "; ".join(f"{key.replace('_', ' ')} {secret_text(*secret, spectator)}" for key, secret in secrets.items()))
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
    ties = "; ".join(" and ".join(g) for g in state.order_ties if len(g) > 1)
    if state.phase == "setup":
        return "setting up the battle" + (f"; set-up initiative {state.setup_initiative}" if state.setup_initiative else "") + (
            f"; to roll again for player order: {ties}" if ties else "")
    if state.phase == "over":
        return f"battle over: {describe_result(state)}"
    text = f"turning point {state.turning_point}, {state.phase} phase"
    if state.phase == "between":
        text = f"turning point {state.turning_point} ended"
    parts = [text] + ([f"crit op {state.crit_op}"] if state.crit_op else [])
    if state.initiative:
        parts.append(f"initiative {state.initiative}" if len(state.order) < 3 else f"player order {', '.join(state.order)}")
    if ties:
        parts.append(f"to roll again for player order: {ties}")
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


def describe(event: ev.Event, spectator: bool = False, state: GameState | None = None) -> str:
    """A one-line summary of an event, as a person would say it. A spectator does not see what
    a secret choice was until it is revealed in `state`, the moment being viewed (without a
    state nothing is revealed); reveals name the choice when `state` is given."""
    e = event
    hide = spectator and (e.secret if state is None else get_ruleset(state.ruleset).hidden(state, e))
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
        case ev.OverwatchFired():
            return f"{e.operative} performs Overwatch with {e.weapon} at " + "; ".join(_shot(a) for a in e.attacks)
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
        case ev.MarkerPickedUp() | ev.MarkerPlaced() | ev.MarkerSecured() | ev.MarkerLooted() | ev.TransmissionInitiated() | ev.MarkerSabotaged():
            return f"{e.operative}: {e.name} on {e.marker}"
        case ev.Action():
            return f"{e.operative}: {e.name}"
        case ev.ReinforcementsArrived():
            return f"reinforcements: {', '.join(e.operatives)} return"
        case ev.OperativeEscaped():
            return f"{e.operative} escapes over the NPOs' killzone edge"
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
        case ev.TacOpSelected():
            return f"{e.player} selects a tac op" + (" (hidden)" if hide else f": {e.tac_op} ({e.archetype})")
        case ev.TacOpRevealed():
            p = state.players.get(e.player) if state and not hide else None
            return f"{e.player} reveals their tac op" + (f": {p.tac_op} ({p.tac_op_archetype})" if p and p.tac_op else "")
        case ev.MissionVPScored():
            return f"{e.player} scores {e.vp}VP ({e.category}): {e.reason}"
        case ev.TacOpScored():
            return f"{e.player} scores {e.vp}VP on their tac op" + (" (reason hidden)" if hide else f": {e.reason}")
        case ev.ScoutingSelected():
            return f"{e.player} picks a scouting option" + (" (hidden)" if hide else f": {e.option}")
        case ev.ScoutingRevealed():
            picks = [f"{n} {p.scouting}" for n, p in state.players.items() if p.scouting] if state and not hide else []
            return "scouting options revealed" + (": " + ", ".join(picks) if picks else "")
        case ev.PrimaryOpSelected():
            return f"{e.player} selects a primary op" + (" (hidden)" if hide else f": {e.op}")
        case ev.PrimaryOpRevealed():
            p = state.players.get(e.player) if state and not hide else None
            return f"{e.player} reveals their primary op" + (f": {p.primary_op}" if p and p.primary_op else "")
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


def changes(before: GameState, after: GameState) -> list[str]:
    """What an event changed that a player cares about: VP, CP, wounds, warnings, phase, result."""
    out = [f"{v.player} scores {v.vp}VP ({v.op}: {v.reason})" for v in after.vp_log[len(before.vp_log):]]
    out += [f"{c.player} CP {c.delta:+d} ({c.source}) -> {after.players[c.player].cp}CP" for c in after.cp_log[len(before.cp_log):]]
    for op_id, op in after.operatives.items():
        old = before.operatives.get(op_id)
        if old and old.wounds != op.wounds:
            state = "incapacitated" if op.incapacitated else ("injured" if op.injured else "")
            out.append(f"{op_id}: {max(op.wounds, 0)}/{op.datacard.wounds} wounds {state}".rstrip())
    out += [f"warning: {w.message} ({w.rule}); reason: {w.reason}" for w in after.warnings[len(before.warnings):]]
    if (before.phase, before.turning_point) != (after.phase, after.turning_point):
        out.append(f"now: turning point {after.turning_point}, {after.phase}")
    if after.result and not before.result:
        out.append("result: " + describe_result(after))
    return out
