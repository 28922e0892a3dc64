"""Issue 17 #3 in the terminal UI: a name an older database holds with ESC, OSC or BEL is drawn
as a visible escape, never sent to the terminal raw (an ESC[2J name blanked the replay)."""

from __future__ import annotations

import pytest
from test_reliability_attack import odd_names_db  # noqa: F401  (the fixture)
from tui_support import press, screen_strips, tui_test

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


MARKUP_TEAM = """
name = "Tiny Team"
faction = "Test"

[[operatives]]
name = "Boss [/] [red]x[/red]"
id = "trooper"
count = 2
apl = 2
move = 6
save = "4+"
wounds = 6
weapons = [
  { name = "Rifle [/b]", kind = "ranged", atk = 3, hit = "4+", dmg = "2/3" },
  { name = "Knife [bold]", kind = "melee", atk = 3, hit = "4+", dmg = "2/3" },
]
"""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_names_that_look_like_markup_are_drawn_as_written_in_every_dialog(tmp_path, size):
    """A datacard or weapon name holding square brackets ("[/]", "[red]") is text: the pick lists,
    the shoot dialog and the messages show it as written, and a stray closing tag breaks nothing."""
    from ktlog.files.rosters import load_roster
    from ktlog.play.builder import GameBuilder

    roster_file = tmp_path / "markup.toml"
    roster_file.write_text(MARKUP_TEAM)
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    roster = load_roster(roster_file)
    g.player("Alice [b]", roster)
    g.player("Bob", roster)
    g.setup(rolloff={"Alice [b]": 6, "Bob": 1}, initiative="Alice [b]", crit_op=1)
    g.turning_point(1, {"Alice [b]": 5, "Bob": 2}, "Alice [b]")
    with Store(tmp_path / "m.db") as store:
        gid = store.new_game(g.events[0], g.events[1:])
        async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
            seen = []
            for key in ("a", "1", "e", "s", "1"):  # activate, order, shoot, the target: the dice dialog
                await press(pilot, key)
                seen.append("\n".join(strip.text for strip in screen_strips(app_screen(pilot))))
            await press(pilot, *"642", *"312", "enter")
            seen.append("\n".join(strip.text for strip in screen_strips(app_screen(pilot))))
        shot = store.events(gid)[-1].payload
    text = "\n".join(seen)
    assert "Boss [/] [red]x[/red]" in text  # the pick list of operatives
    assert "Rifle [/b]" in text  # the shoot dialog's weapon
    assert "Alice [b]" in text
    assert type(shot).__name__ == "Shot" and shot.weapon == "Rifle [/b]"


def app_screen(pilot):
    return pilot.app.screen
