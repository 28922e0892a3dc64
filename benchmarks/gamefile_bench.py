"""Importing a game typed as a game file (.ktgame) against importing its game-log file (.jsonl).

The 15 sample games, each exported both ways, then imported into a fresh database, every file
in one run; min and median over repeated runs, the two ways in the same run. A game file costs
more: its rosters are read, its events parsed from text, sealed, and folded twice (once to name
the line of a refusal, once by the import).

    .venv/bin/python benchmarks/gamefile_bench.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from ktlog.data import SAMPLE_GAMES
from ktlog.play.game_files import game_file
from ktlog.play.importer import import_file
from ktlog.storage.store import Store


def timed_import(files: list[Path], db: Path) -> float:
    store = Store(db)
    start = time.perf_counter()
    with store.batch():
        for path in files:
            import_file(store, path)
    elapsed = time.perf_counter() - start
    store.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    folder = Path(tempfile.mkdtemp())
    logs = sorted(SAMPLE_GAMES.glob("*.jsonl"))
    source = Store(folder / "source.db")
    typed = []
    for path in logs:
        game_id = import_file(source, path).game_id
        typed.append(folder / f"{path.stem}.ktgame")
        typed[-1].write_text(game_file(source, game_id))
    events = sum(source.game(r.id).head_seq for r in source.games())
    times: dict[str, list[float]] = {"jsonl": [], "ktgame": []}
    for run in range(repeat):
        for kind, files in (("jsonl", logs), ("ktgame", typed)):
            times[kind].append(timed_import(files, folder / f"{kind}-{run}.db"))
    print(f"{len(logs)} games, {events} events; {repeat} runs (min / median)")
    for kind, values in times.items():
        print(f"  import {kind:7} {min(values):.3f} / {statistics.median(values):.3f} s  ({events / statistics.median(values):,.0f} events/s)")
    ratio = statistics.median(times["ktgame"]) / statistics.median(times["jsonl"])
    print(f"  ktgame / jsonl (median): {ratio:.2f}")


if __name__ == "__main__":
    main()
