"""`GET /games/ID` with 50 concurrent clients (issue 26): `ktlog serve` against a bare Starlette
app serving the same bytes, each the whole server process as a user runs it, timed in turn in
the same run, round by round.

    .venv/bin/python benchmarks/game_page_bench.py [--requests 2000] [--rounds 3]
        [--compare CHECKOUT]   also serve with another checkout's ktlog (a worktree of main, say)
        [--revalidate]         also time ktlog's clients sending If-None-Match, as a browser
                               reloading does (304s: not the same bytes, so a row of its own)
        [--wrk SECONDS]        drive each server with wrk (compiled: `apt-get install wrk`) for
                               SECONDS a round instead of httpx clients in this process
        [--pure-python]        also serve ktlog's page and the bare app's with uvicorn's h11 and
                               asyncio's loop (httptools and uvloop hidden from the servers), as
                               before those were ktlog's dependencies
        [--long EVENTS]        instead: a long game (benchmarks/run.py's, with notes and undos)
                               gets its last APPENDS events one by one, each followed by one GET
                               of its page from each server: its bytes and the CPU of making it

Prints, for each: requests a second, latency p50 and p95, the server's CPU a request (user +
system, read from /proc) and the load generator's (this process, or wrk's: it shares the
machine's cores), with min and median over the rounds, the ratio of the medians, and the
ratios round by round. The bare app runs under uvicorn with `ktlog serve`'s own settings
(`web.app.SERVER_SETTINGS`: the same HTTP parser and event loop, one worker), so only the app
differs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import re
import shutil
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
from ktlog.web.app import SERVER_SETTINGS
body = open(sys.argv[1], "rb").read()
path = sys.argv[2]
async def page(request):  # async, as ktlog's route: a plain function would be run in a worker thread
    return HTMLResponse(body)
app = Starlette(routes=[Route(path, page)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]), **SERVER_SETTINGS)
"""
TARGET = 0.8
"""ktlog's throughput at least this share of the bare app's (issue 26)."""
PURE = " (h11, asyncio)"
"""The rows of --pure-python."""


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


async def load(url: str, requests: int, clients: int, etag: str | None) -> tuple[float, list[float], int]:
    """`requests` GETs from `clients` at once (each with If-None-Match: `etag` when given): the
    wall time, each request's latency, and how many were sent again on a new connection."""
    latencies: list[float] = []
    left = iter(range(requests))
    closed: list[int] = []
    headers, expected = ({"if-none-match": etag}, 304) if etag else ({}, 200)

    async def client(http: httpx.AsyncClient) -> None:
        for _ in left:
            start = time.perf_counter()
            try:
                r = await http.get(url, headers=headers)
            except httpx.RemoteProtocolError:  # a kept-alive connection the server closed as idle (5 s: a loaded machine)
                closed.append(1)
                r = await http.get(url, headers=headers)
            latencies.append(time.perf_counter() - start)
            assert r.status_code == expected, r.status_code

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        start = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(clients)))
        return time.perf_counter() - start, latencies, len(closed)


WRK_MISSING = (
    "--wrk needs wrk, a compiled HTTP load generator, on the PATH: `sudo apt-get install wrk` (Debian, Ubuntu), "
    "`brew install wrk` (macOS), or build it from https://github.com/wg/wrk; or leave out --wrk to use httpx clients"
)
WRK_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def wrk_ms(text: str) -> float:
    """A latency as wrk prints it (`812.00us`, `1.23ms`, `2.10s`) in milliseconds."""
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * WRK_UNITS[unit]


def wrk_figures(output: str) -> dict[str, float]:
    """Requests a second, p50 and p90 (wrk's `--latency` gives 50/75/90/99%), the requests
    made and those answered otherwise than 2xx/3xx or not at all, from wrk's report."""
    percentiles = dict(re.findall(r"^\s+(50|90)%\s+(\S+)$", output, re.M))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "req/s": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),  # type: ignore[union-attr]
        "p50 ms": wrk_ms(percentiles["50"]),
        "p90 ms": wrk_ms(percentiles["90"]),
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),  # type: ignore[union-attr]
        "failed": (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, errors.groups())) if errors else 0),
    }


def measure_wrk(proc: subprocess.Popen, url: str, seconds: int, clients: int, etag: str | None = None) -> dict[str, float]:
    """wrk's one thread holding `clients` connections for `seconds` (with If-None-Match: `etag`
    when given); the server's CPU a request from /proc and wrk's from its own rusage."""
    headers = ["-H", f"If-None-Match: {etag}"] if etag else []
    before, theirs = cpu_seconds(proc.pid), os.times()
    done = subprocess.run(["wrk", "-t1", f"-c{clients}", f"-d{seconds}s", "--latency", *headers, url], capture_output=True, text=True)
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"wrk failed on {url}: {(done.stderr or done.stdout).strip()}")
    figures = wrk_figures(done.stdout)
    requests = figures.pop("requests")
    figures["CPU ms/req"] = (cpu_seconds(proc.pid) - before) * 1000 / requests
    figures["client CPU ms/req"] = (after.children_user + after.children_system - theirs.children_user - theirs.children_system) * 1000 / requests
    return figures


def measure(proc: subprocess.Popen, url: str, requests: int, clients: int, etag: str | None = None) -> dict[str, float]:
    before, ours = cpu_seconds(proc.pid), time.process_time()
    wall, latencies, retried = asyncio.run(load(url, requests, clients, etag))
    ours = time.process_time() - ours
    latencies.sort()
    return {
        "req/s": requests / wall,
        "p50 ms": latencies[len(latencies) // 2] * 1000,
        "p95 ms": latencies[int(len(latencies) * 0.95)] * 1000,
        "CPU ms/req": (cpu_seconds(proc.pid) - before) * 1000 / requests,
        "client CPU ms/req": ours * 1000 / requests,
        "retried": retried,
    }


def implementation() -> str:
    """The HTTP parser and event loop uvicorn picks here (its `auto`: httptools and uvloop when
    installed), the same for every server of the run but those of --pure-python."""
    import importlib.util

    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    return f"uvicorn with {http} and {loop}, one worker each"


def hiding_compiled(folder: Path) -> Path:
    """A folder whose `httptools` and `uvloop` fail to import, first on a server's path: uvicorn
    then picks h11 and asyncio's loop, as where they are not installed."""
    for name in ("httptools", "uvloop"):
        (folder / f"{name}.py").write_text(f"raise ImportError('{name} hidden by game_page_bench.py --pure-python')\n")
    return folder


def with_path(first: Path | None, *more: Path | None) -> dict[str, str] | None:
    """This environment with the folders given (those not None) first on PYTHONPATH, or None."""
    folders = [str(folder) for folder in (first, *more) if folder is not None]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(folders)} if folders else None


def serve(db: Path, port: int, checkout: Path | None = None, hidden: Path | None = None) -> subprocess.Popen:
    """`ktlog serve` as a user runs it: this environment's, or another checkout's (its package
    first on the path, run by this Python); `hidden`: a `hiding_compiled` folder."""
    command = [KTLOG] if checkout is None else [sys.executable, "-m", "ktlog"]
    env = with_path(hidden, checkout)
    # run in the checkout: `python -m` puts the working directory first on the path
    return subprocess.Popen([*command, "serve", "--db", db, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=checkout)


def bare(page: Path, path: str, port: int, hidden: Path | None = None) -> subprocess.Popen:
    """The bare app serving `page`'s bytes at `path`; `hidden`: a `hiding_compiled` folder."""
    return subprocess.Popen([sys.executable, "-c", BARE, str(page), path, str(port)], env=with_path(hidden))


APPENDS = 40
"""Events appended to the long game, each followed by a GET of its page."""


def long_page(args: argparse.Namespace) -> None:
    """The page of a long game after each of its last events: made again at every head."""
    sys.path.insert(0, str(Path(__file__).parent))
    from run import long_game

    from ktlog.storage.store import Store

    game_id, built = long_game(args.long)
    sealed = built.sealed(game_id, "2026-06-01T18:00:00+00:00")
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db = Path(tmp) / "long.db"
        with Store(db) as store:
            store.import_envelopes(game_id, sealed[:-APPENDS])
        servers = {"ktlog serve": serve(db, port := free_port())}
        urls = {"ktlog serve": f"http://127.0.0.1:{port}/games/{game_id}"}
        if args.compare:
            name = f"ktlog serve ({args.compare.name})"
            servers[name], urls[name] = serve(db, port := free_port(), args.compare), f"http://127.0.0.1:{port}/games/{game_id}"
        for name, proc in servers.items():
            stack.callback(lambda proc=proc: (proc.terminate(), proc.wait()))
            wait_up(urls[name])
        cpu: dict[str, list[float]] = {name: [] for name in servers}
        wall: dict[str, list[float]] = {name: [] for name in servers}
        size: dict[str, int] = {}
        with Store(db) as store:
            for envelope, _ in sealed[-APPENDS:]:
                store.append(game_id, envelope.payload)
                for name, proc in servers.items():
                    before, start = cpu_seconds(proc.pid), time.perf_counter()
                    page = httpx.get(urls[name], timeout=60)
                    wall[name].append(time.perf_counter() - start)
                    cpu[name].append(cpu_seconds(proc.pid) - before)
                    size[name] = len(page.content)
    print(f"a game of {len(sealed):,} events (notes and undos among them): its page after each of its last {APPENDS}, one GET a head; min / median")
    print("| server | page bytes | server CPU ms a page | wall ms a page |")
    print("|---|---|---|---|")
    for name in servers:
        print(
            f"| {name} | {size[name]:,} | {min(cpu[name]) * 1000:.0f} / {statistics.median(cpu[name]) * 1000:.0f} "
            f"| {min(wall[name]) * 1000:.0f} / {statistics.median(wall[name]) * 1000:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--compare", type=Path, help="another checkout of ktlog to serve the same page in turn")
    parser.add_argument("--revalidate", action="store_true", help="also time clients sending If-None-Match (304s)")
    parser.add_argument("--wrk", type=int, metavar="SECONDS", help="drive the servers with wrk for SECONDS a round")
    parser.add_argument("--pure-python", action="store_true", help="also serve both with uvicorn's h11 and asyncio's loop")
    parser.add_argument("--long", type=int, metavar="EVENTS", help="instead: the page of a long game after each of its last events")
    args = parser.parse_args()
    if args.wrk and shutil.which("wrk") is None:
        raise SystemExit(WRK_MISSING)
    if args.long:
        long_page(args)
        return
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db, sample = Path(tmp) / "page.db", sorted(SAMPLE_GAMES.glob("*.jsonl"))[0]
        subprocess.run([KTLOG, "--db", db, "import", sample], check=True, capture_output=True)
        game = json.loads(subprocess.run([KTLOG, "--db", db, "games", "--json"], check=True, capture_output=True, text=True).stdout)[0]["id"]
        path = f"/games/{game}"
        servers: dict[str, tuple[subprocess.Popen, str]] = {}

        def start(name: str, proc: subprocess.Popen, port: int) -> None:
            stack.callback(lambda: (proc.terminate(), proc.wait()))
            servers[name] = proc, f"http://127.0.0.1:{port}{path}"
            wait_up(servers[name][1])

        start("ktlog serve", serve(db, port := free_port()), port)
        page = httpx.get(servers["ktlog serve"][1])
        (Path(tmp) / "page.html").write_bytes(page.content)
        if args.compare:
            start(f"ktlog serve ({args.compare.name})", serve(db, port := free_port(), args.compare), port)
            other = len(httpx.get(servers[f"ktlog serve ({args.compare.name})"][1]).content)
            print(f"ktlog serve ({args.compare.name}) sends {other:,} bytes, this checkout {len(page.content):,} (the bare app: this checkout's)")
        start("bare Starlette", bare(Path(tmp) / "page.html", path, port := free_port()), port)
        if args.pure_python:
            (hidden := Path(tmp) / "hidden").mkdir()
            start("ktlog serve" + PURE, serve(db, port := free_port(), hidden=hiding_compiled(hidden)), port)
            start("bare Starlette" + PURE, bare(Path(tmp) / "page.html", path, port := free_port(), hidden), port)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
        if args.revalidate:
            runs["ktlog serve, If-None-Match (304)"] = []
        timed = functools.partial(measure_wrk, seconds=args.wrk) if args.wrk else functools.partial(measure, requests=args.requests)
        for _ in range(args.rounds):  # in turn, round by round: the machine's load falls on all
            for name, (proc, url) in servers.items():
                runs[name].append(timed(proc, url, clients=args.clients))
            if args.revalidate:
                proc, url = servers["ktlog serve"]
                runs["ktlog serve, If-None-Match (304)"].append(timed(proc, url, clients=args.clients, etag=page.headers["etag"]))
    how = f"wrk for {args.wrk} s" if args.wrk else f"{args.requests} requests"
    print(f"GET {path} ({len(page.content):,} bytes), {how} from {args.clients} clients, {args.rounds} rounds in turn; {implementation()}; min / median")
    tail = "p90 ms" if args.wrk else "p95 ms"
    keys = ("req/s", "p50 ms", tail, "CPU ms/req", "client CPU ms/req")
    print(f"| server | req/s | p50 ms | {tail} | server CPU ms a request | load generator CPU ms a request |")
    print("|---|---|---|---|---|---|")
    medians = {}
    for name, rounds in runs.items():
        cells = []
        for key in keys:
            values = [r[key] for r in rounds]
            medians[(name, key)] = statistics.median(values)
            best = max(values) if key == "req/s" else min(values)
            cells.append(f"{best:.1f} / {statistics.median(values):.1f}" if "CPU" not in key else f"{best:.3f} / {statistics.median(values):.3f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    for name, rounds in runs.items():
        if retried := sum(r.get("retried", 0) for r in rounds):
            print(f"{name}: {retried} requests sent again after the server closed an idle kept-alive connection")
        if failed := sum(r.get("failed", 0) for r in rounds):
            print(f"{name}: {failed:.0f} requests answered otherwise than 2xx/3xx, or not at all (wrk's socket errors)")
    for name in runs:
        if not name.startswith("bare Starlette"):
            base = "bare Starlette" + PURE if name.endswith(PURE) else "bare Starlette"
            ratio = medians[(name, "req/s")] / medians[(base, "req/s")]
            cpu = medians[(name, "CPU ms/req")] / medians[(base, "CPU ms/req")]
            print(f"{name}: throughput {ratio:.2f}x the bare app's{PURE if name.endswith(PURE) else ''}, server CPU a request {cpu:.2f}x (medians)")
            pairs = [(ours["req/s"] / theirs["req/s"], ours["CPU ms/req"] / theirs["CPU ms/req"]) for ours, theirs in zip(runs[name], runs[base])]
            print(
                f"  round by round (each against the bare app's run of the same round): throughput {', '.join(f'{t:.2f}x' for t, _ in pairs)}; server CPU a request {', '.join(f'{c:.2f}x' for _, c in pairs)}"
            )
    if args.pure_python:
        for name in ("ktlog serve", "bare Starlette"):
            ratio = medians[(name, "req/s")] / medians[(name + PURE, "req/s")]
            cpu = medians[(name, "CPU ms/req")] / medians[(name + PURE, "CPU ms/req")]
            print(
                f"{name}: with {implementation()[len('uvicorn with ') :].split(',')[0]}, throughput {ratio:.2f}x and server CPU a request {cpu:.2f}x its own{PURE} (medians)"
            )
    ratio = medians[("ktlog serve", "req/s")] / medians[("bare Starlette", "req/s")]
    met = "met" if ratio >= TARGET and medians[("ktlog serve", "p50 ms")] <= 50 else "not met"
    print(
        f"ktlog serve: throughput {ratio:.2f}x, p50 {medians[('ktlog serve', 'p50 ms')]:.1f} ms (the bare app's {medians[('bare Starlette', 'p50 ms')]:.1f} ms): target >= {TARGET}x and p50 <= 50 ms: {met}"
    )


if __name__ == "__main__":
    main()
