"""Issue 44's second benchmark: what positions cost a recorded game. Each sample battle
(ktlog/data/battles/) against the same events without positions or layout, pair by pair.

    .venv/bin/python benchmarks/board_game_bench.py [--repeats 7]

1. In one process: folding the game (every rule checked, the board's checks with positions).
2. A whole process as a user runs it: `ktlog verify` of a database holding the one game (its
   hashes checked and the game folded again), then `ktlog chart board` of the battle.
Each figure: min and median of the repeats, CPU and wall.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from ktlog.data import SAMPLE_BATTLES
from ktlog.events import Event, GameCreated
from ktlog.files.gamelog import read_game_log
from ktlog.reducer import fold
from ktlog.storage.store import Store

KTLOG = str(Path(sys.executable).parent / "ktlog")


def without_positions(event: Event) -> Event:
    if isinstance(event, GameCreated):
        return msgspec.structs.replace(event, layout=None)
    if getattr(event, "x", None) is not None:
        return msgspec.structs.replace(event, x=None, y=None, z=None)  # type: ignore[call-arg]
    return event


def figures(name: str, cpu: list[float], wall: list[float], unit: str = "ms") -> str:
    return f"  {name:<34} CPU min {min(cpu):8.2f} median {statistics.median(cpu):8.2f} {unit}   wall min {min(wall):8.2f} median {statistics.median(wall):8.2f} {unit}"


def in_process(events: list[Event], repeats: int) -> tuple[list[float], list[float]]:
    records = list(enumerate(events, 1))
    cpu, wall = [], []
    for _ in range(repeats):
        c, w = time.process_time(), time.perf_counter()
        fold(records)
        cpu.append((time.process_time() - c) * 1e3)
        wall.append((time.perf_counter() - w) * 1e3)
    return cpu, wall


def whole(args: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    subprocess.run([KTLOG, *args], check=True, capture_output=True)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e3, wall * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    repeats = parser.parse_args().repeats
    for path in sorted(SAMPLE_BATTLES.glob("*.jsonl")):
        events = [e.payload for e, _ in read_game_log(path)[1]]
        bare = [without_positions(e) for e in events]
        print(f"{path.stem} ({len(events)} events)")
        pairs = [(in_process(events, 1), in_process(bare, 1)) for _ in range(repeats)]  # pair by pair
        with_cpu, with_wall = [p[0][0][0] for p in pairs], [p[0][1][0] for p in pairs]
        bare_cpu, bare_wall = [p[1][0][0] for p in pairs], [p[1][1][0] for p in pairs]
        print(figures("fold, with positions", with_cpu, with_wall))
        print(figures("fold, without", bare_cpu, bare_wall))
        ratio = statistics.median(with_cpu) / statistics.median(bare_cpu)
        print(f"  ratio of the medians: CPU {ratio:.1f}, wall {statistics.median(with_wall) / statistics.median(bare_wall):.1f}")
        with tempfile.TemporaryDirectory() as folder:
            dbs, games = {}, {}
            for name, stored in (("with", events), ("without", bare)):
                dbs[name] = Path(folder) / f"{name}.db"
                with Store(dbs[name]) as store:
                    games[name] = store.new_game(stored[0], stored[1:])
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in dbs}
            for _ in range(repeats):  # pair by pair
                for name, db in dbs.items():
                    runs[name].append(whole(["--db", str(db), "verify"]))
            for name, got in runs.items():
                print(figures(f"ktlog verify, {name} positions", [c for c, _ in got], [w for _, w in got]))
            chart = [whole(["--db", str(dbs["with"]), "chart", "board", games["with"][:8], "-o", str(Path(folder) / f"b{i}.svg")]) for i in range(repeats)]
            print(figures("ktlog chart board (latest seq)", [c for c, _ in chart], [w for _, w in chart]))


if __name__ == "__main__":
    main()
