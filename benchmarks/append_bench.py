"""Appending one event (issues 15 and 26): the CPU and wall time of `Store.append`, against a bare
durable INSERT + COMMIT of the same row into a table of the same shape, timed in the same run.

    make bench-append        # or: .venv/bin/python benchmarks/append_bench.py [--games N] [--rounds N] [--compare PATH]

Each event of simulated games is appended through `Store.append` (rules, hash chain, projections,
snapshot, games row, commit: WAL, synchronous=FULL); right after, the row it stored in `events` is
inserted and committed on its own into a second database opened with the same pragmas, the floor
any append of that row pays. The two alternate event by event, so the machine's noise falls on
both, and the CPU (time.process_time: this process's user and system time, the kernel's work for
the commit's fsync included) is compared pair by pair; a third database, whose events table has
the store's indexes, gives the floor of an append that keeps the unique checks. Each round is a fresh pair of databases;
the figures are the min and median over rounds of each round's median. `--compare PATH` also
times the ktlog whose source tree is at PATH (another checkout, e.g. main's) in the same rounds:
each round runs in a child process, this ktlog's and the other's in turn, so a before and an after
share the machine's noise.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ktlog.play.simulate import simulate_games
from ktlog.storage.store import Store

CPU_TARGET_MS = 0.3
RATIO_TARGET = 1.5
"""Append / bare insert, wall (issue 15) and CPU (issue 26)."""


def bare_database(path: Path, store: Store, *, indexed: bool = False) -> sqlite3.Connection:
    """A database holding only a table shaped like the store's `events` (`indexed`: with its
    indexes, the unique ones an append's checks need), opened as the store opens its file."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    kinds = "('table', 'index')" if indexed else "('table')"
    for (sql,) in store.conn.execute(f"SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND type IN {kinds} AND sql IS NOT NULL"):
        conn.execute(sql)  # its foreign key names a table this database lacks: SQLite checks none by default
    return conn


def bare_insert(bare: sqlite3.Connection, row: tuple) -> tuple[float, float]:
    """Wall and CPU seconds of one durable INSERT + COMMIT of `row`."""
    t, c = time.perf_counter(), time.process_time()
    bare.execute("BEGIN IMMEDIATE")
    bare.execute(f"INSERT INTO events VALUES ({', '.join('?' * len(row))})", row)
    bare.execute("COMMIT")
    return time.perf_counter() - t, time.process_time() - c


def head_insert(twin: Store, row: tuple) -> float:
    """CPU seconds of one durable INSERT of `row` (a row of the store's events table) into a
    ktlog database, `twin` (every table and index of the store's), with the UPDATE that moves its
    game's head, + COMMIT: the floor of an append that keeps the games row's head."""
    c = time.process_time()
    twin.conn.execute("BEGIN IMMEDIATE")
    twin.conn.execute(f"INSERT INTO events VALUES (NULL, {', '.join('?' * (len(row) - 1))})", row[1:])
    twin.conn.execute(
        "UPDATE games SET updated_at = ?, head_seq = ?, head_hash = ? WHERE game_key = ? AND head_seq = ?", (row[6], row[2], row[8].hex(), row[1], row[2] - 1)
    )
    twin.conn.execute("COMMIT")
    return time.process_time() - c


def one_round(folder: Path, games: int, seed: int) -> dict[str, float]:
    """The medians of one round: append wall and CPU, bare insert wall and CPU, in ms; and
    the median of the CPU ratios, event by event. Each event's floors beside: the bare insert,
    the indexed one, the insert with the head's UPDATE into a ktlog database, and the same
    append into a store in memory (all it does but write the file)."""
    store, twin, in_memory = Store(folder / f"store {seed}.db"), Store(folder / f"twin {seed}.db"), Store(":memory:")
    bare = indexed = None
    wall, cpu, floor, floor_cpu, indexed_cpu, head_cpu, memory_cpu = [], [], [], [], [], [], []
    for _, game in simulate_games(games, seed=seed):
        game_id = store.new_game(game.events[0])
        in_memory.new_game(game.events[0], game_id=game_id)
        key, head_hash = store.conn.execute("SELECT game_key, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        twin.conn.execute("INSERT INTO games (game_key, id, ruleset, status, head_seq, head_hash) VALUES (?, ?, '', 'setup', 1, ?)", (key, game_id, head_hash))
        bare = bare or bare_database(folder / f"bare {seed}.db", store)
        indexed = indexed or bare_database(folder / f"indexed {seed}.db", store, indexed=True)
        for event in game.events[1:]:
            t, c = time.perf_counter(), time.process_time()
            store.append(game_id, event)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - t)
            row = store.conn.execute("SELECT * FROM events ORDER BY position DESC LIMIT 1").fetchone()
            w, c = bare_insert(bare, row)
            floor.append(w)
            floor_cpu.append(c)
            indexed_cpu.append(bare_insert(indexed, row)[1])
            head_cpu.append(head_insert(twin, row))
            c = time.process_time()
            in_memory.append(game_id, event)
            memory_cpu.append(time.process_time() - c)
    for opened in (store, twin, in_memory):
        opened.close()
    assert bare is not None and indexed is not None
    bare.close()
    indexed.close()
    ms = 1000
    return {
        "events": len(wall),
        "append wall": statistics.median(wall) * ms,
        "append cpu": statistics.median(cpu) * ms,
        "append cpu mean": statistics.fmean(cpu) * ms,
        "bare insert+commit": statistics.median(floor) * ms,
        "bare insert+commit cpu": statistics.median(floor_cpu) * ms,
        "cpu ratio": statistics.median(a / max(b, 1e-6) for a, b in zip(cpu, floor_cpu)),
        "indexed insert+commit cpu": statistics.median(indexed_cpu) * ms,
        "indexed cpu ratio": statistics.median(a / max(b, 1e-6) for a, b in zip(cpu, indexed_cpu)),
        "head insert+commit cpu": statistics.median(head_cpu) * ms,
        "head cpu ratio": statistics.median(a / max(b, 1e-6) for a, b in zip(head_cpu, floor_cpu)),
        "in-memory append cpu": statistics.median(memory_cpu) * ms,
        "in-memory cpu ratio": statistics.median(a / max(b, 1e-6) for a, b in zip(memory_cpu, floor_cpu)),
    }


def child_round(source: Path | None, folder: Path, games: int, seed: int) -> dict[str, float]:
    """`one_round` in a child process, with this ktlog or the one whose source tree is at `source`."""
    env = {**os.environ, "PYTHONPATH": str(source)} if source else None
    folder = folder / f"{'compared' if source else 'this'} {seed}"
    folder.mkdir()
    done = subprocess.run(
        [sys.executable, __file__, "--one-round", str(folder), "--games", str(games), "--rounds", str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(done.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="simulated games a round appends (default 4)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--compare", type=Path, default=None, help="the source tree of another ktlog (e.g. main's checkout) to time in the same rounds")
    parser.add_argument("--one-round", type=Path, default=None, help=argparse.SUPPRESS)  # a child's round: seed --rounds, figures as JSON
    args = parser.parse_args()
    if args.one_round:
        print(json.dumps(one_round(args.one_round, args.games, args.rounds)))
        return 0
    compared: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        if args.compare:
            rounds = []
            for seed in range(11, 11 + args.rounds):
                compared.append(child_round(args.compare.resolve(), Path(folder), args.games, seed))
                rounds.append(child_round(None, Path(folder), args.games, seed))
        else:
            rounds = [one_round(Path(folder), args.games, seed) for seed in range(11, 11 + args.rounds)]
    report("this ktlog", rounds, args)
    if compared:
        report(f"compared: the ktlog at {args.compare}, in the same rounds", compared, args)
    return 0


def report(title: str, rounds: list[dict[str, float]], args: argparse.Namespace) -> None:
    """The table of one ktlog's rounds."""
    figures = {key: [r[key] for r in rounds] for key in rounds[0] if key != "events"}
    ratios = [r["append wall"] / r["bare insert+commit"] for r in rounds]
    cpu_ratios = [r["append cpu"] / r["bare insert+commit cpu"] for r in rounds]

    def span(values: list[float]) -> str:
        return f"min {min(values):.3f} ms, median {statistics.median(values):.3f} ms"

    print(
        f"{title}: {args.rounds} rounds of {rounds[0]['events']:.0f} appends (WAL, synchronous=FULL); per round the median, then min and median over rounds\n"
    )
    print("| measure | result | target |")
    print("|---|---|---|")
    print(
        f"| append one event, CPU (time.process_time) | {span(figures['append cpu'])} (mean {statistics.median(figures['append cpu mean']):.3f} ms) | <= {CPU_TARGET_MS} ms |"
    )
    print(f"| append one event, wall | {span(figures['append wall'])} | |")
    print(f"| bare INSERT + COMMIT of the same row, wall, same run | {span(figures['bare insert+commit'])} | |")
    print(f"| bare INSERT + COMMIT of the same row, CPU, same run | {span(figures['bare insert+commit cpu'])} | |")
    print(f"| the same into the events table with its indexes (unique ids, seqs), CPU, same run | {span(figures['indexed insert+commit cpu'])} | |")
    print(f"| append / bare insert (wall) | min {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x | <= {RATIO_TARGET}x |")
    print(
        f"| append / bare insert (CPU; medians' ratio, and the median of the pairs' ratios) | min {min(cpu_ratios):.2f}x, median {statistics.median(cpu_ratios):.2f}x; "
        f"pairs {statistics.median(figures['cpu ratio']):.2f}x | <= {RATIO_TARGET}x |"
    )
    print(f"| append / the indexed insert (CPU, the median of the pairs' ratios) | {statistics.median(figures['indexed cpu ratio']):.2f}x | |")
    print(
        f"| floor: the insert + the head's UPDATE + COMMIT in a ktlog database, CPU; / bare insert, pairs | {span(figures['head insert+commit cpu'])}; "
        f"{statistics.median(figures['head cpu ratio']):.2f}x | |"
    )
    print(
        f"| the same append into a store in memory (all but the file), CPU; / bare insert, pairs | {span(figures['in-memory append cpu'])}; "
        f"{statistics.median(figures['in-memory cpu ratio']):.2f}x | |\n"
    )


if __name__ == "__main__":
    sys.exit(main())
