"""ktlog's package data: the sample games, the sample rosters and the JSON Schemas.

Found beside this module, where a wheel install puts them as a checkout has them (the folder
`importlib.resources.files` gives for a package on disk, without its 10-20 ms of imports at
every start)."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).parent

SAMPLE_GAMES = _HERE / "samples"
"""The sample game-log files (`*.jsonl`), built by tools/sample_games/build.py."""
SAMPLE_ROSTERS = _HERE / "rosters"
"""The illustrative roster files (`*.toml`)."""
LAYOUTS = _HERE / "layouts"
"""The illustrative killzone layouts (`*.toml`): examples, not published maps (docs/the-board.md)."""
SCHEMAS = _HERE / "schemas"
"""The JSON Schemas of the events, the envelope and the game-log file (`make schemas`)."""
WINPROB_DEFAULTS = _HERE / "winprob.json"
"""The win-probability models ktlog ships: one per ruleset it simulates, fitted on simulated
games (tools/winprob_defaults.py writes it)."""
