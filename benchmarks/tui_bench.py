"""The terminal UI benchmark (issue 4): key press to updated screen, and start-up.

    .venv/bin/python benchmarks/tui_bench.py [--quick]

A 2,000-event game is built like `run.py` builds its long game (two 36-operative teams, notes
and undos), cut in its last turning point so that it is still being recorded, and imported
into a temporary database; sample game 01, cut in turning point 2, is measured the same way for
a game of real size. Each key is timed as the tests drive the app: `await pilot.press(key)`
then `await pilot.pause()` (the app processed the key and drew the screen, and Textual saw the
process idle). The CPU time of the same span is the app's own work, without Textual's idle
detection; a trivial Textual app timed the same way gives the floor of the method on this
machine. Start-up is timed in a fresh process, from launch to the start screen on display.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
from run import long_game
from textual.app import App, ComposeResult
from textual.widgets import Static

from ktlog import events as ev
from ktlog.gamelog import read_game_log
from ktlog.replay import Replay
from ktlog.store import Store
from tui.app import make_app
from tui.steps import Steps

START = "2026-06-01T18:00:00+00:00"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def activation_keys(state) -> list[str] | None:
    """The keys of a typical activation: the first ready operative that can shoot is activated
    with Engage, shoots the first target with dice (misses, so the number of defence dice is
    plain), ends its activation; then the three events are undone. None if no operative can."""
    if state.phase != "firefight" or state.activation is not None:
        return None
    steps = Steps(state)
    ops = [e.operative for e in steps.options("activate")]
    for i, op in enumerate(ops[:9]):
        activated = Steps(steps.trial.result(ev.OperativeActivated(operative=op, order="engage")))
        shots = activated.options("shoot")
        if not shots:
            continue
        targets = list(dict.fromkeys(e.attacks[0].target for e in shots))
        shot = next(e for e in shots if e.attacks[0].target == targets[0])
        weapon = next(w for w in activated.state.operatives[op].datacard.weapons if w.name == shot.weapon)
        for saves in range(4):
            attack = ev.ShootingAttack(target=targets[0], attack_dice=ev.Dice(rolls=(1,) * weapon.atk), defence_dice=ev.Dice(rolls=(1,) * saves))
            if activated.trial.refusal(msgspec.structs.replace(shot, attacks=(attack,))) is None:
                break
        pick = [str(i + 1)] if len(ops) > 1 else []
        target = ["1"] if len(targets) > 1 else []
        return ["a", *pick, "e", "s", *target, *"1" * (weapon.atk + saves), "enter", "e", "ctrl+z", "ctrl+z", "ctrl+z"]
    return None


def cut_for_recording(store: Store, game_id: str, sealed: list, before: int | None = None) -> tuple[int, list[str]]:
    """Import the game cut at its last moment (before seq `before`) where an operative can be
    activated and shoot. Returns the number of events and the keys of a typical activation."""
    replay = Replay([e for e, _ in sealed])
    for cut in range(before or replay.head, 0, -1):
        keys = activation_keys(replay.seek(cut))
        if keys:
            store.import_envelopes(game_id, sealed[:cut])
            return cut, keys
    raise SystemExit("no moment of the benchmark game has an operative that can shoot")


def recording_game(store: Store, target: int) -> tuple[str, int, list[str]]:
    """The long game cut in its last turning point: the game id, its events, the keys."""
    game_id, g = long_game(target)
    return (game_id, *cut_for_recording(store, game_id, g.sealed(game_id, START)))


def sample_game(store: Store) -> tuple[str, int, list[str]]:
    """Sample game 01 (a real-sized game: 16 operatives) cut in turning point 2."""
    header, sealed = read_game_log(next(SAMPLES.glob("01*.jsonl")))
    replay = Replay([e for e, _ in sealed])
    return (header.game_id, *cut_for_recording(store, header.game_id, sealed, replay.turning_point_start(3)))


async def time_keys(app, keys: list[str], rounds: int) -> dict[str, list[tuple[float, float]]]:
    """(wall, cpu) seconds per key, by what the key does, over `rounds` rounds of `keys`."""
    times: dict[str, list[tuple[float, float]]] = {}
    names = [_name(keys, i) for i in range(len(keys))]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(rounds):
            for key, name in zip(keys, names):
                wall, cpu = time.perf_counter(), time.process_time()
                await pilot.press(key)
                await pilot.pause()
                times.setdefault(name, []).append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def _name(keys: list[str], i: int) -> str:
    """A row of the table: a key, or the group of dice digits."""
    return "dice digits" if keys[i].isdigit() and i > 2 else f"`{keys[i]}`" + (" (2nd)" if keys[i] in keys[:i] else "")


class Floor(App):
    """A trivial app measured the same way: what Textual and the machine cost for any key."""

    BINDINGS = [("x", "count", "Count")]

    def compose(self) -> ComposeResult:
        yield Static("0")

    def action_count(self) -> None:
        static = self.query_one(Static)
        static.update(str(int(str(static.render())) + 1))


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def startup_seconds(db: Path) -> float:
    """Launch to the start screen on display, in a fresh Python process."""
    script = (
        "import sys, time; t0 = float(sys.argv[1]); import asyncio\n"
        "from ktlog.store import Store\nfrom tui.app import make_app\n"
        "async def main():\n"
        "    app = make_app(Store(sys.argv[2]))\n"
        "    async with app.run_test(size=(120, 40)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert type(app.screen).__name__ == 'StartScreen'\n"
        "        print(time.time() - t0)\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run([sys.executable, "-c", script, repr(time.time()), str(db)], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


REPLAY_KEYS = ["right", "right_square_bracket", "pagedown", "left", "left_square_bracket", "pageup", "end", "home"]
"""Replay seeking: one event, one activation, one turning point, the ends, both ways."""


def measure(store: Store, game: tuple[str, int, list[str]], rounds: int) -> dict:
    game_id, events, keys = game
    return {
        "events": events, "keys": keys,
        "recording": asyncio.run(time_keys(make_app(store, screen="record", game_id=game_id), keys, rounds)),
        "replay seeking": asyncio.run(time_keys(make_app(store, screen="replay", game_id=game_id), REPLAY_KEYS, rounds)),
    }


def print_rows(title: str, table: dict[str, list[tuple[float, float]]], detail: bool) -> None:
    if detail:
        for key, samples in table.items():
            print(f"| {title}: {key} | {median_ms([w for w, _ in samples]):.0f} ms | {median_ms([c for _, c in samples]):.0f} ms | |")
    every = [s for samples in table.values() for s in samples]
    print(f"| **{title}, every key** | **{median_ms([w for w, _ in every]):.0f} ms** | **{median_ms([c for _, c in every]):.0f} ms** | <= 50 ms |")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a 500-event game and fewer rounds, for a smoke run")
    args = parser.parse_args()
    target, rounds = (500, 3) if args.quick else (2000, 10)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "tui.db"
        store = Store(db)
        long = measure(store, recording_game(store, target), rounds)
        real = measure(store, sample_game(store), rounds)
        floor = asyncio.run(time_keys(Floor(), ["x"], rounds * 4))["`x`"]
        starts = [startup_seconds(db) for _ in range(3)]
        store.close()

    print(f"TUI benchmark, terminal 120x40, {rounds} rounds; recording keys: {' '.join(long['keys'])}\n")
    print("| key press to updated screen | median (wall) | median (CPU) | target |")
    print("|---|---|---|---|")
    print(f"| *a {long['events']}-event game being recorded (72 operatives)* | | | |")
    for title in ("recording", "replay seeking"):
        print_rows(title, long[title], detail=True)
    print(f"| *sample game 01 cut at seq {real['events']} (16 operatives)* | | | |")
    for title in ("recording", "replay seeking"):
        print_rows(title, real[title], detail=False)
    print(f"| for reference: a trivial Textual app, one Static updated | {median_ms([w for w, _ in floor]):.0f} ms | {median_ms([c for _, c in floor]):.0f} ms | |")
    print(f"| **start-up to the start screen** (fresh process) | **{statistics.median(starts):.2f} s** (of {', '.join(f'{s:.2f}' for s in starts)}) | | <= 1 s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
