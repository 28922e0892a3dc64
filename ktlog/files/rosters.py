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

A KT21 datacard adds `ga` (group activation, default 1), `df` (defence dice, default 3),
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

    [[resources]]
    name = "Faith"
    start = 2
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import platformdirs

from ..data import SAMPLE_ROSTERS
from ..errors import RosterError
from ..events import EVENT_TYPES, Action, Datacard, Equipment, Event, OperativeAdded, PlayerJoined, Ploy, Resource, UniqueAction, Weapon
from ..rules.setup import check_datacard
from ..rules.team import MAX_PLOY_CP, MAX_RESOURCE, check_team
from ..wording import read_wording

ACTIONS = {cls.name for cls in EVENT_TYPES.values() if issubclass(cls, Action)} - {"Killzone action", "Unique action"}
"""The actions a datacard's double_action may name, besides its own unique actions (pg 40-45)."""


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
    """One of the kill team's equipment options (Equipment, pg 50), with the weapon it gives, if any."""

    name: str
    reminder: Reminder | None = None
    weapon: Annotated[
        WeaponEntry | None, msgspec.Meta(description="A weapon any of the player's operatives can use once the option is selected (e.g. a grenade)")
    ] = None


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
    repeated = {i for i in select or () if select.count(i) > 1}
    seen: dict[str, int] = {}
    for op in roster.select(select):
        seen[op.id] = seen.get(op.id, 0) + 1
        op_id = game_id_for(f"{op.id}-{seen[op.id]}" if op.id in repeated else op.id, player, taken)
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
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", value)
    if not m:
        raise ValueError(f"weapon {weapon!r}: dmg {value!r} is not like 3/4 (normal/critical)")
    return int(m[1]), int(m[2])


def load_roster(path: str | Path) -> Roster:
    """Read and check a roster file; errors name the file, the operative and the field."""
    path = Path(path)
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RosterError(f"{where}: cannot read the roster file: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RosterError(f"{where}: not valid TOML: {exc}. Fix that line of the roster file") from exc
    raw, warnings = _read_older_wording(raw)
    try:
        spec = msgspec.convert(raw, RosterFile)
    except msgspec.ValidationError as exc:
        text, _, at = str(exc).partition(" - at `$")
        raise RosterError(f"{where}: {text}" + (f" (at {at.rstrip('`').lstrip('.')})" if at else "") + "; fix the roster file") from exc
    operatives: list[RosterOperative] = []
    for spec_op in spec.operatives:
        try:
            card = _datacard(spec_op)
        except ValueError as exc:
            raise RosterError(f"{where}: operative {spec_op.name!r}: {exc}") from exc
        problems = check_datacard(card)
        if problems:
            raise RosterError(f"{where}: operative {spec_op.name!r}: {'; '.join(problems)}")
        base = spec_op.id or slug(spec_op.name)
        ids = [base] if spec_op.count == 1 else [f"{base}-{i}" for i in range(1, spec_op.count + 1)]
        operatives.extend(RosterOperative(i, card) for i in ids)
    seen: set[str] = set()
    for op in operatives:
        if op.id in seen:
            raise RosterError(f"{where}: two operatives have the id {op.id!r}; give one an `id`")
        seen.add(op.id)
    if not operatives:
        raise RosterError(f"{where}: the roster has no operatives")
    try:
        equipment = _equipment(spec.equipment)
    except ValueError as exc:
        raise RosterError(f"{where}: {exc}; fix the roster file") from exc
    ploys = tuple(Ploy(name=p.name.strip(), kind=p.kind, cp=p.cp, reminder=p.reminder) for p in spec.ploys)
    resources = tuple(Resource(name=r.name.strip(), start=r.start, reminder=r.reminder) for r in spec.resources)
    problems = check_team(ploys, equipment, resources)
    if problems:
        raise RosterError(f"{where}: {'; '.join(problems)}; fix the roster file")
    return Roster(
        name=spec.name,
        faction=spec.faction,
        archetypes=tuple(spec.archetypes),
        operatives=tuple(operatives),
        path=where,
        source=spec.source,
        revision=spec.revision,
        warnings=tuple(f"{where}: {w}" for w in warnings),
        ploys=ploys,
        equipment=equipment,
        resources=resources,
    )


def _equipment(entries: list[EquipmentEntry]) -> tuple[Equipment, ...]:
    out = []
    for e in entries:
        try:
            weapon = None if e.weapon is None else _weapon(e.weapon)
        except ValueError as exc:
            raise ValueError(f"equipment {e.name!r}: {exc}") from exc
        out.append(Equipment(name=e.name.strip(), reminder=e.reminder, weapon=weapon))
    return tuple(out)


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
    (`kasrkin`, `My Kasrkin` and `my-kasrkin.toml` all name my-kasrkin.toml)."""
    path = Path(name)
    if path.is_file():
        return path
    stem = slug(path.stem if path.suffix == ".toml" else name)
    for folder in (user_roster_folder(), SAMPLE_ROSTERS):
        for candidate in (folder / f"{path.stem}.toml", folder / f"{stem}.toml"):
            if candidate.is_file():
                return candidate
    raise RosterError(f"no roster {name!r}: not a file, and not in {user_roster_folder()} or the samples; ktlog roster list shows them")


def _weapon(w: WeaponEntry) -> Weapon:
    if w.kind not in ("ranged", "melee"):
        raise ValueError(f"weapon {w.name!r}: kind {w.kind!r} is neither ranged nor melee")
    normal, crit = _damage(w.dmg, w.name)
    if w.one_in is not None and w.one_in < 2:
        raise ValueError(f"weapon {w.name!r}: one_in {w.one_in} is below 2 (1 in 1 is every operative: leave one_in out)")
    return Weapon(
        name=w.name,
        kind=w.kind,
        atk=w.atk,
        hit=_stat(w.hit, f"weapon {w.name!r}: hit"),
        normal_dmg=normal,
        crit_dmg=crit,
        rules=tuple(w.rules),
        critical_rules=tuple(w.critical_rules),
        one_in=w.one_in,
    )


def _datacard(op: OperativeEntry) -> Datacard:
    weapons = [_weapon(w) for w in op.weapons]
    return Datacard(
        name=op.name,
        apl=op.apl,
        move=op.move,
        save=_stat(op.save, "save"),
        wounds=op.wounds,
        weapons=tuple(weapons),
        keywords=tuple(op.keywords),
        rules=tuple(op.rules),
        unique_actions=tuple(op.unique_actions),
        base_mm=op.base_mm,
        group_activation=op.ga,
        defence=op.df,
        invulnerable_save=None if op.invulnerable_save is None else _stat(op.invulnerable_save, "invulnerable_save"),
        heavy=op.heavy,
        double_action=_double_action(op),
    )


def _double_action(op: OperativeEntry) -> tuple[str, ...]:
    """double_action as the actions' own names; each an action or one of the card's unique actions."""
    known = {a.casefold(): a for a in (*sorted(ACTIONS), *(u.name for u in op.unique_actions))}
    unknown = [a for a in op.double_action if a.strip().casefold() not in known]
    if unknown:
        raise ValueError(
            f"double_action {', '.join(map(repr, unknown))}: not an action; name actions as printed, e.g. "
            f'double_action = ["Shoot"] ({", ".join(sorted(ACTIONS))}, or a unique action of the datacard)'
        )
    return tuple(dict.fromkeys(known[a.strip().casefold()] for a in op.double_action))
