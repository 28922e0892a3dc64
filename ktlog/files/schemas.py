"""JSON Schema of every event type, the envelope, the game-log file, the roster file and the layout file, generated
from the code.

python -m ktlog.files.schemas                  # write ktlog/data/schemas/ (ktlog's own event types)
python -m ktlog.files.schemas --check          # exit 1 if ktlog/data/schemas/ has drifted from the code
python -m ktlog.files.schemas --installed DIR  # write DIR/: every type registered, an installed ruleset's too
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import typing
from pathlib import Path

import msgspec

from ..board.layout import Layout
from ..data import SCHEMAS
from ..events import EVENT_TYPES, Envelope, EventCorrected, union_of
from .atomic import write_atomically
from .gamelog import FORMAT_VERSION, Header
from .rosters import RosterFile

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _with_meta(schema: dict, title: str, **extra) -> dict:
    return {"$schema": DIALECT, "title": title, **extra, **schema}


def generate(everyone: bool = False) -> dict[str, dict]:
    """File name (relative to schemas/) -> schema: of ktlog's own event types (the core's and its
    rulesets'), or with `everyone` of every type registered (an installed ruleset's too)."""
    types = {name: cls for name, cls in EVENT_TYPES.items() if everyone or cls.__module__.partition(".")[0] == "ktlog"}
    union = union_of(tuple(types.values()))
    line = typing.cast(typing.Any, Envelope)[union]  # the envelope of any of these types
    files: dict[str, dict] = {}
    for name, cls in types.items():
        exact = typing.get_args(union)[-1] if cls is EventCorrected else cls  # EventCorrected of these types
        files[f"events/{name}.json"] = _with_meta(_named(msgspec.json.schema(exact)), name, **{"x-ktlog-version": cls.version})
    files["envelope.json"] = _with_meta(
        _named(msgspec.json.schema(line)),
        "Envelope",
        description="A stored event: game_id, seq (1, 2, 3 ...), event_id, version of the payload's type, recorded_at (UTC), "
        "payload (tagged by its `type`), and the SHA-256 hash chain (prev_hash, hash).",
    )
    header = msgspec.json.schema(Header)
    files["game-log-header.json"] = _with_meta(header, "Game-log header", description="Line 1 of a game-log file.")
    envelope = _named(msgspec.json.schema(line))
    defs = {**header.pop("$defs", {}), **envelope.pop("$defs", {})}
    files["game-log.json"] = {
        "$schema": DIALECT,
        "title": "Game-log file",
        "description": (
            "A game-log file is JSON Lines: line 1 is the header, every further line one envelope, seq 1, 2, 3 ... "
            "Read as a JSON array of its lines, it matches this schema."
        ),
        "x-format-version": FORMAT_VERSION,
        "type": "array",
        "prefixItems": [header],
        "items": envelope,
        "minItems": 2,
        "$defs": defs,
    }
    files["roster.json"] = _with_meta(
        msgspec.json.schema(RosterFile),
        "Roster file",
        description="A roster file (TOML) read as data: docs/file-formats.md. Names and rule texts are free text; the special "
        "rules ktlog applies are the fields heavy, double_action and a weapon's one_in.",
    )
    files["layout.json"] = _with_meta(
        msgspec.json.schema(Layout),
        "Layout file",
        description="A killzone layout file (TOML) read as data: docs/the-board.md. Inches from the board's top-left corner, x across and "
        "y down; heights above the killzone floor. Names are free text.",
    )
    return files


def _named(schema: dict) -> dict:
    """The schema with a generic struct's definition named as its class (msgspec names
    `Envelope[Union[...]]` after its parameters: `EventCorrected`, not `EventCorrected_typing...`)."""
    names = {key: key.partition("_")[0] for key in schema.get("$defs", {}) if "[" in schema["$defs"][key].get("title", "")}
    text = json.dumps(schema)
    for key, name in sorted(names.items(), key=lambda item: -len(item[0])):  # the longest first: one key holds another
        text = text.replace(f'"#/$defs/{key}"', f'"#/$defs/{name}"').replace(f'"{key}":', f'"{name}":')
    named = json.loads(text)
    for name in names.values():
        named["$defs"][name]["title"] = name
    return named


def _write(data: bytes, file: typing.BinaryIO) -> None:
    file.write(data)


def render(schema: dict) -> str:
    return json.dumps(_cleaned(schema), indent=2, sort_keys=True) + "\n"


def _cleaned(node):
    """The schema as every msgspec release the range admits writes it: each description as
    `inspect.cleandoc` leaves a docstring (0.23 dedents them, older releases did not) and each
    `anyOf` in one order (0.21 and older put `null` first); tests/test_schemas.py checks both."""
    if isinstance(node, dict):
        return {k: _description(k, v) if k != "anyOf" else sorted(map(_cleaned, v), key=lambda s: json.dumps(s, sort_keys=True)) for k, v in node.items()}
    if isinstance(node, list):
        return [_cleaned(v) for v in node]
    return node


def _description(key: str, value):
    return inspect.cleandoc(value) if key == "description" and isinstance(value, str) else _cleaned(value)


def drift(folder: Path = SCHEMAS) -> list[str]:
    """Schema files that differ from the code (missing, changed, or left over)."""
    wanted = {name: render(s) for name, s in generate().items()}
    present = {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*.json")} if folder.exists() else {}
    return sorted(name for name in wanted.keys() | present.keys() if wanted.get(name) != present.get(name))


def write(folder: Path = SCHEMAS, everyone: bool = False) -> None:
    """The schemas into `folder`, each file whole or not at all; the package's own folder loses
    the files of types that are gone."""
    if folder == SCHEMAS:
        for old in folder.rglob("*.json"):
            old.unlink()
    for name, schema in generate(everyone).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, functools.partial(_write, render(schema).encode()))


if __name__ == "__main__":
    if "--check" in sys.argv:
        changed = drift()
        print("\n".join(changed) or "schemas/ matches the code")
        sys.exit(1 if changed else 0)
    everyone = sys.argv[1:2] == ["--installed"]
    folder = Path(sys.argv[2]) if everyone and len(sys.argv) == 3 else SCHEMAS
    if everyone and (folder == SCHEMAS or (folder.exists() and any(folder.iterdir()))):
        sys.exit("usage: python -m ktlog.files.schemas --installed DIR, a new or empty folder")
    write(folder, everyone)
    print(f"wrote {len(generate(everyone))} schemas to {folder}")
