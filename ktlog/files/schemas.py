"""JSON Schema of every event type, the envelope, the game-log file, the roster file and the layout file, generated
from the code.

python -m ktlog.files.schemas            # write ktlog/data/schemas/
python -m ktlog.files.schemas --check    # exit 1 if ktlog/data/schemas/ has drifted from the code
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import msgspec

from ..board.layout import Layout
from ..data import SCHEMAS
from ..events import EVENT_TYPES, Envelope
from .gamelog import FORMAT_VERSION, Header
from .rosters import RosterFile

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _with_meta(schema: dict, title: str, **extra) -> dict:
    return {"$schema": DIALECT, "title": title, **extra, **schema}


def generate() -> dict[str, dict]:
    """File name (relative to schemas/) -> schema."""
    files: dict[str, dict] = {}
    for name, cls in EVENT_TYPES.items():
        files[f"events/{name}.json"] = _with_meta(msgspec.json.schema(cls), name, **{"x-ktlog-version": cls.version})
    files["envelope.json"] = _with_meta(
        msgspec.json.schema(Envelope),
        "Envelope",
        description="A stored event: game_id, seq (1, 2, 3 ...), event_id, version of the payload's type, recorded_at (UTC), "
        "payload (tagged by its `type`), and the SHA-256 hash chain (prev_hash, hash).",
    )
    header = msgspec.json.schema(Header)
    files["game-log-header.json"] = _with_meta(header, "Game-log header", description="Line 1 of a game-log file.")
    envelope = msgspec.json.schema(Envelope)
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


def write(folder: Path = SCHEMAS) -> None:
    for old in folder.rglob("*.json"):
        old.unlink()
    for name, schema in generate().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(schema))


if __name__ == "__main__":
    if "--check" in sys.argv:
        changed = drift()
        print("\n".join(changed) or "schemas/ matches the code")
        sys.exit(1 if changed else 0)
    write()
    print(f"wrote {len(generate())} schemas to {SCHEMAS}")
