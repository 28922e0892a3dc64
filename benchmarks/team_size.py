"""Cost per event against the size of the kill teams (issue 26): import and append of a game
of two 100-operative teams against one of two 10-operative teams, recorded alike (notes on 40%
of events, 20% undone and entered again: `run.chatty_game`), timed in turn in the same run.

    .venv/bin/python benchmarks/team_size.py [--runs 5] [--big 100]

The import is `Store.import_envelopes` (the rules, the hash chain, snapshots, projections) into
a database in memory; the append is `Store.append` of each event in turn into a database in
memory (no fsync: what is timed is ktlog's work, not the disk's). CPU is `time.process_time`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from run import chatty_game

from ktlog.storage.store import Store


def timed(work, sealed) -> tuple[float, float]:
    """CPU and wall seconds of `work(store, sealed)` on a new store (its opening not timed)."""
    with Store(":memory:") as store:
        cpu, wall = time.process_time(), time.perf_counter()
        work(store, sealed)
        return time.process_time() - cpu, time.perf_counter() - wall


def import_game(store: Store, sealed) -> None:
    store.import_envelopes(sealed[0][0].game_id, sealed)


def append_game(store: Store, sealed) -> None:
    game_id = store.new_game(sealed[0][0].payload, game_id=sealed[0][0].game_id)
    for envelope, _ in sealed[1:]:
        store.append(game_id, envelope.payload)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--small", type=int, default=10, help="operatives a team in the baseline game")
    parser.add_argument("--big", type=int, default=100, help="operatives a team in the big game")
    args = parser.parse_args()
    games = {}
    for size in (args.small, args.big):
        g = next(g for seed in range(50) if (g := chatty_game(size, seed)).state.result.ended_by == "battle")
        games[size] = g.sealed(f"77777777-7777-4777-8777-{size:012d}", "2026-06-01T18:00:00+00:00")
    rates: dict[tuple[str, int], dict[str, list[float]]] = {}
    for _ in range(args.runs):
        for way, work in (("import", import_game), ("append", append_game)):
            for size, sealed in games.items():  # pair by pair, in turn
                cpu, wall = timed(work, sealed)
                got = rates.setdefault((way, size), {"cpu": [], "wall": []})
                got["cpu"].append(len(sealed) / cpu)
                got["wall"].append(len(sealed) / wall)
    print(f"| benchmark | 2x{args.big} operatives | 2x{args.small} operatives (baseline, same run) | ratio (median) | target |")
    print("|---|---|---|---|---|")
    for way in ("import", "append"):
        for clock in ("cpu", "wall"):
            big, small = rates[(way, args.big)][clock], rates[(way, args.small)][clock]
            ratio = statistics.median(big) / statistics.median(small)
            target = f">= 0.5x: {'met' if ratio >= 0.5 else '**not met**'}" if clock == "cpu" else ""
            print(
                f"| {way}, events/s by {clock.upper()} ({len(games[args.big])} and {len(games[args.small])} events; best, median of {args.runs}) "
                f"| {max(big):,.0f}, {statistics.median(big):,.0f} | {max(small):,.0f}, {statistics.median(small):,.0f} | {ratio:.2f}x | {target} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
