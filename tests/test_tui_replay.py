"""The replay screen driven by keys: a battle step by step, read-only, on a sample game."""

from __future__ import annotations

import pytest
from tui_support import press, sample, tui_test

from ktlog.gamelog import import_file
from tui.app import make_app

NOTES_GAME = "89e3b1dc-8eb1-4eb8-9694-f4e44041fbe4"  # sample 05: undos and notes


@pytest.fixture
def notes_game(store):
    import_file(store, sample("05"))
    return NOTES_GAME


def moment(pilot) -> str:
    return str(pilot.app.screen.query_one("#moment").render())


@tui_test
async def test_step_by_event_activation_and_turning_point(store, notes_game):
    async with make_app(store, screen="replay", game_id=notes_game).run_test(size=(80, 24)) as pilot:
        replay = pilot.app.screen.replay
        tp1 = replay.turning_point_start(1)
        assert replay.seq == tp1 and "turning point 1 begins" in moment(pilot)
        await press(pilot, "right", "right")
        assert replay.seq == tp1 + 2
        await press(pilot, "left")
        assert replay.seq == tp1 + 1
        await press(pilot, "right_square_bracket")
        first = replay.activations()[0]
        assert replay.seq == first and "activates" in moment(pilot)
        await press(pilot, "right_square_bracket", "left_square_bracket")
        assert replay.seq == first
        await press(pilot, "pagedown")
        assert replay.seq == replay.turning_point_start(2)
        await press(pilot, "pageup")
        assert replay.seq == tp1
        await press(pilot, "end")
        assert replay.seq == replay.head and "Battle over" in str(pilot.app.screen.query_one("GameHeader").render())
        await press(pilot, "home")
        assert replay.seq == 0


@tui_test
async def test_jump_to_an_event_or_a_turning_point(store, notes_game):
    async with make_app(store, screen="replay", game_id=notes_game).run_test(size=(80, 24)) as pilot:
        replay = pilot.app.screen.replay
        await press(pilot, "g", "ctrl+u", *"77", "enter")  # the prompt proposes the current seq: clear it
        assert replay.seq == 77
        assert "✎ The kinlynk pushed up the east corridor" in moment(pilot)  # a note shown where it was made
        assert replay.state.operatives["kinlynk"].injured
        await press(pilot, "g", "ctrl+u", *"134", "enter")
        assert "(undone at seq 135)" in moment(pilot)
        await press(pilot, "t", "3")
        assert replay.seq == replay.turning_point_start(3)
        await press(pilot, "g", "ctrl+u", *"abc", "enter")
        assert "is not a seq" in moment(pilot) and replay.seq == replay.turning_point_start(3)


@tui_test
async def test_the_scrubber_and_the_log_take_the_mouse(store, notes_game):
    async with make_app(store, screen="replay", game_id=notes_game).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        scrubber = screen.query_one("Scrubber")
        await pilot.click("Scrubber", offset=(scrubber.content_region.width // 2, 0))
        await pilot.pause()
        assert abs(screen.replay.seq - screen.replay.head // 2) <= screen.replay.head // 10
        log = screen.query_one("EventLog")
        await pilot.click("EventLog", offset=(5, 1))  # the first row shown
        await pilot.pause()
        assert screen.replay.seq == log.selected


@tui_test
async def test_the_vp_curve_follows_the_moment(store, notes_game):
    async with make_app(store, screen="replay", game_id=notes_game, spectator=True).run_test(size=(120, 36)) as pilot:
        screen = pilot.app.screen
        assert "spectator" in screen.sub_title  # the flag reaches the screen (nothing is secret in this ruleset)
        curve = screen.query_one("VPCurve")
        await press(pilot, "end")
        assert {p: ys[-1] for p, (_, ys) in curve.drawn.items()} == {"Ivy": 8, "Jack": 7}
        await press(pilot, "t", "3")
        at_tp3 = screen.replay.state
        assert {p: ys[-1] for p, (_, ys) in curve.drawn.items()} == {p: at_tp3.players[p].total_vp for p in at_tp3.players}
        assert all(x <= at_tp3.seq for xs, _ in curve.drawn.values() for x in xs)
