"""Issue 27: a progress bar on the long jobs (`import`, `simulate`, `dataset export`, `roster
import FOLDER`) when standard error is a terminal and nothing when it is piped; `--json` on
`import`, `verify`, `dataset export`, `simulate` and `roster list`, parsed, with the keys their
help documents."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from raw_log import RawLog

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES

KTLOG = Path(sys.executable).parent / "ktlog"
FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
BAR = "━"
"""rich's bar (a terminal's bar is drawn with it; no line of ktlog's own text holds it)."""


def ktlog(*args, code: int = 0):
    result = CliRunner().invoke(cli, list(map(str, args)))
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def simulated(tmp_path):
    db = tmp_path / "sim.db"
    out = json.loads(ktlog("--db", db, "simulate", "--games", 3, "--seed", 5, "--json").stdout)
    assert set(out) == {"database", "games", "game_ids", "seed", "league", "ruleset"}
    assert out["games"] == len(out["game_ids"]) == 3 and out["database"] == str(db) and out["seed"] == 5
    return db, out["game_ids"]


def test_simulate_and_verify_json(simulated):
    db, ids = simulated
    out = json.loads(ktlog("--db", db, "verify", "--json").stdout)
    assert set(out) == {"file_problems", "games", "verified", "failed"} and (out["verified"], out["failed"], out["file_problems"]) == (3, 0, [])
    assert sorted(g["game_id"] for g in out["games"]) == sorted(ids)
    assert set(out["games"][0]) == {"game_id", "ok", "events", "bad_seq", "problem", "disputed", "signers"} and out["games"][0]["ok"] is True
    assert out["games"][0]["disputed"] == []


def test_verify_json_of_a_failing_game_exits_1(simulated):
    import sqlite3

    db, ids = simulated
    with sqlite3.connect(db) as conn:  # tampered with behind ktlog's back (tests/test_verify.py's way)
        conn.execute("DROP TRIGGER archives_no_update")
        RawLog(conn, ids[0]).swap(6, 7)
    conn.close()
    result = ktlog("--db", db, "verify", "--json", code=1)
    out = json.loads(result.stdout)
    assert out["failed"] == 1 and [g["problem"] is not None for g in out["games"]].count(True) == 1


def test_import_json(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for path in sorted(SAMPLE_GAMES.glob("*.jsonl"))[:3]:
        shutil.copy(path, games)
    (games / "broken.jsonl").write_text("not json\n")
    result = ktlog("--db", tmp_path / "league.db", "import", games, "--json", code=1)
    out = json.loads(result.stdout)
    assert out["summary"] == {"new": 3, "extended": 0, "unchanged": 0, "refused": 1, "not_reached": 0}
    assert [f["status"] for f in out["files"]] == ["imported"] * 3 + ["refused"]  # in the files' order: 01_..., 02_..., 03_..., broken
    refused = next(f for f in out["files"] if f["status"] == "refused")
    assert refused["path"].endswith("broken.jsonl") and refused["error"]
    imported = next(f for f in out["files"] if f["status"] == "imported")
    assert set(imported) == {"path", "status", "game_id", "events_added", "warnings"} and imported["events_added"] > 0
    again = json.loads(ktlog("--db", tmp_path / "league.db", "import", *sorted(games.glob("0*.jsonl")), "--json").stdout)
    assert again["summary"]["unchanged"] == 3


def test_dataset_export_json(simulated, tmp_path):
    db, _ = simulated
    out = json.loads(ktlog("--db", db, "dataset", "export", tmp_path / "ds", "--simulated", "--json").stdout)
    assert out == {"dataset": str(tmp_path / "ds"), "partitions_written": 1, "partitions_kept": 0, "games": 3, "last_position": out["last_position"]}


def test_roster_list_json(tmp_path, monkeypatch):
    monkeypatch.setenv("KTLOG_ROSTERS", str(tmp_path / "rosters"))
    (tmp_path / "rosters").mkdir()
    (tmp_path / "rosters" / "bad.toml").write_text("name = 3\n")
    out = json.loads(ktlog("roster", "list", "--json").stdout)
    assert all(set(r) == {"name", "origin", "path", "kill_team", "operatives", "problem"} for r in out)
    bad = next(r for r in out if r["origin"] == "yours")
    assert bad["name"] == "bad" and bad["problem"] and bad["operatives"] is None
    samples = [r for r in out if r["origin"] == "samples"]
    assert samples and all(r["problem"] is None and r["operatives"] > 0 for r in samples)


def _bsdata(tmp_path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(FIXTURES / "test-system.gst", data)
    shutil.copy(FIXTURES / "test-troopers.cat", data)
    return data


def _jobs(tmp_path) -> list[list[str]]:
    """Each long job, as a command line."""
    games = tmp_path / "games"
    games.mkdir()
    for path in sorted(SAMPLE_GAMES.glob("*.jsonl"))[:2]:
        shutil.copy(path, games)
    db = str(tmp_path / "sim.db")
    return [
        ["--db", db, "simulate", "--games", "2"],
        ["--db", str(tmp_path / "imported.db"), "import", str(games)],
        ["--db", db, "dataset", "export", str(tmp_path / "ds"), "--simulated"],
        ["roster", "import", str(_bsdata(tmp_path)), "--out", str(tmp_path / "rosters")],
    ]


def _env(tmp_path) -> dict[str, str]:
    return {**os.environ, "KTLOG_ROSTERS": str(tmp_path / "rosters"), "COLUMNS": "100", "TERM": "xterm"}


def test_piped_no_bar(tmp_path):
    (tmp_path / "rosters").mkdir()
    for args in _jobs(tmp_path):
        done = subprocess.run([KTLOG, *args], capture_output=True, text=True, env=_env(tmp_path), timeout=300)
        assert done.returncode == 0, done.stderr
        assert BAR not in done.stderr + done.stdout and "\x1b[" not in done.stderr, args


def _on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run ktlog with its standard error on a pseudo-terminal: its status, and what it drew there."""
    parent, child = pty.openpty()
    proc = subprocess.Popen([KTLOG, *args], stdout=subprocess.DEVNULL, stderr=child, stdin=subprocess.DEVNULL, env=env)
    os.close(child)
    drawn = b""
    while True:
        ready, _, _ = select.select([parent], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(parent)
    return proc.wait(timeout=60), drawn.decode(errors="replace")


def test_a_terminal_shows_the_bar(tmp_path):
    (tmp_path / "rosters").mkdir()
    labels = ["simulating games", "importing files", "exporting partitions", "importing kill teams"]
    for args, label in zip(_jobs(tmp_path), labels):
        status, drawn = _on_a_terminal(args, _env(tmp_path))
        assert status == 0, drawn
        assert label in drawn and BAR in drawn, (args, drawn)
