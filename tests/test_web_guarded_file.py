"""The server guards itself (issue 38 #3): if its database or the write-ahead log is deleted or
replaced under it, a seat's write is refused with 503 and a sentence instead of going into a file
nobody else sees, the server opens the file again and its log says so; the pages read the file as
it now is."""

from __future__ import annotations

import json
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
        assert http.get(f"/api/games/{game}/log").status_code == 200  # a viewer: the server's reader holds the file too
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


def test_the_pages_find_the_write_ahead_log_deleted_first_and_the_seats_follow(seated, caplog):
    """The other order: a page read finds the log deleted before any seat writes. The reader opens
    the file again, and the seats' store, idle, lets the deleted index go first (SQLite shares it
    between one process's connections): the page reads, and the next seat write goes into the file."""
    db, game, alice = seated
    with running(db, seats=True) as base, httpx.Client(base_url=base, timeout=30) as http, caplog.at_level(logging.WARNING, "ktlog.serve"):
        assert note(http, game, alice, "note-one").status_code == 201
        for suffix in ("-wal", "-shm"):
            os.unlink(f"{db}{suffix}")
        page = http.get(f"/api/games/{game}/log")
        assert page.status_code == 200 and "note-one" in page.text, page.text
        assert note(http, game, alice, "note-two").status_code == 201
        assert "note-two" in http.get(f"/api/games/{game}/log").text
    with Store(db) as store:
        texts = [e.payload.text for e in store.events(game) if isinstance(e.payload, Annotation)]
    assert texts[-2:] == ["note-one", "note-two"]


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


LOCKER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA locking_mode = EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
c.execute("INSERT INTO meta (key, value) VALUES ('locked', 'yes')")
print("locked", flush=True)
sys.stdin.readline()
"""


def test_pages_asked_at_once_while_another_program_holds_the_lock_are_each_answered_within_a_second(seated):
    """Four pages at once answered after 2, 4, 6 and 8 s: each read waited out the lock behind
    the one before. Now each is a 503 with Retry-After within a second, and the pages read again
    once the lock is let go."""
    import subprocess
    import sys
    import threading
    import time

    db, game, _ = seated
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked"
        with running(db) as base:
            answers: list[tuple[float, httpx.Response]] = []

            def ask(path: str) -> None:
                started = time.perf_counter()
                response = httpx.get(base + path, timeout=30)
                answers.append((time.perf_counter() - started, response))

            asking = [threading.Thread(target=ask, args=(path,)) for path in (f"/games/{game}", f"/api/games/{game}", f"/api/games/{game}/log", "/api/games")]
            for thread in asking:
                thread.start()
            for thread in asking:
                thread.join()
            assert len(answers) == 4
            for waited, response in answers:
                assert response.status_code == 503 and response.headers.get("retry-after") == "1", response.text
                assert "locked by another program" in response.text
                assert waited < 3.0, [round(w, 2) for w, _ in answers]  # 2, 4, 6 and 8 s before; about 1 s on a quiet machine
            locker.stdin.write("\n")
            locker.stdin.flush()
            locker.wait(10)
            time.sleep(1.1)
            assert httpx.get(f"{base}/api/games/{game}", timeout=30).status_code == 200
    finally:
        if locker.poll() is None:
            locker.stdin.write("\n")
            locker.stdin.flush()
            locker.wait(10)


def test_the_organisers_actions_are_guarded_as_the_seats_writes(tmp_path, caplog):
    """The organiser page's own store was not guarded: an action after the write-ahead log was
    deleted under it went into a log nobody else reads (issue 38's fault, on the event day)."""
    from click.testing import CliRunner

    from ktlog.cli import cli

    db = tmp_path / "event.db"
    for args in (("tournament", "new", "Club Night", "--rounds", "3"), ("tournament", "add", "Club Night", "Ann", "Bea", "Cid", "Dee")):
        assert CliRunner().invoke(cli, ["--db", str(db), *args]).exit_code == 0
    link = CliRunner().invoke(cli, ["--db", str(db), "tournament", "organiser", "Club Night", "--json"]).stdout
    token = {"authorization": f"Bearer {json.loads(link)['link'].split('#')[1]}"}
    with running(db, organiser=True) as base, httpx.Client(base_url=base, timeout=30) as http, caplog.at_level(logging.WARNING, "ktlog.serve"):
        act = lambda body: http.post("/api/organiser/Club%20Night", json=body, headers=token)  # noqa: E731
        assert act({"action": "add", "players": ["Eve"]}).status_code == 200
        assert http.get("/tournaments/Club%20Night").status_code == 200  # a viewer: the server's reader holds the file too
        for suffix in ("-wal", "-shm"):
            os.unlink(f"{db}{suffix}")
        refused = act({"action": "pair", "seed": 3})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1" and "nothing was recorded" in refused.json()["error"]
        assert act({"action": "pair", "seed": 3}).status_code == 200
        assert any("the organiser's actions were refused" in r.getMessage() for r in caplog.records)
    with Store(db) as store:
        assert store.conn.execute("SELECT count(*) FROM tournament_tables WHERE tournament = 'Club Night' AND round = 1").fetchone()[0] >= 2, "round 1 stored"
