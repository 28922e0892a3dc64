"""The start screen (recent games: resume or replay; new game) and the league view."""

from __future__ import annotations

from tui_support import press, sample, tiny_game, tui_test

from ktlog.play.importer import import_file
from ktlog.tui.app import make_app


@tui_test
async def test_recent_games_open_for_replay_or_to_resume(store):
    import_file(store, sample("01"))
    unfinished = tiny_game(store)
    async with make_app(store).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        table = screen.query_one("GameTable")
        assert table.row_count == 2 and "1 unfinished" in str(screen.query_one("#hint").render())
        assert table.selected_game == unfinished  # the newest first
        await press(pilot, "enter")
        assert type(pilot.app.screen).__name__ == "RecordScreen"
        await press(pilot, "escape", "down", "enter")
        assert type(pilot.app.screen).__name__ == "ReplayScreen"
        await press(pilot, "escape", "n")
        assert type(pilot.app.screen).__name__ == "NewGameScreen"
        await press(pilot, "escape", "l")
        await pilot.app.workers.wait_for_complete()  # the league is read in a worker thread
        league = pilot.app.screen
        assert type(league).__name__ == "LeagueScreen" and league.query_one("LeagueTable").row_count == 2
        assert "2 games (1 in progress, not counted)" in str(league.query_one("#summary").render())
        await press(pilot, "escape")
        assert type(pilot.app.screen).__name__ == "StartScreen"


@tui_test
async def test_an_empty_database_offers_a_new_game(store):
    async with make_app(store).run_test(size=(80, 24)) as pilot:
        assert "No games yet: press n" in str(pilot.app.screen.query_one("#hint").render())
        await press(pilot, "enter")  # nothing to open: nothing happens
        assert type(pilot.app.screen).__name__ == "StartScreen"


def test_the_factory_refuses_a_screen_it_does_not_know(store):
    import pytest

    with pytest.raises(ValueError, match="not one of start, new, record, replay"):
        make_app(store, screen="league")
    with pytest.raises(ValueError, match="needs a game_id"):
        make_app(store, screen="replay")
