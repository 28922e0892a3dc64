"""What issue 17's checks cost: the event boundary (`envelopes.check_limits` and `check_ids`, run for
every event written) against appending and importing without it, and the statistics' cheap check
of the tables against the events (`analytics.integrity.tables_behind_events`).

    .venv/bin/python benchmarks/boundary.py [--games N] [--repeat R]

Both ways run in the same process on the same simulated games; min and median of R runs, and
the ratio of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

from ktlog.analytics.integrity import tables_behind_events
from ktlog.analytics.league import Filters, League
from ktlog.envelopes import canonical, check_limits
from ktlog.files.gamelog import _encoder, make_header, write_game_log
from ktlog.play.importer import import_files
from ktlog.play.simulate import simulate_games
from ktlog.storage.store import Store


def timed(run: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        run()
        out.append(time.perf_counter() - t)
    return out


def both_ways(run: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Times of `run` with the checks and without, taken in turn (so a busy moment of the machine
    falls on both ways alike)."""
    with_checks, without = [], []
    for _ in range(repeat):
        with_checks += timed(run, 1)
        with unchecked():
            without += timed(run, 1)
    return with_checks, without


def unchecked():
    """Writing with the boundary switched off (the way before issue 17)."""
    return mock.patch.multiple("ktlog.storage.store", check_limits=lambda event, payload=None: None, check_ids=lambda game_id, event_id: None)


def row(name: str, with_checks: list[float], without: list[float], unit: str, scale: float) -> str:
    a, b = statistics.median(with_checks), statistics.median(without)
    return f"| {name} | {min(with_checks) * scale:.2f} / {a * scale:.2f} {unit} | {min(without) * scale:.2f} / {b * scale:.2f} {unit} | {a / b:.3f} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    games = list(simulate_games(args.games, seed=5))
    events = [e for _, g in games for e in g.events]
    print(f"{args.games} simulated games, {len(events):,} events; min / median of {args.repeat} runs\n")
    print("| what | with the checks | without | ratio (medians) |\n|---|---|---|---|")
    payloads = [canonical(e) for e in events]
    searched = timed(lambda: [check_limits(e, p) for e, p in zip(events, payloads)], args.repeat)
    walked = timed(lambda: [check_limits(e) for e in events], args.repeat)
    per_event = [[t / len(events) for t in times] for times in (searched, walked)]
    print(row("check_limits per event: byte search first / every event walked", *per_event, "us", 1e6))

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game_id, g in games:
            sealed = g.sealed(game_id, g.state.date + "T18:00:00+00:00")
            header = _encoder.encode(make_header(game_id, g.state, len(sealed)))
            write_game_log(folder / f"{game_id}.jsonl", [header] + [_encoder.encode(e) for e, _ in sealed])
        paths = sorted(folder.glob("*.jsonl"))
        runs = iter(range(10**6))

        def import_all() -> None:
            with Store(folder / f"import-{next(runs)}.db") as store, store.batch():
                assert all(not isinstance(r, Exception) for r in import_files(store, paths))

        with_checks, without = both_ways(import_all, args.repeat)
        print(row(f"import {len(paths)} files (import_files)", with_checks, without, "s", 1))

        few = games[: max(1, len(games) // 8)]

        def append_all() -> None:
            with Store(folder / f"append-{next(runs)}.db") as store:
                for _, g in few:
                    gid = store.new_game(g.events[0])
                    for event in g.events[1:]:
                        store.append(gid, event)

        appended = sum(len(g.events) - 1 for _, g in few)
        with_checks, without = both_ways(append_all, args.repeat)
        print(row(f"append, per event ({appended:,} events)", [t / appended for t in with_checks], [t / appended for t in without], "ms", 1000))

        league_db = folder / "import-0.db"
        league = League(league_db, Filters())
        behind = timed(lambda: tables_behind_events(league), args.repeat)
        print(
            f"| stats' tables-behind-events check ({len(paths)} games, {len(events):,} events) | {min(behind) * 1000:.1f} / {statistics.median(behind) * 1000:.1f} ms | - | - |"
        )


if __name__ == "__main__":
    main()
