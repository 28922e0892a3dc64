"""One event in words, as a person would say it (the event log, `ktlog log`, the record screen)."""

from __future__ import annotations

from .. import events as ev
from ..rules.team import listed_cp
from ..rulesets import get_ruleset
from ..state import GameState
from .notation import format_dice, format_steps


def describe(event: ev.Event, spectator: bool = False, state: GameState | None = None, before: GameState | None = None) -> str:
    """A one-line summary of an event, as a person would say it. A spectator does not see what
    a secret choice was until it is revealed in `state`, the moment being viewed (without a
    state nothing is revealed); reveals name the choice when `state` is given. A reply to the
    event just recorded gives `before`, the state it was applied to, and `state`, the state
    after: then it says what the state did where that differs from what was entered."""
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
            return f"{e.player} uses {e.gambit}" + _cp(e.cp, state, e.player, e.gambit)
        case ev.GambitPassed():
            return f"{e.player} passes"
        case ev.FirefightPloyUsed():
            return f"{e.player} uses {e.ploy}" + _cp(e.cp, state, e.player, e.ploy) + (f" on {e.operative}" if e.operative else "")
        case ev.CommandPointsAdjusted():
            return f"{e.player} CP {e.delta:+d}: {e.reason}"
        case ev.ResourceAdjusted():
            return f"{e.player} {e.resource} {e.delta:+d}" + (f": {e.reason}" if e.reason else "")
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
            shoots = "shoots from guard" if e.guard else "shoots"
            return f"{e.operative} {shoots} {e.weapon} at " + "; ".join(_shot(a) for a in e.attacks) + (f"; Hot roll {e.hot_roll}" if e.hot_roll else "")
        case ev.Fought():
            text = f"{e.operative} {e.action.lower()}s{' from guard' if e.guard else ''} {e.target} ({e.weapon}"
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
            return _regained(e, before, state)
        case ev.DamageInflicted():
            return f"{e.operative} takes {e.damage} damage ({e.source})" + (f" from {e.by}" if e.by else "")
        case ev.ObjectivesControlled():
            return "objective control: " + ", ".join(f"{m} {p or 'nobody'}" for m, p in e.control.items())
        case ev.TurningPointEnded():
            return f"turning point {e.turning_point} ends"
        case ev.GameConceded():
            return f"{e.player} concedes"
        case ev.ResultReported():
            confirmed = f"; confirmed by {', '.join(e.confirmed_by)}" if e.confirmed_by else ""
            return "result reported: " + ", ".join(f"{p} {v}VP" for p, v in e.vp.items()) + confirmed
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
        case ev.EventCorrected():
            return f"correction of seq {e.target}: {describe(e.event, spectator, state)}"
        case ev.Annotation():
            return f"note on seq {e.target}: {e.text}"
        case ev.EventDisputed():
            return f"dispute of seq {e.target}: {e.reason}"
        case ev.DisputeResolved():
            return f"dispute at seq {e.dispute} {e.outcome}"
    return type(e).__name__


def _cp(cp: int | None, state: GameState | None, player: str, name: str) -> str:
    """ " (2CP)": as given, else the roster's cost when the state at hand knows the player's ploys."""
    if cp is None and state is not None and player in state.players:
        cp = listed_cp(state.players[player], name)
    return "" if cp is None else f" ({cp}CP)"


def _shot(a: ev.ShootingAttack) -> str:
    if a.damage is not None:
        return f"{a.target} ({a.damage} damage)"
    flags = [f for f, on in (("cover", a.cover), ("obscured", a.obscured)) if on]
    saves = format_dice(a.defence_dice.rolls) if a.defence_dice and a.defence_dice.rolls else "no dice"
    return f"{a.target} ({format_dice(a.attack_dice.rolls) if a.attack_dice else 'no dice'} vs {saves}{', ' + ', '.join(flags) if flags else ''})"


def _regained(e: ev.WoundsRegained, before: GameState | None, after: GameState | None) -> str:
    """Wounds regained as entered, or as the state gained them: never above the starting wounds (pg 47)."""
    was = before.operatives.get(e.operative) if before is not None else None
    now = after.operatives.get(e.operative) if after is not None else None
    if was is None or now is None or now.wounds - was.wounds == e.wounds:
        return f"{e.operative} regains {e.wounds} wounds ({e.reason})"
    gained = now.wounds - was.wounds
    return f"{e.operative} regains {gained} wounds, not the {e.wounds} entered: never above its starting {now.datacard.wounds} (pg 47) ({e.reason})"
