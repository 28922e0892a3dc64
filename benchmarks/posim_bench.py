"""What positions cost the simulator (issue 44 item 5; docs/performance.md): `ktlog simulate
--games N` with and without `--layout`, each a whole process as a user runs it, in turn, pair by
pair (A with the layout, B without), each into a fresh database.

    .venv/bin/python benchmarks/posim_bench.py [--games 20] [--runs 5] [--layout volkus-like]

CPU (user + system of the child, from wait4) and wall, min and median of the runs, and the
median of the pairs' ratios. The games differ (a positional game's moves are the board's), so
events per game are printed too: the cost is per game as played.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KTLOG = Path(sys.executable).with_name("ktlog")


def run(args: list[str]) -> tuple[float, float]:
    """(CPU, wall) seconds of one whole `ktlog` process."""
    start = time.monotonic()
    child = subprocess.Popen([str(KTLOG), *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"ktlog {' '.join(args)} failed")
    return usage.ru_utime + usage.ru_stime, wall


def events_per_game(db: Path) -> float:
    import sqlite3

    with sqlite3.connect(db) as conn:
        (events,) = conn.execute("SELECT avg(head_seq) FROM games").fetchone()
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--layout", default="volkus-like")
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {"with": [], "without": []}
    sizes: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            for name, extra in (("with", ["--layout", args.layout]), ("without", [])):
                db = Path(tmp) / f"{name}{i}.db"
                times[name].append(run(["--db", str(db), "simulate", "--games", str(args.games), "--seed", str(i + 1), *extra]))
                sizes[name] = events_per_game(db)
    print(f"ktlog simulate --games {args.games}, {args.runs} runs each, in turn")
    print("| | CPU min | CPU median | wall min | wall median | events a game |")
    print("|---|---|---|---|---|---|")
    for name in ("with", "without"):
        cpu, wall = [t[0] for t in times[name]], [t[1] for t in times[name]]
        label = f"--layout {args.layout}" if name == "with" else "no layout"
        print(f"| {label} | {min(cpu):.2f} s | {statistics.median(cpu):.2f} s | {min(wall):.2f} s | {statistics.median(wall):.2f} s | {sizes[name]:.0f} |")
    cpu_ratio = statistics.median(a[0] / b[0] for a, b in zip(times["with"], times["without"]))
    wall_ratio = statistics.median(a[1] / b[1] for a, b in zip(times["with"], times["without"]))
    print(f"ratio with/without, median of the pairs: CPU {cpu_ratio:.2f}x, wall {wall_ratio:.2f}x")


if __name__ == "__main__":
    main()
