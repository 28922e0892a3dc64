"""What a roster or catalogue says about a kill team, before it is mapped to datacards: each
operative entry as its profiles (typed, with their characteristics as printed), categories and
notes on what the reader could not follow."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from xml.etree.ElementTree import Element

from ...errors import RosterError

Edition = Literal["kt24", "kt21"]

_YEARS: tuple[tuple[str, Edition], ...] = (("2024", "kt24"), ("2021", "kt21"))
_SYSTEM_IDS: dict[str, Edition] = {"c521-ad27-44df-f959": "kt24", "3b7e-7dab-f79f-2e74": "kt21"}
"""The BSData game system ids of Kill Team (2024) and Kill Team (2021)."""


@dataclass
class Profile:
    kind: str
    """The profile type's name: "Operative", "Weapons", "Unique Actions", "Abilities" ..."""
    name: str
    values: dict[str, str]
    """Characteristic name -> text as printed ("6\\"", "3+", "Range 8\\", Piercing 1")."""
    where: str
    """The elements it came from, for messages."""


@dataclass
class Entry:
    """One operative as the file has it (a roster selection, or a catalogue's operative type), or
    one piece of equipment (its Equipment profile and the Weapons profiles it gives)."""

    name: str
    number: int
    profiles: list[Profile]
    categories: list[str]
    where: str
    notes: list[str] = field(default_factory=list)


@dataclass
class Team:
    name: str
    """The kill team: the catalogue's name."""
    edition: Edition
    source: str
    """The file read (its name only)."""
    revision: str | None
    """The catalogue's revision."""
    entries: list[Entry]
    title: str | None = None
    """The roster's own name, as the player called it."""
    equipment: list[Entry] = field(default_factory=list)
    """The equipment: a roster's chosen, a catalogue's every option (its own and the game system's universal equipment)."""


def edition_of(system_name: str | None, system_id: str | None, path: Path) -> Edition:
    """Kill Team 2024 or 2021, from the game system a file names; any other system is refused."""
    name = system_name or ""
    if "kill team" in name.lower():
        for year, edition in _YEARS:
            if year in name:
                return edition
    if system_id in _SYSTEM_IDS:
        return _SYSTEM_IDS[system_id]
    raise RosterError(
        f"{path}: made for the game system {name or system_id or '(none named)'!r}, not Kill Team (2024) or "
        "Kill Team (2021); build the roster in a Kill Team game system and export it again"
    )


def profile_of(element: Element, where: str) -> Profile:
    """A `profile` element: its type, name and characteristics (missing text is an empty value)."""
    name = element.get("name", "").strip()
    values = {c.get("name", ""): (c.text or "").strip() for c in element.iterfind("characteristics/characteristic")}
    return Profile(kind=element.get("typeName", ""), name=name, values=values, where=f"{where} > profile {name!r}")
