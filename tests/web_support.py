"""A sample game with hostile player names, stored part way and finished by another process,
for the web tests and benchmarks. Run as a script to append the rest of a game:

    python tests/web_support.py append DB GAME FIRST COUNT DELAY   append events FIRST.. one by one
    python tests/web_support.py notes DB GAME FIRST COUNT DELAY    append COUNT notes instead

It prints "ready", waits for a line on stdin, then prints each appended seq as it commits.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec

from ktlog.data import SAMPLE_GAMES
from ktlog.envelopes import decode_payload
from ktlog.events import Annotation, Event
from ktlog.files.gamelog import read_game_log
from ktlog.storage.store import Store

SAMPLE = SAMPLE_GAMES / "08_approved_ops_kasrkin_vs_legionaries.jsonl"
"""An Approved Ops game: its tac ops and primary op are secret until revealed."""
HOSTILE = {"Hana": "<script>window.pwned=1</script>", "Ivo": "Ivo \"the 'quoted'\" \x07\x1b[31m</td>"}
"""Player names a page must show as text: markup, quotes, a bell and a terminal escape. ktlog
refuses control characters in new events (envelopes.check_limits), so the game is stored as an
older ktlog stored it (`as_older_ktlog`): a database may still hold such names."""


@contextlib.contextmanager
def as_older_ktlog() -> Iterator[None]:
    """Store events without the boundary check of control characters, as ktlog did before it."""
    from ktlog.storage import rows as store

    checked = store.check_limits
    store.check_limits = lambda event, payload=None: None
    try:
        yield
    finally:
        store.check_limits = checked


def sample_events(names: dict[str, str] = HOSTILE, sample: Path = SAMPLE) -> list[Event]:
    """A sample's events with its players renamed (by default to the hostile names)."""
    _, sealed = read_game_log(sample)
    events = []
    for envelope, _ in sealed:
        text = msgspec.json.encode(envelope.payload).decode()
        for old, new in names.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        events.append(decode_payload(envelope.type, envelope.version, text))
    return events


def store_part(db: Path, upto: int, names: dict[str, str] = HOSTILE, sample: Path = SAMPLE) -> tuple[str, list[Event]]:
    """Store a sample game's first `upto` events (by default the hostile game's); returns its id
    and every event."""
    events = sample_events(names, sample)
    with as_older_ktlog(), Store(db) as store:
        return store.new_game(events[0], events[1:upto]), events


def append(db: str, game: str, first: int, count: int, delay: float, notes: bool = False) -> None:
    events = [Annotation(target=3, text=f"note {n}") for n in range(count)] if notes else sample_events()[first : first + count]
    with as_older_ktlog(), Store(db) as store:
        print("ready", flush=True)
        sys.stdin.readline()
        for event in events:
            envelope = store.append(game, event)
            print(envelope.seq, time.time(), flush=True)
            time.sleep(delay)


if __name__ == "__main__":
    if sys.argv[1] in ("append", "notes"):
        append(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), notes=sys.argv[1] == "notes")
