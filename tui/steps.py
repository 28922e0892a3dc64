"""The legal next steps of a game, found by trying candidate events on the reducer.

The rules live in ktlog. This module only proposes the events a person might enter next, from
what the state holds (who is ready, which markers exist, which weapons an operative carries),
and keeps those the reducer accepts. Attacks are probed in quick mode (0 damage), so no dice
are needed to know that Shoot or Fight is possible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import msgspec

from ktlog import events as ev
from ktlog.errors import KtlogError, RuleViolation
from ktlog.reducer import apply_in_place
from ktlog.rosters import slug
from ktlog.rules import get_ruleset
from ktlog.rules.actions import KILLZONE_OF_ACTION
from ktlog.state import GameState, OperativeState, decode_state, encode_state

LOGS = ("vp_log", "cp_log", "attacks", "incapacitations", "warnings", "notes")
"""State fields the rules only append to: trial copies leave them out."""
_STUB = ev.Datacard(name="", apl=1, move=1, save=6, wounds=1)


class Trial:
    """Applies events to private copies of one state.

    A copy leaves out what the rules never change in place: the logs they only append to (VP
    and CP changes, attacks, notes...) and the datacards, which are frozen and shared with the
    original. That makes a copy many times cheaper in a long game, and a trial's logs hold
    exactly what the event added (the resolved attack is `attacks[-1]`).
    """

    def __init__(self, state: GameState):
        self.state = state
        self._cards = {op_id: op.datacard for op_id, op in state.operatives.items()}
        operatives = {op_id: msgspec.structs.replace(op, datacard=_STUB) for op_id, op in state.operatives.items()}
        self._lean = encode_state(msgspec.structs.replace(state, operatives=operatives, **{name: [] for name in LOGS}))

    def result(self, event: ev.Event) -> GameState:
        """The state after `event`, its logs holding only what it added. Raises RuleViolation."""
        new = decode_state(self._lean)
        for op_id, op in new.operatives.items():
            op.datacard = self._cards[op_id]
        apply_in_place(new, event, self.state.seq + 1)
        return new

    def refusal(self, event: ev.Event) -> KtlogError | None:
        """Why the reducer refuses `event`, or None when it accepts it."""
        try:
            self.result(event)
        except KtlogError as exc:
            return exc
        return None


def refusal_text(exc: KtlogError) -> str:
    """A refusal in a line: the rule's message and page, without the CLI's override advice."""
    return f"{exc.message} ({exc.rule})" if isinstance(exc, RuleViolation) else str(exc)


# --- what the state offers --------------------------------------------------------------------


def active(s: GameState) -> OperativeState | None:
    return s.operatives[s.activation.operative] if s.activation else None


def enemies(s: GameState, op: OperativeState) -> list[OperativeState]:
    return [o for o in s.operatives.values() if o.player != op.player and not o.incapacitated and o.set_up]


def melee(op: OperativeState) -> list[ev.Weapon]:
    return [w for w in op.datacard.weapons if w.kind == "melee"]


def ranged(op: OperativeState) -> list[ev.Weapon]:
    return [w for w in op.datacard.weapons if w.kind == "ranged"]


def turn_order(s: GameState) -> list[str]:
    """Players, the one whose turn it is first."""
    first = s.next_player or s.gambit_turn or s.initiative or s.setup_initiative
    return sorted(s.players, key=lambda p: p != first)


def marker_name(s: GameState, player: str) -> str:
    """A default name for the next objective marker: the centre one first, then one per player."""
    return "centre" if not s.markers else f"{slug(player)}-marker"


def drop_zone_name(s: GameState) -> str:
    taken = {p.drop_zone for p in s.players.values()}
    return next(z for z in ("A", "B", "C", "D") if z not in taken)


# --- candidates, one generator per kind of step -------------------------------------------------

Candidates = Callable[[GameState], Iterator[ev.Event]]


def _setup(fn: Candidates) -> Candidates:
    return lambda s: fn(s) if s.phase == "setup" else iter(())


def _activation(fn: Callable[[GameState, OperativeState], Iterator[ev.Event]]) -> Candidates:
    return lambda s: fn(s, active(s)) if s.activation else iter(())


def _rolloff(s: GameState) -> Iterator[ev.Event]:
    if s.phase in ("setup", "strategy") and len(s.players) >= 2:
        names = list(s.players)
        yield ev.RolledOff(purpose="setup" if s.phase == "setup" else "initiative", rolls={p: 2 if i == 0 else 1 for i, p in enumerate(names)})


def _activate(s: GameState) -> Iterator[ev.Event]:
    if s.phase == "firefight" and not s.activation:
        for player in turn_order(s):
            for op in s.ready_operatives(player):
                yield ev.OperativeActivated(operative=op.id, order=op.order)


def _counteract(s: GameState) -> Iterator[ev.Event]:
    if s.phase == "firefight" and not s.activation:
        for player in turn_order(s):
            for op in s.operatives_of(player):
                if op.status == "expended":
                    yield ev.CounteractStarted(operative=op.id)


def shot_probe(op: OperativeState, weapon: ev.Weapon, target: str) -> ev.Shot:
    return ev.Shot(operative=op.id, weapon=weapon.name, attacks=(ev.ShootingAttack(target=target, damage=0),))


def _shoot(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    for target in enemies(s, op):
        for weapon in ranged(op):
            yield shot_probe(op, weapon, target.id)


def _fight(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    actions = ["Fight"] + [a for a, zone in KILLZONE_OF_ACTION.items() if a.endswith("Fight") and zone in s.killzone.casefold()]
    for action in actions:
        targets = [s.operatives[t] for t in op.engaged_with] if action == "Fight" else enemies(s, op)
        for weapon in melee(op):
            for target in targets:
                theirs = melee(target)
                yield ev.Fought(operative=op.id, action=action, target=target.id, weapon=weapon.name,
                                target_weapon=theirs[0].name if theirs else None, damage=0, damage_taken=0)


def _mission(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    for cls in (ev.MarkerSecured, ev.MarkerLooted, ev.TransmissionInitiated):
        for marker in s.markers:
            yield cls(operative=op.id, marker=marker)


def _killzone(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    for action in ("Operate Hatch", "Guard"):
        if KILLZONE_OF_ACTION[action] in s.killzone.casefold():
            yield ev.KillzoneActionPerformed(operative=op.id, action=action)


def _battle(fn: Candidates) -> Candidates:
    return lambda s: fn(s) if s.phase in ("strategy", "firefight") else iter(())


def _living(s: GameState) -> Iterator[OperativeState]:
    return (o for o in s.operatives.values() if not o.incapacitated and o.set_up)


@dataclass(frozen=True)
class StepKind:
    """A kind of step a person can take next, with its key on the record screen."""

    action: str
    key: str
    label: str
    candidates: Candidates = field(repr=False)
    more: bool = False
    """Rare steps, offered from the "more" menu rather than the action bar."""
    exact: bool = False
    """The probe is the very event entered (no choices to make), so a refused one can be
    recorded with an override."""


KINDS: tuple[StepKind, ...] = (
    # set-up (pg 110, pg 81)
    StepKind("roll_off", "o", "Roll off", _rolloff),
    StepKind("initiative", "i", "Initiative", lambda s: (ev.InitiativeDecided(player=p) for p in turn_order(s))),
    StepKind("marker", "m", "Objective marker", _setup(lambda s: (ev.ObjectiveMarkerSetUp(marker=marker_name(s, p), player=p) for p in s.players))),
    StepKind("crit_op", "k", "Crit op", _setup(lambda s: (ev.CritOpRolled(roll=r) for r in get_ruleset(s.ruleset).crit_ops))),
    StepKind("drop_zone", "z", "Drop zone", _setup(lambda s: (ev.DropZoneChosen(player=p, drop_zone=drop_zone_name(s)) for p in s.players))),
    StepKind("equipment", "q", "Equipment", _setup(lambda s: (ev.EquipmentSelected(player=p) for p in s.players))),
    StepKind("set_up", "u", "Set up operative", _setup(lambda s: (ev.OperativeSetUp(operative=o.id) for o in s.operatives.values() if not o.set_up))),
    # turning points and the strategy phase (pg 36-37)
    StepKind("start_tp", "t", "Start turning point", lambda s: iter([ev.TurningPointStarted(turning_point=s.turning_point + 1)] if s.phase in ("setup", "between") else [])),
    StepKind("gambit", "g", "Gambit", lambda s: (ev.StrategicGambitUsed(player=p, gambit="a gambit", cp=0) for p in turn_order(s)) if s.phase == "strategy" else iter(())),
    StepKind("pass", "p", "Pass", lambda s: (ev.GambitPassed(player=p) for p in turn_order(s)) if s.phase == "strategy" else iter(())),
    # the firefight phase (pg 38-39)
    StepKind("activate", "a", "Activate", _activate),
    StepKind("counteract", "x", "Counteract", _counteract),
    StepKind("reposition", "r", "Reposition", _activation(lambda s, op: iter([ev.Repositioned(operative=op.id)])), exact=True),
    StepKind("dash", "d", "Dash", _activation(lambda s, op: iter([ev.Dashed(operative=op.id)])), exact=True),
    StepKind("fall_back", "b", "Fall Back", _activation(lambda s, op: iter([ev.FellBack(operative=op.id)])), exact=True),
    StepKind("charge", "c", "Charge", _activation(lambda s, op: (ev.Charged(operative=op.id, targets=(t.id,)) for t in enemies(s, op)))),
    StepKind("shoot", "s", "Shoot", _activation(_shoot)),
    StepKind("fight", "f", "Fight", _activation(_fight)),
    StepKind("mission", "m", "Mission action", _activation(_mission)),
    StepKind("pick_up", "p", "Pick up marker", _activation(lambda s, op: (ev.MarkerPickedUp(operative=op.id, marker=m) for m in s.markers))),
    StepKind("place", "P", "Place marker", _activation(lambda s, op: (ev.MarkerPlaced(operative=op.id, marker=m) for m in s.markers))),
    StepKind("unique", "u", "Unique action", _activation(lambda s, op: (ev.UniqueActionPerformed(operative=op.id, action=a.name) for a in op.datacard.unique_actions))),
    StepKind("killzone", "k", "Killzone action", _activation(_killzone)),
    StepKind("end_activation", "e", "End activation", _activation(lambda s, op: iter([ev.ActivationEnded(operative=op.id)])), exact=True),
    StepKind("ploy", "y", "Ploy", lambda s: (ev.FirefightPloyUsed(player=p, ploy="a ploy", cp=0) for p in turn_order(s)) if s.phase == "firefight" else iter(())),
    StepKind("control", "o", "Objectives", lambda s: iter([ev.ObjectivesControlled(control=dict.fromkeys(s.markers))] if s.phase == "firefight" and s.markers else [])),
    StepKind("end_tp", "t", "End turning point", lambda s: iter([ev.TurningPointEnded(turning_point=s.turning_point)] if s.phase == "firefight" else []), exact=True),
    # rare steps, from the "more" menu
    StepKind("damage", "1", "Damage from outside an attack", _battle(lambda s: (ev.DamageInflicted(operative=o.id, damage=0, source="other") for o in _living(s))), more=True),
    StepKind("regain", "2", "Wounds regained", _battle(lambda s: (ev.WoundsRegained(operative=o.id, wounds=1, reason="a rule") for o in _living(s) if o.wounded)), more=True),
    StepKind("apl", "3", "APL change", _battle(lambda s: (ev.AplModified(operative=o.id, delta=1, reason="a rule") for o in _living(s))), more=True),
    StepKind("cp", "4", "CP adjustment", lambda s: (ev.CommandPointsAdjusted(player=p, delta=1, reason="a rule") for p in turn_order(s)) if s.phase != "over" else iter(()), more=True),
    StepKind("concede", "5", "Concede", lambda s: (ev.GameConceded(player=p) for p in turn_order(s)) if s.phase != "over" else iter(()), more=True),
)
KIND = {k.action: k for k in KINDS}


class Steps:
    """The legal next steps from one state, worked out as they are asked for and kept."""

    def __init__(self, state: GameState):
        self.state = state
        self.trial = Trial(state)
        self._legal: dict[str, bool] = {}
        self._options: dict[str, list[ev.Event]] = {}
        self._refusals: dict[str, KtlogError] = {}
        self._refused: dict[str, ev.Event] = {}

    def legal(self, action: str) -> bool:
        """Whether any step of this kind is legal now (stops at the first that is)."""
        if action not in self._legal:
            if action in self._options:
                self._legal[action] = bool(self._options[action])
            else:
                self._legal[action] = any(self._accepts(action, e) for e in KIND[action].candidates(self.state))
        return self._legal[action]

    def options(self, action: str) -> list[ev.Event]:
        """Every legal step of this kind, in the order they are offered."""
        if action not in self._options:
            self._options[action] = [e for e in KIND[action].candidates(self.state) if self._accepts(action, e)]
        return self._options[action]

    def shot_targets(self) -> list[str]:
        """The enemies the active operative may shoot with one of its weapons. Each is tried
        with the first weapon first, so a target usually costs one trial, not one per weapon."""
        op = active(self.state)
        return [t.id for t in enemies(self.state, op) if any(self._accepts("shoot", shot_probe(op, w, t.id)) for w in ranged(op))]

    def shot_weapons(self, target: str) -> list[ev.Weapon]:
        """The active operative's weapons that may shoot `target`."""
        op = active(self.state)
        return [w for w in ranged(op) if self._accepts("shoot", shot_probe(op, w, target))]

    def why_not(self, action: str) -> str:
        """Why no step of this kind is legal now, in the rules' words when they said no."""
        if self.legal(action):
            return ""
        label = KIND[action].label
        refusal = self._refusals.get(action)
        if refusal is None:
            return f"{label} is not a step of this moment ({moment(self.state)})"
        return f"{label}: {refusal_text(refusal)}"

    def refused_event(self, action: str) -> ev.Event | None:
        """The first candidate the rules refused, if any."""
        self.legal(action)
        return self._refused.get(action)

    def available(self, *, more: bool = False) -> list[StepKind]:
        return [k for k in KINDS if k.more == more and self.legal(k.action)]

    def _accepts(self, action: str, event: ev.Event) -> bool:
        refusal = self.trial.refusal(event)
        if refusal is not None and action not in self._refusals:
            self._refusals[action], self._refused[action] = refusal, event
        return refusal is None


def moment(s: GameState) -> str:
    """Where the game stands, in a few words."""
    if s.phase == "setup":
        return "setting up the battle"
    if s.phase == "over":
        return "the battle is over"
    if s.phase == "between":
        return f"turning point {s.turning_point} has ended"
    if s.activation:
        return f"{s.activation.operative} is {'counteracting' if s.activation.counteract else 'active'}"
    return f"turning point {s.turning_point}, {s.phase} phase"
