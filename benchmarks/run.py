"""ktlog's benchmarks (issue 2): append latency, import throughput, state at any seq.

    make bench            # or: .venv/bin/python benchmarks/run.py [--quick]

Prints a Markdown table; the README quotes it. Every figure comes from this run, on this machine,
with file databases in a temporary folder (WAL mode, synchronous=FULL).
"""

from __future__ import annotations

import argparse
import gzip
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from ktlog.envelopes import GENESIS, seal
from ktlog.events import Annotation, Envelope, EventVoided
from ktlog.files.gamelog import _encoder, make_header, write_game_log
from ktlog.files.rosters import Roster, RosterOperative
from ktlog.play.builder import GameBuilder
from ktlog.play.importer import available_cores, import_files
from ktlog.play.replay import Replay
from ktlog.play.simulate import load_sim_rosters, simulate_games
from ktlog.reducer import effective, fold
from ktlog.ruleset_play.kt24 import simulator as simulate
from ktlog.rulesets import RULESETS
from ktlog.storage.catalog import PROJECTIONS
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.store import Store


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def p95_ms(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.95)] * 1000


def bench_append(tmp: Path, games: int) -> dict:
    """Append every event of simulated games one at a time through Store.append."""
    store = Store(tmp / "append.db")
    times: list[float] = []
    for _, g in simulate_games(games, seed=11):
        gid = store.new_game(g.events[0])
        for event in g.events[1:]:
            t = time.perf_counter()
            store.append(gid, event)
            times.append(time.perf_counter() - t)
    store.close()
    return {"appends": len(times), "median_ms": median_ms(times), "p95_ms": p95_ms(times)}


def bench_import(tmp: Path, games: int, runs: int = 3) -> dict:
    """Import game-log files of simulated games into fresh databases as `ktlog import` does
    (`import_files`: as many checking processes as the cores this process may use, each file
    atomic, one fsync at the end), and with one process (`--jobs 1`), same run, each way `runs`
    times in turn: min and median. Then the same games with random event ids, as ktlog wrote
    them before its ids were time-ordered (UUID version 7)."""
    ordered, random_ids = tmp / "logs", tmp / "logs with random ids"
    ordered.mkdir()
    random_ids.mkdir()
    total = 0
    for game_id, g in simulate_games(games, seed=23):
        sealed = g.sealed(game_id, g.state.date + "T18:00:00+00:00")
        header = _encoder.encode(make_header(game_id, g.state, len(sealed)))
        write_game_log(ordered / f"{game_id}.jsonl", [header] + [_encoder.encode(e) for e, _ in sealed])
        write_game_log(random_ids / f"{game_id}.jsonl", [header] + [_encoder.encode(e) for e in resealed_with_random_ids(sealed)])
        total += len(sealed)
    paths = sorted(ordered.glob("*.jsonl"))
    ways = {
        "all processes": lambda store: list(import_files(store, paths)),
        "one process": lambda store: list(import_files(store, paths, jobs=1)),
        "random ids": lambda store: list(import_files(store, sorted(random_ids.glob("*.jsonl")))),
    }
    seconds: dict[str, list[float]] = {way: [] for way in ways}
    for n in range(runs):
        for way, run in ways.items():
            store = Store(tmp / f"import {way} {n}.db")
            t = time.perf_counter()
            with store.batch():
                run(store)
            seconds[way].append(time.perf_counter() - t)
            store.close()
    db = tmp / "import all processes 0.db"
    return {
        "games": games,
        "events": total,
        "jobs": available_cores(),
        "runs": runs,
        **{way: (total / min(s), total / statistics.median(s)) for way, s in seconds.items()},
        "seconds": statistics.median(seconds["all processes"]),
        "bytes_per_event": db.stat().st_size / total,
        "bytes_by_part": bytes_by_part(db, total),
        "gzip_jsonl_per_event": sum(len(gzip.compress(path.read_bytes(), 6)) for path in paths) / total,
        **bench_reimport(db, paths, total),
    }


def bytes_by_part(db: Path, events: int) -> dict[str, float]:
    """Bytes an event on disk by part of the database (SQLite's dbstat table: each table with
    its indexes); empty where this SQLite lacks dbstat."""
    parts = {
        "event rows": ("events",),
        "archived events": ("game_archives",),
        "event ids": ("event_ids",),
        "snapshots": ("snapshots",),
        "analytics tables": tuple(PROJECTIONS),
        "games": ("games",),
    }
    conn = sqlite3.connect(db)
    try:
        sizes = conn.execute("SELECT tbl_name, sum(pgsize) FROM dbstat JOIN sqlite_schema USING (name) GROUP BY tbl_name").fetchall()
    except sqlite3.OperationalError:
        return {}
    finally:
        conn.close()
    return {part: sum(size for table, size in sizes if table in tables) / events for part, tables in parts.items()}


def bench_reimport(db: Path, paths: list[Path], total: int, runs: int = 5) -> dict:
    """Import the same files again into the database holding them: recognised from header and
    head (`stored_in_full`), against checking each in full (`_import_file`, as before), same
    run; min and median of `runs` runs, in events/s equivalent (events in the files / time)."""
    from ktlog.play.importer import _import_file

    store = Store(db)
    ways = {"recognised": lambda: list(import_files(store, paths)), "checked in full": lambda: [_import_file(store, p) for p in paths]}
    times: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(runs):
        for way, run in ways.items():
            t = time.perf_counter()
            reports = run()
            times[way].append(time.perf_counter() - t)
            assert all(r.status == "unchanged" for r in reports)
    store.close()
    return {f"reimport {way}": (total / min(ts), total / statistics.median(ts)) for way, ts in times.items()}


def resealed_with_random_ids(sealed: list[tuple[Envelope, bytes]]) -> list[Envelope]:
    """The same events sealed again with random (version 4) event ids: a new hash chain."""
    out, prev = [], GENESIS
    for envelope, _ in sealed:
        envelope, _ = seal(envelope.game_id, envelope.seq, envelope.payload, prev, event_id=str(uuid.uuid4()), recorded_at=envelope.recorded_at)
        out.append(envelope)
        prev = envelope.hash
    return out


class ChattyBuilder(GameBuilder):
    """Records like a careful but fallible scorer: notes on many events, and mistakes undone
    and entered again."""

    rng = random.Random(3)

    def add(self, *events):
        for event in events:
            super().add(event)
            if event.meta or self.state.phase in ("setup", "over"):
                continue
            roll = self.rng.random()
            if roll < 0.4:
                super().add(Annotation(target=self.seq, text="note"))
            elif roll < 0.6:
                super().add(EventVoided(target=self.seq))
                super().add(event)
        return self


def chatty_game(size: int, seed: int) -> GameBuilder:
    """A game of two kill teams of `size` Legionaries operatives each (APL 3), recorded by the
    ChattyBuilder: notes on 40% of events, 20% undone and entered again."""
    base = next(r for r in load_sim_rosters() if r.name == "Legionaries")
    ops = tuple(RosterOperative(f"{o.id}-{i}", o.datacard) for i in range(size) for o in base.operatives[i % len(base.operatives) :][:1])
    team = Roster(base.name, base.faction, base.archetypes, ops, base.path)
    sim = simulate.Simulator(random.Random(seed), [team], RULESETS["kt24-preliminary"])
    original = simulate.GameBuilder
    simulate.GameBuilder = ChattyBuilder
    try:
        return sim.play("2026-06-01", league="Bench")
    finally:
        simulate.GameBuilder = original


def long_game(target: int) -> tuple[str, GameBuilder]:
    """The long game of the state-at-any-seq benchmark: two big kill teams, four turning
    points, recorded with notes and undos (`chatty_game`), growing the teams until the log
    passes `target` events (each try's size scaled by how far the last fell short)."""
    size, seed = 10, 0
    while True:
        g = chatty_game(size, seed)
        if g.state.result.ended_by == "battle":
            if len(g.events) >= target:
                return "33333333-3333-4333-8333-333333333333", g
            size = max(size + 2, -(-size * target * 21 // (len(g.events) * 20)))  # the events grow about as the teams do
        seed += 1


def bench_state_at(tmp: Path, target: int, samples: int) -> dict:
    game_id, g = long_game(target)
    n = len(g.events)
    envelopes = [e for e, _ in g.sealed(game_id, "2026-06-01T18:00:00+00:00")]
    store = Store(tmp / "seek.db")
    store.import_envelopes(game_id, [(e, p) for e, p in g.sealed(game_id, "2026-06-01T18:00:00+00:00")])
    rng = random.Random(5)
    seqs = [rng.randint(1, n) for _ in range(samples)]
    store_times, replay_times, fold_times = [], [], []
    for seq in seqs:
        t = time.perf_counter()
        store.state(game_id, seq)
        store_times.append(time.perf_counter() - t)
    replay = Replay(envelopes)
    for seq in seqs:
        t = time.perf_counter()
        replay.seek(seq)
        replay_times.append(time.perf_counter() - t)
    records = [(e.seq, e.payload) for e in envelopes]
    for seq in seqs[: max(5, samples // 10)]:
        t = time.perf_counter()
        fold(records[:seq])
        fold_times.append(time.perf_counter() - t)
    t = time.perf_counter()
    fold(records)
    full = time.perf_counter() - t
    store.close()
    kinds = {
        "game events": len([r for r in effective(records) if not r[1].meta]),
        "notes": sum(isinstance(e, Annotation) for _, e in records),
        "undos": sum(isinstance(e, EventVoided) for _, e in records),
    }
    return {
        "events": n,
        "composition": kinds,
        "store_median_ms": median_ms(store_times),
        "store_p95_ms": p95_ms(store_times),
        "replay_median_ms": median_ms(replay_times),
        "replay_p95_ms": p95_ms(replay_times),
        "fold_to_seq_median_ms": median_ms(fold_times),
        "full_fold_ms": full * 1000,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer games, for a smoke run")
    parser.add_argument("--seek-events", type=int, default=2000, help="the long game's length for the state-at-any-seq benchmark (issue 26: 20000)")
    args = parser.parse_args()
    quick = args.quick
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        append = bench_append(tmp, 2 if quick else 8)
        imported = bench_import(tmp, 20 if quick else 200, 1 if quick else 3)
        seek = bench_state_at(tmp, 500 if quick else args.seek_events, 50 if quick else 400)
    print("| benchmark | result | target |")
    print("|---|---|---|")
    print(
        f"| append one event (validate, commit, projections), file DB, WAL, synchronous=FULL | median {append['median_ms']:.2f} ms, p95 {append['p95_ms']:.2f} ms over {append['appends']} appends | median <= 2 ms |"
    )
    every, one, rnd = imported["all processes"], imported["one process"], imported["random ids"]
    print(
        f"| import game-log files ({imported['games']} games, {imported['events']} events), as `ktlog import` does: {imported['jobs']} processes (the cores available), min / median of {imported['runs']} | best {every[0]:,.0f}, median {every[1]:,.0f} events/s ({imported['seconds']:.2f} s) | >= 50,000 events/s |"
    )
    print(
        f"| the same with 1 process (`--jobs 1`), same run | best {one[0]:,.0f}, median {one[1]:,.0f} events/s ({imported['jobs']} processes: {every[1] / one[1]:.2f}x as fast) | >= 50,000 events/s |"
    )
    print(
        f"| the same games with random event ids (version 4, as files recorded before this change have), {imported['jobs']} processes | best {rnd[0]:,.0f}, median {rnd[1]:,.0f} events/s (time-ordered ids: {every[1] / rnd[1]:.1f}x as fast) | |"
    )
    fast, full = imported["reimport recognised"], imported["reimport checked in full"]
    print(
        f"| import the same files again (all stored), as `ktlog import` does | best {fast[0]:,.0f}, median {fast[1]:,.0f} events/s equivalent | >= 1,000,000 events/s |"
    )
    print(
        f"| the same checking every file in full (before), same run | best {full[0]:,.0f}, median {full[1]:,.0f} events/s (recognising: {fast[1] / full[1]:.0f}x as fast) | |"
    )
    parts = ", ".join(f"{part} {size:.0f}" for part, size in imported["bytes_by_part"].items())
    gz = imported["gzip_jsonl_per_event"]
    print(
        f"| database size after the import, per event (schema {SCHEMA_VERSION}; schema 9 took 662, 19 took 339) | {imported['bytes_per_event']:.0f} bytes ({parts}); "
        f"the game-log files gzip'd: {gz:.0f} bytes, {imported['bytes_per_event'] / gz:.2f}x | <= 2x the gzip'd game-log files |"
    )
    c = seek["composition"]
    print(
        f"| state at a random seq of a {seek['events']}-event game ({c['game events']} game events, {c['notes']} notes, {c['undos']} undos), from the database with snapshots every 100 | median {seek['store_median_ms']:.2f} ms, p95 {seek['store_p95_ms']:.2f} ms | <= 5 ms |"
    )
    print(
        f"| the same with the in-memory replay cursor (snapshots every 50) | median {seek['replay_median_ms']:.2f} ms, p95 {seek['replay_p95_ms']:.2f} ms | |"
    )
    print(f"| the same by folding from the start (no snapshots) | median {seek['fold_to_seq_median_ms']:.2f} ms; whole game {seek['full_fold_ms']:.1f} ms | |")
    print(
        f"| snapshot seek vs fold from the start | {seek['fold_to_seq_median_ms'] / seek['store_median_ms']:.1f}x faster (database), {seek['fold_to_seq_median_ms'] / seek['replay_median_ms']:.1f}x (replay cursor) | |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
