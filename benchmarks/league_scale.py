"""Issue 15's statistics at scale: `stats standings`, `players` and `teams` from a Parquet
dataset (`--source DIR`) of 1,000, 10,000 and 100,000 games, printing the growth.

    .venv/bin/python benchmarks/league_scale.py [--games 1000,10000,100000] [--runs 3]

How the datasets are made: a 200-game league is simulated (`simulate_into`, every event through
the rules; not marked simulated, as a league of people) and exported with `ktlog dataset export`;
its tables are then repeated, each copy with new game keys (the games numbered) and ids, dates moved on a day a copy, and players renamed per copy into a
pool of 320 (16 simulated players x 20: `<name>-<copy % 20>`), so Elo rates many players over a long history. The
statistics are computed the way `ktlog stats ... --source DIR` computes them (a fresh `League`
over the folder each time, reading through Polars `scan_parquet`); min and median of `--runs`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

from ktlog.analytics.columns import PROJECTION_TABLES
from ktlog.analytics.dataset import export
from ktlog.analytics.league import League
from ktlog.analytics.performance import entity_stats
from ktlog.analytics.place import Place
from ktlog.analytics.standings import standings
from ktlog.play.simulate import simulate_into
from ktlog.storage.store import Store

BASE_GAMES = 200
TARGET_S = 3.0
NAMED = {"player", "victim", "target_player", "by_player", "initiative"}
"""Columns holding player names, renamed per copy."""


def seed_dataset(tmp: Path) -> Path:
    db, folder = tmp / "seed.db", tmp / "seed"
    with Store(db) as store:
        simulate_into(store, BASE_GAMES, seed=1)
    export(db, Place.of(folder))
    return folder


def read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(sorted((folder / table).glob("*/*/*.parquet")), hive_partitioning=False)


def grow(seed: Path, games: int, out: Path) -> Path:
    """`seed`'s tables repeated to `games` games, written as one partition per table."""
    copies = -(-games // BASE_GAMES)
    base = {t: read(seed, t) for t in ("games", *PROJECTION_TABLES)}
    hashed = base["games"].get_column("game_key").sort()
    span = len(hashed)
    for table, frame in base.items():
        frame = frame.with_columns(pl.col("game_key").replace_strict(hashed, range(span), return_dtype=pl.Int64))  # a dataset's keys are hashes: number them
        parts = []
        for copy in range(copies):
            suffix = f"-{copy % 20}"
            part = frame.with_columns(pl.col("game_key") + copy * span)
            if "game_id" in part.columns:
                part = part.with_columns(pl.format("{}-{}", pl.col("game_id").str.slice(0, 28), pl.lit(f"{copy:07d}")).alias("game_id"))
            if "date" in part.columns:
                part = part.with_columns(pl.col("date") + pl.duration(days=copy))
            part = part.with_columns([pl.col(c) + suffix for c in part.columns if c in NAMED])
            parts.append(part)
        grown = pl.concat(parts)
        keys = grown.get_column("game_key").unique().sort().head(games)
        grown = grown.filter(pl.col("game_key").is_in(keys.implode()))
        target = out / table / "1" / "Simulated League"
        target.mkdir(parents=True)
        grown.write_parquet(target / "part-0.parquet")
    (out / "metadata.json").write_text((seed / "metadata.json").read_text())
    (out / "verifications").mkdir()
    return out


def timed(folder: Path, runs: int) -> dict[str, tuple[float, float]]:
    ways = {
        "standings": lambda: standings(League(Place.of(folder))),
        "players": lambda: entity_stats(League(Place.of(folder)), "player"),
        "teams": lambda: entity_stats(League(Place.of(folder)), "kill_team"),
    }
    out = {}
    for name, run in ways.items():
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            run()
            times.append(time.perf_counter() - t)
        out[name] = (min(times), statistics.median(times))
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(n) for n in args.games.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        seed = seed_dataset(tmp)
        print("| games | standings (min / median s) | players | teams | together (median s) | target |")
        print("|---|---|---|---|---|---|")
        previous = None
        for n in sizes:
            figures = timed(grow(seed, n, tmp / f"league-{n}"), args.runs)
            together = sum(median for _, median in figures.values())
            growth = f" ({together / previous:.1f}x the previous size's)" if previous else ""
            cells = " | ".join(f"{lo:.3f} / {med:.3f}" for lo, med in figures.values())
            print(f"| {n:,} | {cells} | {together:.2f}{growth} | {'<= 3 s at 100,000 games' if n == 100_000 else ''} |")
            previous = together
    return 0


if __name__ == "__main__":
    sys.exit(main())
