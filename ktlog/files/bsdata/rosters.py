"""A roster export (BattleScribe `.ros`/`.rosz`, New Recruit `.json`) -> the operatives chosen.

    roster > forces > force (catalogueName, catalogueRevision) > selections > selection
      selection (name, number, type "model") > profiles > profile (typeName) > characteristics
      selection > selections > selection (its weapons and equipment, with their profiles)
      selection > categories > category (name)

An operative is a selection with an Operative profile of its own; its profiles are its own and
those of the selections inside it. A piece of equipment is a selection outside the operatives
with an Equipment profile, or any selection with profiles inside a selection named like
"Equipment Reference" (a faction's relic is an ability).
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element

from ...errors import RosterError
from .documents import read_document
from .teams import Entry, Team, edition_of, profile_of


def read_roster(path: Path) -> Team:
    root = read_document(path)
    if root.tag != "roster":
        hint = "; a catalogue is imported with its game system: ktlog roster import FILE.cat --system FILE.gst" if root.tag == "catalogue" else ""
        raise RosterError(f"{path}: not a roster: its top element is <{root.tag}>, not <roster>{hint}")
    edition = edition_of(root.get("gameSystemName"), root.get("gameSystemId"), path)
    forces = list(root.iter("force"))
    if not forces:
        raise RosterError(f"{path}: the roster has no force (no kill team chosen); add your kill team in the roster app and export it again")
    entries: list[Entry] = []
    equipment: list[Entry] = []
    for force in forces:
        for selection in force.iterfind("selections/selection"):
            _collect(selection, f"{path}: force {force.get('catalogueName', '')!r}", entries, equipment)
    first = forces[0]
    return Team(
        name=first.get("catalogueName") or root.get("name") or path.stem,
        edition=edition,
        source=path.name,
        revision=first.get("catalogueRevision"),
        entries=entries,
        title=root.get("name"),
        equipment=equipment,
    )


def _collect(selection: Element, where: str, entries: list[Entry], equipment: list[Entry], *, among_equipment: bool = False) -> None:
    where = f"{where} > selection {selection.get('name', '')!r}"
    own = [profile_of(p, where) for p in selection.iterfind("profiles/profile")]
    profiles = [profile_of(p, where) for p in selection.iter("profile")]
    if (among_equipment and own or any(p.kind == "Equipment" for p in own)) and not any(p.kind == "Operative" for p in profiles):
        equipment.append(Entry(name=selection.get("name", "").strip(), number=1, profiles=profiles, categories=[], where=where))
        return
    if not any(p.kind == "Operative" for p in own):
        for child in selection.iterfind("selections/selection"):
            _collect(child, where, entries, equipment, among_equipment="equipment" in selection.get("name", "").lower())
        return
    categories = [c.get("name", "") for c in selection.iterfind("categories/category")]
    try:
        number = int(selection.get("number", "1"))
    except ValueError as exc:
        raise RosterError(f"{where}: number {selection.get('number')!r} is not a whole number; export the roster again") from exc
    entries.append(Entry(name=selection.get("name", "").strip(), number=number, profiles=profiles, categories=categories, where=where))
