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
from ktlog.files.rosters import slug
from ktlog.rulesets import get_ruleset
from ktlog.rules.actions import KILLZONE_OF_ACTION, check_action, printed_cost
from ktlog.rules.context import Ctx
from ktlog.rulesets.approved.rules import ARCHETYPES
from ktlog.rulesets.joint.rules import is_heavy, npo_side
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
    """A default name for the next objective marker: the centre one first, then the player's
    (numbered from their second: Multiplayer and Joint Ops maps have more)."""
    base = name = "centre" if not s.markers else f"{slug(player)}-marker"
    n = 1
    while name in s.markers:
        n += 1
        name = f"{base}-{n}"
    return name


def drop_zone_name(s: GameState) -> str:
    taken = {p.drop_zone for p in s.players.values()}
    return next(z for z in ("A", "B", "C", "D") if z not in taken)


# --- candidates, one generator per kind of step -------------------------------------------------

Candidates = Callable[[GameState], Iterator[ev.Event]]


def _during(*phases: str) -> Callable[[Candidates], Candidates]:
    """Candidates only in these phases."""
    return lambda fn: lambda s: fn(s) if s.phase in phases else iter(())


_setup, _strategy, _battle = _during("setup"), _during("strategy"), _during("strategy", "firefight")


def _activation(fn: Callable[[GameState, OperativeState], Iterator[ev.Event]]) -> Candidates:
    return lambda s: fn(s, active(s)) if s.activation else iter(())


def _rolloff(s: GameState) -> Iterator[ev.Event]:
    """Every player's D6; in Multiplayer Ops, once players tie for a place, only the first tied
    group rolls again (pg 99)."""
    if s.phase in ("setup", "strategy") and len(s.players) >= 2:
        names = next((g for g in s.order_ties if len(g) > 1), list(s.players))
        yield ev.RolledOff(purpose="setup" if s.phase == "setup" else "initiative", rolls={p: len(names) - i for i, p in enumerate(names)})


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


SHOOTING = {"shoot": ev.Shot, "overwatch": ev.OverwatchFired}
"""The steps that are shooting attacks, and their events (KT21 Overwatch is a Shot too)."""


def shot_probe(op: OperativeState, weapon: ev.Weapon, target: str, action: str = "shoot") -> ev.Shot:
    return SHOOTING[action](operative=op.id, weapon=weapon.name, attacks=(ev.ShootingAttack(target=target, damage=0),))


def _shots(s: GameState, op: OperativeState, action: str = "shoot") -> Iterator[ev.Event]:
    for target in enemies(s, op):
        for weapon in ranged(op):
            yield shot_probe(op, weapon, target.id, action)


def _overwatch(s: GameState) -> Iterator[ev.Event]:
    """KT21 Overwatch: between activations, by an expended operative of the player whose turn it
    is once they have no ready operative left (001 Overwatch)."""
    player = s.next_player
    if s.phase == "firefight" and not s.activation and player and not s.ready_operatives(player):
        for op in s.operatives_of(player):
            if op.status == "expended":
                yield from _shots(s, op, "overwatch")


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
    for cls in (ev.MarkerSecured, ev.MarkerLooted, ev.TransmissionInitiated, ev.MarkerSabotaged):
        for marker in s.markers:
            yield cls(operative=op.id, marker=marker)


def _killzone(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    for action in ("Operate Hatch", "Guard"):
        if KILLZONE_OF_ACTION[action] in s.killzone.casefold():
            yield ev.KillzoneActionPerformed(operative=op.id, action=action)


def _living(s: GameState) -> Iterator[OperativeState]:
    return (o for o in s.operatives.values() if not o.incapacitated and o.set_up)


def _action(cls: type[ev.Event]) -> Candidates:
    """An action of the active operative that needs nothing more (Dash, Normal Move ...)."""
    return _activation(lambda s, op: iter([cls(operative=op.id)]))


def _each_player(make: Callable[[str], ev.Event]) -> Candidates:
    return lambda s: (make(p) for p in turn_order(s))


# --- Approved Ops' secret choices (002 steps 2-5); the flows ask what was chosen ---------------


def _tac_op(s: GameState) -> Iterator[ev.Event]:
    for p in turn_order(s):
        yield ev.TacOpSelected(player=p, tac_op="a tac op", archetype=(s.players[p].archetypes or ARCHETYPES)[0])


def _mission_vp(s: GameState) -> Iterator[ev.Event]:
    """KT21: VP from the mission or a tac op card (001), which the players work out."""
    for p in turn_order(s):
        for category in ("mission", "tac"):
            yield ev.MissionVPScored(player=p, vp=1, category=category, reason="the card")


def _reveal(s: GameState) -> Iterator[ev.Event]:
    yield ev.ScoutingRevealed()
    for p in turn_order(s):
        yield ev.TacOpRevealed(player=p)
        yield ev.PrimaryOpRevealed(player=p)


# --- Joint Ops: the NPOs' reinforcements (pg 92, 94) --------------------------------------------


def _reinforcements(s: GameState) -> Iterator[ev.Event]:
    """One Heavy NPO, or two that are not Heavy, of those incapacitated (the flow asks which)."""
    npo = npo_side(s)
    down = [o for o in s.operatives_of(npo) if o.incapacitated] if npo and s.phase == "strategy" else []
    heavy = [o.id for o in down if is_heavy(o)]
    light = [o.id for o in down if not is_heavy(o)]
    if heavy:
        yield ev.ReinforcementsArrived(operatives=(heavy[0],))
    if light:
        yield ev.ReinforcementsArrived(operatives=tuple(light[:2]))


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
    needs: tuple[type[ev.Event], ...] = ()
    """The events of a ruleset's own step (empty: a step of every ruleset); a game whose ruleset
    has none of them does not offer it."""


KINDS: tuple[StepKind, ...] = (
    # set-up (pg 110, pg 81)
    StepKind("roll_off", "o", "Roll off", _rolloff),
    StepKind("initiative", "i", "Initiative", lambda s: (ev.InitiativeDecided(player=p) for p in turn_order(s))),
    StepKind("marker", "m", "Objective marker", _setup(lambda s: (ev.ObjectiveMarkerSetUp(marker=marker_name(s, p), player=p) for p in s.players))),
    StepKind("crit_op", "k", "Crit op", _setup(lambda s: (ev.CritOpRolled(roll=r) for r in get_ruleset(s.ruleset).crit_ops))),
    StepKind("drop_zone", "z", "Drop zone", _setup(lambda s: (ev.DropZoneChosen(player=p, drop_zone=drop_zone_name(s)) for p in s.players))),
    StepKind("equipment", "q", "Equipment", _setup(lambda s: (ev.EquipmentSelected(player=p) for p in s.players))),
    StepKind("set_up", "u", "Set up operative", _setup(lambda s: (ev.OperativeSetUp(operative=o.id) for o in s.operatives.values() if not o.set_up))),
    StepKind("tac_op", "T", "Tac op", _setup(_tac_op), needs=(ev.TacOpSelected,)),
    StepKind("scouting", "S", "Scouting", _setup(_each_player(lambda p: ev.ScoutingSelected(player=p, option="equip"))), needs=(ev.ScoutingSelected,)),
    StepKind("reveal", "R", "Reveal", _reveal, needs=(ev.ScoutingRevealed,)),
    # turning points and the strategy phase (pg 36-37)
    StepKind("start_tp", "t", "Start turning point", lambda s: iter([ev.TurningPointStarted(turning_point=s.turning_point + 1)] if s.phase in ("setup", "between") else [])),
    StepKind("gambit", "g", "Gambit", _strategy(_each_player(lambda p: ev.StrategicGambitUsed(player=p, gambit="a gambit", cp=0)))),
    StepKind("pass", "p", "Pass", _strategy(_each_player(lambda p: ev.GambitPassed(player=p)))),
    StepKind("primary_op", "G", "Primary op", _strategy(_each_player(lambda p: ev.PrimaryOpSelected(player=p, op="crit"))), needs=(ev.PrimaryOpSelected,)),
    StepKind("reinforcements", "G", "Reinforcements", _reinforcements, needs=(ev.ReinforcementsArrived,)),
    # the firefight phase (pg 38-39)
    StepKind("activate", "a", "Activate", _activate),
    StepKind("counteract", "x", "Counteract", _counteract),
    StepKind("overwatch", "O", "Overwatch", _overwatch, needs=(ev.OverwatchFired,)),
    StepKind("reposition", "r", "Reposition", _action(ev.Repositioned), exact=True),
    StepKind("normal_move", "v", "Normal Move", _action(ev.NormalMoved), exact=True, needs=(ev.NormalMoved,)),
    StepKind("dash", "d", "Dash", _action(ev.Dashed), exact=True),
    StepKind("fall_back", "b", "Fall Back", _action(ev.FellBack), exact=True),
    StepKind("charge", "c", "Charge", _activation(lambda s, op: (ev.Charged(operative=op.id, targets=(t.id,)) for t in enemies(s, op)))),
    StepKind("shoot", "s", "Shoot", _activation(_shots)),
    StepKind("fight", "f", "Fight", _activation(_fight)),
    StepKind("mission", "m", "Mission action", _activation(_mission)),
    StepKind("pick_up", "p", "Pick up marker", _activation(lambda s, op: (ev.MarkerPickedUp(operative=op.id, marker=m) for m in s.markers))),
    StepKind("place", "P", "Place marker", _activation(lambda s, op: (ev.MarkerPlaced(operative=op.id, marker=m) for m in s.markers))),
    StepKind("unique", "u", "Unique action", _activation(lambda s, op: (ev.UniqueActionPerformed(operative=op.id, action=a.name) for a in op.datacard.unique_actions))),
    StepKind("killzone", "k", "Killzone action", _activation(_killzone)),
    StepKind("pass_action", "w", "Pass action", _action(ev.Passed), exact=True, needs=(ev.Passed,)),
    StepKind("escape", "E", "Escape", _action(ev.OperativeEscaped), exact=True, needs=(ev.OperativeEscaped,)),
    StepKind("end_activation", "e", "End activation", _action(ev.ActivationEnded), exact=True),
    StepKind("ploy", "y", "Ploy", lambda s: (ev.FirefightPloyUsed(player=p, ploy="a ploy", cp=0) for p in turn_order(s)) if s.phase == "firefight" else iter(())),
    StepKind("control", "o", "Objectives", lambda s: iter([ev.ObjectivesControlled(control=dict.fromkeys(s.markers))] if s.phase == "firefight" and s.markers else [])),
    StepKind("end_tp", "t", "End turning point", lambda s: iter([ev.TurningPointEnded(turning_point=s.turning_point)] if s.phase == "firefight" else []), exact=True),
    # VP the players work out from cards that are not in the sources (the flows ask how many and why)
    StepKind("tac_op_vp", "V", "Tac op VP", _battle(_each_player(lambda p: ev.TacOpScored(player=p, vp=1, reason="the card"))), needs=(ev.TacOpScored,)),
    StepKind("mission_vp", "V", "VP", _battle(_mission_vp), needs=(ev.MissionVPScored,)),
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
        self.ruleset = get_ruleset(state.ruleset)
        self._foreign: set[str] = set()
        """Kinds with candidates this ruleset has no such event for (Counteract in KT21)."""
        self._legal: dict[str, bool] = {}
        self._options: dict[str, list[ev.Event]] = {}
        self._refusals: dict[str, KtlogError] = {}
        self._refused: dict[str, ev.Event] = {}
        self._refused_actions: set[tuple] = set()
        """Actions the active operative cannot take at all now (AP, once per activation...): every
        candidate of one is refused alike, so only the first is tried."""

    def legal(self, action: str) -> bool:
        """Whether any step of this kind is legal now (stops at the first that is)."""
        if action not in self._legal:
            if action in self._options:
                self._legal[action] = bool(self._options[action])
            else:
                self._legal[action] = any(self._accepts(action, e) for e in self._candidates(action))
        return self._legal[action]

    def options(self, action: str) -> list[ev.Event]:
        """Every legal step of this kind, in the order they are offered."""
        if action not in self._options:
            self._options[action] = [e for e in self._candidates(action) if self._accepts(action, e)]
        return self._options[action]

    def part_of(self, action: str) -> bool:
        """Whether the game's ruleset has this kind of step at all."""
        needs = KIND[action].needs
        return not needs or any(e in self.ruleset.events for e in needs)

    def _candidates(self, action: str) -> Iterator[ev.Event]:
        """The kind's candidates that are events of this ruleset (the others are not tried)."""
        if not self.part_of(action):
            return
        for event in KIND[action].candidates(self.state):
            if type(event) in self.ruleset.events:
                yield event
            else:
                self._foreign.add(action)

    def shot_targets(self, op: OperativeState, action: str = "shoot", weapon: ev.Weapon | None = None) -> list[str]:
        """The enemies `op` may shoot (Shoot, or Overwatch) with `weapon`, or with one of its
        weapons: each is tried with the first weapon first, so a target usually costs one trial."""
        weapons = [weapon] if weapon else ranged(op)
        return [t.id for t in enemies(self.state, op) if any(self._accepts(action, shot_probe(op, w, t.id, action)) for w in weapons)]

    def shot_weapons(self, op: OperativeState, target: str, action: str = "shoot") -> list[ev.Weapon]:
        """The weapons of `op` that may shoot `target`."""
        return [w for w in ranged(op) if self._accepts(action, shot_probe(op, w, target, action))]

    def why_not(self, action: str) -> str:
        """Why no step of this kind is legal now, in the rules' words when they said no."""
        if self.legal(action):
            return ""
        label = KIND[action].label
        refusal = self._refusals.get(action)
        if refusal is None and (action in self._foreign or not self.part_of(action)):
            return f"{label} is not part of {self.ruleset.title}"
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
        shared = self._action_key(event)
        if shared in self._refused_actions:
            return False
        refusal = self.trial.refusal(event)
        if refusal is not None:
            if action not in self._refusals:
                self._refusals[action], self._refused[action] = refusal, event
            if shared and self._fails_shared_checks(event):
                self._refused_actions.add(shared)
        return refusal is None

    def _action_key(self, event: ev.Event) -> tuple | None:
        """What the checks every action shares depend on (`check_action`): two candidates with
        the same key, a shot at each enemy say, pass or fail them alike."""
        if not isinstance(event, ev.Action) or event.operative not in self.state.operatives:
            return None
        return (event.operative, event.counts_as, printed_cost(self.state.operatives[event.operative], event), event.ap)

    def _fails_shared_checks(self, event: ev.Action) -> bool:
        try:
            check_action(Ctx(self.state, event, self.state.seq + 1, self.ruleset), event)
        except KtlogError:
            return True
        return False


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
