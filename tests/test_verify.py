"""`ktlog verify` finds a game edited behind ktlog's back and names the first bad seq."""

from __future__ import annotations

import pytest
from conftest import game

from ktlog.play.builder import shoot
from ktlog.play.verify import verify, verify_game


@pytest.fixture
def stored(store):
    g = game(3, 3)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"))
    return store.new_game(g.events[0], g.events[1:])


def tamper(store, sql, *args):
    store.conn.execute("DROP TRIGGER events_no_update")
    store.conn.execute("DROP TRIGGER events_no_delete")
    store.conn.execute(sql, args)


def test_an_untouched_game_verifies(store, stored):
    assert [v.ok for v in verify(store)] == [True]


def test_an_edited_payload_is_found(store, stored):
    tamper(
        store,
        "UPDATE events SET payload = replace(payload, '\"Alice''s team\"', '\"Mallory\"') WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 2",
        stored,
    )
    v = verify_game(store, stored)
    assert (v.ok, v.bad_seq) == (False, 2) and "changed after it was recorded" in v.problem


def test_a_deleted_event_is_found(store, stored):
    tamper(store, "DELETE FROM events WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 5", stored)
    v = verify_game(store, stored)
    assert (v.ok, v.bad_seq) == (False, 5)


def test_reordered_events_are_found(store, stored):
    tamper(store, "UPDATE events SET seq = -6 WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 6", stored)
    store.conn.execute("UPDATE events SET seq = 6 WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 7", (stored,))
    store.conn.execute("UPDATE events SET seq = 7 WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = -6", (stored,))
    v = verify_game(store, stored)
    assert not v.ok and v.bad_seq == 6
