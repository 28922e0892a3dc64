"""`ktlog serve` in a real browser: headless Chromium (Debian's `chromium`, driven through
Playwright's Python package, no browser download) opens the game page, the overlay, the tables
and the replay while another process appends events, checks what the page shows, and saves
screenshots (docs/img/web-*.png come from here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from web_server import CHROMIUM, launch_chromium, running  # noqa: E402
from web_support import HOSTILE, SAMPLE, store_part  # noqa: E402

pytestmark = pytest.mark.browser


try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None

if CHROMIUM is None:
    pytest.skip("no Chromium found (apt-get install chromium); the browser tests of ktlog serve are skipped", allow_module_level=True)
if sync_playwright is None:
    pytest.skip("the playwright package is not installed (pip install -e '.[test]'); the browser tests are skipped", allow_module_level=True)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as pw:
        context = launch_chromium(pw, profile, viewport={"width": 1200, "height": 860})
        yield context
        context.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    yield page
    page.close()


def wait_until(page, expression: str, timeout: float = 10.0) -> None:
    """Wait for a JavaScript expression to hold (Playwright's wait_for_function evaluates a
    string, which the pages' Content-Security-Policy rightly refuses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.01)


def writer(db: Path, game: str, first: int, count: int, delay: float = 0.05) -> subprocess.Popen:
    """Another process appending the hostile game's events `first`.. to the database."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).parent / "web_support.py"), "append", str(db), game, str(first), str(count), str(delay)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "ready"
    proc.stdin.write("go\n")
    proc.stdin.flush()
    return proc


def test_the_game_page_follows_appends_and_reveals_a_secret_only_when_revealed(page, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    gid, _ = store_part(db, 180)
    with running(db) as base:
        page.goto(f"{base}/games/{gid[:8]}")
        assert page.text_content("h1").startswith(HOSTILE["Hana"] + " (Kasrkin) vs Ivo")  # markup shown as text
        assert page.evaluate("window.pwned") is None
        assert page.text_content("#scoreboard .player.p0 .secret span.hidden") == "hidden"
        assert "Flank" not in page.text_content("body")
        assert "the 'quoted'\" \u2407\u241b[31m</td>" in page.text_content("#scoreboard .player.p1 .name")  # a bell and an escape as their pictures
        proc = writer(db, gid, 180, 10)
        wait_until(page, "document.body.dataset.seq === '190'")
        proc.wait(10)
        assert page.locator("#log li[data-seq='190']").count() == 1
        assert "Flank (Recon)" in page.text_content("#log li[data-seq='30'] .text")  # revealed at seq 185: the old row is re-worded
        assert "Flank (Recon)" in page.text_content("#scoreboard .player.p0")
        assert page.text_content("#scoreboard .player.p1 .secret span.hidden") == "hidden"  # Ivo's tac op is still secret
        page.screenshot(path=str(tmp_path / "game.png"))
    assert not [p for p in page.problems if "Content Security Policy" in p or "Uncaught" in p], page.problems


def test_the_log_of_a_long_game_is_paged_and_an_older_page_stays_as_it_is(page, tmp_path: Path) -> None:
    # Issue 26: a game page holds its latest rows; "older events" leads to the rows before them,
    # the names still shown as text; an older page keeps its rows while the game goes on.
    from ktlog.web.game_log import ROWS_A_PAGE

    db = tmp_path / "long.db"
    gid, _ = store_part(db, 250)
    with running(db) as base:
        page.goto(f"{base}/games/{gid[:8]}")
        latest = page.eval_on_selector_all("#log li", "rows => rows.map((row) => Number(row.dataset.seq))")
        assert len(latest) == ROWS_A_PAGE and latest[-1] == 250
        page.click("#older")
        wait_until(page, "location.search.startsWith('?before=')")
        older = page.eval_on_selector_all("#log li", "rows => rows.map((row) => Number(row.dataset.seq))")
        assert older and older[-1] < latest[0] and older[0] == 1 and page.locator("#older").count() == 0
        assert page.text_content("h1").startswith(HOSTILE["Hana"] + " (Kasrkin) vs Ivo") and page.evaluate("window.pwned") is None
        proc = writer(db, gid, 250, 3)
        wait_until(page, "document.body.dataset.seq === '253'")  # the scoreboard follows the game ...
        proc.wait(10)
        assert page.eval_on_selector_all("#log li", "rows => rows.map((row) => Number(row.dataset.seq))") == older  # ... the rows stay
        page.click("#latest")
        wait_until(page, "location.search === ''")
        assert page.locator("#log li[data-seq='253']").count() == 1
    assert not page.problems, page.problems


def test_the_overlay_hides_the_secret_until_it_is_revealed(page, tmp_path: Path) -> None:
    db = tmp_path / "overlay.db"
    gid, _ = store_part(db, 183)
    with running(db) as base:
        page.goto(f"{base}/games/{gid}/overlay")
        assert [page.text_content(f"#scoreboard .player.p{i} .secret span.hidden") for i in (0, 1)] == ["hidden", "hidden"]
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"  # transparent for OBS
        proc = writer(db, gid, 183, 3)
        wait_until(page, "document.body.dataset.seq === '186'")
        proc.wait(10)
        assert "tac op: Flank (Recon)" in page.text_content("#scoreboard .player.p0")
        assert page.text_content("#scoreboard .player.p1 .secret span.hidden") == "hidden"
    assert not page.problems, page.problems


def test_the_overlay_shows_the_live_win_probability_and_which_model_gives_it(page, tmp_path: Path) -> None:
    """An event that moves the chance, appended by another process, moves the overlay's bar and
    percentages without a reload; the model is named, and flagged as fitted on simulated games."""
    from ktlog.analytics import winprob
    from ktlog.analytics.key_moments import chance_now
    from ktlog.analytics.winprob_features import features_of, terms
    from ktlog.files.gamelog import read_game_log
    from ktlog.play.replay import Replay
    from ktlog.rulesets import RULESETS

    features = list(features_of(RULESETS["kt24-approved"]))
    model = winprob.WinModel(
        ruleset="kt24-approved", features=features, win=[0.05 * (1 + i % 5) for i in range(len(terms(features)))], simulated_games=200, games=200
    )
    choice = winprob.Choice(model, model.describe())
    replay = Replay([e for e, _ in read_game_log(SAMPLE)[1]])
    chances = {seq: chance_now(replay.seek(seq), choice).chances for seq in range(150, 200)}
    cut = next(seq for seq in range(150, 196) if winprob.percent(chances[seq + 3][0]) != winprob.percent(chances[seq][0]))
    db = tmp_path / "chance.db"
    gid, _ = store_part(db, cut)
    winprob.save(winprob.Models(models={"kt24-approved": model}), winprob.model_path(db))

    def odds(seq: int) -> str:
        a, b = (winprob.percent(p) for p in chances[seq])
        return f"win probability: {HOSTILE['Hana']} {a} · {HOSTILE['Ivo']} {b}".replace("\x07", "\u2407").replace("\x1b", "\u241b")

    with running(db) as base:
        page.goto(f"{base}/games/{gid[:8]}/overlay")
        assert page.text_content("#chance .odds") == odds(cut)  # the names as text, their control characters as pictures
        assert page.evaluate("window.pwned") is None
        assert "kt24-approved model fitted on this league's 200 game(s)" in page.text_content("#chance .model")
        assert page.text_content("#chance .simulated") == " · simulated games"
        widths = page.evaluate("[...document.querySelectorAll('#chance .bar span')].map((s) => parseFloat(s.style.width))")
        assert widths == pytest.approx([100 * p for p in chances[cut]], abs=1e-6)
        page.evaluate("window.notReloaded = true")
        proc = writer(db, gid, cut, 3)
        wait_until(page, f"document.getElementById('chance').dataset.seq === '{cut + 3}'")
        proc.wait(10)
        assert page.text_content("#chance .odds") == odds(cut + 3) != odds(cut)
        assert page.evaluate("window.notReloaded") is True
    assert not page.problems, page.problems


def test_the_tables_page_updates_a_game_and_the_replay_steps(page, tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    gid, _ = store_part(db, 100)
    with running(db) as base:
        page.goto(base + "/")
        row = f"#tables tr[data-game='{gid}']"
        assert page.text_content(f"{row} td:nth-child(2)").startswith(HOSTILE["Hana"])
        before = page.text_content(f"{row} td.last")
        proc = writer(db, gid, 100, 2)
        proc.wait(10)
        latest = httpx.get(f"{base}/api/games").json()[0]["last_event"]
        assert latest != before
        wait_until(page, f'document.querySelector("{row} td.last").textContent === {json.dumps(latest)}')
        assert page.locator("#tables tbody tr").count() == 1
        page.goto(f"{base}/games/{gid}/replay")
        wait_until(page, "document.getElementById('at').textContent !== ''")
        page.keyboard.press("End")
        wait_until(page, "document.getElementById('at').textContent === 'seq 102 of 102'")
        page.keyboard.press("Home")
        wait_until(page, "document.getElementById('at').textContent === 'seq 0 of 102'")
        page.click("#tps button:first-child")
        wait_until(page, "document.querySelector('#log li.here .text')?.textContent === 'turning point 1 begins'")
    assert not page.problems, page.problems


def test_screenshots_of_the_pages_on_sample_games(page, tmp_path: Path) -> None:
    """The docs' screenshots: the sample games, three of them still in progress. They are saved
    to KTLOG_SCREENSHOTS (docs/img when refreshing the docs) or to the test's folder."""
    from ktlog.cli import cli

    folder = Path(os.environ.get("KTLOG_SCREENSHOTS") or tmp_path)
    db = tmp_path / "samples.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "demo"]).exit_code == 0
    samples = SAMPLE.parent
    live, _ = store_part(db, 150, {}, samples / "01_secure_kasrkin_vs_legionaries.jsonl")
    store_part(db, 120, {}, samples / "02_loot_pathfinders_vs_hearthkyn.jsonl")
    secret, _ = store_part(db, 190, {}, SAMPLE)
    with running(db) as base:
        shots = {
            "web-tables.png": "/",
            "web-game.png": f"/games/{live[:8]}",
            "web-replay.png": "/games/334f/replay",
            "web-league.png": "/league?league=Autumn+League",
        }
        for name, url in shots.items():
            page.goto(base + url)
            if "replay" in url:
                wait_until(page, "document.getElementById('at').textContent !== ''")
                page.keyboard.press("PageDown")
                page.keyboard.press("PageDown")
                wait_until(page, "document.querySelector('#log li.here .text')?.textContent === 'turning point 3 begins'")
            page.screenshot(path=str(folder / name))
        page.set_viewport_size({"width": 820, "height": 260})
        page.goto(f"{base}/games/{secret[:8]}/overlay")
        assert page.text_content("#scoreboard .player.p1 .secret span.hidden") == "hidden"
        page.screenshot(path=str(folder / "web-overlay.png"), omit_background=True)
    assert all((folder / name).stat().st_size > 5000 for name in [*shots, "web-overlay.png"])
    assert not page.problems, page.problems


def test_a_spectators_game_page_fits_a_phone(page, tmp_path: Path) -> None:
    """Issue 39: the spectator's game page at 360x740 was 513 px wide (the operatives' table, five
    columns). The page now fits: the id gives way to the name, the table wraps its text."""
    from ktlog.cli import cli

    db = tmp_path / "phone.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "simulate", "--games", "1", "--seed", "3"]).exit_code == 0
    game = json.loads(CliRunner().invoke(cli, ["--db", str(db), "games", "--json"]).stdout)[0]["id"]
    page.set_viewport_size({"width": 360, "height": 740})
    with running(db) as base:
        page.goto(f"{base}/games/{game[:8]}")
        wait_until(page, "document.querySelectorAll('#operatives tr.op').length > 0")
        widths = page.evaluate(
            "[document.documentElement.scrollWidth, document.getElementById('operatives').scrollWidth, document.getElementById('operatives').clientWidth]"
        )
        page.screenshot(path=str(tmp_path / "spectator-360.png"), full_page=True)
    assert widths[0] <= 360 and widths[1] <= widths[2], f"page {widths[0]} px, operatives {widths[1]} px in a {widths[2]} px box"
    assert not page.problems, page.problems


def test_the_replay_draws_the_win_probability_curve(page, tmp_path: Path) -> None:
    """The game one shot decides (tests/winprob_support.py), its model stored beside the database:
    the curve of each player's chance in their colour up to the moment shown (never the result
    ahead of it), with its axes, the key moments passed, and the chance at the moment shown."""
    from winprob_support import ONE_SHOT_GAME, SHOT_CHANCE, VP_MODEL, one_shot_game

    from ktlog.analytics import winprob
    from ktlog.storage.store import Store

    db = tmp_path / "one.db"
    g = one_shot_game()
    shot = next(a.seq for a in g.state.attacks)
    with Store(db) as store:
        store.import_envelopes(ONE_SHOT_GAME, g.sealed(ONE_SHOT_GAME, "2026-11-21T19:00:00+00:00"))
    winprob.save(winprob.Models(models={"kt24-preliminary": VP_MODEL}), winprob.model_path(db))
    with running(db) as base:
        page.goto(f"{base}/games/{ONE_SHOT_GAME[:8]}/replay")
        wait_until(page, "document.getElementById('chance').textContent !== ''")
        assert page.text_content("#chance") == "win probability: Alice 50% · Bob 50%"
        assert page.locator("#winprob polyline.vp.p0").count() == 1 and page.locator("#winprob polyline.vp.p1").count() == 1
        labels = page.eval_on_selector_all("#winprob text.axis-label", "(ts) => ts.map((t) => t.textContent)")
        assert {"0%", "50%", "100%", "TP1", "TP4"} <= set(labels) and any("chance to win" in x for x in labels)
        assert page.locator("#winprob circle.key-moment").count() == 0  # no key moment passed yet: the curve tells nothing ahead
        assert "kt24-preliminary model fitted on this league's 0 game(s)" in page.text_content("p.model")
        box = page.locator("#winprob").bounding_box()
        assert box["width"] > 400 and box["height"] > 100  # drawn, on the page
        page.fill("#scrubber", str(shot))
        page.dispatch_event("#scrubber", "input")
        wait_until(page, f"document.getElementById('at').textContent === 'seq {shot} of {g.seq}'")
        a, b = round(100 * SHOT_CHANCE), 100 - round(100 * SHOT_CHANCE)
        assert page.text_content("#chance").startswith(
            f"win probability: Alice {a}% · Bob {b}% · key moment: Alice +{round(100 * (SHOT_CHANCE - 0.5))}% (alice1 shoots Melta"
        )
        assert page.locator("#winprob circle.key-moment.p0").count() >= 1
        points = page.get_attribute("#winprob polyline.vp.p0", "points").split()
        assert max(float(pt.split(",")[0]) for pt in points) <= float(page.get_attribute("#winprob line.cursor", "x1")) + 0.01  # drawn up to the cursor
        page.fill("#scrubber", str(g.seq))
        page.dispatch_event("#scrubber", "input")
        wait_until(page, f"document.getElementById('at').textContent === 'seq {g.seq} of {g.seq}'")
        assert page.text_content("#chance").startswith("win probability: Alice 100% · Bob 0%")
    assert not page.problems, page.problems


def test_the_tournament_page_follows_the_games_as_they_end_on_a_hall_screen_and_a_phone(page, tmp_path: Path) -> None:
    """A tournament's page while round 1 is played: a game ends by a concession, a table by a
    no-show, and the page's standings become the command line's without a reload; names typed
    by users stay text. Screenshots at a hall screen's size and a phone's (tournament-*.png)."""
    from test_tournament import Organiser, new_game

    name = "Hall <b>Night</b>"
    run = Organiser(tmp_path / "event.db", name)
    run("tournament", "new", name, "--rounds", 3)
    run("tournament", "add", name, "Ann", "<i>Bea</i>", "Cid", "Dee", "Eve")
    tables = json.loads(run("tournament", "pair", name, "--seed", 2, "--json").stdout)["tables"]
    first, second = tables[0], tables[1]
    game = new_game(run, first["player_a"], first["player_b"], "--tournament", name).stdout.strip()
    url = "/tournaments/Hall%20%3Cb%3ENight%3C%2Fb%3E"
    with running(run.db) as base:
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(base + url)
        wait_until(page, "document.querySelectorAll('#standings tbody tr').length === 5")
        assert page.inner_text("h1") == name and page.locator("h1 b, td b, td i").count() == 0
        assert page.inner_text("#pairings tbody tr:first-child td.result") == "in play"
        assert page.inner_text("#round-line") == "Round 1 of 3: 2 of 3 tables playing"
        run("event", game, "GameConceded", f"player={first['player_b']}")
        wait_until(page, "document.body.dataset.openTables === '1'")  # the game's end, from the stream
        run("tournament", "no-show", name, second["player_a"])
        wait_until(page, "document.body.dataset.openTables === '0'", timeout=25)  # the no-show, from the page's own asking
        assert page.inner_text("#round-line") == "Round 1 of 3: every table has ended"
        assert page.inner_text("#pairings tbody tr:first-child td.result") == f"{first['player_a']} won ({first['player_b']} conceded)"
        shown = [[c.strip() for c in row.split("\t")] for row in page.inner_text("#standings tbody").splitlines()]
        expected = run.json("tournament", "standings")
        assert [(r[1], float(r[2]), float(r[3])) for r in shown] == [(s["player"], s["points"], s["sos"]) for s in expected]
        page.screenshot(path=str(tmp_path / "tournament-hall.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the phone scrolls sideways"
        assert not page.locator("#standings th.more").first.is_visible()
        page.screenshot(path=str(tmp_path / "tournament-phone.png"), full_page=True)
    assert page.problems == []
