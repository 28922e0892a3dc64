"""The record screen driven by keys: each step lands in the database at once, and bad input gets
a message that says what to do, with nothing lost."""

from __future__ import annotations

import sqlite3

import pytest
from conftest import ROSTERS
from tui_support import TINY, answer, cut_texts, message, press, sample, screen_text, tiny_game, tui_test, until

from ktlog import events as ev
from ktlog.files.gamelog import read_game_log
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, killzone_action
from ktlog.play.replay import Replay
from ktlog.reducer import effective
from ktlog.storage.store import Store
from ktlog.tui.app import make_app
from ktlog.tui.screens.pick import KEYS
from ktlog.tui.widgets.dice_entry import Group, split


def payloads(store: Store, game_id: str) -> list[ev.Event]:
    return [e.payload for e in store.events(game_id)]


def effective_payloads(store: Store, game_id: str) -> list[ev.Event]:
    return [e for _, e in effective([(x.seq, x.payload) for x in store.events(game_id)])]


@tui_test
async def test_a_shooting_attack_with_dice_in_four_keys(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e")  # activate trooper-1 with an Engage order
        assert "trooper-1 activates (engage)" in message(pilot.app)
        dice = [*"642", *"312"]
        keys = ["s", "1", *dice, "enter"]  # shoot, target, the dice, confirm
        await press(pilot, *keys)
        assert len(keys) - len(dice) <= 4
        assert "shoots Rifle at bob-trooper-1" in message(pilot.app)
    shot = payloads(store, gid)[-1]
    assert isinstance(shot, ev.Shot) and shot.attacks[0].attack_dice.rolls == (6, 4, 2)
    assert store.state(gid).operatives["bob-trooper-1"].wounds == 1  # 3 crit + 2 normal, no saves


@tui_test
async def test_an_activation_with_two_actions_in_eight_keys(store):
    gid = tiny_game(store)
    dice = [*"555", *"444"]
    keys = ["a", "1", "e", "r", "s", "2", *dice, "enter", "e"]  # activate, order, reposition, shoot, end
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, *keys)
    assert len(keys) - len(dice) <= 8
    recorded = payloads(store, gid)[-4:]
    assert [type(e).__name__ for e in recorded] == ["OperativeActivated", "Repositioned", "Shot", "ActivationEnded"]
    assert recorded[2].attacks[0].target == "bob-trooper-2"


@tui_test
async def test_keys_typed_ahead_reach_the_next_dialog(store):
    """A fast typist does not wait for each dialog: the keys are kept for it."""
    from textual import events

    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in ["a", "1", "e", "s", "1", *"642", *"312", "enter", "e"]:
            pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
        last = ["OperativeActivated", "Shot", "ActivationEnded"]
        await until(pilot, lambda: [type(e).__name__ for e in payloads(store, gid)[-3:]] == last, "the activation, the shot and its end recorded")


@tui_test
async def test_a_whole_short_game_recorded_by_keys_then_replayed(store):
    gid = tiny_game(store, to="battle")
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=(80, 24)) as pilot:
        # TP1: Alice shoots twice and takes bob-trooper-1 out; Bob fights back with quick mode.
        await press(pilot, "t", "5", "2", "enter", "1", "p", "p")
        assert "Bob passes" in message(app)
        await press(pilot, "a", "1", "e", "s", "1", *"66", "6", *"111", "enter")  # 9 damage: incapacitated
        assert "bob-trooper-1: 0/6 wounds incapacitated" in message(app) and "Alice scores" in message(app)
        await press(pilot, "e")
        await press(pilot, "a", "e", "s", "1", "q", "3", "enter", "e")  # Bob's only ready operative: quick mode, 3 damage
        await press(pilot, "a", "c", "e")  # Alice's last ready operative, Conceal, nothing done
        await press(pilot, "t")
        assert "turning point 1 ends" in message(app)
        # TP2-TP4: Alice secures the centre marker each turning point; every operative activates.
        for tp in (2, 3, 4):
            await press(pilot, "t", "4", "3", "enter", "1", "p", "p")
            await press(pilot, "a", "1", "c", "m", "1", "e")  # trooper-1: Secure the first marker
            await press(pilot, "a", "c", "e")
            await press(pilot, "a", "c", "e")
            await press(pilot, "t")
            assert f"turning point {tp} ends" in message(app)
        assert "result: Alice won" in message(app)
    row = store.game(gid)
    assert row.status == "finished" and row.result["winner"] == "Alice"
    final = store.state(gid)
    assert final.players["Alice"].vp["crit"] == 6 and final.players["Alice"].vp["kill"] >= 1 and final.players["Bob"].total_vp == 0
    assert final.operatives["trooper-1"].wounds == 3

    async with make_app(store, screen="replay", game_id=gid).run_test(size=(80, 24)) as pilot:
        screen = pilot.app.screen
        assert screen.replay.seq == screen.replay.timeline.turning_point_start(1)
        await press(pilot, "right_square_bracket")
        assert isinstance(screen.replay.timeline.event(screen.replay.seq), ev.OperativeActivated)
        await press(pilot, "right")
        assert "trooper-1 shoots Rifle" in str(screen.query_one("#moment").render())
        assert screen.replay.state.operatives["bob-trooper-1"].incapacitated
        await press(pilot, "end")
        assert screen.replay.seq == screen.replay.head
        assert f"VP {final.players['Alice'].total_vp} " in str(screen.query_one("ScoreBoard").render())


@tui_test
async def test_set_up_step_by_step_on_the_record_screen(store):
    gid = tiny_game(store, to="setup")
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "o", "6", "1", "enter", "1")  # roll-off: Alice wins, keeps initiative
        assert "Alice has initiative" in message(pilot.app)
        await press(pilot, "m", "enter", "m", "enter", "m", "enter")  # three markers, default names
        await press(pilot, "k", "2")  # crit op: Loot
        await press(pilot, "z", "enter", "z", "enter")  # drop zones A then B
        await press(pilot, "q", "1", *"Ladders", "enter", "q", "enter")  # equipment
        await press(pilot, "U")  # every operative set up in the rulebook's order
        assert pilot.app.screen.steps.legal("start_tp")
    state = store.state(gid)
    assert state.crit_op == "Loot" and len(state.markers) == 3 and state.players["Alice"].equipment == ["Ladders"]
    assert all(o.set_up for o in state.operatives.values())


@tui_test
async def test_fight_after_a_charge_with_both_sides_dice(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "c", "1")  # charge bob-trooper-1
        assert "charges bob-trooper-1" in message(pilot.app)
        await press(pilot, "f", *"664", *"111", "enter")  # the only enemy in control range: no pick
        assert "fights bob-trooper-1" in message(pilot.app)
    fought = payloads(store, gid)[-1]
    assert isinstance(fought, ev.Fought) and fought.attack_dice.rolls == (6, 6, 4) and fought.target_dice.rolls == (1, 1, 1)
    assert store.state(gid).operatives["bob-trooper-1"].incapacitated  # 3 + 3 + 2 damage, nothing back


@tui_test
async def test_undo_is_one_key_and_notes_attach_to_events(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "r")
        head = store.game(gid).head_seq
        await press(pilot, "ctrl+z")
        assert "undid seq" in message(pilot.app)
        await press(pilot, "n", *"good move", "enter")
    events = payloads(store, gid)
    assert isinstance(events[head], ev.EventVoided) and events[head].target == head
    note = events[-1]
    assert isinstance(note, ev.Annotation) and note.text == "good move" and note.target == head - 1
    assert not any(isinstance(e, ev.Repositioned) for e in effective_payloads(store, gid))


# --- bad input ---------------------------------------------------------------------------------


@tui_test
async def test_dice_that_are_not_d6_results_and_the_wrong_number_of_dice(store):
    gid = tiny_game(store)
    head = None
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e", "s", "1")
        head = store.game(gid).head_seq
        dialog = pilot.app.screen
        await press(pilot, "9")
        assert "9 is not a D6 result" in str(dialog.query_one("#preview").render())
        await press(pilot, *"642", *"31", "enter")  # two defence dice where three are rolled
        assert "rolls 3 defence dice" in str(dialog.query_one("#preview").render())
        assert pilot.app.screen is dialog  # Enter does nothing until the dice are right
        await press(pilot, "escape")
        assert "nothing recorded" in message(pilot.app)
    assert store.game(gid).head_seq == head


@tui_test
async def test_an_illegal_step_says_which_rule_and_can_be_overridden(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "d")
        assert "Dash is not a step of this moment" in message(pilot.app)
        await press(pilot, "a", "1", "c", "c")  # a Conceal order cannot Charge
        assert "Conceal order and cannot Charge (pg 41)" in message(pilot.app)
        await press(pilot, "e", "t")  # end the turning point with operatives still ready
        assert "still ready" in message(pilot.app) and "press ! to record it anyway" in message(pilot.app)
        await press(pilot, "exclamation_mark", *"Kill team rule", "enter")
        assert "turning point 1 ends" in message(pilot.app)
    assert store.state(gid).warnings[-1].reason == "Kill team rule"


@tui_test
async def test_a_locked_database_keeps_the_event_until_it_can_be_stored(store, tmp_path):
    gid = tiny_game(store)
    store.conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(store.path, isolation_level=None)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e")
        head = store.game(gid).head_seq
        other.execute("BEGIN IMMEDIATE")  # another recorder is writing
        await press(pilot, "r")
        assert "locked by another ktlog" in message(pilot.app) and "ctrl+r" in message(pilot.app)
        assert store.game(gid).head_seq == head
        other.execute("ROLLBACK")
        await press(pilot, "ctrl+r")
        assert "Reposition" in message(pilot.app)
    assert isinstance(payloads(store, gid)[-1], ev.Repositioned)
    other.close()


@tui_test
async def test_another_recorder_on_the_same_game_is_a_clear_conflict(store, monkeypatch):
    """The other laptop's write lands between two looks of the screen's follow (every 0.25 s:
    tests/test_tui_seats.py follows): the Dash under way meets it. The follow is slowed here, or
    on a loaded machine it could see the write first, and the Dash would be stored after it."""
    monkeypatch.setattr("ktlog.tui.screens.record.FOLLOW_S", 3600)
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e")
        with Store(store.path) as elsewhere:
            elsewhere.append(gid, ev.Repositioned(operative="trooper-1"))  # the other laptop
        await press(pilot, "d")
        assert "another writer already stored" in message(pilot.app) and "ctrl+r" in message(pilot.app)
        assert pilot.app.screen.recorder.seq == store.game(gid).head_seq  # reloaded
        await press(pilot, "ctrl+r")  # the Dash, entered again on the reloaded game
        assert "Dash" in message(pilot.app)
    assert [type(e).__name__ for e in payloads(store, gid)[-2:]] == ["Repositioned", "Dashed"]


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
@tui_test
async def test_the_screen_fits_80x24_and_uses_a_larger_one(store, size):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        log = screen.query_one("EventLog")
        assert screen.has_class("-wide") == (size[0] >= 120)
        assert log.region.height >= (20 if size[0] >= 120 else 5)
        assert screen.query_one("ActionBar").region.bottom <= size[1]


@tui_test
async def test_a_dialog_shows_the_record_screen_under_it_and_follows_a_resize(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a")  # the activation dialog, over the record screen
        text = screen_text(pilot.app)
        assert "Activate" in text and "TP1" in text.splitlines()[0]
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        lines = screen_text(pilot.app).splitlines()
        assert len(lines) == 40 and "TP1" in lines[0] and any("Activate" in line for line in lines)
        await press(pilot, "1", "e")  # the dialog answered, it closes
        assert "trooper-1 activates (engage)" in message(pilot.app)


@tui_test
async def test_objective_control_ploys_and_the_more_menu(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "o", "1", "enter")  # the first marker: nobody -> Alice
        assert "objective control" in message(pilot.app)
        await press(pilot, "y", "1", *"Heroic Stand, 1", "enter")
        assert "uses Heroic Stand (1CP)" in message(pilot.app)
        await press(pilot, "full_stop", "1", "1", *"2 mine", "enter")  # damage from a mine to the first operative
        assert "takes 2 damage (mine)" in message(pilot.app)
        await press(pilot, "full_stop", "1", "1", *"lots", "enter")
        assert "does not start with a number" in message(pilot.app)
    events = payloads(store, gid)
    assert isinstance(events[-3], ev.ObjectivesControlled) and list(events[-3].control.values()).count("Alice") == 1
    assert events[-2] == ev.FirefightPloyUsed(player="Alice", ploy="Heroic Stand", cp=1)
    assert events[-1] == ev.DamageInflicted(operative="trooper-1", damage=2, source="mine")


@tui_test
async def test_a_ploy_during_an_enemy_activation_names_the_players_own_operative(store):
    # Issue 16 #3: Bob's Take Cover while Alice's trooper-1 is active was stored on trooper-1.
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "a", "1", "e")  # Alice activates trooper-1
        await press(pilot, "y", "2", *"Take Cover", "enter")  # Bob's ploy: asked which of his operatives
        assert "Bob's operatives" in screen_text(pilot.app)
        await press(pilot, "2")  # bob-trooper-2 ("0" is none)
        assert "Bob uses Take Cover (1CP) on bob-trooper-2" in message(pilot.app)
        await press(pilot, "y", "1", *"Heroic Stand", "enter", "1")  # Alice's: her active operative comes first
        assert "on trooper-1" in message(pilot.app)
    events = payloads(store, gid)
    assert events[-2] == ev.FirefightPloyUsed(player="Bob", ploy="Take Cover", operative="bob-trooper-2")
    assert events[-1].operative == "trooper-1"


def damage_then_activation(store) -> tuple[str, int]:
    """The tiny game with 2 damage to bob-trooper-1 (its seq), then Alice's trooper-1 activated."""
    gid = tiny_game(store)
    damage = store.append(gid, ev.DamageInflicted(operative="bob-trooper-1", damage=2, source="mine")).seq
    store.append(gid, ev.OperativeActivated(operative="trooper-1", order="engage"))
    return gid, damage


@tui_test
async def test_an_earlier_event_is_corrected_as_a_line_when_asked(store):
    """The raw line stays a fallback: l in the correction's form."""
    gid, damage = damage_then_activation(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        pilot.app.screen.query_one("EventLog").show_seq(damage)
        await press(pilot, "full_stop", "c", "l")
        await answer(pilot, "DamageInflicted operative=bob-trooper-1 damage=3 source=mine")
        assert f"correction of seq {damage}: bob-trooper-1 takes 3 damage" in message(pilot.app)
    assert store.state(gid).operatives["bob-trooper-1"].wounds == 3


@tui_test
async def test_an_earlier_event_is_corrected_from_the_more_menu(store):
    gid, damage = damage_then_activation(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        log = pilot.app.screen.query_one("EventLog")
        log.show_seq(damage)  # the damage selected in the log
        await press(pilot, "full_stop", "c")
        assert f"Correct seq {damage}: bob-trooper-1 takes 2 damage (mine)" in screen_text(pilot.app)
        assert "damage: 2" in screen_text(pilot.app) and "from: mine" in screen_text(pilot.app)  # its form, its answers filled in
        await press(pilot, "2")
        await answer(pilot, "3")
        await press(pilot, "r")
        assert f"correction of seq {damage}: bob-trooper-1 takes 3 damage" in message(pilot.app)
        assert "bob-trooper-1: 3/6 wounds" in message(pilot.app)
    assert store.state(gid).operatives["bob-trooper-1"].wounds == 3
    assert store.state(gid).activation.operative == "trooper-1"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_an_operatives_pick_key_stays_the_same_as_others_are_expended(store, size):
    # Issue 16 #10: the Chosen was 6, then 5. Each operative's key is its place in its kill team.
    header, sealed = read_game_log(sample("01"))
    replay = Replay([e for e, _ in sealed])

    def late(seq: int) -> bool:  # a player to activate, with an expended operative before a ready one
        s = replay.seek(seq)
        ops = s.operatives_of(s.next_player) if s.phase == "firefight" and not s.activation and s.next_player else []
        first_ready = next((i for i, o in enumerate(ops) if o.status == "ready"), None)
        return first_ready is not None and any(o.status == "expended" for o in ops[:first_ready]) and len(s.ready_operatives(s.next_player)) > 1

    cut = next(seq for seq in range(replay.timeline.turning_point_start(2), replay.head) if late(seq))
    store.import_envelopes(header.game_id, sealed[:cut])
    state = store.state(header.game_id)
    ops = state.operatives_of(state.next_player)
    place, ready = next((i, o) for i, o in enumerate(ops) if o.status == "ready")
    async with make_app(store, screen="record", game_id=header.game_id).run_test(size=size) as pilot:
        await press(pilot, "a")
        await pilot.pause()
        key = KEYS[place]
        assert f" {key} {ready.id} " in screen_text(pilot.app)  # its place in the team, not in today's list
        await press(pilot, key, "e")
        assert f"{ready.id} activates (engage)" in message(pilot.app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_m_in_turning_point_1_gives_the_reason_that_matters_and_bang_enters_it_anyway(store, size):
    # Issue 16 #4: with crit op Loot, `m` said "Objective marker is not a step of this moment ...;
    # Mission action: Secure is not an action of this game's crit op (Loot)", cut off. Issue 24:
    # the refusal may be overridden, so ! asks the reason (it said "Nothing to record anyway").
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(TINY))
    g.player("Bob", load_roster(TINY))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=2)  # D3 2: Loot
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    gid = store.new_game(g.events[0], g.events[1:])
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "m")
        said = message(pilot.app)
        assert "Loot cannot be performed during the first turning point (pg 84-85)" in said
        assert "Objective marker" not in said and "Secure" not in said
        assert not cut_texts(pilot.app.screen)
        assert "press ! to enter it anyway with the reason" in said
        await press(pilot, "exclamation_mark", "escape")
        assert message(pilot.app) == "Cancelled; nothing recorded"
        await press(pilot, "exclamation_mark")
        assert "Nothing to record anyway" in message(pilot.app)  # once is all it offers


def flamer_game(store: Store) -> str:
    """Alice's gunner-flamer (Torrent) and sergeant against Bob's legionary-1 and legionary-2, TP1."""
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(ROSTERS / "kasrkin.toml"), ["gunner-flamer", "sergeant"])
    g.player("Bob", load_roster(ROSTERS / "legionaries.toml"), ["legionary-1", "legionary-2"])
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return store.new_game(g.events[0], g.events[1:])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_torrent_dice_fill_the_first_target_first_and_defence_dice_are_capped(store, size):
    # Issue 16 #2: after + and a second target, the digits went to the second target's row, its
    # defence took 10 digits, and Enter only beeped. #9: a Hot roll showed the defence dice.
    gid = flamer_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "s", "1")  # the flamer shoots legionary-1 ...
        await press(pilot, "plus", "1")  # ... and legionary-2 (Torrent)
        dialog = pilot.app.screen
        first, second = dialog.query_one("#dice-0"), dialog.query_one("#dice-1")
        assert "for legionary-1 (target 1 of 2" in str(dialog.query_one("#preview").render())
        await press(pilot, "enter")
        assert "Not recorded yet: type the 4 attack dice for legionary-1" in str(dialog.query_one("#preview").render())
        await press(pilot, *"6543", *"3333333")  # 4 attack dice, then more defence dice than can be rolled
        assert first.parts() == ["6543", "333"] and second.parts() == ["3333", ""]  # the rest went on to the second target
        await press(pilot, *["backspace"] * 4, *"1111", *"211")
        assert second.parts() == ["1111", "211"]
        await press(pilot, "enter")
    shot = payloads(store, gid)[-1]
    assert isinstance(shot, ev.Shot) and [a.target for a in shot.attacks] == ["legionary-1", "legionary-2"]
    assert shot.attacks[0].attack_dice.rolls == (6, 5, 4, 3) and shot.attacks[0].defence_dice.rolls == (3, 3, 3)


def test_a_hot_roll_waits_for_the_defence_dice():
    # Issue 16 #9: after the 4 attack dice the next digit showed as "Hot roll: 3", defence empty.
    groups = [Group("attack dice", 4), Group("defence dice", most=3), Group("Hot roll", 1)]
    assert split("65433", groups) == ["6543", "3", ""]
    assert split("6543312", groups) == ["6543", "312", ""]
    assert split("65433125", groups) == ["6543", "312", "5"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_cover_on_a_conceal_target_is_refused_before_the_dice(store, size):
    # Issue 16: the refusal (pg 42) came only after every die was typed.
    gid = flamer_game(store)  # Bob's legionaries are set up with Conceal orders
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "s", "1", "c")
        preview = str(pilot.app.screen.query_one("#preview").render())
        assert "'legionary-1' has a Conceal order and is in cover, so it is not a valid target (pg 42)" in preview
        assert not cut_texts(pilot.app.screen)
        await press(pilot, "c")  # out of cover: the dice are asked for again
        assert "type the 4 attack dice" in str(pilot.app.screen.query_one("#preview").render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_a_refused_fight_can_be_entered_anyway_with_its_reason(store, size):
    # Issue 24: a second Fight (a leader's "two Fight actions during its activation") was refused
    # and ! then answered "Nothing to record anyway": a refusal an override may set aside is
    # always followed by a way to record it, dice and all.
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "c", "1")  # trooper-1 charges bob-trooper-1
        await press(pilot, "f", *"411", *"111", "enter")  # Knife 3 Atk, Hit 4+, Dmg 2/3: 2 damage
        assert "fights bob-trooper-1" in message(pilot.app)
        await press(pilot, "f")
        assert "press ! to enter it anyway with the reason" in message(pilot.app)
        await press(pilot, "!", *"Krumpin Time", "enter")
        # With the reason, every fight the rules accept with an override is offered: pick the target.
        await press(pilot, "1", *"411", *"111", "enter")
        assert "fights bob-trooper-1" in message(pilot.app), message(pilot.app)
    second = payloads(store, gid)[-1]
    assert isinstance(second, ev.Fought) and second.override == "Krumpin Time"
    state = store.state(gid)
    assert state.operatives["bob-trooper-1"].wounds == 6 - 2 - 2
    assert [w.message for w in state.warnings if w.reason == "Krumpin Time"] == [
        "operative 'trooper-1' has APL 2 and has spent 2AP; Fight costs 1AP more",
        "operative 'trooper-1' already performed Fight this activation",
    ]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_an_operative_on_guard_interrupts_with_a_shot_pg70(store, size):
    # Issue 24: the Guard action put nobody on guard, and the interrupting Shoot was refused (pg 39).
    g = GameBuilder(killzone="gallowdark", date="2026-11-21")
    g.player("Alice", load_roster(TINY))
    g.player("Bob", load_roster(TINY))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    g.activate("trooper-1", "engage", killzone_action("Guard"))
    g.add(ev.OperativeActivated(operative="bob-trooper-1", order="engage"), ev.Repositioned(operative="bob-trooper-1"))
    gid = store.new_game(g.events[0], g.events[1:])
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        assert pilot.app.screen.steps.legal("guard")
        await press(pilot, "I")  # the one operative on guard, its only action (Shoot): the targets
        await press(pilot, "1", *"411", *"111", "enter")  # Rifle 3 Atk, Hit 4+, Dmg 2/3: 2 damage
        assert "shoots from guard" in message(pilot.app), message(pilot.app)
    shot = payloads(store, gid)[-1]
    assert isinstance(shot, ev.Shot) and shot.guard and shot.operative == "trooper-1"
    state = store.state(gid)
    assert state.activation.operative == "bob-trooper-1" and not state.operatives["trooper-1"].on_guard


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_a_game_with_a_resolved_dispute_opens_and_records(store, size):
    # Issue 23: a dispute a seat raised and resolved (DisputeResolved names its dispute, not a
    # target) made the record screen's log fail as it opened.
    gid = tiny_game(store)
    store.append(gid, ev.OperativeActivated(operative="trooper-1", order="engage", seat="Alice"))
    seq = store.state(gid).seq
    store.append(gid, ev.EventDisputed(target=seq, reason="it was conceal", seat="Bob"))
    store.append(gid, ev.DisputeResolved(dispute=seq + 1, outcome="withdrawn", seat="Bob"))
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "e")
        assert "trooper-1 ends its activation" in message(pilot.app)
        assert "withdrawn" in screen_text(pilot.app) or "dispute" in screen_text(pilot.app)
