"""What a command loads before its first screen or line (issue 26: start-up is a share of every
command). Checked as the modules a real process holds at its end, never as a time: a module
kept out of start-up stays out whatever the machine's speed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ktlog.data import SAMPLE_GAMES

NEVER_AT_START = ("polars", "numpy", "pandas", "sklearn", "boto3", "pyarrow", "starlette", "uvicorn", "sqlite_utils")
"""Libraries no start-up loads: the analytics, the model, S3, the web server, schema work."""

START_SCREEN_LAZY = (
    "ktlog.commands.files",
    "ktlog.play.importer",
    "ktlog.play.game_files",
    "ktlog.play.replay",
    "multiprocessing",
    "importlib.metadata",
    "importlib.resources",
)
"""What the start screen does without once every sample game is stored: the importer and the
command module that holds it; importlib.metadata while no installed package offers a ruleset;
importlib.resources (the package data is found beside ktlog.data)."""

RUN_START_SCREEN = """
import atexit, json, sys
from ktlog.tui.app import KtlogApp

size = tuple(json.loads(sys.argv[2]))
run = KtlogApp.run

async def shown(pilot):
    await pilot.pause()
    print("hint:", pilot.app.screen.query_one("#hint").render(), file=sys.stderr)
    pilot.app.exit()

KtlogApp.run = lambda self, **kwargs: run(self, headless=True, size=size, auto_pilot=shown)
def made():  # the decoders of every event type, made when first used
    from ktlog import envelopes
    from ktlog.files import gamelog
    return [f.__name__ for f in (envelopes._event_decoder, gamelog._envelope_decoder) if f.cache_info().currsize]

atexit.register(lambda: print(json.dumps({"modules": sorted(sys.modules), "made": made()})))
from ktlog.cli import main
sys.argv = ["ktlog", "--db", sys.argv[1]]
main()
"""


def start_screen(db, size) -> tuple[set[str], list[str], str]:
    """The modules of a real `ktlog --db DB` (the start screen, headless at `size`), the event
    decoders it made, and what it said on standard error."""
    done = subprocess.run([sys.executable, "-c", RUN_START_SCREEN, str(db), json.dumps(size)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    return set(loaded["modules"]), loaded["made"], done.stderr


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_start_screen_loads_no_importer_once_the_samples_are_stored(tmp_path, size):
    db = tmp_path / "league.db"
    first, made, said = start_screen(db, size)  # the first start loads the sample games
    samples = len(list(SAMPLE_GAMES.glob("*.jsonl")))
    assert f"{samples} games in {db}" in said
    assert "ktlog.play.importer" in first and made
    again, made, said = start_screen(db, size)
    assert f"{samples} games in {db}" in said and "ktlog.tui.screens.start" in again
    assert not again & set(START_SCREEN_LAZY), "the start screen loaded the importer with every sample stored"
    assert not {m.partition(".")[0] for m in again} & set(NEVER_AT_START)
    assert made == [], "the start screen decodes no event, so it makes no event decoder"


def test_a_sample_game_not_stored_is_loaded_at_start(tmp_path):
    db = tmp_path / "league.db"
    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))
    subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "import", str(samples[0])], check=True, capture_output=True)
    modules, _, said = start_screen(db, (80, 24))
    assert "ktlog.play.importer" in modules
    assert f"{len(samples)} games in {db}" in said
