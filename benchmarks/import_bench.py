"""Importing new game files (issue 26): the whole process's CPU of `ktlog import`, with 1, 2 ...
checking processes, against a bare `executemany` of the same rows into the same events table
(its unique indexes included) with one commit, timed in the same run; and each stage of the
import timed alone (a child process each round, one checking process), the floor a faster
import would stand on.

    .venv/bin/python benchmarks/import_bench.py [--games 200] [--rounds 3] [--jobs 1,2] [--compare PATH]

`ktlog import` runs as a child process into a new database each time (WAL, synchronous=FULL, one
fsync at the end, as it does), its CPU the child's user + system time (its checkers' included:
it waits for them); each ktlog's modules are compiled to bytecode first, as an install has them
(`startup_bench.compile_bytecode`). `--compare PATH` also runs the ktlog whose source tree is at PATH (another
checkout, e.g. main's) in the same rounds, its stages too, so a before and an after share the
machine's noise.
Rounds alternate the ways; figures are min and median over rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from startup_bench import compile_bytecode

from ktlog.files.gamelog import _encoder, make_header, read_game_log, write_game_log
from ktlog.play.importer import available_cores
from ktlog.play.simulate import simulate_games
from ktlog.reducer import fold_with_snapshots
from ktlog.storage.rows import INSERT_EVENT, event_rows, folded
from ktlog.storage.snapshots import SNAPSHOT_EVERY
from ktlog.storage.store import Store

CPU_RATIO_TARGET = 1.5
"""`ktlog import`'s whole-process CPU / the bare executemany's."""
SCALING_TARGET = 0.7
"""With N checking processes, at least this times N the events/s of one (where the cores exist)."""


def game_files(folder: Path, games: int) -> int:
    """Simulated games' game-log files in `folder`; their events in all."""
    folder.mkdir()
    total = 0
    for game_id, g in simulate_games(games, seed=23):
        sealed = g.sealed(game_id, g.state.date + "T18:00:00+00:00")
        header = _encoder.encode(make_header(game_id, g.state, len(sealed)))
        write_game_log(folder / f"{game_id}.jsonl", [header] + [_encoder.encode(e) for e, _ in sealed])
        total += len(sealed)
    return total


def child_cpu(run: Callable[[], None]) -> tuple[float, float]:
    """CPU seconds (user + system) of the child processes `run` waits for, and its wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run()
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def ktlog_import(source: Path | None, db: Path, files: Path, jobs: int) -> Callable[[], None]:
    """`ktlog import` in a child process, of this ktlog or of the source tree at `source`."""
    env = {**os.environ, "PYTHONPATH": str(source)} if source else None

    def run() -> None:
        done = subprocess.run(
            [sys.executable, "-m", "ktlog", "--db", str(db), "import", "--jobs", str(jobs), str(files)], env=env, capture_output=True, text=True
        )
        if done.returncode != 0 or " 0 refused" not in done.stdout + done.stderr:
            raise SystemExit(f"ktlog import failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")

    return run


def event_table_rows(files: Path) -> list[tuple]:
    """The events table's rows of every event of `files` (`event_rows`, each game's key first):
    what a store holding every event as a row inserts (finished games' events are archived in
    blocks since schema 20, so a stored database's events table no longer holds them)."""
    return [(key, *row) for key, path in enumerate(sorted(files.glob("*.jsonl")), 1) for row in event_rows(read_game_log(path)[1])]


def bare_executemany(stored: Path, rows: list[tuple], db: Path) -> tuple[float, float]:
    """CPU and wall of inserting `rows` into a new database with `stored`'s events table, its
    indexes and the event ids' table its trigger fills (the unique ids and seqs an import
    checks), in one executemany and one commit (WAL, synchronous=FULL)."""
    source = sqlite3.connect(stored)
    schema = [
        sql
        for (sql,) in source.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name IN ('events', 'event_ids') AND type IN ('table', 'index', 'trigger') AND sql IS NOT NULL"
            " ORDER BY type = 'trigger', type = 'index'"
        )
    ]
    source.close()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    for sql in schema:
        conn.execute(sql)  # its foreign key names a table this database lacks: SQLite checks none by default
    t, c = time.perf_counter(), time.process_time()
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany(INSERT_EVENT, rows)
    conn.execute("COMMIT")
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    conn.close()
    return cpu, wall


def stages(files: Path, db: Path) -> dict[str, float]:
    """CPU seconds of each stage of an import, alone, in this process (one checking process)."""
    paths = sorted(files.glob("*.jsonl"))
    out: dict[str, float] = {}

    def timed(name: str, work: Callable[[], object]) -> object:
        c = time.process_time()
        result = work()
        out[name] = time.process_time() - c
        return result

    read = timed("read, parse, hash chain (files.gamelog)", lambda: [read_game_log(p) for p in paths])
    rows = timed("boundary checks, rows (store.event_rows)", lambda: [event_rows(sealed) for _, sealed in read])
    folds = timed("rules: fold (reducer)", lambda: [fold_with_snapshots([(e.seq, e.payload) for e, _ in sealed], SNAPSHOT_EVERY) for _, sealed in read])
    games = timed(
        "rows ready to insert: snapshots packed and sealed, projection rows, games columns (store.folded)",
        lambda: [folded(h.game_id, r, state, s) for (h, _), r, (state, s) in zip(read, rows, folds)],
    )
    store = Store(db)

    def write() -> None:
        with store.batch():
            for (header, _), game in zip(read, games):
                store.import_folded(header.game_id, game)

    timed("write: insert them (Store.import_folded, the importing process's part)", write)
    store.close()
    return out


def stages_of(source: Path | None, files: Path, db: Path) -> dict[str, float]:
    """`stages` in a child process running this ktlog or the one whose source tree is `source`."""
    env = {**os.environ, "PYTHONPATH": str(source)} if source else None
    done = subprocess.run([sys.executable, __file__, "--stages-of", str(files), str(db)], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def start_up(source: Path | None) -> float:
    """CPU seconds of `ktlog import --help`: the interpreter and the modules an import loads."""
    env = {**os.environ, "PYTHONPATH": str(source)} if source else None
    return child_cpu(lambda: subprocess.run([sys.executable, "-m", "ktlog", "import", "--help"], env=env, capture_output=True, check=True))[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", default=None, help="checking processes to try, e.g. 1,2,4 (default: 1, 2 and the cores available)")
    parser.add_argument("--compare", type=Path, default=None, help="the source tree of another ktlog (e.g. main's checkout) to time in the same rounds")
    parser.add_argument("--stages-of", nargs=2, type=Path, default=None, help=argparse.SUPPRESS)  # FILES DB: `stages` as JSON, for `stages_of`
    args = parser.parse_args()
    if args.stages_of:
        print(json.dumps(stages(*args.stages_of)))
        return 0
    compile_bytecode(None, args.compare)  # each `ktlog import` starts as an installed ktlog's does
    cores = available_cores()
    jobs = sorted({int(j) for j in args.jobs.split(",")}) if args.jobs else sorted({1, min(2, cores), cores})
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        events = game_files(tmp / "files", args.games)
        ways: dict[str, Callable[[Path], tuple[float, float]]] = {}
        for j in jobs:
            ways[f"ktlog import --jobs {j}"] = lambda db, j=j: child_cpu(ktlog_import(None, db, tmp / "files", j))
        if args.compare:
            for j in jobs:
                ways[f"compared ktlog import --jobs {j}"] = lambda db, j=j: child_cpu(ktlog_import(args.compare, db, tmp / "files", j))
        rows = event_table_rows(tmp / "files")
        ways["bare executemany + commit"] = lambda db: bare_executemany(tmp / "ktlog import --jobs 1 0.db", rows, db)
        cpu: dict[str, list[float]] = {way: [] for way in ways}
        wall: dict[str, list[float]] = {way: [] for way in ways}
        for n in range(args.rounds):
            for way, run in ways.items():
                c, w = run(tmp / f"{way} {n}.db")
                cpu[way].append(c)
                wall[way].append(w)
        floors: list[dict[str, float]] = []
        compared_floors: list[dict[str, float]] = []
        for n in range(args.rounds):  # each stage in a child process, the compared ktlog's in turn
            floors.append(stages_of(None, tmp / "files", tmp / f"stages {n}.db"))
            if args.compare:
                compared_floors.append(stages_of(args.compare, tmp / "files", tmp / f"compared stages {n}.db"))
        starts = [start_up(None) for _ in range(args.rounds)]
        compared_starts = [start_up(args.compare) for _ in range(args.rounds)] if args.compare else []
    bare = statistics.median(cpu["bare executemany + commit"])

    def span(values: list[float]) -> str:
        return f"min {min(values):.2f}, median {statistics.median(values):.2f}"

    print(f"{args.games} new game files, {events:,} events; {args.rounds} rounds; {cores} cores available; CPU and wall in seconds\n")
    print("| way | CPU s | wall s | events/s (wall, median) | CPU / bare (medians) | target |")
    print("|---|---|---|---|---|---|")
    for way in ways:
        target = f"<= {CPU_RATIO_TARGET}x" if way == "ktlog import --jobs 1" else ""
        ratio = statistics.median(cpu[way]) / bare
        print(f"| {way} | {span(cpu[way])} | {span(wall[way])} | {events / statistics.median(wall[way]):,.0f} | {ratio:.2f}x | {target} |")
    one = events / statistics.median(wall["ktlog import --jobs 1"])
    print("\n| checking processes | events/s (wall, median) | x one process | target (0.7 N, where the cores exist) |")
    print("|---|---|---|---|")
    for j in jobs:
        rate = events / statistics.median(wall[f"ktlog import --jobs {j}"])
        print(f"| {j} | {rate:,.0f} | {rate / one:.2f}x | {'>= ' + format(SCALING_TARGET * j, '.1f') + 'x' if 1 < j <= cores else ''} |")
    rows = [("start-up: `ktlog import --help`", starts, compared_starts)]
    rows += [(stage, [f[stage] for f in floors], [f[stage] for f in compared_floors]) for stage in floors[0]]
    sums = [sum(f.values()) + s for f, s in zip(floors, starts, strict=True)]
    rows.append(("sum of the stages and the start-up", sums, [sum(f.values()) + s for f, s in zip(compared_floors, compared_starts, strict=True)]))
    print(f"\n| stage, alone, a child process a round (the floor) | CPU s | x bare (medians) |{' compared ktlog, CPU s | x bare |' if args.compare else ''}")
    print(f"|---|---|---|{'---|---|' if args.compare else ''}")
    for stage, mine, theirs in rows:
        compared = f" {span(theirs)} | {statistics.median(theirs) / bare:.2f}x |" if theirs else ""
        print(f"| {stage} | {span(mine)} | {statistics.median(mine) / bare:.2f}x |{compared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
