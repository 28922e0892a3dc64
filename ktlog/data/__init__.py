"""ktlog's package data: the sample games, the sample rosters and the JSON Schemas.

Found with `importlib.resources`, so they are there in a wheel install as in a checkout."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _folder(name: str) -> Path:
    return Path(str(files(__name__) / name))


SAMPLE_GAMES = _folder("samples")
"""The sample game-log files (`*.jsonl`), built by tools/sample_games/build.py."""
SAMPLE_ROSTERS = _folder("rosters")
"""The illustrative roster files (`*.toml`)."""
SCHEMAS = _folder("schemas")
"""The JSON Schemas of the events, the envelope and the game-log file (`make schemas`)."""
