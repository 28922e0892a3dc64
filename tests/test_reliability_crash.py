"""Crash: a recorder killed with SIGKILL at random moments loses nothing it reported, leaves no
half-written event, and the next recorder resumes at the next seq.

A fork server (tests/writers.py) plays simulated games once; for each round it forks a
recorder that resumes the games where the database stands and appends their events through
`Store.append`, printing each seq once its append has returned. The test kills the recorder
after a random delay, then checks the database before starting the next round.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT
from writers import after_the_battle

from ktlog.envelopes import canonical
from ktlog.play.verify import verify_game
from ktlog.storage.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the recorders are forked (POSIX only)")

KILLS = 240
GAMES = 8
SEED = 6
START_UP = 0.2
"""The share of kills aimed at a recorder's start-up (opening the store, loading the state):
within 30 ms of the fork. The others come up to 20 ms after its first append returned (an
append takes about 1 ms)."""
TIME_LIMIT = 120
"""Seconds: the test fails rather than hang."""


class Server:
    """The fork server, its stdout read line by line on a thread (so reads can time out)."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "writers.py"), "crash", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.child: int | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put("")  # end of output

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def next(self, timeout: float = 30) -> str:
        line = self.lines.get(timeout=timeout)
        assert line, f"the fork server stopped (exit status {self.proc.poll()})"
        assert not line.startswith("error"), f"a recorder failed before it was killed: {line}"
        return line

    def close(self) -> None:
        """Stop the server, and its last recorder if a failed test left it running."""
        if self.child:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.child, signal.SIGKILL)
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def test_sigkill_at_random_moments_loses_nothing(tmp_path, figures):
    db, expected_file = tmp_path / "crash.db", tmp_path / "expected.json"
    store = Store(db)
    conn = sqlite3.connect(db, isolation_level=None)
    server = Server(str(db), str(SEED), str(GAMES), str(expected_file))
    rng = random.Random(SEED)
    deadline = time.monotonic() + TIME_LIMIT
    try:
        assert server.next(timeout=60) == "ready"
        expected = json.loads(expected_file.read_text())
        heads: dict[str, int] = {}  # each game's head seq after the last kill
        for kill in range(1, KILLS + 1):
            assert time.monotonic() < deadline, f"only {kill - 1} kills in {TIME_LIMIT}s"
            server.send("go")
            pid = server.child = int(server.next().removeprefix("child "))
            printed: list[tuple[str, int]] = []
            if rng.random() < START_UP:
                time.sleep(rng.uniform(0, 0.03))
            else:
                printed.append(reported(server.next()))
                time.sleep(rng.uniform(0, 0.02))
            os.kill(pid, signal.SIGKILL)
            while not (line := server.next()).startswith("reaped"):
                printed.append(reported(line))
            status = int(line.split()[2])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

            # The database is sound and holds every append that returned, and nothing more
            # than the one that may have committed just before the kill.
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            now = dict(conn.execute("SELECT id, head_seq FROM games"))
            for game_id in {g for g, _ in printed}:
                first = next(seq for g, seq in printed if g == game_id)
                assert first == heads.get(game_id, 0) + 1, f"kill {kill}: recording resumed at seq {first}, not after the head"
            last_reported = {g: max(seq for gg, seq in printed if gg == g) for g, _ in printed}
            assert set(last_reported) <= set(now), f"kill {kill}: a game whose creation was reported is missing"
            for game_id, head in now.items():
                if head == heads.get(game_id) and game_id not in last_reported:
                    continue
                confirmed = last_reported.get(game_id, heads.get(game_id, 0))
                assert confirmed <= head <= confirmed + 1, f"kill {kill}: head {head}, last reported append {confirmed}"
                figures["crash: kills between a commit and its report"] += head - confirmed
                # read as the store reads them: a finished game's events are archived but its head
                rows = [(envelope.seq, payload.decode()) for envelope, payload in store.sealed(game_id, after=heads.get(game_id, 0))]
                assert [seq for seq, _ in rows] == list(range(heads.get(game_id, 0) + 1, head + 1))
                for seq, payload in rows:
                    assert payload == expected_payload(expected[game_id], seq), f"kill {kill}: seq {seq} of {game_id[:8]} is not the event appended"
                verdict = verify_game(store, game_id)  # every row decodes, the chain holds, the game folds
                assert verdict.ok, verdict.describe()
                assert store.state(game_id).seq == head
                heads[game_id] = head
            figures["crash: kills survived"] += 1
            figures["crash: kills while appending"] += bool(printed)
    finally:
        server.close()
        conn.close()
        store.close()
    figures["crash: events appended"] += sum(heads.values())
    figures["crash: simulated games recorded whole"] += sum(heads.get(g, 0) >= len(events) for g, events in expected.items())
    assert sum(heads.values()) > KILLS  # the kills landed among appends, not only at start-up


def reported(line: str) -> tuple[str, int]:
    """The game and seq of a recorder's "seq GAME SEQ" line."""
    _, game_id, seq = line.split()
    return game_id, int(seq)


def expected_payload(game_events: list[str], seq: int) -> str:
    if seq <= len(game_events):
        return game_events[seq - 1]
    return canonical(after_the_battle(seq)).decode()
