"""Only SQLite opens the database (issue 38 #1): a process holding SQLite connections that opens
and closes the same file any other way drops every POSIX lock it holds on it, and the next program
to close the file then deletes the write-ahead log under it. An audit hook
(tests/one_opener/sitecustomize.py) watches every open of the database's files in a server, the
commands and a terminal UI session, and in the processes they start; SQLite's own opens are made
in C and raise no audit event, so anything it logs is an open that is not SQLite's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from tui_support import tiny_game

from ktlog.data import SAMPLE_GAMES
from ktlog.play import seats
from ktlog.storage.store import Store

HERE = Path(__file__).resolve().parent
SAMPLE = "334f"
"""A sample game: 01_secure_kasrkin_vs_legionaries."""


@pytest.fixture
def table(tmp_path):
    """A database with the sample games, a game in progress with two seats, and the environment
    that watches its files (an empty HOME, the audit hook on PYTHONPATH)."""
    db = tmp_path / "league.db"
    with Store(db) as store:
        game = tiny_game(store)
        tokens = {p: seats.issue(store, game, p) for p in ("Alice", "Bob")}
    log = tmp_path / "opens.log"
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE / "one_opener"), os.environ.get("PYTHONPATH", "")]),
        "KTLOG_WATCHED_DB": str(db),
        "KTLOG_OPENS_LOG": str(log),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
    ktlog = [sys.executable, "-m", "ktlog", "--db", str(db)]
    subprocess.run([*ktlog, "import", *map(str, sorted(SAMPLE_GAMES.glob("*.jsonl")))], env=env, check=True, capture_output=True)
    return db, game, tokens, env, ktlog, log


def opens(log: Path) -> str:
    return log.read_text() if log.exists() else ""


def test_the_hook_sees_an_open_that_is_not_sqlites(table):
    """The watch itself: a plain `open()` of the database in a process is logged with its stack."""
    db, _, _, env, _, log = table
    subprocess.run([sys.executable, "-c", f"open({str(db)!r}, 'rb').close()"], env=env, check=True)
    assert f"opened {db}" in opens(log)


def commands(tmp_path: Path, db: Path, game: str) -> list[tuple[str, ...]]:
    """Every command of `ktlog --help` that reads or writes the database, as a user runs it."""
    out = tmp_path / "out"
    out.mkdir()
    tiny = game[:8]
    return [
        ("games",),
        ("show", SAMPLE, "--tp", "2"),
        ("log", SAMPLE),
        ("score", SAMPLE),
        ("export", SAMPLE, "-o", str(out / "game.jsonl")),
        ("import", str(out / "game.jsonl")),
        ("import", str(db), f"{db}-wal", f"{db}-shm"),
        ("demo",),
        ("verify",),
        ("rebuild",),
        ("simulate", "--games", "1", "--seed", "3"),
        ("new", "--killzone", "volkus", "--player", "Ann=kasrkin", "--player", "Bea=legionaries"),
        ("event", tiny, "Annotation", "target=1", "text=a note"),
        ("undo", tiny),
        ("annotate", tiny, "1", "another note"),
        ("correct", tiny, "23", "RolledOff", "purpose=initiative", "rolls=Alice:5,Bob:3"),
        ("dispute", tiny, "24", "--reason", "the dice rolled off the table"),
        ("seat", tiny, "Alice", "--json"),
        ("analyse", SAMPLE),
        ("analyse", "fit", "--simulated"),
        *[("stats", name) for name in ("standings", "results", "players", "teams", "matchups", "curves", "ops", "dice", "elo", "moments")],
        ("stats", "standings", "--signed-by-both"),
        ("stats", "results", "--format", "csv", "-o", str(out / "results.csv")),
        ("dataset", "export", str(out / "dataset")),
        ("chart", "teams", "-o", str(out / "teams.svg")),
        ("report", SAMPLE, "-o", str(out / "report.html")),
        ("roster", "list"),
        ("roster", "show", "kasrkin"),
        ("tournament", "new", "Spring"),
        ("tournament", "add", "Spring", "Ann", "Bea", "Cid", "Dee"),
        ("tournament", "pair", "Spring", "--seed", "7"),
        ("tournament", "standings", "Spring"),
        ("tournament", "results", "Spring"),
        ("key", "new", "Alice"),
        ("key", "list"),
        ("export", SAMPLE, "--sign", "-o", str(out / "signed.jsonl")),
        ("player", "list"),
        ("player", "club", "Bunker"),
    ]


def test_no_command_opens_the_database_but_through_sqlite(table, tmp_path):
    db, game, _, env, ktlog, log = table
    ran = []
    for args in commands(tmp_path, db, game):
        done = subprocess.run([*ktlog, *args], env=env, capture_output=True, text=True, timeout=300)
        assert "Traceback" not in done.stderr and "bug in ktlog" not in done.stderr, (args, done.stderr)
        ran.append((args[0], done.returncode))
    assert opens(log) == "", opens(log)
    assert sum(rc == 0 for _, rc in ran) >= len(ran) - 2, ran  # the import of the database's own files is refused, as it should be


def test_no_route_of_the_server_opens_the_database_but_through_sqlite(table):
    """Every GET route, the league page (whose statistics run in a process of their own), the seat's
    writes, and a command closing the file while the server holds its connections."""
    db, game, tokens, env, ktlog, log = table
    from table_soak import Table

    server = Table(db, game, tokens, env)
    server.start()
    try:
        base = server.base
        alice = {"authorization": f"Bearer {tokens['Alice']}"}
        gets = [
            "/",
            f"/games/{game}",
            f"/games/{game}/overlay",
            f"/games/{game}/replay",
            "/league",
            "/league?player=Alice",
            "/api/games",
            f"/api/games/{game}",
            f"/api/games/{game}/score",
            f"/api/games/{game}/log",
            f"/api/games/{game}/chance",
            f"/seat/{game}",
            "/tournaments/",
            "/static/ktlog.css",
        ]
        for path in gets:
            assert httpx.get(base + path, timeout=60).status_code < 500, path
        assert httpx.get(f"{base}/api/games/{game}/seat", headers=alice, timeout=30).status_code == 200
        written = httpx.post(f"{base}/api/games/{game}/events", headers=alice, json={"line": 'Annotation target=1 text="from a phone"'}, timeout=30)
        assert written.status_code == 201, written.text
        subprocess.run([*ktlog, "log", game[:8]], env=env, check=True, capture_output=True)
        assert server.unlinked() == []
        assert httpx.get(f"{base}/api/games/{game}/log", timeout=30).status_code == 200
    finally:
        server.stop()
    assert opens(log) == "", opens(log)


TUI_SESSION = """
import asyncio, sys
from ktlog.play.database import Store
from ktlog.tui.app import make_app

async def main():
    store = Store(sys.argv[1], create=False)
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.3)
        app.open_record(sys.argv[2])
        await pilot.pause(0.3)
        await pilot.press("n")  # a note on the latest event
        await pilot.pause(0.2)
        await pilot.press(*"from the table", "enter")
        await pilot.pause(0.3)
        app.open_replay(store.resolve(sys.argv[3]))
        await pilot.pause(0.3)
        await pilot.press("right", "right", "end")
        app.open_league()
        for _ in range(100):  # the league's tables are read in a worker thread
            await pilot.pause(0.1)
            if app.screen.shown is not None:
                break
        assert app.screen.shown is not None, "the league was not read"
    store.close()
    print("tui ok")

asyncio.run(main())
"""


def test_a_tui_session_opens_the_database_only_through_sqlite(table):
    """The record screen with a note, the replay, the league (its statistics read beside the
    store's connection: through sqlite3, never ADBC's own SQLite)."""
    db, game, _, env, ktlog, log = table
    done = subprocess.run([sys.executable, "-c", TUI_SESSION, str(db), game, SAMPLE], env=env, capture_output=True, text=True, timeout=300)
    assert "tui ok" in done.stdout, done.stderr[-3000:]
    assert opens(log) == "", opens(log)


def test_the_statistics_read_beside_a_held_connection_through_sqlite(tmp_path, monkeypatch):
    """A process holding the store (the TUI, `ktlog report`) reads the league through its own
    SQLite, never ADBC's, and gets the same frames; one holding nothing reads through ADBC."""
    import adbc_driver_sqlite as adbc

    from ktlog.analytics.league import League
    from ktlog.analytics.standings import standings

    db = tmp_path / "league.db"
    with Store(db) as store:
        for path in sorted(SAMPLE_GAMES.glob("0[1-4]*.jsonl")):
            from ktlog.play.importer import import_file

            import_file(store, path)
    free = standings(League(db))
    connect = adbc.connect
    adbc_calls = []
    monkeypatch.setattr(adbc, "connect", lambda *a, **k: adbc_calls.append(a) or connect(*a, **k))
    with Store(db):
        held = standings(League(db))
    assert adbc_calls == []
    assert held.equals(free)
    standings(League(db))
    assert adbc_calls, "with nothing held, the statistics read through ADBC"


HOLDER = """
import os, sys
from pathlib import Path
from ktlog.storage.store import Store
from ktlog.analytics.league import League, Filters

store = Store(sys.argv[1], create=False)
League(Path(sys.argv[1]), Filters(simulated=True)).games
print("ready", flush=True)
sys.stdin.readline()
names = []
for fd in os.listdir("/proc/self/fd"):
    try:
        names.append(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        pass
print(" ".join(n for n in names if "league.db" in n))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads the process's open files from /proc")
def test_a_held_wal_survives_the_statistics_and_another_program_closing(tmp_path):
    """The harm itself: a process holding a connection reads the statistics, another program
    opens and closes the file, and the holder's write-ahead log is still the file's."""
    db = tmp_path / "league.db"
    with Store(db) as store:
        tiny_game(store)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "ready"
    subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "games"], check=True, capture_output=True)
    out, _ = holder.communicate("\n", timeout=60)
    assert "league.db-wal" in out and "(deleted)" not in out, out
