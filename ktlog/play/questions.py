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
from ..text.event_text import SHOT_SHORTHAND, field_defaults, field_shape, field_types
from .moves import Moves, dice_expected, owner

FIELD_KIND: dict[str, QuestionKind] = {"player": "player", "operative": "operative", "target": "target", "targets": "target", "operatives": "operatives"}
"""The kind of question a field chosen from the legal events is (any other: an option)."""


def operative_label(op: OperativeState) -> str:
    """An operative as a choice: id, datacard, wounds, order."""
    return f"{op.id} · {op.datacard.name} · {max(op.wounds, 0)}/{op.datacard.wounds}W · {op.order}"


def number(field: str, label: str, hint: str = "", *, optional: bool = False, default: str | None = None) -> Question:
    return Question(field, "number", label, shape="N", hint=hint, optional=optional, default=default)


def text(field: str, label: str, hint: str = "", *, default: str | None = None) -> Question:
    return Question(field, "text", label, hint=hint, default=default)


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
    if s.activation is None or not any(op.in_killzone for op in s.operatives_of(e.player)):
        return questions
    active_id = s.activation.operative
    own = sorted((op for op in s.operatives_of(e.player) if op.in_killzone), key=lambda op: op.id != active_id)
    used_on = Question("operative", "operative", "used on which operative", choices=tuple(Choice(op.id, operative_label(op)) for op in own), optional=True)
    return (*questions, used_on)


def _amount(field: str, label: str, hint: str) -> Any:
    return lambda s, e: (number(field, label, hint), text("reason", "the rule"))


# --- the attacks: their dice -----------------------------------------------------------------


def _shot_dice(s: GameState, events: list[Any]) -> tuple[Question, ...]:  # Shot events
    """Each legal weapon and target's attack dice and defence dice at most (no cover: cover
    takes one away, pg 42), and the flags a shot may have."""
    attack, defence = [], []
    for e in events:
        target = e.attacks[0].target
        expected = dice_expected(s, e.operative, e.weapon, target)
        when = {"weapon": e.weapon, "target": target}
        attack.append(DiceGroup("attack dice", count=expected.attack, when=when))
        defence.append(DiceGroup("defence dice", most=expected.defence, when=when))
    return (
        Question("dice", "dice", "attack dice", shape="DICE", dice=tuple(attack)),
        Question("saves", "dice", "defence dice", shape="DICE", dice=tuple(defence)),
        _flag("cover", "in cover"),
        _flag("obscured", "obscured"),
    )


def _flag(field: str, label: str) -> Question:
    return Question(field, "option", label, shape="BOOL", choices=(Choice("false", "no"), Choice("true", "yes")), optional=True)


def shots_described(moves: Moves, kind: str) -> list[Move]:
    """A shot's shooter, target and weapon from the legal shots (quick probes, one target each)."""
    events = moves.options(kind)
    return _group(moves, kind, events, asked=("operative", "target", "weapon"), values=_shot_values, more=_shot_dice(moves.state, events))


def _shot_values(e: Any) -> dict[str, Any]:  # a Shot
    return {"operative": e.operative, "target": e.attacks[0].target, "weapon": e.weapon}


def _fights(moves: Moves) -> list[Move]:
    """A fight's target (and the action, when a killzone's Fight action may be taken) and both
    weapons, with both sides' attack dice (pg 45)."""
    s = moves.state
    events: list[Any] = moves.options("fight")  # Fought events
    mine, theirs, weapons = [], [], []
    for e in events:
        expected = dice_expected(s, e.operative, e.weapon, e.target)
        mine.append(DiceGroup(e.operative, count=expected.attack, when={"weapon": e.weapon}))
        for w in melee(s, s.operatives[e.target]):
            weapons.append(Choice(w.name, f"{w.name} (Atk {w.atk}, Hit {w.hit}+)", when={"target": (e.target,)}))
            retaliating = dice_expected(s, e.operative, e.weapon, e.target, target_weapon=w.name).defence
            theirs.append(DiceGroup(e.target, count=retaliating, when={"target": e.target, "target_weapon": w.name}))
    extra = (
        Question("target_weapon", "option", "the target's weapon", choices=_distinct(weapons), optional=True),
        Question("attack_dice", "dice", "attack dice", shape="DICE", dice=_distinct(mine)),
        Question("target_dice", "dice", "the target's attack dice", shape="DICE", dice=_distinct(theirs), optional=True),
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
    Kind("charge", "Charge", "c"),
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
            if (q := _question(s, f, chosen, asked)) is not None:
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


def _question(s: GameState, field: str, chosen: list[dict[str, Any]], asked: tuple[str, ...]) -> Question | None:
    """The question of one asked field: its values in order, each with the earlier answers it
    is legal with; None when every legal event holds the same value (it is fixed)."""
    values = list(dict.fromkeys(value_text(c[field]) or "" for c in chosen))
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
        choices.append(Choice(v, _choice_label(s, field, v), when))
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


def _choice_label(s: GameState, field: str, value: str) -> str:
    first = value.split(",")[0]
    if field in ("operative", "target", "targets") and first in s.operatives:
        return ", ".join(operative_label(s.operatives[v]) for v in value.split(","))
    if field == "roll" and value.isdigit() and (crit := RULESETS[s.ruleset].crit_ops.get(int(value))):
        return f"{crit} (D3 roll {value})"
    return value
