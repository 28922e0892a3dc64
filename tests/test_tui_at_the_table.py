"""Issue 24, "at the table in the TUI": what a real game with imported kill teams tripped on,
each checked by keys at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, SelectionList
from tui_support import ARMED, TINY, paste_into, press, screen_strips, screen_text, tiny_game, tui_test, until

from ktlog import events as ev
from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder
from ktlog.text.event_text import parse_event
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
    gid = tiny_game(store)
    async with make_app(store, screen="replay", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "ReplayScreen", "the replay")
        await press(pilot, "q")
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")


# --- the record screen ------------------------------------------------------------------------


def dialog_text(pilot) -> str:
    """What the open dialog shows, as plain text."""
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


RIFLE = '{ name = "Rifle", kind = "ranged", atk = 4, hit = "4+", dmg = "3/4" }'


def team_file(tmp_path, name: str, ops: list[str], weapons: str = RIFLE) -> Path:
    """A roster of operatives with these ids, 7 Wounds each, all armed alike."""
    cards = "".join(
        f'\n[[operatives]]\nname = "{name} {i}"\nid = "{op}"\napl = 2\nmove = 6\nsave = "4+"\nwounds = 7\nweapons = [{weapons}]\n' for i, op in enumerate(ops)
    )
    path = tmp_path / f"{name.lower()}.toml"
    path.write_text(f'name = "{name}"\nfaction = "Test"\n{cards}', encoding="utf-8")
    return path


def battle(store, alice: Path, bob: Path, *events) -> str:
    """Alice's and Bob's kill teams set up, TP1 with Alice to activate, then `events`."""
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(alice))
    g.player("Bob", load_roster(bob))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    g.add(*events)
    return store.new_game(g.events[0], g.events[1:])


def long_ids_game(store, tmp_path) -> str:
    """Alice's five gunners (long ids that share their start) against Bob's tiny team, TP1."""
    return battle(store, team_file(tmp_path, "Gunners", GUNNERS), TINY)


def table_names(pilot, side: int) -> list[str]:
    """The names column of a side's operative table, as drawn."""
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


def injured_duel(store, tmp_path, *events) -> str:
    """Alice's two blades (blade-1 injured: 2 of 7 Wounds) against Bob's three (the first
    incapacitated), their knives with weapon rules, their guns with Piercing 3; then `events`."""
    weapons = '{ name = "Gun", kind = "ranged", atk = 4, hit = "3+", dmg = "3/4", rules = ["Piercing 3"] }, '
    weapons += '{ name = "Knife", kind = "melee", atk = 4, hit = "3+", dmg = "3/4", rules = ["Lethal 5+", "Balanced"] }'
    alice = team_file(tmp_path, "Blades", ["blade-1", "blade-2"], weapons)
    bob = team_file(tmp_path, "Knives", ["knife-1", "knife-2", "knife-3"], weapons)
    hurt = [ev.DamageInflicted(operative="blade-1", damage=5, source="other"), ev.DamageInflicted(operative="knife-1", damage=7, source="other")]
    return battle(store, alice, bob, *hurt, *events)


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_pick_lists_show_an_injured_operative_as_words_not_markup(store, tmp_path, size):
    """#19: the activation list read `2/7 [yellow]injured[/]`."""
    gid = injured_duel(store, tmp_path)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await press(pilot, "a")
        shown = await dialog_open(pilot, "Activate")
    assert "blade-1 · Blades 0 · 2/7 injured · con" in shown and "[" not in shown


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_charge_targets_have_their_fixed_keys_and_the_fight_dialog_the_weapon_as_used(store, tmp_path, size):
    """#19: the charge list numbered its rows 1, 2 (knife-2, knife-3 are Bob's 2 and 3); the
    fight dialog gave the injured blade-1 its Knife's base Hit and left out the Knife's rules."""
    gid = injured_duel(store, tmp_path, ev.OperativeActivated(operative="blade-1", order="engage"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await press(pilot, "c")
        shown = await dialog_open(pilot, "Charge")
        assert "2 knife-2" in shown and "3 knife-3" in shown and "1 knife" not in shown
        await press(pilot, "3")
        await until(pilot, lambda: "knife-3" in store.state(gid).operatives["blade-1"].engaged_with, "the charge recorded")
        await press(pilot, "f")
        shown = await dialog_open(pilot, "blade-1 fights knife-3")
    assert "Knife (Atk 4, Hit 4+, Dmg 3/4, Lethal 5+, Balanced)" in shown  # injured: Hit 3+ worsened by 1 (pg 47)
    assert "knife-3 7/7 with Knife (Atk 4, Hit 3+, Dmg 3/4, Lethal 5+, Balanced)" in shown


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_shot_with_no_defence_dice_to_roll_says_so(store, tmp_path, size):
    """#19: Piercing 3 leaves no defence die, and the entry read `defence dice: _`."""
    gid = injured_duel(store, tmp_path, ev.OperativeActivated(operative="blade-2", order="engage"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await press(pilot, "s", "2")
        shown = await dialog_open(pilot, "blade-2 shoots")
        assert "defence dice: none to roll" in shown and "_" not in shown
        await press(pilot, *"4411", "enter")
        await until(pilot, lambda: store.state(gid).operatives["knife-2"].wounds == 1, "6 damage recorded")


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_header_names_nobody_to_activate_when_every_operative_has(store, size):
    """#19: "Alice to activate" with every operative expended."""
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(TINY))
    g.player("Bob", load_roster(TINY))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    for op in ("trooper-1", "bob-trooper-1", "trooper-2", "bob-trooper-2"):
        g.activate(op, "engage")
    gid = store.new_game(g.events[0], g.events[1:])
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        header = str(pilot.app.screen.query_one("GameHeader").render())
    assert "nobody left to activate" in header and "Alice to activate" not in header


def shot_then_more(store) -> tuple[str, int]:
    """A tiny game in which trooper-1 shoots bob-trooper-1 (dice 441, saves 111: 4 damage), then
    ends its activation and Bob activates; returns the game and the shot's seq."""
    gid = tiny_game(store)
    store.append(gid, ev.OperativeActivated(operative="trooper-1", order="engage"))
    dice = ev.ShootingAttack(target="bob-trooper-1", attack_dice=ev.Dice(rolls=(4, 4, 1)), defence_dice=ev.Dice(rolls=(1, 1, 1)))
    shot = store.append(gid, ev.Shot(operative="trooper-1", weapon="Rifle", attacks=(dice,))).seq
    store.append(gid, ev.ActivationEnded(operative="trooper-1"))
    store.append(gid, ev.OperativeActivated(operative="bob-trooper-2", order="engage"))
    return gid, shot


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_an_event_is_reached_by_its_seq_and_corrected_by_editing_its_fields(store, size):
    """#16: reaching an event took a press of ↑ per event with no sign of the row selected, and
    a correction had to be typed whole."""
    gid, shot = shot_then_more(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        assert store.state(gid).operatives["bob-trooper-1"].wounds == 2
        log = pilot.app.screen.query_one("EventLog")
        await press(pilot, "up", "up")  # the log moves without Tab to it first
        assert log.selected_seq == log.last_seq - 2
        await press(pilot, "j")
        await dialog_open(pilot, "Jump to event")
        await press(pilot, *str(shot), "enter")
        await until(pilot, lambda: not pilot.app.screen.dialogs, "the jump done")
        lines = [strip.text for strip in screen_strips(pilot.app.screen)]
        assert any(line.lstrip("│ ").startswith(f"▶{shot:>4} trooper-1 shoots") for line in lines)  # the row marked
        await press(pilot, "full_stop", "c")
        await dialog_open(pilot, f"Correct seq {shot}")  # the shot's form, filled in with its answers (issue 39)
        rows = screen_text(pilot.app)
        assert "which target: bob-trooper-1" in rows and "attack dice: 441" in rows and "defence dice: 111" in rows and "in cover: false" in rows
        await press(pilot, "5")  # the defence dice, asked again with the recorded ones to edit
        await dialog_open(pilot, "defence dice")
        assert pilot.app.screen.dialogs[-1].query_one(Input).value == "111"
        await press(pilot, "backspace", "5", "enter")  # one save die changed: 1 -> 5
        await until(pilot, lambda: "defence dice: 115" in screen_text(pilot.app), "the form with the new answer")
        await press(pilot, "r")
        await until(pilot, lambda: store.state(gid).operatives["bob-trooper-1"].wounds == 4, "the correction counted (one save: 2 damage)")
    assert store.state(gid).activation.operative == "bob-trooper-2"  # the later events still count


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_replay_of_an_event_says_a_later_correction_changes_it(store, size):
    """#16: at the wrong event the replay showed it as if it stood."""
    gid, shot = shot_then_more(store)
    corrected = ev.Shot(
        operative="trooper-1",
        weapon="Rifle",
        attacks=(ev.ShootingAttack(target="bob-trooper-1", attack_dice=ev.Dice(rolls=(4, 4, 1)), defence_dice=ev.Dice(rolls=(1, 1, 5))),),
    )
    fix = store.append(gid, ev.EventCorrected(target=shot, event=corrected)).seq
    async with make_app(store, screen="replay", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "ReplayScreen", "the replay")
        pilot.app.screen.action_seek(shot)
        await pilot.pause()
        moment = str(pilot.app.screen.query_one("#moment").render())
    assert f"seq {shot} trooper-1 shoots" in moment and f"corrected at seq {fix}" in moment


def shown_rows(pilot, side: int) -> list[str]:
    """The operative rows a side's table shows, as drawn."""
    table = pilot.app.screen.query_one(f"#side-{side}")
    lines = [strip.text for strip in screen_strips(pilot.app.screen)]
    region = table.content_region
    return [row for y in range(region.y + 1, region.bottom) if (row := lines[y][region.x : region.right]).strip()]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_operatives_get_the_room_and_the_active_one_is_always_shown(store, size):
    """#17: at 80x24 the record screen showed 4 of Alice's 10 Kasrkin and the replay 2; the
    active operative scrolled out of view."""
    from tui_support import sample_cut

    gid = sample_cut(store, "01", 2)  # recon-trooper, Alice's 8th, is active
    least = 7 if size == (80, 24) else 10
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await pilot.pause()
        assert len(shown_rows(pilot, 0)) >= least
        table = pilot.app.screen.query_one("#side-0")
        for _ in range(10):  # the wheel scrolls the table up as far as it goes
            table.on_mouse_scroll_up(None)
        await pilot.pause()
        assert any("recon-trooper" in row and "ACTIVE" in row for row in shown_rows(pilot, 0))
    async with make_app(store, screen="replay", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "ReplayScreen", "the replay")
        pilot.app.screen.action_seek(-1)
        await pilot.pause()
        assert len(shown_rows(pilot, 0)) >= (5 if size == (80, 24) else 10)
        assert any("recon-trooper" in row and "ACTIVE" in row for row in shown_rows(pilot, 0))


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_form_fields_an_operative_type_three_times(store, size):
    """#13: a roster lists each type once; the CLI fields one three times, the form could not."""
    kasrkin = [o.id for o in load_roster(SAMPLE_ROSTERS / "kasrkin.toml").operatives]
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await paste_into(pilot, "#file-1", "kasrkin")
        await press(pilot, "enter")
        ops = pilot.app.screen.query_one("#ops-1", SelectionList)
        ops.focus()
        ops.highlighted = 1  # the medic
        await press(pilot, "plus", "plus")
        assert ops.option_count == len(kasrkin) + 2 and len(ops.selected) == len(kasrkin) + 2
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: screen_name(pilot) == "SetUpScreen", "the set-up screen")
    (game,) = store.games()
    fielded = [o.id for o in store.state(game.id).operatives_of("Alice")]
    assert fielded == ["sergeant", "medic-1", *kasrkin[2:], "medic-2", "medic-3"]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_dropped_operative_has_an_empty_box_not_only_another_colour(store, size):
    """#19: selected and deselected operatives both showed X, in two colours."""
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await paste_into(pilot, "#file-1", "kasrkin")
        await press(pilot, "enter")
        ops = pilot.app.screen.query_one("#ops-1", SelectionList)
        ops.focus()
        ops.highlighted = 1
        await press(pilot, "space")  # the medic dropped
        lines = [strip.text for strip in screen_strips(pilot.app.screen)]
    sergeant = next(line for line in lines if "sergeant · " in line)
    medic = next(line for line in lines if "medic · " in line)
    assert "▐X▌ sergeant" in sergeant and "▐ ▌ medic" in medic


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_blast_shots_further_target_is_corrected_through_its_form(store, size):
    """Issue 39: the correction form of a Blast weapon's shot asks its further target and that
    target's own dice, as the seat page does (play/questions); one further save changed."""
    gid = tiny_game(store, roster_file=ARMED)
    store.append(gid, ev.OperativeActivated(operative="gunner-1", order="engage"))
    shot = store.append(
        gid,
        parse_event(
            "Shot operative=gunner-1 weapon='Frag launcher' target=bob-trooper-1 dice=653 saves=211 further=bob-trooper-2 further_dice=442 further_saves=311"
        ),
    ).seq
    assert store.state(gid).operatives["bob-trooper-2"].wounds == 6 - 2 * 2  # two normal hits, no save: 2 each
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await until(pilot, lambda: screen_name(pilot) == "RecordScreen", "the record screen")
        await press(pilot, "full_stop", "c")
        await dialog_open(pilot, f"Correct seq {shot}")
        rows = screen_text(pilot.app)
        assert "further targets (Blast, Torrent): bob-trooper-2" in rows and "defence dice of each further target: bob-trooper-2:311" in rows, rows
        row = next(i for i, q in enumerate(_shot_form(store, gid, shot).questions) if q.field == "further_saves")
        await press(pilot, *str(row + 1))
        await dialog_open(pilot, "defence dice of each further target")
        assert pilot.app.screen.dialogs[-1].query_one(Input).value == "bob-trooper-2:311"
        await press(pilot, "backspace", "5", "enter")  # one save die changed: 1 -> 5, one hit saved
        await until(pilot, lambda: "bob-trooper-2:315" in screen_text(pilot.app), "the form with the new answer")
        await press(pilot, "r")
        await until(pilot, lambda: store.state(gid).operatives["bob-trooper-2"].wounds == 6 - 2, "the correction counted (one hit saved)")


def _shot_form(store, gid: str, seq: int):
    from ktlog.play.seats import correction

    return correction(store, gid, seq).move
