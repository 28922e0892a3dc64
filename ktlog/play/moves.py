"""The legal moves from a state, found by trying candidate events on the reducer (as python-chess's
`Board.legal_moves`).

Each kind of move proposes the events a person might enter next (ktlog.rules.candidates); the
moves are those the reducer accepts. Attacks are probed in quick mode (0 damage), so no dice are
needed to know that Shoot or Fight is possible. The shared kinds are here; a ruleset adds its own
(`Ruleset.moves`).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, get_args

import msgspec

from .. import events as ev
from ..errors import KtlogError, RuleViolation
from ..files.rosters import slug
from ..reducer import apply_in_place
from ..rules.actions import KILLZONE_OF_ACTION, check_action, printed_cost
from ..rules.attacks import hit_stat
from ..rules.candidates import (
    Candidates,
    action,
    each_player,
    enemies,
    in_battle,
    in_setup,
    in_strategy,
    living,
    melee,
    of_active,
    ranged,
    shot_probe,
    shots,
    turn_order,
)
from ..rules.candidates import active as active  # the faces ask it here, with melee (the shoot and fight dialogs)
from ..rules.context import Ctx
from ..rules.ruleset import Ruleset, listing
from ..rules.shooting import defence_dice_collected, expected_attack_dice
from ..rules.team import weapons_of
from ..rules.weapons import WeaponProfile, weapon_profile
from ..rulesets import get_ruleset
from ..state import Checkpoint, GameState, OperativeState
from ..text.render import ap_left


class Trial:
    """Applies events to private copies of one state.

    Each copy is restored from a `Checkpoint` with empty logs, so a trial's logs hold exactly
    what the event added (the resolved attack is `attacks[-1]`).
    """

    def __init__(self, state: GameState, override: str | None = None):
        self.state = state
        self.override = override
        """A reason every event tried carries unless it has its own: the moves a kill team rule
        allows (precedence, pg 55), as a player who overrides a refusal enters them."""
        self._start = Checkpoint(state)

    def overridden(self, event: ev.Event) -> ev.Event:
        """The event with the trial's override reason, if it has one and the event none."""
        return msgspec.structs.replace(event, override=self.override) if self.override and event.override is None and not event.meta else event

    def result(self, event: ev.Event) -> GameState:
        """The state after `event`, its logs holding only what it added. Raises RuleViolation."""
        new = self._start.restore(logs=False)
        apply_in_place(new, self.overridden(event), self.state.seq + 1)
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


# --- the shared kinds of move ------------------------------------------------------------------


def marker_name(s: GameState, player: str) -> str:
    """A default name for the next objective marker: the layout's next one in a game with positions
    (docs/the-board.md), else the centre one first, then the player's (numbered from their
    second: Multiplayer and Joint Ops maps have more)."""
    if s.layout is not None and (free := [m.name for m in s.layout.objectives if m.name not in s.markers]):
        return free[0]
    base = name = "centre" if not s.markers else f"{slug(player)}-marker"
    n = 1
    while name in s.markers:
        n += 1
        name = f"{base}-{n}"
    return name


def drop_zone_name(s: GameState) -> str:
    taken = {p.drop_zone for p in s.players.values()}
    return next(z for z in ("A", "B", "C", "D") if z not in taken)


def _rolloff(s: GameState) -> Iterator[ev.Event]:
    """Every player's D6; in Multiplayer Ops, once players tie for a place, only the first tied
    group rolls again (pg 99)."""
    if s.phase in ("setup", "strategy") and len(s.players) >= 2:
        names = next((g for g in s.order_ties if len(g) > 1), list(s.players))
        yield ev.RolledOff(purpose="setup" if s.phase == "setup" else "initiative", rolls={p: len(names) - i for i, p in enumerate(names)})


def _equipment(s: GameState) -> Iterator[ev.Event]:
    """Each player's equipment: none, or one option (Approved Ops' Equip adds exactly one, 002 step 4)."""
    for p, player in s.players.items():
        yield ev.EquipmentSelected(player=p)
        unselected = [o.name for o in player.equipment_options if o.name not in (player.equipment or ())]
        yield ev.EquipmentSelected(player=p, equipment=((unselected or ["an equipment option"])[0],))


def _gambits(s: GameState) -> Iterator[ev.Event]:
    """A gambit for nothing, else at its CP (a discount may be spent already, 002 step 4)."""
    for p in turn_order(s):
        yield ev.StrategicGambitUsed(player=p, gambit="a gambit", cp=0)
        yield ev.StrategicGambitUsed(player=p, gambit="a gambit")


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


def _fight(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    actions: list[ev.FightAction] = [a for a in get_args(ev.FightAction) if a == "Fight" or KILLZONE_OF_ACTION[a] in s.killzone.casefold()]
    for name in actions:
        targets = [s.operatives[t] for t in op.engaged_with] if name == "Fight" else enemies(s, op)
        for weapon in melee(s, op):
            for target in targets:
                theirs = melee(s, target)
                yield ev.Fought(
                    operative=op.id,
                    action=name,
                    target=target.id,
                    weapon=weapon.name,
                    target_weapon=theirs[0].name if theirs else None,
                    damage=0,
                    damage_taken=0,
                )


def _mission(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    """The mission actions on each marker (every registered one: those of other rulesets are not
    tried), the crit op's own first: when none is legal, the refusal shown is the one that
    matters (no mission action in turning point 1, pg 84-85)."""
    kinds = [cls for cls in ev.EVENT_TYPES.values() if issubclass(cls, ev.Action) and cls.mission and "marker" in cls.__struct_fields__]
    for cls in sorted(kinds, key=lambda cls: not s.crit_op or s.crit_op not in cls.__name__):
        for marker in s.markers:
            yield cls(operative=op.id, marker=marker)  # type: ignore[call-arg]  # each has a marker (kinds)


GUARD_SHOT = functools.partial(ev.Shot, guard=True)
"""A Shoot action from guard (Gallowdark, pg 70), made like a Shot."""


def _guard(s: GameState) -> Iterator[ev.Event]:
    """Operatives on guard interrupting an enemy operative's activation (pg 70): a shot at each
    enemy with each ranged weapon, a fight against each enemy within control range, for free."""
    if s.phase != "firefight" or s.activation is None:
        return
    interrupted = s.operatives[s.activation.operative].player
    for op in living(s):
        if op.on_guard and op.player != interrupted:
            yield from shots(s, op, GUARD_SHOT)
            for weapon in melee(s, op):
                for target in op.engaged_with:
                    theirs = melee(s, s.operatives[target])
                    yield ev.Fought(
                        operative=op.id,
                        target=target,
                        weapon=weapon.name,
                        target_weapon=theirs[0].name if theirs else None,
                        damage=0,
                        damage_taken=0,
                        guard=True,
                    )


def _reported(s: GameState) -> ev.ResultReported:
    """The result to report (rules/reported.py): the figures reported already (to confirm them), else none yet."""
    return ev.ResultReported(vp=dict(s.report.vp) if s.report else {p: 0 for p, state in s.players.items() if not state.npo})


def _killzone(s: GameState, op: OperativeState) -> Iterator[ev.Event]:
    for name in ("Operate Hatch", "Guard"):
        if KILLZONE_OF_ACTION[name] in s.killzone.casefold():
            yield ev.KillzoneActionPerformed(operative=op.id, action=name)


MOVES: dict[str, Candidates] = {
    # set-up (pg 110, pg 81)
    "roll_off": _rolloff,
    "initiative": lambda s: (ev.InitiativeDecided(player=p) for p in turn_order(s)),
    "marker": in_setup(lambda s: (ev.ObjectiveMarkerSetUp(marker=marker_name(s, p), player=p) for p in s.players)),
    "crit_op": in_setup(lambda s: (ev.CritOpRolled(roll=r) for r in get_ruleset(s.ruleset).crit_ops)),
    "drop_zone": in_setup(lambda s: (ev.DropZoneChosen(player=p, drop_zone=drop_zone_name(s)) for p in s.players)),
    "equipment": in_setup(lambda s: _equipment(s)),
    "set_up": in_setup(lambda s: (ev.OperativeSetUp(operative=o.id) for o in s.operatives.values() if not o.set_up)),
    # turning points and the strategy phase (pg 36-37)
    "start_tp": lambda s: iter([ev.TurningPointStarted(turning_point=s.turning_point + 1)] if s.phase in ("setup", "between") else []),
    "gambit": in_strategy(lambda s: _gambits(s)),
    "pass": in_strategy(each_player(lambda p: ev.GambitPassed(player=p))),
    # the firefight phase (pg 38-39)
    "activate": _activate,
    "counteract": _counteract,
    "reposition": action(ev.Repositioned),
    "dash": action(ev.Dashed),
    "fall_back": action(ev.FellBack),
    "charge": of_active(lambda s, op: (ev.Charged(operative=op.id, targets=(t.id,)) for t in enemies(s, op))),
    "shoot": of_active(shots),
    "fight": of_active(_fight),
    "mission": of_active(_mission),
    "pick_up": of_active(lambda s, op: (ev.MarkerPickedUp(operative=op.id, marker=m) for m in s.markers)),
    "place": of_active(lambda s, op: (ev.MarkerPlaced(operative=op.id, marker=m) for m in s.markers)),
    "unique": of_active(lambda s, op: (ev.UniqueActionPerformed(operative=op.id, action=a.name) for a in op.datacard.unique_actions)),
    "killzone": of_active(_killzone),
    "guard": _guard,
    "end_activation": action(ev.ActivationEnded),
    "ploy": lambda s: (ev.FirefightPloyUsed(player=p, ploy="a ploy", cp=0) for p in turn_order(s)) if s.phase == "firefight" else iter(()),
    "control": lambda s: iter([ev.ObjectivesControlled(control=dict.fromkeys(s.markers))] if s.phase == "firefight" and s.markers else []),
    "end_tp": lambda s: iter([ev.TurningPointEnded(turning_point=s.turning_point)] if s.phase == "firefight" else []),
    # what happens outside the sequence
    "damage": in_battle(lambda s: (ev.DamageInflicted(operative=o.id, damage=0, source="other") for o in living(s))),
    "regain": in_battle(lambda s: (ev.WoundsRegained(operative=o.id, wounds=1, reason="a rule") for o in living(s) if o.wounded)),
    "apl": in_battle(lambda s: (ev.AplModified(operative=o.id, delta=1, reason="a rule") for o in living(s))),
    "cp": lambda s: (ev.CommandPointsAdjusted(player=p, delta=1, reason="a rule") for p in turn_order(s)) if s.phase != "over" else iter(()),
    "resource": lambda s: (
        (ev.ResourceAdjusted(player=p, resource=r, delta=1) for p in turn_order(s) for r in s.players[p].resources) if s.phase != "over" else iter(())
    ),
    "concede": lambda s: (ev.GameConceded(player=p) for p in turn_order(s)) if s.phase != "over" else iter(()),
    "report": lambda s: iter([_reported(s)] if len(s.players) > 1 and (s.result is None or s.result.ended_by == "report") else []),
}
"""The kinds of move every ruleset has, by name, with their candidates."""

SHOOTING: dict[str, Callable[..., ev.Shot]] = {"shoot": ev.Shot, "guard": GUARD_SHOT}
"""The shared kinds of move that are shooting attacks, and how their events are made (a shot from
guard is a Shot too); a ruleset's own are in its moves module's SHOOTING (`shooting`)."""


class DiceExpected(msgspec.Struct, frozen=True):
    """The dice an attack takes (a face's dice entry asks for these)."""

    attack: int
    """The attacker's attack dice (a weapon's Atk, less those Accurate retains, pg 111)."""
    defence: int
    """Shooting: the most defence dice the target rolls (pg 42, Piercing pg 111; cover retains
    one, pg 42). Fighting: the target's attack dice (its weapon's Atk, pg 45; 0 without one)."""


def dice_expected(
    state: GameState,
    operative: str,
    weapon: str,
    target: str,
    *,
    target_weapon: str | None = None,
    accurate: int = 0,
    cover: bool = False,
    invulnerable: bool = False,
) -> DiceExpected:
    """How many dice a shot (a ranged `weapon`) or a fight (a melee one, with `target_weapon`)
    of `operative` against `target` takes, as this ruleset plays the weapon (KT21: DF defence
    dice, an invulnerable save keeps them all, 004)."""
    victim = state.operatives[target]
    armed = weapon_of(state, operative, weapon)
    if armed.kind == "melee":
        theirs = next((w for w in melee(state, victim) if w.name == target_weapon), None) if target_weapon else None
        return DiceExpected(armed.atk, theirs.atk if theirs else 0)
    profile = weapon_rules(state, operative, weapon)
    collected = victim.datacard.defence if invulnerable else defence_dice_collected(profile, False, victim.datacard.defence)
    return DiceExpected(expected_attack_dice(armed, accurate), max(0, collected - (cover and not profile.saturate)))


def weapon_of(state: GameState, operative: str, weapon: str) -> ev.Weapon:
    """The operative's weapon of that name (its datacard's, or its player's equipment)."""
    return next(w for w in weapons_of(state, state.operatives[operative]) if w.name == weapon)


def weapon_rules(state: GameState, operative: str, weapon: str) -> WeaponProfile:
    """The weapon's rules as this ruleset plays them (KT21's Hot takes no Hot roll)."""
    return played(state, weapon_of(state, operative, weapon))


def played(state: GameState, weapon: ev.Weapon) -> WeaponProfile:
    """A weapon's rules as the game's ruleset plays them (the shoot dialog's keys ask it)."""
    return weapon_profile(get_ruleset(state.ruleset).weapon_as_played(weapon).rules)


@cache
def ruleset_moves(ruleset: Ruleset) -> dict[str, Candidates]:
    """The kinds of move only this ruleset has (its `moves` module's MOVES)."""
    return importlib.import_module(ruleset.moves).MOVES if ruleset.moves else {}


def shooting(ruleset: Ruleset, kind: str) -> Callable[..., ev.Shot]:
    """How a shooting kind's events are made: a shared kind's (SHOOTING), else the ruleset's own
    (its moves module's SHOOTING: KT21's Overwatch is an OverwatchFired)."""
    own = getattr(importlib.import_module(ruleset.moves), "SHOOTING", {}) if ruleset.moves else {}
    return SHOOTING.get(kind) or own[kind]


class Moves:
    """The legal moves from one state, worked out as they are asked for and kept."""

    def __init__(self, state: GameState, override: str | None = None):
        """`override`: the moves are those the rules accept with this reason (see `Trial.override`)."""
        self.state = state
        self.trial = Trial(state, override)
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

    def legal(self, kind: str) -> bool:
        """Whether any move of this kind is legal now (stops at the first that is)."""
        if kind not in self._legal:
            if kind in self._options:
                self._legal[kind] = bool(self._options[kind])
            else:
                self._legal[kind] = any(self._accepts(kind, e) for e in self.candidates(kind))
        return self._legal[kind]

    def options(self, kind: str) -> list[ev.Event]:
        """Every legal move of this kind, in the order they are offered."""
        if kind not in self._options:
            self._options[kind] = [e for e in self.candidates(kind) if self._accepts(kind, e)]
        return self._options[kind]

    def part_of(self, kind: str) -> bool:
        """Whether the game's ruleset has this kind of move at all."""
        return kind in MOVES or kind in ruleset_moves(self.ruleset)

    def candidates(self, kind: str) -> Iterator[ev.Event]:
        """The kind's candidates that are events of this ruleset (the others are not tried)."""
        if not self.part_of(kind):
            return
        for event in (MOVES.get(kind) or ruleset_moves(self.ruleset)[kind])(self.state):
            if type(event) in self.ruleset.events or event.meta:  # a meta event is every ruleset's (the reducer's rule)
                yield event
            else:
                self._foreign.add(kind)

    def foreign(self, kind: str) -> bool:
        """Whether the kind is no part of this ruleset (checked once its candidates were tried)."""
        return kind in self._foreign or not self.part_of(kind)

    def refusal(self, kind: str) -> KtlogError | None:
        """Why the rules refused the kind's first candidate, if they did (None when it is legal)."""
        return None if self.legal(kind) else self._refusals.get(kind)

    def refused_event(self, kind: str) -> ev.Event | None:
        """The first candidate the rules refused, if any."""
        self.legal(kind)
        return self._refused.get(kind)

    def shot_targets(self, op: OperativeState, kind: str = "shoot", weapon: ev.Weapon | None = None) -> list[str]:
        """The enemies `op` may shoot (Shoot, or Overwatch) with `weapon`, or with one of its
        weapons: each is tried with the first weapon first, so a target usually costs one trial."""
        weapons = [weapon] if weapon else ranged(self.state, op)
        return [t.id for t in enemies(self.state, op) if any(self._accepts(kind, shot_probe(op, w, t.id, shooting(self.ruleset, kind))) for w in weapons)]

    def shot_weapons(self, op: OperativeState, target: str, kind: str = "shoot") -> list[ev.Weapon]:
        """The weapons of `op` that may shoot `target`."""
        return [w for w in ranged(self.state, op) if self._accepts(kind, shot_probe(op, w, target, shooting(self.ruleset, kind)))]

    def _accepts(self, kind: str, event: ev.Event) -> bool:
        shared = self._action_key(event)
        if shared in self._refused_actions:
            return False
        refusal = self.trial.refusal(event)
        if refusal is not None:
            if kind not in self._refusals:
                self._refusals[kind], self._refused[kind] = refusal, event
            if shared and isinstance(event, ev.Action) and self._shared_refusal(event) == str(refusal):
                self._refused_actions.add(shared)
        return refusal is None

    def _action_key(self, event: ev.Event) -> tuple | None:
        """What the checks every action shares depend on (`check_action`): two candidates with
        the same key, a shot at each enemy say, pass or fail them alike."""
        if not isinstance(event, ev.Action) or event.operative not in self.state.operatives:
            return None
        guard = getattr(event, "guard", False)  # an interrupt from guard is checked apart (pg 70)
        return (event.operative, event.counts_as, printed_cost(self.state.operatives[event.operative], event), event.ap, guard)

    def _shared_refusal(self, event: ev.Action) -> str | None:
        """Why the checks every action shares refuse `event` (None: they pass). Only a refusal
        that is theirs rules out its key's other candidates: an Overwatch between activations
        (KT21) fails them and is legal."""
        event = self.trial.overridden(event)
        try:
            check_action(Ctx(self.state, event, self.state.seq + 1, self.ruleset), event)
        except KtlogError as exc:
            return str(exc)
        return None


# --- what comes next ---------------------------------------------------------------------------


def owner(s: GameState, event: ev.Event) -> str | None:
    """Whose move an event is: its player's, or its operative's player's (None: neither)."""
    player = getattr(event, "player", None)
    if isinstance(player, str):
        return player
    operative = getattr(event, "operative", None)
    op = s.operatives.get(operative) if isinstance(operative, str) else None
    return op.player if op else None


def _said(words: str, line: str) -> tuple[str, str]:
    """A next step as the command line says it (the words, then the event's line) and in words alone."""
    return f"{words}: {line}", words


def _roll_off(s: GameState, e: ev.RolledOff) -> tuple[str, str]:
    return _said(
        f"the {e.purpose} roll-off, {listing(list(e.rolls))} each roll a D6", f"RolledOff purpose={e.purpose} rolls={','.join(f'{p}:D6' for p in e.rolls)}"
    )


def _set_up(s: GameState, e: ev.OperativeSetUp) -> tuple[str, str]:
    player = s.operatives[e.operative].player
    ops = s.operatives_of(player)
    where = " x=INCHES y=INCHES" if s.layout is not None else ""  # a game with positions: where, in its drop zone
    return _said(
        f"{player} sets up the next third of their kill team ({sum(o.set_up for o in ops)} of {len(ops)} set up)", f"OperativeSetUp operative=ID{where}"
    )


def _activation(s: GameState, e: ev.Event) -> tuple[str, str]:
    assert s.activation is not None, "asked only while an operative is active"
    op = s.operatives[s.activation.operative]
    active = f"{op.id} ({op.player}) is active, {ap_left(op.apl, s.activation.ap_spent)}: an action, or"
    return f"{active} ActivationEnded operative={op.id}", f"{active} end its activation"


def _ploys(s: GameState, player: str, kind: str) -> str:
    """ " (their strategy ploys: Seize Ground 1CP, ...)", when the roster lists some."""
    ploys = [f"{p.name} {p.cp}CP" for p in s.players[player].ploys if p.kind == kind]
    return f" (their {kind} ploys: {', '.join(ploys)})" if ploys else ""


def _gambit(s: GameState, e: ev.StrategicGambitUsed) -> tuple[str, str]:
    ploys = _ploys(s, e.player, "strategy")
    line = f"{e.player}'s strategic gambit: StrategicGambitUsed player={e.player} gambit=NAME{ploys}, or GambitPassed player={e.player}"
    return line, f"{e.player}'s strategic gambit, or a pass{ploys}"


NEXT_WORDS: dict[str, Callable[[GameState, Any], tuple[str, str]]] = {
    "roll_off": _roll_off,
    "initiative": lambda s, e: _said(f"{s.decider or e.player} decides who has initiative", "InitiativeDecided player=NAME"),
    "marker": lambda s, e: _said(f"{e.player} sets up an objective marker", f"ObjectiveMarkerSetUp player={e.player} marker={e.marker}"),
    "crit_op": lambda s, e: _said("the crit op's D3", "CritOpRolled roll=1|2|3"),
    "drop_zone": lambda s, e: _said(f"{e.player} chooses a drop zone", f"DropZoneChosen player={e.player} drop_zone={e.drop_zone}"),
    "equipment": lambda s, e: _said(f"{e.player} selects equipment", f"EquipmentSelected player={e.player} equipment=ITEM,ITEM"),
    "set_up": _set_up,
    "start_tp": lambda s, e: (
        f"turning point {e.turning_point}: TurningPointStarted turning_point={e.turning_point}",
        f"turning point {e.turning_point} starts",
    ),
    "gambit": _gambit,
    "pass": lambda s, e: _said(f"{e.player} passes", f"GambitPassed player={e.player}"),
    "activate": lambda s, e: _said(f"{owner(s, e)} activates an operative", "OperativeActivated operative=ID order=engage|conceal"),
    "end_activation": _activation,
    "end_tp": lambda s, e: (
        f"the end of turning point {s.turning_point}: TurningPointEnded turning_point={s.turning_point}",
        f"turning point {s.turning_point} ends",
    ),
}
"""How each step of the game's sequence is said when it is the next one, who and what: as the
command line says it (with the event as `ktlog event` takes it), and in words alone."""


def next_step(state: GameState) -> str | None:
    """The step the game expects next and whose it is (who rolls off, who decides initiative,
    whose activation, which set-up third), with its event as `ktlog event` takes it, as the
    record screen's action bar knows it; None once the game is over."""
    found = next_steps(state)
    return found[0] if found else None


def next_sentence(state: GameState) -> str | None:
    """The next step in words alone ("Bob activates an operative"), for a player's phone."""
    found = next_steps(state)
    return found[1] if found else None


def next_steps(state: GameState) -> tuple[str, str] | None:
    """The next step both ways (`next_step`, `next_sentence`), worked out once for a reply that
    says both; None once the game is over."""
    if state.phase == "over":
        return None
    moves = Moves(state)
    for kind, words in NEXT_WORDS.items():
        if kind == "roll_off" and state.decider is not None:
            continue  # the roll-off is decided: its winner decides (rolling again is refused, pg 55)
        options = moves.options(kind) if moves.part_of(kind) else []
        if options:
            return words(state, options[0])
    for kind in ruleset_moves(moves.ruleset):  # a ruleset's own step (Approved Ops scouting ...)
        if options := moves.options(kind):
            who = owner(state, options[0]) or "the players"
            return f"{who}: {type(options[0]).__name__}", f"{who}: {kind.replace('_', ' ')}"
    return None


def hit_as_used(op: OperativeState, weapon: ev.Weapon) -> int:
    """A weapon's Hit as an attack uses it (worse when injured, pg 47): what the dialogs show."""
    return hit_stat(op, weapon)
