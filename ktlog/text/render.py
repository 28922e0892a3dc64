"""A game as plain text: the state, the score, a replay's summary, and what one event changed."""

from __future__ import annotations

from ..events import Event
from ..rulesets import get_ruleset
from ..state import GameState, MarkerState
from .describe import describe
from .results import describe_result, outcome_text, provisional_text


def ap_left(apl: int, spent: int) -> str:
    """An active operative's action points, worded one way wherever they are shown (`ktlog show`,
    `ktlog event`'s next step, the terminal UI's header): "1 of 2 AP left"."""
    return f"{max(apl - spent, 0)} of {apl} AP left"


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
        lines.append(
            "Result: "
            + outcome_text(r.winner, r.draw, get_ruleset(state.ruleset).shared_win(state))
            + (f" ({r.conceded_by} conceded)" if r.conceded_by else "")
        )
    if provisional := provisional_text(state):
        lines.append(provisional[0].upper() + provisional[1:])
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
        if p.resources:
            lines.append("  " + "  ".join(f"{resource} {count}" for resource, count in p.resources.items()))
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
        lines.append("Objective markers: " + "; ".join(marker_text(m, state) for m in state.markers.values()))
    if state.warnings:
        lines.append("")
        lines.append("Warnings (rules set aside or flagged):")
        lines.extend(f"  seq {w.seq}: {w.message} ({w.rule}); reason: {w.reason}" for w in state.warnings)
    if state.notes:
        lines.append("")
        lines.append("Notes:")
        lines.extend(f"  on seq {n.target}: {n.text}" for n in state.notes)
    if provisional := provisional_text(state):
        lines += ["", "The result is " + provisional]
    return "\n".join(lines)


def _phase_line(state: GameState) -> str:
    ties = "; ".join(" and ".join(g) for g in state.order_ties if len(g) > 1)
    if state.phase == "setup":
        return (
            "setting up the battle"
            + (f"; set-up initiative {state.setup_initiative}" if state.setup_initiative else "")
            + (f"; to roll again for player order: {ties}" if ties else "")
        )
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
            parts.append(f"{'counteracting' if act.counteract else 'active'}: {act.operative} ({ap_left(state.operatives[act.operative].apl, act.ap_spent)})")
        elif any(o.status == "ready" for o in state.operatives.values()):
            parts.append(f"next to activate: {state.next_player}")
        else:
            parts.append("every operative expended: end the turning point")
    return "  ".join(parts)


def marker_text(m: MarkerState, state: GameState, name: str | None = None) -> str:
    """An objective marker and what is true of it now: "centre (secured Ana, sabotaged)".
    `name` shows the marker's id another way (the terminal UI sets it in bold)."""
    bits = []
    if m.secured_by:
        bits.append(f"secured {m.secured_by}")
    if m.transmitting:
        bits.append("transmitting")
    if m.sabotaged:
        bits.append("sabotaged")
    if m.looted_tp == state.turning_point and state.turning_point:
        bits.append("looted")
    if m.carried_by:
        bits.append(f"carried by {m.carried_by}")
    if m.controlled_by:
        bits.append(f"held {m.controlled_by}")
    return (name or m.id) + (f" ({', '.join(bits)})" if bits else "")


def render_replay_summary(game_id: str, replay) -> str:
    """Turning point by turning point: initiative, what fell, the score at the end."""
    final = replay.final
    names = list(final.players)
    lines = [
        f"Replay of {game_id[:8]}: " + " vs ".join(f"{n} ({p.kill_team})" for n, p in final.players.items()) + f", {final.killzone}, crit op {final.crit_op}"
    ]
    for tp in range(1, final.turning_point + 1):
        timeline = replay.timeline
        state = replay.seek(timeline.turning_point_end(tp))
        activations = sum(1 for s in timeline.activations() if timeline.turning_point_start(tp) < s <= state.seq)
        lines.append(
            f"  TP{tp}: initiative {state.initiative_in(tp)}, {activations} activations; " + "  ".join(f"{n} {state.players[n].total_vp}VP" for n in names)
        )
        for inc in state.incapacitations:
            if inc.turning_point == tp:
                by = f" by {inc.by_operative}" if inc.by_operative else f" ({inc.source})"
                lines.append(f"       {inc.operative} ({inc.player}) incapacitated{by}")
        for note in state.notes:
            if timeline.turning_point_start(tp) <= note.target <= state.seq:
                lines.append(f"       note on seq {note.target}: {note.text}")
    lines.append(f"  Result: {describe_result(final)}")
    return "\n".join(lines)


def undo_text(seq: int, target: int, undone: Event) -> str:
    """ "seq 31: undid seq 30 (a1 activates (engage))", as the record screen and `ktlog undo` say it."""
    return f"seq {seq}: undid seq {target} ({describe(undone)})"


def changes(before: GameState, after: GameState) -> list[str]:
    """What an event changed that a player cares about: VP, CP, wounds, warnings, phase, result."""
    out = [f"{v.player} scores {v.vp}VP ({v.op}: {v.reason})" for v in after.vp_log[len(before.vp_log) :]]
    running = {name: p.cp for name, p in before.players.items()}
    for c in after.cp_log[len(before.cp_log) :]:
        running[c.player] = running.get(c.player, 0) + c.delta
        out.append(f"{c.player} CP {c.delta:+d} ({c.source}) -> {running[c.player]}CP")
    for name, was in before.players.items():
        now = after.players[name].resources
        out += [f"{name} {r} {count - was.resources.get(r, 0):+d} -> {count}" for r, count in now.items() if count != was.resources.get(r, 0)]
    for op_id, op in after.operatives.items():
        old = before.operatives.get(op_id)
        if old and old.wounds != op.wounds:
            state = "incapacitated" if op.incapacitated else ("injured" if op.injured else "")
            out.append(f"{op_id}: {max(op.wounds, 0)}/{op.datacard.wounds} wounds {state}".rstrip())
    out += [f"warning: {w.message} ({w.rule}); reason: {w.reason}" for w in after.warnings[len(before.warnings) :]]
    if (before.phase, before.turning_point) != (after.phase, after.turning_point):
        out.append(f"now: turning point {after.turning_point}, {after.phase}")
    if after.result and not before.result:
        out.append("result: " + describe_result(after))
    return out
