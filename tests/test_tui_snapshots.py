"""SVG snapshots of the record and replay screens on a sample game (pytest-textual-snapshot).

Fixed terminal sizes and stored sample events (no clock on these screens), so the pictures only
change when the screens do: review the report, then `pytest --snapshot-update` to accept.
"""

from __future__ import annotations

import pytest
from tui_support import sample, sample_cut

from ktlog.files.gamelog import read_game_log
from ktlog.tui.app import make_app


@pytest.fixture
def mid_game(store):
    """Sample game 01 cut in turning point 2, an operative active after its first action."""
    return sample_cut(store, "01", 2)


@pytest.fixture
def whole_game(store):
    header, sealed = read_game_log(sample("01"))
    store.import_envelopes(header.game_id, sealed)
    return header.game_id


@pytest.mark.parametrize("size", [(80, 24), (130, 36)])
def test_record_screen(snap_compare, store, mid_game, size):
    assert snap_compare(make_app(store, screen="record", game_id=mid_game), terminal_size=size)


def test_record_screen_shoot_dialog(snap_compare, store, mid_game):
    """The dice typed and the result worked out before Enter records it."""
    app = make_app(store, screen="record", game_id=mid_game)
    screen_steps = None

    async def shoot(pilot) -> None:
        nonlocal screen_steps
        screen_steps = pilot.app.screen.steps
        if screen_steps.legal("shoot"):
            await pilot.press("s", "1", *"6543", *"42")
            await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=shoot)


@pytest.mark.parametrize("size", [(80, 24), (130, 36)])
def test_replay_screen_at_turning_point_2(snap_compare, store, whole_game, size):
    assert snap_compare(make_app(store, screen="replay", game_id=whole_game), terminal_size=size, press=["t", "2", "right_square_bracket", "right"])


def imported(store, name: str) -> str:
    header, sealed = read_game_log(sample(name))
    store.import_envelopes(header.game_id, sealed)
    return header.game_id


def test_replay_of_four_players(snap_compare, store):
    """Multiplayer Ops (sample 11): four tables in two columns, the player order in the header."""
    app = make_app(store, screen="replay", game_id=imported(store, "11"))
    assert snap_compare(app, terminal_size=(120, 40), press=["t", "2", "right_square_bracket", "right"])


def test_spectator_replay_of_approved_ops(snap_compare, store):
    """Approved Ops (sample 08) in TP3, seen by a spectator: Hana's tac op is revealed, Ivo's and
    both primary ops are hidden, in the score, the moment line and the event log."""
    app = make_app(store, screen="replay", game_id=imported(store, "08"), spectator=True)
    assert snap_compare(app, terminal_size=(80, 24), press=["g", "ctrl+u", "1", "8", "6", "enter"])
