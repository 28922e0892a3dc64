"""The battle in the web replay (issue 44): the replay page of a game with positions shows its
board at every moment, names escaped, on a phone and a hall screen (headless Chromium; the
screenshots go to KTLOG_SCREENSHOTS, or the test's folder)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from web_server import CHROMIUM, running  # noqa: E402
from web_support import store_part  # noqa: E402

from ktlog.data import SAMPLE_BATTLES, SAMPLE_GAMES  # noqa: E402

HOSTILE = {"Alice": "<script>window.pwned=1</script>", "Bob": 'Bob & "co" </svg>'}


def test_the_board_api_draws_a_moment_with_names_escaped(tmp_path):
    db = tmp_path / "b.db"
    game, events = store_part(db, 60, HOSTILE, SAMPLE_BATTLES / "16_volkus_board.jsonl")
    plain, _ = store_part(db, 40, {}, SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl")
    with running(db) as base:
        svg = httpx.get(f"{base}/api/games/{game[:8]}/board.svg?at=40")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert "<script>" not in svg.text and "&lt;script&gt;window.pwned=1&lt;/script&gt;" in svg.text
        assert "Bob &amp; &quot;co&quot; &lt;/svg&gt;" in svg.text and svg.text.count("</svg>") == 1
        assert "after seq 40" in svg.text
        late = httpx.get(f"{base}/api/games/{game[:8]}/board.svg?at=61")
        assert late.status_code == 400 and "after the last event" in late.text
        none = httpx.get(f"{base}/api/games/{plain[:8]}/board.svg")
        assert none.status_code == 400 and "records no positions" in none.text
        page = httpx.get(f"{base}/games/{plain[:8]}/replay")
        assert "id='battle'" not in page.text


def wait_until(page, expression: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        time.sleep(0.05)


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")
@pytest.mark.parametrize("size", [(360, 740), (1920, 1080)], ids=["phone", "hall"])
@pytest.mark.parametrize("battle", sorted(SAMPLE_BATTLES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_the_replay_shows_the_board_at_every_moment(battle, size, tmp_path, contexts):

    folder = Path(os.environ.get("KTLOG_SCREENSHOTS") or tmp_path)
    db = tmp_path / "r.db"
    game, events = store_part(db, 10_000, HOSTILE, battle)
    shot = next(i for i, e in enumerate(events, 1) if type(e).__name__ == "Shot")
    with running(db) as base:
        context = contexts(viewport={"width": size[0], "height": size[1]})
        page = context.pages[0]
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{base}/games/{game[:8]}/replay")
        wait_until(page, "document.getElementById('battle')?.complete && document.getElementById('battle').naturalWidth > 0")
        for _ in range(shot - int(page.input_value("#scrubber"))):
            page.keyboard.press("ArrowRight")
        wait_until(page, f"document.getElementById('battle').src.endsWith('at={shot}') && document.getElementById('battle').complete")
        wait_until(page, "document.getElementById('battle').naturalWidth > 0")
        box = page.locator("#battle").bounding_box()
        assert box is not None and 0 < box["width"] <= size[0] and box["height"] > 100
        page.locator("#battle").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"board-replay-{battle.stem[3:]}-{size[0]}x{size[1]}.png"))
        assert not page.evaluate("window.pwned === 1")
        context.close()
    assert not problems, problems


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (apt-get install chromium)")
def test_the_game_page_draws_the_board_again_after_each_event(tmp_path, contexts):

    from ktlog.storage.store import Store

    db = tmp_path / "g.db"
    battle = SAMPLE_BATTLES / "16_volkus_board.jsonl"
    game, events = store_part(db, 40, {}, battle)
    with running(db) as base:
        context = contexts(viewport={"width": 1200, "height": 900})
        page = context.pages[0]
        page.goto(f"{base}/games/{game[:8]}")
        wait_until(page, "document.getElementById('battle')?.src.endsWith('at=40') && document.getElementById('battle').naturalWidth > 0")
        with Store(db) as store:  # another writer at the table
            for event in events[40:43]:
                store.append(game, event)
        wait_until(page, "document.getElementById('battle').src.endsWith('at=43') && document.getElementById('battle').complete")
        assert page.evaluate("document.getElementById('battle').naturalWidth") > 0
        context.close()
    plain_db = tmp_path / "p.db"
    plain, _ = store_part(plain_db, 30, {}, SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl")
    with running(plain_db) as base:
        assert "id='battle'" not in httpx.get(f"{base}/games/{plain[:8]}").text
