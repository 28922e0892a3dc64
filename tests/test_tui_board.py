"""The battle's map in the TUI replay (issue 44): `m` shows a game with positions on its
killzone as characters, at 80x24 and 120x40, names as plain text; a game without has no map."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tui_support import press, tui_test

from ktlog.data import SAMPLE_BATTLES, SAMPLE_GAMES
from ktlog.play.importer import import_file
from ktlog.tui.app import make_app
from ktlog.tui.widgets.board_panel import BoardPanel

VOLKUS = "5b0a7c1e-4f7e-4c59-9d2f-3a8f1e6c0b16"


def shown(pilot) -> str:
    return str(pilot.app.screen.query_one(BoardPanel).render())


@tui_test
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_m_shows_the_battle_on_its_map_at_the_moment_replayed(store, size, tmp_path):
    import_file(store, SAMPLE_BATTLES / "16_volkus_board.jsonl")
    async with make_app(store, screen="replay", game_id=VOLKUS).run_test(size=size) as pilot:
        replay = pilot.app.screen.replay
        assert not pilot.app.screen.query_one(BoardPanel).display
        await press(pilot, "m")
        panel = pilot.app.screen.query_one(BoardPanel)
        assert panel.display and not pilot.app.screen.query_one("StatePanel").display
        text = shown(pilot)
        assert "◎" in text and "▓" in text  # the markers and the heavy terrain
        assert "a sergeant" in text and "A legionary-1" in text  # the key: Alice's a, b, c; Bob's A, B, C
        lines = text.splitlines()
        assert len(lines) <= panel.content_size.height and max(len(line) for line in lines) <= panel.content_size.width
        where = next(i for i, line in enumerate(lines) if "A" in line and "legionary" not in line)
        await press(pilot, "right_square_bracket", "right_square_bracket", "right_square_bracket", "right")  # into the legionary's move
        assert replay.seq > 0
        await press(pilot, "end")
        moved = shown(pilot).splitlines()
        assert next(i for i, line in enumerate(moved) if "A" in line and "legionary" not in line) != where  # it moved down the board
        folder = Path(os.environ.get("KTLOG_SCREENSHOTS") or tmp_path)
        pilot.app.save_screenshot(str(folder / f"tui-board-{size[0]}x{size[1]}.svg"))
        await press(pilot, "m")
        assert pilot.app.screen.query_one("StatePanel").display


@tui_test
async def test_a_game_without_positions_has_no_map(store):
    import_file(store, SAMPLE_GAMES / "05_undo_and_notes_hearthkyn_vs_legionaries.jsonl")
    async with make_app(store, screen="replay", game_id="89e3b1dc-8eb1-4eb8-9694-f4e44041fbe4").run_test(size=(80, 24)) as pilot:
        assert not pilot.app.screen.query(BoardPanel)
        await press(pilot, "m")
        assert pilot.app.screen.query_one("StatePanel").display
