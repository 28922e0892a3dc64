"""Issue 5's benchmark: standings, teams and curves over a 10,000-game league, three ways.

    make bench-analytics       # or: .venv/bin/python benchmarks/analytics.py [--games N] [--db PATH]

1. `ktlog stats standings`, `teams` and `curves` as a user runs them (separate processes,
   Polars over the projection tables); median of 3 runs each, and each one's peak memory.
2. The naive way: fold every game with the reducer in Python and compute the same figures
   with dicts and loops.
3. pandas over the same projection tables (run in .venv-bench, which has pandas; ktlog's own
   environment does not need it).
The league is made by `ktlog simulate --games N --seed 1` (reused when --db already has it); its
games are marked simulated, so every statistic here takes them in (`--simulated`), as the naive
fold and pandas count every game.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KTLOG = [sys.executable, "-c", "from ktlog.cli import main; main()"]
STATS = ("standings", "teams", "curves")


def ensure_league(db: Path, games: int) -> float | None:
    if db.exists():
        return None
    t = time.perf_counter()
    subprocess.run([*KTLOG, "--db", str(db), "simulate", "--games", str(games), "--seed", "1"], check=True)
    return time.perf_counter() - t


def timed_command(db: Path, stat: str) -> tuple[float, int]:
    """Seconds and peak resident memory (KiB) of one `ktlog stats` run in its own process."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, *KTLOG, "--db", str(db), "stats", stat, "--format", "csv", "--simulated"], check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), int(out[1])


def polars_in_process(db: Path) -> float:
    """The three figures in one process (reading included, imports excluded), like the pandas run."""
    from ktlog.analytics.curves import average_curves
    from ktlog.analytics.league import Filters, League
    from ktlog.analytics.performance import entity_stats
    from ktlog.analytics.standings import standings

    t = time.perf_counter()
    league = League(db, Filters(simulated=True))
    standings(league), entity_stats(league, "kill_team"), average_curves(league)
    return time.perf_counter() - t


def naive(db: Path) -> float:
    """Fold every game and compute standings, per-team figures and average curves in Python."""
    from ktlog.reducer import fold
    from ktlog.storage.store import Store

    t = time.perf_counter()
    store = Store(db)
    points: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0, 0])  # games, points, vp for, vp against
    teams: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0, 0])  # games, points, vp, kill grade
    curve: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0.0, 0])
    for game in store.games():
        if game.status != "finished":
            continue
        state = fold(store.events(game.id))
        names = list(state.players)
        for name in names:
            p, other = state.players[name], state.players[state.opponent(name)]
            r = state.result
            score = 0.5 if r.draw else 1.0 if r.winner == name else 0.0
            for table, key in ((points, name), (teams, p.kill_team)):
                row = table[key]
                row[0] += 1
                row[1] += score
            points[name][2] += p.total_vp
            points[name][3] += other.total_vp
            teams[p.kill_team][2] += p.total_vp
            teams[p.kill_team][3] += p.kill_grade
            if not r.draw:
                so_far = 0
                for tp in range(1, 5):
                    so_far += sum(v.vp for v in state.vp_log if v.player == name and v.turning_point == tp)
                    cell = curve[("win" if score else "loss", tp)]
                    cell[0] += so_far
                    cell[1] += 1
    sorted(points.items(), key=lambda kv: (-kv[1][1], -(kv[1][2] - kv[1][3])))
    return time.perf_counter() - t


def pandas_seconds(db: Path) -> float | None:
    python = ROOT / ".venv-bench" / "bin" / "python"
    if not python.exists():
        return None
    out = subprocess.run([str(python), str(ROOT / "benchmarks" / "pandas_stats.py"), str(db)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["seconds"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", type=Path, default=Path("/tmp/ktlog-bench-league.db"))
    args = parser.parse_args()
    built = ensure_league(args.db, args.games)
    runs = {stat: [timed_command(args.db, stat) for _ in range(3)] for stat in STATS}
    cli = {stat: statistics.median(t for t, _ in r) for stat, r in runs.items()}
    memory = {stat: max(m for _, m in r) for stat, r in runs.items()}
    total = sum(cli.values())
    polars_s = min(polars_in_process(args.db) for _ in range(3))
    pandas_s = min(pandas_seconds(args.db) or 0 for _ in range(3)) or None
    naive_s = naive(args.db)
    print(f"League: {args.db} ({args.games:,} simulated games)" + (f", built in {built:.0f} s" if built else ""))
    print("| computation | time | peak memory |")
    print("|---|---|---|")
    for stat in STATS:
        print(f"| `ktlog stats {stat}` (whole command, own process) | {cli[stat]:.2f} s | {memory[stat] / 1024:.0f} MiB |")
    print(f"| the three together (target <= 3 s) | {total:.2f} s | |")
    print(f"| the same three figures in one process with Polars (reading included, best of 3) | {polars_s:.2f} s | |")
    print(
        f"| the same with pandas over the same tables (best of 3) | {pandas_s:.2f} s | |"
        if pandas_s
        else "| pandas | not run (make bench-analytics sets up .venv-bench) | |"
    )
    print(f"| the same the naive way: fold every game with the reducer in Python | {naive_s:.1f} s | |")
    if pandas_s:
        print(f"| pandas / Polars, same run | {pandas_s / polars_s:.1f}x | |")
    print(f"| naive / Polars, same run | {naive_s / polars_s:.0f}x | |")
    print(f"(this process's own peak: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB, the naive fold)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
