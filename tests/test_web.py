"""`ktlog serve`: every route over HTTP, the event stream fed from another process, hostile
names shown as text, unknown ids, a read-only server, and a database that goes wrong."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from ktlog.cli import cli
from ktlog.events import Annotation
from ktlog.storage.store import Store
from ktlog.web.app import make_app
from ktlog.web.follower import Follower, Viewer
from ktlog.web.source import Source

sys.path.insert(0, str(Path(__file__).parent))
from web_server import running  # noqa: E402
from web_support import HOSTILE, store_part  # noqa: E402

HANA, IVO = HOSTILE["Hana"], HOSTILE["Ivo"]
PAGES = ["/", "/games/{g}", "/games/{g}/overlay", "/games/{g}/replay", "/league"]
APIS = ["/api/games", "/api/games/{g}", "/api/games/{g}/score", "/api/games/{g}/log"]


def test_every_page_answers_and_shows_hostile_names_only_as_text(web_client, web_game) -> None:
    _, gid = web_game
    for url in PAGES:
        r = web_client.get(url.format(g=gid[:6]))
        assert r.status_code == 200, url
        assert "<script>window" not in r.text and "</td>" not in r.text.replace("</td><", ""), url
        assert "\x07" not in r.text and "\x1b" not in r.text, url
        assert r.headers["content-security-policy"].startswith("default-src 'none'; script-src 'self'")
        assert "<script>" not in r.text.replace('<script type="application/json"', "").replace("<script src='/static/ktlog.js' defer>", "")
    page = web_client.get(f"/games/{gid}").text
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt; (Kasrkin)" in page  # the heading, escaped
    state = json.loads(page.split('id="ktlog-state">')[1].split("</script>")[0])
    assert [p["name"] for p in state["players"]] == [HANA, IVO]  # the data block decodes to the very names


def test_the_json_api_gives_the_cli_objects_with_secrets_hidden(web_client, web_game) -> None:
    _, gid = web_game
    games = web_client.get("/api/games").json()
    assert [(g["id"], g["players"], g["events"]) for g in games] == [(gid, [HANA, IVO], 60)]
    state = web_client.get(f"/api/games/{gid[:8]}").json()
    assert games[0]["turning_point"] == state["turning_point"] == 1  # the tables' figures, from the projections, are the state's
    assert games[0]["vp"] == {p["name"]: p["vp"]["total"] for p in state["players"]} and games[0]["cp"] == {p["name"]: p["cp"] for p in state["players"]}
    assert state["seq"] == 60 and state["players"][0]["name"] == HANA
    assert state["players"][0]["secrets"]["tac_op"] == {"choice": "hidden", "revealed": False}
    assert "Flank" not in json.dumps(state) and "Overrun" not in json.dumps(state)
    assert web_client.get(f"/api/games/{gid}?at=29").json()["players"][0]["secrets"]["tac_op"]["choice"] is None
    score = web_client.get(f"/api/games/{gid}/score").json()
    assert set(score) == {"game", "ruleset", "status", "turning_point", "players", "result"} | ({"progress"} & set(score))
    log = web_client.get(f"/api/games/{gid}/log").json()
    assert log[29]["seq"] == 30 and "Flank" not in log[29]["text"]
    assert web_client.get(f"/api/games/{gid}?at=x").status_code == 400
    assert web_client.get(f"/api/games/{gid}?at=3&tp=1").json() == {"error": "give at=SEQ or tp=N, not both", "status": 400, "kind": "bad_request"}


def test_an_unknown_or_ambiguous_id_is_a_404_page_that_says_so(web_client, web_game) -> None:
    db, gid = web_game
    r = web_client.get("/games/ffffffff")
    assert r.status_code == 404 and "no game id starts with &#x27;ffffffff&#x27;" in r.text
    with Store(db) as store:
        created = store.events(gid)[0].payload
        store.new_game(created, game_id="abc1" + gid[4:])
        store.new_game(created, game_id="abc2" + gid[4:])
    r = web_client.get("/games/abc/overlay")
    assert r.status_code == 404 and "2 games start with &#x27;abc&#x27;" in r.text and "type more of the id" in r.text
    assert web_client.get("/api/games/abc").json()["error"].startswith("2 games start with 'abc'")
    assert web_client.get("/no/such/page").status_code == 404
    assert web_client.get("/static/../app.py").status_code == 404


def test_no_route_writes(web_client, web_game) -> None:
    db, gid = web_game
    before = _tables(db)
    for url in PAGES + APIS + ["/api/games/{g}/events"]:
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            r = web_client.request(method, url.format(g=gid))
            assert r.status_code == 405 and "read-only" in r.text, (method, url)
    assert _tables(db) == before


def _tables(db: Path) -> tuple:
    with Store(db) as store:
        return tuple(store.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("games", "events", "vp_changes", "snapshots"))


def test_events_appended_by_another_process_stream_in_order_and_resume_after_a_reconnect(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    gid, _ = store_part(db, 180)
    writer = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "web_support.py"), "append", str(db), gid, "180", "20", "0.02"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout.readline().strip() == "ready"
    seen: list[dict] = []
    with running(db) as base, httpx.Client(base_url=base, timeout=10) as http:
        with http.stream("GET", f"/api/games/{gid}/events?after=180") as stream:
            writer.stdin.write("go\n")
            writer.stdin.flush()
            seen += _messages(stream.iter_lines(), until=lambda m: len(m) == 8)
        last = seen[-1]["id"]
        with http.stream("GET", f"/api/games/{gid}/events", headers={"Last-Event-ID": str(last)}) as stream:
            seen += _messages(stream.iter_lines(), until=lambda m: m and m[-1]["id"] == 200)
    writer.wait(10)
    assert [m["id"] for m in seen] == list(range(181, 201))  # every event once, in order, across the reconnect
    assert seen[-1]["data"]["state"]["seq"] == 200
    rewritten = [m["data"]["rewrite"] for m in seen if "rewrite" in m["data"]]
    assert any("Flank (Recon)" in text for r in rewritten for text in r.values())  # the reveal at seq 185 re-words seq 30


def _messages(lines, until) -> list[dict]:
    """Server-sent events read from a stream's lines until `until(messages)` holds."""
    messages: list[dict] = []
    current: dict = {}
    for line in lines:
        if line.startswith("id: "):
            current["id"] = int(line[4:])
        elif line.startswith("data: "):
            current["data"] = json.loads(line[6:])
        elif line == "" and current:
            messages.append(current)
            current = {}
            if until(messages):
                return messages
    return messages


def test_a_fresh_viewer_gets_the_state_then_live_events(tmp_path: Path) -> None:
    db = tmp_path / "fresh.db"
    gid, events = store_part(db, 60)
    with running(db) as base, httpx.Client(base_url=base, timeout=10) as http:
        with http.stream("GET", f"/api/games/{gid[:5]}/events") as stream:
            lines = stream.iter_lines()
            first = _messages(lines, until=lambda m: len(m) == 1)[0]
            assert first["id"] == 60 and first["data"]["state"]["players"][1]["name"] == IVO and "event" not in first["data"]
            with Store(db) as store:
                store.append(gid, events[60])
            second = _messages(lines, until=lambda m: len(m) == 1)[0]
            assert second["id"] == 61 and second["data"]["event"]["seq"] == 61


def test_a_viewer_that_stops_reading_is_dropped_not_waited_for(web_game) -> None:
    db, gid = web_game
    follower = Follower(Source(db))
    follower.tick()
    with follower.source.reading() as store:
        slow, fast = follower.watch_game(store, gid, 60), follower.watch_game(store, gid, 60)
    while slow.push(b"unread"):
        pass
    assert slow.dropped and slow.queue.qsize() == 1 and slow.queue.get_nowait() is None  # what it held is let go; its stream ends
    with Store(db) as writer:
        writer.append(gid, Annotation(target=3, text="a note"))
    follower.tick()
    assert follower.games[gid].viewers == {fast} and fast.queue.qsize() == 1
    follower.source.close()
    assert not Viewer(size=1).dropped


def test_a_missing_replaced_or_foreign_database_is_a_clear_page_and_the_server_keeps_running(web_client, web_game, tmp_path: Path) -> None:
    db, gid = web_game
    spare = tmp_path / "spare.db"
    shutil.copy(db, spare)
    follower: Follower = web_client.app.state.follower
    os.replace(db, tmp_path / "away.db")
    for path in (db.with_name("web.db-wal"), db.with_name("web.db-shm")):
        path.unlink(missing_ok=True)
    r = web_client.get("/")
    assert r.status_code == 503 and "is missing" in r.text
    db.write_bytes(b"not a database at all" * 100)
    r = web_client.get(f"/games/{gid}")
    assert r.status_code == 503 and "web.db" in r.text
    shutil.copy(spare, db)
    follower.tick()
    assert web_client.get(f"/games/{gid}").status_code == 200
    assert follower.source.problem is None


def test_ktlog_serve_prints_its_address_and_warns_when_the_network_can_read(monkeypatch, web_game) -> None:
    db, _ = web_game
    calls = []
    monkeypatch.setattr("ktlog.web.app.listen", lambda host, port: calls.append({"host": host, "port": port}) or socket.socket())
    monkeypatch.setattr("ktlog.web.app.Server.run", lambda server, sockets: None)
    out = CliRunner().invoke(cli, ["--db", str(db), "serve"])
    assert out.exit_code == 0 and "http://127.0.0.1:8787/" in out.output and "warning" not in out.output
    out = CliRunner().invoke(cli, ["--db", str(db), "serve", "--host", "0.0.0.0", "--port", "9000"])
    assert "http://0.0.0.0:9000/" in out.output and "anyone on your network can read every game" in out.output
    assert [(c["host"], c["port"]) for c in calls] == [("127.0.0.1", 8787), ("0.0.0.0", 9000)]
    out = CliRunner().invoke(cli, ["--db", str(db.with_name("none.db")), "serve"])
    assert out.exit_code == 1 and "no database at" in out.output


def test_the_tables_stream_sends_the_row_of_a_game_that_changed(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    gid, events = store_part(db, 60)
    with running(db) as base, httpx.Client(base_url=base, timeout=10) as http:
        with http.stream("GET", "/api/tables/events") as stream:
            with Store(db) as store:
                store.append(gid, events[60])
            (message,) = _messages(stream.iter_lines(), until=lambda m: len(m) == 1)
        (row,) = message["data"]["games"]
        assert (row["id"], row["events"], row["players"]) == (gid, 61, [HANA, IVO])
        assert row == http.get("/api/games").json()[0]  # the same row as the list


def test_a_change_committed_before_the_first_viewers_first_look_reaches_it(tmp_path: Path) -> None:
    """The tables stream missed a change committed between the server's start and its follower's
    first look (which came with the first viewer, so it took that change as its starting point):
    now the follower looks once as the server starts."""
    import asyncio

    db = tmp_path / "tables.db"
    gid, events = store_part(db, 60)

    async def main() -> bytes:
        follower = Follower(Source(db), interval=0.01)
        await follower.start()
        with Store(db) as store:
            store.append(gid, events[60])
        viewer = follower.watch_tables(None, None)
        try:
            chunk = await asyncio.wait_for(viewer.queue.get(), 5)
            assert chunk is not None
            return chunk
        finally:
            await follower.stop()
            follower.source.close()

    chunk = asyncio.run(main())
    (row,) = json.loads(chunk.decode().split("data: ", 1)[1])["games"]
    assert (row["id"], row["events"]) == (gid, 61)


def test_the_league_page_gives_the_statistics_with_their_filters(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "demo"]).exit_code == 0
    store_part(db, 60)
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as web_client:
        page = web_client.get("/league?league=Autumn+League").text
        assert "<h2>Standings</h2>" in page and "<td>Grace</td>" in page and "<option selected>Autumn League</option>" in page
        assert "<td>Hana</td>" not in page and "pwned" not in page  # the game in progress is not counted
        assert "<td>Grace</td>" not in web_client.get("/league?league=Autumn+League&since=2026-10-12").text  # Grace played on 2026-10-11
        assert web_client.get("/league?until=yesterday").status_code == 400
        empty = web_client.get("/league?player=%3Cb%3ENobody").text
        assert "no player called &#x27;&lt;b&gt;Nobody&#x27;" in empty and "<h2>Standings</h2>" not in empty and "<b>Nobody" not in empty


def test_a_replaced_database_ends_the_streams_with_a_message_and_is_followed_anew(web_game, tmp_path: Path) -> None:
    db, gid = web_game
    follower = Follower(Source(db))
    follower.tick()
    with follower.source.reading() as store:
        viewer = follower.watch_game(store, gid, 60)
    copy = tmp_path / "copy.db"
    with Store(copy) as other:
        other.new_game(Store(db).events(gid)[0].payload)
    os.replace(copy, db)
    follower.tick()
    problem, end = viewer.queue.get_nowait(), viewer.queue.get_nowait()
    assert b"event: problem" in problem and b"was replaced while the server ran" in problem and end is None
    assert follower.games == {} and follower.source.replacements == 1
    with follower.source.reading() as store:
        assert len(store.games()) == 1 and store.games()[0].id != gid  # the new file is read
    follower.source.close()


def test_a_game_page_is_made_once_a_head_and_made_again_after_each_event(web_client, web_game, monkeypatch) -> None:
    # Issue 26: 50 viewers opening a game page cost one rendering, not 50; an event (a note
    # here, made by another program) makes the next request render the new head.
    from ktlog.web import pages

    db, gid = web_game
    made = []
    real = pages.game_page
    monkeypatch.setattr(pages, "game_page", lambda *a, **k: made.append(1) or real(*a, **k))
    first = [web_client.get(f"/games/{gid}").text for _ in range(5)]
    assert len(made) == 1 and len(set(first)) == 1
    store = Store(db)
    store.append(gid, Annotation(target=3, text="a note made by another program"))
    store.close()
    after = web_client.get(f"/games/{gid}").text
    assert len(made) == 2 and "a note made by another program" in after and after != first[0]


def test_the_overlays_win_probability_names_its_model_and_survives_a_bad_model_file(web_client, web_game) -> None:
    """/api/games/ID/chance (issues 28, 41): the chance as it stands, no secret in it, the
    ruleset's default named and flagged as fitted on simulated games; a model file ktlog cannot
    read is said by the API while the overlay's scoreboard still shows."""
    from ktlog.analytics import winprob

    db, gid = web_game
    chance = web_client.get(f"/api/games/{gid[:8]}/chance").json()
    assert chance["seq"] == 60 and chance["players"] == [HANA, IVO] and sum(chance["chances"]) == pytest.approx(1.0, abs=1e-3)
    assert chance["decided"] is False and all(s.endswith("%") for s in chance["shown"]) and "100%" not in chance["shown"]
    assert chance["simulated"] is True and "kt24-approved default model" in chance["about"] and "`ktlog analyse fit` fits one" in chance["about"]
    assert {"turning_point", "left", "vp", "markers", "tac_op_revealed"} <= set(chance["features"])
    assert "Flank" not in json.dumps(chance) and "Overrun" not in json.dumps(chance)
    overlay = web_client.get(f"/games/{gid}/overlay").text
    assert json.loads(overlay.split('id="ktlog-chance">')[1].split("</script>")[0]) == chance
    winprob.model_path(db).write_text("{not json")
    refused = web_client.get(f"/api/games/{gid}/chance")
    assert refused.status_code >= 400 and "is not a ktlog win-probability model" in refused.json()["error"] and "ktlog analyse fit" in refused.json()["error"]
    overlay = web_client.get(f"/games/{gid}/overlay")
    assert overlay.status_code == 200 and 'id="ktlog-chance">null<' in overlay.text and "ktlog-state" in overlay.text
