"""The legal moves of a state as data (`ktlog.rules.questions`): each kind of move with its
label, the key the record screen gives it, and its questions with their legal values, from which
an event line (`TYPE field=value ...`, as `ktlog event` takes it) is built.

The shared kinds are described here (KINDS); a ruleset's own kinds in its `moves` module's
KINDS. Most kinds are described from their legal events (ktlog.play.moves): the fields a person
chooses (`Kind.asked`) become questions whose choices are the values the legal events hold, the
fields the rules take as given (an amount, a reason, a ploy's name) questions of their own
(`Kind.free`); the attacks add their dice (`dice_expected`).
"""

from __future__ import annotations

import importlib
import itertools
import re
import shlex
from collections.abc import Iterable
from functools import cache
from typing import Any, cast

import msgspec

from .. import events as ev
from ..rules.candidates import melee
from ..rules.questions import Choice, DiceGroup, Kind, Move, Question, QuestionKind, Table, value_text
from ..rules.ruleset import Ruleset
from ..rulesets import RULESETS
from ..state import GameState, OperativeState
from ..text.describe import describe
from ..text.event_text import SHOT_SHORTHAND, event_line, field_defaults, field_shape, field_types
from .moves import Moves, dice_expected, hit_as_used, owner, weapon_of, weapon_rules

FIELD_KIND: dict[str, QuestionKind] = {"player": "player", "operative": "operative", "target": "target", "targets": "target", "operatives": "operatives"}
"""The kind of question a field chosen from the legal events is (any other: an option)."""


def operative_label(op: OperativeState) -> str:
    """An operative as a choice: id, datacard, wounds, order."""
    return f"{op.id} · {op.datacard.name} · {max(op.wounds, 0)}/{op.datacard.wounds}W · {op.order}"


def number(field: str, label: str, hint: str = "", *, optional: bool = False, default: str | None = None) -> Question:
    return Question(field, "number", label, shape="N", hint=hint, optional=optional, default=default)


def text(field: str, label: str, hint: str = "", *, default: str | None = None, optional: bool = False) -> Question:
    return Question(field, "text", label, hint=hint, default=default, optional=optional)


def options(field: str, label: str, values: Iterable[tuple[Any, str]], **more: Any) -> Question:
    """A question answered by one of `values` ((value, label) pairs)."""
    return Question(field, "option", label, choices=tuple(Choice(str(v), lab) for v, lab in values), **more)


def ploy_questions(kind: str):
    """A ploy by name, the roster's first (another may be typed), and its CP when not the roster's."""

    def free(s: GameState, e: Any) -> tuple[Question, ...]:  # a ploy event: its player
        ploys = [p for p in s.players[e.player].ploys if p.kind == kind]
        field = "gambit" if kind == "strategy" else "ploy"
        return (
            options(field, f"{kind.title()} ploy used by {e.player}", ((p.name, f"{p.name} ({p.cp}CP)") for p in ploys), other=True),
            number("cp", "its CP", "if not the roster's (1 for a ploy it does not list)", optional=True),
        )

    return free


def _ploy_operative(s: GameState, e: Any) -> tuple[Question, ...]:  # a FirefightPloyUsed
    questions = ploy_questions("firefight")(s, e)
    if not any(op.in_killzone for op in s.operatives_of(e.player)):
        return questions
    active_id = s.activation.operative if s.activation else None
    own = sorted((op for op in s.operatives_of(e.player) if op.in_killzone), key=lambda op: op.id != active_id)  # the active one first
    used_on = Question("operative", "operative", "used on which operative", choices=tuple(Choice(op.id, operative_label(op)) for op in own), optional=True)
    return (*questions, used_on)


def _amount(field: str, label: str, hint: str) -> Any:
    return lambda s, e: (number(field, label, hint), text("reason", "the rule"))


# --- the attacks: their dice -----------------------------------------------------------------


def _shot_dice(s: GameState, events: list[Any]) -> tuple[Question, ...]:  # Shot events
    """Everything a shot may hold, each question with the dice the rules expect for the answers
    before it: cover and obscured, Accurate and an invulnerable save when the weapon and target
    have them, the attack dice (Atk less Accurate, pg 111), the defence dice (three, less
    Piercing, less one retained in cover, pg 42-43), the Hot roll after shooting (pg 111), the
    re-rolls, and the damage alone (quick mode)."""
    attack, defence, hot, accurate, invulnerable = [], [], [], [], []
    for e in events:
        shooter, weapon, target = e.operative, e.weapon, e.attacks[0].target
        profile = weapon_rules(s, shooter, weapon)
        has_invulnerable = s.operatives[target].datacard.invulnerable_save is not None
        for retained in range(profile.accurate + 1):
            given = {"weapon": weapon} | ({"accurate": str(retained)} if profile.accurate else {})
            attack.append(DiceGroup("attack dice", count=dice_expected(s, shooter, weapon, target, accurate=retained).attack, when=given))
        for cover, invulnerable_save in itertools.product((False, True), (False, True) if has_invulnerable else (False,)):
            given = {"weapon": weapon, "target": target, "cover": _yes(cover)} | ({"invulnerable": _yes(invulnerable_save)} if has_invulnerable else {})
            rolled = dice_expected(s, shooter, weapon, target, cover=cover, invulnerable=invulnerable_save).defence
            crits = 0 if invulnerable_save else max(0, profile.piercing_crits - profile.piercing)
            if crits and rolled:  # Piercing Crits x: fewer dice once a critical hit is retained (pg 111)
                hint = f"{rolled} dice, or {max(0, rolled - crits)} if a critical hit is retained (Piercing Crits {profile.piercing_crits})"
                defence.append(DiceGroup("defence dice", most=rolled, when=given, hint=hint))
            else:
                defence.append(DiceGroup("defence dice", count=rolled, when=given))
        if profile.hot:
            hot.append(DiceGroup("Hot roll", count=1, when={"weapon": weapon}))
        accurate += [Choice(str(n), f"{n} retained" if n else "none", when={"weapon": (weapon,)}) for n in range(profile.accurate + 1) if profile.accurate]
        if has_invulnerable:
            invulnerable += [Choice(v, label, when={"target": (target,)}) for v, label in (("false", "no"), ("true", "yes"))]
    further = _further_targets(s, events)
    questions = (
        _flag("cover", "in cover"),
        _flag("obscured", "obscured"),
        Question("accurate", "option", "dice retained by Accurate", choices=_distinct(accurate), default="0", optional=True),
        Question(
            "invulnerable", "option", "its invulnerable save instead of its Save", shape="BOOL", choices=_distinct(invulnerable), default="false", optional=True
        ),
        Question("dice", "dice", "attack dice", shape="DICE", dice=_distinct(attack), optional=True),
        Question("saves", "dice", "defence dice", shape="DICE", dice=_distinct(defence), optional=True),
        *further,
        _splashed(s, events),
        Question("hot_roll", "dice", "Hot roll, after shooting", shape="N", dice=_distinct(hot)),
        *_rerolls("rerolls", "re-rolled attack dice"),
        *_rerolls("save_rerolls", "re-rolled defence dice"),
        number("damage", "damage alone (quick mode, no dice)", "the damage the target took, when the dice were not kept", optional=True),
    )
    return tuple(
        q for q in questions if q.kind not in ("option", "operatives", "dice") or q.choices or q.dice
    )  # Accurate, a Hot roll ...: only when a weapon has it


def _further_targets(s: GameState, events: list[Any]) -> tuple[Question, ...]:  # Shot events
    """A Blast or Torrent weapon's further targets after its first (pg 111), each with its own
    attack and defence dice, and which of them were in cover or obscured (the line's further=,
    further_dice=, further_saves=, further_cover=, further_obscured=). A Blast weapon's further
    targets are the other operatives within x" of the first, friend or foe; a Torrent weapon's,
    the other valid targets within x" of it: the players judge the distance, the rules the rest."""
    firsts: dict[tuple[str, str], list[str]] = {}
    for e in events:
        firsts.setdefault((e.operative, e.weapon), []).append(e.attacks[0].target)
    picks, attack, defence, flags = [], [], [], []
    for (shooter, weapon), targets in firsts.items():
        profile = weapon_rules(s, shooter, weapon)
        if not (profile.blast or profile.torrent):
            continue
        reached = targets if profile.torrent else [op.id for op in s.operatives.values() if op.in_killzone and not op.incapacitated and op.id != shooter]
        for other in reached:
            given = {"operative": shooter, "weapon": weapon, "further": other}
            picks.append(
                Choice(
                    other,
                    operative_label(s.operatives[other]),
                    when={"operative": (shooter,), "weapon": (weapon,), "target": tuple(t for t in targets if t != other)},
                )
            )
            attack.append(DiceGroup(other, count=dice_expected(s, shooter, weapon, other).attack, when=given))
            open_, covered = (dice_expected(s, shooter, weapon, other, cover=c).defence for c in (False, True))
            hint = f"{open_} dice, {covered} in cover" if covered != open_ else ""
            defence.append(DiceGroup(other, count=None if hint else open_, most=open_ if hint else None, when=given, hint=hint))
            flags.append(Choice(other, other, when={"weapon": (weapon,), "further": (other,)}))
    if not picks:
        return ()
    return (
        Question("further", "operatives", "further targets (Blast, Torrent)", shape="A,B", choices=_distinct(picks), many=True, optional=True, default=""),
        Question("further_dice", "dice", "attack dice against each further target", shape="ID:DICE,ID:DICE", dice=_distinct(attack)),
        Question("further_saves", "dice", "defence dice of each further target", shape="ID:DICE,ID:DICE", dice=_distinct(defence)),
        Question("further_cover", "operatives", "further targets in cover", shape="A,B", choices=_distinct(flags), many=True, optional=True, default=""),
        Question("further_obscured", "operatives", "further targets obscured", shape="A,B", choices=_distinct(flags), many=True, optional=True, default=""),
    )


def _splashed(s: GameState, events: list[Any]) -> Question:  # Shot events
    """The other operatives an x" Devastating weapon's retained critical hits reach: visible to
    and within x" of the target, friend or foe (pg 111; the line's splashed=ID,ID)."""
    choices = []
    for e in events:
        shooter, weapon, target = e.operative, e.weapon, e.attacks[0].target
        if not weapon_rules(s, shooter, weapon).devastating_splash:
            continue
        for op in s.operatives.values():
            if op.in_killzone and not op.incapacitated and op.id != target:
                choices.append(Choice(op.id, operative_label(op), when={"operative": (shooter,), "weapon": (weapon,), "target": (target,)}))
    label = 'operatives splashed (x" Devastating), if a critical hit was retained'
    return Question("splashed", "operatives", label, shape="A,B", choices=_merged(choices), many=True, optional=True, default="")


def _merged(choices: list[Choice]) -> tuple[Choice, ...]:
    """One choice a value and its earlier answers but the last, the last's values joined (an
    operative splashed from any of the targets it may be near)."""
    merged: dict[tuple, Choice] = {}
    for c in choices:
        *head, (last, values) = c.when.items()
        key = (c.value, tuple((f, v) for f, v in head))
        old = merged.get(key)
        merged[key] = c if old is None else msgspec.structs.replace(old, when={**old.when, last: (*old.when[last], *values)})
    return tuple(merged.values())


def _yes(flag: bool) -> str:
    return "true" if flag else "false"


def _rerolls(field: str, label: str) -> tuple[Question]:
    return (Question(field, "text", label, shape="DIE=RESULT/RULE ...", optional=True, hint="e.g. 2=5/balanced 4=6/command (die=new result/rule)"),)


def _flag(field: str, label: str) -> Question:
    return Question(field, "option", label, shape="BOOL", choices=(Choice("false", "no"), Choice("true", "yes")), optional=True, default="false")


def shots_described(moves: Moves, kind: str) -> list[Move]:
    """A shot's shooter, target and weapon from the legal shots (quick probes, one target each)."""
    events = moves.options(kind)
    return _group(moves, kind, events, asked=("operative", "target", "weapon"), values=_shot_values, more=_shot_dice(moves.state, events))


def _shot_values(e: Any) -> dict[str, Any]:  # a Shot
    return {"operative": e.operative, "target": e.attacks[0].target, "weapon": e.weapon}


def _fights(moves: Moves) -> list[Move]:
    """A fight's target (and the action, when a killzone's Fight action may be taken) and both
    weapons, with both sides' attack dice (pg 45) and their re-rolls, the assists (pg 45), the
    order of strikes and blocks, and the damage alone (quick mode)."""
    s = moves.state
    events: list[Any] = moves.options("fight")  # Fought events
    mine, theirs, weapons = [], [], []
    for e in events:
        expected = dice_expected(s, e.operative, e.weapon, e.target)
        mine.append(DiceGroup(e.operative, count=expected.attack, when={"weapon": e.weapon}))
        for w in melee(s, s.operatives[e.target]):
            weapons.append(Choice(w.name, weapon_label(s, e.target, w.name), when={"target": (e.target,)}))
            retaliating = dice_expected(s, e.operative, e.weapon, e.target, target_weapon=w.name).defence
            theirs.append(DiceGroup(e.target, count=retaliating, when={"target": e.target, "target_weapon": w.name}))
    extra = (
        Question("target_weapon", "option", "the target's weapon", choices=_distinct(weapons)),
        Question("attack_dice", "dice", "attack dice", shape="DICE", dice=_distinct(mine), optional=True),
        Question("target_dice", "dice", "the target's attack dice", shape="DICE", dice=_distinct(theirs), optional=True),
        *_rerolls("attack_rerolls", "re-rolled attack dice"),
        *_rerolls("target_rerolls", "the target's re-rolled attack dice"),
        number("assists", "friendly operatives assisting", "each one not within control range of another enemy (pg 45)", optional=True),
        number("target_assists", "operatives assisting the target", optional=True),
        text("steps", "strikes and blocks, in order", "one word a die, attacker first: s strike, b block; n normal, c critical (e.g. sc bn sn)", optional=True),
        number("damage", "damage to the target alone (quick mode, no dice)", optional=True),
        number("damage_taken", "damage taken alone (quick mode)", optional=True),
    )
    return _group(moves, "fight", events, asked=("action", "target", "weapon"), more=extra)


def _distinct(items: list) -> tuple:
    """The structs in order, each once (a struct holding a dict is not hashable)."""
    return tuple({msgspec.json.encode(i): i for i in items}.values())


def _rolloff(moves: Moves) -> list[Move]:
    """A roll-off: one D6 for each player who rolls (pg 55; the tied ones only, pg 99)."""
    moves_now = []
    for e in cast(list[ev.RolledOff], moves.options("roll_off")[:1]):
        dice = tuple(DiceGroup(p, count=1) for p in e.rolls)
        rolls = Question(
            "rolls", "dice", "each player's D6", shape="NAME:N,NAME:N", dice=dice, hint="NAME:ROLL for each player, e.g. " + ",".join(f"{p}:4" for p in e.rolls)
        )
        moves_now.append(Move("roll_off", "Roll off", "RolledOff", fixed={"purpose": e.purpose}, questions=(rolls,)))
    return moves_now


def _report(moves: Moves) -> list[Move]:
    """A result reported as a score (a tournament table's): each player's VP, the figures
    reported already offered (a player confirms them by sending them again)."""
    reported = cast(list[ev.ResultReported], moves.options("report"))
    if not reported:
        return []
    questions = tuple(number(f"vp.{p}", f"{p}'s VP", default=str(v)) for p, v in reported[0].vp.items())
    return [Move("report", "Report the result", "ResultReported", questions=questions)]


def _control(moves: Moves) -> list[Move]:
    """Who controls each objective marker (pg 85): a holder for each marker."""
    s = moves.state
    if not moves.options("control"):
        return []
    holders = (("", "nobody"), *((p, p) for p in s.players))
    questions = tuple(options(f"control.{m}", f"{m}: controlled by", holders, default=s.markers[m].controlled_by or "") for m in s.markers)
    return [Move("control", "Objectives", "ObjectivesControlled", questions=questions)]


# --- the shared kinds ------------------------------------------------------------------------

KINDS: tuple[Kind, ...] = (
    # set-up (pg 110, pg 81)
    Kind("roll_off", "Roll off", "o", describe=_rolloff),
    Kind("initiative", "Initiative", "i", asked=("player",)),
    Kind(
        "marker",
        "Objective marker",
        "m",
        free=lambda s, e: (text("marker", f"Objective marker {len(s.markers) + 1}, set up by {e.player}: its name", default=e.marker),),
    ),
    Kind("crit_op", "Crit op", "k", asked=("roll",)),
    Kind("drop_zone", "Drop zone", "z", free=lambda s, e: (text("drop_zone", f"Drop zone chosen by {e.player}", default=e.drop_zone),)),
    Kind(
        "equipment",
        "Equipment",
        "q",
        free=lambda s, e: (
            options(
                "equipment",
                f"Equipment selected by {e.player}",
                ((x.name, x.name) for x in s.players[e.player].equipment_options),
                other=True,
                many=True,
                optional=True,
            ),
        ),
    ),
    Kind("set_up", "Set up operative", "u", asked=("operative",)),
    # turning points and the strategy phase (pg 36-37)
    Kind("start_tp", "Start turning point", "t"),
    Kind("gambit", "Gambit", "g", free=ploy_questions("strategy")),
    Kind("pass", "Pass", "p"),
    # the firefight phase (pg 38-39)
    Kind("activate", "Activate", "a", asked=("operative",), free=lambda s, e: (options("order", "its order", (("engage", "Engage"), ("conceal", "Conceal"))),)),
    Kind("counteract", "Counteract", "x"),
    Kind("reposition", "Reposition", "r", exact=True),
    Kind("dash", "Dash", "d", exact=True),
    Kind("fall_back", "Fall Back", "b", exact=True),
    Kind("charge", "Charge", "c", asked=("targets",)),
    Kind("shoot", "Shoot", "s", describe=lambda moves: shots_described(moves, "shoot")),
    Kind("fight", "Fight", "f", describe=_fights),
    Kind("mission", "Mission action", "m"),
    Kind("pick_up", "Pick up marker", "p"),
    Kind("place", "Place marker", "P"),
    Kind("unique", "Unique action", "u"),
    Kind("killzone", "Killzone action", "k"),
    Kind("guard", "Interrupt from guard", "I"),
    Kind("end_activation", "End activation", "e", exact=True),
    Kind("ploy", "Ploy", "y", free=_ploy_operative),
    Kind("control", "Objectives", "o", describe=_control),
    Kind("end_tp", "End turning point", "t", exact=True),
    # the kill team's own resources, counted at any moment (its roster names them)
    Kind("resource", "Resource", "h", free=lambda s, e: (number("delta", "count it up or down", "+1 or -1"), text("reason", "why"))),
    # rare steps
    Kind(
        "damage",
        "Damage from outside an attack",
        "1",
        asked=("operative",),
        free=lambda s, e: (number("damage", "damage"), options("source", "from", ((x, x) for x in ("mine", "devastating", "hot", "other")), default="other")),
        more=True,
    ),
    Kind("regain", "Wounds regained", "2", asked=("operative",), free=_amount("wounds", "wounds", "e.g. 2 Medic!"), more=True),
    Kind("apl", "APL change", "3", asked=("operative",), free=_amount("delta", "APL change", "+1 or -1, e.g. -1 Stun"), more=True),
    Kind("cp", "CP adjustment", "4", free=_amount("delta", "CP", "+1 or -1, e.g. +1 Strategic Mastery"), more=True),
    Kind("concede", "Concede", "5", more=True),
    Kind("report", "Report the result", "6", describe=_report, more=True),
)
"""The kinds of move every ruleset has (ktlog.play.moves.MOVES), in the order of the game's sequence."""


def _moves_module(ruleset: Ruleset) -> Any:
    return importlib.import_module(ruleset.moves) if ruleset.moves else None


@cache
def kinds(ruleset: Ruleset) -> tuple[Kind, ...]:
    """The kinds of move of a game of this ruleset, in the order of the game's sequence: the
    shared kinds, each of the ruleset's own (its `moves` module's KINDS) after the kind it names."""
    order = list(KINDS)
    own: list[Kind] = []
    for kind in getattr(_moves_module(ruleset), "KINDS", ()):
        at = max((i for i, k in enumerate(order) if k.name == kind.after or (k in own and k.after == kind.after)), default=len(order) - 1)
        order.insert(at + 1, kind)
        own.append(kind)
    return tuple(order)


def every_kind() -> tuple[Kind, ...]:
    """The kinds of move of every ruleset offered, each once, in the order of the sequence."""
    shared = [k.name for k in KINDS]
    found: dict[str, Kind] = {}
    for ruleset in RULESETS.values():
        for kind in kinds(ruleset):
            found.setdefault(kind.name, kind)

    def place(kind: Kind) -> tuple[int, int]:
        if kind.name in shared:
            return shared.index(kind.name), 0
        return (shared.index(kind.after) if kind.after in shared else len(shared)), 1

    return tuple(sorted(found.values(), key=place))


def kind_named(ruleset: Ruleset, name: str) -> Kind:
    return next(k for k in kinds(ruleset) if k.name == name)


# --- describing the legal events ------------------------------------------------------------


def describe_kind(moves: Moves, name: str) -> list[Move]:
    """The moves of one kind legal now (none when the kind is not legal or not the ruleset's)."""
    if not moves.part_of(name) or not moves.legal(name):
        return []
    kind = kind_named(moves.ruleset, name)
    if kind.describe is not None:
        return kind.describe(moves)
    return _group(moves, name, moves.options(name), asked=kind.asked, free=kind.free)


def legal_moves(moves: Moves) -> list[Move]:
    """Every move legal now, in the order of the game's sequence."""
    return [m for kind in kinds(moves.ruleset) for m in describe_kind(moves, kind.name)]


def table(state: GameState) -> Table:
    """The players in player order, and the NPO side if there is one."""
    ruleset = RULESETS[state.ruleset]
    return Table(state.ruleset, tuple(ruleset.player_order(state)), ruleset.npo_side(state))


def _fields(e: ev.Event, names: Iterable[str]) -> dict[str, Any]:
    return {f: getattr(e, f) for f in names}


def _group(
    moves: Moves,
    name: str,
    events: list[ev.Event],
    *,
    asked: tuple[str, ...] = (),
    free: Any = None,
    values: Any = None,
    more: tuple[Question, ...] = (),
) -> list[Move]:
    """The legal events of a kind as moves: one for each event type and everything not asked
    (the player, the operative ...), with a question for each asked field, its choices the
    values the legal events hold (each legal only with the earlier answers it was legal with)."""
    s = moves.state
    kind = kind_named(moves.ruleset, name)
    values = values or (lambda e: _fields(e, asked))
    groups: dict[tuple, list[ev.Event]] = {}
    for e in events:
        given = {f: v for f, v in _given(e, free, s).items() if f not in asked}
        groups.setdefault((type(e).__name__, tuple(given.items())), []).append(e)
    found = []
    for (event_type, given), group in groups.items():
        fixed = {f: text for f, v in given if (text := value_text(v)) is not None}
        chosen = [values(e) for e in group]
        questions = []
        for f in asked:
            if (q := _question(s, f, chosen, asked, group)) is not None:
                questions.append(q)
            elif (v := value_text(chosen[0][f])) is not None:  # one legal value: decided
                fixed[f] = v
        questions += [*(free(s, group[0]) if free else ()), *more]
        questions.sort(key=lambda q: kind.first.index(q.field) if q.field in kind.first else len(kind.first))
        player = fixed.get("player") or (None if "player" in asked else owner(s, group[0]))
        label = describe(group[0]) if not questions else kind.label + (f": {', '.join(fixed.values())}" if fixed and len(groups) > 1 else "")
        found.append(Move(name, label, event_type, player, fixed, tuple(questions)))
    return found


def _given(e: ev.Event, free: Any, s: GameState) -> dict[str, Any]:
    """The event's fields that are neither asked by a free question nor left at their default."""
    cls = type(e)
    asked_free = {q.field for q in free(s, e)} if free else set()
    defaults = field_defaults(cls)
    skip = {"override", "version", "meta", *asked_free}
    if issubclass(cls, ev.Shot | ev.Fought):
        skip |= {"attacks", "damage", "damage_taken", "target_weapon", "hot_roll"}
    return {f: getattr(e, f) for f in cls.__struct_fields__ if f not in skip and not (f in defaults and getattr(e, f) == defaults[f])}


def _question(s: GameState, field: str, chosen: list[dict[str, Any]], asked: tuple[str, ...], events: list[ev.Event]) -> Question | None:
    """The question of one asked field: its values in order, each with the earlier answers it
    is legal with; None when every legal event holds the same value (it is fixed)."""
    values = list(dict.fromkeys(value_text(c[field]) or "" for c in chosen))
    armed = {value_text(c[field]): getattr(e, "operative", None) for c, e in zip(chosen, events)} if field == "weapon" else {}
    if len(values) < 2:
        return None
    earlier = asked[: asked.index(field)]
    choices = []
    for v in values:
        when = {}
        for f in earlier:
            with_it = tuple(dict.fromkeys(value_text(c[f]) or "" for c in chosen if (value_text(c[field]) or "") == v))
            every = tuple(dict.fromkeys(value_text(c[f]) or "" for c in chosen))
            if len(every) > 1 and set(with_it) != set(every):
                when[f] = with_it
        label = weapon_label(s, shooter, v) if (shooter := armed.get(v)) in s.operatives else _choice_label(s, field, v)
        choices.append(Choice(v, label, when))
    kind = FIELD_KIND.get(field, "option")
    return Question(field, kind, _FIELD_LABELS.get(field, field.replace("_", " ")), shape=_shape(field), choices=tuple(choices))


_FIELD_LABELS = {"operative": "which operative", "target": "which target", "targets": "which target", "weapon": "which weapon", "player": "which player"}


def _shape(field: str) -> str:
    if field in SHOT_SHORTHAND:
        return "ID" if field == "target" else "TEXT"
    for cls in ev.EVENT_TYPES.values():
        if field in cls.__struct_fields__:
            return field_shape(field_types(cls)[field])
    return "TEXT"


def weapon_label(s: GameState, operative: str, weapon: str) -> str:
    """A weapon as a choice, with its profile as the operative uses it: "Bolt rifle · ATK 4, HIT
    3+, DMG 3/4 · Piercing Crits 1" (its Hit worse when the operative is injured, pg 47)."""
    armed = weapon_of(s, operative, weapon)
    rules = ", ".join((*armed.rules, *(f"!{r}" for r in armed.critical_rules)))
    profile = f"ATK {armed.atk}, HIT {hit_as_used(s.operatives[operative], armed)}+, DMG {armed.normal_dmg}/{armed.crit_dmg}"
    return f"{weapon} · {profile}" + (f" · {rules}" if rules else "")


def _choice_label(s: GameState, field: str, value: str) -> str:
    first = value.split(",")[0]
    if field in ("operative", "target", "targets") and first in s.operatives:
        return ", ".join(operative_label(s.operatives[v]) for v in value.split(","))
    if field == "roll" and value.isdigit() and (crit := RULESETS[s.ruleset].crit_ops.get(int(value))):
        return f"{crit} (D3 roll {value})"
    return value


# --- a recorded event as a move's answers ------------------------------------------------------


def answers_from(move: Move, event: ev.Event) -> list[tuple[str, str]] | None:
    """The answers to `move`'s questions that make `event` again (its fixed fields first), as
    `ktlog event` writes its values: what a correction's form starts from. None when the move
    cannot make it (a fixed field holds another value). A field asked twice (two NPOs) takes
    its values one a question, in order."""
    written, defaults = _written(event), field_defaults(type(event))

    def value(field: str) -> str | None:
        if field in written:
            return written[field]
        return value_text(getattr(event, field)) if field in type(event).__struct_fields__ else None

    def answer(field: str) -> str | None:  # a field left at its default is left unanswered (assists=0)
        if field in defaults and field not in written and getattr(event, field) == defaults[field]:
            return None
        return value(field)

    if any(value(field) != fixed for field, fixed in move.fixed.items()):
        return None
    answers = list(move.fixed.items())
    shared = {q.field for q in move.questions if sum(o.field == q.field for o in move.questions) > 1}
    parts = {f: (value(f) or "").split(",") for f in shared}
    for q in move.questions:
        name, dot, part = q.field.partition(".")
        if dot:
            held = dict(pair.partition(":")[::2] for pair in (value(name) or "").split(",") if pair)
            answers.append((q.field, held.get(part, "")))
        elif q.field in parts:
            if parts[q.field] and parts[q.field][0]:
                answers.append((q.field, parts[q.field].pop(0)))
        elif (given := answer(q.field)) is not None:
            answers.append((q.field, given))
        elif q.kind == "option" and q.default is not None:  # left at its default (not in cover): said, so a form shows it as recorded
            answers.append((q.field, q.default))
    return answers


def _written(event: ev.Event) -> dict[str, str]:
    """The event's fields as its line writes them (a Shot's target= dice= saves= ...), by name."""
    return dict(word.partition("=")[::2] for word in shlex.split(event_line(event))[1:])


def refused_question(move: Move, answers: Iterable[tuple[str, str]], message: str, rule: str) -> Question | None:
    """The question the rules' refusal of a move's answers is about, for a face to mark: the one
    the rule names, else whose field or label the sentence says ("hot_roll", "defence dice"),
    else whose answer it names (an operative, a weapon); None when it names none of them."""
    said = message.casefold()
    given = dict(answers)
    by_label = sorted(move.questions, key=lambda q: -len(q.label))
    return (
        next((q for q in move.questions if q.field == rule), None)
        or next((q for q in move.questions if re.search(rf"\b{re.escape(q.field)}\b", message) and "_" in q.field), None)
        or next((q for q in by_label if q.label.casefold() in said), None)
        or next((q for q in move.questions if len(v := given.get(q.field, "")) > 1 and not v.isdigit() and v.casefold() in said), None)
    )


def in_player_words(move: Move, message: str) -> str:
    """A refusal's sentence with each field a person does not type by name (hot_roll) said as its question is asked."""
    for q in move.questions:
        if "_" in q.field:
            message = re.sub(rf"\b{re.escape(q.field)}\b", q.label.split(",")[0], message)
    return message
