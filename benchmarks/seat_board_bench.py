"""The seat's board (issue 44, item 3): what a tap on the board costs, `POST /seat/place` (the spot
judged by `ktlog.play.placing`: the seat's legal moves to check the move is its own, the event
tried on a copy of the state), paired with `GET /seat` (the seat's view, what every tap that
records fetches after it) on the same game in the same run; and the first tap's answer with the
board's SVG (`draw`), and the bytes of the board's script, loaded only when a form needs it.

    .venv/bin/python benchmarks/seat_board_bench.py [--pairs N]

The server is the real `ktlog serve --seats` in its own process (its CPU time read from /proc).
Requests are paced under the seat's rate limit (5 a second). Every figure comes from this run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from seat_bench import Served, cpu_s  # noqa: E402
from test_tui_placing import battle  # noqa: E402

from ktlog.play import seats  # noqa: E402
from ktlog.play.session import RecordingSession  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402
from ktlog.text.event_text import parse_event  # noqa: E402

PACE_S = 0.22
"""Seconds between a pair's two requests and the next pair (under the seat's 5 writes a second)."""
SPOTS = [(10, 5), (10, 1.5), (13, 8), (6, 6)]
"""Legal, too far, on Heavy terrain, legal: each judged in turn."""


def timed(call) -> tuple[float, httpx.Response]:
    t0 = time.perf_counter()
    r = call()
    return time.perf_counter() - t0, r


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "board.db"
        with Store(db) as store:
            gid = battle(store)
            RecordingSession(store, gid).record(parse_event("OperativeActivated operative=legionary-1 order=engage"))
            token = seats.issue(store, gid, "Bob")
        served = Served(db)
        try:
            with httpx.Client(base_url=served.base, headers={"authorization": f"Bearer {token}"}, timeout=30) as client:
                move = {"event": "Repositioned", "answers": [["operative", "legionary-1"]]}
                view = lambda: client.get(f"/api/games/{gid}/seat")  # noqa: E731
                client.get(f"/api/games/{gid}/seat")  # the first fold, not counted
                first, drawn = timed(lambda: client.post(f"/api/games/{gid}/seat/place", json={**move, "draw": True}))
                assert drawn.status_code == 200, drawn.text
                svg_bytes = len(drawn.content)
                places, views = [], []
                cpu_place = cpu_view = 0.0
                for n in range(args.pairs):
                    x, y = SPOTS[n % len(SPOTS)]
                    time.sleep(PACE_S)
                    c0 = cpu_s(served.proc.pid)
                    t, r = timed(lambda: client.post(f"/api/games/{gid}/seat/place", json={**move, "x": x, "y": y}))  # noqa: B023
                    assert r.status_code == 200, r.text
                    c1 = cpu_s(served.proc.pid)
                    places.append(t)
                    cpu_place += c1 - c0
                    t, r = timed(view)
                    assert r.status_code == 200
                    views.append(t)
                    cpu_view += cpu_s(served.proc.pid) - c1
        finally:
            served.stop()
    script = (ROOT / "ktlog" / "web" / "static" / "seat-board.js").stat().st_size
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    print(f"| request ({args.pairs} pairs, paced) | min | median | server CPU a request |")
    print("|---|---|---|---|")
    print(f"| POST /seat/place (a tap judged) | {ms(min(places))} | {ms(statistics.median(places))} | {ms(cpu_place / args.pairs)} |")
    print(f"| GET /seat (the seat's view) | {ms(min(views))} | {ms(statistics.median(views))} | {ms(cpu_view / args.pairs)} |")
    print(f"| ratio place / view (medians) | | {statistics.median(places) / statistics.median(views):.2f} | |")
    print(f"\nThe first tap's answer, with the board's SVG: {ms(first)}, {svg_bytes} bytes; seat-board.js: {script} bytes, loaded only when a form needs it.")


if __name__ == "__main__":
    main()
