"""`ktlog serve` under attack (issue 25): the league page beside the live streams, numbers at
every parameter and header, a locked database, a long catch-up, many viewers, the Host
header, HEAD, framing, and a port in use (issue 24 #23)."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from ktlog.events import Annotation
from ktlog.storage.store import Store
from ktlog.web.app import make_app
from ktlog.web.follower import Follower, Viewer
from ktlog.web.source import Source

sys.path.insert(0, str(Path(__file__).parent))
from test_web import _messages  # noqa: E402
from web_server import running  # noqa: E402
from web_support import store_part  # noqa: E402


def _with_tournament(db: Path) -> None:
    """A tournament with round 1 paired, for the tournament routes (written before the server
    opens the file: a connection closed in the server's process would drop its locks)."""
    from ktlog.play import tournament, tournament_entry, tournament_rounds
    from ktlog.play.database import Store

    with Store(db) as store:
        tournament.create(store, "Autumn GT", 3, None)
        tournament_entry.add(store, "Autumn GT", ["Alice", "Bob", "Carol"])
        tournament_rounds.pair(store, "Autumn GT", seed=1)


def _get_routes(db: Path, gid: str) -> list[str]:
    """Every GET route of the app, its game and tournament filled in, the league with each of its filters."""
    urls = []
    for route in make_app(db).routes:
        if isinstance(route, Route) and "GET" in (route.methods or ()):
            urls.append(route.path.replace("{game}", gid).replace("{name:path}", "Autumn%20GT"))
    urls += ["/league?player=Grace", "/league?team=Kasrkin", "/static/ktlog.css", "/static/ktlog.js"]
    return urls


def test_a_stream_still_delivers_notes_from_other_processes_after_every_route_was_visited(tmp_path: Path) -> None:
    """Issue 25 #1: the league page read the file through ADBC's own SQLite, whose closing
    dropped the server's locks: the next writer thought itself alone and deleted the -wal."""
    db = tmp_path / "league.db"
    demo = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "demo"], capture_output=True, timeout=120)
    assert demo.returncode == 0  # in a process of its own: the statistics it prints read through ADBC
    gid, _ = store_part(db, 60)
    _with_tournament(db)
    with running(db) as base, httpx.Client(base_url=base, timeout=10) as http:
        for url in _get_routes(db, gid):
            if url.endswith("/events"):
                with http.stream("GET", url) as stream:
                    assert stream.status_code == 200, url
                continue
            no_board = url.endswith("/board.svg")  # the game records no positions: there is no board to draw
            assert http.get(url).status_code == (400 if no_board else 200), url
        with http.stream("GET", f"/api/games/{gid}/events?after=60") as stream:
            lines = stream.iter_lines()
            for n in range(4):
                note = subprocess.run(
                    [sys.executable, "-m", "ktlog", "--db", str(db), "annotate", gid, "3", f"note {n}"], capture_output=True, text=True, timeout=60
                )
                assert note.returncode == 0, note.stderr
                assert db.with_name("league.db-wal").exists()  # the writer knew the server still had the file open
                (message,) = _messages(lines, until=lambda m: len(m) == 1)
                assert message["id"] == 61 + n and message["data"]["event"]["note"]["text"] == f"note {n}"
        assert http.get(f"/api/games/{gid}/log").json()[2]["notes"] == [f"note {n}" for n in range(4)]


BAD_NUMBERS = ["²", "٣", "1" * 4301, "9" * 30, "-1", " 1", "1.0"]
"""A Unicode digit `int` refuses, one it reads (Arabic-Indic three), more digits than Python
converts, more than SQLite's 64 bits, a sign, a space, a decimal."""


@pytest.mark.parametrize("value", BAD_NUMBERS, ids=["superscript", "arabic-indic", "4301-digits", "30-digits", "sign", "space", "decimal"])
def test_every_number_parameter_and_header_is_a_400_with_a_json_error(web_client, web_game, value: str) -> None:
    """Issue 25 #3."""
    _, gid = web_game
    asked = [(f"/api/games/{gid}{tail}", {name: value}, {}) for tail in ("", "/score", "/log") for name in ("at", "tp")]
    asked += [(f"/api/games/{gid}/events", {"after": value}, {}), (f"/api/games/{gid}/events", {}, {"last-event-id": value.encode()})]
    for url, params, headers in asked:
        r = web_client.get(url, params=params, headers=headers)
        assert r.status_code == 400, (url, params, headers)
        error = r.json()["error"]
        assert "whole number" in error and len(error) < 300, (url, params, headers)


def test_a_moment_past_the_end_is_refused_and_says_where_the_game_ends(web_client, web_game) -> None:
    _, gid = web_game
    r = web_client.get(f"/api/games/{gid}?at=61")
    assert r.status_code == 400 and r.json()["error"] == "at=61 is after the last event of the game (seq 60); leave out at= for the latest state"
    assert web_client.get(f"/api/games/{gid}?at=60").json()["seq"] == 60
    assert web_client.get(f"/api/games/{gid}/log?at=99").status_code == 400


def test_catch_up_after_0_sends_every_event_of_a_long_game_then_its_state(tmp_path: Path) -> None:
    """Issue 25 #9: a catch-up of 1,200 events outgrew the viewer's queue of 1,000 and the
    stream ended at event 1000."""
    db = tmp_path / "long.db"
    gid, events = store_part(db, 60)
    with Store(db) as store:
        store.append_all(gid, [Annotation(target=3, text=f"note {n}") for n in range(1140)])
    with running(db) as base, httpx.Client(base_url=base, timeout=20) as http:
        with http.stream("GET", f"/api/games/{gid}/events?after=0") as stream:
            seen = _messages(stream.iter_lines(), until=lambda m: m[-1]["id"] == 1200)
    assert [m["id"] for m in seen] == list(range(1, 1201))
    assert seen[-1]["data"]["state"]["seq"] == 1200
    assert "notes" not in seen[-1]["data"]["state"]  # 1,140 notes are 1,140 messages, not in every message's state again


def test_viewers_of_one_moment_share_one_encoded_message_and_a_stalled_one_is_bounded(web_game) -> None:
    """Issue 25 #7: each new viewer had its own copy of the state."""
    db, gid = web_game
    follower = Follower(Source(db))
    follower.tick()
    with follower.source.reading() as store:
        viewers = [follower.watch_game(store, gid, None) for _ in range(3)] + [follower.watch_game(store, gid, 50) for _ in range(2)]
    first = [v.backlog[0] for v in viewers]
    assert first[0] is first[1] is first[2] and first[3] is first[4]  # the same bytes object, not equal copies
    stalled = Viewer(max_bytes=1000)
    assert stalled.push(b"x" * 600) and not stalled.push(b"x" * 600)
    assert stalled.dropped and stalled.held == 0 and stalled.queue.get_nowait() is None  # what it held is let go; its stream ends
    follower.source.close()


def test_one_address_may_hold_only_so_many_streams(web_game) -> None:
    db, gid = web_game
    with running(db, streams_per_client=3) as base, httpx.Client(base_url=base, timeout=10) as http:
        streams = [http.stream("GET", f"/api/games/{gid}/events") for _ in range(3)]
        opened = [s.__enter__() for s in streams]
        assert [s.status_code for s in opened] == [200, 200, 200]
        r = http.get("/api/tables/events")
        assert r.status_code == 429 and "3 event streams are open from 127.0.0.1" in r.json()["error"]
        streams[0].__exit__(None, None, None)
        time.sleep(0.3)
        with http.stream("GET", "/api/tables/events") as again:
            assert again.status_code == 200
        for s in streams[1:]:
            s.__exit__(None, None, None)


LOCKER = """
import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA locking_mode = EXCLUSIVE")
c.execute("BEGIN EXCLUSIVE")
c.execute("INSERT INTO meta (key, value) VALUES ('locked', 'yes')")
print("locked", flush=True)
sys.stdin.readline()
"""


def test_the_stylesheet_answers_at_once_while_another_program_holds_the_database_locked(web_game) -> None:
    """Issue 25 #8: the follower's busy wait ran on the event loop and held every request."""
    db, gid = web_game
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked"
        with running(db) as base, httpx.Client(base_url=base, timeout=20) as http:
            waits = []
            for _ in range(8):
                started = time.perf_counter()
                assert http.get("/static/ktlog.css").status_code == 200
                waits.append(time.perf_counter() - started)
                time.sleep(0.1)
            assert max(waits) < 1.0, waits  # 2 to 6 s before, each request waiting out the follower's busy wait
            page = http.get(f"/games/{gid}")
            assert page.status_code == 503 and "is locked by another program" in page.text
    finally:
        locker.stdin.write("\n")
        locker.stdin.flush()
        locker.wait(10)


def test_only_the_names_the_server_was_started_for_are_answered(web_game) -> None:
    """DNS rebinding: a page of another site, its name pointed at 127.0.0.1, is refused."""
    db, _ = web_game
    with TestClient(make_app(db), base_url="http://localhost:8787") as c:
        for host in ("localhost:8787", "127.0.0.1:8787", "[::1]:8787", "127.0.0.1"):
            assert c.get("/api/games", headers={"host": host}).status_code == 200, host
        r = c.get("/api/games", headers={"host": "attacker.example:8787"})
        assert r.status_code == 400 and "attacker.example" in r.json()["error"] and "--allow-host" in r.json()["error"]
        assert c.get("/", headers={"host": "attacker.example"}).status_code == 400
    with TestClient(make_app(db, hosts=("0.0.0.0",), allow=("club.lan",)), base_url="http://club.lan") as c:
        assert c.get("/api/games").status_code == 200
        assert c.get("/api/games", headers={"host": "192.168.1.20:8787"}).status_code == 200  # an address, never rebound
        assert c.get("/api/games", headers={"host": "attacker.example"}).status_code == 400


def test_head_is_refused_and_pages_cannot_be_framed(web_client, web_game) -> None:
    _, gid = web_game
    for url in ("/", f"/api/games/{gid}", "/static/ktlog.css", f"/api/games/{gid}/events"):
        r = web_client.head(url)
        assert r.status_code == 405 and r.headers["allow"] == "GET", url
    assert "frame-ancestors 'none'" in web_client.get("/").headers["content-security-policy"]


def test_a_port_in_use_is_one_line_before_anything_is_served(web_game) -> None:
    """Issue 24 #23."""
    db, _ = web_game
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        r = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "serve", "--port", str(port)], capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [f"error: port {port} is in use; give another with --port"]


def test_ctrl_c_stops_the_server_with_a_line_and_status_130(web_game) -> None:
    db, _ = web_game
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    server = subprocess.Popen(
        [sys.executable, "-m", "ktlog", "--db", str(db), "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert "ktlog serve: reading" in server.stdout.readline()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/static/ktlog.css", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.1)
    server.send_signal(signal.SIGINT)
    out, err = server.communicate(timeout=20)
    assert server.returncode == 130 and "Aborted" not in err and "Traceback" not in err
    assert out.strip() == "ktlog serve: stopped"


def test_the_json_api_is_ascii_as_the_docs_say(tmp_path: Path) -> None:
    db = tmp_path / "names.db"
    gid, _ = store_part(db, 60, names={"Hana": "Zoë ☠ 北"})
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as c:
        for url in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/score", f"/api/games/{gid}/log", "/api/games/%C5%BE"):
            body = c.get(url).content
            assert body.isascii(), url
        assert json.loads(c.get(f"/api/games/{gid}").content)["players"][0]["name"] == "Zoë ☠ 北"


def test_a_route_is_a_function_that_answers_alone_given_a_store_and_a_request(web_game) -> None:
    """Issue 22: the handlers are module functions over `app.state`, not closures of make_app."""
    from starlette.requests import Request

    from ktlog.web import handlers

    db, gid = web_game
    app = make_app(db)
    scope = {"type": "http", "method": "GET", "path": "/", "headers": [], "app": app, "path_params": {"game": gid[:6]}}
    with Store(db) as store:
        score = json.loads(handlers.api_score(store, Request(scope | {"query_string": b"at=60"})).body)
        replay = handlers.replay(store, Request(scope | {"query_string": b""}))
    assert score["game"] == gid and score["turning_point"] == 1
    assert replay.status_code == 200 and list(app.state.replays.values) == [(gid, 60)]  # the cursor kept on app.state
