"""What players as identities cost a statistic: `ktlog stats standings` over a simulated league,
with `League.identities` worked out from the database (`play.players.roster`: the keyring,
signatures, origins, renames) against a baseline whose identities are the names as recorded (as
before players were identities). Runs alternate, pair by pair, in one process; CPU and wall
seconds, min and median.

    .venv/bin/python benchmarks/players_bench.py [--games 2000] [--runs 7] [--db PATH]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from functools import cached_property
from pathlib import Path

import polars as pl

from ktlog.analytics.league import Filters, League
from ktlog.analytics.standings import standings


class NamesOnly(League):
    """The baseline: every name as recorded is a player."""

    @cached_property
    def identities(self) -> pl.DataFrame:
        rows = self.read("game_results", ("game_key", "player"))
        return rows.select("game_key", pl.col("player").alias("name"), pl.col("player").alias("player_id"), "player")


def timed(kind: type[League], db: Path) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    standings(kind(db, Filters(simulated=True)))
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", type=Path, default=Path("/tmp/ktlog-players-bench.db"))
    args = parser.parse_args()
    if not args.db.exists():
        subprocess.run([sys.executable, "-m", "ktlog", "--db", str(args.db), "simulate", "--games", str(args.games), "--seed", "1"], check=True)
    timed(League, args.db)  # warm the page cache and imports
    runs: dict[str, list[tuple[float, float]]] = {"names only (baseline)": [], "identities": []}
    for _ in range(args.runs):
        runs["names only (baseline)"].append(timed(NamesOnly, args.db))
        runs["identities"].append(timed(League, args.db))
    identities = League(args.db, Filters(simulated=True))
    wall, cpu = time.perf_counter(), time.process_time()
    seats = identities.identities.height
    alone = (time.perf_counter() - wall, time.process_time() - cpu)
    print(f"{args.db}: {seats} player-game rows; League.identities alone: wall {alone[0]:.3f} s, CPU {alone[1]:.3f} s")
    for name, times in runs.items():
        walls, cpus = [w for w, _ in times], [c for _, c in times]
        print(
            f"standings, {name:22}: wall min {min(walls):.3f} median {statistics.median(walls):.3f} s; "
            f"CPU min {min(cpus):.3f} median {statistics.median(cpus):.3f} s"
        )
    base, mine = (statistics.median(c for _, c in runs[k]) for k in runs)
    print(f"CPU median ratio identities / baseline: {mine / base:.2f}")


if __name__ == "__main__":
    main()
