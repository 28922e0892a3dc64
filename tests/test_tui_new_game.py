"""The new game and set-up screens: players, kill teams from roster files, the set-up on one form."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input, Label, Select
from tui_support import BROKEN, TINY, paste_into, press, screen_strips, tui_test, type_into, until

from ktlog import events as ev
from ktlog.tui.app import make_app


def label(pilot, selector: str) -> str:
    return str(pilot.app.screen.query_one(selector, Label).render())


@tui_test
async def test_a_new_game_from_roster_files_then_the_quick_set_up(store):
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await paste_into(pilot, "#file-1", str(TINY))
        await press(pilot, "enter")
        await type_into(pilot, "#name-2", "Bea")
        await paste_into(pilot, "#file-2", str(TINY))
        await press(pilot, "enter", "ctrl+s")
        assert type(pilot.app.screen).__name__ == "SetUpScreen"
        await press(pilot, "6", "2", "ctrl+s")  # the roll-off dice; every other field has its default
        assert type(pilot.app.screen).__name__ == "RecordScreen"
        assert pilot.app.screen.steps.legal("start_tp")
    (game,) = store.games()
    assert game.players == ["Alice", "Bea"] and game.kill_teams == ["Tiny Team", "Tiny Team"]
    state = store.state(game.id)
    assert sorted(state.operatives) == ["bea-trooper-1", "bea-trooper-2", "trooper-1", "trooper-2"]  # a mirror match
    assert state.setup_initiative == "Alice" and state.crit_op == "Secure" and len(state.markers) == 3
    assert all(o.set_up for o in state.operatives.values())


@tui_test
async def test_a_roster_is_taken_by_its_name_from_the_user_roster_folder(store, tmp_path, monkeypatch):
    """Issue 13: a roster imported into the user's folder is named, not its path typed."""
    folder = tmp_path / "rosters"
    folder.mkdir()
    (folder / "my-tiny-team.toml").write_bytes(TINY.read_bytes())
    monkeypatch.setenv("KTLOG_ROSTERS", str(folder))
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await paste_into(pilot, "#file-1", "My Tiny Team")
        await press(pilot, "enter")
        await type_into(pilot, "#name-2", "Bea")
        await paste_into(pilot, "#file-2", "kasrkin")  # a sample, by name
        await press(pilot, "enter", "ctrl+s")
        assert type(pilot.app.screen).__name__ == "SetUpScreen"
    (game,) = store.games()
    assert game.kill_teams == ["Tiny Team", "Kasrkin"]


@tui_test
async def test_roll_off_dice_typed_faster_than_the_focus_moves_both_count(store):
    """Both digits reach the first die's field before the screen moves the focus on (as in tmux
    at a quick typist's pace); the second goes to the second die, not nowhere."""
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await paste_into(pilot, "#file-1", str(TINY))
        await press(pilot, "enter")
        await paste_into(pilot, "#file-2", str(TINY))
        await press(pilot, "enter", "ctrl+s")
        first = pilot.app.screen.query_one("#roll-0", Input)
        for digit in "62":  # straight to the field, with no message handled in between
            await first._on_key(events.Key(digit, digit))
        await pilot.pause()
        assert [pilot.app.screen.query_one(f"#roll-{i}", Input).value for i in (0, 1)] == ["6", "2"]
        assert pilot.app.screen.query_one("#initiative", Select).value == "Alice"
        await press(pilot, "ctrl+s")
        assert type(pilot.app.screen).__name__ == "RecordScreen"


@tui_test
async def test_a_roster_file_with_an_error_is_shown_inline_and_nothing_is_created(store):
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await paste_into(pilot, "#file-1", str(BROKEN))
        await press(pilot, "enter")
        assert "save '9+' is not like 3+" in label(pilot, "#error-1") and "Fix the file" in label(pilot, "#error-1")
        await press(pilot, "ctrl+s")
        assert "Not created" in label(pilot, "#problem")
        assert store.games() == []
        await paste_into(pilot, "#file-1", str(TINY))  # fixed: the right file
        await press(pilot, "enter", "ctrl+s")
        assert type(pilot.app.screen).__name__ == "SetUpScreen"
    assert len(store.games()) == 1


@tui_test
async def test_a_bad_date_is_refused_with_the_field_named(store):
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await type_into(pilot, "#date", "2026-13-01")
        await press(pilot, "ctrl+s")
        assert "date '2026-13-01' is not a date" in label(pilot, "#problem")
    assert store.games() == []


@tui_test
async def test_a_tied_set_up_roll_off_is_recorded_then_rolled_again(store):
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        await press(pilot, "ctrl+s")  # the sample kill teams, as offered
        await press(pilot, "3", "3", "ctrl+s")
        assert "A tie (3 each) is recorded" in label(pilot, "#problem")
        await press(pilot, "2", "5", "ctrl+s")  # Bob wins: the initiative default follows
        assert type(pilot.app.screen).__name__ == "RecordScreen"
    (game,) = store.games()
    rolls = [e.payload for e in store.events(game.id) if isinstance(e.payload, ev.RolledOff)]
    assert [r.rolls for r in rolls] == [{"Alice": 3, "Bob": 3}, {"Alice": 2, "Bob": 5}]
    assert store.state(game.id).setup_initiative == "Bob"


async def choose(pilot, selector: str, value) -> None:
    pilot.app.screen.query_one(selector, Select).value = value
    await pilot.pause()


@tui_test
async def test_multiplayer_ops_takes_three_or_four_players(store):
    async with make_app(store, screen="new").run_test(size=(100, 30)) as pilot:
        await choose(pilot, "#ruleset", "kt24-multiplayer")
        await choose(pilot, "#player-count", 4)
        await press(pilot, "ctrl+s")
        assert type(pilot.app.screen).__name__ == "RecordScreen"  # the set-up step by step: roll-offs for player order
        assert pilot.app.screen.steps.legal("roll_off")
    (game,) = store.games()
    assert game.ruleset == "kt24-multiplayer" and game.players == ["Alice", "Bob", "Carol", "Dave"]


@tui_test
async def test_joint_ops_takes_the_players_side_and_the_npos_within_the_mission_budget(store):
    """Each step waits on what it changes (the NPO form mounted, the tally, the refusal, the
    record screen), never on a pause: under load one pause had not let the ruleset's forms mount
    (issue 24 #24)."""

    def wounds() -> str:
        return label(pilot, "#npo-wounds") if pilot.app.screen.query("#npo-wounds") else ""

    def problem() -> str:
        return label(pilot, "#problem")

    async with make_app(store, screen="new").run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: pilot.app.screen.query("#ruleset"), "the new-game form")
        pilot.app.screen.query_one("#ruleset", Select).value = "kt24-joint"
        await until(pilot, lambda: "combined Wounds 45 of 01 Breach's 90" in wounds(), "the NPO form with its default selection")
        await paste_into(pilot, "#ops-npo", "heavy-brawler, " * 7)
        await until(pilot, lambda: "combined Wounds 98 of" in wounds(), "the tally of seven Heavy Brawlers (14 Wounds each)")
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: "Not created" in problem(), "the refusal")
        assert "over 01 Breach's 90" in problem() and store.games() == []
        await paste_into(pilot, "#ops-npo", "heavy-brawler, trooper-marksman, trooper-marksman")
        await paste_into(pilot, "#mission", "escape")
        await until(pilot, lambda: "combined Wounds 28 of 03 Escape's 77" in wounds(), "the tally against Escape's budget")
        await press(pilot, "ctrl+s")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "RecordScreen", "the record screen")
    (game,) = store.games()
    state = store.state(game.id)
    assert state.labels["mission"] == "escape" and [p.npo for p in state.players.values()] == [False, True]
    assert [o.id for o in state.operatives_of("NPOs")] == ["heavy-brawler", "trooper-marksman-1", "trooper-marksman-2"]


@tui_test
async def test_kt21_offers_kt21_datacards_and_a_dataslate(store):
    async with make_app(store, screen="new").run_test(size=(100, 30)) as pilot:
        await choose(pilot, "#ruleset", "kt21")
        await paste_into(pilot, "#dataslate", "Balance Dataslate Q1 2023")
        await press(pilot, "ctrl+s")
        assert type(pilot.app.screen).__name__ == "RecordScreen"
    (game,) = store.games()
    assert game.ruleset == "kt21" and store.state(game.id).labels["dataslate"] == "Balance Dataslate Q1 2023"
    assert all(o.datacard.defence for o in store.state(game.id).operatives.values())
    assert set(game.kill_teams) <= {"Chaos Cultists", "Kommandos", "Veteran Guardsmen"}


@tui_test
async def test_the_form_offers_a_roster_by_the_edition_it_declares_not_its_file_name(store, tmp_path, monkeypatch):
    """A KT21 roster under any name is offered for KT21 only (`datacards = "kt21"`), a KT24 one
    named like a KT21 sample is not (the form once read the edition from a kt21_ prefix)."""
    from ktlog.data import SAMPLE_ROSTERS
    from ktlog.tui.screens import new_game, player_form

    (tmp_path / "orks.toml").write_text((SAMPLE_ROSTERS / "kt21_kommandos.toml").read_text())
    (tmp_path / "kt21_kasrkin.toml").write_text((SAMPLE_ROSTERS / "kasrkin.toml").read_text())
    (tmp_path / "legionaries.toml").write_text((SAMPLE_ROSTERS / "legionaries.toml").read_text())
    monkeypatch.setattr(new_game, "sample_rosters", lambda: player_form.sample_rosters(tmp_path))
    async with make_app(store, screen="new").run_test(size=(100, 30)) as pilot:
        screen = pilot.app.screen
        assert [r.name for r in screen.offered("kt21").values()] == ["Kommandos"]
        assert [r.name for r in screen.offered("kt24-preliminary").values()] == ["Kasrkin", "Legionaries"]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_a_refused_new_game_shows_why_on_screen_at_every_size(store, size):
    # Issue 16 #5: at 80x24 the message sat below the visible form; ctrl+s seemed to do nothing.
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await type_into(pilot, "#name-2", "Player 1")
        await type_into(pilot, "#name-1", "Player 1")
        await press(pilot, "ctrl+s")
        await pilot.pause()
        shown = "\n".join(strip.text for strip in screen_strips(pilot.app.screen))
        assert "Not created" in shown
    assert store.games() == []


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_the_first_screen_names_every_player_though_their_forms_are_below(store, size):
    """Issue 42 #5: Player 2's form starts below the fold, and nothing on the first screen said so."""
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await pilot.pause()
        shown = "\n".join(strip.text for strip in screen_strips(pilot.app.screen))
        assert "Player 1 Alice (Hearthkyn Salvagers) · Player 2 Bob (Kasrkin): one form under another" in " ".join(shown.split())
        await type_into(pilot, "#name-2", "Bea")
        await choose(pilot, "#ruleset", "kt24-multiplayer")
        await choose(pilot, "#player-count", 3)
        shown = " ".join(strip.text for strip in screen_strips(pilot.app.screen))
        assert "Player 2 Bea (Kasrkin) · Player 3 Carol" in " ".join(shown.split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_a_killzone_the_ruleset_does_not_have_is_refused_with_the_choices(store, size):
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        await type_into(pilot, "#killzone", "nowhere")
        await press(pilot, "ctrl+s")
        refusal = "unknown killzone 'nowhere': KT24 Preliminary Ops is played on volkus, gallowdark or bheta-decima"

        def shown() -> str:
            return " ".join(" ".join(strip.text for strip in screen_strips(pilot.app.screen)).split())

        await until(pilot, lambda: refusal in shown(), "the refusal shown")  # drawn once the form has checked (later on a loaded machine)
    assert store.games() == []


@tui_test
async def test_the_form_recovers_from_an_unreadable_roster_path(store):
    # Issue 16 #6: a bad path emptied the operative list, clearing it kept the error and the empty
    # list, and after a roster loaded by path the kill-team selector still showed the previous team.
    async with make_app(store, screen="new").run_test(size=(80, 24)) as pilot:
        ops = pilot.app.screen.query_one("#ops-1")
        before = ops.option_count
        await paste_into(pilot, "#file-1", "/no/such/roster.toml")
        await press(pilot, "enter")
        assert "Fix the file" in label(pilot, "#error-1") and ops.option_count == before  # the list stays
        await paste_into(pilot, "#file-1", "")
        assert not pilot.app.screen.query_one("#error-1").display and ops.option_count == before
        await paste_into(pilot, "#file-1", str(TINY))
        await press(pilot, "enter")
        team = pilot.app.screen.query_one("#team-1", Select)
        await pilot.pause()
        shown = "\n".join(strip.text for strip in screen_strips(pilot.app.screen))
        assert team.value == str(TINY) and "Tiny Team (file)" in shown


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_backspace_typed_fast_among_characters_keeps_its_place(store, size):
    # Issue 24 #19: a field's editing keys (Backspace, arrows) ran after the characters typed
    # behind them (Textual issue #6605): "abx<Backspace>yz" typed fast gave "abxy".
    keys = [*"Kill", "backspace", "backspace", *"ll", "left", "left", *"ab", "right", "home", *"Z"]
    async with make_app(store, screen="new").run_test(size=size) as pilot:
        for field in ("#killzone", "#name-1"):  # the killzone field suggests names as you type
            pilot.app.screen.query_one(field, Input).value = ""
            pilot.app.screen.set_focus(pilot.app.screen.query_one(field))
            await pilot.pause()
            for key in keys:  # as a terminal delivers them: all queued before any is handled
                character = key if len(key) == 1 else None
                pilot.app.post_message(events.Key(key, character))
            await pilot.pause()
            await pilot.pause()
            assert pilot.app.screen.query_one(field, Input).value == "ZKiabll"
