"""`GET /games/ID` (issue 26): sent from the event loop while nothing was committed, read anew
the moment something was (or the file was replaced), answered 304 to a browser that has it, and
its log a page at a time (`?before=SEQ`, checked at the boundary)."""

from __future__ import annotations

import asyncio
import html
import json
import re
import shutil
import sys
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from ktlog.events import Annotation
from ktlog.play.timeline import Timeline
from ktlog.storage.store import Store
from ktlog.web.app import make_app
from ktlog.web.follower import Follower
from ktlog.web.game_log import ROWS_A_PAGE
from ktlog.web.guard import SECURITY_HEADERS
from ktlog.web.source import READ_BUSY_TIMEOUT_MS, Source
from ktlog.web.views import log_rows

sys.path.insert(0, str(Path(__file__).parent))
from web_server import running  # noqa: E402
from web_support import HOSTILE, store_part  # noqa: E402

WHOLE_GAME = 261
"""The hostile game's events (tests/web_support.py): more rows than a page holds."""


def rows_of(text: str) -> list[dict]:
    return json.loads(re.search(r'<script type="application/json" id="ktlog-rows">(.*?)</script>', text).group(1))


def link(text: str, name: str) -> str | None:
    found = re.search(rf"<a id='{name}'[^>]* href='([^']*)'", text)
    return found.group(1) if found else None


def counted_reads(client: TestClient) -> list[int]:
    """A list that grows by one each time a request reads in the source's worker thread."""
    source = client.app.state.source
    reads: list[int] = []
    real = source.run

    async def run(read):
        reads.append(1)
        return await real(read)

    source.run = run
    return reads


def test_the_page_is_sent_without_a_read_until_another_program_commits(web_client, web_game) -> None:
    db, gid = web_game
    reads = counted_reads(web_client)
    pages = [web_client.get(f"/games/{gid[:8]}").text for _ in range(5)]
    assert len(reads) == 1 and len(set(pages)) == 1  # one read, then the kept bytes from the event loop
    with Store(db) as other:
        other.append(gid, Annotation(target=3, text="committed just now"))
    assert "committed just now" in web_client.get(f"/games/{gid[:8]}").text  # seen at once: no follower tick needed
    assert len(reads) == 2


def secured(response: httpx.Response) -> bool:
    """Whether `response` carries every security header the guard adds, as it adds them."""
    return all(response.headers.get(name.decode()) == value.decode() for name, value in SECURITY_HEADERS)


def test_a_page_sent_again_before_the_routes_is_the_routes_answer_with_every_security_header(web_client, web_game) -> None:
    db, gid = web_game
    reads = counted_reads(web_client)
    made = web_client.get(f"/games/{gid[:8]}")  # the route's answer: read and made
    again = web_client.get(f"/games/{gid[:8]}")  # kept.SendAgain's: no read
    assert len(reads) == 1
    assert again.status_code == made.status_code == 200 and again.content == made.content
    assert again.headers.multi_items() == made.headers.multi_items() and secured(again)
    etag = made.headers["etag"]
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as browser:  # a new server: its route answers the 304
        reads = counted_reads(browser)
        kept, kept_again = (browser.get(f"/games/{gid[:8]}", headers={"if-none-match": etag}) for _ in range(2))
        assert len(reads) == 1 and kept.status_code == kept_again.status_code == 304 and kept_again.content == b""
        assert kept_again.headers.multi_items() == kept.headers.multi_items() and secured(kept_again)
        sent = browser.get(f"/games/{gid[:8]}", headers={"if-none-match": '"another page"'})
        assert sent.status_code == 200 and sent.content == made.content and len(reads) == 1


def test_a_kept_page_is_sent_again_only_to_a_get_of_its_own_address_that_the_guard_lets_through(web_client, web_game) -> None:
    _, gid = web_game
    reads = counted_reads(web_client)
    assert web_client.get(f"/games/{gid}").status_code == 200 and len(reads) == 1
    refused = web_client.get(f"/games/{gid}", headers={"host": "attacker.example"})
    assert refused.status_code == 400 and "attacker.example" in refused.text and secured(refused)
    assert web_client.head(f"/games/{gid}").status_code == 405
    posted = web_client.post(f"/games/{gid}")
    assert posted.status_code == 405 and "read-only" in posted.text and secured(posted)
    assert len(reads) == 1
    older = web_client.get(f"/games/{gid}", params={"before": "30"})  # another query string: read and kept on its own
    assert older.status_code == 200 and len(reads) == 2
    assert web_client.get(f"/games/{gid}", params={"before": "30"}).content == older.content and len(reads) == 2
    for _ in range(2):  # a refusal is never kept: each is read and refused again
        assert web_client.get(f"/games/{gid}", params={"before": "1"}).status_code == 400
    assert len(reads) == 4
    assert web_client.get(f"/games/{gid[:6]}").content == web_client.get(f"/games/{gid}").content and len(reads) == 5


def test_through_uvicorn_every_page_asked_after_another_program_commits_is_the_new_one(web_game) -> None:
    """Fifty clients at once, as the benchmark's: the page kept before the commit is never sent
    after it (one `PRAGMA data_version` a turn of the event loop serves the requests of that turn)."""
    db, gid = web_game

    async def clients(base: str) -> list[list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=50)) as http:
            rounds = [await asyncio.gather(*(http.get(f"/games/{gid}") for _ in range(50)))]
            for n in range(3):
                with Store(db) as other:
                    other.append(gid, Annotation(target=3, text=f"committed in round {n}"))
                rounds.append(await asyncio.gather(*(http.get(f"/games/{gid}") for _ in range(50))))
            return rounds

    with running(db) as base:
        rounds = asyncio.run(clients(base))
    for n, pages in enumerate(rounds):
        assert all(page.status_code == 200 and secured(page) for page in pages)
        assert len({page.content for page in pages}) == 1 and len({page.headers["etag"] for page in pages}) == 1
        assert n == 0 or f"committed in round {n - 1}" in pages[0].text
    assert len({pages[0].headers["etag"] for pages in rounds}) == len(rounds)


def test_asked_on_the_event_loop_a_lock_is_a_no_not_a_wait_and_the_reads_still_wait(web_game) -> None:
    db, gid = web_game
    source = Source(db)
    with source.reading() as store:
        version = source.version(store)
    assert source.unchanged(version)
    assert source._store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 0
    with source.reading() as store:  # the worker thread's reads wait for another program's lock as before
        assert store.conn.execute("PRAGMA busy_timeout").fetchone()[0] == READ_BUSY_TIMEOUT_MS
    with Store(db) as other:
        other.append(gid, Annotation(target=3, text="a note"))
    assert not source.unchanged(version)
    source.close()
    assert not source.unchanged(version)  # closed: read anew


def test_the_requests_of_one_turn_of_the_event_loop_share_one_question_and_the_next_turn_asks_again(web_game) -> None:
    db, gid = web_game
    source = Source(db)
    with source.reading() as store:
        version = source.version(store)
    asked: list[str] = []
    source._store.conn.set_trace_callback(asked.append)

    async def requests() -> tuple[list[bool], list[bool]]:
        waiting = [source.unchanged(version) for _ in range(50)]  # 50 requests that arrived together
        with Store(db) as other:
            other.append(gid, Annotation(target=3, text="a note"))
        await asyncio.sleep(0)  # the next turn: requests that came after the commit
        return waiting, [source.unchanged(version) for _ in range(50)]

    waiting, later = asyncio.run(requests())
    assert all(waiting) and not any(later)
    assert asked.count("PRAGMA data_version") == 2  # one question a turn, not one a request
    source.close()


def test_a_file_put_in_place_of_the_database_is_read_not_sent_from_what_was_kept(web_client, web_game, tmp_path: Path) -> None:
    db, gid = web_game
    assert web_client.get(f"/games/{gid}").status_code == 200
    newer = tmp_path / "newer.db"
    shutil.copy(db, newer)
    with Store(newer) as other:
        other.append(gid, Annotation(target=3, text="only in the new file"))
    shutil.move(newer, db)  # a restored backup, say: the same game, other events
    for leftover in (db.with_name("web.db-wal"), db.with_name("web.db-shm")):
        leftover.unlink(missing_ok=True)
    assert "only in the new file" in web_client.get(f"/games/{gid}").text


def test_a_browser_that_has_the_page_is_answered_304_until_the_game_changes(web_client, web_game) -> None:
    db, gid = web_game
    first = web_client.get(f"/games/{gid}")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"  # the browser asks each time: the page is live
    again = web_client.get(f"/games/{gid}", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert web_client.get(f"/games/{gid}", headers={"if-none-match": f'"other", W/{etag}'}).status_code == 304
    with Store(db) as other:
        other.append(gid, Annotation(target=3, text="a new note"))
    changed = web_client.get(f"/games/{gid}", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag and "a new note" in changed.text


@pytest.fixture
def long_game(tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "long.db"
    gid, _ = store_part(db, WHOLE_GAME)
    return db, gid


def test_the_log_is_paged_and_the_pages_together_are_the_whole_log(long_game) -> None:
    db, gid = long_game
    with Store(db) as store:
        whole = log_rows(Timeline(store.events(gid)), store.state(gid))
    assert len(whole) > ROWS_A_PAGE
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as client:
        text = client.get(f"/games/{gid[:6]}").text
        assert rows_of(text) == whole[-ROWS_A_PAGE:] and link(text, "newer") is None and "data-past" not in text
        pages = [rows_of(text)]
        while older := link(text, "older"):
            text = client.get(older).text
            assert "data-past" in text  # an older page gets no new rows from the stream
            pages.insert(0, rows_of(text))
        assert [row for page in pages for row in page] == whole
        back = [rows_of(text)]
        while newer := link(text, "newer"):
            text = client.get(newer).text
            back.append(rows_of(text))
        assert back == pages and link(text, "older") is not None  # the newer links lead back to the latest page
        assert HOSTILE["Hana"] not in text and "window.pwned" in text  # the names are in the page only escaped


@pytest.mark.parametrize(
    ("before", "said"),
    [
        ("x", "before must be a whole number of 0 or more"),
        ("-3", "before must be a whole number"),
        ("1", "before=1 names no page of this game's log: give a seq from 2 to 261"),
        ("262", "before=262 names no page"),
        ("9" * 40, "at most 18 digits"),
    ],
)
def test_a_before_that_names_no_page_is_a_400_that_says_what_to_give(long_game, before: str, said: str) -> None:
    db, gid = long_game
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as client:
        r = client.get(f"/games/{gid}", params={"before": before})
    assert r.status_code == 400 and said in html.unescape(r.text) and "Traceback" not in r.text


def test_the_follower_looks_only_while_someone_watches(web_game) -> None:
    # A server nobody follows asked the database 50 times a second: 28 ms of CPU a second, as
    # much as 0.7-1.1 ms a page request at the throughput of a loaded machine.
    db, _ = web_game

    async def main() -> list[int]:
        follower = Follower(Source(db), interval=0.01)
        looks: list[int] = []
        real = follower.look
        follower.look = lambda: looks.append(1) or real()  # type: ignore[method-assign]
        await follower.start()  # one look: the position it starts from
        counts = []
        await asyncio.sleep(0.2)
        counts.append(len(looks))  # nobody watches
        viewer = follower.watch_tables(None, None)
        await asyncio.sleep(0.2)
        counts.append(len(looks))  # a viewer: it looks every 10 ms
        follower.leave_tables(viewer)
        await asyncio.sleep(0.1)
        counts.append(len(looks))
        await asyncio.sleep(0.2)
        counts.append(len(looks))  # nobody again: no more looks
        await follower.stop()
        follower.source.close()
        return counts

    idle, watched, left, later = asyncio.run(main())
    assert idle == 1 and watched >= 5 and later == left


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop has no Windows build; uvicorn uses asyncio's loop there")
def test_the_server_runs_on_uvicorns_compiled_http_parser_and_event_loop() -> None:
    """`ktlog serve`'s settings give uvicorn's httptools parser and uvloop's loop (pyproject's
    dependencies): h11 and asyncio's loop cost twice the server's CPU a page (docs/performance.md)."""
    import uvicorn
    import uvloop
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from ktlog.web.app import SERVER_SETTINGS

    async def app(scope, receive, send) -> None:  # the settings are the server's, whatever the app
        pass

    config = uvicorn.Config(app, **SERVER_SETTINGS)
    config.load()
    assert config.http_protocol_class is HttpToolsProtocol
    loop_factory = config.get_loop_factory()
    assert loop_factory is not None
    loop = loop_factory()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
