"""A mapped team -> a TOML roster file in the shape ktlog.files.rosters reads, written
atomically (a temporary file in the same folder, checked with load_roster, then renamed). What
the import noted and left out is written as comments (`# note: ...` opening an operative's table,
`# left out: ...` at the top), and read back by `import_flags` for the new-game form. Every value
is written by tomlkit: whatever text a catalogue holds, the file reads back as it was."""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from ...errors import RosterError
from ...text.safe import visible
from ..rosters import Roster, check_roster
from .mapping import MappedTeam

_NOTE, _LEFT_OUT = "note: ", "left out: "
_ORDER = ("name", "id", "count", "apl", "move", "ga", "df", "save", "wounds", "keywords", "rules", "double_action")


def render(team: MappedTeam) -> str:
    """The roster file's text: every value written by tomlkit (so any text a catalogue holds is a
    TOML string that reads back as it was), the import's notes as comments."""
    doc = tomlkit.document()
    title = f', roster "{team.title}"' if team.title else ""
    _comment(doc, f"{team.name}: imported by ktlog from {team.source}{title}.")
    _comment(doc, "Check every datacard against your own rules before a game; the data is the community's, not ktlog's.")
    for text in team.left_out:
        _comment(doc, _LEFT_OUT + text)
    doc.add("name", team.name)
    if team.archetypes:
        doc.add("archetypes", team.archetypes)
    else:
        _comment(doc, 'archetypes = ["...", "..."]  # BSData has no archetypes: add your kill team\'s two here')
    doc.add("source", team.source)
    if team.revision:
        doc.add("revision", team.revision)
    operatives = tomlkit.aot()
    for operative in team.operatives:
        fields = operative.fields
        table = _noted(operative.notes)
        for key in _ORDER:
            if key in fields and fields[key] != [] and (key, fields[key]) != ("count", 1):
                table.add(key, fields[key])
        table.add("weapons", _lines(fields["weapons"]))
        if fields["unique_actions"]:
            table.add("unique_actions", _lines(fields["unique_actions"], multiline=False))
        operatives.append(table)
    doc.add(tomlkit.nl())
    doc.add("operatives", operatives)
    if team.equipment:
        doc.add("equipment", _equipment_tables(team))
    return tomlkit.dumps(doc) + "\n".join(_PLOYS) + "\n"


def _comment(container, text: str) -> None:
    """A comment line (its control characters, a line break among them, as visible escapes: a
    comment never ends early)."""
    container.add(tomlkit.comment(visible(text)))


def _noted(notes: list[str]):
    """A [[table]] opened by the import's notes about it, `# note: ...` each."""
    table = tomlkit.table()
    for note in notes:
        _comment(table, _NOTE + note)
    return table


def _inline(fields: dict):
    table = tomlkit.inline_table()
    table.update({key: _inline(value) if isinstance(value, dict) else value for key, value in fields.items()})
    return table


def _lines(items: list[dict], *, multiline: bool = True):
    """An array of inline tables, one a line (a datacard's weapons) or all on one."""
    array = tomlkit.array()
    array.extend(_inline(item) for item in items)
    return array.multiline(multiline)


_PLOYS = [
    "",
    "# The roster data has no ploys: add your kill team's, each with its CP cost, e.g.",
    "# [[ploys]]",
    '# name = "..."',
    '# kind = "strategy"  # or "firefight"',
    "# cp = 1",
    '# reminder = "a short reminder, in your own words"',
]


def _equipment_tables(team: MappedTeam):
    """The team's equipment as [[equipment]] tables (name, weapon), the import's notes opening each."""
    tables = tomlkit.aot()
    for item in team.equipment:
        table = _noted(item.notes)
        for key, value in item.fields.items():
            table.add(key, _inline(value) if isinstance(value, dict) else value)
        tables.append(table)
    return tables


def write_roster(text: str, path: Path, *, force: bool = False) -> Roster:
    """Write the roster file, refusing to replace one without `force`; the file is loaded back
    before it takes the name, so a file ktlog cannot read is never left there."""
    if path.exists() and not force:
        raise RosterError(f"{path}: a roster file is already there; give --force to replace it, or --out another path")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        roster, problems = check_roster(temporary)
        if roster is None:
            raise RosterError(f"nothing was written to {path}: the roster made from the file is refused: {problems[0].text}")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return roster


@dataclass
class ImportFlags:
    """What an imported roster file says the import noted: by operative name, and left out."""

    notes: dict[str, list[str]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)


def import_flags(text: str) -> ImportFlags:
    """The notes and left-out lines `render` wrote into a roster file's comments (none for a file
    written by hand). A note belongs to the operative whose `[[operatives]]` table follows it."""
    flags = ImportFlags()
    pending: list[str] = []
    table = False
    for line in (raw.strip() for raw in text.split("\n")):  # a TOML line ends at \n only (a name may hold U+0085)
        if line.startswith("# " + _NOTE.rstrip()):
            pending.append(line.removeprefix("# " + _NOTE.rstrip()).strip())
        elif line.startswith("# " + _LEFT_OUT.rstrip()):
            flags.left_out.append(line.removeprefix("# " + _LEFT_OUT.rstrip()).strip())
        elif line.startswith("["):  # a note belongs to the operative whose table follows
            table = line == "[[operatives]]"
            pending = pending if table else []
        elif table and line.startswith("name = "):
            try:
                name = tomllib.loads(line)["name"]
            except tomllib.TOMLDecodeError:
                name = None
            if isinstance(name, str) and pending:
                flags.notes.setdefault(name, []).extend(pending)
            pending, table = [], False
    return flags
