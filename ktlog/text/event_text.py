"""An event as a person types it: `TYPE FIELD=VALUE ...`, the syntax of `ktlog event` (and of
the record screen's "type an event").

Dice are digits (dice=6542), lists are comma separated (targets=gunner,sergeant), roll-offs are
NAME:ROLL pairs (rolls=Alice:4,Bob:2), fight steps are like "sc bnn sn", anything else is JSON
or text. A Shot at one target can use target=, dice=, saves=, cover=, obscured=.
"""

from __future__ import annotations

import difflib
import functools
import itertools
import json
import shlex
import typing

import msgspec

from .. import events as ev
from ..errors import KtlogError
from .notation import parse_dice, parse_rerolls, parse_steps

SHOT_SHORTHAND = ("target", "dice", "saves", "cover", "obscured", "invulnerable", "accurate", "damage", "rerolls", "save_rerolls")


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


def build_event(type_name: str, assignments: list[str], override: str | None) -> ev.Event:
    """An event from `TYPE FIELD=VALUE ...`. A Shot at one target may use the flat fields
    target, dice, saves, cover, obscured, invulnerable, accurate, damage, rerolls, save_rerolls."""
    try:
        cls = ev.event_type(type_name)
    except KeyError:
        close = difflib.get_close_matches(type_name, ev.EVENT_TYPES, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ";"
        raise KtlogError(f"unknown event type {type_name!r}{hint} `ktlog event --types` lists them") from None
    hints = field_types(cls)
    payload: dict[str, typing.Any] = {}
    shot: dict[str, typing.Any] = {}
    for item in assignments:
        field, sep, raw = item.partition("=")
        if not sep:
            raise KtlogError(f"{item!r} is not FIELD=VALUE")
        if issubclass(cls, ev.Shot) and field in SHOT_SHORTHAND:  # KT21 Overwatch too
            shot[field] = raw
            continue
        if field not in hints or field in ("version", "meta"):
            raise KtlogError(
                f"{cls.__name__} has no field {field!r}; its fields: {', '.join(f for f in hints if f not in ('version', 'meta', 'name', 'cost', 'moves', 'mission'))}"
            )
        try:
            payload[field] = _convert_value(field, raw, hints[field])
        except ValueError as exc:
            raise KtlogError(f"{field}={raw!r}: {exc}; see `ktlog event --help` for how to write values") from None
    if shot:
        payload["attacks"] = [_shot_attack(shot)]
    if override:
        payload["override"] = override
    try:
        return msgspec.convert(payload, cls)
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
        fields = [f"{f}{'?' if f in defaults else ''}={field_shape(hints[f])}" for f in cls.__struct_fields__ if f not in ("override", "version", "meta")]
        if issubclass(cls, ev.Shot):
            fields.append("(one target: target=ID dice=DICE saves=DICE cover?=BOOL obscured?=BOOL damage?=N)")
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
    return {"int": "N", "bool": "BOOL", "str": "TEXT"}.get(text.removeprefix("<class '").removesuffix("'>").removesuffix(" | None"), "JSON")


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
    text = str(annotation)
    if "Dice" in text and raw.replace(" ", "").isdigit():
        return {"rolls": list(parse_dice(raw, field))}
    if "FightStep" in text and not raw.lstrip().startswith("["):
        return [msgspec.to_builtins(s) for s in parse_steps(raw)]
    if text.startswith("dict[str, int]") and not raw.lstrip().startswith("{"):
        pairs = [p.split(":", 1) for p in raw.split(",") if p]
        if any(len(p) != 2 or not p[1].strip().isdigit() for p in pairs):
            raise ValueError("write NAME:NUMBER pairs separated by commas, e.g. Alice:4,Bob:2")
        return {k.strip(): int(v) for k, v in pairs}
    if text.startswith("dict[str") and not raw.lstrip().startswith("{"):
        pairs = [p.split(":", 1) for p in raw.split(",") if p]
        return {k.strip(): (v.strip() or None) for k, v in pairs}
    if text.startswith("tuple[str") and not raw.lstrip().startswith("["):
        return [x.strip() for x in raw.split(",") if x.strip()]
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


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
            attack[flag] = shot[flag].lower() in ("1", "true", "yes", "y")
    for number in ("accurate", "damage"):
        if number in shot:
            attack[number] = int(shot[number])
    return attack
