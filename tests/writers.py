"""Processes that write to a ktlog database, for the reliability tests. Run as a script:

    python tests/writers.py crash DB SEED GAMES EXPECTED   a fork server for the crash test
    python tests/writers.py notes DB GAME WRITER COUNT      notes racing other writers on one game
    python tests/writers.py record DB SEED INDEX            one simulated game, beside other writers

`notes` and `record` print "ready", wait for a line on stdin (so that every writer starts at
once), write, then print one JSON line: what they did.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from pathlib import Path

from ktlog.envelopes import canonical
from ktlog.errors import ConcurrencyConflict
from ktlog.events import Annotation
from ktlog.play.simulate import simulate_games
from ktlog.storage.store import Store

CONFLICT = re.compile(
    r"game (\w{8}) changed while you were recording: you appended at seq (\d+) "
    r"but another writer already stored seq (\d+)\. Reload the game and enter the event again"
)
"""The message a loser of a race must get."""


def after_the_battle(seq: int) -> Annotation:
    """What the crash recorder appends once a game's own events are all stored."""
    return Annotation(target=1, text=f"after the battle, seq {seq}")


def say(line: str) -> None:
    """One line to stdout in one write(2), so that a kill never leaves half a line."""
    os.write(1, (line + "\n").encode())


# --- the crash test --------------------------------------------------------------------------


def crash_server(db: str, seed: int, count: int, expected: str) -> None:
    """Play `count` simulated games once, write their canonical payloads to `expected`, then
    fork a recorder for each "go" line on stdin, announcing "child PID" and, once the test
    has killed it, "reaped PID STATUS". Forking keeps each recorder's start-up to a few ms."""
    games = [(game_id, g.events) for game_id, g in simulate_games(count, seed)]
    Path(expected).write_text(json.dumps({gid: [canonical(e).decode() for e in events] for gid, events in games}))
    Store(db).close()  # import what opening a store imports lazily, once, before forking
    say("ready")
    for command in sys.stdin:
        if command.strip() != "go":
            continue
        pid = os.fork()
        if pid == 0:
            try:
                record_until_killed(db, games)
            except Exception as exc:  # noqa: BLE001 (a recorder must only ever stop by being killed: say why it did)
                say(f"error {type(exc).__name__}: {exc}")
            os._exit(1)
        say(f"child {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"reaped {pid} {status}")


def record_until_killed(db: str, games: list) -> None:
    """Resume recording where the database stands: each game's events in turn through
    `Store.append`, then notes on the last game; "seq GAME SEQ" after each append returns."""
    store = Store(db)
    for game_id, events in games:
        if not store.has_game(game_id):
            store.new_game(events[0], game_id=game_id)
            say(f"seq {game_id} 1")
        for event in events[store.game(game_id).head_seq :]:
            say(f"seq {game_id} {store.append(game_id, event).seq}")
    game_id = games[-1][0]
    while True:
        seq = store.game(game_id).head_seq + 1
        say(f"seq {game_id} {store.append(game_id, after_the_battle(seq)).seq}")


# --- concurrent writers ----------------------------------------------------------------------


def notes(db: str, game_id: str, writer: int, count: int) -> dict:
    """Append `count` notes, each at the seq this writer believes comes next (`expected_seq`);
    on a `ConcurrencyConflict`, check its message, reload and retry."""
    store = Store(db)
    _ready()
    rng = random.Random(writer)
    attempts, conflicts, seqs, unclear = 0, 0, [], []
    for k in range(count):
        text = f"writer {writer} note {k}"
        while True:
            attempts += 1
            expected = store.game(game_id).head_seq + 1
            time.sleep(rng.random() / 2000)  # thinking at the table: others may get there first
            try:
                seqs.append(store.append(game_id, Annotation(target=1, text=text), expected_seq=expected).seq)
                break
            except ConcurrencyConflict as exc:
                conflicts += 1
                m = CONFLICT.fullmatch(str(exc))
                if not (m and m[1] == game_id[:8] and int(m[2]) == expected and int(m[3]) >= expected):
                    unclear.append(str(exc))
    return {"writer": writer, "attempts": attempts, "conflicts": conflicts, "seqs": seqs, "unclear": unclear}


def record(db: str, seed: int, index: int) -> dict:
    """Record simulated game `index` of `seed` event by event (as a table's laptop would)."""
    game_id, g = list(simulate_games(index + 1, seed))[index]
    store = Store(db)
    _ready()
    slowest = 0.0
    store.new_game(g.events[0], game_id=game_id)
    for event in g.events[1:]:
        start = time.perf_counter()
        store.append(game_id, event)
        slowest = max(slowest, time.perf_counter() - start)
    return {"game_id": game_id, "events": len(g.events), "slowest_append_s": slowest}


def _ready() -> None:
    say("ready")
    sys.stdin.readline()


def main(argv: list[str]) -> None:
    command, db, *args = argv
    if command == "crash":
        crash_server(db, int(args[0]), int(args[1]), args[2])
    elif command == "notes":
        say(json.dumps(notes(db, args[0], int(args[1]), int(args[2]))))
    elif command == "record":
        say(json.dumps(record(db, int(args[0]), int(args[1]))))
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
