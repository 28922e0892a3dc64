"""Issue 17 #3 in the terminal UI: a name an older database holds with ESC, OSC or BEL is drawn
as a visible escape, never sent to the terminal raw (an ESC[2J name blanked the replay)."""

from __future__ import annotations

import pytest
from test_reliability_attack import odd_names_db  # noqa: F401  (the fixture)
from tui_support import screen_strips, tui_test

from ktlog.storage.store import Store
from ktlog.tui.app import make_app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("screen", ["replay", "record"])
@tui_test
async def test_a_name_with_control_characters_is_drawn_escaped(odd_names_db, size, screen):  # noqa: F811
    db, gid = odd_names_db
    with Store(db) as store:
        app = make_app(store, screen=screen, game_id=gid)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            text = "\n".join(strip.text for strip in screen_strips(app.screen))
    assert "\x1b" not in text and "\x07" not in text
    assert "\\u001b" in text
