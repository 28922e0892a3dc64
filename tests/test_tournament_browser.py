"""A tournament's projector view and organiser page in headless Chromium (issue 40): the
projector at 1920x1080 shows every table of the round and every line of the standings of a
40-player and a 128-player event, a page at a time, with nothing below the screen's edge and
nothing scrolled; the round's timer counts down. The organiser's page runs the day's operations
with its link's token. Screenshots: projector-*.png, organiser.png in the test's folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import test_web_browser  # noqa: E402
from test_web_browser import wait_until  # noqa: E402
from web_server import running  # noqa: E402

from ktlog.play import tournament, tournament_entry, tournament_results, tournament_rounds  # noqa: E402
from ktlog.play.database import Store  # noqa: E402

pytestmark = pytest.mark.browser
browser, page = test_web_browser.browser, test_web_browser.page  # its Chromium and pages, as fixtures here


def event(db: Path, count: int, name: str = "Grand Tournament") -> str:
    """An event of `count` players: round 1 played (scores), round 2 paired with half its tables reported, a timer running."""
    with Store(db) as store:
        tournament.create(store, name, 5, None)
        tournament_entry.add(store, name, [f"Player {n:03d} of Some Club" for n in range(1, count + 1)])
        for round_ in (1, 2):
            paired = tournament_rounds.pair(store, name, seed=4 if round_ == 1 else None)
            games = [t for t in paired.tables if t.b is not None]
            for t in games if round_ == 1 else games[: len(games) // 2]:
                tournament_results.report(store, name, t.table, f"{(t.table * 7) % 20}-{(t.table * 3) % 20}")
        tournament_rounds.start_timer(store, name, 150)
    return name


def shown_pages(tab, panel: str) -> list[list[str]]:
    """The rows' first two cells as each page of a panel shows them, every row inside the screen
    (the pages turned by the keyboard, as a presenter's remote turns them)."""
    pages = int(tab.get_attribute(f"#{panel}", "data-pages"))
    seen = []
    for _ in range(pages):
        at = tab.get_attribute(f"#{panel}", "data-page")
        rows = tab.evaluate(
            f"""[...document.querySelectorAll('#{panel} tbody tr')].filter((r) => !r.hidden).map((r) => {{
                const box = r.getBoundingClientRect();
                return [box.bottom <= innerHeight && box.top >= 0, r.cells[0].textContent, r.cells[1].textContent];
            }})"""
        )
        assert rows and all(inside for inside, _, _ in rows), f"{panel} page {at}: a row below the screen's edge"
        seen.append([f"{a}|{b}" for _, a, b in rows])
        tab.keyboard.press("PageDown")  # as a presenter's remote turns the pages (both panels)
    return seen


@pytest.mark.parametrize("count", [40, 128])
def test_the_projector_shows_every_table_and_standing_at_1920x1080(page, tmp_path: Path, count: int) -> None:
    db = tmp_path / "event.db"
    event(db, count)
    with running(db) as base:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(f"{base}/projector/Grand%20Tournament?seconds=600")  # pages turned by the keyboard here, not the clock
        wait_until(page, f"document.querySelectorAll('#standings tbody tr').length === {count}")
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080 and page.evaluate("document.documentElement.scrollWidth") <= 1920
        assert page.inner_text("#round-line") == f"round 2 of 5 · {count // 4} of {count // 2} tables playing"
        timer = page.inner_text("#timer")
        assert timer.endswith(" left") and timer.startswith(("2:29:", "2:30:")), timer
        page.screenshot(path=str(tmp_path / f"projector-{count}.png"))
        tables = shown_pages(page, "tables-panel")
        page.reload()  # both panels from their first page again
        wait_until(page, f"document.querySelectorAll('#standings tbody tr').length === {count}")
        standings = shown_pages(page, "standings-panel")
        page.goto(f"{base}/projector/Grand%20Tournament?seconds=1")
        wait_until(page, "document.getElementById('standings-panel').dataset.page === '2'", timeout=10)  # and the clock turns them by itself
    assert sorted(int(row.split("|")[0]) for p in tables for row in p) == list(range(1, count // 2 + 1)), "every table once"
    assert [int(row.split("|")[0]) for p in standings for row in p] == list(range(1, count + 1)), "every place once, in order"
    assert len(standings) == -(-count // len(standings[0])), "as few pages as the rows need"
    assert page.problems == []


def test_the_organiser_runs_a_round_from_the_page(page, tmp_path: Path) -> None:
    """Check-in, pairing, a score reported, a no-show recorded and taken back, and a refusal
    shown in words, all by the page's buttons with the token of the organiser's link."""
    db = tmp_path / "event.db"
    with Store(db) as store:
        tournament.create(store, "Club Night", 3, None)
        tournament_entry.add(store, "Club Night", ["Ann", "Bea", "Cid", "Dee", "Eve", "Fay"])
        token = tournament.issue_organiser_token(store, "Club Night")
    with running(db, organiser=True) as base:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{base}/organiser/Club%20Night#{token}")
        wait_until(page, "document.querySelectorAll('#entrants tbody tr').length === 6")
        for player in ("Ann", "Bea", "Cid", "Dee"):
            page.click(f"#entrants tr[data-player='{player}'] button:has-text('Check in')")
            wait_until(page, f"document.getElementById('outcome').textContent === 'checked in: {player}'")
        page.click("#pair")
        wait_until(page, "document.querySelectorAll('#round-tables tbody tr').length === 2")
        assert page.inner_text("#outcome") == "round 1 paired: 2 tables"
        page.fill("#round-tables tr[data-table='1'] input", "12-9")
        page.click("#round-tables tr[data-table='1'] button:has-text('Report')")
        wait_until(page, "document.getElementById('outcome').textContent.startsWith('table 1: ')")
        assert "12-9" in page.inner_text("#round-tables tr[data-table='1']")
        absent = page.inner_text("#round-tables tr[data-table='2'] td:nth-child(2)")
        page.click(f"#round-tables tr[data-table='2'] button:has-text('{absent} absent')")
        wait_until(page, f"document.getElementById('outcome').textContent === 'table 2: {absent} did not show'")
        page.click(f"#round-tables tr[data-table='2'] button:has-text('Undo {absent}')")
        wait_until(page, "document.getElementById('outcome').textContent === 'table 2: the no-show is taken back'")
        page.fill("#round-tables tr[data-table='2'] input", "twelve")
        page.click("#round-tables tr[data-table='2'] button:has-text('Report')")
        wait_until(page, "document.getElementById('outcome').classList.contains('refused')")
        assert "give player A's VP, a dash, then player B's" in page.inner_text("#outcome")
        page.screenshot(path=str(tmp_path / "organiser.png"), full_page=True)
    with Store(db) as store:
        shown = tournament.results(tournament.load(store, "Club Night"))
    assert [(r["table"], r["result"], r["ended_by"]) for r in shown] == [(1, "win", "report"), (2, "open", None)]
    assert page.problems == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"], "the refused score, and nothing else"
