"""The replay screen driven by keys: a battle step by step, read-only, on a sample game."""

from __future__ import annotations

import pytest
from tui_support import press, sample, screen_strips, tui_test

from ktlog.play.importer import import_file
from ktlog.tui.app import make_app

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
        tp1 = replay.timeline.turning_point_start(1)
        assert replay.seq == tp1 and "turning point 1 begins" in moment(pilot)
        await press(pilot, "right", "right")
        assert replay.seq == tp1 + 2
        await press(pilot, "left")
        assert replay.seq == tp1 + 1
        await press(pilot, "right_square_bracket")
        first = replay.timeline.activations()[0]
        assert replay.seq == first and "activates" in moment(pilot)
        await press(pilot, "right_square_bracket", "left_square_bracket")
        assert replay.seq == first
        await press(pilot, "pagedown")
        assert replay.seq == replay.timeline.turning_point_start(2)
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
        assert replay.seq == replay.timeline.turning_point_start(3)
        await press(pilot, "g", "ctrl+u", *"abc", "enter")
        assert "is not a seq" in moment(pilot) and replay.seq == replay.timeline.turning_point_start(3)


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
        assert "spectator mode (no secret choices in this ruleset)" in screen.sub_title  # the flag reaches the screen
        curve = screen.query_one("VPCurve")
        await press(pilot, "end")
        assert {p: ys[-1] for p, (_, ys) in curve.drawn.items()} == {"Ivy": 8, "Jack": 7}
        await press(pilot, "t", "3")
        at_tp3 = screen.replay.state
        assert {p: ys[-1] for p, (_, ys) in curve.drawn.items()} == {p: at_tp3.players[p].total_vp for p in at_tp3.players}
        assert all(x <= at_tp3.seq for xs, _ in curve.drawn.values() for x in xs)


SECRETS_GAME = "5d0c2a52-8f3e-4a57-9a77-0b1a6f1e0808"
"""Sample 08 (Approved Ops): tac ops selected at seqs 30 (Hana) and 31 (Ivo), Hana's revealed at
185 and scored at 186, Ivo's revealed at 229 and scored at 230."""


@pytest.mark.parametrize("spectator", [True, False])
@tui_test
async def test_a_spectator_sees_a_secret_choice_once_it_is_revealed(store, spectator):
    import_file(store, sample("08"))
    async with make_app(store, screen="replay", game_id=SECRETS_GAME, spectator=spectator).run_test(size=(100, 30)) as pilot:
        screen = pilot.app.screen
        rows = screen.query_one("EventLog").rows

        def board() -> str:
            return str(screen.query_one("ScoreBoard").render())

        await press(pilot, "g", "ctrl+u", *"30", "enter")
        hana_selects, ivo_selects, ivo_scores = rows[29].plain, rows[30].plain, rows[229].plain
        if not spectator:  # the players' view: every secret, marked as one until revealed
            assert "Hana selects a tac op: Flank (Recon)" in moment(pilot) and "tac op Flank (Recon) (secret)" in board()
            assert "Overrun" in ivo_selects and "spectator" not in screen.sub_title
            return
        assert "secret choices hidden until revealed" in screen.sub_title
        assert "Hana selects a tac op (hidden)" in moment(pilot) and "Flank" not in board() and "tac op hidden" in board()
        assert hana_selects.endswith("(hidden)") and ivo_selects.endswith("(hidden)") and "(reason hidden)" in ivo_scores
        await press(pilot, "g", "ctrl+u", *"186", "enter")  # Hana's tac op is revealed, Ivo's is not
        assert "Hana scores 1VP on their tac op: Flank: the sergeant" in moment(pilot)
        assert "tac op Flank (Recon) ·" in board() and "tac op hidden" in board()
        assert "Flank (Recon)" in rows[29].plain and rows[30].plain.endswith("(hidden)") and "(reason hidden)" in rows[229].plain
        await press(pilot, "end")
        assert "Overrun" in rows[30].plain and "three enemy operatives" in rows[229].plain


FOUR_PLAYERS = "a3c6f1e2-4d7b-4f0e-9b8a-6c2d1e0f7b11"  # sample 11: Multiplayer Ops, four players


@tui_test
async def test_four_players_tables_stand_in_two_columns(store):
    import_file(store, sample("11"))
    async with make_app(store, screen="replay", game_id=FOUR_PLAYERS).run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        await press(pilot, "t", "2", "right_square_bracket")
        tables = list(screen.query("OperativeTable"))
        assert [t.player for t in tables] == ["Pia", "Quinn", "Rosa", "Sam"]
        assert len({t.region.x for t in tables}) == 2 and len({t.region.y for t in tables}) == 2
        assert all(t.region.height >= 5 for t in tables)
        assert "order Pia › Sam › Rosa › Quinn · active: chosen (Pia" in str(screen.query_one("GameHeader").render())
        board = str(screen.query_one("ScoreBoard").render()).splitlines()
        players = [line for line in board if not line.startswith("  ")]
        assert len(players) == 4 and all("(elimination " in line and "kill grade" not in line for line in players)
        assert board[board.index(players[3]) + 1] == "  Resolve 2"  # Sam's Kasrkin resource, on a line of its own under Sam's


def highlighted_log_rows(app) -> list[str]:
    """The event log's rows drawn in reverse (the selected event), as the screen shows them."""
    log = app.screen.query_one("EventLog")
    strips = screen_strips(app.screen)
    region = log.content_region
    rows = []
    for y in range(region.y, region.bottom):
        cells = strips[y].crop(region.x, region.right)
        if any(segment.style and segment.style.reverse and segment.text.strip() for segment in cells):
            rows.append(cells.text.strip())
    return rows


@tui_test
async def test_the_log_highlights_one_row_however_it_moves(store, notes_game):
    """The log redraws only the lines that change: stepping back and forth, past the window's
    edges and by jumps, one row is highlighted, the moment shown."""
    async with make_app(store, screen="replay", game_id=notes_game).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        for keys in (["right"] * 12, ["left"] * 5, ["pagedown"], ["right"] * 3, ["end"], ["left"] * 9, ["home"], ["right"]):
            await press(pilot, *keys)
            shown = highlighted_log_rows(pilot.app)
            seq = screen.replay.seq
            assert [row.removeprefix("▶").split()[0] for row in shown] == ([str(seq)] if seq else []), (keys, shown)
            assert all(row.startswith("▶") for row in shown)  # marked, not only reversed (issue 24 #16)  # Home: before the first event
