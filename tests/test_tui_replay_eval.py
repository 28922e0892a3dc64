"""The replay's evaluation bar and key moments (issues 28, 41), at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from tui_support import press, tui_test
from winprob_support import ONE_SHOT_GAME, SHOT_CHANCE, VP_MODEL, one_shot_game

from ktlog.analytics import winprob
from ktlog.play.simulate import simulate_games
from ktlog.tui.app import make_app
from ktlog.tui.widgets.eval_bar import EvalBar
from ktlog.tui.widgets.text_line import TextBlock

SHOT = f"Alice {round(100 * SHOT_CHANCE)}% · Bob {round(100 * (1 - SHOT_CHANCE))}%"


@pytest.fixture
def decided(store):
    """The game one shot decides, with the hand-set model stored beside the database as its ruleset's."""
    g = one_shot_game()
    store.import_envelopes(ONE_SHOT_GAME, g.sealed(ONE_SHOT_GAME, "2026-11-21T19:00:00+00:00"))
    winprob.save(winprob.Models(models={"kt24-preliminary": VP_MODEL}), winprob.model_path(store.path))
    return next(a.seq for a in g.state.attacks)


def moment_line(screen) -> str:
    return str(screen.query_one("#moment", TextBlock).render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_the_bar_moves_with_the_shot_and_k_jumps_to_it(store, decided, size):
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=size) as pilot:
        screen = pilot.app.screen
        bar = screen.query_one(EvalBar)
        assert bar.region.width >= 8 and bar.region.height >= 5  # beside the board, on screen
        assert bar.label == "Alice 50% · Bob 50%"
        assert decided in screen.key_seqs
        while screen.replay.seq < decided:
            await press(pilot, "k")
        assert screen.replay.seq == decided
        assert bar.label == SHOT
        assert f"◆ key moment: Alice +{round(100 * (SHOT_CHANCE - 0.5))}%" in moment_line(screen) and "bob1 incapacitated" in moment_line(screen)
        drawn = str(bar.render())
        assert "Alice" in drawn and "Bob" in drawn and f"{round(100 * SHOT_CHANCE)}%" in drawn  # the players by name, not by initial
        await press(pilot, "left")
        assert bar.label == "Alice 50% · Bob 50%"


@tui_test
async def test_a_chance_is_never_shown_as_certain_before_the_result(store, decided):
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        bar = screen.query_one(EvalBar)
        result = screen.analysis.decided
        await press(pilot, "end")
        assert bar.label == "Alice 100% · Bob 0%" and screen.replay.seq >= result
        screen.action_seek(result - 1)
        await pilot.pause()
        assert bar.label == "Alice > 99% · Bob < 1%" and "100%" not in str(bar.render())


@tui_test
async def test_the_bar_names_the_default_model_it_reads(store):
    g = one_shot_game()
    store.import_envelopes(ONE_SHOT_GAME, g.sealed(ONE_SHOT_GAME, "2026-11-21T19:00:00+00:00"))
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=(80, 24)) as pilot:
        bar = pilot.app.screen.query_one(EvalBar)
        assert "kt24-preliminary default model" in str(bar.tooltip) and "simulated games of kt24-preliminary" in str(bar.tooltip)


@tui_test
async def test_a_ruleset_with_no_model_shows_no_bar_and_says_why(store):
    game_id, g = next(iter(simulate_games(1, 4, ruleset="kt24-joint")))
    store.import_envelopes(game_id, g.sealed(game_id, "2026-11-21T19:00:00+00:00"))
    async with make_app(store, screen="replay", game_id=game_id).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        assert not screen.query(EvalBar)
        assert "no win probability for kt24-joint games" in moment_line(screen)
        await press(pilot, "b")
        assert not screen.query(EvalBar)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_b_hides_every_chance_and_shows_them_again_at_the_moment_shown(store, decided, size):
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=size) as pilot:
        screen = pilot.app.screen
        bar = screen.query_one(EvalBar)
        board = screen.query_one("#board").region
        await press(pilot, "b")
        assert not bar.display and bar.region.width == 0
        assert screen.query_one("#board").region == board  # the board keeps its place; the state panel takes the bar's columns
        while screen.replay.seq < decided:
            await press(pilot, "k")
        line = moment_line(screen)
        assert "◆ key moment" in line and "Alice +" not in line and "%" not in line  # not who gained, nor how much
        assert bar.label == "Alice 50% · Bob 50%"  # hidden: not told who is ahead
        await press(pilot, "b")
        assert bar.display and bar.region.width >= 8
        assert bar.label == SHOT  # shown again at the moment shown
        assert "◆ key moment: Alice +" in moment_line(screen)


@tui_test
async def test_a_multiplayer_game_has_a_bar_of_every_player(store):
    game_id, g = next(iter(simulate_games(1, 6, ruleset="kt24-multiplayer")))
    store.import_envelopes(game_id, g.sealed(game_id, "2026-11-21T19:00:00+00:00"))
    async with make_app(store, screen="replay", game_id=game_id).run_test(size=(120, 40)) as pilot:
        bar = pilot.app.screen.query_one(EvalBar)
        drawn = str(bar.render())
        assert all(p[:7] in drawn for p in g.state.players) and len(bar.chances) == len(g.state.players)
        assert sum(bar.chances) == pytest.approx(1.0, abs=1e-3)
