"""Roster files (TOML): a kill team's operatives with full datacards, as a person writes them.

    name = "Kasrkin"
    faction = "Astra Militarum"
    archetypes = ["Security", "Recon"]

    [[operatives]]
    name = "Kasrkin Sergeant"          # the datacard's name
    id = "sergeant"                    # optional: how the log names it (default: from the name)
    count = 1                          # optional: several identical operatives, ids id-1, id-2 ...
    apl = 2
    move = 6                           # inches
    save = "4+"                        # or 4
    wounds = 8
    keywords = ["KASRKIN", "LEADER"]
    weapons = [
      { name = "Hot-shot lasgun", kind = "ranged", atk = 4, hit = "3+", dmg = "3/4", rules = ["Piercing Crits 1"] },
      { name = "Gun butt", kind = "melee", atk = 3, hit = "4+", dmg = "2/3" },
    ]
    unique_actions = [{ name = "Tactical Command", ap = 1 }]

An imported roster also names the file it came from and the catalogue's revision:
`source = "team.ros"`, `revision = "8"` (ktlog roster import).

A roster of KT21 datacards says so, `datacards = "kt21"` (the default is "kt24"), and each
datacard adds `ga` (group activation, default 1), `df` (defence dice, default 3),
optionally `invulnerable_save = "4+"` (004), and its weapons `critical_rules` (!), e.g.
`rules = ["AP1"], critical_rules = ["MW2"]` (001).

The special rules ktlog applies are fields, never read from names or rule text
(docs/file-formats.md): `heavy = true` (a Heavy NPO, pg 89), `double_action = ["Shoot"]`
(actions it can perform twice in an activation, pg 39), and a weapon's `one_in = 3` (only 1 in 3
of the operatives with it can have it, pg 89). An older roster relying on the wording of pg 89
is read as before, with a warning naming the field to write (ktlog.wording).

Optionally, the kill team's own ploys, equipment and resources, offered by name at the table:

    [[ploys]]
    name = "Take Cover"
    kind = "firefight"                 # or "strategy"
    cp = 1
    reminder = "in your own words"     # optional

    [[equipment]]
    name = "Frag grenade"
    weapon = { name = "Frag grenade", kind = "ranged", atk = 4, hit = "4+", dmg = "2/4", rules = ["Blast 2\"", "Limited 1"] }  # optional
    # an option that gives several weapons lists them instead: weapons = [{ name = ... }, { name = ... }]

    [[resources]]
    name = "Faith"
    start = 2
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Annotated, Literal, TypeVar, cast

import msgspec
import platformdirs

from ..data import SAMPLE_ROSTERS
from ..envelopes import check_limits
from ..errors import InvalidEvent, KtlogError, RosterError
from ..events import Action, Datacard, Equipment, Event, OperativeAdded, PlayerJoined, Ploy, Resource, UniqueAction, Weapon, WeaponKind
from ..rules.setup import check_datacard
from ..rules.team import MAX_PLOY_CP, MAX_RESOURCE, check_team
from ..rulesets import RULESETS
from ..wording import read_wording
from .inputs import ROSTER_LIMIT, read_text

T = TypeVar("T")


def actions() -> set[str]:
    """The actions a datacard's double_action may name, besides its own unique actions (pg 40-45):
    those of every ruleset offered."""
    return {cls.name for r in RULESETS.values() for cls in r.events if issubclass(cls, Action)} - {"Killzone action", "Unique action"}


class WeaponEntry(msgspec.Struct, forbid_unknown_fields=True):
    """A weapon line of a datacard (pg 48): its name is free text."""

    name: str
    kind: Annotated[str, msgspec.Meta(description='"ranged" or "melee"')]
    atk: int
    hit: Annotated[int | str, msgspec.Meta(description='Hit, like "3+" or 3')]
    dmg: Annotated[str, msgspec.Meta(description='normal/critical damage, like "3/4"')]
    rules: Annotated[list[str], msgspec.Meta(description='Weapon rules as printed (pg 111), e.g. "Piercing 1"; KT21: "AP1"')] = []
    critical_rules: Annotated[list[str], msgspec.Meta(description='KT21 critical hit rules (!), e.g. "MW2"')] = []
    one_in: Annotated[
        int | None,
        msgspec.Meta(
            description="Only 1 in this many of a player's operatives with this weapon on their datacard can have it (rounded "
            "down; the NPO special weapon is 1 in 3, pg 89): 2 or more. Joint Ops checks it on every Shot."
        ),
    ] = None


class OperativeEntry(msgspec.Struct, forbid_unknown_fields=True):
    """An operative's datacard (pg 48); its name, keywords and rules are free text."""

    name: str
    apl: int
    move: Annotated[int, msgspec.Meta(description="Move in inches")]
    save: Annotated[int | str, msgspec.Meta(description='Save, like "4+" or 4')]
    wounds: int
    weapons: list[WeaponEntry]
    id: Annotated[str | None, msgspec.Meta(description="How the log names it (default: from the name)")] = None
    count: Annotated[int, msgspec.Meta(ge=1, description="Several identical operatives, ids id-1, id-2 ...")] = 1
    keywords: list[str] = []
    rules: Annotated[
        list[str],
        msgspec.Meta(
            description="Rule texts as printed, for people: ktlog applies none of them; the rules it applies are fields (heavy, double_action, one_in)"
        ),
    ] = []
    unique_actions: list[UniqueAction] = []
    base_mm: int | None = None
    ga: Annotated[int, msgspec.Meta(description="KT21 group activation")] = 1
    df: Annotated[int, msgspec.Meta(description="KT21 defence dice")] = 3
    invulnerable_save: Annotated[int | str | None, msgspec.Meta(description='KT21 invulnerable save, like "4+" (004)')] = None
    heavy: Annotated[
        bool, msgspec.Meta(description="A Heavy NPO (pg 89): Joint Ops reinforcements bring back one Heavy NPO or two that are not (pg 92, 94)")
    ] = False
    double_action: Annotated[
        list[str],
        msgspec.Meta(
            description='Actions this operative can perform twice during its activation, e.g. ["Shoot"] (precedence, pg 39; the '
            "Heavy NPOs, pg 89): an action's name or one of the datacard's unique actions"
        ),
    ] = []


Reminder = Annotated[str, msgspec.Meta(max_length=300, description="A short reminder of the effect, in the player's own words")]


class PloyEntry(msgspec.Struct, forbid_unknown_fields=True):
    """One of the kill team's ploys (pg 54): offered by name, its CP charged when it is used."""

    name: str
    kind: Annotated[Literal["strategy", "firefight"], msgspec.Meta(description='"strategy" (used as a STRATEGIC GAMBIT) or "firefight"')]
    cp: Annotated[int, msgspec.Meta(ge=0, le=MAX_PLOY_CP, description=f"Its CP cost, 0 to {MAX_PLOY_CP}")]
    reminder: Reminder | None = None


class EquipmentEntry(msgspec.Struct, forbid_unknown_fields=True):
    """One of the kill team's equipment options (Equipment, pg 50), with the weapon or weapons it
    gives, if any: one option counts once among the four selected (pg 110), whatever it gives."""

    name: str
    reminder: Reminder | None = None
    weapon: Annotated[
        WeaponEntry | None, msgspec.Meta(description="A weapon any of the player's operatives can use once the option is selected (e.g. a grenade)")
    ] = None
    weapons: Annotated[
        list[WeaponEntry],
        msgspec.Meta(description="The weapons of an option that gives several (explosive grenades: frag and krak); give weapon or weapons, not both"),
    ] = []


class ResourceEntry(msgspec.Struct, forbid_unknown_fields=True):
    """A named resource the kill team counts during the battle (faith, say)."""

    name: str
    start: Annotated[int, msgspec.Meta(ge=0, le=MAX_RESOURCE, description=f"Its value at the start of the battle, 0 to {MAX_RESOURCE}")] = 0
    reminder: Reminder | None = None


class RosterFile(msgspec.Struct, forbid_unknown_fields=True):
    """A roster file (TOML): a kill team's operatives with full datacards (docs/file-formats.md)."""

    name: str
    operatives: list[OperativeEntry]
    faction: Annotated[str | None, msgspec.Meta(description='"NPO" for non-player operatives (Joint Ops, pg 89)')] = None
    archetypes: list[str] = []
    datacards: Annotated[str, msgspec.Meta(description='The edition of its datacards: "kt24", or "kt21" (which rulesets\' games it is offered for)')] = "kt24"
    notes: str | None = None
    source: Annotated[str | None, msgspec.Meta(description="The file it was imported from (ktlog roster import)")] = None
    revision: Annotated[str | None, msgspec.Meta(description="That file's catalogue revision")] = None
    ploys: list[PloyEntry] = []
    equipment: list[EquipmentEntry] = []
    resources: list[ResourceEntry] = []


@dataclass(frozen=True)
class RosterOperative:
    id: str
    datacard: Datacard


@dataclass(frozen=True)
class Roster:
    name: str
    faction: str | None
    archetypes: tuple[str, ...]
    operatives: tuple[RosterOperative, ...]
    path: str
    source: str | None = None
    """The file it was imported from, if it was (a BattleScribe roster, a catalogue)."""
    revision: str | None = None
    """That file's catalogue revision."""
    warnings: tuple[str, ...] = ()
    """Older wording read as a field (ktlog.wording): each names the field to write instead."""
    ploys: tuple[Ploy, ...] = ()
    equipment: tuple[Equipment, ...] = ()
    resources: tuple[Resource, ...] = ()
    datacards: str = "kt24"
    """The edition of its datacards (`Ruleset.datacards`): the new-game form and the simulators
    offer it for the rulesets that play them."""

    def select(self, ids: list[str] | None) -> list[RosterOperative]:
        """The operatives chosen for a battle (all of them when `ids` is None)."""
        if not ids:
            return list(self.operatives)
        by_id = {o.id: o for o in self.operatives}
        unknown = [i for i in ids if i not in by_id]
        if unknown:
            raise RosterError(f"{self.path}: no operative {', '.join(map(repr, unknown))} in {self.name}; it has: {', '.join(by_id)}")
        return [by_id[i] for i in ids]


def game_id_for(operative_id: str, player: str, taken: set[str]) -> str:
    """The id an operative gets in a game: its roster id, or with the player's name in front
    when another player's operative already has it (a mirror match)."""
    if operative_id not in taken:
        return operative_id
    return f"{slug(player)}-{operative_id}"


def numbered_ids(select: list[str]) -> list[str]:
    """The ids of operatives selected, one named several times numbered (OP-1, OP-2 ...)."""
    repeated = {i for i in select if select.count(i) > 1}
    seen: dict[str, int] = {}
    out = []
    for i in select:
        seen[i] = seen.get(i, 0) + 1
        out.append(f"{i}-{seen[i]}" if i in repeated else i)
    return out


def joining(player: str, roster: Roster, select: list[str] | None, taken: set[str], *, npo: bool = False) -> list[Event]:
    """A player's PlayerJoined, then an OperativeAdded for each operative selected (all of them
    when `select` is None). An operative named several times is selected that many times (ids
    OP-1, OP-2 ...); `taken` holds the ids already in the game and gets these added."""
    out: list[Event] = [
        PlayerJoined(
            player=player,
            kill_team=roster.name,
            faction=roster.faction,
            archetypes=roster.archetypes,
            npo=npo,
            ploys=roster.ploys,
            equipment_options=roster.equipment,
            resources=roster.resources,
        )
    ]
    for op, numbered in zip(roster.select(select), numbered_ids(select or [o.id for o in roster.operatives])):
        op_id = game_id_for(numbered, player, taken)
        taken.add(op_id)
        out.append(OperativeAdded(player=player, operative=op_id, datacard=op.datacard))
    return out


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _stat(value: int | str, what: str) -> int:
    """'3+' or 3 -> 3."""
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"\s*([1-6])\+?\s*", value)
    if not m:
        raise ValueError(f"{what} {value!r} is not like 3+")
    return int(m[1])


def _damage(value: str, weapon: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", value)  # ASCII digits only: int() reads ٣ as 3
    if not m:
        raise ValueError(f"weapon {weapon!r}: dmg {value!r} is not like 3/4 (normal/critical)")
    return int(m[1]), int(m[2])


@dataclass(frozen=True)
class RosterProblem:
    """One problem of a roster file: what is wrong, the path of the field (`("operatives", 1,
    "apl")`) and the file's line where it can be found."""

    text: str
    at: tuple[str | int, ...] = ()
    line: int | None = None


def load_roster(path: str | Path) -> Roster:
    """Read and check a roster file; an error names the file, the operative and the field of
    its first problem, and how many more `ktlog roster check` lists."""
    roster, problems = check_roster(path)
    if roster is None:
        more = f" ({len(problems) - 1} more: ktlog roster check {path} lists every problem)" if len(problems) > 1 else ""
        raise RosterError(f"{path}: {problems[0].text}{more}")
    return roster


def check_roster(path: str | Path) -> tuple[Roster | None, list[RosterProblem]]:
    """Read a roster file and find every problem it has, each with its field and line (the
    roster is None when there is one): TOML syntax, unknown, missing and mistyped fields,
    datacards the rules refuse, ids used twice."""
    path = Path(path)
    try:
        text = read_text(path, "a roster file", ROSTER_LIMIT)
    except KtlogError as exc:
        return None, [RosterProblem(f"cannot read the roster file: {exc}")]
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"at line (\d+)", str(exc))
        return None, [RosterProblem(f"not valid TOML: {exc}. Fix that line of the roster file", line=int(line[1]) if line else None)]
    raw, warnings = _read_older_wording(raw)
    problems = _problems(raw)
    lines = text.split("\n")  # TOML lines end at \n only: a value may hold U+2028 or U+0085
    problems = sorted((RosterProblem(p.text, p.at, _line(lines, p.at)) for p in problems), key=lambda p: p.line or 0)
    if problems:
        return None, problems
    spec = msgspec.convert(raw, RosterFile)  # every field was checked above
    beyond = [RosterProblem(p.text, p.at, _line(lines, p.at)) for p in _limit_problems(spec)]
    if beyond:
        return None, beyond
    operatives = [RosterOperative(i, card) for op in spec.operatives for card in [_datacard(op)] for i in _ids(op)]
    ploys, equipment, resources = _team(spec)  # every table was checked above
    return Roster(
        name=spec.name,
        faction=spec.faction,
        archetypes=tuple(spec.archetypes),
        operatives=tuple(operatives),
        path=str(path),
        source=spec.source,
        revision=spec.revision,
        warnings=tuple(f"{path}: {w}" for w in warnings),
        ploys=ploys,
        equipment=equipment,
        resources=resources,
        datacards=spec.datacards,
    ), []


_EVENT_FIELDS = {"kill_team": "name", "equipment_options": "equipment", "group_activation": "ga", "defence": "df", "normal_dmg": "dmg", "crit_dmg": "dmg"}
"""A field of the events a roster becomes -> the roster file's field."""


def _limit_problems(spec: RosterFile) -> list[RosterProblem]:
    """What `ktlog new` would refuse in the events this roster becomes (`envelopes.check_limits`:
    whole numbers within +-NUMBER_LIMIT, names and texts within their lengths, no control
    character), found before the file is used, each with its field."""
    ploys, equipment, resources = _team(spec)
    team = PlayerJoined(
        player="-", kill_team=spec.name, faction=spec.faction, archetypes=tuple(spec.archetypes), ploys=ploys, equipment_options=equipment, resources=resources
    )
    problems = _refused(team, "", ())
    for i, op in enumerate(spec.operatives):
        event = OperativeAdded(player="-", operative=_ids(op)[-1], datacard=_datacard(op))
        problems += _refused(event, f"operative {op.name[:60]!r}: ", ("operatives", i))
    return problems


def _refused(event: Event, named: str, at: tuple[str | int, ...]) -> list[RosterProblem]:
    try:
        check_limits(event)
    except InvalidEvent as exc:
        text = exc.message.replace("field datacard.", "field ").replace("field operative:", "field id:")
        path = re.match(r"field ([\w.\[\]]+):", text)
        fields = tuple(_EVENT_FIELDS.get(f, f) if isinstance(f, str) else f for f in (_path("." + path[1]) if path else ()))
        if path:  # the event's field as the roster file names it
            text = text.replace(path[0], "field " + re.sub(r"\w+", lambda w: _EVENT_FIELDS.get(w[0], w[0]), path[1]) + ":", 1)
        return [RosterProblem(named + text, (*at, *fields))]
    return []


def _ids(op: OperativeEntry | dict) -> list[str]:
    """The ids of an operative entry (read or as written: a name, an id and a count that are not
    text or a number count as absent)."""
    fields = msgspec.structs.asdict(op) if isinstance(op, OperativeEntry) else op
    name, given, count = (fields.get(key) for key in ("name", "id", "count"))
    base = given if isinstance(given, str) and given else slug(name if isinstance(name, str) else "")
    count = count if isinstance(count, int) and count > 1 else 1
    return [base] if count == 1 else [f"{base}-{i}" for i in range(1, count + 1)]


def _edition_problems(raw: dict) -> list[RosterProblem]:
    """An edition of datacards no ruleset offered plays (`Ruleset.datacards`)."""
    editions = sorted({r.datacards for r in RULESETS.values()})
    edition = raw.get("datacards", "kt24")
    if not isinstance(edition, str) or edition in editions:
        return []  # a value that is not text: the field's own check says so
    return [RosterProblem(f"datacards = {edition!r}: no ruleset plays that edition's datacards; write one of {', '.join(editions)}", ("datacards",))]


def _problems(raw: dict) -> list[RosterProblem]:
    """Every problem of the roster file's data, field by field, then datacard by datacard, then
    the kill team's ploys, equipment and resources."""
    problems = _struct_problems(raw, RosterFile, (), nested=("operatives",)) + _team_problems(raw) + _edition_problems(raw)
    operatives = raw.get("operatives")
    if not isinstance(operatives, list):
        return problems + ([RosterProblem("the roster has no operatives: add an [[operatives]] table", ("operatives",))] if operatives is None else [])
    if not operatives:
        problems.append(RosterProblem("the roster has no operatives: add an [[operatives]] table", ("operatives",)))
    ids: set[str] = set()
    for i, op in enumerate(operatives):
        at = ("operatives", i)
        if not isinstance(op, dict):
            problems.append(RosterProblem(f"operatives[{i}] is not a table of fields", at))
            continue
        named = f"operative {op['name']!r}: " if isinstance(op.get("name"), str) else f"operatives[{i}]: "
        found = _struct_problems(op, OperativeEntry, at, nested=("weapons",))
        weapons = op.get("weapons")
        usable = [w for j, w in enumerate(weapons) if not _weapon_problems(w, (*at, "weapons", j), found)] if isinstance(weapons, list) else weapons
        try:  # the datacard's own checks, with the fields that could be read
            entry = msgspec.convert({k: v for k, v in op.items() if k in OperativeEntry.__struct_fields__} | {"weapons": usable}, OperativeEntry)
        except msgspec.ValidationError:
            entry = None
        if entry is not None:
            found += [RosterProblem(text, (*at, *_field_of(text, weapons))) for text in _datacard_problems(entry)]
        found += [RosterProblem(f"two operatives have the id {op_id!r}; give one an `id`", (*at, "id")) for op_id in _ids(op) if op_id in ids]
        ids.update(_ids(op))
        problems += [RosterProblem(named + p.text, p.at) for p in found]
    return problems


_STAT_FIELDS = {
    "apl": "apl",
    "move": "move",
    "save": "save",
    "wounds": "wounds",
    "invulnerable": "invulnerable_save",
    "invulnerable_save": "invulnerable_save",
    "ga": "ga",
}
"""The first word of a datacard problem -> the field it is about."""


def _field_of(problem: str, weapons: object) -> tuple[str | int, ...]:
    """The field a datacard problem names (its first word, or `weapon 'NAME'`), for its line."""
    if found := re.match(r"weapon '(.*?)'", problem):
        names = [w.get("name") if isinstance(w, dict) else None for w in weapons] if isinstance(weapons, list) else []
        return ("weapons", names.index(found[1])) if found[1] in names else ()
    word = problem.split(" ", 1)[0].casefold()
    return (_STAT_FIELDS[word],) if word in _STAT_FIELDS else ()


def _weapon_problems(weapon: object, at: tuple[str | int, ...], found: list[RosterProblem]) -> bool:
    """Add a weapon's problems to `found`: its fields, then its values; True if it has any."""
    if not isinstance(weapon, dict):
        found.append(RosterProblem(f"weapons[{at[-1]}] is not a table of fields", at))
        return True
    problems = _struct_problems(weapon, WeaponEntry, at)
    if not problems:
        try:
            _weapon(msgspec.convert(weapon, WeaponEntry))
        except ValueError as exc:
            problems.append(RosterProblem(str(exc), at))
    found += problems
    return bool(problems)


@cache
def _fields(struct: type[msgspec.Struct]) -> dict[str, msgspec.structs.FieldInfo]:
    """A table's fields by name (kept: msgspec works the annotations out again at each call)."""
    return {f.encode_name: f for f in msgspec.structs.fields(struct)}


def _struct_problems(data: dict, struct: type[msgspec.Struct], at: tuple[str | int, ...], nested: tuple[str, ...] = ()) -> list[RosterProblem]:
    """The fields of a table that are unknown, missing or of the wrong type (each field checked
    alone, so every one is found); the `nested` fields are checked item by item by the caller."""
    fields = _fields(struct)
    problems = [RosterProblem(f"unknown field `{key}`{_did_you_mean(key, fields)}", (*at, key)) for key in data if key not in fields]
    problems += [RosterProblem(f"missing required field `{name}`", at) for name, f in fields.items() if f.required and name not in data]
    for name, value in data.items():
        if name not in fields or (name in nested and isinstance(value, list)):
            continue
        try:
            msgspec.convert(value, fields[name].type)
        except msgspec.ValidationError as exc:
            text, _, inner = str(exc).partition(" - at `$")
            where = f"{name}{inner.rstrip('`')}"
            problems.append(RosterProblem(f"{where}: {text}", (*at, name, *_path(inner.rstrip("`")))))
    return problems


def _did_you_mean(key: str, fields: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, fields, n=1)
    return f": did you mean `{close[0]}`?" if close else " (docs/file-formats.md lists the fields)"


def _path(inner: str) -> tuple[str | int, ...]:
    """`[0].name` -> (0, "name")."""
    return tuple(int(index) if index else name for index, name in re.findall(r"\[(\d+)\]|\.(\w+)", inner))


def _datacard_problems(op: OperativeEntry) -> list[str]:
    """What the datacard's values have wrong (each weapon on its own), then what the rules refuse."""
    problems: list[str] = []
    card = _datacard(op, problems)
    return problems + check_datacard(card)


def _line(lines: list[str], at: tuple[str | int, ...]) -> int | None:
    """The line of a field in the roster file: a top-level key, or a field of the n-th [[table]]
    (of its n-th weapon: an inline table a line, all on the `weapons = [` line, or [[operatives.weapons]])."""
    if not at:
        return None
    key = str(at[0])
    tables = [i for i, text in enumerate(lines) if text.strip() == f"[[{key}]]"]
    if len(at) == 1 or not isinstance(at[1], int):
        first_table = next((i for i, text in enumerate(lines) if text.lstrip().startswith("[")), len(lines))
        return _field_line(lines, range(first_table), key) or (tables[0] + 1 if tables else None)
    if at[1] >= len(tables):
        return None
    start = tables[at[1]]
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[") and not _sub_table(lines[i], key)), len(lines))
    rest = at[2:]
    if len(rest) >= 2 and rest[0] == "weapons" and isinstance(rest[1], int):
        return _weapon_line(lines, range(start, end), f"{key}.weapons", rest[1], str(rest[2]) if len(rest) > 2 else None) or start + 1
    field = rest[0] if rest and isinstance(rest[0], str) else None
    own = next((i for i in range(start + 1, end) if _sub_table(lines[i], key)), end)
    return (_field_line(lines, range(start, own), field) if field else None) or start + 1


def _sub_table(line: str, key: str) -> bool:
    return line.strip().startswith((f"[[{key}.", f"[{key}."))


def _weapon_line(lines: list[str], block: range, table: str, index: int, field: str | None) -> int | None:
    """The n-th weapon's line in an operative's block: its [[operatives.weapons]] table (the
    field's line in it), or its inline table."""
    headers = [i for i in block if lines[i].strip() == f"[[{table}]]"]
    if headers:
        if index >= len(headers):
            return None
        end = headers[index + 1] if index + 1 < len(headers) else block.stop
        return (_field_line(lines, range(headers[index], end), field) if field else None) or headers[index] + 1
    opening = _field_line(lines, block, "weapons")
    if opening is None:
        return None
    inline: list[int] = []
    for i in range(opening - 1, block.stop):
        if i > opening - 1 and lines[i].lstrip().startswith("]"):
            break
        if lines[i].lstrip().startswith("{") or (i == opening - 1 and "{" in lines[i]):
            inline.append(i)
    return inline[index] + 1 if index < len(inline) else opening


def _field_line(lines: list[str], block: range, field: str) -> int | None:
    return next((i + 1 for i in block if re.match(rf"\s*{re.escape(field)}\s*=", lines[i])), None)


def _team(spec: RosterFile) -> tuple[tuple[Ploy, ...], tuple[Equipment, ...], tuple[Resource, ...]]:
    """The kill team's ploys, equipment and resources; an equipment weapon that cannot be read raises ValueError."""
    ploys = tuple(Ploy(name=p.name.strip(), kind=p.kind, cp=p.cp, reminder=p.reminder) for p in spec.ploys)
    equipment = []
    for e in spec.equipment:
        if e.weapon is not None and e.weapons:
            raise ValueError(f"equipment {e.name!r}: give weapon (one) or weapons (several), not both")
        try:
            weapons = tuple(_weapon(w) for w in ([e.weapon] if e.weapon is not None else e.weapons))
        except ValueError as exc:
            raise ValueError(f"equipment {e.name!r}: {exc}") from exc
        equipment.append(Equipment(name=e.name.strip(), reminder=e.reminder, weapons=weapons))
    resources = tuple(Resource(name=r.name.strip(), start=r.start, reminder=r.reminder) for r in spec.resources)
    return ploys, tuple(equipment), resources


def _team_problems(raw: dict) -> list[RosterProblem]:
    """What the ploys, equipment and resources have wrong beyond their fields' types: an
    equipment weapon's values, a name used twice (ktlog.rules.team.check_team)."""
    tables = {key: raw[key] for key in ("ploys", "equipment", "resources") if key in raw}
    try:
        spec = msgspec.convert({"name": "", "operatives": [], **tables}, RosterFile)
    except msgspec.ValidationError:
        return []  # found field by field
    try:
        team = _team(spec)
    except ValueError as exc:
        return [RosterProblem(str(exc), ("equipment",))]
    table = {"ploy": "ploys", "resource": "resources"}
    return [RosterProblem(text, (table.get(word := text.split(":")[0].split(" ")[0], word),)) for text in check_team(*team)]


def is_npo(faction: object, keywords: object) -> bool:
    """Non-player operatives (pg 89): the roster's faction is NPO, or the datacard has the keyword."""
    words = keywords if isinstance(keywords, list) else []
    return str(faction).casefold() == "npo" or any(isinstance(k, str) and k.strip().upper() == "NPO" for k in words)


def _read_older_wording(raw: dict) -> tuple[dict, list[str]]:
    """The roster file's data with the older wording of pg 89 read into fields (ktlog.wording),
    and a warning for each; Heavy by keyword or name only on NPO datacards."""
    operatives = raw.get("operatives")
    if not isinstance(operatives, list):
        return raw, []
    read: list[object] = []
    warnings: list[str] = []
    for op in operatives:
        if not isinstance(op, dict):
            read.append(op)
            continue
        card, notes = read_wording(op, heavy=is_npo(raw.get("faction"), op.get("keywords")))
        read.append(card)
        warnings += [f"operative {card.get('name')!r}: {note}; write that field in the roster file instead of relying on the wording" for note in notes]
    return {**raw, "operatives": read}, warnings


def user_roster_folder() -> Path:
    """`KTLOG_ROSTERS`, else rosters/ in the user's data directory (beside the default database)."""
    env = os.environ.get("KTLOG_ROSTERS")
    return Path(env) if env else platformdirs.user_data_path("ktlog") / "rosters"


def find_roster(name: str) -> Path:
    """A roster file by path, or by name in the user's roster folder, then among the samples
    (`kasrkin`, `My Kasrkin` and `my-kasrkin` all name my-kasrkin.toml). An argument that
    names a path (it holds a `/` or ends in `.toml`) is that file or nothing: a folder mistyped
    is never replaced by another roster of the same file name."""
    path = Path(name)
    if path.is_file() or (names_a_path(name) and path.exists()):  # a pipe, a device or a folder: the reader says what it is
        return path
    if names_a_path(name):
        raise RosterError(
            f"no roster file {name!r}: nothing is at that path (a roster given with a / or .toml is a path); "
            "check the path, or give a roster's name alone to look it up (ktlog roster list shows them)"
        )
    for folder in (user_roster_folder(), SAMPLE_ROSTERS):
        for candidate in (folder / f"{name}.toml", folder / f"{slug(name)}.toml"):
            if candidate.is_file():
                return candidate
    raise RosterError(f"no roster {name!r}: not a file, and not in {user_roster_folder()} or the samples; ktlog roster list shows them")


def names_a_path(name: str) -> bool:
    """Whether a roster argument is a path rather than a roster's name: it holds a folder separator or ends in .toml."""
    return "/" in name or os.sep in name or name.strip().lower().endswith(".toml")


def _weapon(w: WeaponEntry) -> Weapon:
    if w.kind not in ("ranged", "melee"):
        raise ValueError(f"weapon {w.name!r}: kind {w.kind!r} is neither ranged nor melee")
    normal, crit = _damage(w.dmg, w.name)
    if w.one_in is not None and w.one_in < 2:
        raise ValueError(f"weapon {w.name!r}: one_in {w.one_in} is below 2 (1 in 1 is every operative: leave one_in out)")
    return Weapon(
        name=w.name,
        kind=cast(WeaponKind, w.kind),  # checked above
        atk=w.atk,
        hit=_stat(w.hit, f"weapon {w.name!r}: hit"),
        normal_dmg=normal,
        crit_dmg=crit,
        rules=tuple(w.rules),
        critical_rules=tuple(w.critical_rules),
        one_in=w.one_in,
    )


def _datacard(op: OperativeEntry, problems: list[str] | None = None) -> Datacard:
    """The operative's datacard; a value that cannot be read raises ValueError, or, given
    `problems`, is added to them and the card made without it (to find the card's other problems)."""

    def read(make: Callable[[], T], fallback: T) -> T:
        if problems is None:
            return make()
        try:
            return make()
        except ValueError as exc:
            problems.append(str(exc))
            return fallback

    weapons = [read(partial(_weapon, w), None) for w in op.weapons]
    invulnerable = op.invulnerable_save
    return Datacard(
        name=op.name,
        apl=op.apl,
        move=op.move,
        save=read(lambda: _stat(op.save, "save"), 4),
        wounds=op.wounds,
        weapons=tuple(w for w in weapons if w is not None),
        keywords=tuple(op.keywords),
        rules=tuple(op.rules),
        unique_actions=tuple(op.unique_actions),
        base_mm=op.base_mm,
        group_activation=op.ga,
        defence=op.df,
        invulnerable_save=None if invulnerable is None else read(lambda: _stat(invulnerable, "invulnerable_save"), None),
        heavy=op.heavy,
        double_action=read(lambda: _double_action(op), ()),
    )


def _double_action(op: OperativeEntry) -> tuple[str, ...]:
    """double_action as the actions' own names; each an action or one of the card's unique actions."""
    known = {a.casefold(): a for a in (*sorted(actions()), *(u.name for u in op.unique_actions))}
    unknown = [a for a in op.double_action if a.strip().casefold() not in known]
    if unknown:
        raise ValueError(
            f"double_action {', '.join(map(repr, unknown))}: not an action; name actions as printed, e.g. "
            f'double_action = ["Shoot"] ({", ".join(sorted(actions()))}, or a unique action of the datacard)'
        )
    return tuple(dict.fromkeys(known[a.strip().casefold()] for a in op.double_action))
