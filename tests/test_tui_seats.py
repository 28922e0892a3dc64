"""The table's side of two seats (issue 23): the seats screen's links and QR codes, and disputes
raised, shown and closed from the record screen, at 80x24 and 120x40."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Button, Static
from tui_support import answer, message, press, screen_strips, tiny_game, tui_test, until

from ktlog import events as ev
from ktlog.play import seats
from ktlog.tui.app import make_app
from ktlog.tui.screens.seats import SeatsScreen

SIZES = [(80, 24), (120, 40)]


def shown(pilot) -> str:
    return "\n".join(strip.text for strip in screen_strips(pilot.app.screen))


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_seats_screen_gives_each_player_a_working_link_and_ends_it(store, size):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "full_stop", "l")
        await until(pilot, lambda: isinstance(pilot.app.screen, SeatsScreen), "the seats screen")
        pilot.app.screen.query_one("#base").value = "http://192.168.1.20:8787"
        await pilot.pause()
        await pilot.click("#issue-1")  # Bob
        await pilot.pause()
        text = str(pilot.app.screen.query_one("#link", Static).render())
        url = re.search(r"http://\S+", text.replace("\n", "")).group(0)
        assert url.startswith(f"http://192.168.1.20:8787/seat/{gid}#") and "Bob" in text
        token = url.split("#", 1)[1]
        assert seats.seat_of(store, token, gid).player == "Bob"  # the link opens Bob's seat
        qr = str(pilot.app.screen.query_one("#qr", Static).render())
        assert len(qr.splitlines()) >= 21 and "▀" in qr and "▄" in qr  # a QR code of at least version 1
        assert "▄▄▄▄▄" in shown(pilot)  # scrolled into view: a finder pattern's edge is on the screen
        await press(pilot, "tab", "enter")  # from Bob's "New link" to his "End link" (scrolled back into view)
        assert "ended" in str(pilot.app.screen.query_one("#link", Static).render())
        with pytest.raises(seats.NoSeat):
            seats.seat_of(store, token, gid)
        pilot.app.screen.query_one("#base").value = "192.168.1.20"  # no scheme: refused, nothing issued
        pilot.app.screen.query_one("#issue-0").focus()
        await press(pilot, "enter")
        assert "starts with http://" in str(pilot.app.screen.query_one("#link", Static).render())
        assert store.conn.execute("SELECT count(*) FROM seats WHERE player = 'Alice'").fetchone()[0] == 0
        await press(pilot, "escape")
        assert not isinstance(pilot.app.screen, SeatsScreen)


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_dispute_raised_at_the_table_shows_until_it_is_withdrawn(store, size):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        await press(pilot, "a", "1", "e", "r")  # Alice's trooper repositions
        target = store.game(gid).head_seq
        await press(pilot, "full_stop", "d")
        await answer(pilot, "it was 7 inches, not 6")
        events = [e.payload for e in store.events(gid)]
        assert isinstance(events[-1], ev.EventDisputed) and events[-1].target == target
        assert "provisional, 1 open dispute" in shown(pilot) and "it was 7" in shown(pilot)
        await press(pilot, "full_stop", "r")  # one dispute: asked only how it ends
        await press(pilot, "w")
        assert isinstance(store.events(gid)[-1].payload, ev.DisputeResolved)
        assert "provisional" not in shown(pilot)
        assert "dispute" in message(pilot.app)


@tui_test
async def test_the_more_menu_offers_resolving_only_while_a_dispute_is_open(store):
    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=(80, 24)) as pilot:
        await press(pilot, "full_stop")
        assert "Resolve a dispute" not in shown(pilot) and "Dispute the event" in shown(pilot)
        await press(pilot, "escape")
        assert not any(isinstance(b, Button) for b in pilot.app.screen.query(Button))


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_the_record_screen_follows_the_seats_live_and_names_the_seat_of_each_event(store, size, tmp_path):
    """Issue 39 #7: the table's terminal showed a seat's events only when a write of its own met
    the conflict; now it follows them as the web pages do, and its log names the seat."""
    from ktlog.play.session import RecordingSession
    from ktlog.storage.store import Store

    gid = tiny_game(store)
    async with make_app(store, screen="record", game_id=gid).run_test(size=size) as pilot:
        with Store(store.path) as phone:  # the server's own connection, as `ktlog serve --seats` writes
            seats.record(RecordingSession(phone, gid), seats.Seat(gid, "Alice"), [ev.OperativeActivated(operative="trooper-1", order="engage")])
        await until(pilot, lambda: "trooper-1 activates (engage) · Alice" in shown(pilot), "the seat's event in the log, with its seat")
        assert "(Alice's seat)" in message(pilot.app)
        await press(pilot, "r")  # the table records on top of it: no conflict, the state is the seat's
        assert "trooper-1: Reposition" in message(pilot.app) and store.state(gid).seq == store.game(gid).head_seq
        assert [e.payload.seat for e in store.events(gid)[-2:]] == ["Alice", None]
