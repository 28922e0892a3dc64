"""Pairing a Swiss round (`play.tournament_swiss.pair_round`: a maximum-weight matching, issue 40)
for events of many players: the last round of an event whose earlier rounds were played with
random results (a draw one game in ten), the hardest to pair (most rematches to avoid).

Two ways, timed in the same run pair by pair: ktlog's (its own blossom algorithm on each
player's nearest candidates, extended by pricing until the duals prove it exact) and networkx's
`max_weight_matching` over every pair with the same weights (the baseline the matching's tests
compare it with). Both give a matching of the same weight (checked). The target: 256 players in
under 1 s CPU.

    .venv/bin/python benchmarks/tournament_pairing.py [--players 64,128,256,512] [--rounds 9] [--runs 5]
    .venv/bin/python benchmarks/tournament_pairing.py --process 256 [--rounds 9] [--runs 5]

CPU (process time) and wall seconds, min and median of `--runs`. With `--process N`: whole
processes as the organiser runs them, on a database of an N-player event whose first rounds were
reported as scores: `ktlog tournament re-pair NAME` (the last round paired again: its tables
read, the standings and the matching) against `ktlog tournament standings NAME` (the same
reading, no pairing), in turns; CPU from the children's resource usage.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx

from ktlog.play import tournament, tournament_entry, tournament_results, tournament_rounds
from ktlog.play.database import Store
from ktlog.play.tournament_swiss import DRAW, LOSS, WIN, Outcome, Ranking, RoundGraph, Table, pair_round, standings


def played(count: int, rounds: int, seed: int = 1) -> tuple[list[str], list[Table]]:
    """`count` players and the tables of `rounds - 1` rounds played with random results."""
    players = [f"P{i:04d}" for i in range(count)]
    results = random.Random(seed)
    tables: list[Table] = []
    for round_ in range(1, rounds):
        for t in pair_round(players, tables, round_, Ranking(seed=seed)):
            if t.b is None:
                tables.append(t)
                continue
            pick = results.random()
            winner = None if pick < 0.1 else t.a if pick < 0.55 else t.b
            points = {t.a: DRAW, t.b: DRAW} if winner is None else {p: WIN if p == winner else LOSS for p in t.players}
            tables.append(Table(t.round, t.table, t.a, t.b, Outcome(points, {t.a: results.randint(0, 20), t.b: results.randint(0, 20)}, "battle")))
    return players, tables


def weights_of(players: list[str], tables: list[Table]) -> RoundGraph:
    """The round's graph, as `pair_round` builds it."""
    ranked = standings(players, tables, Ranking(seed=1))
    met: dict[str, set[str]] = {p: set() for p in players}
    for t in tables:
        if t.b is not None:
            met[t.a].add(t.b)
            met[t.b].add(t.a)
    return RoundGraph([s.player for s in ranked], {s.player: s.points for s in ranked}, met, {t.a for t in tables if t.b is None})


def with_networkx(weights: RoundGraph) -> int:
    """networkx's maximum-weight matching of every pair; its total weight."""
    graph = nx.Graph()
    graph.add_weighted_edges_from(weights.every_pair())
    return sum(graph[a][b]["weight"] for a, b in nx.max_weight_matching(graph))


def with_ktlog(players: list[str], tables: list[Table], rounds: int, weights: RoundGraph) -> int:
    """ktlog's pairing of the round (standings included); its total weight."""
    made = pair_round(players, tables, rounds, Ranking(seed=1))
    place = {p: i for i, p in enumerate(weights.order)}
    return sum(weights.weight(place[t.a], place[t.b] if t.b else weights.vertices - 1) for t in made)


def timed(work, *args) -> tuple[float, float, int]:
    """CPU and wall seconds of one call, and what it returned."""
    c, w = time.process_time(), time.perf_counter()
    out = work(*args)
    return time.process_time() - c, time.perf_counter() - w, out


def event_database(folder: Path, count: int, rounds: int) -> Path:
    """A database of a `count`-player event, `rounds - 1` rounds reported as scores and the last paired."""
    db = folder / "event.db"
    rng = random.Random(1)
    with Store(db) as store:
        tournament.create(store, "Big Event", rounds, None)
        tournament_entry.add(store, "Big Event", [f"Player {n:04d}" for n in range(count)])
        for round_ in range(1, rounds + 1):
            paired = tournament_rounds.pair(store, "Big Event", seed=1 if round_ == 1 else None)
            if round_ < rounds:
                event = tournament.load(store, "Big Event")
                games = [t for t in paired.tables if t.b is not None]
                reports = [tournament_results.check(event, round_, t.table, (rng.randint(0, 20), rng.randint(0, 20))) for t in games]
                tournament_results.write(store, event, reports)
    return db


def whole_processes(count: int, rounds: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = event_database(Path(folder), count, rounds)
        ktlog = [sys.executable, "-m", "ktlog", "--db", str(db), "tournament"]
        times: dict[str, tuple[list[float], list[float]]] = {"re-pair": ([], []), "standings": ([], [])}
        for _ in range(runs):
            for command in times:
                before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
                subprocess.run([*ktlog, command, "Big Event", "--json"], check=True, capture_output=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                times[command][0].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                times[command][1].append(time.perf_counter() - wall)
        for command, (cpu, wall) in times.items():
            print(
                f"{count} players, round {rounds}: ktlog tournament {command}: CPU {min(cpu):.3f} / {statistics.median(cpu):.3f} s, wall {min(wall):.3f} / {statistics.median(wall):.3f} s"
            )
        ratio = statistics.median(times["re-pair"][0]) / statistics.median(times["standings"][0])
        print(f"re-pair / standings CPU: {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="64,128,256,512")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--process", type=int, help="Time whole processes on a database of an event of this many players instead.")
    args = parser.parse_args()
    if args.process:
        whole_processes(args.process, args.rounds, args.runs)
        return
    print(f"round {args.rounds} of an event, {args.runs} runs each; s: min / median")
    for count in map(int, args.players.split(",")):
        players, tables = played(count, args.rounds)
        weights = weights_of(players, tables)
        ours_cpu, ours_wall, base_cpu, base_wall = [], [], [], []
        for _ in range(args.runs):  # pair by pair: the baseline and ktlog take turns
            c, w, theirs = timed(with_networkx, weights)
            base_cpu.append(c)
            base_wall.append(w)
            c, w, mine = timed(with_ktlog, players, tables, args.rounds, weights)
            ours_cpu.append(c)
            ours_wall.append(w)
            assert mine == theirs, f"{count} players: ktlog's matching weighs {mine}, networkx's {theirs}"

        def s(values: list[float]) -> str:
            return f"{min(values):.3f} / {statistics.median(values):.3f}"

        ratio = statistics.median(base_cpu) / statistics.median(ours_cpu)
        print(
            f"{count:5} players: ktlog CPU {s(ours_cpu)}, wall {s(ours_wall)}; networkx CPU {s(base_cpu)}, wall {s(base_wall)}; networkx / ktlog {ratio:.1f}x"
        )


if __name__ == "__main__":
    main()
