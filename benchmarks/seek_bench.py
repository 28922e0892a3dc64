"""State at any seq of a long game (issue 26's seek target: <= 5 ms p95): `Store.state(game,
seq)` from a database file, for random seqs of a ~20,000-event game (`run.long_game`: two big
kill teams, notes on 40% of events, 20% undone and entered again; snapshots every 100 seqs).

    .venv/bin/python benchmarks/seek_bench.py [--events 20000] [--seeks 200] [--rounds 3]

The ways, taken in turn within each round, each on the same seqs (random, seed 5):
- snapshots as schema 21 stored them (the logs' entries in the state), and as schema 22 does
  (the logs in chunks of `state.LOG_CHUNK` seqs, compressed apart: `state.encode_state`), the
  same rows resealed;
- "every seek cold": the store keeps no decoded snapshot and no log chunk
  (`snapshots.DECODED_KEPT` and `CHUNKS_KEPT` 0), so each seek reads, unpacks, checks and
  decodes its snapshot whole, as a `ktlog show --at` process does; "one store": one store
  answers every seek of the round, the first cold, and each snapshot decoded once is restored
  from the store's `Decoded` after, each log chunk decoded once taken from it (a replay or a
  web page stepping through a game); its p95 counts the seeks that meet a snapshot not decoded
  yet. Each way starts with the log's block caches empty (`log.unpack`, `log._chain`), as a
  new process does: the first seek into each archived block unpacks it and works out its hashes;
- the garbage collector at Python's default thresholds (as a program using ktlog as a library
  runs), and as the `ktlog` command sets them (`cli.COLLECTOR_THRESHOLD`: the terminal UI's
  replay and `ktlog serve` seek so).
Also "scrubbing": 20 random seqs, each followed by the 9 seqs after it (one store, cold first).
Run with another checkout's ktlog first on the path (`PYTHONPATH=../main`) for its figures:
it prints which ktlog it timed. Per way and round the p50 and p95 of the seeks' CPU (`time.process_time`) and wall; printed
are the min and median over the rounds, with the target beside the p95.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import msgspec
from run import long_game

import ktlog
from ktlog import cli
from ktlog.state import UNREAD_LOGS, decode_state
from ktlog.storage import log, snapshots
from ktlog.storage.store import Store

COLLECTOR_THRESHOLD = getattr(cli, "COLLECTOR_THRESHOLD", None)
"""The collector's first threshold the `ktlog` command sets (None: a ktlog from before it set one)."""
GAME = "33333333-3333-4333-8333-333333333333"


def stored_as_schema_21(path: Path) -> None:
    """Re-store every snapshot of the file as schema 21 stored them (the logs' entries in the
    state, no log chunks), resealed."""
    with Store(path) as store, store.writing():
        rows = store.conn.execute("SELECT game_key, seq, state FROM snapshots").fetchall()
        assert rows
        for key, seq, packed in rows:
            event_hash = log.hashes(store.conn, key, [seq])[seq]  # a finished game's events are archived: not rows to join
            stored = msgspec.msgpack.decode(snapshots.unpack(packed))
            if len(stored) == 3:  # a ktlog before schema 22 (`PYTHONPATH=../main`): stored so already
                return
            cards, card_of, lean, _ = stored
            state = decode_state(snapshots.unpack(packed))
            lean.update({name: msgspec.to_builtins(getattr(state, name)) for name in UNREAD_LOGS if getattr(state, name)})
            blob = msgspec.msgpack.encode([cards, card_of, lean])
            assert decode_state(blob) == state
            store.conn.execute(
                "UPDATE snapshots SET state = ?, seal = ? WHERE game_key = ? AND seq = ?", (snapshots.pack(blob), snapshots.seal(event_hash, blob), key, seq)
            )


def seek_times(path: Path, seqs: list[int], kept: int, collector: int | None = None) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of each seek, one store answering them all, keeping `kept` decoded
    snapshots (and, if kept, the log chunks it decoded); `collector`: the garbage collector's
    first threshold while they run (None: Python's default, 700)."""
    was = getattr(snapshots, "DECODED_KEPT", 0), getattr(snapshots, "CHUNKS_KEPT", 0)  # main keeps none
    snapshots.DECODED_KEPT, snapshots.CHUNKS_KEPT = kept, 256 if kept else 0
    threshold = gc.get_threshold()
    gc.set_threshold(collector or 700, *threshold[1:])
    for cache in (getattr(log, "unpack", None), getattr(log, "_chain", None)):
        if cache is not None:
            cache.cache_clear()  # the archived blocks read cold, as in a new process: not left warm by the way before
    try:
        with Store(path) as store:
            store.state(GAME)  # the head read once (as any reader's first look at a game)
            times = []
            for seq in seqs:
                cpu, wall = time.process_time(), time.perf_counter()
                store.state(GAME, seq)
                times.append((time.process_time() - cpu, time.perf_counter() - wall))
            return times
    finally:
        snapshots.DECODED_KEPT, snapshots.CHUNKS_KEPT = was
        gc.set_threshold(*threshold)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--seeks", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    game_id, g = long_game(args.events)
    sealed = g.sealed(GAME, "2026-06-01T18:00:00+00:00")
    rng = random.Random(5)
    seqs = [rng.randint(1, len(sealed)) for _ in range(args.seeks)]
    scrub = [start + step for start in (rng.randint(1, len(sealed) - 10) for _ in range(20)) for step in range(10)]
    with tempfile.TemporaryDirectory() as tmp:
        files = {"chunks": Path(tmp, "chunks.db"), "schema 21": Path(tmp, "schema21.db")}
        for path in files.values():
            with Store(path) as store:
                store.import_envelopes(GAME, sealed)
        stored_as_schema_21(files["schema 21"])
        ways: dict[str, Callable[[], list[tuple[float, float]]]] = {}
        for stored, label in (("schema 21", "logs in the state (schema 21, before)"), ("chunks", "logs in chunks (schema 22)")):
            ways[f"{label}, every seek cold"] = lambda p=files[stored]: seek_times(p, seqs, 0)
            ways[f"{label}, one store"] = lambda p=files[stored]: seek_times(p, seqs, 64)
            ways[f"{label}, one store, the collector as `ktlog` sets it"] = lambda p=files[stored]: seek_times(p, seqs, 64, COLLECTOR_THRESHOLD)
        ways["logs in chunks, one store, scrubbing"] = lambda: seek_times(files["chunks"], scrub, 64)
        ways["logs in chunks, one store, scrubbing, the collector as `ktlog` sets it"] = lambda: seek_times(files["chunks"], scrub, 64, COLLECTOR_THRESHOLD)
        figures: dict[str, list[tuple[float, float, float, float]]] = {way: [] for way in ways}
        for _ in range(args.rounds):
            for way, run in ways.items():  # in turn, round by round
                times = run()
                cpu, wall = [t[0] * 1000 for t in times], [t[1] * 1000 for t in times]
                figures[way].append((statistics.median(cpu), p95(cpu), statistics.median(wall), p95(wall)))
    print(f"ktlog from {Path(ktlog.__file__).parent}")
    print(
        f"State at a random seq of a {len(sealed):,}-event game ({len(g.state.operatives)} operatives), {args.seeks} seeks a round, {args.rounds} rounds; ms, min / median over the rounds"
    )
    print("| way | CPU p50 | CPU p95 | wall p50 | wall p95 | target: p95 <= 5 ms |")
    print("|---|---|---|---|---|---|")
    for way, rounds in figures.items():
        cells = [f"{min(r[i] for r in rounds):.2f} / {statistics.median(r[i] for r in rounds):.2f}" for i in range(4)]
        met = "met" if statistics.median(r[1] for r in rounds) <= 5 else "**not met**"
        print(f"| {way} | {' | '.join(cells)} | CPU {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
