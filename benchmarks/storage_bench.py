"""The log's size and what archiving finished games costs (issue 26's storage target).

    python benchmarks/storage_bench.py [--games 200] [--rounds 3]    # simulated games, both ways
    python benchmarks/storage_bench.py --db league.db                # an existing database's size

Bytes: the database's bytes an event, each table with its indexes (SQLite's dbstat), against the
gzip'd game-log files (JSON Lines, `ktlog export`, gzip level 6, one file a game) of the same
events: the target is at most 2x. Cost: the same games imported (`Store.import_envelopes`, one
transaction a game) and each game's end event appended (`Store.append`, the game's other events
stored before), with archiving and with `log.archive` and `log.blocks` made no-ops (main's
layout: every event a row), in turn, round by round; CPU seconds (user + system), min and median, and the ratio.
"""

from __future__ import annotations

import argparse
import gzip
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ktlog.envelopes import GENESIS, seal
from ktlog.events import Envelope
from ktlog.files.gamelog import export_lines
from ktlog.play.simulate import simulate_games
from ktlog.storage import log
from ktlog.storage.catalog import PROJECTIONS
from ktlog.storage.store import Store

PARTS = {
    "event rows": ("events",),
    "archived blocks": ("game_archives",),
    "event ids": ("event_ids",),
    "snapshots": ("snapshots",),
    "analytics tables": tuple(PROJECTIONS),
    "games": ("games",),
}


def bytes_by_part(db: Path) -> tuple[int, dict[str, float], float]:
    """(events, bytes an event by part, whole file's bytes an event) of a database."""
    with Store(db) as store:
        events = store.conn.execute("SELECT coalesce(sum(head_seq), 0) FROM games").fetchone()[0]
    conn = sqlite3.connect(db)
    sizes = dict(conn.execute("SELECT tbl_name, sum(pgsize) FROM dbstat JOIN sqlite_schema USING (name) GROUP BY tbl_name").fetchall())
    conn.close()
    parts = {part: sum(sizes.get(t, 0) for t in tables) / events for part, tables in PARTS.items()}
    parts["the rest"] = sum(sizes.values()) / events - sum(parts.values())
    return events, parts, db.stat().st_size / events


def gzip_jsonl(db: Path) -> float:
    """Bytes an event of the database's games as gzip'd game-log files, one a game."""
    total = events = 0
    with Store(db) as store:
        for game in store.games():
            lines = export_lines(store, game.id)
            total += len(gzip.compress(b"\n".join(lines) + b"\n", 6))
            events += len(lines) - 1
    return total / events


def sealed_games(games: int) -> list[tuple[str, list[tuple[Envelope, bytes]]]]:
    out = []
    for game_id, g in simulate_games(games, seed=23):
        sealed, prev = [], GENESIS
        for seq, event in enumerate(g.events, 1):
            envelope, payload = seal(game_id, seq, event, prev, recorded_at=f"{g.state.date}T18:{seq // 60 % 60:02d}:{seq % 60:02d}+00:00")
            sealed.append((envelope, payload))
            prev = envelope.hash
        out.append((game_id, sealed))
    return out


def cpu(run: Callable[[], object]) -> float:
    t = time.process_time()
    run()
    return time.process_time() - t


def compare(tmp: Path, games: list[tuple[str, list[tuple[Envelope, bytes]]]], rounds: int) -> dict[str, dict[str, list[float]]]:
    """CPU of importing every game and of appending each game's end event, archiving and not, in turn."""
    archive, blocks = log.archive, log.blocks
    figures: dict[str, dict[str, list[float]]] = {"import": {"archived": [], "rows": []}, "end event": {"archived": [], "rows": []}}
    for n in range(rounds):
        for way in ("archived", "rows"):
            log.archive = archive if way == "archived" else (lambda *_: 0)  # type: ignore[assignment]
            log.blocks = blocks if way == "archived" else (lambda _: [])  # type: ignore[assignment]
            with Store(tmp / f"import {way} {n}.db") as store, store.batch():
                figures["import"][way].append(cpu(lambda: [store.import_envelopes(game_id, sealed) for game_id, sealed in games]))
            with Store(tmp / f"append {way} {n}.db") as store, store.batch():
                for game_id, sealed in games:
                    store.import_envelopes(game_id, sealed[:-1])
                    figures["end event"][way].append(cpu(lambda: store.append(game_id, sealed[-1][0].payload)))  # noqa: B023
    log.archive, log.blocks = archive, blocks
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--db", type=Path, help="only measure this database's size")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = args.db
        if db is None:
            games = sealed_games(args.games)
            figures = compare(Path(folder), games, args.rounds)
            db = Path(folder) / "import archived 0.db"
            for what, ways in figures.items():
                a, r = ways["archived"], ways["rows"]
                scale, unit = (1000, "ms") if what == "end event" else (1, "s")
                print(
                    f"{what}: archived CPU min {min(a) * scale:.3f} / median {statistics.median(a) * scale:.3f} {unit}; "
                    f"rows (no archive), same run: {min(r) * scale:.3f} / {statistics.median(r) * scale:.3f} {unit}; "
                    f"ratio of medians {statistics.median(a) / statistics.median(r):.2f}"
                )
        events, parts, whole = bytes_by_part(db)
        baseline = gzip_jsonl(db)
        print(f"{events:,} events: {whole:.0f} bytes an event ({', '.join(f'{p} {b:.1f}' for p, b in parts.items())})")
        print(f"gzip'd game-log files (JSON Lines) of the same events: {baseline:.1f} bytes an event; ratio {whole / baseline:.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()
