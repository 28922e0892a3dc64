"""Positions entered by keys on the record screen (issue 44, item 3): in a game with a layout, a
set-up or a move that ends somewhere opens the board's map with a cursor on the operative; the
arrows move it, the panel shows the inches counted and what is left, an illegal end is named with
its rule and page and Enter refuses it, Enter records the event with x, y (and z), Esc cancels.
A game without a layout records as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import ROSTERS
from tui_support import cut_texts, message, press, screen_text, tiny_game, tui_test, until

from ktlog import events as ev
from ktlog.files.layouts import layout_from_text
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder
from ktlog.storage.store import Store
from ktlog.tui.app import make_app
from ktlog.tui.screens.place import PlaceDialog, PlaceMap

CLOSE_QUARTERS = """
# Illustrative, made up for these tests: two drop zones meeting across the middle.
name = "Close quarters (illustrative)"
width = 30
depth = 22
killzone = "open"
drop_zones = [
  { name = "A", rect = { x = 0, y = 11, width = 30, depth = 11 } },
  { name = "B", rect = { x = 0, y = 0, width = 30, depth = 11 } },
]
objectives = [{ name = "centre", x = 25, y = 11 }, { name = "west", x = 3, y = 11 }, { name = "east", x = 28, y = 11 }]
terrain = [
  { name = "Crate", parts = [{ name = "crate", traits = ["heavy"], height = 2, rect = { x = 12, y = 7, width = 2, depth = 2 } }] },
  { name = "Tower", parts = [{ name = "platform", traits = ["vantage"], height = 3, rect = { x = 14, y = 18, width = 3, depth = 3 } }] },
]
"""
LAYOUT, problems = layout_from_text(CLOSE_QUARTERS)
assert LAYOUT is not None, problems
START = {"sergeant": (10, 13), "gunner-plasma": (20, 19), "legionary-1": (10, 9), "heavy-gunner": (25, 3)}
SIZES = [(80, 24), (120, 40)]


def builder() -> GameBuilder:
    g = GameBuilder(killzone="volkus", layout=LAYOUT)
    g.player("Alice", load_roster(ROSTERS / "kasrkin.toml"), ["sergeant", "gunner-plasma"])
    g.player("Bob", load_roster(ROSTERS / "legionaries.toml"), ["legionary-1", "heavy-gunner"])
    return g


def battle(store: Store) -> str:
    """Set up at START; turning point 1, Bob to activate (legionary-1 at 10, 9; the sergeant 4" south)."""
    g = builder().setup(
        rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=[("centre", "Bob"), ("west", "Alice"), ("east", "Bob")], positions=START
    )
    g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    return store.new_game(g.events[0], g.events[1:])


def before_set_up(store: Store) -> str:
    """Everything set up but the operatives: Alice (initiative, drop zone A) sets up first."""
    g = builder().setup(
        rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=[("centre", "Bob"), ("west", "Alice"), ("east", "Bob")], positions=START
    )
    first = next(i for i, e in enumerate(g.events) if isinstance(e, ev.OperativeSetUp))
    return store.new_game(g.events[0], g.events[1:first])


def payloads(store: Store, gid: str) -> list[ev.Event]:
    return [e.payload for e in store.events(gid)]


def dialog(pilot) -> PlaceDialog:
    return pilot.app.screen.query_one(PlaceDialog)


def where(pilot) -> str:
    return str(pilot.app.screen.query_one("#where").render())


async def opened(pilot) -> PlaceDialog:
    await until(pilot, lambda: bool(pilot.app.screen.query(PlaceDialog)) and dialog(pilot).opened, "the board dialog")
    return dialog(pilot)


def fits(pilot) -> None:
    """The map and its key within the panel, and nothing a person reads cut."""
    panel = pilot.app.screen.query_one(PlaceMap)
    lines = str(panel.render()).splitlines()
    assert len(lines) <= panel.content_size.height and max(map(len, lines)) <= panel.content_size.width
    assert len(lines) >= 8  # a map to read, not a strip
    assert cut_texts(pilot.app.screen) == []


@tui_test
@pytest.mark.parametrize("size", SIZES)
async def test_a_reposition_is_recorded_by_keys_with_the_inches_left(store, size, tmp_path):
    gid = battle(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "r")  # legionary-1 activates and repositions
        place = await opened(pilot)
        assert (place.x, place.y) == (10, 9)  # the cursor starts on the operative
        assert 'moves 0" of its Reposition\'s 6": 6" left' in where(pilot)
        await press(pilot, "up", "up", "up", "shift+left", "shift+left")
        assert "legionary-1 at x=9.5 y=6" in where(pilot)
        assert 'moves 4" of its Reposition\'s 6": 2" left' in where(pilot)  # 3.04" rounded up (pg 40)
        assert "legal here: Enter records it" in where(pilot)
        assert "legionary-1 at x=9.5 y=6" in screen_text(pilot.app)
        fits(pilot)
        folder = Path(os.environ.get("KTLOG_SCREENSHOTS") or tmp_path)
        pilot.app.save_screenshot(str(folder / f"tui-placing-{size[0]}x{size[1]}.svg"))
        await press(pilot, "enter")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the dialog closed")
        assert "legionary-1" in message(pilot.app) and "Repositioned" not in message(pilot.app)
    last = payloads(store, gid)[-1]
    assert isinstance(last, ev.Repositioned) and (last.operative, last.x, last.y, last.z) == ("legionary-1", 9.5, 6.0, None)


@tui_test
@pytest.mark.parametrize("size", SIZES)
async def test_an_operative_is_set_up_by_keys_in_its_drop_zone(store, size):
    gid = before_set_up(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "u")
        if not pilot.app.screen.query(PlaceDialog):
            await press(pilot, "1")  # the operative, when more than one may be set up
        place = await opened(pilot)
        assert "Set up sergeant" in screen_text(pilot.app)
        assert (place.x, place.y) == (15, 16)  # the middle of drop zone A, clear of the tower
        assert "set up in Alice's drop zone A" in where(pilot)
        fits(pilot)
        await press(pilot, *["up"] * 6)
        assert "not wholly within Alice's drop zone 'A' (Set Up Operatives, pg 110)" in where(pilot)
        await press(pilot, *["down"] * 9)  # onto the tower, 3" high: on the floor its base is on it
        assert "base would be on Tower / platform" in where(pilot) and "(Terrain and Movement, pg 56)" in where(pilot)
        await press(pilot, "v")  # up onto the Vantage platform
        assert "z=3 (Tower / platform)" in where(pilot) and "legal here" in where(pilot)
        await press(pilot, "enter")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the dialog closed")
    last = payloads(store, gid)[-1]
    assert isinstance(last, ev.OperativeSetUp) and (last.operative, last.x, last.y, last.z) == ("sergeant", 15.0, 19.0, 3.0)


@tui_test
@pytest.mark.parametrize(
    "step, keys, refusal",
    [
        (
            "d",
            ["up"] * 4,
            'legionary-1 moves 4" to (10, 5) (increments rounded up, climbs at least 2", drops past the first 2"); its Dash allows 3" (Dash, pg 40)',
        ),
        (
            "r",
            ["right", "right", "right", "up"],
            "legionary-1's base would be on Crate / crate: a base cannot be placed on terrain that is not Vantage (Terrain and Movement, pg 56)",
        ),
        ("r", ["down", "down"], "legionary-1 ends its Reposition within control range of sergeant: it cannot finish a Reposition there (Reposition, pg 40)"),
    ],
    ids=["too-far", "in-terrain", "in-enemy-control-range"],
)
async def test_an_illegal_end_is_named_with_its_page_and_enter_refuses_it(store, step, keys, refusal):
    gid = battle(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", step)
        await opened(pilot)
        head = store.game(gid).head_seq
        await press(pilot, *keys)
        assert f"not here: {refusal}" in where(pilot)
        await press(pilot, "enter")
        assert pilot.app.screen.query(PlaceDialog)  # still open: move it elsewhere or cancel
        assert f"Not recorded: {refusal}" in " ".join(where(pilot).split())
        fits(pilot)
        assert store.game(gid).head_seq == head
        await press(pilot, "escape")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the dialog closed")
        assert "Cancelled; nothing recorded" in message(pilot.app)
    assert store.game(gid).head_seq == head


@tui_test
async def test_f_goes_as_far_as_the_move_allows_toward_the_cursor(store):
    gid = battle(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "r")
        await opened(pilot)
        await press(pilot, *["left"] * 8)  # 8" west: too far
        assert '8" of its Reposition\'s 6": 2" too far' in where(pilot)
        await press(pilot, "f")
        assert "legionary-1 at x=4 y=9" in where(pilot) and '6" left' not in where(pilot) and '0" left' in where(pilot)
        await press(pilot, "enter")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the dialog closed")
    last = payloads(store, gid)[-1]
    assert isinstance(last, ev.Repositioned) and (last.x, last.y) == (4.0, 9.0)


@tui_test
async def test_an_override_records_a_refused_end_with_its_reason(store):
    """`!` in the dialog enters the refused spot: the step is refused as any, and `!` then records
    it with the kill team rule that allows it (pg 55)."""
    gid = battle(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "d")
        await opened(pilot)
        await press(pilot, *["up"] * 4, "exclamation_mark")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the dialog closed")
        assert 'Dash allows 3" (Dash, pg 40)' in message(pilot.app) and "press ! to record it anyway" in message(pilot.app)
        await press(pilot, "exclamation_mark")
        await until(pilot, lambda: bool(pilot.app.screen.dialogs), "the reason prompt")
        pilot.app.screen.query_one("Input").value = 'a ploy moves it 1" more'
        await press(pilot, "enter")
    last = payloads(store, gid)[-1]
    assert isinstance(last, ev.Dashed) and (last.x, last.y) == (10.0, 5.0) and last.override == 'a ploy moves it 1" more'


@tui_test
async def test_a_game_without_a_layout_records_moves_as_before(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "r")
        await until(pilot, lambda: isinstance(payloads(store, gid)[-1], ev.Repositioned), "the reposition recorded")
        assert not pilot.app.screen.query(PlaceDialog)
    last = payloads(store, gid)[-1]
    assert last == ev.Repositioned(operative="trooper-1")
