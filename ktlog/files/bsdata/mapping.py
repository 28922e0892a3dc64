"""A team as read -> ktlog roster data: datacards in the roster file's shape (see
ktlog.files.rosters), with notes on what was kept but needs a look and what was left out.

KT24 profiles: Operative (APL, Move, Save, Wounds), Weapons (ATK, HIT, DMG, WR), Unique Actions
named like "Tactical Command (1AP)", Abilities. KT21 profiles: Operative (M, APL, GA, DF, SV,
W; distances as circle symbols, 3⬤ is 6"), Weapons (A, WS/BS, D, SR, ! for critical hit rules).
A weapon's kind is its name's symbol (⌖ ranged, ⚔ melee); without one, a weapon with a Range,
Rng, Blast or Torrent rule is ranged and any other melee, and that is noted. Categories become
keywords, except the structural ones; abilities are kept by name, and an ability whose text says
"can perform two Shoot actions during its activation" becomes double_action (noted). BSData has
no archetypes: they are given, or left out.

Equipment becomes the roster's [[equipment]]: its name, and its weapon where it gives one, or its
weapons where it gives several (explosive grenades: frag and krak are one option, pg 110, not
one entry a weapon). The Equipment text is
the publisher's rules text: it is not copied (no reminder; the player may write one). The data
has no ploys and no CP costs (BSData's KT2024 and KT2021 files, 2026-11): the player adds ploys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...events import Datacard, Weapon
from ...rules.not_applied import TWICE_WORDING
from ...rules.setup import check_datacard
from ...rules.weapons import weapon_profile
from ...rulesets import of_datacards
from ...wording import TWICE
from ..rosters import slug
from .teams import Edition, Entry, Profile, Team

STRUCTURAL = {"operative", "configuration", "reference"}
"""Categories that sort entries in the roster app and are no keyword of an operative."""

_STATS: dict[Edition, dict[str, tuple[str, ...]]] = {
    "kt24": {"operative": ("APL", "Move", "Save", "Wounds"), "weapon": ("ATK", "HIT", "DMG", "WR")},
    "kt21": {"operative": ("M", "APL", "GA", "DF", "SV", "W"), "weapon": ("A", "WS/BS", "D", "SR", "!")},
}
_SHAPES = {"▲": 1, "⬤": 2, "●": 2, "■": 3, "⬛": 3, "⬟": 6}
"""KT21 distance symbols: triangle 1", circle 2", square 3", pentagon 6"."""
_KINDS = {"⌖": "ranged", "⚔": "melee"}
_RANGED_RULE = re.compile(r"^(range|rng|blast|torrent)\b", re.I)
_ACTION = re.compile(r"^(?P<name>.*?)\s*\((?P<ap>[0-9]+)\s*AP\)\s*$", re.I)


@dataclass
class MappedOperative:
    fields: dict
    """The operative as the roster file has it (name, id, count, apl, move, save ...)."""
    notes: list[str] = field(default_factory=list)


@dataclass
class MappedEquipment:
    fields: dict
    """The equipment as the roster file's [[equipment]] has it (name, weapon)."""
    notes: list[str] = field(default_factory=list)


@dataclass
class MappedTeam:
    name: str
    edition: Edition
    source: str
    revision: str | None
    archetypes: list[str]
    operatives: list[MappedOperative]
    left_out: list[str]
    """What could not be mapped, each naming the operative or weapon and why."""
    title: str | None = None
    equipment: list[MappedEquipment] = field(default_factory=list)

    @property
    def weapons(self) -> int:
        return len({w["name"] for o in self.operatives for w in o.fields["weapons"]})


class MissingCharacteristic(ValueError):
    """A profile without a characteristic its type has: the file is broken, nothing is imported."""


def map_team(team: Team, archetypes: list[str]) -> MappedTeam:
    operatives: list[MappedOperative] = []
    left_out: list[str] = []
    for entry in team.entries:
        mapped = _operative(entry, team.edition, left_out)
        if mapped is None:
            continue
        twin = next((o for o in operatives if {**o.fields, "count": 0} == {**mapped.fields, "count": 0}), None)
        if twin:
            twin.fields["count"] += mapped.fields["count"]
        else:
            operatives.append(mapped)
    _give_ids(operatives)
    return MappedTeam(
        name=team.name,
        edition=team.edition,
        source=team.source,
        revision=team.revision,
        archetypes=archetypes,
        operatives=operatives,
        left_out=left_out,
        title=team.title,
        equipment=[_equipment(item, team.edition, left_out) for item in team.equipment],
    )


def _give_ids(operatives: list[MappedOperative]) -> None:
    """Ids from names; operatives with the same name and different datacards are numbered."""
    names = [o.fields["name"] for o in operatives]
    seen: dict[str, int] = {}
    for o in operatives:
        base = slug(o.fields["name"]) or "operative"
        if names.count(o.fields["name"]) > 1:
            seen[base] = seen.get(base, 0) + 1
            base = f"{base}-{seen[base]}"
        o.fields["id"] = base


def _operative(entry: Entry, edition: Edition, left_out: list[str]) -> MappedOperative | None:
    stats = _STATS[edition]
    cards = [p for p in entry.profiles if p.kind == "Operative"]
    if not cards:
        left_out.append(f"{entry.name}: no Operative profile, so no datacard")
        return None
    card = cards[0]
    values = _values(card, stats["operative"])
    notes = list(entry.notes)
    try:
        if edition == "kt24":
            apl, move, save, wounds = (
                _number(values["APL"], "APL"),
                _distance(values["Move"], "Move"),
                _dice(values["Save"], "Save"),
                _number(values["Wounds"], "Wounds"),
            )
            extra = {}
        else:
            apl, move, save, wounds = _number(values["APL"], "APL"), _distance(values["M"], "M"), _dice(values["SV"], "SV"), _number(values["W"], "W")
            extra = {"ga": _number(values["GA"], "GA"), "df": _number(values["DF"], "DF")}
    except ValueError as exc:
        left_out.append(f"{entry.name}: {exc}; left out")
        return None
    weapons: list[dict] = []
    for profile in (p for p in entry.profiles if p.kind == "Weapons"):
        weapon = _weapon(profile, edition, notes, left_out, entry.name)
        if weapon is None or weapon in weapons:
            continue
        if any(w["name"] == weapon["name"] for w in weapons):
            notes.append(f"two profiles named {weapon['name']!r} differ; the second is kept as {weapon['name']} (2)")
            weapon["name"] += " (2)"
        weapons.append(weapon)
    abilities = [p for p in entry.profiles if p.kind == "Abilities"]
    fields = {
        "name": entry.name,
        "count": entry.number,
        "apl": apl,
        "move": move,
        "save": f"{save}+",
        "wounds": wounds,
        **extra,
        "keywords": [c.upper() for c in dict.fromkeys(entry.categories) if c and c.lower() not in STRUCTURAL],
        "rules": [p.name for p in abilities],
        "double_action": _double_action(abilities, notes),
        "weapons": weapons,
        "unique_actions": [_action(p, notes) for p in entry.profiles if p.kind == "Unique Actions"],
    }
    problems = check_datacard(_datacard(fields))
    if problems:
        hint = ' (a marker-like operative such as a beacon: ktlog needs Move 1" or more; note it in the game instead)' if move < 1 else ""
        left_out.append(f"{entry.name}: {'; '.join(problems)}{hint}; left out")
        return None
    if not weapons:
        notes.append("no weapons")
    return MappedOperative(fields, notes)


def _equipment(item: Entry, edition: Edition, left_out: list[str]) -> MappedEquipment:
    """A piece of equipment as one [[equipment]] option (pg 110 counts options), with its weapon,
    or its weapons when it gives several."""
    notes = list(item.notes)
    weapons = [w for p in item.profiles if p.kind == "Weapons" and (w := _weapon(p, edition, notes, left_out, f"equipment {item.name!r}")) is not None]
    if len(weapons) <= 1:
        return MappedEquipment({"name": item.name, **({"weapon": weapons[0]} if weapons else {})}, notes)
    notes.append(f"{item.name} gives {len(weapons)} weapons ({', '.join(w['name'] for w in weapons)}): one option, counted once (pg 110)")
    return MappedEquipment({"name": item.name, "weapons": weapons}, notes)


def _double_action(abilities: list[Profile], notes: list[str]) -> list[str]:
    """The actions an ability's text lets the operative perform twice in an activation (pg 39);
    an ability that only reads like one is noted as not applied, naming the field to write."""
    found = [(m[1].title(), p.name) for p in abilities for text in p.values.values() if (m := TWICE.search(text))]
    notes += [f'double_action = ["{action}"]: read from the ability {name!r}' for action, name in found]
    mapped = {name for _, name in found}
    loose = [p.name for p in abilities if p.name not in mapped and any(TWICE_WORDING.search(text) for text in p.values.values())]
    notes += [
        f'the ability {name!r} reads like an action performed twice in an activation and is not applied: write double_action = ["ACTION"] if it is one (pg 39)'
        for name in loose
    ]
    return list(dict.fromkeys(action for action, _ in found))


def _values(profile: Profile, names: tuple[str, ...]) -> dict[str, str]:
    missing = [n for n in names if n not in profile.values]
    if missing:
        raise MissingCharacteristic(
            f"{profile.where} ({profile.kind}) has no {', '.join(missing)} characteristic; fix or re-export the file (the roster app's data may be out of date)"
        )
    return profile.values


def _weapon(profile: Profile, edition: Edition, notes: list[str], left_out: list[str], operative: str) -> dict | None:
    stats = _STATS[edition]["weapon"]
    values = _values(profile, stats)
    atk, hit, dmg, printed = (values[s] for s in stats[:4])
    name = profile.name.strip()
    kind = _KINDS.get(name[:1])
    name = name[1:].strip() if kind else name
    rules = _rules(printed, edition)
    critical = _rules(values["!"], edition) if edition == "kt21" else []
    if kind is None:
        kind = "ranged" if any(_RANGED_RULE.match(r) for r in rules) else "melee"
        notes.append(f"{name}: no ⌖/⚔ symbol; taken as {kind} from its rules")
    damage = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", dmg)
    try:
        weapon = {"name": name, "kind": kind, "atk": _number(atk, "ATK"), "hit": f"{_dice(hit, 'HIT')}+"}
        if not damage:
            raise ValueError(f"Dmg {dmg!r} is not like 3/4 (normal/critical)")
    except ValueError as exc:
        left_out.append(f"{operative}: weapon {name!r}: {exc}; left out (add it by hand if it can be used)")
        return None
    weapon["dmg"] = f"{damage[1]}/{damage[2]}"
    if rules:
        weapon["rules"] = rules
    if critical:
        weapon["critical_rules"] = critical
    unknown = _unknown_rules(weapon, edition)
    if unknown:
        notes.append(f"{name}: {', '.join(unknown)} not a rule ktlog knows; kept by name (note its effect when it is used)")
    return weapon


def _rules(text: str, edition: Edition) -> list[str]:
    """`Range 8", Piercing 1` -> its rules; KT21 distance symbols as inches."""
    if edition == "kt21":
        text = re.sub(r"\s*([0-9]*)\s*([▲⬤●■⬛⬟])", lambda m: f' {int(m[1] or 1) * _SHAPES[m[2]]}"', text)
    return [r.strip() for r in text.split(",") if r.strip() and r.strip() not in ("-", "–")]


def _unknown_rules(weapon: dict, edition: Edition) -> list[str]:
    """Rules neither core nor marked * (a kill team's own rule, kept by name on purpose)."""
    played = Weapon(
        name=weapon["name"],
        kind=weapon["kind"],
        atk=1,
        hit=4,
        normal_dmg=1,
        crit_dmg=1,
        rules=tuple(weapon.get("rules", ())),
        critical_rules=tuple(weapon.get("critical_rules", ())),
    )
    played = of_datacards(edition).weapon_as_played(played)  # KT21's rules as the shared ones they are the same as
    return [r for r in weapon_profile(played.rules).other if not r.endswith("*")]


def _action(profile: Profile, notes: list[str]) -> dict:
    found = _ACTION.match(profile.name)
    if not found:
        notes.append(f"unique action {profile.name!r}: no (xAP) in its name; taken as 1AP")
        return {"name": profile.name, "ap": 1}
    return {"name": found["name"], "ap": int(found["ap"])}


def _number(text: str, what: str) -> int:
    if not re.fullmatch(r"[0-9]+", text.strip()):  # ASCII digits only: int() reads ٣ as 3
        raise ValueError(f"{what} {text!r} is not a number")
    return int(text)


def _dice(text: str, what: str) -> int:
    found = re.fullmatch(r"\s*([1-6])\+?\s*", text)
    if not found:
        raise ValueError(f"{what} {text!r} is not like 3+")
    return int(found[1])


def _distance(text: str, what: str) -> int:
    """6" or 3⬤ -> inches."""
    found = re.fullmatch(r'\s*([0-9]+)\s*(["″”]|[▲⬤●■⬛⬟])?\s*', text)
    if not found:
        raise ValueError(f"{what} {text!r} is not a distance")
    return int(found[1]) * _SHAPES.get(found[2] or '"', 1)


def _datacard(fields: dict) -> Datacard:
    weapons = tuple(
        Weapon(name=w["name"], kind=w["kind"], atk=w["atk"], hit=int(w["hit"][0]), normal_dmg=int(w["dmg"].split("/")[0]), crit_dmg=int(w["dmg"].split("/")[1]))
        for w in fields["weapons"]
    )
    return Datacard(
        name=fields["name"],
        apl=fields["apl"],
        move=fields["move"],
        save=int(fields["save"][0]),
        wounds=fields["wounds"],
        weapons=weapons,
        group_activation=fields.get("ga", 1),
        defence=fields.get("df", 3),
    )
