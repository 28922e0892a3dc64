"""Seat benchmarks (issue 23): a tap on one seat's page to the event stored and both seats'
pages showing it, with two seats in headless Chromium (360x740) and 20 spectators following the
game's event stream; and the seat page's load time and weight.

    .venv/bin/python benchmarks/seat_bench.py [--taps N] [--loads N] [--traced N]   (N taps rounded up to pairs: an activation and its undo; 0: the loads only)

The server is the real `ktlog serve --seats` in its own process (its CPU time is read from
/proc; for the loads, its app with one more route: the seat's page saved as a file). Baselines in
the same run: the table recording the same events (a `Store.append` in this process) to both
pages showing them, which is the stream's share of a tap; a static file from the same server,
and the seat's own page saved once, against each load of the seat's page, pair by pair; and, less
moved by a loaded machine than a first paint, the CPU the browser's renderer spent on each before
its first paint (thread time, from Chromium's trace). Every figure comes from this run, on this
machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import typing
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from seat_driver import wait_until  # noqa: E402
from tui_support import tiny_game  # noqa: E402
from web_server import PHONE, launch_chromium  # noqa: E402

from ktlog import events as ev  # noqa: E402
from ktlog.play import seats  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402

KTLOG = Path(sys.executable).with_name("ktlog")
PACE_S = 0.25
"""Between two taps (each timed on its own): slower than the seat's rate limit, as a person taps."""
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
  if (selector !== '#undo') document.querySelector("#form-body .step .choice[data-value='engage']").click();
  return t; }"""
"""A tap, timed from its first click: Undo, or Activate trooper-1 then its order in the move's form."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Served:
    """`ktlog serve --seats` in its own process (or `command`, given the port last)."""

    def __init__(self, db: Path, command: list[str] | None = None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        command = command or [str(KTLOG), "--db", str(db), "serve", "--seats", "--port"]
        self.proc = subprocess.Popen([*command, str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
        wait_until(page, f"(seq) => window.{what}[seq] !== undefined", seq)
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
                wait_until(page, "() => document.getElementById('net').textContent === 'online'")
                page.evaluate(WATCH)
            alice.evaluate(STORED)
            time.sleep(0.5)
            cpu0 = cpu_s(served.proc.pid)
            with Store(db) as table:
                for i in range(taps):
                    time.sleep(PACE_S)  # a person's pace: the seat's rate limit (5 writes a second) is not the figure
                    seq = table.state(gid).seq + 1
                    selector = ".move[data-kind=activate][data-value=trooper-1]" if i % 2 == 0 else "#undo"
                    wait_until(alice, "(s) => !!document.querySelector(s) && !document.querySelector(s).disabled && !document.body.dataset.busy", selector)
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


DRAWN = "() => performance.getEntriesByName('ktlog-seat-drawn').length > 0"
PAINTED = "() => performance.getEntriesByName('first-contentful-paint').length > 0"
WEIGHT = "() => performance.getEntriesByType('navigation')[0].transferSize + performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0)"
FIRST_SCREEN = (
    "() => ['who', 'score', 'moves'].every((id) => document.getElementById(id).textContent.trim() !== '' && document.getElementById(id).textContent !== 'Seat')"
)
"""The seat's first screen in the page as it came (who, the score, the move buttons), before any script ran."""
SAVED = "saved"
"""The seat's page saved once, served under the seat's own path (its cookie's: the script attaches to it as to the seat)."""
REOPENED = ("static", "seat", "saved")
"""The three loads of each pair in a new tab, their order turned one place each pair."""


class Load(typing.NamedTuple):
    """One page's load, each from its navigation's start (s): its own request answered
    (responseEnd), its document's DOMContentLoaded, its first contentful paint, and (a seat) the
    script's first drawing of the seat's view (`ktlog-seat-drawn`)."""

    answered: float
    loaded: float
    painted: float
    script: float | None = None


def saved_app(db: Path, saved: Path):
    """`ktlog serve --seats`'s app with one more route: the seat's page as saved in `saved`, read
    at each request and sent with the seat page's own headers: the same bytes without the
    server's work (the token, the view, the drawing)."""
    from starlette.responses import Response
    from starlette.routing import Route

    from ktlog.web.app import make_app
    from ktlog.web.seats import PAGE_CSP

    async def page(request):
        return Response(saved.read_bytes(), media_type="text/html", headers={"cache-control": "no-store", "content-security-policy": PAGE_CSP})

    app = make_app(db, seats=True)
    app.router.routes.insert(0, Route("/seat/{game}/" + SAVED, page))
    return app


def serve_saved(db: Path, saved: Path, port: int) -> None:
    """The server of the load benchmark (`--serve`): `saved_app` run as `ktlog serve --seats` runs its app."""
    from ktlog.web.app import SERVER_SETTINGS, Server, listen

    sock = listen("127.0.0.1", port)
    try:
        Server(saved_app(db, saved), **SERVER_SETTINGS).run(sockets=[sock])
    finally:
        sock.close()


def timed(page, seat: bool) -> Load:
    """The page's load figures (for a seat, once its script has drawn the view)."""
    wait_until(page, DRAWN if seat else PAINTED)
    wait_until(page, PAINTED)
    found = page.evaluate(
        """() => { const n = performance.getEntriesByType('navigation')[0];
        const drawn = performance.getEntriesByName('ktlog-seat-drawn');
        return [n.responseEnd, n.domContentLoadedEventEnd, performance.getEntriesByName('first-contentful-paint')[0].startTime,
                drawn.length ? drawn[0].startTime : null]; }"""
    )
    return Load(*(None if t is None else t / 1000 for t in found))


def spread(ratios: list[float]) -> str:
    """The median of pair ratios, their interquartile range, and a bootstrap 95% interval of that median."""
    draw = random.Random(39)
    medians = sorted(statistics.median(draw.choices(ratios, k=len(ratios))) for _ in range(2000))
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    return f"**{statistics.median(ratios):.2f}x** (quartiles {q1:.2f}-{q3:.2f}; median's 95% bootstrap {medians[50]:.2f}-{medians[1949]:.2f})"


def figures(name: str, seats: list[float], floors: list[float]) -> str:
    """min / median of a figure of one kind of load against another's, and their ratio pair by pair."""
    return (
        f"{name} min {ms(min(seats))}, median {ms(statistics.median(seats))} against {ms(min(floors))}, {ms(statistics.median(floors))}: "
        f"{spread([a / b for a, b in zip(seats, floors)])} pair by pair"
    )


def bench_handler(db: Path, gid: str, token: str, saved: Path, requests: int) -> list[str]:
    """The server's own CPU and wall for each kind of load, in this process (the app, its
    follower running, through httpx's ASGI transport: no socket, no browser), the kinds
    interleaved request by request."""
    from ktlog.web.seats import SEAT_COOKIE

    paths = {"seat": f"/seat/{gid}", "saved": f"/seat/{gid}/{SAVED}", "static": "/static/seat.css"}
    cpu: dict[str, list[float]] = {k: [] for k in paths}
    wall: dict[str, list[float]] = {k: [] for k in paths}

    async def run() -> None:
        app = saved_app(db, saved)
        async with app.router.lifespan_context(app), httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
            for i in range(requests + 20):  # the first 20 of each: warming up
                for kind, path in paths.items():
                    t, c = time.perf_counter(), time.process_time()
                    r = await client.get(path, headers={"cookie": f"{SEAT_COOKIE}={token}"} if kind != "static" else {})
                    if i >= 20:
                        cpu[kind].append(time.process_time() - c)
                        wall[kind].append(time.perf_counter() - t)
                    assert r.status_code == 200, (path, r.status_code)

    asyncio.run(run())
    return [
        f"| the server alone, in this process ({requests} requests of each, interleaved): {kind} "
        f"| CPU min {min(cpu[kind]) * 1000:.2f} ms, median {statistics.median(cpu[kind]) * 1000:.2f} ms; wall median {statistics.median(wall[kind]) * 1000:.2f} ms | |"
        for kind in paths
    ]


TRACED = "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,loading"
"""Chromium's trace categories for the renderer's main-thread tasks and their parts."""
STEPS = {"ParseHTML": "parse", "UpdateLayoutTree": "style", "Layout": "layout", "Paint": "paint", "EvaluateScript": "script"}
"""The parts of the tasks before a first paint named in the figures (trace event: its name here)."""


def before_paint(browser, tab, url: str) -> dict[str, float]:
    """The CPU (s, thread time: not the waits of a loaded machine) of the renderer's main thread from
    the tab's navigation to its first contentful paint, in all and by step, from Chromium's trace."""
    events: list[dict] = []
    done = threading.Event()
    cdp = browser.new_browser_cdp_session()
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.set())
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": TRACED.split(",")}, "transferMode": "ReportEvents"})
    tab.goto(url)
    tab.wait_for_timeout(300)  # not a poll: nothing of the benchmark's runs in the page before its first paint
    wait_until(tab, PAINTED)
    cdp.send("Tracing.end")
    while not done.is_set():
        tab.wait_for_timeout(20)
    cdp.detach()
    painted = next(e for e in events if e["name"] == "firstContentfulPaint")
    pid, end = painted["pid"], painted["ts"]
    start = max(e["ts"] for e in events if e["name"] == "navigationStart" and e["pid"] == pid and e["ts"] <= end)
    main = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == pid and e["args"]["name"] == "CrRendererMain"}
    spent = dict.fromkeys(["tasks", *STEPS.values()], 0.0)
    for e in events:
        if e["pid"] == pid and e["tid"] in main and e["ph"] == "X" and start <= e["ts"] <= end and (e["name"] == "RunTask" or e["name"] in STEPS):
            spent[STEPS.get(e["name"], "tasks")] += e.get("tdur", 0) / 1e6
    return spent


def bench_traced(base: str, paths: dict[str, str], tmp: Path, gid: str, token: str, loads: int) -> list[str]:
    """`before_paint` of each kind of reopened load, in a new tab of one browser, the kinds turned
    one place each round: the browser's own work before each is shown, which a loaded machine's
    waits do not move as they move the first paint."""
    from playwright.sync_api import sync_playwright

    spent: dict[str, list[dict[str, float]]] = {k: [] for k in paths}
    with sync_playwright() as pw:
        ctx = launch_chromium(pw, tmp / "traced", **PHONE)
        ctx.pages[0].goto(f"{base}/seat/{gid}#{token}")
        wait_until(ctx.pages[0], DRAWN)
        for i in range(loads):
            for kind in list(paths)[i % 3 :] + list(paths)[: i % 3]:
                tab = ctx.new_page()
                spent[kind].append(before_paint(ctx.browser, tab, f"{base}{paths[kind]}?traced={i}"))
                tab.close()
        ctx.close()

    def cpu(kind: str) -> str:
        parts = ", ".join(f"{name} {statistics.median(s[name] for s in spent[kind]) * 1000:.1f}" for name in STEPS.values())
        return f"{kind} {statistics.median(s['tasks'] for s in spent[kind]) * 1000:.1f} ms ({parts})"

    return [
        f"| the renderer's main thread before the first contentful paint, CPU (thread time), median of {loads} loads of each "
        f"| {'; '.join(cpu(k) for k in paths)} | |"
    ]


def bench_load(tmp: Path, loads: int, requests: int, traced: int) -> list[str]:
    """The seat's page drawn: opened from its link in a new browser (nothing kept yet: the page,
    its script, then its view), and reopened in a new tab of a browser that has been there (the
    view comes with the page and is drawn in it, the stylesheet is in it, the script is kept: one
    round trip); each against one static file from the same server, pair by pair, in the same
    kind of browser: a new one, and a new tab. The reopened seat is also against its own page
    saved once and served as a file (`saved_app`): the seat against it is the server's work, it
    against the static file the browser's cost of the page. The server's CPU is read for each
    kind of load, and the server's handlers timed alone in this process (`bench_handler`)."""
    from playwright.sync_api import sync_playwright

    from ktlog.web.seats import SEAT_COOKIE

    db, saved = tmp / "load.db", tmp / "seat.html"
    with Store(db) as store:
        gid = tiny_game(store)
        token = seats.issue(store, gid, "Alice")
    saved.write_text("not saved yet")
    served = Served(db, [sys.executable, __file__, "--serve", str(db), str(saved)])
    first, floor, weights, weights_again = [], [], [], []
    again: dict[str, list[Load]] = {k: [] for k in REOPENED}
    cpu = {k: 0.0 for k in REOPENED}
    server_drawn = []

    def load(page, url: str, seat: bool, kind: str) -> Load:
        before = cpu_s(served.proc.pid)
        page.goto(url)
        found = timed(page, seat)
        cpu[kind] += cpu_s(served.proc.pid) - before
        return found

    urls = {"static": f"{served.base}/static/seat.css?again=", "seat": f"{served.base}/seat/{gid}?", "saved": f"{served.base}/seat/{gid}/{SAVED}?"}
    try:
        page = httpx.get(f"{served.base}/seat/{gid}", headers={"cookie": f"{SEAT_COOKIE}={token}"})
        saved.write_bytes(page.content)  # the seat's page as the server draws it now (the game does not move here)
        with sync_playwright() as pw:
            for i in range(loads):
                ctx = launch_chromium(pw, tmp / f"floor{i}", **PHONE)  # baseline: a new browser's one request (a static file)
                floor.append(load(ctx.pages[0], f"{served.base}/static/seat.css?load={i}", False, "static"))
                ctx.close()
                ctx = launch_chromium(pw, tmp / f"load{i}", **PHONE)  # the seat's link, in a new browser
                page = ctx.pages[0]
                first.append(load(page, f"{served.base}/seat/{gid}#{token}", True, "seat"))
                weights.append(page.evaluate(WEIGHT))
                page.close()
                tab = ctx.new_page()  # the seat reopened in a new tab (the address history gives: no token in it)
                tab.route("**/seat-static/**", lambda route: route.abort())  # once: the page as it came, no script
                tab.goto(f"{served.base}/seat/{gid}")
                server_drawn.append(tab.evaluate(FIRST_SCREEN))
                tab.close()
                for kind in REOPENED[i % 3 :] + REOPENED[: i % 3]:  # each new tab: the static file, the seat, its saved page
                    tab = ctx.new_page()
                    again[kind].append(load(tab, f"{urls[kind]}{i}", kind != "static", kind))
                    if kind == "seat":
                        weights_again.append(tab.evaluate(WEIGHT))
                    tab.close()
                ctx.close()
        handler = bench_handler(db, gid, token, saved, requests)
        paths = {"static": "/static/seat.css", "seat": f"/seat/{gid}", "saved": f"/seat/{gid}/{SAVED}"}
        traced_lines = bench_traced(served.base, paths, tmp, gid, token, traced) if traced else []
    finally:
        served.stop()
    statics = sum((ROOT / "ktlog" / "web" / "static" / f).stat().st_size for f in ("seat.js", "seat.css"))
    painted = {k: [a.painted for a in again[k]] for k in REOPENED}
    ratio = statistics.median(a / b for a, b in zip(painted["seat"], painted["static"]))
    seat_ms = statistics.median(painted["seat"])
    PAINT_WORDS, SCRIPT_WORDS = (
        "**seat drawn** (first contentful paint) against the static file's:",
        "drawn by the script, against the static file's DOMContentLoaded:",
    )
    return [
        f"| the seat reopened in a new tab (its view in the page, the script kept), {loads} loads "
        f"| {figures(PAINT_WORDS, painted['seat'], painted['static'])} "
        f"| <= 1.3x: {'met' if ratio <= 1.3 else '**not met**'}; <= 300 ms: {'met' if seat_ms <= 0.3 else '**not met**'} |",
        f"| the seat's page saved once, served as a file (the browser's cost of the page): first contentful paint against the static file's "
        f"| {figures('', painted['saved'], painted['static'])} | |",
        f"| the seat against its saved page (the server's share), first contentful paint | {figures('', painted['seat'], painted['saved'])} | |",
        f"| the same loads, DOMContentLoaded: seat, saved page against the static file "
        f"| {figures('', [a.loaded for a in again['seat']], [b.loaded for b in again['static']])}; "
        f"{figures('', [a.loaded for a in again['saved']], [b.loaded for b in again['static']])} | |",
        f"| the same loads, answered (responseEnd): seat, saved page, static file "
        f"| medians {', '.join(ms(statistics.median(a.answered for a in again[k])) for k in REOPENED[1:] + REOPENED[:1])} | |",
        f"| the same loads, the script's drawing of the view (`ktlog-seat-drawn`) against the static file's DOMContentLoaded "
        f"| {figures('', [a.script for a in again['seat']], [b.loaded for b in again['static']])} | |",
        f"| the seat's first screen in the page as it came, no script run | {sum(server_drawn)} of {loads} loads | |",
        f"| the seat's link opened in a new browser (the page, its script, then its view: no view to draw in the page) "
        f"| {figures(SCRIPT_WORDS, [a.script for a in first], [b.loaded for b in floor])}; "
        f"first contentful paint {statistics.median(a.painted / b.painted for a, b in zip(first, floor)):.2f}x | |",
        f"| server CPU a load (from /proc, 10 ms ticks): seat (a new browser's and the reopened), saved page, static file "
        f"| {cpu['seat'] * 1000 / (2 * loads):.1f} ms, {cpu['saved'] * 1000 / loads:.1f} ms, {cpu['static'] * 1000 / (2 * loads):.1f} ms | |",
        *handler,
        *traced_lines,
        f"| weight over the wire: a new browser (HTML with the stylesheet, seat.js, the view's JSON); a reopened seat "
        f"| {statistics.median(weights) / 1024:.1f} KB; {statistics.median(weights_again) / 1024:.1f} KB (seat.js + seat.css on disk: {statics / 1024:.1f} KB) "
        f"| <= 100 KB: {'met' if statistics.median(weights) <= 100 * 1024 else '**not met**'} |",
    ]


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:  # the load benchmark's own server (`serve_saved`), started by `bench_load`
        return serve_saved(Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--loads", type=int, default=40)
    parser.add_argument("--requests", type=int, default=200, help="requests of each kind to the server alone, in this process")
    parser.add_argument("--traced", type=int, default=10, help="loads of each kind traced: the renderer's CPU before the first paint (0: none)")
    args = parser.parse_args()
    taps = args.taps + args.taps % 2  # pairs: each activation undone, so the baseline's table starts with no operative active
    load_before = os.getloadavg()
    wall, cpu = time.monotonic(), time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        lines = (bench_taps(Path(tmp), taps, args.spectators) if taps else []) + bench_load(Path(tmp), args.loads, args.requests, args.traced)
    load_after = os.getloadavg()
    print(
        f"seat_bench on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}, load average (1, 5, 15 min) "
        f"{', '.join(f'{x:.1f}' for x in load_before)} at the start, {', '.join(f'{x:.1f}' for x in load_after)} at the end; "
        f"wall {time.monotonic() - wall:.0f} s, this process's CPU {time.process_time() - cpu:.1f} s"
    )
    print("| what | figure | target |\n|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
