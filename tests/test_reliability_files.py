"""Wrong files: a file that is not a ktlog database, an empty file, a read-only database, a full
disk. Each gives a clear message; nothing recorded before is lost, and a file that is not
ktlog's is left exactly as it was."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, game

from ktlog.cli import cli
from ktlog.errors import StoreError
from ktlog.files.gamelog import export_lines, write_game_log
from ktlog.play.builder import shoot
from ktlog.play.simulate import simulate_games
from ktlog.play.verify import verify
from ktlog.reducer import fold
from ktlog.storage import dbfile
from ktlog.storage.store import Store


def ktlog(db: Path, *args):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


def recorded(db: Path):
    """A database holding one game with a kill; returns the game's id and builder."""
    g = game(3, 3)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"))
    with Store(db) as store:
        return store.new_game(g.events[0], g.events[1:]), g


def intact(db: Path, game_id: str, g) -> None:
    """Every event recorded before is there, and the game folds to the same state."""
    with Store(db) as store:
        assert [e.payload for e in store.events(game_id)] == g.events
        assert store.state(game_id) == g.state
        assert all(v.ok for v in verify(store))


# --- not a ktlog database ---------------------------------------------------------------------


def a_game_log(path: Path) -> None:
    game_id, _ = recorded(path.with_suffix(".source.db"))
    with Store(path.with_suffix(".source.db")) as store:
        write_game_log(path, export_lines(store, game_id))


def another_programs_database(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE contacts (name TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Alice')")
        conn.commit()


def a_ktlog_database_cut_short(path: Path) -> None:
    source = path.with_suffix(".whole.db")
    recorded(source)
    path.write_bytes(source.read_bytes()[:8192])


WRONG = {
    "a game-log file": (a_game_log, "is not a SQLite database (it may be a game-log file: use `ktlog import`)"),
    "a text file": (lambda p: p.write_text("Kill Team night: Alice 14, Bob 9\n"), "is not a SQLite database"),
    "a picture": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4), "is not a SQLite database"),
    "another program's database": (another_programs_database, "is a SQLite database but not a ktlog one (it has tables contacts)"),
    "a ktlog database cut short": (a_ktlog_database_cut_short, "the file is damaged (database disk image is malformed); it may have been cut short"),
}
"""How to make the wrong file, and what the refusal says."""


@pytest.mark.parametrize("make", WRONG.values(), ids=WRONG.keys())
@pytest.mark.parametrize("command", [["games"], ["verify"], ["import", "game.jsonl"]], ids=["games", "verify", "import"])
def test_a_file_that_is_not_a_ktlog_database_is_refused_and_left_as_it_was(tmp_path, make, command, figures):
    build, message = make
    db = tmp_path / "league.db"
    build(db)
    (tmp_path / "game.jsonl").write_text("{}\n")
    before = db.read_bytes()
    result = ktlog(db, *[str(tmp_path / c) if c.endswith(".jsonl") else c for c in command])
    assert result.exit_code == 1
    assert str(db) in result.stderr and message in result.stderr, result.stderr
    assert db.read_bytes() == before  # not even switched to WAL mode
    if build is not a_ktlog_database_cut_short:  # reading any WAL-mode database makes its -wal and -shm
        assert sorted(p.name for p in tmp_path.glob("league.db*")) == ["league.db"]
    figures["wrong files: refused with a clear message"] += 1


def test_an_empty_file_is_a_new_database_and_an_empty_game_log_is_refused(tmp_path, figures):
    db, empty_log = tmp_path / "touched.db", tmp_path / "empty.jsonl"
    db.touch()
    empty_log.touch()
    read = ktlog(db, "games")  # a command that only reads leaves it alone (issue 16 #11) ...
    assert read.exit_code == 1 and "is an empty file, not a ktlog database" in read.stderr and db.stat().st_size == 0
    refused = ktlog(db, "import", empty_log)  # ... one that records makes it a database
    assert refused.exit_code == 1 and f"{empty_log}, line 1: the file is empty" in refused.stderr
    game_id, g = recorded(db)
    intact(db, game_id, g)
    figures["wrong files: refused with a clear message"] += 1


def test_a_directory_is_refused(tmp_path):
    result = ktlog(tmp_path, "games")
    assert result.exit_code == 2 and "is a directory" in result.stderr


# --- read-only ---------------------------------------------------------------------------------

RUN_COMMANDS = """
import json, sys
from click.testing import CliRunner
from ktlog.cli import cli
print(json.dumps([(r.exit_code, r.stdout, r.stderr) for r in (CliRunner().invoke(cli, a) for a in json.loads(sys.argv[1]))]))
"""


def without_root_powers() -> None:
    """In the child, before exec: give up the capabilities that let root write any file
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER), so that chmod binds it too."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2, 3):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def as_an_ordinary_user(*commands: list) -> list[tuple[int, str, str]]:
    """Run ktlog commands in one process that file permissions bind, even when the tests run as
    root (which chmod does not stop): skip if that cannot be arranged."""
    root = os.geteuid() == 0
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUN_COMMANDS, json.dumps([list(map(str, c)) for c in commands])],
            preexec_fn=without_root_powers if root else None,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            check=False,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"running as root and cannot give up CAP_DAC_OVERRIDE ({exc}), so chmod cannot make a file read-only")
    assert done.returncode == 0, done.stderr
    return [tuple(r) for r in json.loads(done.stdout)]


def test_a_read_only_database_is_read_and_never_written(tmp_path, figures):
    db = tmp_path / "league.db"
    game_id, g = recorded(db)
    other = tmp_path / "other.jsonl"
    a_game_log(other)
    db.chmod(0o444)
    try:
        score, export, verified, annotate, undo, imported = as_an_ordinary_user(
            ["--db", db, "score", game_id[:8]],
            ["--db", db, "export", game_id[:8]],
            ["--db", db, "verify"],
            ["--db", db, "annotate", game_id[:8], 3, "a note"],
            ["--db", db, "undo", game_id[:8]],
            ["--db", db, "import", other],
        )
    finally:
        db.chmod(0o644)
    assert score[0] == 0 and "Alice" in score[1]
    assert export[0] == 0 and len(export[1].splitlines()) == len(g.events) + 1
    assert verified[0] == 0 and "the 1 game verified" in verified[1]  # its verdicts are not kept, that is all
    refusal = f"{db} is read-only; nothing was recorded. Make the file writable or choose another with --db"
    for status, _, err in (annotate, undo, imported):
        assert status == 1 and refusal in err, err
        assert "Traceback" not in err and "a bug in ktlog" not in err
    intact(db, game_id, g)
    figures["wrong files: read-only refusals with a clear message"] += 3


def test_a_database_in_a_read_only_folder_says_so(tmp_path, figures):
    folder = tmp_path / "readonly"
    folder.mkdir()
    db = folder / "league.db"
    game_id, g = recorded(db)
    folder.chmod(0o555)
    try:
        sample = next((ROOT / "ktlog" / "data" / "samples").glob("01*.jsonl"))  # a new database there: only a command that records makes one
        results = as_an_ordinary_user(["--db", db, "games"], ["--db", db, "annotate", game_id[:8], 3, "a note"], ["--db", folder / "new.db", "import", sample])
    finally:
        folder.chmod(0o755)
    (listed, out, _), (annotated, _, refused), (created, _, no_folder) = results
    assert listed == 0 and game_id[:8] in out  # read where it lies (issue 24 #25), never written
    assert annotated == 1 and f"{db} is read-only; nothing was recorded" in refused, refused
    assert created == 1 and f"its folder {folder} is read-only" in no_folder and "make the folder writable" in no_folder, no_folder
    intact(db, game_id, g)
    figures["wrong files: read-only refusals with a clear message"] += len(results)


# --- full disk ----------------------------------------------------------------------------------


def limit_size(conn: sqlite3.Connection, spare_pages: int) -> None:
    """Simulate a nearly full disk: the database may grow by `spare_pages` pages at most."""
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")


def test_recording_on_a_full_disk_loses_nothing_and_resumes_when_there_is_room(tmp_path, figures):
    db = tmp_path / "league.db"
    ((game_id, g),) = simulate_games(1, 5)
    with Store(db) as store:
        store.new_game(g.events[0], g.events[1:40], game_id=game_id)
        limit_size(store.conn, 3)
        with pytest.raises(StoreError, match=f"the disk holding {db} is full; nothing was recorded. Free some space and try again"):
            for event in g.events[40:]:
                store.append(game_id, event)
        head = store.game(game_id).head_seq
        assert 40 < head < len(g.events)
    with Store(db) as store:  # room again (the limit was the connection's)
        assert [e.payload for e in store.events(game_id)] == g.events[:head]
        assert store.state(game_id) == fold(g.events[:head])
        assert [v.ok for v in verify(store)] == [True]
        for event in g.events[head:]:
            store.append(game_id, event)
        assert store.state(game_id) == g.state
    figures["wrong files: full-disk refusals, nothing lost"] += 1


def test_importing_onto_a_full_disk_is_refused_whole(tmp_path, monkeypatch, figures):
    db, big = tmp_path / "league.db", tmp_path / "big.jsonl"
    game_id, g = recorded(db)
    ((other_id, other),) = simulate_games(1, 6)
    with Store(tmp_path / "table.db") as table:
        table.new_game(other.events[0], other.events[1:], game_id=other_id)
        write_game_log(big, export_lines(table, other_id))
    with contextlib.closing(sqlite3.connect(db)) as conn:
        before = list(conn.iterdump())

    connect = dbfile._connect

    def nearly_full(*args):
        conn = connect(*args)
        limit_size(conn, 2)
        return conn

    monkeypatch.setattr(dbfile, "_connect", nearly_full)
    result = ktlog(db, "import", big)
    assert result.exit_code == 1
    assert f"{big}: the disk holding {db} is full; nothing was recorded. Free some space and try again. Nothing from this file was imported" in result.stderr
    monkeypatch.undo()
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert list(conn.iterdump()) == before
    intact(db, game_id, g)
    figures["wrong files: full-disk refusals, nothing lost"] += 1
