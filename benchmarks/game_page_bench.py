"""`GET /games/ID` with 50 concurrent clients (issue 26): `ktlog serve` against a bare Starlette
app serving the same bytes, each the whole server process as a user runs it, timed in turn in
the same run, round by round.

    .venv/bin/python benchmarks/game_page_bench.py [--requests 2000] [--rounds 3]

Prints, for each: requests a second, latency p50 and p95, and the server's CPU a request (user +
system, read from /proc), with min and median over the rounds, and the ratio of the medians.
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

from ktlog.data import SAMPLE_GAMES

KTLOG = Path(sys.executable).with_name("ktlog")
BARE = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
body = open(sys.argv[1], "rb").read()
path = sys.argv[2]
app = Starlette(routes=[Route(path, lambda request: HTMLResponse(body))])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]), log_level="warning")
"""
TARGET = 0.8
"""ktlog's throughput at least this share of the bare app's (issue 26)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_up(url: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"{url} never answered")


async def load(url: str, requests: int, clients: int) -> tuple[float, list[float]]:
    """`requests` GETs from `clients` at once: the wall time and each request's latency."""
    latencies: list[float] = []
    left = iter(range(requests))

    async def client(http: httpx.AsyncClient) -> None:
        for _ in left:
            start = time.perf_counter()
            r = await http.get(url)
            latencies.append(time.perf_counter() - start)
            assert r.status_code == 200, r.status_code

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        start = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
        return time.perf_counter() - start, latencies


def measure(proc: subprocess.Popen, url: str, requests: int, clients: int) -> dict[str, float]:
    before = cpu_seconds(proc.pid)
    wall, latencies = asyncio.run(load(url, requests, clients))
    latencies.sort()
    return {
        "req/s": requests / wall,
        "p50 ms": latencies[len(latencies) // 2] * 1000,
        "p95 ms": latencies[int(len(latencies) * 0.95)] * 1000,
        "CPU ms/req": (cpu_seconds(proc.pid) - before) * 1000 / requests,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, sample = Path(tmp) / "page.db", sorted(SAMPLE_GAMES.glob("*.jsonl"))[0]
        subprocess.run([KTLOG, "--db", db, "import", sample], check=True, capture_output=True)
        game = json.loads(subprocess.run([KTLOG, "--db", db, "games", "--json"], check=True, capture_output=True, text=True).stdout)[0]["id"]
        ours_port, bare_port = free_port(), free_port()
        ours = subprocess.Popen([KTLOG, "serve", "--db", db, "--port", str(ours_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            path = f"/games/{game}"
            wait_up(f"http://127.0.0.1:{ours_port}{path}")
            page = httpx.get(f"http://127.0.0.1:{ours_port}{path}").content
            (Path(tmp) / "page.html").write_bytes(page)
            bare = subprocess.Popen([sys.executable, "-c", BARE, str(Path(tmp) / "page.html"), path, str(bare_port)])
            try:
                wait_up(f"http://127.0.0.1:{bare_port}{path}")
                runs: dict[str, list[dict[str, float]]] = {"ktlog serve": [], "bare Starlette": []}
                for _ in range(args.rounds):  # in turn, round by round: the machine's load falls on both
                    runs["ktlog serve"].append(measure(ours, f"http://127.0.0.1:{ours_port}{path}", args.requests, args.clients))
                    runs["bare Starlette"].append(measure(bare, f"http://127.0.0.1:{bare_port}{path}", args.requests, args.clients))
            finally:
                bare.terminate()
                bare.wait()
        finally:
            ours.terminate()
            ours.wait()
    print(f"GET {path} ({len(page):,} bytes), {args.requests} requests from {args.clients} clients, {args.rounds} rounds in turn; min / median")
    print("| server | req/s | p50 ms | p95 ms | server CPU ms a request |")
    print("|---|---|---|---|---|")
    medians = {}
    for name, rounds in runs.items():
        cells = []
        for key in ("req/s", "p50 ms", "p95 ms", "CPU ms/req"):
            values = [r[key] for r in rounds]
            medians[(name, key)] = statistics.median(values)
            best = max(values) if key == "req/s" else min(values)
            cells.append(f"{best:.1f} / {statistics.median(values):.1f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    ratio = medians[("ktlog serve", "req/s")] / medians[("bare Starlette", "req/s")]
    met = "met" if ratio >= TARGET and medians[("ktlog serve", "p50 ms")] <= 50 else "not met"
    print(f"throughput ratio (medians) {ratio:.2f}x, p50 {medians[('ktlog serve', 'p50 ms')]:.1f} ms: target >= {TARGET}x and p50 <= 50 ms: {met}")


if __name__ == "__main__":
    main()
