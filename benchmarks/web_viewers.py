"""Issue 25 #7: `ktlog serve`'s memory and delivery with 200 viewers of a long game with many
notes (its state is about 2 MB of JSON), and with 100 viewers that never read.

    .venv/bin/python benchmarks/web_viewers.py [--baseline OTHER/.venv/bin/ktlog] [--viewers 200]

The server is the real `ktlog serve` in its own process (memory and CPU read from /proc); the
writer is another process; the viewers come from 20 loopback addresses (127.0.0.11 ...), ten a
address, as a club's phones would. `--baseline` runs the same against another ktlog (another
checkout's), in the same run, on the same database.
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
import web_bench  # noqa: E402
from web_support import as_older_ktlog, sample_events  # noqa: E402

from ktlog.events import Annotation  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402

WRITER = ROOT / "tests" / "web_support.py"
NOTE = ("The kill team held the vault doors while the sergeant argued the ruling with the other table. " * 20)[:1700]
"""An illustrative note of 1,700 characters: 1,240 of them make a state of about 2 MB."""
ADDRESSES = [f"127.0.0.{11 + n}" for n in range(20)]
TICKS = os.sysconf("SC_CLK_TCK")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def long_game(db: Path, notes: int) -> tuple[str, int]:
    """The hostile sample game's first 60 events and `notes` long notes: its id and head."""
    events = sample_events()
    with as_older_ktlog(), Store(db) as store:
        game = store.new_game(events[0], events[1:60])
        store.append_all(game, [Annotation(target=3 + n % 50, text=NOTE) for n in range(notes)])
        return game, store.game(game).head_seq


class Served(web_bench.Served):
    """`ktlog serve` in its own process (no option that an older ktlog lacks: the viewers come
    from 20 addresses), its memory and CPU read from /proc."""

    def __init__(self, ktlog: Path, db: Path):
        super().__init__(db, ktlog, options=())

    def memory_mb(self, field: str) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith(field))) / 1024

    def cpu_s(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS


def write(db: Path, game: str, first: int, count: int, delay: float) -> dict[int, float]:
    """Notes appended by another process, one every `delay` s: seq -> commit time."""
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), "notes", str(db), game, str(first), str(count), str(delay)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    out, _ = proc.communicate("go\n", timeout=120)
    return {int(seq): float(t) for seq, t in (line.split() for line in out.splitlines())}


async def view(http: httpx.AsyncClient, game: str, want: int, seen: dict[int, float], joined: list[float]) -> None:
    """One viewer, fresh (sent the state first): the time each seq arrived, until seq `want`."""
    started = time.time()
    async with http.stream("GET", f"/api/games/{game}/events") as stream:
        assert stream.status_code == 200, stream.status_code
        seq = None
        async for line in stream.aiter_lines():
            if line.startswith("id: "):
                seq = int(line[4:])
            elif line == "" and seq is not None:
                if not seen:
                    joined.append(time.time() - started)
                seen[seq] = time.time()
                if seq >= want:
                    return


async def watched(served: Served, db: Path, game: str, head: int, viewers: int, appends: int) -> tuple[list[dict[int, float]], list[float], dict[int, float]]:
    seen: list[dict[int, float]] = [{} for _ in range(viewers)]
    joined: list[float] = []
    limits = httpx.Limits(max_connections=None)
    clients = [
        httpx.AsyncClient(base_url=served.base, timeout=None, limits=limits, transport=httpx.AsyncHTTPTransport(local_address=a, limits=limits))
        for a in ADDRESSES
    ]
    tasks = [asyncio.create_task(view(clients[n % len(clients)], game, head + appends, seen[n], joined)) for n in range(viewers)]
    deadline = time.monotonic() + 120
    while len(joined) < viewers and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    committed = await asyncio.to_thread(write, db, game, head, appends, 0.1)
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    for client in clients:
        await client.aclose()
    return seen, joined, committed


def stalled(served: Served, game: str, count: int) -> list[socket.socket]:
    """Viewers that ask for the stream and never read a byte."""
    socks = []
    for n in range(count):
        s = socket.socket()
        s.bind((ADDRESSES[n % len(ADDRESSES)], 0))
        s.connect(("127.0.0.1", served.port))
        s.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        socks.append(s)
    return socks


def run(ktlog: Path, db: Path, game: str, head: int, viewers: int, appends: int) -> dict[str, float | int]:
    served = Served(ktlog, db)
    try:
        wall, cpu, mine = time.perf_counter(), served.cpu_s(), time.process_time()
        seen, joined, committed = asyncio.run(watched(served, db, game, head, viewers, appends))
        wall, cpu, mine = time.perf_counter() - wall, served.cpu_s() - cpu, time.process_time() - mine
        peak = served.memory_mb("VmHWM")
        socks = stalled(served, game, 100)
        time.sleep(2)
        committed_stalled = write(db, game, head + appends, appends, 0.1)
        time.sleep(1)
        with_stalled = served.memory_mb("VmRSS")
        alive = httpx.get(served.base + f"/api/games/{game}/score", timeout=30).status_code
        for s in socks:
            s.close()
    finally:
        served.stop()
    delays = [s[seq] - committed[seq] for s in seen for seq in committed if seq in s]
    return {
        "complete": sum(1 for s in seen if set(s) >= set(committed)),
        "deliveries": len(delays),
        "join_median": statistics.median(joined),
        "join_max": max(joined),
        "min": min(delays),
        "median": statistics.median(delays),
        "p95": sorted(delays)[int(len(delays) * 0.95)],
        "peak_mb": peak,
        "stalled_mb": with_stalled,
        "stalled_appends": len(committed_stalled),
        "answers": alive,
        "wall_s": wall,
        "cpu_s": cpu,
        "viewers_cpu_s": mine,
    }


def row(name: str, r: dict[str, float | int], viewers: int) -> list[str]:
    return [
        f"| {name}: {viewers} fresh viewers of a {r['head']}-event game with many notes (`ktlog show --json`: {r['state_kb']:,.0f} KB), then 20 notes one every 100 ms "
        f"| {r['complete']} of {viewers} got every note; joined in median {ms(r['join_median'])} (max {ms(r['join_max'])}); "
        f"commit to viewer min {ms(r['min'])}, median {ms(r['median'])}, p95 {ms(r['p95'])} "
        f"| median <= 500 ms: {'met' if r['median'] <= 0.5 else '**not met**'} |",
        f"| {name}: the server's peak memory (VmHWM) with them; its CPU and the wall time of the run | {r['peak_mb']:.0f} MB; CPU {r['cpu_s']:.1f} s in {r['wall_s']:.1f} s (the viewers' process: CPU {r['viewers_cpu_s']:.1f} s) "
        f"| <= 300 MB: {'met' if r['peak_mb'] <= 300 else '**not met**'} |",
        f"| {name}: then 100 more viewers that never read, and 20 more notes | memory (VmRSS) {r['stalled_mb']:.0f} MB; the server still answers ({r['answers']}) | |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another ktlog executable to run the same against (another checkout's .venv/bin/ktlog)")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--notes", type=int, default=1240)
    args = parser.parse_args()
    lines = ["| benchmark | result | target |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "viewers.db"
        game, head = long_game(db, args.notes)
        with Store(db) as store:
            from ktlog.text.json_views import state_view

            state_kb = len(json.dumps(state_view(game, store.state(game), spectator=True))) / 1024
        runs = [("this ktlog", Path(sys.executable).with_name("ktlog"))] + ([("baseline", args.baseline)] if args.baseline else [])
        for name, ktlog in runs:
            result = run(ktlog, db, game, head, args.viewers, 20) | {"head": head, "state_kb": state_kb}
            head += 40  # each run appends 40 notes
            lines += row(name, result, args.viewers)
    print("\n".join(lines))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {time.strftime('%Y-%m-%d %H:%M')}")


if __name__ == "__main__":
    main()
