"""A whole game recorded from two phones (issue 39): sample game 01 (Kasrkin v Legionaries, four
turning points, 247 events after the rosters) played on two seats' pages in headless Chromium
(360x740, touch) against the real `ktlog serve --seats` in its own process, every event made as a
player makes it: the move's button, each choice a tap, the sheet's toggles and options changed
only where the event differs from the page's defaults, the dice faces on the pad, one tap to
record (tests/seat_driver.py).

    .venv/bin/python benchmarks/seat_game.py [--events N] [--every K]

It prints the taps an event took (besides the dice faces: median and mean over the game, and for
shots, fights and activations), and the time from the tap that sends an event to the other
phone's page showing it. Baseline in the same run, pair by pair: every K events the table
records a note (a `Store.append` in this process, no HTTP write), timed to both pages showing it:
the event stream's share of a tap. Every figure comes from this run, on this machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from seat_bench import Served, cpu_s, ms, pct  # noqa: E402
from seat_driver import Phones, wait_until  # noqa: E402
from web_server import PHONE, launch_chromium  # noqa: E402

from ktlog import events as ev  # noqa: E402
from ktlog.data import SAMPLE_GAMES  # noqa: E402
from ktlog.files.gamelog import read_game_log  # noqa: E402
from ktlog.play import seats  # noqa: E402
from ktlog.storage.store import Store  # noqa: E402

WATCH = """() => { window.__seen = {}; window.__taps = []; const log = document.getElementById('log');
  const now = () => performance.timeOrigin + performance.now();
  document.addEventListener('click', () => window.__taps.push(now()), true);
  new MutationObserver(() => { for (const li of log.children) { if (!(li.value in window.__seen)) window.__seen[li.value] = now(); } })
    .observe(log, {childList: true}); }"""
"""When each event's row first shows in a page's log, and when each tap (a click, as a tap ends) was made."""


def seen(page, seq: int) -> float:
    wait_until(page, "(seq) => window.__seen[seq] !== undefined", seq)
    return page.evaluate("(seq) => window.__seen[seq]", seq)


def summary(values: list[float]) -> str:
    if not values:
        return "none in the events played"
    return f"median {statistics.median(values):g}, mean {statistics.mean(values):.2f}, max {max(values):g} ({len(values)} events)"


def run(tmp: Path, limit: int | None, every: int) -> list[str]:
    from playwright.sync_api import sync_playwright

    _, sealed = read_game_log(next(SAMPLE_GAMES.glob("01_*.jsonl")))
    events = [envelope.payload for envelope, _ in sealed]
    made = next(i for i, e in enumerate(events) if not isinstance(e, seats.TABLE_ONLY))
    played = events[made:][:limit]
    db = tmp / "phones.db"
    with Store(db) as store:
        gid = store.new_game(events[0], events[1:made])
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    served = Served(db)
    to_other, table_to_both = [], []
    try:
        with sync_playwright() as pw, Store(db) as table:
            contexts = {p: launch_chromium(pw, tmp / p, **PHONE) for p in tokens}
            pages = {p: c.pages[0] for p, c in contexts.items()}
            for player, page in pages.items():
                page.goto(f"{served.base}/seat/{gid}#{tokens[player]}")
                wait_until(page, "() => document.getElementById('net').textContent === 'online'")
                page.evaluate(WATCH)
            phones = Phones(pages)
            cpu0, wall0 = cpu_s(served.proc.pid), time.monotonic()
            for n, event in enumerate(played, 1):
                state = table.state(gid)
                tapped = phones.record(state, event)
                page = pages[phones.seat_for(state, event)]
                other = next(p for p in pages.values() if p is not page)
                sent = page.evaluate("() => window.__taps[window.__taps.length - 1]")
                to_other.append((seen(other, tapped.seq) - sent) / 1000)
                if n % every == 0:  # the baseline, pair by pair: the table's note to both pages
                    seq = table.state(gid).seq + 1
                    start = time.time() * 1000
                    table.append(gid, ev.Annotation(target=seq - 1, text="baseline: the table's note"))
                    table_to_both.append((max(seen(p, seq) for p in pages.values()) - start) / 1000)
            cpu, wall = cpu_s(served.proc.pid) - cpu0, time.monotonic() - wall0
            final = table.state(gid)
            for context in contexts.values():
                context.close()
    finally:
        served.stop()
    taps = phones.taps
    every_event = [t.taps for t in taps]
    by_event = {name: [t.taps for t in taps if t.event == name] for name in ("Shot", "Fought", "OperativeActivated")}
    typed = [t for t in taps if t.typed_line]
    med, p95 = statistics.median(to_other), pct(to_other, 0.95)
    total = sum(every_event) / len(every_event)
    result = "; ".join(f"{p} {s.total_vp} VP" for p, s in final.players.items())
    shots_ok = max(by_event["Shot"], default=0) <= 4
    return [
        f"| the game: sample 01, {len(played)} events recorded from the phones ({len(typed)} typed as a line: "
        f"{', '.join(sorted({t.event for t in typed})) or 'none'}), ended {final.phase}: {result} | {wall:.0f} s wall, server CPU {cpu:.1f} s | |",
        f"| taps an event took besides the dice faces, the whole game | {summary(every_event)}; dice faces {sum(t.dice for t in taps)} | "
        f"mean <= 1.6: {'met' if total <= 1.6 else '**not met**'} |",
        f"| a shot | {summary(by_event['Shot'])} | at most 4: {'met' if shots_ok else '**not met** (' + str(sum(n > 4 for n in by_event['Shot'])) + ' over)'} |",
        f"| a fight | {summary(by_event['Fought'])} | |",
        f"| an activation | {summary(by_event['OperativeActivated'])} | |",
        f"| the tap that sends an event to the other phone showing it | min {ms(min(to_other))}, median {ms(med)}, p95 {ms(p95)} "
        f"| median <= 150 ms: {'met' if med <= 0.15 else '**not met**'}; p95 <= 400 ms: {'met' if p95 <= 0.4 else '**not met**'} |",
        f"| baseline, same run (every {every} events): the table's note to both pages | min {ms(min(table_to_both))}, "
        f"median {ms(statistics.median(table_to_both))}, p95 {ms(pct(table_to_both, 0.95))} ({len(table_to_both)} notes) | |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=None, help="record only the first N events (default: the whole game)")
    parser.add_argument("--every", type=int, default=5, help="a baseline note from the table after every K events")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lines = run(Path(tmp), args.events, args.every)
    print(f"seat_game on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f}")
    print("| what | figure | target |\n|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
