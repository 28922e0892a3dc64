"""The server guards itself (issue 38 #3): if its database or the write-ahead log is deleted or
replaced under it, a seat's write is refused with 503 and a sentence instead of going into a file
nobody else sees, the server opens the file again and its log says so; the pages read the file as
it now is."""

from __future__ import annotations

import logging
import os
import shutil

import httpx
import pytest
from tui_support import tiny_game
from web_server import running

from ktlog.events import Annotation
from ktlog.play import seats
from ktlog.storage.store import Store


@pytest.fixture
def seated(tmp_path):
    db = tmp_path / "table.db"
    with Store(db) as store:
        game = tiny_game(store)
        token = seats.issue(store, game, "Alice")
    return db, game, {"authorization": f"Bearer {token}"}


def note(http: httpx.Client, game: str, alice: dict, text: str) -> httpx.Response:
    return http.post(f"/api/games/{game}/events", headers=alice, json={"line": f"Annotation target=1 text={text}"})


def test_a_deleted_write_ahead_log_stops_the_writes_and_the_server_opens_the_file_again(seated, caplog):
    db, game, alice = seated
    with running(db, seats=True) as base, httpx.Client(base_url=base, timeout=30) as http, caplog.at_level(logging.WARNING, "ktlog.serve"):
        assert note(http, game, alice, "note-one").status_code == 201
        for suffix in ("-wal", "-shm"):  # as a program that lost its locks cleans up (issue 38)
            os.unlink(f"{db}{suffix}")
        refused = note(http, game, alice, "note-two")
        assert refused.status_code == 503, refused.text
        assert refused.headers["retry-after"] == "1"
        assert "write-ahead log" in refused.json()["error"] and "nothing was recorded" in refused.json()["error"]
        again = note(http, game, alice, "note-three")
        assert again.status_code == 201, again.text
        assert any("write-ahead log" in r.getMessage() for r in caplog.records)
    with Store(db) as store:
        texts = [e.payload.text for e in store.events(game) if isinstance(e.payload, Annotation)]
    assert texts[-1] == "note-three" and "note-two" not in texts


def test_a_replaced_file_is_read_as_it_now_is_and_a_write_goes_into_it(seated, tmp_path, caplog):
    db, game, alice = seated
    other = tmp_path / "other.db"
    with Store(other) as store:
        tiny_game(store)  # the same game, without the note
        token = seats.issue(store, game, "Alice")
    with running(db, seats=True) as base, httpx.Client(base_url=base, timeout=30) as http, caplog.at_level(logging.WARNING, "ktlog.serve"):
        assert note(http, game, alice, "note-one").status_code == 201
        assert http.get(f"/api/games/{game}/log").status_code == 200
        for suffix in ("", "-wal", "-shm"):  # a backup put back: the old file and its log set aside, the other copied in
            os.rename(f"{db}{suffix}", f"{db}.old{suffix}")
        shutil.copy(other, db)
        refused = note(http, game, alice, "note-two")
        assert refused.status_code == 503 and "replaced" in refused.json()["error"]
        alice = {"authorization": f"Bearer {token}"}  # the new file's seat
        assert note(http, game, alice, "note-three").status_code == 201
        log = http.get(f"/api/games/{game}/log").text
        assert "replaced" in " ".join(r.getMessage() for r in caplog.records)
    assert "note-three" in log and "note-one" not in log, "the pages read the new file"
