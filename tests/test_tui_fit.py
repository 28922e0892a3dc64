"""Every screen at 80x24 and 120x40: no operative state, hint, footer key, header or message
is cut off, neither shortened with "…" nor lost below the widget's last line (issue 16 #1, #8)."""

from __future__ import annotations

import pytest
from tui_support import cut_texts, press, sample_cut, tiny_game, tui_test

from ktlog.tui.app import make_app

SIZES = [(80, 24), (120, 40)]


@pytest.fixture
def late_game(store):
    """Sample game 01 (Kasrkin v Legionaries, long operative ids) in turning point 4, with an
    operative active and enemies in control range."""
    return sample_cut(store, "01", 4)


async def check(pilot, where: str) -> list[str]:
    await pilot.pause()
    return [f"{where}: {p}" for p in cut_texts(pilot.app.screen)]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_record_screen_and_its_dialogs_cut_nothing(store, late_game, size):
    problems = []
    async with make_app(store, screen="record", game_id=late_game).run_test(size=size) as pilot:
        problems += await check(pilot, "record")
        for keys, where in [(("y",), "ploy: whose"), (("1",), "ploy: name prompt"), (("escape",), "cancelled"), (("full_stop",), "more menu")]:
            await press(pilot, *keys)
            problems += await check(pilot, where)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_small_game_screens_cut_nothing(store, size):
    gid = tiny_game(store)
    problems = []
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        for keys, where in [((), "record"), (("a",), "activate"), (("1", "e"), "activated"), (("s",), "shoot"), (("escape",), "cancelled")]:
            await press(pilot, *keys)
            problems += await check(pilot, where)
    async with make_app(store, screen="start").run_test(size=size) as pilot:
        problems += await check(pilot, "start")
    async with make_app(store, screen="replay", game_id=gid).run_test(size=size) as pilot:
        problems += await check(pilot, "replay")
    assert not problems, "\n".join(problems)
