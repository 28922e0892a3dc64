"""The replay analyser's benchmarks (issue 28): evaluating every moment of a 2,000-event game, and
fitting the model on a league of 10,000 games (or 100,000: `--games 100000 --only fit`).

    .venv/bin/python benchmarks/winprob_bench.py [--games 10000] [--runs 5] [--fit-runs 2] [--only evaluate|fit]

Evaluating: `run.py`'s long game (two big kill teams, notes and undos, at least 2,000 events) is
analysed as `ktlog analyse GAME` does (`key_moments.analyse`: the features at every moment, the
probabilities, the top moments described, the swings and their dice) with a model of every
feature; the baseline in the same run is opening the game's replay (`Replay`: one fold of the log,
which the replay pays before any evaluation). Fitting: `league_scale.py`'s dataset of `--games`
games (a simulated 200-game league repeated) is fitted as `ktlog analyse fit --source DIR` fits
(`winprob.fit`, five folds, scikit-learn's model and the baseline in each); the baseline in the
same run is reading the league's rows alone (`winprob.league_rows`). CPU (process time) and wall
seconds, min and median of the runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from league_scale import grow, seed_dataset
from run import long_game

from ktlog.analytics import winprob
from ktlog.analytics.key_moments import analyse
from ktlog.analytics.league import League
from ktlog.analytics.place import Place
from ktlog.analytics.winprob_features import FEATURES
from ktlog.play.replay import Replay

EVALUATE_TARGET_S = 0.150
FIT_TARGET_S = {10_000: 20.0, 100_000: 180.0}
"""The issue's targets: 20 s for 10,000 games, 3 minutes for 100,000 from a dataset."""
T = TypeVar("T")
MODEL = winprob.WinModel(kind="logistic", features=list(FEATURES), coefficients=[0.2, 1.2, 0.4, -0.1, 0.01, 0.01, 0.02])


def measure(runs: int, work: Callable[[], T]) -> tuple[list[float], list[float], T]:
    """CPU and wall seconds of each of `runs` runs of `work`, and what the last returned."""
    cpu, wall = [], []
    for _ in range(runs):
        c, w = time.process_time(), time.perf_counter()
        got = work()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return cpu, wall, got


def line(name: str, cpu: list[float], wall: list[float]) -> str:
    return f"  {name:<34} CPU min {min(cpu):8.3f}s  median {statistics.median(cpu):8.3f}s   wall min {min(wall):8.3f}s  median {statistics.median(wall):8.3f}s"


def bench_evaluate(runs: int) -> bool:
    game_id, g = long_game(2000)
    envelopes = [e for e, _ in g.sealed(game_id, "2026-06-01T18:00:00+00:00")]
    events = {e.seq: e.payload for e in envelopes}
    state = g.state
    moments = len(analyse(state, MODEL, events).curve)
    print(f"evaluating every moment of a {len(envelopes)}-event game ({moments} moments, {len(state.attacks)} attacks):")
    analyse(state, MODEL, events)  # warm: Polars' first use
    base = measure(runs, lambda: Replay(envelopes))
    evaluated = measure(runs, lambda: analyse(state, MODEL, events))
    print(line("baseline: open the replay (one fold)", *base[:2]))
    print(line("analyse: every moment, top 5, swings", *evaluated[:2]))
    print(
        f"  ratio analyse / replay (CPU medians): {statistics.median(evaluated[0]) / statistics.median(base[0]):.2f}; target {EVALUATE_TARGET_S * 1000:.0f} ms"
    )
    return statistics.median(evaluated[1]) <= EVALUATE_TARGET_S


def bench_fit(games: int, runs: int) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Place.of(grow(seed_dataset(Path(tmp)), games, Path(tmp) / f"league{games}"))
        rows = measure(runs, lambda: winprob.league_rows(League(folder)))
        fitted = measure(runs, lambda: winprob.fit(League(folder)))
        model = fitted[2]
        print(f"fitting on {games} games ({model.rows} rows; kept: {model.kind}; {', '.join(f'{k} log loss {s.log_loss}' for k, s in model.scores.items())}):")
        print(line("baseline: read the league's rows", *rows[:2]))
        print(line("fit: 5 folds, model and baseline", *fitted[:2]))
        target = fit_target(games)
        print(f"  ratio fit / rows (CPU medians): {statistics.median(fitted[0]) / statistics.median(rows[0]):.2f}; target {target:.0f} s")
        return statistics.median(fitted[1]) <= target


def fit_target(games: int) -> float:
    """The target for `games` games: the issue's figure at or above it (20 s up to 10,000)."""
    return next((s for n, s in sorted(FIT_TARGET_S.items()) if games <= n), max(FIT_TARGET_S.values()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fit-runs", type=int, default=2)
    parser.add_argument("--only", choices=("evaluate", "fit"), help="run one of the two benchmarks")
    args = parser.parse_args()
    if not winprob.sklearn_available():
        print("scikit-learn is not installed: pip install 'ktlog[analyse]'", file=sys.stderr)
        return 1
    met = [] if args.only == "fit" else [bench_evaluate(args.runs)]
    met += [] if args.only == "evaluate" else [bench_fit(args.games, args.fit_runs)]
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
