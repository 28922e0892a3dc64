"""Issue 42 #1: the sample games never in a user's league unasked. `ktlog` alone on a database with
no games lists them from a demo database of their own; `ktlog demo` loads them where it is told,
and the statistics leave them out (known by their ids) once a game of the user's own is
finished, saying so in one line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tui_support import press, tui_test

from ktlog.cli import cli
from ktlog.commands.samples import demo_db_path, open_demo
from ktlog.data import FOLDER, SAMPLE_GAMES, sample_game_ids
from ktlog.storage.store import Store
from ktlog.tui.app import make_app

SAMPLE_PLAYERS = 29
"""The players of the 15 sample games (Alice, Bob ... Kasia, Lars ...)."""


def ktlog(db, *args: str, code: int = 0):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, result.output
    return result


def one_real_game(db) -> str:
    """Ann and Ben's game, Ben conceding: a finished game of the user's own."""
    game = ktlog(db, "new", "--killzone", "volkus", "--player", "Ann=kasrkin", "--player", "Ben=legionaries").stdout.strip()
    ktlog(db, "event", game, "GameConceded", "player=Ben")
    return game


@pytest.fixture(scope="module")
def demo_league(tmp_path_factory):
    db = tmp_path_factory.mktemp("samples") / "real.db"
    ktlog(db, "demo")
    return db


def standings(db, *args: str) -> tuple[list[str], str]:
    result = ktlog(db, "stats", "standings", "--json", *args)
    return [row["player"] for row in json.loads(result.stdout)], result.stderr


def test_the_samples_count_until_a_game_of_ones_own_is_finished_then_are_left_out(demo_league, tmp_path):
    db = tmp_path / "real.db"
    db.write_bytes(demo_league.read_bytes())
    players, said = standings(db)
    assert len(players) == SAMPLE_PLAYERS and players[0] == "Kasia"
    assert "note: the figures take in the 15 sample games (`ktlog demo`) until a game of your own is finished" in said
    game = ktlog(db, "new", "--killzone", "volkus", "--player", "Ann=kasrkin", "--player", "Ben=legionaries").stdout.strip()
    assert len(standings(db)[0]) == SAMPLE_PLAYERS, "a game in progress changes nothing"
    ktlog(db, "event", game, "GameConceded", "player=Ben")
    players, said = standings(db)
    assert players == ["Ann", "Ben"]
    assert said.strip() == "note: the 15 sample games (`ktlog demo`) are left out beside your own games (--samples takes them in)"
    assert len(standings(db, "--samples")[0]) == SAMPLE_PLAYERS + 2
    elo = json.loads(ktlog(db, "stats", "elo", "--json").stdout)
    assert {row["player"] for row in elo} == {"Ann", "Ben"}
    refused = ktlog(db, "stats", "standings", "--player", "Kasia", code=1)
    assert "the 15 sample games are left out beside your own (--samples takes them in)" in refused.stderr
    curve = json.loads(ktlog(db, "stats", "curves", "--game", "334f", "--json").stdout)  # a sample named is asked for
    assert curve and "left out" not in ktlog(db, "stats", "curves", "--game", "334f").stderr
    listed = ktlog(db, "games").stdout.splitlines()
    assert sum(line.endswith("(sample)") for line in listed) == 15 and listed[0].startswith(game[:8]) and "(sample)" not in listed[0]


def test_the_sample_ids_are_those_of_the_files():
    ids = {json.loads(path.read_text().splitlines()[0])["game_id"] for path in SAMPLE_GAMES.glob("*.jsonl")}
    assert sample_game_ids() == ids and len(ids) == 15


def test_demo_path_prints_the_installed_files(tmp_path):
    said = ktlog(tmp_path / "none.db", "demo", "--path").stdout.strip()
    assert said == str(FOLDER) and not (tmp_path / "none.db").exists()
    for name in ("examples/first-activations.txt", "examples/first-activations.ktgame", "examples/example-team.ros", "samples", "rosters"):
        assert (FOLDER / name).exists(), name


def test_the_example_battlescribe_roster_imports(tmp_path, monkeypatch):
    monkeypatch.setenv("KTLOG_ROSTERS", str(tmp_path / "rosters"))
    said = ktlog(tmp_path / "x.db", "roster", "import", str(FOLDER / "examples" / "example-team.ros"), "--archetypes", "Security,Recon")
    assert "Drill Squad: 4 operatives" in said.stdout and (tmp_path / "rosters" / "drill-squad.toml").exists()
    text = (FOLDER / "examples" / "example-team.ros").read_text()
    assert "Warhammer 40,000: Kill Team (2024)" in text and "made-up" in text  # the real format, illustrative values


def test_the_demo_database_is_the_users_cache_and_holds_every_sample(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert demo_db_path() == tmp_path / ".cache" / "ktlog" / "samples.db"
    store, problems = open_demo(1000)
    with store:
        assert problems == [] and {g.id for g in store.games()} == sample_game_ids()


@pytest.mark.tui
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_the_start_screen_shows_the_samples_apart_and_a_new_game_goes_into_the_users_database(tmp_path, monkeypatch, size):
    monkeypatch.setenv("HOME", str(tmp_path))
    store = Store(tmp_path / "mine.db")
    samples, _ = open_demo(1000)
    async with make_app(store, samples=samples).run_test(size=size) as pilot:
        screen = pilot.app.screen
        hint = str(screen.query_one("#hint").render())
        assert hint.startswith("Sample games: 15 games from the demo database") and str(store.path) in hint
        assert screen.sub_title == "SAMPLE GAMES (demo database)" and screen.query_one("GameTable").row_count == 15
        await press(pilot, "enter")
        assert (
            type(pilot.app.screen).__name__ == "ReplayScreen" and pilot.app.screen.game_id in sample_game_ids()
        )  # from the demo database: the user's has none
        await press(pilot, "escape", "n", "ctrl+s")
        assert type(pilot.app.screen).__name__ == "SetUpScreen"
        await press(pilot, "escape")  # the set-up left to the record screen
        await press(pilot, "escape")
        assert type(pilot.app.screen).__name__ == "StartScreen"
        assert store.listing.count()[0] == 1 and samples.listing.count()[0] == 15
        assert str(pilot.app.screen.query_one("#hint").render()).startswith("1 games in") and pilot.app.screen.sub_title is None
    samples.close()
    store.close()


def test_games_of_ktlog_simulate_are_not_games_of_ones_own(demo_league, tmp_path):
    """A simulated game (left out of the statistics itself) does not leave the samples out."""
    db = tmp_path / "real.db"
    db.write_bytes(demo_league.read_bytes())
    ktlog(db, "simulate", "--games", "1")
    assert len(standings(db)[0]) == SAMPLE_PLAYERS
    assert len(standings(db, "--simulated")[0]) == 2
