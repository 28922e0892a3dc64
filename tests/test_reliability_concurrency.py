"""Concurrent writers: processes appending to one game at once never leave a gap or a duplicate
seq; each loser of a race gets a clear `ConcurrencyConflict` and succeeds on retry. Processes
recording different games in one database all succeed (WAL, busy timeout)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, game

from ktlog.envelopes import canonical
from ktlog.events import Annotation
from ktlog.play.simulate import simulate_games
from ktlog.play.verify import verify
from ktlog.storage.store import Store

WRITERS = 4
NOTES = 60
"""Notes each writer appends to the shared game."""


def run_writers(*commands: list[str]) -> list[dict]:
    """Start every writer, wait until each is ready, release them together, and return what
    each reports."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "writers.py"), *map(str, c)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for c in commands
    ]
    for p in procs:
        assert p.stdout.readline() == "ready\n", p.stderr.read()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, f"a writer failed:\n{err}"
        reports.append(json.loads(out))
    return reports


def test_writers_racing_on_one_game_leave_no_gap_and_no_duplicate(tmp_path, figures):
    db = tmp_path / "race.db"
    g = game(2, 2)
    with Store(db) as store:
        game_id = store.new_game(g.events[0], g.events[1:])
    start = len(g.events)

    reports = run_writers(*[["notes", db, game_id, w, NOTES] for w in range(WRITERS)])

    with Store(db) as store:
        stored = store.events(game_id)
        assert [e.seq for e in stored] == list(range(1, start + WRITERS * NOTES + 1))  # no gap, no duplicate
        assert store.game(game_id).head_seq == start + WRITERS * NOTES
        by_seq = {e.seq: e.payload for e in stored}
        for r in reports:
            # Every note this writer was told it stored is there at that seq, once, in its order.
            assert [by_seq[s] for s in r["seqs"]] == [Annotation(target=1, text=f"writer {r['writer']} note {k}") for k in range(NOTES)]
            assert r["unclear"] == []  # every conflict said which seq was taken and what to do
            assert r["attempts"] == NOTES + r["conflicts"]  # each conflict was followed by a retry that succeeded
        assert sorted(s for r in reports for s in r["seqs"]) == list(range(start + 1, start + WRITERS * NOTES + 1))
        assert [v.ok for v in verify(store)] == [True]
    conflicts = sum(r["conflicts"] for r in reports)
    assert conflicts > 0, "the writers never raced: the test proved nothing"
    figures["concurrency: appends attempted on one game"] += sum(r["attempts"] for r in reports)
    figures["concurrency: conflicts raised and retried"] += conflicts
    figures["concurrency: writers on one game"] += WRITERS


def test_writers_recording_different_games_in_one_database_all_succeed(tmp_path, figures):
    db = tmp_path / "tables.db"
    Store(db).close()
    seed, tables = 11, 3

    reports = run_writers(*[["record", db, seed, i] for i in range(tables)])

    played = dict(simulate_games(tables, seed))
    with Store(db) as store:
        for r in reports:
            g = played[r["game_id"]]
            stored = [payload for _, payload in store.sealed(r["game_id"])]
            assert stored == [canonical(e) for e in g.events]
            assert store.state(r["game_id"]) == g.state
        assert [v.ok for v in verify(store)] == [True] * tables
    figures["concurrency: appends by writers on different games"] += sum(r["events"] for r in reports)
    figures["concurrency: slowest append beside other writers (ms)"] = max(
        figures["concurrency: slowest append beside other writers (ms)"], round(1000 * max(r["slowest_append_s"] for r in reports))
    )
