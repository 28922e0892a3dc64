"""Pairing a Swiss round (`play.tournament_swiss.pair_round`) for events of many players: the
last round of an event whose earlier rounds were played with random results (a draw one game
in ten), the hardest to pair (most rematches to avoid). The baseline, timed in the same run
pair by pair, is the standings alone (`standings`), which every pairing after round 1 computes
first: the ratio is what the pairing itself adds.

    .venv/bin/python benchmarks/tournament_pairing.py [--players 64,300,1000] [--rounds 9] [--runs 5]

CPU (process time) and wall seconds, min and median of `--runs`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ktlog.play.tournament_swiss import DRAW, LOSS, WIN, Outcome, Table, pair_round, standings


def played(count: int, rounds: int, seed: int = 1) -> tuple[list[str], list[Table]]:
    """`count` players and the tables of `rounds - 1` rounds played with random results."""
    players = [f"P{i:04d}" for i in range(count)]
    results = random.Random(seed)
    tables: list[Table] = []
    for round_ in range(1, rounds):
        for t in pair_round(players, tables, round_, seed):
            if t.b is None:
                tables.append(t)
                continue
            pick = results.random()
            winner = None if pick < 0.1 else t.a if pick < 0.55 else t.b
            points = {t.a: DRAW, t.b: DRAW} if winner is None else {p: WIN if p == winner else LOSS for p in t.players}
            tables.append(Table(t.round, t.table, t.a, t.b, Outcome(points, {t.a: results.randint(0, 20), t.b: results.randint(0, 20)}, "battle")))
    return players, tables


def timed(work, *args) -> tuple[float, float]:
    """CPU and wall seconds of one call."""
    c, w = time.process_time(), time.perf_counter()
    work(*args)
    return time.process_time() - c, time.perf_counter() - w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="64,300,1000")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"round {args.rounds} of an event, {args.runs} runs each; ms: min / median")
    for count in map(int, args.players.split(",")):
        players, tables = played(count, args.rounds)
        pair_cpu, pair_wall, base_cpu, base_wall = [], [], [], []
        for _ in range(args.runs):  # pair by pair: the baseline and the pairing take turns
            c, w = timed(standings, players, tables)
            base_cpu.append(c)
            base_wall.append(w)
            c, w = timed(pair_round, players, tables, args.rounds, 1)
            pair_cpu.append(c)
            pair_wall.append(w)

        def ms(values: list[float]) -> str:
            return f"{min(values) * 1000:.1f} / {statistics.median(values) * 1000:.1f}"

        ratio = statistics.median(pair_cpu) / statistics.median(base_cpu)
        print(
            f"{count:5} players: pairing CPU {ms(pair_cpu)}, wall {ms(pair_wall)}; standings alone CPU {ms(base_cpu)}, wall {ms(base_wall)}; CPU ratio {ratio:.1f}x"
        )


if __name__ == "__main__":
    main()
