"""What a command loads before its first screen or line (issue 26: start-up is a share of every
command). Checked as the modules a real process holds at its end, never as a time: a module
kept out of start-up stays out whatever the machine's speed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ktlog.data import SAMPLE_GAMES
from ktlog.storage.store import Store

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


def start_screen(db, size, home) -> tuple[set[str], list[str], str]:
    """The modules of a real `ktlog --db DB` (the start screen, headless at `size`) with `home`
    as the user's home (where the demo database is), the event decoders it made, and what it
    said on standard error."""
    env = os.environ | {"HOME": str(home)}
    done = subprocess.run([sys.executable, "-c", RUN_START_SCREEN, str(db), json.dumps(size)], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    return set(loaded["modules"]), loaded["made"], done.stderr


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_start_screen_loads_no_importer_once_the_samples_are_stored(tmp_path, size):
    """A database with no games: the start screen lists the samples from the demo database,
    loaded the first time only, and the user's database stays empty."""
    db = tmp_path / "league.db"
    first, made, said = start_screen(db, size, tmp_path)  # the first start loads the sample games
    samples = len(list(SAMPLE_GAMES.glob("*.jsonl")))
    demo = tmp_path / ".cache" / "ktlog" / "samples.db"
    assert f"Sample games: {samples} games from the demo database ({demo})" in said.replace("\n", " ")
    assert "ktlog.play.importer" in first and made
    again, made, said = start_screen(db, size, tmp_path)
    assert f"{samples} games from the demo database" in said and "ktlog.tui.screens.start" in again
    assert not again & set(START_SCREEN_LAZY), "the start screen loaded the importer with every sample stored"
    assert not {m.partition(".")[0] for m in again} & set(NEVER_AT_START)
    assert made == [], "the start screen decodes no event, so it makes no event decoder"
    with Store(db) as store:
        assert store.listing.count() == (0, 0), "the samples went into the user's database"


def test_a_sample_game_not_in_the_demo_database_is_loaded_at_start(tmp_path):
    demo = tmp_path / ".cache" / "ktlog" / "samples.db"
    demo.parent.mkdir(parents=True)
    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))
    subprocess.run([sys.executable, "-m", "ktlog", "--db", str(demo), "import", str(samples[0])], check=True, capture_output=True)
    modules, _, said = start_screen(tmp_path / "league.db", (80, 24), tmp_path)
    assert "ktlog.play.importer" in modules
    assert f"{len(samples)} games from the demo database" in said


def test_a_database_with_a_game_of_its_own_opens_without_the_demo(tmp_path):
    db = tmp_path / "league.db"
    subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "import", str(sorted(SAMPLE_GAMES.glob("*.jsonl"))[0])], check=True, capture_output=True)
    modules, _, said = start_screen(db, (80, 24), tmp_path)
    assert f"1 games in {db}" in said and "demo" not in said
    assert not (tmp_path / ".cache" / "ktlog" / "samples.db").exists() and "ktlog.play.importer" not in modules
