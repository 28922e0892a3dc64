"""The smaller findings of issue 38 on the table's surfaces (the seat API, the commands, the
statistics, the files a user is given): each a sentence and the right status, nothing written on
error, each test failing before its fix."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from tui_support import tiny_game

from ktlog.cli import cli
from ktlog.play import seats
from ktlog.storage.store import Store
from ktlog.web.app import make_app

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "table.db"
    with Store(db) as store:
        game = tiny_game(store)
        token = seats.issue(store, game, "Alice")
    return db, game, token


def run(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def test_a_one_target_shot_with_words_for_numbers_is_refused_naming_the_field(table):
    """`Shot ... damage=accepted`: "bug in ktlog" from `ktlog event`, 500 with a traceback from the seat API."""
    db, game, token = table
    assert run(db, "event", game[:8], "OperativeActivated", "operative=trooper-1", "order=engage").exit_code == 0
    shot = ["Shot", "operative=trooper-1", "target=bob-trooper-1", "weapon=Gun"]
    for bad, named in (("damage=accepted", "damage='accepted'"), ("cover=maybe", "cover='maybe'"), ("accurate=²", "accurate='²'")):
        result = run(db, "event", game[:8], *shot, bad)
        assert result.exit_code == 1 and named in result.output and "bug" not in result.output, result.output
    with TestClient(make_app(db, seats=True), base_url="http://127.0.0.1:8787") as client:
        answer = client.post(f"/api/games/{game}/events", headers={"authorization": f"Bearer {token}"}, json={"line": " ".join([*shot, "damage=accepted"])})
    assert answer.status_code == 400, answer.text
    assert "damage='accepted'" in answer.json()["error"] and "nothing was recorded" in answer.json()["error"]
    with Store(db) as store:
        assert store.game(game).head_seq == 27


KILLED_BEFORE_THE_REBUILD = """
import os, sys
from ktlog.storage import store
store.Store.rebuild = lambda self: os._exit(9)  # the process killed once the migration committed
store.Store(sys.argv[1])
"""


def test_a_migration_killed_before_its_rebuild_is_finished_by_the_next_open(tmp_path):
    """2 of 20 kills during a migration left the games' derived columns empty, and `verify` then
    called the games edited behind ktlog's back until `ktlog rebuild`."""
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema9.db", db)
    killed = subprocess.run([sys.executable, "-c", KILLED_BEFORE_THE_REBUILD, str(db)])
    assert killed.returncode == 9
    result = run(db, "verify")
    assert result.exit_code == 0, result.output
    assert "games verified" in result.output
    with Store(db) as store:
        assert store.conn.execute("SELECT count(*) FROM meta WHERE key = 'rebuild_pending'").fetchone()[0] == 0
        assert store.conn.execute("SELECT count(*) FROM games WHERE winner IS NULL AND status = 'finished'").fetchone()[0] == 0


def _edit_block(db: Path, change) -> None:
    """Rewrite the first archived block of the database's game behind ktlog's back."""
    import sqlite3
    import zlib

    import msgspec

    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER archives_no_update")
    (block,) = conn.execute("SELECT events FROM game_archives ORDER BY first_seq").fetchone()
    columns = msgspec.msgpack.decode(zlib.decompress(block))
    changed = change(columns)
    conn.execute(
        "UPDATE game_archives SET events = ? WHERE first_seq = 1", (changed if changed is not None else zlib.compress(msgspec.msgpack.encode(columns)),)
    )
    conn.commit()
    conn.close()


BLOCK_EDITS = {
    "not a block": lambda c: b"garbage",
    "a payload that is a number": lambda c: c[4].__setitem__(3, 7),
    "a payload that is not JSON": lambda c: c[4].__setitem__(3, "{not json"),
    "a payload of another type": lambda c: c[4].__setitem__(3, '{"type":"Shot"}'),
    "a version in words": lambda c: c[2].__setitem__(3, "x"),
    "a column missing": lambda c: c.pop(),
    "short hashes that are a number": lambda c: c.__setitem__(5, 5),
}


@pytest.mark.parametrize("edit", BLOCK_EDITS, ids=list(BLOCK_EDITS))
def test_an_edited_archived_block_is_said_by_every_reader_not_a_bug(tmp_path, edit):
    """13 edits of an archived block: `verify` named the seq every time, but `export`, `score`
    and `log` said "bug in ktlog" for 7 of them."""
    from ktlog.data import SAMPLE_GAMES

    db = tmp_path / "league.db"
    assert run(db, "import", str(next(SAMPLE_GAMES.glob("01_*")))).exit_code == 0
    _edit_block(db, BLOCK_EDITS[edit])
    for args in (("export", "334f", "-o", str(tmp_path / "out.jsonl")), ("score", "334f"), ("log", "334f"), ("show", "334f", "--tp", "1")):
        result = run(db, *args)
        assert result.exit_code == 1, (args, result.output)
        assert "bug" not in result.output and "cannot be read" in result.output and "ktlog verify" in result.output, (args, result.output)
    verified = run(db, "verify")
    assert verified.exit_code == 1 and "334f68f6  FAILED" in verified.output
    assert not (tmp_path / "out.jsonl").exists()


def test_the_statistics_of_a_damaged_database_say_so_and_do_not_claim_nothing_was_recorded(tmp_path):
    """`stats standings` on a damaged file said "nothing was recorded": it records nothing."""
    from ktlog.data import SAMPLE_GAMES

    db = tmp_path / "league.db"
    assert run(db, "import", *map(str, sorted(SAMPLE_GAMES.glob("0[1-4]_*.jsonl")))).exit_code == 0
    size = db.stat().st_size
    with open(db, "r+b") as f:  # pages of the tables garbled, the header kept
        f.seek(size // 3)
        f.write(b"\xff" * (size // 3))
    result = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(db), "stats", "standings"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "damaged" in result.stderr and "backup" in result.stderr, result.stderr
    assert "nothing was recorded" not in result.stderr and "Traceback" not in result.stderr


def test_verify_says_a_game_with_an_open_dispute_is_provisional(table):
    """`verify` said plain "ok" while a dispute was open."""
    db, game, _ = table
    assert run(db, "dispute", game[:8], "23", "--reason", "the dice fell off the table").exit_code == 0
    result = run(db, "verify")
    assert result.exit_code == 0
    assert "seq 23 is disputed (seq 27)" in result.output and "provisional" in result.output and "DisputeResolved dispute=27" in result.output
    assert run(db, "event", game[:8], "DisputeResolved", "dispute=27", "outcome=withdrawn").exit_code == 0
    assert "disputed" not in run(db, "verify").output


def test_a_name_ten_thousand_characters_long_is_not_echoed_whole(table):
    """A 10,000-character player name was echoed whole by `seat`, `player show`, `stats`, the seat API ..."""
    db, game, token = table
    name = "N" * 10_000
    for args in (("seat", game[:8], name), ("player", "show", name), ("score", name)):
        result = run(db, *args)
        assert result.exit_code == 1
        assert len(result.output) < 400 and "(10,000 characters)" in result.output, result.output[:300]
    with TestClient(make_app(db, seats=True), base_url="http://127.0.0.1:8787") as client:
        answer = client.post(
            f"/api/games/{game}/events", headers={"authorization": f"Bearer {token}"}, json={"line": f"OperativeActivated operative={name} order=engage"}
        )
    assert answer.status_code in (400, 422) and len(answer.text) < 600, answer.text[:300]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """A dataset of four sample games' league, exported once."""
    from ktlog.data import SAMPLE_GAMES

    folder = tmp_path_factory.mktemp("dataset")
    db = folder / "league.db"
    assert run(db, "import", *map(str, sorted(SAMPLE_GAMES.glob("0[1-4]_*.jsonl")))).exit_code == 0
    assert run(db, "dataset", "export", str(folder / "ds")).exit_code == 0
    return folder / "ds"


def _stats(source: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ktlog", "stats", "standings", "--source", str(source)], capture_output=True, text=True, timeout=120)


def _part(source: Path, table: str) -> Path:
    return sorted(source.glob(f"{table}/*/*/*.parquet"))[0]


def test_a_dataset_part_that_is_a_pipe_is_refused_not_left_out(dataset, tmp_path):
    """A FIFO in place of a part was silently left out and the standings changed with rc 0."""
    source = tmp_path / "ds"
    shutil.copytree(dataset, source)
    part = _part(source, "game_results")
    part.unlink()
    os.mkfifo(part)
    done = _stats(source)
    assert done.returncode == 1 and "is a pipe" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_dataset_part_of_another_table_is_refused_in_words(dataset, tmp_path):
    """A part with another table's schema: "bug in ktlog"."""
    source = tmp_path / "ds"
    shutil.copytree(dataset, source)
    shutil.copy(_part(source, "attacks"), _part(source, "game_results"))
    done = _stats(source)
    assert done.returncode == 1 and "bug" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "game_results" in done.stderr or "rows where" in done.stderr, done.stderr


def test_a_dataset_part_with_its_rows_repeated_is_refused_before_it_is_read(dataset, tmp_path):
    """A part whose rows were repeated 20,000 times kept `stats --source` busy past 60 s: the
    export's counts in metadata.json refuse it from its footer."""
    import polars as pl

    source = tmp_path / "ds"
    shutil.copytree(dataset, source)
    part = _part(source, "game_results")
    rows = pl.read_parquet(part)
    pl.concat([rows] * 2_000).write_parquet(part)
    done = _stats(source)
    assert done.returncode == 1 and f"{rows.height * 2_000:,} rows where" in done.stderr and f"wrote {rows.height:,}" in done.stderr, done.stderr
