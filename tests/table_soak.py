"""The table's set-up on a match day, soaked (issue 38): `ktlog serve --seats` with two seats
writing, a spectator's stream, the table's commands and terminal UI opening and closing on the
same file, and the server killed with SIGKILL at random moments and started again.

    python tests/table_soak.py --rounds 200 [--seed N] [--folder DIR]

Each round: each seat writes a note (an acknowledged write is a 201 with its seq), one command
of the table runs (`log`, `score`, `event`, `annotate`, `verify`, `stats`; `event` and `annotate`
print the seq they were given), every `TUI_EVERY` rounds a terminal UI session opens the record
screen, the replay and the league and quits, and with `KILL_CHANCE` the server is killed while a
seat's write is in flight. After every round: the server's `-wal` and `-shm` are not unlinked
under it (`/proc/PID/fd`), and what `ktlog log` printed holds every write acknowledged before it
ran. At the end: every acknowledged write is in the log with its own text, no seq was
acknowledged twice, and a seat's view and a stream started after the last restart agree with the
log's head. tests/test_reliability_table.py runs it; docs/reliability.md quotes its figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

KTLOG = [sys.executable, "-m", "ktlog"]
TUI_EVERY = 10
KILL_CHANCE = 0.12
COMMANDS = ("log", "score", "event", "annotate", "verify", "stats", "log")
TUI_SESSION = """
import asyncio, sys
from ktlog.play.database import Store
from ktlog.tui.app import make_app

async def main():
    store = Store(sys.argv[1], create=False, busy_timeout_ms=1000)
    app = make_app(store, screen="record", game_id=sys.argv[2])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_replay(sys.argv[2])
        await pilot.pause(0.2)
        app.open_league()
        await pilot.pause(0.5)
    store.close()
    print("tui ok")

asyncio.run(main())
"""


@dataclass
class Figures:
    rounds: int = 0
    kills: int = 0
    kills_in_flight: int = 0
    """Kills while a seat's write was on its way (its outcome unknown: not acknowledged)."""
    acknowledged: dict[int, str] = field(default_factory=dict)
    """Seq -> the note's text, of every write a writer was told was recorded."""
    twice: list[int] = field(default_factory=list)
    """Seqs acknowledged to two writes."""
    commands: int = 0
    tui_sessions: int = 0
    refused: int = 0
    """Writes refused with a reason (a conflict, the rate, the server restarting): not acknowledged."""
    unlinked: list[str] = field(default_factory=list)
    """The server's files seen deleted under it, with the round."""
    stale_logs: list[str] = field(default_factory=list)
    """A `ktlog log` that missed a write acknowledged before it started."""
    lost: list[int] = field(default_factory=list)
    streamed: int = 0
    """The last seq a stream opened after the last restart handed over (its catch-up)."""
    seat_seq: int = 0
    head: int = 0
    problems: list[str] = field(default_factory=list)

    def acknowledge(self, seq: int, text: str) -> None:
        if seq in self.acknowledged:
            self.twice.append(seq)
        self.acknowledged[seq] = text

    def summary(self) -> str:
        return (
            f"{self.rounds} rounds, {self.kills} server kills ({self.kills_in_flight} with a write in flight), "
            f"{len(self.acknowledged)} writes acknowledged, {len(self.lost)} lost, {len(self.twice)} seqs acknowledged twice, "
            f"{self.refused} refused with a reason, {self.commands} table commands, {self.tui_sessions} TUI sessions, "
            f"{len(self.unlinked)} unlinked files, {len(self.stale_logs)} stale logs; after the last restart the seat's view "
            f"at seq {self.seat_seq}, the log's head {self.head}, a new stream at seq {self.streamed}"
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Table:
    """The server and the table's processes on one database file."""

    def __init__(self, db: Path, game: str, tokens: dict[str, str], env: dict[str, str]):
        self.db, self.game, self.tokens, self.env = db, game, tokens, env
        self.server: subprocess.Popen | None = None
        self.base = ""
        self.http = httpx.Client()  # one pool, as a phone's browser keeps one: a new client a request costs 27 ms CPU

    def start(self) -> None:
        port = free_port()
        self.server = subprocess.Popen(
            [*KTLOG, "--db", str(self.db), "serve", "--seats", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=self.env,
            start_new_session=True,
        )
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                if self.http.get(f"{self.base}/static/ktlog.css", timeout=2).status_code == 200:
                    self.spectate()
                    return
            if self.server.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.server.stderr.read().decode()[-2000:]}")
            time.sleep(0.05)
        raise RuntimeError("the server did not answer within 60 s")

    def spectate(self) -> None:
        """A spectator's stream of the game, open until the server stops (a thread of its own)."""

        def read(base: str) -> None:
            with contextlib.suppress(httpx.HTTPError):
                with httpx.stream("GET", f"{base}/api/games/{self.game}/events", timeout=None) as response:
                    for _ in response.iter_lines():
                        pass

        threading.Thread(target=read, args=(self.base,), daemon=True).start()

    def view(self, player: str) -> int | None:
        """The seq a seat's page shows (its view, as a phone asks for it)."""
        with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
            response = self.http.get(f"{self.base}/api/games/{self.game}/seat", headers={"authorization": f"Bearer {self.tokens[player]}"}, timeout=30)
            return int(response.json()["seq"]) if response.status_code == 200 else None
        return None

    def kill(self) -> None:
        assert self.server is not None
        os.killpg(self.server.pid, signal.SIGKILL)
        self.server.wait()
        self.server.stderr.close()

    def stop(self) -> None:
        if self.server is not None and self.server.poll() is None:
            self.kill()
        self.http.close()

    def unlinked(self) -> list[str]:
        """The server's open files of the database that are deleted under it."""
        assert self.server is not None
        found = []
        folder = f"/proc/{self.server.pid}/fd"
        with contextlib.suppress(FileNotFoundError):
            for fd in os.listdir(folder):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"{folder}/{fd}")
                    if target.startswith(str(self.db)) and target.endswith("(deleted)"):
                        found.append(target)
        return found

    def write(self, player: str, text: str, timeout: float = 10) -> int | None:
        """A seat's note on seq 1: its seq if acknowledged (201), else None."""
        response = self.http.post(
            f"{self.base}/api/games/{self.game}/events",
            headers={"authorization": f"Bearer {self.tokens[player]}"},
            json={"line": f"Annotation target=1 text={text}"},
            timeout=timeout,
        )
        return int(response.json()["seq"]) if response.status_code == 201 else None

    def command(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*KTLOG, "--db", str(self.db), *args], capture_output=True, text=True, env=self.env, timeout=120)


def logged_notes(output: str) -> dict[int, str]:
    """Seq -> note text of the notes `ktlog log --json` lists."""
    return {row["seq"]: row["payload"]["text"] for row in json.loads(output) if row["payload"]["type"] == "Annotation"}


def soak(folder: Path, rounds: int, seed: int = 1, env_extra: dict[str, str] | None = None, say=print) -> Figures:
    from tui_support import tiny_game

    from ktlog.play import seats
    from ktlog.storage.store import Store

    rng = random.Random(seed)
    db = folder / "table.db"
    with Store(db) as store:
        game = tiny_game(store)
        tokens = {p: seats.issue(store, game, p) for p in ("Alice", "Bob")}
    env = {**os.environ, **(env_extra or {})}
    table = Table(db, game, tokens, env)
    figures = Figures()
    table.start()
    try:
        for n in range(rounds):
            figures.rounds = n + 1
            _round(table, figures, rng, n)
            gone = table.unlinked()
            if gone:
                figures.unlinked += [f"round {n}: {g}" for g in gone]
            if (n + 1) % 50 == 0:
                say(f"  round {n + 1}: {len(figures.acknowledged)} acknowledged, {figures.kills} kills")
        _final(table, figures)
    finally:
        table.stop()
    return figures


def _round(table: Table, figures: Figures, rng: random.Random, n: int) -> None:
    kill = rng.random() < KILL_CHANCE
    results: dict[str, int | None] = {}
    for player in ("Alice", "Bob"):
        table.view(player)

    def seat(player: str) -> None:
        text = f"{player.lower()}-{n}"
        try:
            results[text] = table.write(player, text, timeout=5 if kill else 30)
        except httpx.HTTPError:
            results[text] = None

    writers = [threading.Thread(target=seat, args=(p,)) for p in ("Alice", "Bob")]
    for w in writers:
        w.start()
    if kill:
        time.sleep(rng.uniform(0, 0.03))
        in_flight = any(w.is_alive() for w in writers)
        table.kill()
        figures.kills += 1
        figures.kills_in_flight += in_flight
    for w in writers:
        w.join()
    for text, seq in results.items():
        if seq is None:
            figures.refused += 1
        else:
            figures.acknowledge(seq, text)
    if kill:
        table.start()
    _command(table, figures, COMMANDS[n % len(COMMANDS)], n)
    if n % TUI_EVERY == TUI_EVERY - 1:
        done = subprocess.run([*KTLOG[:1], "-c", TUI_SESSION, str(table.db), table.game], capture_output=True, text=True, env=table.env, timeout=120)
        if "tui ok" not in done.stdout:
            figures.problems.append(f"round {n}: the TUI session failed: {done.stderr[-800:]}")
        figures.tui_sessions += 1


def _command(table: Table, figures: Figures, name: str, n: int) -> None:
    figures.commands += 1
    before = dict(figures.acknowledged)
    if name == "log":
        done = table.command("log", table.game[:8], "--json")
        if done.returncode:
            figures.problems.append(f"round {n}: log failed: {done.stderr[-500:]}")
            return
        seen = logged_notes(done.stdout)
        missing = [seq for seq, text in before.items() if seen.get(seq) != text]
        if missing:
            figures.stale_logs.append(f"round {n}: ktlog log missed acknowledged seqs {missing[:5]}")
        return
    if name in ("event", "annotate"):
        text = f"table-{n}"
        args = ("event", table.game[:8], "Annotation", "target=1", f"text={text}") if name == "event" else ("annotate", table.game[:8], "1", text)
        done = table.command(*args)
        found = re.search(r"\bseq (\d+)", done.stdout)
        if done.returncode == 0 and found:
            figures.acknowledge(int(found.group(1)), text)
        elif done.returncode == 0:
            figures.problems.append(f"round {n}: {name} said no seq: {done.stdout[-300:]}")
        else:
            figures.refused += 1
        return
    args = {"score": ("score", table.game[:8]), "verify": ("verify",), "stats": ("stats", "standings", "--simulated")}[name]
    done = table.command(*args)
    if "Traceback" in done.stderr or "bug in ktlog" in done.stderr:
        figures.problems.append(f"round {n}: {name}: {done.stderr[-800:]}")
    if name == "verify" and done.returncode:
        figures.problems.append(f"round {n}: verify failed: {done.stdout[-500:]} {done.stderr[-500:]}")


def _final(table: Table, figures: Figures) -> None:
    done = table.command("log", table.game[:8], "--json")
    seen = logged_notes(done.stdout)
    figures.lost = sorted(seq for seq, text in figures.acknowledged.items() if seen.get(seq) != text)
    figures.head = max(seen, default=0)
    figures.seat_seq = table.view("Alice") or -1
    figures.streamed = _streamed_to(table, figures.head)


def _streamed_to(table: Table, head: int) -> int:
    """The last seq a new spectator's stream hands over, read until it reaches `head` (or 20 s)."""
    last = 0
    deadline = time.monotonic() + 20
    with httpx.stream("GET", f"{table.base}/api/games/{table.game}/events?after=0", timeout=20) as response:
        for line in response.iter_lines():
            if line.startswith("id:"):
                with contextlib.suppress(ValueError):
                    last = max(last, int(line[3:].strip()))
            if last >= head or time.monotonic() > deadline:
                break
    return last


@contextlib.contextmanager
def folder_for(path: str | None) -> Iterator[Path]:
    if path:
        Path(path).mkdir(parents=True, exist_ok=True)
        yield Path(path)
    else:
        with tempfile.TemporaryDirectory(prefix="ktlog-soak-") as tmp:
            yield Path(tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder")
    args = parser.parse_args()
    started, cpu = time.monotonic(), os.times()
    with folder_for(args.folder) as folder:
        figures = soak(folder, args.rounds, args.seed)
    spent = os.times()
    children = spent.children_user + spent.children_system - cpu.children_user - cpu.children_system
    print(figures.summary())
    print(f"wall {time.monotonic() - started:.0f} s; CPU of the processes {children:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for line in figures.unlinked[:5] + figures.stale_logs[:5] + figures.problems[:5]:
        print(" ", line)
    sys.exit(bool(figures.lost or figures.twice or figures.unlinked or figures.stale_logs or figures.problems))


if __name__ == "__main__":
    main()
