"""A ruleset from another package (tests/plugin_ruleset/: Example Skirmish, three turning points, one
objective marker, and an event type of its own: the supply cache, with its question, its words
and its score) installed beside ktlog and played through every face with no change to ktlog: the
registry finds it by its entry point (group `ktlog.rulesets`), `ktlog simulate`, `ktlog new` and
`ktlog event` play it in processes of their own, a game file of it imports and exports, the TUI
records a new game of it and its own event (Pilot, 80x24 and 120x40), a player's seat asks and
records its own event, and `ktlog serve` shows it. A bad entry point fails loudly, naming itself
and its package.

Installing: the package is copied into a folder with the `.dist-info` an installer writes (its
METADATA and the entry points of its pyproject.toml), and that folder is put on the path, as
`pip install --target` leaves it (pip cannot build it offline here: setuptools needs `wheel`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import distributions
from pathlib import Path

import jsonschema
import pytest
from conftest import next_turning_point
from starlette.testclient import TestClient
from textual.widgets import Input, Select
from tui_support import TINY, press, tui_test

from ktlog.errors import RegistryError
from ktlog.events import EVENT_TYPES
from ktlog.files.rosters import load_roster
from ktlog.files.schemas import SCHEMAS
from ktlog.play import seats
from ktlog.play.builder import GameBuilder, secure
from ktlog.rules.context import HANDLERS
from ktlog.rules.words import WORDS
from ktlog.rulesets import RULESETS, group_on_path, load_entry_point, load_entry_points
from ktlog.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "tests" / "plugin_ruleset"
NAME = "example-skirmish"


def install(project: Path, site: Path) -> None:
    """What an installer leaves in `site` for `project`: its packages and a dist-info with its
    metadata and entry points."""
    meta = tomllib.loads((project / "pyproject.toml").read_text())["project"]
    for package in tomllib.loads((project / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]:
        shutil.copytree(project / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    groups = meta.get("entry-points", {})
    (info / "entry_points.txt").write_text("".join(f"[{g}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) for g, eps in groups.items()))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site-packages")
    install(PROJECT, site)
    return site


@pytest.fixture
def installed(site, monkeypatch):
    """The package on this process's path and its rulesets registered, as they are when ktlog is
    imported with it installed (load_entry_points is what the registry runs at import)."""
    monkeypatch.syspath_prepend(str(site))
    (ruleset,) = load_entry_points()
    yield ruleset
    del RULESETS[ruleset.name]
    for name, cls in list(EVENT_TYPES.items()):  # its own event type, its rule handler and its words
        if cls.__module__.startswith("ktlog_example_ruleset"):
            del EVENT_TYPES[name], HANDLERS[cls], WORDS[cls]
    for module in [m for m in sys.modules if m.startswith("ktlog_example_ruleset")]:
        del sys.modules[module]


def ktlog(site: Path, db: Path, *args: str, code: int = 0, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`ktlog --db DB ARGS` in a process of its own with the package installed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KTLOG_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    result = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), *args], input=stdin, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == code, f"{args} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result


def test_ktlog_simulate_stores_the_installed_ruleset(site, tmp_path, installed):
    db = tmp_path / "sim.db"
    ktlog(site, db, "simulate", "--games", "3", "--seed", "7", "--ruleset", NAME)
    games = json.loads(ktlog(site, db, "games", "--json").stdout)
    assert [g["ruleset"] for g in games] == [NAME] * 3
    claimed = []
    with Store(db) as store:
        for game in store.games():
            state = store.state(game.id)
            assert state.ruleset == NAME and state.phase == "over"
            assert len(state.markers) == 1 and state.crit_op == "Secure"  # its own rules, not Preliminary Ops'
            if state.result.ended_by == "battle":
                assert state.turning_point == 3
            claims = [e.payload for e in store.events(game.id) if e.type == "SupplyCacheClaimed"]  # its own event, stored and read back
            assert all(p.vp["cache"] <= 2 for p in state.players.values())  # its own op, within its cap
            assert sum(p.vp["cache"] for p in state.players.values()) == sum(c.reward == "vp" for c in claims)
            claimed += [(game.id, c.player) for c in claims]
    assert claimed, "the simulator claims the supply cache now and then"
    game_id, player = claimed[0]
    assert f"{player} claims the supply cache: 1" in ktlog(site, db, "log", game_id[:8]).stdout  # its own words


SET_UP = """\
RolledOff purpose=setup rolls=Alice:5,Bob:2
InitiativeDecided player=Alice
ObjectiveMarkerSetUp marker=centre player=Bob
CritOpRolled roll=2
DropZoneChosen player=Alice drop_zone=A
DropZoneChosen player=Bob drop_zone=B
EquipmentSelected player=Alice
EquipmentSelected player=Bob
OperativeSetUp operative=sergeant
OperativeSetUp operative=legionary-1
OperativeSetUp operative=gunner-grenade
OperativeSetUp operative=legionary-2
"""


def test_ktlog_new_and_event_lines_play_it_by_its_rules(site, tmp_path):
    db = tmp_path / "typed.db"
    new = ktlog(
        site,
        db,
        "new",
        "--ruleset",
        NAME,
        "--killzone",
        "volkus",
        "--player",
        "Alice=kasrkin:sergeant,gunner-grenade",
        "--player",
        "Bob=legionaries:legionary-1,legionary-2",
    )
    game = new.stdout.strip()
    assert "created Example Skirmish game" in new.stderr
    refused = ktlog(
        site, db, "event", game[:8], "--file", "-", stdin=SET_UP.replace("CritOpRolled", "ObjectiveMarkerSetUp marker=north player=Alice\nCritOpRolled"), code=1
    )
    assert "marker" in refused.stderr and "Traceback" not in refused.stderr  # one marker only, all or none
    first_tp = "TurningPointStarted turning_point=1\nRolledOff purpose=initiative rolls=Alice:4,Bob:3\nInitiativeDecided player=Alice\n"
    out = ktlog(site, db, "event", game[:8], "--file", "-", stdin=SET_UP + first_tp).stdout
    assert "next:" in out and "Alice" in out
    score = json.loads(ktlog(site, db, "score", game[:8], "--json").stdout)
    assert score["ruleset"] == NAME, score
    claim = ("SupplyCacheClaimed", "player=Alice", "reward=vp")  # its own event, typed: nobody has secured the centre marker
    refused = ktlog(site, db, "event", game[:8], *claim, code=1)
    assert "secured the centre marker (nobody has), not Alice" in refused.stderr and "Example Skirmish: the supply cache" in refused.stderr
    ktlog(site, db, "event", game[:8], *claim, "--override", "a house ruling: the centre was held")
    alice = next(p for p in json.loads(ktlog(site, db, "score", game[:8], "--json").stdout)["players"] if p["name"] == "Alice")
    assert alice["vp"]["cache"] == 1 and alice["scored"][-1]["reason"] == "the supply cache"  # its scoring effect
    assert "Alice claims the supply cache: 1VP" in ktlog(site, db, "log", game[:8]).stdout
    again = ktlog(site, db, "event", game[:8], "SupplyCacheClaimed", "player=Alice", "reward=cp", "--override", "again", code=1)
    assert "already claimed the supply cache this turning point" in again.stderr  # no override sets that aside


def test_a_game_file_of_it_imports_and_exports_its_own_event(site, tmp_path):
    db, folder = tmp_path / "file.db", tmp_path / "files"
    folder.mkdir()
    header = f"ruleset: {NAME}\nkillzone: volkus\ndate: 2026-11-21\nplayer: Alice=kasrkin:sergeant,gunner-grenade\nplayer: Bob=legionaries:legionary-1,legionary-2\n\n"
    claim = 'SupplyCacheClaimed player=Bob reward=cp override="a house ruling"\n'
    (folder / "skirmish.ktgame").write_text(header + SET_UP + "TurningPointStarted turning_point=1\n" + claim)
    ktlog(site, db, "import", str(folder / "skirmish.ktgame"))
    (game,) = json.loads(ktlog(site, db, "games", "--json").stdout)
    bob = next(p for p in json.loads(ktlog(site, db, "score", game["id"][:8], "--json").stdout)["players"] if p["name"] == "Bob")
    assert bob["cp"] == 3  # the set-up's 2CP and the cache's 1CP (pg 110; its own rule)
    ktlog(site, db, "export", game["id"][:8], "-o", str(folder / "again.ktgame"))
    assert "SupplyCacheClaimed player=Bob reward=cp 'override=a house ruling'" in (folder / "again.ktgame").read_text().splitlines()
    ktlog(site, db, "export", game["id"][:8], "-o", str(folder / "skirmish.jsonl"))  # the game-log file, its event in the envelope
    schemas = tmp_path / "schemas"  # the JSON Schemas of every type registered: its own too
    env = {k: v for k, v in os.environ.items() if not k.startswith("KTLOG_")} | {"PYTHONPATH": str(site)}
    subprocess.run([sys.executable, "-m", "ktlog.files.schemas", "--installed", str(schemas)], env=env, check=True, capture_output=True)
    own = json.loads((schemas / "events" / "SupplyCacheClaimed.json").read_text())
    assert (
        own["$defs"]["SupplyCacheClaimed"]["properties"]["reward"] == {"enum": ["cp", "vp"]} and not (SCHEMAS / "events" / "SupplyCacheClaimed.json").exists()
    )
    game_log = json.loads((schemas / "game-log.json").read_text())
    lines = [json.loads(line) for line in (folder / "skirmish.jsonl").read_text().splitlines()]
    jsonschema.validators.validator_for(game_log)(game_log).validate(lines)
    lines[-1]["payload"]["reward"] = "gold"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(game_log)(game_log).validate(lines)


@pytest.mark.tui
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_the_tui_starts_a_new_game_of_it_and_records_the_set_up(store, installed, size):
    from ktlog.tui.app import make_app

    async with make_app(store, screen="new").run_test(size=size) as pilot:
        pilot.app.screen.query_one("#ruleset", Select).value = NAME
        await pilot.pause()
        for i in (1, 2):
            field = pilot.app.screen.query_one(f"#file-{i}", Input)
            field.focus()
            field.value = str(TINY)
            await press(pilot, "enter")
        await press(pilot, "ctrl+s")
        assert type(pilot.app.screen).__name__ == "RecordScreen"  # its set-up step by step: not the three-marker form
        await press(pilot, "o", "6", "1", "enter", "1")  # roll-off: Alice wins, keeps initiative
        await press(pilot, "m", "enter")  # the one marker
        assert not pilot.app.screen.steps.legal("marker")
        await press(pilot, "k", "2")  # crit op: the D3's 2 is Secure here
        await press(pilot, "z", "enter", "z", "enter")  # drop zones A then B
        await press(pilot, "q", "1", "enter", "q", "enter", "U")  # no equipment; every operative set up
        assert pilot.app.screen.steps.legal("start_tp")
    (game,) = store.games()
    state = store.state(game.id)
    assert game.ruleset == NAME and state.crit_op == "Secure" and list(state.markers) == ["centre"]
    assert all(o.set_up for o in state.operatives.values())


def cache_game(db: Path) -> str:
    """A game of it in turning point 2 in which Alice has just secured the centre marker (so she
    may claim the supply cache), Bob to activate; stored in `db`."""
    g = GameBuilder(ruleset=NAME, killzone="volkus", date="2026-11-21")
    g.player("Alice", load_roster(TINY))
    g.player("Bob", load_roster(TINY))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, markers=[("centre", "Bob")])
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    next_turning_point(g)
    g.activate("trooper-1", "engage", secure("centre"))
    with Store(db) as store:
        return store.new_game(g.events[0], g.events[1:])


def test_a_seat_asks_and_records_its_own_event_and_serve_shows_it(tmp_path, installed):
    from ktlog.web.app import make_app

    db = tmp_path / "seats.db"
    game = cache_game(db)
    with Store(db) as store:
        tokens = {p: seats.issue(store, game, p) for p in ("Alice", "Bob")}
    auth = {p: {"authorization": f"Bearer {t}"} for p, t in tokens.items()}
    with TestClient(make_app(db, seats=True), base_url="http://127.0.0.1:8787") as client:
        view = client.get(f"/api/games/{game}/seat", headers=auth["Alice"]).json()
        (cache,) = [m for m in view["moves"] if m["kind"] == "supply_cache"]  # its own kind, asked from its moves module
        assert cache["event"] == "SupplyCacheClaimed" and cache["fixed"] == {"player": "Alice"}
        (reward,) = cache["questions"]
        assert reward["field"] == "reward" and [c["value"] for c in reward["choices"]] == ["vp", "cp"]
        bob = client.get(f"/api/games/{game}/seat", headers=auth["Bob"]).json()
        assert not any(m["kind"] == "supply_cache" for m in bob["moves"])  # he secured nothing: the rules refuse his claim
        r = client.post(
            f"/api/games/{game}/events", json={"event": "SupplyCacheClaimed", "answers": [["player", "Alice"], ["reward", "vp"]]}, headers=auth["Alice"]
        )
        assert r.status_code == 201, r.json()
        view = client.get(f"/api/games/{game}/seat", headers=auth["Alice"]).json()
        assert view["log"][-1]["text"] == "Alice claims the supply cache: 1VP" and view["log"][-1]["by"] == "Alice"
        alice = next(p for p in view["state"]["players"] if p["name"] == "Alice")
        assert alice["vp"]["cache"] == 1
        again = client.post(f"/api/games/{game}/events", json={"line": "SupplyCacheClaimed player=Alice reward=cp"}, headers=auth["Alice"])
        assert again.status_code == 422 and "already claimed the supply cache this turning point" in again.json()["error"]
        rows = client.get(f"/api/games/{game}/log").json()  # what a spectator's page shows
        assert rows[-1]["type"] == "SupplyCacheClaimed" and rows[-1]["text"] == "Alice claims the supply cache: 1VP"
        score = client.get(f"/api/games/{game}/score").json()
        assert next(p for p in score["players"] if p["name"] == "Alice")["vp"]["cache"] == 1
        assert client.get(f"/games/{game}").status_code == 200


RECORD_SCREEN = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
from tui_support import message, press, screen_strips
from ktlog.storage.store import Store
from ktlog.tui.app import make_app

async def main(db, game, width, height, *keys):
    with Store(db) as store:
        async with make_app(store, screen="record", game_id=game).run_test(size=(int(width), int(height))) as pilot:
            await press(pilot, *keys)
            lines = [strip.text for strip in screen_strips(pilot.app.screen)]
            print(json.dumps({"message": message(pilot.app), "screen": lines}))

asyncio.run(main(*sys.argv[2:]))
"""
"""The record screen in a process of its own, the package installed as for a user (its kinds of
move are bound to keys when ktlog's TUI is imported): keys pressed, then what it shows."""


@pytest.mark.tui
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_tui_asks_and_records_its_own_event(site, tmp_path, installed, size):
    db = tmp_path / "tui.db"
    game = cache_game(db)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KTLOG_")} | {"PYTHONPATH": str(site)}
    keys = ["Y", "c"]  # the supply cache; its question: 1CP (c) rather than 1VP (v)
    run = subprocess.run(
        [sys.executable, "-c", RECORD_SCREEN, str(ROOT / "tests"), str(db), game, *map(str, size), *keys], env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    shown = json.loads(run.stdout.splitlines()[-1])
    assert "Alice claims the supply cache: 1CP" in shown["message"]
    assert any("Alice claims the supply cache: 1CP" in line for line in shown["screen"]), shown["screen"]  # the event log's row
    with Store(db) as store:
        (last,) = store.events(game)[-1:]
        state = store.state(game)
    assert last.type == "SupplyCacheClaimed" and (last.payload.player, last.payload.reward) == ("Alice", "cp")
    assert state.players["Alice"].used_this_tp == ["supply cache"] and state.cp_log[-1].source == "the supply cache"


@pytest.mark.browser
def test_a_phone_taps_its_own_event_and_a_spectator_sees_it(tmp_path, installed, contexts):
    """The seat page in headless Chromium (a phone), `ktlog serve --seats` in this process."""
    from playwright import sync_api
    from web_server import running

    db = tmp_path / "phone.db"
    game = cache_game(db)
    with Store(db) as store:
        token = seats.issue(store, game, "Alice")
    phone = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
    with running(db, seats=True) as base:
        alice = contexts(**phone).pages[0]
        watching = contexts().pages[0]
        alice.goto(f"{base}/seat/{game}#{token}")
        watching.goto(f"{base}/games/{game}")
        alice.locator(".move[data-kind=supply_cache]").tap()  # its own kind of move, labelled as its Kind
        sync_api.expect(alice.locator("#form-body .step .choice")).to_have_count(2)  # its question: 1VP or 1CP
        alice.locator("#form-body .step .choice[data-value='vp']").tap()  # its last choice: recorded
        sync_api.expect(alice.locator("#log li").first).to_contain_text("Alice claims the supply cache: 1VP")
        sync_api.expect(watching.get_by_text("Alice claims the supply cache: 1VP")).to_be_visible(timeout=5000)  # pushed to a viewer
    with Store(db) as store:
        assert store.state(game).players["Alice"].vp["cache"] == 1


def test_ktlog_serve_shows_its_games(site, tmp_path, installed):
    from ktlog.web.app import make_app

    db = tmp_path / "web.db"
    ktlog(site, db, "simulate", "--games", "1", "--seed", "2", "--ruleset", NAME)
    with Store(db) as store:
        (game,) = store.games()
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as client:
        for url in ("/", f"/games/{game.id}", f"/games/{game.id}/replay"):
            assert client.get(url).status_code == 200, url
        page = client.get(f"/games/{game.id}").text
        shown = json.loads(page.split('id="ktlog-state">')[1].split("</script>")[0])  # what the page's script draws
        assert shown["ruleset"] == NAME and [m["id"] for m in shown["markers"]] == ["centre"]
        view = client.get(f"/api/games/{game.id}").json()
        assert view["ruleset"] == NAME and view["phase"] == "over"
        assert client.get(f"/api/games/{game.id}/score").status_code == 200


# --- a bad entry point fails loudly ---------------------------------------------------------------


BAD = {
    "import": ('broken = "ktlog_bad_ruleset.missing:RULESET"', "cannot be loaded (ModuleNotFoundError"),
    "type": ('notaruleset = "ktlog_bad_ruleset:NOT_A_RULESET"', "names 'text', not a Ruleset instance"),
    "duplicate": ('again = "ktlog_bad_ruleset:AGAIN"', "two rulesets are called 'kt24-preliminary'"),
}


@pytest.fixture
def bad_site(tmp_path) -> Path:
    package = tmp_path / "project" / "ktlog_bad_ruleset"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from ktlog.rulesets.preliminary.rules import PreliminaryOps\n\nNOT_A_RULESET = 'text'\nAGAIN = PreliminaryOps()\n")
    return tmp_path


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_entry_point_names_itself_and_its_package(bad_site, monkeypatch, kind):
    entry, message = BAD[kind]
    project, site = bad_site / "project", bad_site / "site"
    site.mkdir()
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "ktlog-bad-ruleset"\nversion = "0.2.0"\n\n[project.entry-points."ktlog.rulesets"]\n{entry}\n\n[tool.setuptools]\npackages = ["ktlog_bad_ruleset"]\n'
    )
    install(project, site)
    monkeypatch.syspath_prepend(str(site))
    (dist,) = distributions(path=[str(site)])
    (point,) = dist.entry_points
    with pytest.raises(RegistryError) as refused:
        load_entry_point(point)
    assert message in str(refused.value)
    assert f"the ruleset entry point {point.name!r}" in str(refused.value) and "ktlog-bad-ruleset 0.2.0" in str(refused.value)
    assert "pip uninstall ktlog-bad-ruleset" in str(refused.value)
    assert list(RULESETS) == ["kt24-preliminary", "kt24-approved", "kt24-multiplayer", "kt24-joint", "kt21"]
    sys.modules.pop("ktlog_bad_ruleset", None)
    if kind == "duplicate":  # and any command says so in one line, not a traceback
        failed = ktlog(site, bad_site / "x.db", "games", code=1)
        assert failed.stderr.count("\n") == 1 and message in failed.stderr and "Traceback" not in failed.stderr


# --- found without importlib.metadata when no package offers one -----------------------------------


def test_a_package_offering_a_ruleset_is_seen_on_the_path(site, tmp_path, monkeypatch):
    # importlib.metadata (30-50 ms of start-up) is loaded only when a package may offer a ruleset.
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(tmp_path)])
    other = tmp_path / "other_package-1.0.dist-info"
    other.mkdir()
    (other / "entry_points.txt").write_text("[console_scripts]\nother = other_package:main\n")
    (tmp_path / "no_entry_points-2.0.DIST-INFO").mkdir()
    assert not group_on_path()
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(site)])
    assert group_on_path()
    monkeypatch.setattr(sys, "path", [tmp_path, site])  # Paths, as some tools put them
    assert group_on_path()
    old = tmp_path / "old_package.egg-info"
    old.mkdir()
    (old / "entry_points.txt").write_text("[ktlog.rulesets]\nold = old_package.rules:RULESET\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert group_on_path()
    monkeypatch.setattr(sys, "path", [str(tmp_path / "zipped.egg")])  # left to importlib.metadata
    assert group_on_path()


def test_importlib_metadata_is_not_loaded_when_no_package_offers_a_ruleset(site):
    code = "import sys, ktlog.rulesets as r; print(r.group_on_path(), 'importlib.metadata' in sys.modules, sorted(r.RULESETS))"
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert alone.startswith("False False ") and NAME not in alone
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]))
    installed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert installed.startswith("True True ") and NAME in installed
