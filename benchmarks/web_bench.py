"""`ktlog serve` benchmarks (issue 14): the tables page with 1,000 games in progress, 200 event-
stream viewers of one game while 20 games are recorded at once, and an append committed by
another process to the game page's DOM in headless Chromium.

    .venv/bin/python benchmarks/web_bench.py [--quick]

The server is the real `ktlog serve` in its own process (its memory is read from /proc); the
writers are other processes; every figure comes from this run, on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from web_server import launch_chromium  # noqa: E402
from web_support import as_older_ktlog, sample_events  # noqa: E402

from ktlog.data import SAMPLE_GAMES  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402

KTLOG = Path(sys.executable).with_name("ktlog")
WRITER = ROOT / "tests" / "web_support.py"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`ktlog serve` (the executable `ktlog`, this checkout's by default) on a database, in its own
    process; `options` for serve (by default as many streams as the benchmark's viewers, who all
    come from 127.0.0.1)."""

    def __init__(self, db: Path, ktlog: Path = KTLOG, options: tuple[str, ...] = ("--max-streams", "1000")):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([str(ktlog), "--db", str(db), "serve", "--port", str(self.port), *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(self.base + "/static/ktlog.css", timeout=1)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline and self.proc.poll() is None, (
                    self.proc.stderr.read().decode() if self.proc.poll() is not None else "no answer"
                )
                time.sleep(0.1)

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))) / 1024

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def writers(db: Path, games: list[str], first: int, count: int, delay: float) -> list[subprocess.Popen]:
    """One process per game appending `count` events from `first`, started together."""
    procs = [
        subprocess.Popen(
            [sys.executable, str(WRITER), "append", str(db), g, str(first), str(count), str(delay)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for g in games
    ]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    return procs


def commit_times(proc: subprocess.Popen) -> dict[int, float]:
    out, _ = proc.communicate(timeout=120)
    return {int(seq): float(t) for seq, t in (line.split() for line in out.splitlines())}


# --- the tables page ---------------------------------------------------------------------------


def bench_tables(tmp: Path, games: int, runs: int) -> list[str]:
    db = tmp / "tables.db"
    events = sample_events({}, SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl")
    t = time.perf_counter()
    with Store(db) as store, store.batch():
        ids = [store.new_game(events[0], events[1 : 80 + i % 60]) for i in range(games)]
    built = time.perf_counter() - t
    served = Served(db)
    try:
        times = []
        with httpx.Client(base_url=served.base, timeout=30) as http:
            for _ in range(runs):
                t = time.perf_counter()
                r = http.get("/")
                times.append(time.perf_counter() - t)
                assert r.status_code == 200 and r.text.count('"turning_point"') == games
            api = []
            for _ in range(runs):
                t = time.perf_counter()
                http.get("/api/games")
                api.append(time.perf_counter() - t)
    finally:
        served.stop()
    with Store(db) as store:  # the other way: fold every game for its figures
        folds = []
        for _ in range(3):
            t = time.perf_counter()
            for game_id in ids:
                store._cache.clear()
                store.state(game_id)
            folds.append(time.perf_counter() - t)
    return [
        f"| tables page `/` with {games:,} games in progress (real `ktlog serve`, HTTP GET, {runs} runs; database built in {built:.0f} s) "
        f"| min {ms(min(times))}, median {ms(statistics.median(times))} | <= 200 ms: {'met' if statistics.median(times) <= 0.2 else '**not met**'} |",
        f"| the same list as JSON, `/api/games` | min {ms(min(api))}, median {ms(statistics.median(api))} | |",
        f"| for comparison: each game's state from its snapshot (what the page would cost by folding; 3 runs) | min {ms(min(folds))}, median {ms(statistics.median(folds))}: "
        f"{statistics.median(folds) / statistics.median(times):.0f}x the page | |",
    ]


# --- 200 viewers, 20 games recorded at once --------------------------------------------------


async def view(base: str, game: str, after: int, want: int, received: list[dict[int, float]], opened: list[int]) -> None:
    """One viewer: the time each seq arrived, until seq `want`."""
    seen: dict[int, float] = {}
    received.append(seen)
    async with httpx.AsyncClient(base_url=base, timeout=None) as http, http.stream("GET", f"/api/games/{game}/events?after={after}") as stream:
        opened.append(1)
        seq = None
        async for line in stream.aiter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line == "" and seq is not None:
                seen[seq] = time.time()
                if seq >= want:
                    return


async def viewers(base: str, game: str, after: int, want: int, count: int, start_writers) -> tuple[list[dict[int, float]], object]:
    received: list[dict[int, float]] = []
    opened: list[int] = []
    tasks = [asyncio.create_task(view(base, game, after, want, received, opened)) for _ in range(count)]
    while len(opened) < count:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)  # every stream registered with the follower
    procs = await asyncio.to_thread(start_writers)
    await asyncio.wait_for(asyncio.gather(*tasks), 180)
    return received, procs


def bench_viewers(tmp: Path, count: int, games: int, appends: int, delay: float) -> list[str]:
    db = tmp / "viewers.db"
    events = sample_events()
    with as_older_ktlog(), Store(db) as store:  # the hostile names, as an older ktlog stored them
        ids = [store.new_game(events[0], events[1:60]) for _ in range(games)]
    served = Served(db)
    try:
        start = lambda: writers(db, ids, 60, appends, delay)  # noqa: E731
        received, procs = asyncio.run(viewers(served.base, ids[0], 60, 60 + appends, count, start))
        committed = commit_times(procs[0])
        for p in procs[1:]:
            p.communicate(timeout=120)
        rss = served.peak_rss_mb()
    finally:
        served.stop()
    complete = sum(1 for seen in received if set(seen) >= set(committed))
    delays = [seen[seq] - committed[seq] for seen in received for seq in committed if seq in seen]
    med = statistics.median(delays)
    return [
        f"| {count} event-stream viewers of one game while {games} games are recorded at once ({appends} appends each, one every {delay * 1000:.0f} ms, each writer its own process): "
        f"viewers that got every event | {complete} of {count} ({len(delays):,} deliveries) | every viewer every event: {'met' if complete == count else '**not met**'} |",
        f"| the same: commit to delivery at the viewer | median {ms(med)}, p95 {ms(pct(delays, 0.95))}, max {ms(max(delays))} | median <= 500 ms: {'met' if med <= 0.5 else '**not met**'} |",
        f"| the same: the server's peak memory (VmHWM) | {rss:.0f} MB | <= 300 MB: {'met' if rss <= 300 else '**not met**'} |",
    ]


# --- append to DOM in Chromium ---------------------------------------------------------------

OBSERVE = """() => {
  window.__seen = {};
  new MutationObserver((changes) => {
    const now = performance.timeOrigin + performance.now();
    for (const change of changes) for (const node of change.addedNodes) if (node.dataset && node.dataset.seq) window.__seen[node.dataset.seq] = now;
  }).observe(document.getElementById('log'), { childList: true });
}"""


def bench_dom(tmp: Path, appends: int, delay: float) -> list[str]:
    from playwright.sync_api import sync_playwright

    db = tmp / "dom.db"
    events = sample_events()
    with as_older_ktlog(), Store(db) as store:
        game = store.new_game(events[0], events[1:60])
    served = Served(db)
    try:
        with sync_playwright() as pw:
            context = launch_chromium(pw, tmp / "profile")
            page = context.new_page()
            page.goto(f"{served.base}/games/{game}")
            page.evaluate(OBSERVE)
            time.sleep(0.5)
            (proc,) = writers(db, [game], 60, appends, delay)
            committed = commit_times(proc)
            deadline = time.monotonic() + 10
            while len(page.evaluate("Object.keys(window.__seen)")) < len(committed) and time.monotonic() < deadline:
                time.sleep(0.05)
            seen = {int(k): v / 1000 for k, v in page.evaluate("window.__seen").items()}
            context.close()
    finally:
        served.stop()
    delays = [seen[s] - committed[s] for s in committed if s in seen and events[s - 1].__class__.__name__ != "Annotation"]
    shown = [s for s in committed if events[s - 1].__class__.__name__ != "Annotation"]
    med, p95 = statistics.median(delays), pct(delays, 0.95)
    return [
        f"| append committed by another process to the game page's DOM (headless Chromium, a MutationObserver on the log; {len(delays)} of {len(shown)} rows seen; one append every {delay * 1000:.0f} ms) "
        f"| min {ms(min(delays))}, median {ms(med)}, p95 {ms(p95)}, max {ms(max(delays))} | median <= 300 ms, p95 <= 1 s: {'met' if med <= 0.3 and p95 <= 1 else '**not met**'} |"
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games, viewers and appends (a smoke run)")
    quick = parser.parse_args().quick
    lines = ["| benchmark | result | target |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        lines += bench_tables(tmp, 100 if quick else 1000, 5 if quick else 20)
        lines += bench_viewers(tmp, 20 if quick else 200, 4 if quick else 20, 20 if quick else 100, 0.05)
        lines += bench_dom(tmp, 20 if quick else 100, 0.1)
    print("\n".join(lines))
    print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d")}))


if __name__ == "__main__":
    main()
