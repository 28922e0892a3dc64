"""A BSData catalogue and its game system -> every operative type of the kill team, each with
every weapon option it can take.

    catalogue (name, revision, gameSystemId) > selectionEntries > selectionEntry type="model"
      selectionEntry > profiles > profile, infoLinks > infoLink type="profile" (shared profiles)
      selectionEntry > selectionEntries | selectionEntryGroups | entryLinks (options, followed)
      selectionEntry > categoryLinks > categoryLink (targetId: a categoryEntry)
    catalogue > catalogueLinks > catalogueLink (another catalogue whose entries it uses)

Equipment: every option with an Equipment profile, or in a group named like "... Equipment",
under the catalogue's root entries that are not operatives (its "Faction Equipment" group, on the link to the game system's "Equipment
Reference" entry, and the "Universal Equipment" group that entry links to).

Entries, profiles and categories are found by id in the catalogue, its game system and the
catalogues it links to. A profile's `set` modifier is applied when its condition is "this
operative is (or is not) an instance of entry X"; any other modifier is noted, not applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from ...errors import RosterError
from .documents import read_document
from .teams import Edition, Entry, Profile, Team, edition_of, profile_of

_FILES = (".cat", ".catz")
_SYSTEMS = (".gst", ".gstz")
_OPTIONS = ("selectionEntries/selectionEntry", "selectionEntryGroups/selectionEntryGroup", "entryLinks/entryLink")
_INDEXED = {"selectionEntry", "selectionEntryGroup", "profile", "categoryEntry"}
_ENTRY_SCOPES = {"ancestor", "root-entry", "parent", "self"}


@dataclass
class System:
    root: Element
    edition: Edition
    path: Path


def read_system(path: Path) -> System:
    root = read_document(path)
    if root.tag != "gameSystem":
        raise RosterError(f"{path}: not a game system file: its top element is <{root.tag}>, not <gameSystem>; give the .gst file with --system")
    return System(root, edition_of(root.get("name"), root.get("id"), path), path)


def read_catalogue(path: Path, system: System, library: dict[str, Element] | None = None) -> Team:
    """`library`: catalogues by id, for the ones this catalogue links to (default: those in its folder)."""
    root = _catalogue_root(path)
    if root.get("gameSystemId") != system.root.get("id"):
        raise RosterError(
            f"{path}: the catalogue is for game system {root.get('gameSystemId')!r}, and {system.path.name} is "
            f"{system.root.get('id')!r} ({system.root.get('name')}); give the catalogue's own game system with --system"
        )
    linked = [link.get("targetId", "") for link in root.iterfind("catalogueLinks/catalogueLink")]
    if linked and library is None:
        library = read_library(path.parent, skip=path)
    index = _Index([system.root, root] + [library[i] for i in linked if library and i in library])
    missing = [link.get("name", "") for link in root.iterfind("catalogueLinks/catalogueLink") if not library or link.get("targetId") not in library]
    entries = []
    for element in _operative_entries(root, index):
        entry = _entry(element, index, f"{path}: entry {element.get('name', '')!r}")
        if missing:
            entry.notes.append(f"linked catalogues not found beside it: {', '.join(missing)}")
        entries.append(entry)
    return Team(
        name=root.get("name") or path.stem,
        edition=system.edition,
        source=path.name,
        revision=root.get("revision"),
        entries=entries,
        equipment=_equipment(root, index, f"{path}: equipment"),
    )


def read_library(folder: Path, *, skip: Path | None = None) -> dict[str, Element]:
    """The catalogues of a folder by id (files that cannot be read are left to their own import)."""
    library = {}
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in _FILES and p != skip):
        try:
            root = _catalogue_root(path)
        except RosterError:
            continue
        library[root.get("id", "")] = root
    return library


def read_folder(folder: Path) -> list[tuple[Path, Team | RosterError]]:
    """Every catalogue of a data folder, each read with the game system it names (from the same
    folder), or the error that stopped it."""
    systems: dict[str, System] = {}
    refused: list[RosterError] = []
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in _SYSTEMS):
        try:
            system = read_system(path)
        except RosterError as exc:
            refused.append(exc)
            continue
        systems[system.root.get("id", "")] = system
    if not systems:
        found = f" ({'; '.join(map(str, refused))})" if refused else ""
        raise RosterError(
            f"{folder}: no Kill Team game system file (.gst or .gstz) in the folder{found}; give the BSData folder that holds the catalogues and their .gst"
        )
    library = read_library(folder)
    results: list[tuple[Path, Team | RosterError]] = []
    for path in sorted(p for p in folder.iterdir() if p.suffix.lower() in _FILES):
        try:
            root = _catalogue_root(path)
            if root.get("library") == "true":
                continue
            system = systems.get(root.get("gameSystemId", ""))
            if system is None:
                raise RosterError(f"{path}: its game system ({root.get('gameSystemId')}) is not in the folder, or is not Kill Team (2024 or 2021)")
            results.append((path, read_catalogue(path, system, library)))
        except RosterError as exc:
            results.append((path, exc))
    return results


def _catalogue_root(path: Path) -> Element:
    root = read_document(path)
    if root.tag != "catalogue":
        raise RosterError(f"{path}: not a catalogue: its top element is <{root.tag}>, not <catalogue>")
    return root


class _Index:
    """Entries, profiles and category names by id across the documents given."""

    def __init__(self, roots: list[Element]):
        self.by_id: dict[str, Element] = {}
        for root in roots:
            for element in root.iter():
                if element.tag in _INDEXED and (ident := element.get("id")):
                    self.by_id.setdefault(ident, element)

    def target(self, link: Element) -> Element | None:
        return self.by_id.get(link.get("targetId", ""))


def _operative_entries(root: Element, index: _Index) -> list[Element]:
    found = []
    for element in [*root.iterfind("selectionEntries/selectionEntry"), *root.iterfind("entryLinks/entryLink")]:
        entry = index.target(element) if element.tag == "entryLink" else element
        if entry is not None and entry.get("type") == "model" and element.get("hidden") != "true":
            found.append(entry)
    return found


def _equipment(root: Element, index: _Index, where: str) -> list[Entry]:
    """Each piece of equipment once (by name), found under the root entries that are not operatives."""
    found: dict[str, Entry] = {}
    seen: set[str] = set()

    def walk(element: Element, where: str) -> None:
        grouped = element.tag == "selectionEntryGroup" and "equipment" in element.get("name", "").lower()
        for option in (o for path in _OPTIONS for o in element.iterfind(path)):
            target = index.target(option) if option.tag == "entryLink" else option
            if target is None or option.get("hidden") == "true" or target.get("hidden") == "true" or target.get("type") == "model":
                continue
            if option.tag == "entryLink":
                walk(option, where)  # a link may carry options of its own (a kill team's Faction Equipment)
            if target.get("id") in seen:
                continue
            seen.add(target.get("id", ""))
            named = f"{where} > {target.get('name', '')!r}"
            if target.tag == "selectionEntry" and (grouped or any(p.get("typeName") == "Equipment" for p in target.iterfind("profiles/profile"))):
                entry = Entry(name=target.get("name", "").strip(), number=1, profiles=[], categories=[], where=named)
                entry.profiles = list(_profiles(target, [target.get("id", "")], index, named, entry.notes, set()))
                found.setdefault(entry.name, entry)
            else:
                walk(target, named)

    walk(root, where)
    return list(found.values())


def _entry(element: Element, index: _Index, where: str) -> Entry:
    notes: list[str] = []
    profiles = list(_profiles(element, [element.get("id", "")], index, where, notes, set()))
    categories = []
    for link in element.iterfind("categoryLinks/categoryLink"):
        category = index.target(link)
        if category is None or category.get("hidden") != "true":
            categories.append(category.get("name", "") if category is not None else link.get("name", ""))
    return Entry(name=element.get("name", "").strip(), number=1, profiles=profiles, categories=categories, where=where, notes=notes)


def _profiles(element: Element, chain: list[str], index: _Index, where: str, notes: list[str], seen: set[str]):
    """The profiles of an entry and of every option inside it, links followed, each once."""
    for profile in element.iterfind("profiles/profile"):
        if (found := _profile(profile, chain, where, notes)) is not None:
            yield found
    for link in element.iterfind("infoLinks/infoLink"):
        target = index.target(link)
        if link.get("type") == "profile" and target is not None and (found := _profile(target, chain, where, notes)) is not None:
            yield found
    for option in (o for path in _OPTIONS for o in element.iterfind(path)):
        target = index.target(option) if option.tag == "entryLink" else option
        if target is None:
            notes.append(f"option {option.get('name', '')!r}: its entry {option.get('targetId')} is not in the catalogue or game system")
            continue
        if option.get("hidden") == "true" or target.get("hidden") == "true" or target.get("type") == "model" or target.get("id") in seen:
            continue
        seen.add(target.get("id", ""))
        yield from _profiles(target, [*chain, option.get("id", ""), target.get("id", "")], index, f"{where} > {target.get('name', '')!r}", notes, seen)


def _profile(element: Element, chain: list[str], where: str, notes: list[str]) -> Profile | None:
    """The profile as this operative has it (its modifiers applied), or None when it is hidden for it."""
    profile = profile_of(element, where)
    if element.get("hidden") == "true":
        return None
    names = {c.get("typeId"): c.get("name", "") for c in element.iterfind("characteristics/characteristic")}
    for modifier in element.iterfind("modifiers/modifier"):
        field = modifier.get("field")
        applies = _applies(modifier, chain)
        if modifier.get("type") == "set" and applies is not None and (field in names or field == "hidden"):
            if applies and field == "hidden" and modifier.get("value") == "true":
                return None
            if applies and field in names:
                profile.values[names[field]] = modifier.get("value", "")
        else:
            notes.append(
                f"{profile.name!r}: a {modifier.get('type')} modifier of {names.get(field, field)} not applied "
                "(its condition is not one ktlog reads); check that value"
            )
    return profile


def _applies(modifier: Element, chain: list[str]) -> bool | None:
    """Whether a modifier's conditions hold for this operative; None when ktlog cannot tell."""
    results = [_condition(c, chain) for c in modifier.iterfind("conditions/condition")]
    for group in modifier.iterfind("conditionGroups/conditionGroup"):
        inner = [_condition(c, chain) for c in group.iterfind("conditions/condition")]
        if None in inner or group.find("conditionGroups") is not None:
            return None
        results.append(any(inner) if group.get("type") == "or" else all(inner))
    return None if None in results else all(results)


def _condition(condition: Element, chain: list[str]) -> bool | None:
    kind = condition.get("type")
    if kind not in ("instanceOf", "notInstanceOf") or condition.get("scope") not in _ENTRY_SCOPES:
        return None
    return (condition.get("childId") in chain) == (kind == "instanceOf")
