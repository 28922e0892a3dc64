"""One event in words, as a person would say it (the event log, `ktlog log`, the record screen, a
seat's page): each event type's words are registered by type (`ktlog.rules.words`), the core's
here, a ruleset's beside its own event types."""

from __future__ import annotations

from dataclasses import dataclass

from .. import events as ev
from ..rules.attacks import killzone_profile
from ..rules.shooting import splash_damage
from ..rules.team import listed_cp, weapons_of
from ..rules.words import Said, Words, words, words_of
from ..rulesets import get_ruleset
from ..state import GameState
from .notation import format_dice, format_steps


def describe(event: ev.Event, spectator: bool = False, state: GameState | None = None, before: GameState | None = None) -> str:
    """A one-line summary of an event, as a person would say it. A spectator does not see what
    a secret choice was until it is revealed in `state`, the moment being viewed (without a
    state nothing is revealed); reveals name the choice when `state` is given. A reply to the
    event just recorded gives `before`, the state it was applied to, and `state`, the state
    after: then it says what the state did where that differs from what was entered.

    >>> describe(ev.OperativeActivated(operative="gunner", order="engage"))
    'gunner activates (engage)'
    """
    hide = spectator and (event.secret if state is None else get_ruleset(state.ruleset).hidden(state, event))
    said = words_of(type(event))
    return said(event, _Said(state, hide, spectator, before)) if said else type(event).__name__


@dataclass(frozen=True)
class _Said:
    """What an event's words are told (`ktlog.rules.words.Said`)."""

    state: GameState | None
    hide: bool
    spectator: bool
    before: GameState | None = None

    def describe(self, event: ev.Event) -> str:
        return describe(event, self.spectator, self.state)

    def attacks(self, attacks: tuple[ev.ShootingAttack, ...]) -> str:
        return "; ".join(_attack(a) for a in attacks)

    def cp(self, cp: int | None, player: str, name: str) -> str:
        """ " (2CP)": as given, else the roster's cost when the state at hand knows the player's ploys."""
        if cp is None and self.state is not None and player in self.state.players:
            cp = listed_cp(self.state.players[player], name)
        return "" if cp is None else f" ({cp}CP)"


def _attack(a: ev.ShootingAttack) -> str:
    if a.damage is not None:
        return f"{a.target} ({a.damage} damage)"
    flags = [f for f, on in (("cover", a.cover), ("obscured", a.obscured)) if on]
    saves = format_dice(a.defence_dice.rolls) if a.defence_dice and a.defence_dice.rolls else "no dice"
    return f"{a.target} ({format_dice(a.attack_dice.rolls) if a.attack_dice else 'no dice'} vs {saves}{', ' + ', '.join(flags) if flags else ''})"


def _shot(e: ev.Shot, said: Said) -> str:
    shoots = "shoots from guard" if e.guard else "shoots"
    splashes = "".join(_splash(e, a, said.state) for a in e.attacks if a.splashed)
    return f"{e.operative} {shoots} {e.weapon} at {said.attacks(e.attacks)}{splashes}" + (f"; Hot roll {e.hot_roll}" if e.hot_roll else "")


def _splash(e: ev.Shot, attack: ev.ShootingAttack, state: GameState | None) -> str:
    """x" Devastating's other operatives (pg 111): '; 4 damage to X and Y within 1" (Devastating)',
    the damage and distance when the state knows the shooter's weapon and its dice say."""
    names = attack.splashed[0] if len(attack.splashed) == 1 else f"{', '.join(attack.splashed[:-1])} and {attack.splashed[-1]}"
    op = state.operatives.get(e.operative) if state is not None else None
    weapon = next((w for w in weapons_of(state, op) if w.name.casefold() == e.weapon.casefold()), None) if state and op else None
    if state is None or weapon is None:
        return f"; Devastating damage to {names}"
    profile = killzone_profile(state.killzone, get_ruleset(state.ruleset).weapon_as_played(weapon))
    damage = splash_damage(profile, attack)
    return f'; {"Devastating" if damage is None else damage} damage to {names} within {profile.devastating_splash}" (Devastating)'


def _regained(e: ev.WoundsRegained, said: Said) -> str:
    """Wounds regained as entered, or as the state gained them: never above the starting wounds (pg 47)."""
    was = said.before.operatives.get(e.operative) if said.before is not None else None
    now = said.state.operatives.get(e.operative) if said.state is not None else None
    if was is None or now is None or now.wounds - was.wounds == e.wounds:
        return f"{e.operative} regains {e.wounds} wounds ({e.reason})"
    gained = now.wounds - was.wounds
    return f"{e.operative} regains {gained} wounds, not the {e.wounds} entered: never above its starting {now.datacard.wounds} (pg 47) ({e.reason})"


def _fought(e: ev.Fought, said: Said) -> str:
    text = f"{e.operative} {e.action.lower()}s{' from guard' if e.guard else ''} {e.target} ({e.weapon}"
    if e.damage is not None or e.damage_taken is not None:
        return text + f"): {e.damage or 0} damage dealt, {e.damage_taken or 0} taken"
    dice, theirs = (format_dice(d.rolls) if d else "-" for d in (e.attack_dice, e.target_dice))
    text += f" {dice} vs {e.target_weapon or 'no weapon'} {theirs})"
    return text + (f" steps {format_steps(e.steps)}" if e.steps else "")


def _at(e: ev.OperativeSetUp | ev.Moved, before: str = " at") -> str:
    """Where an operative is placed, in a game with positions (docs/the-board.md); else nothing."""
    if e.x is None or e.y is None:
        return ""
    return f"{before} ({e.x:g}, {e.y:g})" + (f', {e.z:g}" up' if e.z else "")


CORE: dict[type[ev.Event], Words] = {
    ev.GameCreated: lambda e, said: f"game created: {e.ruleset} on {e.killzone}, {e.date}",
    ev.PlayerJoined: lambda e, said: f"{e.player} joins with {e.kill_team}",
    ev.OperativeAdded: lambda e, said: f"{e.player} selects {e.operative} ({e.datacard.name})",
    ev.RolledOff: lambda e, said: f"{e.purpose} roll-off: " + ", ".join(f"{p} {v}" for p, v in e.rolls.items()),
    ev.InitiativeDecided: lambda e, said: f"{e.player} has initiative",
    ev.ObjectiveMarkerSetUp: lambda e, said: f"{e.player} sets up objective marker {e.marker}",
    ev.CritOpRolled: lambda e, said: f"crit op roll {e.roll}",
    ev.DropZoneChosen: lambda e, said: f"{e.player} takes drop zone {e.drop_zone}",
    ev.EquipmentSelected: lambda e, said: f"{e.player} equipment: {', '.join(e.equipment) or 'none'}",
    ev.OperativeSetUp: lambda e, said: f"{e.operative} set up{_at(e)}",
    ev.TurningPointStarted: lambda e, said: f"turning point {e.turning_point} begins",
    ev.StrategicGambitUsed: lambda e, said: f"{e.player} uses {e.gambit}" + said.cp(e.cp, e.player, e.gambit),
    ev.GambitPassed: lambda e, said: f"{e.player} passes",
    ev.FirefightPloyUsed: lambda e, said: f"{e.player} uses {e.ploy}" + said.cp(e.cp, e.player, e.ploy) + (f" on {e.operative}" if e.operative else ""),
    ev.CommandPointsAdjusted: lambda e, said: f"{e.player} CP {e.delta:+d}: {e.reason}",
    ev.ResourceAdjusted: lambda e, said: f"{e.player} {e.resource} {e.delta:+d}" + (f": {e.reason}" if e.reason else ""),
    ev.OperativeActivated: lambda e, said: f"{e.operative} activates ({e.order})",
    ev.ActivationEnded: lambda e, said: f"{e.operative} ends its activation",
    ev.CounteractStarted: lambda e, said: f"{e.operative} counteracts",
    ev.AplModified: lambda e, said: f"{e.operative} APL {e.delta:+d}: {e.reason}",
    ev.Action: lambda e, said: f"{e.operative}: {e.name}" + (f" on {e.marker}" if "marker" in e.__struct_fields__ else ""),
    ev.Shot: _shot,
    ev.Fought: _fought,
    ev.Moved: lambda e, said: f"{e.operative}: {e.name}{_at(e, ' to')}",
    ev.Charged: lambda e, said: f"{e.operative} charges {', '.join(e.targets)}{_at(e, ', ending at')}",
    ev.UniqueActionPerformed: lambda e, said: f"{e.operative} performs {e.action}",
    ev.KillzoneActionPerformed: lambda e, said: f"{e.operative} performs {e.action}",
    ev.WoundsRegained: lambda e, said: _regained(e, said),
    ev.DamageInflicted: lambda e, said: f"{e.operative} takes {e.damage} damage ({e.source})" + (f" from {e.by}" if e.by else ""),
    ev.ObjectivesControlled: lambda e, said: "objective control: " + ", ".join(f"{m} {p or 'nobody'}" for m, p in e.control.items()),
    ev.TurningPointEnded: lambda e, said: f"turning point {e.turning_point} ends",
    ev.GameConceded: lambda e, said: f"{e.player} concedes",
    ev.EventVoided: lambda e, said: f"undo seq {e.target}",
    ev.EventCorrected: lambda e, said: f"correction of seq {e.target}: {said.describe(e.event)}",
    ev.Annotation: lambda e, said: f"note on seq {e.target}: {e.text}",
    ev.EventDisputed: lambda e, said: f"dispute of seq {e.target}: {e.reason}",
    ev.DisputeResolved: lambda e, said: f"dispute at seq {e.dispute} {e.outcome}",
    ev.ResultReported: lambda e, said: (
        "result reported: " + ", ".join(f"{p} {v}VP" for p, v in e.vp.items()) + (f"; confirmed by {', '.join(e.confirmed_by)}" if e.confirmed_by else "")
    ),
}
"""The core event types' words (an action without its own: its name, and its marker if any)."""
for _type, _words in CORE.items():
    words(_type)(_words)
