"""ktlog's package data: the sample games, the sample rosters, the examples and the JSON Schemas.

Found beside this module, where a wheel install puts them as a checkout has them (the folder
`importlib.resources.files` gives for a package on disk, without its 10-20 ms of imports at
every start)."""

from __future__ import annotations

import functools
from pathlib import Path

_HERE = Path(__file__).parent

FOLDER = _HERE
"""The package data's folder, as installed: `ktlog demo --path` prints it for a shell."""

SAMPLE_GAMES = _HERE / "samples"
"""The sample game-log files (`*.jsonl`), built by tools/sample_games/build.py."""
SAMPLE_BATTLES = _HERE / "battles"
"""Sample games with positions on the shipped layouts (`*.jsonl`, issue 44), built by the same script."""
SAMPLE_ROSTERS = _HERE / "rosters"
"""The illustrative roster files (`*.toml`)."""
LAYOUTS = _HERE / "layouts"
"""The illustrative killzone layouts (`*.toml`): examples, not published maps (docs/the-board.md)."""
SCHEMAS = _HERE / "schemas"
"""The JSON Schemas of the events, the envelope and the game-log file (`make schemas`)."""
WINPROB_DEFAULTS = _HERE / "winprob.json"
"""The win-probability models ktlog ships: one per ruleset it simulates, fitted on simulated
games (tools/winprob_defaults.py writes it)."""
EXAMPLES = _HERE / "examples"
"""The files the docs' examples read: an events file, a game file and a BattleScribe roster."""


@functools.cache
def sample_game_ids() -> frozenset[str]:
    """The ids of the sample games, from their files' headers: a database's games with these ids
    are the samples (`ktlog demo`), which statistics leave out beside games of the user's own."""
    import json

    ids = set()
    for path in SAMPLE_GAMES.glob("*.jsonl"):
        with open(path, "rb") as f:
            ids.add(json.loads(f.readline())["game_id"])
    return frozenset(ids)
