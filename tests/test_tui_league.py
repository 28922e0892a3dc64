"""The league view on the sample games: standings as `ktlog stats standings` gives them, the
filters, each game's VP race, and what it says when there is nothing to count."""

from __future__ import annotations

import contextlib
import io
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal
from textual.widgets import Select
from textual.worker import WorkerCancelled
from tui_support import press, tiny_game, tui_test

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.play.importer import import_file
from ktlog.storage.store import Store
from ktlog.tui.app import make_app

SAMPLES = sorted(SAMPLE_GAMES.glob("*.jsonl"))


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("league") / "samples.db"
    with Store(db) as store:
        for path in SAMPLES:
            import_file(store, path)
    return db


@pytest.fixture
def samples(samples_db, tmp_path):
    """A store of its own for each test (one adds a game), copied from the samples imported once."""
    shutil.copy(samples_db, tmp_path / "samples.db")
    with Store(tmp_path / "samples.db") as store:
        yield store


def standings_cli(store, *filters: str) -> pl.DataFrame:
    result = CliRunner().invoke(cli, ["--db", str(store.path), "stats", "standings", "--format", "json", *filters])
    assert result.exit_code == 0, result.output
    return pl.read_json(io.StringIO(result.stdout))


async def settle(pilot) -> None:
    """Wait until the league view shows the figures of the filters set, and the VP race of the
    finished game under the cursor."""
    for _ in range(1000):
        await pilot.pause()
        with contextlib.suppress(WorkerCancelled):  # a newer read of the same group replaced one under load: wait for it in the next turn
            await pilot.app.workers.wait_for_complete()
        if settled(pilot.app.screen):
            return
    screen = pilot.app.screen
    raise AssertionError(
        f"the league view never showed what it was asked for: {screen.shown} shown, {screen.query_one('LeagueFilters').filters} asked; "
        f"game {screen.query_one('LeagueTable').selected_game} under the cursor, {screen.query_one('RaceCurve').game_id} drawn; says {summary(screen)!r}"
    )


def settled(screen) -> bool:
    if type(screen).__name__ != "LeagueScreen" or screen.store.path is None:
        return True
    if screen.shown != screen.query_one("LeagueFilters").filters:
        return False
    selected = screen.query_one("LeagueTable").selected_game
    g = screen.games.get(selected)
    return g is None or g.status != "finished" or screen.query_one("RaceCurve").game_id == selected


async def open_league(pilot):
    await press(pilot, "l")
    await settle(pilot)
    return pilot.app.screen


def shown(table) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def summary(screen) -> str:
    return str(screen.query_one("#summary").render())


@tui_test
async def test_the_standings_are_the_clis(samples):
    expected = standings_cli(samples)
    async with make_app(samples).run_test(size=(140, 45)) as pilot:
        screen = await open_league(pilot)
        table = screen.query_one("StandingsTable")
        assert_frame_equal(table.frame, expected, check_dtypes=False)
        rows = shown(table)
        assert [r[1] for r in rows] == expected.get_column("player").to_list()
        for row, want in zip(rows, expected.iter_rows(named=True)):  # every figure as shown, to its rounding
            assert row[0] == str(want["rank"]) and row[2:6] == [str(want[c]) for c in ("games", "wins", "draws", "losses")]
            assert float(row[7].rstrip("%")) == pytest.approx(100 * want["win_rate"], abs=0.5)
            assert [float(v) for v in (row[6], *row[8:11])] == pytest.approx([want[c] for c in ("points", "vp_for", "vp_against", "vp_diff")], abs=0.05)
            assert int(row[11]) == want["elo"]
        # By hand: Alice beat Bob 8-7; Pia and Quinn share the win 9-9-5-5 (a draw each, VP
        # against the mean of the three others: 19/3); Joint Ops games are left out (13 of 15).
        by_player = {r[1]: r for r in rows}
        assert by_player["Alice"][2:11] == ["1", "1", "0", "0", "1.0", "100%", "8", "7.0", "1.0"]
        assert by_player["Pia"][2:10] == ["1", "0", "1", "0", "0.5", "50%", "9", "6.3"]
        assert "NPOs" not in by_player and len(rows) == 29
        assert "Every league · 13 games · 29 players" in summary(screen)
        teams = screen.query_one("TeamsTable")
        assert teams.row_count == 7 and {r[0] for r in shown(teams)} >= {"Kasrkin", "Legionaries", "Kommandos"}


@tui_test
async def test_the_filters_change_the_rows(samples):
    async with make_app(samples).run_test(size=(140, 45)) as pilot:
        screen = await open_league(pilot)
        await press(pilot, "f", "enter", "down", "enter")  # the first league: Autumn League
        await settle(pilot)
        table = screen.query_one("StandingsTable")
        assert_frame_equal(table.frame, standings_cli(samples, "--league", "Autumn League"), check_dtypes=False)
        assert table.row_count == 14 and summary(screen).startswith("Autumn League · 7 games")
        screen.query_one("#round", Select).value = "2"
        await settle(pilot)
        assert [r[1] for r in shown(table)] == ["Grace", "Erin", "Frank", "Hugo"]
        assert screen.query_one("LeagueTable").row_count == 2
        screen.query_one("#ruleset", Select).value = "kt24-joint"  # none in the Autumn League
        await settle(pilot)
        assert table.row_count == 0 and screen.query_one("LeagueTable").row_count == 0
        assert "no finished game matches (league Autumn League, round 2, ruleset kt24-joint)" in summary(screen)
        assert "No game matches these filters" in str(screen.query_one("#race").render())
        for label in ("league", "round"):
            screen.query_one(f"#{label}", Select).clear()
        await settle(pilot)
        assert_frame_equal(table.frame, standings_cli(samples, "--ruleset", "kt24-joint"), check_dtypes=False)
        assert summary(screen) == "kt24-joint · 2 games · 3 players"
        await press(pilot, "g")
        await settle(pilot)  # a Joint Ops race: no VP scored, and still drawn
        assert screen.query_one("RaceCurve").drawn == {"Grace & Ivan": ([0, 0, 198, 198], [0, 0, 0, 0]), "NPOs": ([0, 0, 198, 198], [0, 0, 0, 0])}


@tui_test
async def test_the_game_under_the_cursor_shows_its_vp_race(samples):
    async with make_app(samples).run_test(size=(140, 45)) as pilot:
        screen = await open_league(pilot)
        await press(pilot, "g")
        games = screen.query_one("LeagueTable")
        assert games.has_focus and games.row_count == 13
        curve = screen.query_one("RaceCurve")
        for row in range(4):  # the newest first: two Approved Ops games, then the multiplayer ones
            games.move_cursor(row=row)
            await settle(pilot)
            g = screen.games[games.selected_game]
            assert {p: ys[-1] for p, (_, ys) in curve.drawn.items()} == g.result["score"]
            assert list(curve.turning_points.values()) == ["TP1", "TP2", "TP3", "TP4"]
            assert curve.head == max(seqs[-1] for seqs, _ in curve.drawn.values()) >= g.head_seq - 1
        assert g.players == ["Mara", "Nico", "Oona"] and curve.drawn["Nico"][1][-1] == 10
        await press(pilot, "enter")
        assert type(pilot.app.screen).__name__ == "ReplayScreen" and pilot.app.screen.game_id == g.id


@tui_test
async def test_a_game_in_progress_is_listed_not_counted(samples):
    tiny_game(samples)
    async with make_app(samples).run_test(size=(140, 45)) as pilot:
        screen = await open_league(pilot)
        assert "14 games (1 in progress, not counted)" in summary(screen)
        await press(pilot, "g")
        games = screen.query_one("LeagueTable")
        games.move_cursor(row=[g.status for g in screen.games.values()].index("in progress"))
        await settle(pilot)
        assert "in progress, not counted in the league" in str(screen.query_one("#race").render())
        assert not screen.query_one("RaceCurve").display


@tui_test
async def test_an_empty_database_says_so(store):
    async with make_app(store).run_test(size=(100, 30)) as pilot:
        screen = await open_league(pilot)
        assert "Nothing to compute: the database has no games" in summary(screen)
        assert screen.query_one("StandingsTable").row_count == 0
        await press(pilot, "g", "enter")
        assert type(pilot.app.screen).__name__ == "LeagueScreen"


def test_league_view_snapshot(snap_compare, samples):
    """The games of the Winter League's round 1 and the VP race of a four-player game."""

    async def winter_games(pilot) -> None:
        screen = await open_league(pilot)
        screen.query_one("#league", Select).value = "Winter League"
        await settle(pilot)
        await press(pilot, "g", "down", "down")
        await settle(pilot)

    assert snap_compare(make_app(samples), terminal_size=(120, 40), run_before=winter_games)
