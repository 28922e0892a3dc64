"""ktlog/data/schemas/ is generated from ktlog/events.py: a test fails when they drift, and real files validate."""

from __future__ import annotations

import json

import jsonschema
import pytest
from conftest import game

from ktlog.data import SAMPLE_GAMES
from ktlog.events import EVENT_TYPES
from ktlog.files.schemas import SCHEMAS, drift, generate
from ktlog.play.builder import shoot


def validator(name: str) -> jsonschema.protocols.Validator:
    """A validator for one schema file, the schema itself checked once, when it is built."""
    schema = json.loads((SCHEMAS / name).read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


GAME_LOG = validator("game-log.json")
"""The whole game-log file's schema (627 lines): built once for every sample file."""


def test_schemas_folder_matches_the_code():
    assert drift() == [], "ktlog/data/schemas/ is out of date: run `python -m ktlog.files.schemas`"


def test_every_event_type_has_a_versioned_schema():
    files = generate()
    for name, cls in EVENT_TYPES.items():
        assert files[f"events/{name}.json"]["x-ktlog-version"] == cls.version


def test_a_changed_event_class_is_detected_as_drift(tmp_path):
    for name, schema in generate().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    assert drift(tmp_path) == []
    (tmp_path / "events" / "Shot.json").write_text("{}\n")
    assert drift(tmp_path) == ["events/Shot.json"]


@pytest.mark.parametrize("path", sorted(SAMPLE_GAMES.glob("*.jsonl")), ids=lambda p: p.name)
def test_sample_game_files_match_the_game_log_schema(path):
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    GAME_LOG.validate(lines)


def test_an_event_payload_matches_its_own_schema():
    import msgspec

    g = game(2, 2)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "642"))
    shot = g.events[-2]
    shot_schema = validator("events/Shot.json")
    as_json = json.loads(msgspec.json.encode(shot))
    shot_schema.validate(as_json)
    with pytest.raises(jsonschema.ValidationError):
        shot_schema.validate({**as_json, "weapon": 3})
