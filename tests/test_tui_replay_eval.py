"""The replay's evaluation bar and key moments (issue 28), at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from tui_support import press, tui_test
from winprob_support import ONE_SHOT_GAME, VP_MODEL, one_shot_game

from ktlog.analytics import winprob
from ktlog.tui.app import make_app
from ktlog.tui.widgets.eval_bar import EvalBar


@pytest.fixture
def decided(store):
    """The game one shot decides, with the hand-set model stored beside the database."""
    g = one_shot_game()
    store.import_envelopes(ONE_SHOT_GAME, g.sealed(ONE_SHOT_GAME, "2026-11-21T19:00:00+00:00"))
    winprob.save(VP_MODEL, winprob.model_path(store.path))
    return next(a.seq for a in g.state.attacks)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_the_bar_moves_with_the_shot_and_k_jumps_to_it(store, decided, size):
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=size) as pilot:
        screen = pilot.app.screen
        bar = screen.query_one(EvalBar)
        assert bar.region.width >= 4 and bar.region.height >= 5  # beside the board, on screen
        assert bar.label == "Alice 50% · Bob 50%"
        assert decided in screen.key_seqs
        while screen.replay.seq < decided:
            await press(pilot, "k")
        assert screen.replay.seq == decided
        assert bar.label == "Alice 92% · Bob 8%"
        assert "◆ key moment: Alice +42%" in str(screen.query_one("#moment").render())
        assert "92%" in str(bar.render()) and "8%" in str(bar.render())
        await press(pilot, "left")
        assert bar.label == "Alice 50% · Bob 50%"
        last = max(s for s in screen.key_seqs if s < screen.replay.head)
        await press(pilot, "end", "K")
        assert screen.replay.seq == last


@tui_test
async def test_without_a_stored_model_the_bar_says_which_it_reads(store):
    g = one_shot_game()
    store.import_envelopes(ONE_SHOT_GAME, g.sealed(ONE_SHOT_GAME, "2026-11-21T19:00:00+00:00"))
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=(80, 24)) as pilot:
        bar = pilot.app.screen.query_one(EvalBar)
        assert "no model is stored for this database" in str(bar.tooltip) and "simulated" in str(bar.tooltip)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_b_hides_the_bar_and_shows_it_again_at_the_moment_shown(store, decided, size):
    async with make_app(store, screen="replay", game_id=ONE_SHOT_GAME).run_test(size=size) as pilot:
        screen = pilot.app.screen
        bar = screen.query_one(EvalBar)
        board = screen.query_one("#board").region
        await press(pilot, "b")
        assert not bar.display and bar.region.width == 0
        assert screen.query_one("#board").region == board  # the board keeps its place; the state panel takes the bar's columns
        while screen.replay.seq < decided:
            await press(pilot, "k")
        assert bar.label == "Alice 50% · Bob 50%"  # hidden: not told who is ahead
        await press(pilot, "b")
        assert bar.display and bar.region.width >= 4
        assert bar.label == "Alice 92% · Bob 8%"  # shown again at the moment shown
