"""Issue 24, "at the table in the TUI": what a real game with imported kill teams tripped on,
each checked by keys at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from textual.widgets import SelectionList
from tui_support import paste_into, press, tui_test, until

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.tui.app import make_app

SIZES = [(80, 24), (120, 40)]


def screen_name(pilot) -> str:
    return type(pilot.app.screen).__name__


# --- the new-game form ------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_operatives_deselected_from_a_roster_taken_by_name_are_left_out(store, size):
    """#2: the roster typed by name was loaded again at ctrl+s, every operative selected."""
    kasrkin = [o.id for o in load_roster(SAMPLE_ROSTERS / "kasrkin.toml").operatives]
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await paste_into(pilot, "#file-1", "kasrkin")
        await press(pilot, "enter")
        ops = pilot.app.screen.query_one("#ops-1", SelectionList)
        ops.focus()
        ops.highlighted = 0
        await press(pilot, "space", "down", "space", "down", "space")
        assert len(ops.selected) == len(kasrkin) - 3
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: screen_name(pilot) == "SetUpScreen", "the set-up screen")
    (game,) = store.games()
    assert [o.id for o in store.state(game.id).operatives_of("Alice")] == kasrkin[3:]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_new_game_form_opens_with_the_first_players_name_focused(store, size):
    """#19: it opened with no field focused; typing went nowhere."""
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "NewGameScreen", "the new-game form")
        await press(pilot, "ctrl+u", *"Dave")
        assert pilot.app.screen.focused.id == "name-1"
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: screen_name(pilot) == "SetUpScreen", "the set-up screen")
    assert store.games()[0].players[0] == "Dave"


# --- replay -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_q_quits_the_replay(store, size):
    """#20: the README says q quits `ktlog replay`; it did nothing."""
    from tui_support import tiny_game

    gid = tiny_game(store)
    async with make_app(store, screen="replay", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "ReplayScreen", "the replay")
        await press(pilot, "q")
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")


# --- the record screen ------------------------------------------------------------------------


def dialog_text(pilot) -> str:
    """What the open dialog shows, as plain text."""
    from tui_support import screen_strips

    dialog = pilot.app.screen.dialogs[-1]
    lines = [strip.text for strip in screen_strips(pilot.app.screen)]
    return "\n".join(lines[y][dialog.region.x : dialog.region.right] for y in range(dialog.region.y, dialog.region.bottom))


async def dialog_open(pilot, title: str) -> str:
    await until(pilot, lambda: pilot.app.screen.dialogs and pilot.app.screen.dialogs[-1].opened and title in dialog_text(pilot), f"a dialog {title!r}")
    return dialog_text(pilot)


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_players_number_in_a_list_is_theirs_for_the_whole_game(store, size):
    """#15: the player who decides initiative was listed first, so `1` meant Alice in one
    turning point and Bob in the next."""
    from tui_support import tiny_game

    gid = tiny_game(store, to="battle")
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await press(pilot, "t", "1", "6", "enter")  # Bob wins the roll-off: he decides
        shown = await dialog_open(pilot, "Bob gives initiative to")
        assert "1 Alice" in shown and "2 Bob" in shown
        await press(pilot, "1")
        await until(pilot, lambda: pilot.app.screen.recorder.state.initiative is not None, "initiative recorded")
    assert store.state(gid).initiative == "Alice"


GUNNERS = [f"kasrkin-veteran-gunner-with-{w}" for w in ("flamer", "grenade-launcher", "hot-shot-volley-gun", "meltagun", "plasma-gun")]
"""Ids as long as a BSData import gives (they share their first 28 characters)."""


def long_ids_game(store, tmp_path) -> str:
    """Alice's five gunners (long ids that share their start) against Bob's tiny team, TP1."""
    from tui_support import TINY

    from ktlog.play.builder import GameBuilder

    team = tmp_path / "gunners.toml"
    cards = "".join(
        f'\n[[operatives]]\nname = "Gunner {i}"\nid = "{gid}"\napl = 2\nmove = 6\nsave = "4+"\nwounds = 7\n'
        'weapons = [{ name = "Rifle", kind = "ranged", atk = 4, hit = "4+", dmg = "3/4" }]\n'
        for i, gid in enumerate(GUNNERS)
    )
    team.write_text(f'name = "Gunners"\nfaction = "Test"\n{cards}', encoding="utf-8")
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(team))
    g.player("Bob", load_roster(TINY))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return store.new_game(g.events[0], g.events[1:])


def table_names(pilot, side: int) -> list[str]:
    """The names column of a side's operative table, as drawn."""
    from tui_support import screen_strips

    table = pilot.app.screen.query_one(f"#side-{side}")
    lines = [strip.text for strip in screen_strips(pilot.app.screen)]
    region = table.content_region
    rows = [lines[y][region.x : region.right] for y in range(region.y + 1, region.bottom)]
    return [r.split()[0] for r in rows if r.strip()]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_long_operative_ids_are_shortened_keeping_what_tells_them_apart(store, tmp_path, size):
    """#18: five gunners all read `gunner-with-~`."""
    gid = long_ids_game(store, tmp_path)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await pilot.pause()
        names = table_names(pilot, 0)
    assert len(names) == len(GUNNERS) and len(set(names)) == len(names), names
    for name, full in zip(names, GUNNERS):
        assert "~" in name or name == full
        assert name.replace("~", "")[-3:] in full.removeprefix("kasrkin-veteran-gunner-with-"), (name, full)  # the part that differs shows
