"""One fold per event in the server (issue 43): a seat's tap in `ktlog serve --seats` is
recorded by the seats' writing store, and the follower then reads the game's head through the
server's reading store to push it to the viewers. Without a shared head state the reading store,
which did not write the event, folds the game again from its nearest snapshot; with it
(`SeatApi(share=Source.adopt)`), it takes the state the append worked out.

    .venv/bin/python benchmarks/seat_fold_bench.py [--taps N] [--repeats R]

A game of the sample `01_secure` cut where the next player may activate an operative, far from a
snapshot (`--at`); each tap is an activation by that player's seat, then its undo, as a phone
sends them (the real `SeatApi` handler, with the page's view), and the follower's look (the real
`Follower`, one viewer of the game). The two ways alternate tap by tap in one run; the figures
are the server-side CPU (this process, every thread) and wall time of a tap, its `apply_in_place`
calls (each event through the rules) and `fold` calls, min and median over the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ktlog import reducer
from ktlog.files.gamelog import read_game_log
from ktlog.play import seats
from ktlog.play.moves import Moves
from ktlog.storage import event_log as store_module
from ktlog.storage.store import Store
from ktlog.text.event_text import event_line
from ktlog.web.follower import Follower, News
from ktlog.web.seats import SeatApi
from ktlog.web.source import Source

SAMPLE = Path(__file__).resolve().parent.parent / "ktlog" / "data" / "samples" / "01_secure_kasrkin_vs_legionaries.jsonl"


class Counted:
    """Counts the calls of a function of a module while it is in place."""

    def __init__(self, module, name: str):
        self.module, self.name, self.calls = module, name, 0
        self.original = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return self.original(*args, **kwargs)

        setattr(module, name, counted)


def cut_game(db: Path, at: int) -> tuple[str, str]:
    """The sample's events up to the first moment after seq `at` where an operative may be
    activated; its id and the player to activate."""
    _, sealed = read_game_log(SAMPLE)
    events = [e.payload for e, _ in sealed]
    with Store(db) as store:
        gid = store.new_game(events[0], events[1:at])
        for event in events[at:]:
            state = store.state(gid)
            activations = Moves(state).options("activate")
            if activations:
                return gid, state.operatives[activations[0].operative].player
            store.append(gid, event)
    raise SystemExit(f"no activation after seq {at} in {SAMPLE.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=20, help="taps per way (each an activation and its undo)")
    parser.add_argument("--at", type=int, default=170, help="cut the sample after this seq (snapshots every 100)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        gid, player = cut_game(db, args.at)
        with Store(db) as store:
            token = seats.issue(store, gid, player)
            head = store.game(gid).head_seq
        applies = Counted(store_module, "apply_in_place")  # an append's event through the rules
        trials = Counted(sys.modules["ktlog.play.moves"], "apply_in_place")  # the moves' probes (the next step, the view's moves)
        folded = Counted(reducer, "apply_in_place")  # events folded again (from a snapshot)
        folds = Counted(store_module, "state_at")  # states read from a snapshot
        source = Source(db)
        follower = Follower(source, 0.02)
        with source.reading() as reader:
            follower._follow(reader, News())  # the position it starts from
            follower.watch_game(reader, gid, None)
        ways = {"without": SeatApi(db), "shared": SeatApi(db, source.adopt)}
        results: dict[str, list[tuple[float, ...]]] = {way: [] for way in ways}
        for tap in range(args.taps * 2):
            way = ("without", "shared")[tap % 2 if (tap // 2) % 2 == 0 else 1 - tap % 2]  # ABBA: neither way always first
            api = ways[way]
            for body in ({"line": _activation(db, gid)}, {"undo": True}):
                before = (applies.calls, trials.calls, folded.calls, folds.calls)
                cpu, wall = time.process_time(), time.perf_counter()
                with api._lock:
                    store = api.store()
                    seat = seats.seat_of(store, token, gid)
                    status, answer = api._record(store, seat, {**body, "view": True})
                    assert status == 201, answer
                with source.reading() as reader:
                    news = News()
                    follower._follow(reader, news)
                    assert news.games, "the follower saw the event"
                results[way].append(
                    (
                        time.process_time() - cpu,
                        time.perf_counter() - wall,
                        *(c.calls - b for c, b in zip((applies, trials, folded, folds), before, strict=True)),
                    )
                )
        for api in ways.values():
            api.close()
        source.close()
    print(f"{SAMPLE.name} cut at seq {head} (a snapshot every {store_module.SNAPSHOT_EVERY}); {args.taps} taps per way, each an activation or its undo")
    print(f"{'way':<8} {'CPU min':>9} {'CPU med':>9} {'wall min':>9} {'wall med':>9} {'appends':>8} {'probes':>7} {'folded':>7} {'folds':>6}")
    medians = {}
    for way, rows in results.items():
        cpu, wall = [r[0] for r in rows], [r[1] for r in rows]
        medians[way] = statistics.median(cpu)
        print(
            f"{way:<8} {min(cpu) * 1000:>7.2f}ms {statistics.median(cpu) * 1000:>7.2f}ms {min(wall) * 1000:>7.2f}ms {statistics.median(wall) * 1000:>7.2f}ms"
            f" {statistics.median(r[2] for r in rows):>8} {statistics.median(r[3] for r in rows):>7} {statistics.median(r[4] for r in rows):>7} {statistics.median(r[5] for r in rows):>6}"
        )
    print(f"ratio of median CPU, without / shared: {medians['without'] / medians['shared']:.2f}")


def _activation(db: Path, gid: str) -> str:
    with Store(db) as store:
        return event_line(Moves(store.state(gid)).options("activate")[0])


if __name__ == "__main__":
    main()
