"""Seat benchmarks (issue 23): a tap on one seat's page to the event stored and both seats'
pages showing it, with two seats in headless Chromium (360x740) and 20 spectators following the
game's event stream; and the seat page's load time and weight.

    .venv/bin/python benchmarks/seat_bench.py [--taps N]

The server is the real `ktlog serve --seats` in its own process (its CPU time is read from
/proc). Baseline in the same run: the table recording the same events (a `Store.append` in this
process) to both pages showing them, which is the stream's share of a tap. Every figure comes
from this run, on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from tui_support import tiny_game  # noqa: E402
from web_server import launch_chromium  # noqa: E402

from ktlog import events as ev  # noqa: E402
from ktlog.play import seats  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402

KTLOG = Path(sys.executable).with_name("ktlog")
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
WATCH = """() => { window.__seen = {}; window.__viewed = {}; const log = document.getElementById('log');
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => { for (const li of log.children) { if (!(li.value in window.__seen)) window.__seen[li.value] = now(); } })
    .observe(log, {childList: true});
  new MutationObserver(() => { const seq = Number(document.body.dataset.seq); if (!(seq in window.__viewed)) window.__viewed[seq] = now(); })
    .observe(document.body, {attributes: true, attributeFilter: ['data-seq']}); }"""
"""When each event's row first shows in a page's log (from the stream, or the view), and when the
page's whole view (its moves, its own secrets) reaches each seq."""
STORED = """() => { window.__stored = {}; const f = window.fetch; window.fetch = async (...a) => { const r = await f(...a);
  if (r.status === 201) { const t = performance.timeOrigin + performance.now(); r.clone().json().then((d) => { window.__stored[d.seq] = t; }); } return r; }; }"""
TAP = """(selector) => { const t = performance.timeOrigin + performance.now(); document.querySelector(selector).click();
  if (selector !== '#undo') for (const v of ['trooper-1', 'engage']) document.querySelector(`#form-choices button[data-value='${v}']`).click();
  return t; }"""
"""A tap, timed from its first click: Undo, or Activate then its operative and order in the move's form."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Served:
    """`ktlog serve --seats` in its own process."""

    def __init__(self, db: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [str(KTLOG), "--db", str(db), "serve", "--seats", "--port", str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(self.base + "/static/seat.css", timeout=1)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline and self.proc.poll() is None, "ktlog serve --seats did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def spectators(base: str, game: str, count: int, stop: threading.Event) -> threading.Thread:
    """`count` spectators following the game's event stream (reading every message), in a thread."""

    async def follow(client: httpx.AsyncClient) -> None:
        async with client.stream("GET", f"/api/games/{game}/events") as r:
            async for _ in r.aiter_bytes():
                if stop.is_set():
                    return

    async def run() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=None) as client:
            tasks = [asyncio.create_task(follow(client)) for _ in range(count)]
            while not stop.is_set():
                await asyncio.sleep(0.05)
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


def wait_seen(pages, seq: int, what: str = "__seen") -> list[float]:
    for page in pages:
        page.wait_for_function(f"(seq) => window.{what}[seq] !== undefined", arg=seq, timeout=10_000)
    return [page.evaluate(f"(seq) => window.{what}[seq]", seq) for page in pages]


def bench_taps(tmp: Path, taps: int, watchers: int) -> list[str]:
    from playwright.sync_api import sync_playwright

    db = tmp / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    served = Served(db)
    stop = threading.Event()
    crowd = spectators(served.base, gid, watchers, stop)
    tap_times, stored_times, table_times, viewed_times = [], [], [], []
    try:
        with sync_playwright() as pw:
            contexts = [launch_chromium(pw, tmp / p, **PHONE) for p in ("alice", "bob")]
            alice, bob = (c.pages[0] for c in contexts)
            for page, player in ((alice, "Alice"), (bob, "Bob")):
                page.goto(f"{served.base}/seat/{gid}#{tokens[player]}")
                page.wait_for_function("() => document.getElementById('net').textContent === 'online'")
                page.evaluate(WATCH)
            alice.evaluate(STORED)
            time.sleep(0.5)
            cpu0 = cpu_s(served.proc.pid)
            with Store(db) as table:
                for i in range(taps):
                    seq = table.state(gid).seq + 1
                    selector = ".move[data-kind=activate]" if i % 2 == 0 else "#undo"
                    alice.wait_for_function("(s) => document.querySelector(s) && !document.querySelector(s).disabled", arg=selector)
                    t0 = alice.evaluate(TAP, selector)
                    seen = wait_seen((alice, bob), seq)
                    tap_times.append((max(seen) - t0) / 1000)
                    viewed_times.append((max(wait_seen((alice, bob), seq, "__viewed")) - t0) / 1000)
                    stored_times.append((alice.evaluate("(seq) => window.__stored[seq]", seq) - t0) / 1000)
                cpu_taps = cpu_s(served.proc.pid) - cpu0
                # Baseline: the table records the same kind of event; both pages show it.
                for i in range(taps):
                    seq = table.state(gid).seq + 1
                    event = ev.OperativeActivated(operative="trooper-2", order="engage") if i % 2 == 0 else ev.EventVoided(target=seq - 1)
                    t0 = time.time() * 1000
                    table.append(gid, event)
                    seen = wait_seen((alice, bob), seq)
                    table_times.append((max(seen) - t0) / 1000)
            for c in contexts:
                c.close()
    finally:
        stop.set()
        crowd.join(5)
        served.stop()
    med, p95 = statistics.median(tap_times), pct(tap_times, 0.95)
    return [
        f"| a tap on Alice's seat to the event stored (201 back in her page); {taps} taps, 2 seats + {watchers} spectator streams "
        f"| min {ms(min(stored_times))}, median {ms(statistics.median(stored_times))}, p95 {ms(pct(stored_times, 0.95))} | |",
        f"| a tap to the event shown on **both** seats' pages | min {ms(min(tap_times))}, median {ms(med)}, p95 {ms(p95)} "
        f"| median <= 150 ms: {'met' if med <= 0.15 else '**not met**'}; p95 <= 400 ms: {'met' if p95 <= 0.4 else '**not met**'} |",
        f"| a tap to **both** seats' whole views updated (their moves asked again) | min {ms(min(viewed_times))}, median {ms(statistics.median(viewed_times))}, "
        f"p95 {ms(pct(viewed_times, 0.95))} | |",
        f"| baseline, same run: the table's append (no HTTP write) to both pages | min {ms(min(table_times))}, median {ms(statistics.median(table_times))}, "
        f"p95 {ms(pct(table_times, 0.95))} | |",
        f"| server CPU (user+system) for the {taps} taps, with the streams | {cpu_taps * 1000 / taps:.1f} ms a tap | |",
    ]


def bench_load(tmp: Path, loads: int) -> list[str]:
    from playwright.sync_api import sync_playwright

    db = tmp / "load.db"
    with Store(db) as store:
        gid = tiny_game(store)
        token = seats.issue(store, gid, "Alice")
    served = Served(db)
    times, weights, floor = [], [], []
    try:
        with sync_playwright() as pw:
            for i in range(loads):  # baseline: a new profile's one request (a static file), the floor of a page's first load here
                ctx = launch_chromium(pw, tmp / f"floor{i}", **PHONE)
                page = ctx.pages[0]
                page.goto(f"{served.base}/static/seat.css")
                floor.append(page.evaluate("() => performance.getEntriesByType('navigation')[0].responseEnd") / 1000)
                ctx.close()
            for i in range(loads):
                ctx = launch_chromium(pw, tmp / f"load{i}", **PHONE)
                page = ctx.pages[0]
                page.goto(f"{served.base}/seat/{gid}#{token}")
                page.wait_for_function("() => performance.getEntriesByName('ktlog-seat-drawn').length > 0")
                times.append(page.evaluate("() => performance.getEntriesByName('ktlog-seat-drawn')[0].startTime") / 1000)  # from the navigation's start
                weights.append(
                    page.evaluate(
                        "() => performance.getEntriesByType('navigation')[0].transferSize + "
                        "performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0)"
                    )
                )
                ctx.close()
    finally:
        served.stop()
    statics = sum((ROOT / "ktlog" / "web" / "static" / f).stat().st_size for f in ("seat.js", "seat.css"))
    return [
        f"| the seat page loaded and its view drawn (new browser profile each time, {loads} loads) | min {ms(min(times))}, median {ms(statistics.median(times))} "
        f"| <= 300 ms: {'met' if statistics.median(times) <= 0.3 else '**not met**'} |",
        f"| baseline, same run: a new browser profile's first request answered (one static file, no script, no view) | min {ms(min(floor))}, median {ms(statistics.median(floor))} | |",
        f"| its weight over the wire (HTML, seat.js, seat.css and the view's JSON) | {statistics.median(weights) / 1024:.1f} KB (seat.js + seat.css on disk: {statics / 1024:.1f} KB) "
        f"| <= 100 KB: {'met' if statistics.median(weights) <= 100 * 1024 else '**not met**'} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--loads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lines = bench_taps(Path(tmp), args.taps, args.spectators) + bench_load(Path(tmp), args.loads)
    print(f"seat_bench on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}")
    print("| what | figure | target |\n|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
