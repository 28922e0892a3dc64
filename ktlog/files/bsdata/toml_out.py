"""A mapped team -> a TOML roster file in the shape ktlog.files.rosters reads, written
atomically (a temporary file in the same folder, checked with load_roster, then renamed). What
the import noted and left out is written as comments (`# note: ...` above an operative, `# left
out: ...` at the top), and read back by `import_flags` for the new-game form."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import RosterError
from ..rosters import Roster, check_roster
from .mapping import MappedTeam

_NOTE, _LEFT_OUT = "# note: ", "# left out: "
_ORDER = ("name", "id", "count", "apl", "move", "ga", "df", "save", "wounds", "keywords", "rules", "double_action")


def render(team: MappedTeam) -> str:
    title = f', roster "{team.title}"' if team.title else ""
    lines = [
        f"# {team.name}: imported by ktlog from {team.source}{title}.",
        "# Check every datacard against your own rules before a game; the data is the community's, not ktlog's.",
    ]
    lines += [f"{_LEFT_OUT}{text}" for text in team.left_out]
    lines += [
        f"name = {_text(team.name)}",
        f"archetypes = {_value(team.archetypes)}"
        if team.archetypes
        else '# archetypes = ["...", "..."]  # BSData has no archetypes: add your kill team\'s two here',
        f"source = {_text(team.source)}",
    ]
    if team.revision:
        lines.append(f"revision = {_text(team.revision)}")
    for operative in team.operatives:
        fields = operative.fields
        lines += ["", *(f"{_NOTE}{n}" for n in operative.notes), "[[operatives]]"]
        lines += [f"{key} = {_value(fields[key])}" for key in _ORDER if key in fields and fields[key] != [] and (key, fields[key]) != ("count", 1)]
        lines += ["weapons = ["] + [f"  {_value(w)}," for w in fields["weapons"]] + ["]"]
        if fields["unique_actions"]:
            lines.append(f"unique_actions = {_value(fields['unique_actions'])}")
    lines += equipment_tables(team)
    return "\n".join(lines + _PLOYS) + "\n"


_PLOYS = [
    "",
    "# The roster data has no ploys: add your kill team's, each with its CP cost, e.g.",
    "# [[ploys]]",
    '# name = "..."',
    '# kind = "strategy"  # or "firefight"',
    "# cp = 1",
    '# reminder = "a short reminder, in your own words"',
]


def equipment_tables(team: MappedTeam) -> list[str]:
    """The team's equipment as [[equipment]] tables (name, weapon), the import's notes above each."""
    lines = []
    for item in team.equipment:
        lines += ["", *(f"{_NOTE}{n}" for n in item.notes), "[[equipment]]"]
        lines += [f"{key} = {_value(value)}" for key, value in item.fields.items()]
    return lines


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
    for line in (raw.strip() for raw in text.splitlines()):
        if line.startswith(_NOTE):
            pending.append(line.removeprefix(_NOTE))
        elif line.startswith(_LEFT_OUT):
            flags.left_out.append(line.removeprefix(_LEFT_OUT))
        elif line.startswith("["):  # a note belongs to the operative whose table follows
            table = line == "[[operatives]]"
            pending = pending if table else []
        elif table and line.startswith("name = "):
            try:
                name = json.loads(line.removeprefix("name = "))
            except ValueError:
                name = None
            if isinstance(name, str) and pending:
                flags.notes.setdefault(name, []).extend(pending)
            pending, table = [], False
    return flags


def _text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def _value(value) -> str:
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, bool) or value is None:
        raise TypeError(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
