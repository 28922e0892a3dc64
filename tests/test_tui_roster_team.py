"""Issue 13 in the terminal UI: a game from a roster with ploys, equipment and a resource; a
ploy picked by name with its CP charged, a resource counted, a shot with an equipment weapon."""

from __future__ import annotations

import pytest
from test_roster_team import kit_game
from test_tui_record import screen_text
from tui_support import GAME_ID, message, press, tui_test

from ktlog import events as ev
from ktlog.tui.app import make_app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_ploys_by_name_a_resource_and_an_equipment_weapon(store, size):
    g = kit_game(to="gambit")
    gid = store.new_game(g.events[0], g.events[1:], game_id=GAME_ID)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "g")
        picking = screen_text(pilot.app)
        assert "Rally (2CP) · Stand firm" in picking and "other… (type its name)" in picking
        await press(pilot, "1")  # Rally, from Alice's roster
        assert "Alice uses Rally (2CP)" in message(pilot.app) and "Alice CP -2 (Rally) -> 1CP" in message(pilot.app)
        await press(pilot, "g", "o", *"Lucky Break", "enter")  # Bob: other…, a name his roster does not list
        assert "warning: 'Lucky Break' is not one of Bob's ploys" in message(pilot.app)
        await press(pilot, "p", "p")  # Alice and Bob pass: the Firefight phase
        await press(pilot, "h", "1", *"-1 a prayer", "enter")  # Alice's Faith
        assert "Alice Faith -1 -> 1" in message(pilot.app)
        await press(pilot, "a", "1", "e")  # trooper-1 activates (engage)
        await press(pilot, "y", "1", "1", "0")  # Alice's firefight ploy: Brace, on no operative
        assert "Alice uses Brace (1CP)" in message(pilot.app)
        await press(pilot, "s", "1")  # shoot bob-trooper-1: the Rifle first, the selected Grenade next
        assert "Rifle" in screen_text(pilot.app) and "w: another weapon" in screen_text(pilot.app)
        await press(pilot, "w")
        assert "Grenade" in screen_text(pilot.app)
        await press(pilot, *"6411", *"111", "enter")  # a critical and a normal hit, no saves
        assert "shoots Grenade at bob-trooper-1" in message(pilot.app)
    events = [e.payload for e in store.events(gid)]
    assert ev.StrategicGambitUsed(player="Alice", gambit="Rally") in events
    assert ev.FirefightPloyUsed(player="Alice", ploy="Brace") in events
    assert ev.ResourceAdjusted(player="Alice", resource="Faith", delta=-1, reason="a prayer") in events
    state = store.state(gid)
    assert state.players["Alice"].cp == 0 and state.players["Alice"].resources == {"Faith": 1}
    assert state.operatives["bob-trooper-1"].wounds == 6 - 3 - 2 and state.operatives["trooper-1"].weapon_uses == {"Grenade": 1}


USERS_PLOYS = """
[[ploys]]
name = "Drill Call"
kind = "strategy"
cp = 1

[[resources]]
name = "Drill"
start = 1
"""


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_from_a_battlescribe_roster_to_a_ploy_a_resource_and_an_equipment_weapon(store, tmp_path, monkeypatch, size):
    """The whole path of docs/bring-your-own-kill-team.md: `ktlog roster import` of a BattleScribe
    roster into the user's folder, the player adds a ploy and a resource the data lacks, the new
    game form takes the roster by name, the set-up selects its equipment, and the record screen
    charges the ploy by name and counts the resource."""
    from click.testing import CliRunner
    from conftest import ROOT
    from tui_support import paste_into, type_into

    from ktlog.cli import cli
    from ktlog.rules.team import weapons_of

    folder = tmp_path / "rosters"
    monkeypatch.setenv("KTLOG_ROSTERS", str(folder))
    imported = CliRunner().invoke(cli, ["roster", "import", str(ROOT / "tests" / "fixtures" / "bsdata" / "test-troopers.ros"), "--archetypes", "Security"])
    assert imported.exit_code == 0, imported.output
    roster = folder / "test-troopers.toml"
    roster.write_text(roster.read_text() + USERS_PLOYS)
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await paste_into(pilot, "#file-1", "test-troopers")
        await press(pilot, "enter")
        await type_into(pilot, "#name-2", "Bea")
        await paste_into(pilot, "#file-2", "test-troopers")
        await press(pilot, "enter", "ctrl+s")
        pilot.app.screen.query_one("#equipment-0").value = "Training Knives"
        await press(pilot, "6", "2", "ctrl+s")  # the roll-off dice; the rest as the form has it
        await press(pilot, "t", "5", "2", "enter", "1")  # turning point 1: Alice wins the initiative
        await press(pilot, "g", "1")  # Alice's strategy ploy, by name from her roster
        assert "Alice uses Drill Call (1CP)" in message(pilot.app)
        await press(pilot, "h", "1", *"-1 drilled", "enter")
        assert "Drill -1 -> 0" in message(pilot.app)
    (game,) = store.games()
    events = [e.payload for e in store.events(game.id)]
    assert ev.StrategicGambitUsed(player="Alice", gambit="Drill Call") in events
    assert ev.EquipmentSelected(player="Alice", equipment=("Training Knives",)) in events
    state = store.state(game.id)
    assert state.players["Alice"].cp == 2 and sum(p.resources["Drill"] for p in state.players.values()) == 1
    assert "Training knife" in [w.name for w in weapons_of(state, state.operatives["trooper-sergeant"])]
    assert "Training knife" not in [w.name for w in weapons_of(state, state.operatives["bea-trooper-sergeant"])]  # Bea selected none


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_a_kill_teams_resources_fit_the_scoreboard_beside_a_long_kill_team_name(store, size):
    """Resources have a line of their own under the player's CP, VP and kill grade: beside a long
    kill team's name they pushed the kill grade off the scoreboard at 120 columns."""
    from tui_support import cut_texts, screen_strips

    from ktlog.files.rosters import find_roster, load_roster
    from ktlog.play.builder import GameBuilder

    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(find_roster("hearthkyn")))
    g.player("Bob", load_roster(find_roster("kasrkin")))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    gid = store.new_game(g.events[0], g.events[1:])
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await pilot.pause()
        shown = "\n".join(strip.text for strip in screen_strips(pilot.app.screen))
        assert "Resolve 2" in shown and shown.count("kill grade 0") == 2
        assert not cut_texts(pilot.app.screen)
