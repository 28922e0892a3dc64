"""ktlog/data/schemas/ is generated from ktlog/events.py: a test fails when they drift, and real files validate."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import jsonschema
import pytest
from conftest import UV, game

from ktlog.data import SAMPLE_BATTLES, SAMPLE_GAMES
from ktlog.events import EVENT_TYPES
from ktlog.files.schemas import SCHEMAS, drift, generate, render
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
        (tmp_path / name).write_text(render(schema))
    assert drift(tmp_path) == []
    (tmp_path / "events" / "Shot.json").write_text("{}\n")
    assert drift(tmp_path) == ["events/Shot.json"]


@pytest.mark.parametrize("path", sorted([*SAMPLE_GAMES.glob("*.jsonl"), *SAMPLE_BATTLES.glob("*.jsonl")]), ids=lambda p: p.name)
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


def test_the_files_do_not_depend_on_how_msgspec_writes_descriptions_and_unions():
    """msgspec 0.23 dedents docstrings and 0.21 and older put `null` first in an `anyOf` (issue 38
    #7: a fresh install resolved 0.23 and 17 files drifted); the rendered file is the same."""
    older = {"description": "A header.\n    Line two.", "anyOf": [{"type": "null"}, {"$ref": "#/$defs/X"}]}
    newer = {"description": "A header.\nLine two.", "anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}
    assert render({"properties": {"a": older}}) == render({"properties": {"a": newer}})
    assert json.loads(render(older))["description"] == "A header.\nLine two."


@pytest.mark.slow
@pytest.mark.parametrize("release", ["0.19.0", "0.23.0"])
def test_the_schemas_match_under_the_oldest_and_newest_msgspec_the_range_admits(release, tmp_path):
    """The range in pyproject.toml is msgspec>=0.19: the folder matches the code under both ends."""
    target = tmp_path / "msgspec"
    install = subprocess.run(
        [UV, "pip", "install", "--quiet", "--python", sys.executable, "--target", str(target), f"msgspec=={release}"],
        capture_output=True,
        text=True,
    )
    if install.returncode:
        pytest.skip(f"uv could not install msgspec {release} (no package index?): {install.stderr.strip()[-300:]}")
    check = subprocess.run(
        [sys.executable, "-c", "import msgspec, sys; from ktlog.files.schemas import drift; print(msgspec.__version__); sys.exit(bool(drift()))"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert check.stdout.split() == [release], check.stderr
    assert check.returncode == 0, f"the schemas drift under msgspec {release}"
