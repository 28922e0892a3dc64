"""schemas/ is generated from ktlog/events.py: a test fails when they drift, and real files validate."""

from __future__ import annotations

import json

import jsonschema
import pytest
from conftest import game

from ktlog.data import SAMPLE_GAMES
from ktlog.play.builder import shoot
from ktlog.events import EVENT_TYPES
from ktlog.files.schemas import SCHEMAS, drift, generate


def test_schemas_folder_matches_the_code():
    assert drift() == [], "schemas/ is out of date: run `python -m ktlog.files.schemas`"


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
    schema = json.loads((SCHEMAS / "game-log.json").read_text())
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    jsonschema.validate(lines, schema)


def test_an_event_payload_matches_its_own_schema():
    import msgspec

    g = game(2, 2)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "642"))
    shot = g.events[-2]
    schema = json.loads((SCHEMAS / "events" / "Shot.json").read_text())
    as_json = json.loads(msgspec.json.encode(shot))
    jsonschema.validate(as_json, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**as_json, "weapon": 3}, schema)
