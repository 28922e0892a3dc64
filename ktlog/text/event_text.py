"""An event as a person types it: `TYPE FIELD=VALUE ...`, the syntax of `ktlog event`, the record
screen's "type an event", a game file's lines and a seat's writes. `parse_event` reads a line;
`event_line` writes the line that reads back as the same event, and `answers_line` the line of a
move's answers (ktlog.play.questions).

Dice are digits (dice=6542), lists are comma separated (targets=gunner,sergeant), roll-offs are
NAME:ROLL pairs (rolls=Alice:4,Bob:2), fight steps are like "sc bnn sn", anything else is JSON
or text. A Shot at one target can use target=, dice=, saves=, cover=, obscured=,
splashed= (x" Devastating's other operatives).
"""

from __future__ import annotations

import difflib
import functools
import itertools
import json
import re
import shlex
import typing
from collections.abc import Iterable

import msgspec

from .. import events as ev
from .. import rulesets  # noqa: F401  (every ruleset's own event types registered)
from ..envelopes import canonical
from ..errors import KtlogError
from ..rules.questions import Move, Question
from .notation import format_dice, format_steps, parse_dice, parse_rerolls, parse_steps

SHOT_SHORTHAND = (
    "target",
    "dice",
    "saves",
    "cover",
    "obscured",
    "invulnerable",
    "accurate",
    "damage",
    "rerolls",
    "save_rerolls",
    "splashed",
    *(FURTHER := ("further", "further_dice", "further_saves", "further_cover", "further_obscured")),
)
"""A Shot's flat fields: its first target's, then a Blast or Torrent weapon's further targets
(further=ID,ID; further_dice=ID:DICE,ID:DICE, or DICE with one; further_saves the same;
further_cover and further_obscured the further targets in cover, obscured)."""
REROLLED = {"attack_rerolls": "attack_dice", "target_rerolls": "target_dice"}
"""A fight's re-rolled dice (2=5/balanced ...), each field beside the dice it re-rolls, as a
Shot's rerolls= and save_rerolls= are."""


def parse_event(line: str) -> ev.Event:
    """An event from one line, `TYPE FIELD=VALUE ...` (quote a value with spaces:
    reason="both flanks held"); an override is the field override=REASON. A word starting
    with # begins a comment, to the end of the line."""
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise KtlogError(f"{exc}: close the quotes around a value with spaces") from None
    words = list(itertools.takewhile(lambda w: not w.startswith("#"), words))
    if not words:
        raise KtlogError('type an event: TYPE FIELD=VALUE ..., e.g. TacOpScored player=Ana vp=2 reason="Flank"')
    return build_event(words[0], words[1:], None)


def answers_line(event_type: str, answers: Iterable[tuple[str, str]]) -> str:
    """The line `ktlog event` takes for an event type and the answers to a move's questions (its
    fixed fields first): a field answered twice takes both values (A,B), a field's part
    (`control.MARKER`) becomes a MARKER:VALUE pair, an empty answer leaves the field out."""
    fields: dict[str, list[str]] = {}
    for field, value in answers:
        name, dot, part = field.partition(".")
        if dot:
            fields.setdefault(name, []).append(f"{part}:{value}")
        elif value != "":
            fields.setdefault(name, []).append(value)
    return " ".join([event_type, *(f"{name}={shlex.quote(','.join(values))}" for name, values in fields.items())])


def move_usage(move: Move, most: int = 8) -> str:
    """A legal move as the line `ktlog event` takes, each question's legal values in place of
    its value (a|b|c, at most `most` of them), or its shape (DICE with how many, N, TEXT);
    FIELD? may be left out."""
    parts = [move.event, *(f"{f}={shlex.quote(v)}" for f, v in move.fixed.items())]
    parts_of: dict[str, list[str]] = {}
    for q in move.questions:
        name, dot, part = q.field.partition(".")
        values = _values(q, most)
        if dot:
            parts_of.setdefault(name, []).append(f"{part}:{values}")
        elif not any(p.startswith(f"{q.field}=") or p.startswith(f"{q.field}?=") for p in parts):
            parts.append(f"{q.field}{'?' if q.optional else ''}={values}")
    parts += [f"{name}={','.join(found)}" for name, found in parts_of.items()]
    return " ".join(parts)


def _values(q: Question, most: int) -> str:
    if q.dice:
        counts = sorted({g.count if g.count is not None else g.most or 0 for g in q.dice})
        how_many = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        exact = all(g.count is not None for g in q.dice)
        if q.shape == "NAME:N,NAME:N":
            return ",".join(f"{shlex.quote(g.label)}:D6" for g in q.dice)
        return f"{q.shape}({how_many if exact else 'up to ' + how_many} dice)" if q.shape == "DICE" else q.shape
    if q.choices:
        values = list(dict.fromkeys(shlex.quote(c.value) if c.value else "nobody" for c in q.choices))
        shown = "|".join(values[:most]) + ("|…" if len(values) > most else "")
        return shown + ("|other" if q.other else "")
    return q.shape


def build_event(type_name: str, assignments: list[str], override: str | None) -> ev.Event:
    """An event from `TYPE FIELD=VALUE ...`. A Shot at one target may use the flat fields
    target, dice, saves, cover, obscured, invulnerable, accurate, damage, rerolls, save_rerolls,
    splashed (x" Devastating's other operatives: splashed=ID,ID); a Fought's re-rolls are
    attack_rerolls= and target_rerolls= beside its attack_dice= and target_dice=."""
    try:
        cls = ev.event_type(type_name)
    except KeyError:
        close = difflib.get_close_matches(type_name, ev.EVENT_TYPES, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ";"
        raise KtlogError(f"unknown event type {type_name!r}{hint} `ktlog event --types` lists them") from None
    hints = field_types(cls)
    payload: dict[str, typing.Any] = {}
    shot: dict[str, typing.Any] = {}
    rerolled: dict[str, str] = {}
    given: dict[str, str] = {}
    for item in assignments:
        field, sep, raw = item.partition("=")
        if not sep:
            raise KtlogError(f"{item!r} is not FIELD=VALUE")
        if field in given:
            raise KtlogError(f"{cls.__name__}: {field} is given twice ({field}={given[field]} and {field}={raw}); give it once")
        given[field] = raw
        if issubclass(cls, ev.Shot) and field in SHOT_SHORTHAND:  # KT21 Overwatch too
            shot[field] = raw
            continue
        if REROLLED.get(field) in hints:
            rerolled[field] = raw
            continue
        if field not in hints or field in ("version", "meta"):
            raise KtlogError(
                f"{cls.__name__} has no field {field!r}; its fields: {', '.join(f for f in hints if f not in ('version', 'meta', 'name', 'cost', 'moves', 'mission'))}"
            )
        try:
            payload[field] = _convert_value(field, raw, hints[field])
        except ValueError as exc:
            raise KtlogError(f"{field}={raw!r}: {exc}; see `ktlog event --help` for how to write values") from None
    for field, raw in rerolled.items():
        dice = payload.get(REROLLED[field])
        if not isinstance(dice, dict) or dice.get("rerolls"):
            raise KtlogError(
                f"{field}= re-rolls the {REROLLED[field].replace('_', ' ')}: give {REROLLED[field]}=DICE with it (e.g. {REROLLED[field]}=6532), the re-rolls once"
            )
        dice["rerolls"] = [msgspec.to_builtins(r) for r in parse_rerolls(raw)]
    if shot:
        if "attacks" in payload:
            raise KtlogError(f"{cls.__name__}: give attacks= or the one-target fields ({', '.join(shot)}), not both")
        payload["attacks"] = [_shot_attack(shot), *_further_attacks(shot)]
    if override:
        payload["override"] = override
    try:
        return msgspec.convert(payload, ev.decoded_as(cls))
    except msgspec.ValidationError as exc:
        message, _, path = str(exc).partition(" - at `$")
        where = path.rstrip("`").lstrip(".")
        choices = typing.get_args(hints[where]) if typing.get_origin(hints.get(where)) is typing.Literal else ()
        if choices:
            message += f"; {where} is one of {', '.join(choices)}"
        raise KtlogError(f"{cls.__name__}: {message}" + (f" (field {where})" if where else "")) from None


def types_help() -> str:
    """Each event type and the shape of each of its fields, a line each (FIELD? may be left out)."""
    lines = []
    for name, cls in ev.EVENT_TYPES.items():
        hints, defaults = field_types(cls), field_defaults(cls)
        fields = [
            f"{f}{'?' if f in defaults else ''}={field_shape(hints[f])}" for f in cls.__struct_fields__ if f not in ("override", "seat", "version", "meta")
        ]
        if issubclass(cls, ev.Shot):
            fields.append("(one target: target=ID dice=DICE saves=DICE cover?=BOOL obscured?=BOOL damage?=N splashed?=A,B;")
            fields.append(
                "further targets (Blast, Torrent): further?=A,B further_dice?=ID:DICE,ID:DICE further_saves?=ID:DICE,ID:DICE further_cover?=A,B further_obscured?=A,B)"
            )
        fields += [f"{f}?=DIE=RESULT/RULE" for f, dice in REROLLED.items() if dice in hints]
        lines.append(f"  {name:<26} {' '.join(fields)}")
    return "\n".join(lines)


def field_shape(annotation: typing.Any) -> str:
    """How a value of this type is typed: DICE (6542), STEPS (sc bnn sn), NAME:N,NAME:N, a|b ..."""
    text = str(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return "|".join(typing.get_args(annotation))
    for part, shape in (
        ("Dice", "DICE"),
        ("FightStep", '"STEPS"'),
        ("ShootingAttack", "JSON"),
        ("Datacard", "JSON"),
        ("dict[str, int]", "NAME:N,NAME:N"),
        ("dict[str", "MARKER:PLAYER,MARKER:"),
        ("tuple[str", "A,B"),
    ):
        if part in text:
            return shape
    return {"int": "N", "float": "INCHES", "bool": "BOOL", "str": "TEXT"}.get(text.removeprefix("<class '").removesuffix("'>").removesuffix(" | None"), "JSON")


@functools.cache
def field_types(cls: type[ev.Event]) -> dict[str, typing.Any]:
    """The event's fields and their types (class variables such as `secret` are not fields);
    kept, as working them out is most of parsing a line."""
    hints = typing.get_type_hints(cls)
    return {f: hints[f] for f in cls.__struct_fields__}


@functools.cache
def field_defaults(cls: type[ev.Event]) -> dict[str, typing.Any]:
    """The event's fields that have a default, and their defaults."""
    fields, defaults = cls.__struct_fields__, cls.__struct_defaults__
    return dict(zip(fields[len(fields) - len(defaults) :], defaults))


def _convert_value(field: str, raw: str, annotation: typing.Any):
    """FIELD=VALUE as typed at the prompt: dice as digits, lists with commas, else JSON or text."""
    text, opens = str(annotation), raw.lstrip()[:1]
    if "Dice" in text and raw.replace(" ", "").isdigit():
        return {"rolls": list(parse_dice(raw, field))}
    if "FightStep" in text and opens != "[":
        return [msgspec.to_builtins(s) for s in parse_steps(raw)]
    if text.startswith("dict[str") and opens != "{":
        return _pairs(raw, whole=text.startswith("dict[str, int]"))
    if text.startswith("tuple[str") and opens != "[":
        return [x.strip() for x in raw.split(",") if x.strip()]
    if annotation is bool and raw.lower() in _BOOLEAN:
        return _BOOLEAN[raw.lower()]
    try:
        return json.loads(raw, object_pairs_hook=_each_key_once)
    except json.JSONDecodeError:
        return raw


def _pairs(raw: str, whole: bool) -> dict[str, typing.Any]:
    """NAME:VALUE pairs separated by commas: a roll-off's NAME:ROLL (`whole` numbers), or the
    holder of each marker (empty: nobody)."""
    pairs = [p.split(":", 1) for p in raw.split(",") if p]
    if not whole:
        return {k.strip(): (v.strip() or None) for k, v in pairs}
    if any(len(p) != 2 or not p[1].strip().isdigit() for p in pairs):
        raise ValueError("write NAME:NUMBER pairs separated by commas, e.g. Alice:4,Bob:2")
    return {k.strip(): int(v) for k, v in pairs}


_BOOLEAN = {"true": True, "yes": True, "y": True, "1": True, "false": False, "no": False, "n": False, "0": False}
"""How a BOOL field may be typed (cover= and obscured= take the same words)."""


def _each_key_once(pairs: list[tuple[str, typing.Any]]) -> dict[str, typing.Any]:
    """A JSON object whose keys are each given once (the last would silently win)."""
    keys = [k for k, _ in pairs]
    twice = next((k for k in keys if keys.count(k) > 1), None)
    if twice is not None:
        raise ValueError(f"{twice!r} is given twice in the same object; give it once")
    return dict(pairs)


def _shot_attack(shot: dict[str, str]) -> dict:
    attack: dict[str, typing.Any] = {"target": shot.get("target", "")}
    if "dice" in shot:
        attack["attack_dice"] = {
            "rolls": list(parse_dice(shot["dice"], "dice")),
            "rerolls": [msgspec.to_builtins(r) for r in parse_rerolls(shot.get("rerolls", ""))],
        }
        attack["defence_dice"] = {
            "rolls": list(parse_dice(shot.get("saves", ""), "saves")),
            "rerolls": [msgspec.to_builtins(r) for r in parse_rerolls(shot.get("save_rerolls", ""))],
        }
    for flag in ("cover", "obscured", "invulnerable"):
        if flag in shot:
            if shot[flag].lower() not in _BOOLEAN:
                raise KtlogError(f"{flag}={shot[flag][:40]!r}: say yes or no (or true, false, y, n, 1, 0)")
            attack[flag] = _BOOLEAN[shot[flag].lower()]
    if "splashed" in shot:
        attack["splashed"] = [x.strip() for x in shot["splashed"].split(",") if x.strip()]
    for number in ("accurate", "damage"):
        if number in shot:
            if not re.fullmatch(r"[0-9]{1,9}", shot[number]):
                raise KtlogError(f"{number}={shot[number][:40]!r}: {SHOT_NUMBERS[number]}, a whole number such as {number}=2")
            attack[number] = int(shot[number])
    return attack


def _further_attacks(shot: dict[str, str]) -> list[dict]:
    """A Blast or Torrent weapon's further targets (further=ID,ID), each with its own dice."""
    targets = _ids(shot.get("further", ""))
    if not targets:
        if given := [f for f in FURTHER if f in shot]:
            raise KtlogError(f"{given[0]}= is about the further targets: name them with further=ID,ID")
        return []
    if "dice" not in shot:
        raise KtlogError(
            "further targets are recorded with their dice: give dice= and saves= for the first target, further_dice= and further_saves= for the others"
        )
    dice = {f: _per_target(f, shot.get(f, ""), targets) for f in ("further_dice", "further_saves")}
    flags = {f: set(_ids(shot.get(f"further_{f}", ""))) for f in ("cover", "obscured")}
    for f, named in flags.items():
        if stray := named - set(targets):
            raise KtlogError(f"further_{f}={shot[f'further_{f}']!r}: {', '.join(sorted(stray))} is not one of the further targets ({', '.join(targets)})")
    return [
        {
            "target": t,
            "attack_dice": {"rolls": list(parse_dice(dice["further_dice"][t], f"further_dice {t}"))},
            "defence_dice": {"rolls": list(parse_dice(dice["further_saves"][t], f"further_saves {t}"))},
        }
        | {f: True for f, named in flags.items() if t in named}
        for t in targets
    ]


def _ids(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _per_target(field: str, text: str, targets: list[str]) -> dict[str, str]:
    """ID:DICE pairs, one for each further target (DICE alone when there is one)."""
    if len(targets) == 1 and ":" not in text:
        return {targets[0]: text}
    pairs = dict(pair.partition(":")[::2] for pair in _ids(text))
    if missing := [t for t in targets if t not in pairs]:
        raise KtlogError(f"{field}: give the dice of each further target as ID:DICE ({', '.join(f'{t}:DICE' for t in missing)} missing)")
    if stray := [t for t in pairs if t not in targets]:
        raise KtlogError(f"{field}: {', '.join(stray)} is not one of the further targets ({', '.join(targets)})")
    return pairs


SHOT_NUMBERS = {"accurate": "the attack dice Accurate retains as normal successes", "damage": "the damage the shot inflicted (quick mode)"}
"""The whole numbers of a one-target Shot, as a refusal names them."""


# --- an event as the line that reads back as it (game files, the seat page, messages) ---------------


def event_line(event: ev.Event) -> str:
    """An event as one line `TYPE FIELD=VALUE ...` that `parse_event` reads back as the same
    event: dice as digits, fight steps as notation, lists and pairs with commas where they read
    back exactly, else the value as JSON."""
    name = type(event).__name__
    for words_of in (_short_words, _json_words):  # the JSON form only when the short one does not read back
        line = " ".join([name, *(shlex.quote(w) for w in words_of(event))])
        try:
            if canonical(parse_event(line)) == canonical(event):
                return line
        except KtlogError:
            continue
    raise KtlogError(f"{name} cannot be written as a line of a game file: {canonical(event).decode()[:200]}")


def _fields(event: ev.Event) -> typing.Iterator[tuple[str, typing.Any, typing.Any]]:
    """(field, value, type) of each field whose value is not its default."""
    hints, defaults = field_types(type(event)), field_defaults(type(event))
    for name in sorted(event.__struct_fields__, key=lambda f: f not in ("player", "operative")):  # who acts, first
        value = getattr(event, name)
        if name not in defaults or value != defaults[name]:
            yield name, value, hints[name]


def _json_words(event: ev.Event) -> list[str]:
    return [f"{name}={json.dumps(msgspec.to_builtins(value), ensure_ascii=False)}" for name, value, _ in _fields(event)]


def _short_words(event: ev.Event) -> list[str]:
    words: list[str] = []
    shot: list[str] = []
    for name, value, annotation in _fields(event):
        if isinstance(event, ev.Shot) and name == "attacks" and (shot := _shot_words(value[0]) or []):
            further = _further_words(value[1:]) if len(value) > 1 else []
            if further is not None:
                shot += further
                continue
        if isinstance(value, ev.Dice) and value.rolls and value.rerolls and (flat := next((f for f, d in REROLLED.items() if d == name), None)):
            words += [f"{name}={format_dice(value.rolls)}", f"{flat}={_rerolls(value)}"]
            continue
        words.append(f"{name}={_short_value(value, str(annotation))}")
    return words + shot  # the target and dice after the operative and weapon


def _short_value(value: typing.Any, shape: str) -> str:
    """A value the way a person types it, or as JSON (the caller checks it reads back)."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, ev.Dice) and value.rolls and not value.rerolls:
        return format_dice(value.rolls)
    if "FightStep" in shape and value:
        return format_steps(value)
    if isinstance(value, dict) and value and not any(_listy(k) for k in value):
        return ",".join(f"{k}:{'' if v is None else v}" for k, v in value.items())
    if isinstance(value, tuple) and value and all(isinstance(x, str) and not _listy(x) for x in value):
        return ",".join(value)
    return json.dumps(msgspec.to_builtins(value), ensure_ascii=False)


def _text(value: str) -> str:
    """Text as typed, or as a JSON string when it would read as another JSON value (`2`, `true`)."""
    try:
        json.loads(value)
    except ValueError:
        return value
    return json.dumps(value, ensure_ascii=False)


def _listy(text: str) -> bool:
    """Whether text would be split or trimmed as an item of a comma list."""
    return "," in text or ":" in text or text != text.strip() or not text


def _shot_words(attack: ev.ShootingAttack) -> list[str] | None:
    """One target's attack in the flat Shot fields (target= dice= saves= ...), or None."""
    if (attack.attack_dice is None) != (attack.defence_dice is None) or not attack.target:
        return None
    words = {"target": _text(attack.target)}
    if attack.attack_dice is not None and attack.defence_dice is not None:
        words |= {"dice": format_dice(attack.attack_dice.rolls), "saves": format_dice(attack.defence_dice.rolls)}
        words |= {"rerolls": _rerolls(attack.attack_dice), "save_rerolls": _rerolls(attack.defence_dice)}
    words |= {flag: "true" for flag in ("cover", "obscured", "invulnerable") if getattr(attack, flag)}
    if attack.accurate:
        words["accurate"] = str(attack.accurate)
    if attack.damage is not None:
        words["damage"] = str(attack.damage)
    if attack.splashed:
        words["splashed"] = _short_value(attack.splashed, "tuple[str")
    return [f"{k}={v}" for k, v in words.items() if v]


def _further_words(attacks: tuple[ev.ShootingAttack, ...]) -> list[str] | None:
    """A Blast or Torrent weapon's further targets in the flat fields (further= further_dice= ...),
    or None when one holds more than its dice, cover and obscured (re-rolls, Accurate ...: JSON)."""
    plain = ev.ShootingAttack(target="")
    for a in attacks:
        bare = msgspec.structs.replace(a, target="", cover=False, obscured=False, attack_dice=None, defence_dice=None)
        if a.attack_dice is None or a.defence_dice is None or a.attack_dice.rerolls or a.defence_dice.rerolls or bare != plain:
            return None
    words = {
        "further": ",".join(a.target for a in attacks),
        "further_dice": ",".join(f"{a.target}:{format_dice(a.attack_dice.rolls)}" for a in attacks if a.attack_dice),
        "further_saves": ",".join(f"{a.target}:{format_dice(a.defence_dice.rolls)}" for a in attacks if a.defence_dice),
        "further_cover": ",".join(a.target for a in attacks if a.cover),
        "further_obscured": ",".join(a.target for a in attacks if a.obscured),
    }
    return [f"{k}={v}" for k, v in words.items() if v]


def _rerolls(dice: ev.Dice) -> str:
    return " ".join(f"{r.die}={r.result}/{r.source}" for r in dice.rerolls)
