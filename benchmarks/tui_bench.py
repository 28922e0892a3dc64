"""The terminal UI benchmark (issue 4): key press to updated screen, and start-up.

    .venv/bin/python benchmarks/tui_bench.py [--quick] [--base DIR | --bar] [--rounds N]

A 2,000-event game is built like `run.py` builds its long game (two 36-operative teams, notes
and undos), cut in its last turning point so that it is still being recorded, and imported
into a temporary database; sample game 01, cut in turning point 2, is measured the same way for
a game of real size.

Each figure is taken as a person meets it: the real `ktlog record GAME` (or `replay GAME`) runs
in a pseudo-terminal of 120x40, a key's bytes are written to it, and the time is taken of the
last byte the program writes back before falling quiet (QUIET_S without output): the screen as
the key left it. The program's CPU time over the same span is read from /proc (clock ticks,
averaged over every press of the key). A trivial Textual app measured the same way gives the
floor on this machine. Start-up is launch to the start screen drawn, for `ktlog --db DB`, after a
first start that loads the sample games (timed on its own).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

import msgspec
from run import long_game

from ktlog import events as ev
from ktlog.data import SAMPLE_GAMES
from ktlog.files.gamelog import read_game_log
from ktlog.play.moves import Moves
from ktlog.play.replay import Replay
from ktlog.storage.store import Store
from ktlog.tui.screens.pick import KEYS

START = "2026-06-01T18:00:00+00:00"
SAMPLES = SAMPLE_GAMES


def key_of(state, op_id: str) -> str | None:
    """The key that picks an operative in a list (`tui.screens.pick.operative_choice`)."""
    place = [o.id for o in state.operatives_of(state.operatives[op_id].player)].index(op_id)
    return KEYS[place] if place < len(KEYS) else None


def activation_keys(state) -> list[str] | None:
    """The keys of a typical activation: the first ready operative that can shoot is activated
    with Engage, shoots the first target with dice (misses, so the number of defence dice is
    plain), ends its activation; then the three events are undone. None if no operative can."""
    if state.phase != "firefight" or state.activation is not None:
        return None
    steps = Moves(state)
    ops = [e.operative for e in steps.options("activate")]
    for op in ops:
        activated = Moves(steps.trial.result(ev.OperativeActivated(operative=op, order="engage")))
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
        pick = [key_of(state, op)] if len(ops) > 1 else []  # an operative's key: its place in its kill team
        target = [key_of(state, targets[0])] if len(targets) > 1 else []
        if None in pick + target:
            continue
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
    return (header.game_id, *cut_for_recording(store, header.game_id, sealed, replay.timeline.turning_point_start(3)))


QUIET_S = 0.25
"""A screen is taken as updated once the program has written nothing for this long."""
FIRST_BYTE_S = 5.0
"""How long a key's first byte back is waited for: on a loaded machine a key may take longer
than QUIET_S to start drawing, and its screen would be counted in the next key's time."""
KEY_BYTES = {
    "enter": b"\r",
    "ctrl+z": b"\x1a",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "right_square_bracket": b"]",
    "left_square_bracket": b"[",
    "pagedown": b"\x1b[6~",
    "pageup": b"\x1b[5~",
    "end": b"\x1b[F",
    "home": b"\x1b[H",
}
"""What a terminal sends for each key (xterm); other keys are their own character."""
REPLAY_KEYS = ["right", "right_square_bracket", "pagedown", "left", "left_square_bracket", "pageup", "end", "home"]
"""Replay seeking: one event, one activation, one turning point, the ends, both ways."""
KTLOG = Path(sys.executable).parent / "ktlog"
TICK = os.sysconf("SC_CLK_TCK")


class Terminal:
    """A program running in a pseudo-terminal of 120x40, as a terminal emulator runs it."""

    def __init__(self, *command: str, source: str | None = None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the program
            os.environ["TERM"] = "xterm-256color"
            if source:  # another checkout's ktlog (--base)
                os.environ["PYTHONPATH"] = source
            os.execv(command[0], list(command))
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))

    def settle(self, quiet: float = QUIET_S, first: float | None = None) -> float | None:
        """Read what the program writes until it is quiet (waiting up to `first` seconds for
        the first byte); the time of the last byte (None: nothing)."""
        last = None
        while select.select([self.fd], [], [], quiet if last or first is None else first)[0]:
            try:
                if not os.read(self.fd, 1 << 16):
                    break
            except OSError:  # the program has exited
                break
            last = time.perf_counter()
        return last

    def cpu(self) -> float:
        """The program's CPU time so far, in seconds (user + system)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def press(self, key: str) -> tuple[float, float]:
        """(wall, cpu) seconds from writing the key to the screen it leaves."""
        cpu = self.cpu()
        sent = time.perf_counter()
        os.write(self.fd, KEY_BYTES.get(key, key.encode()))
        shown = self.settle(first=FIRST_BYTE_S)
        return (shown or sent) - sent, self.cpu() - cpu

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def time_keys(command: list[str], keys: list[str], rounds: int, source: str | None = None, first: tuple[str, ...] = ()) -> dict[str, list[tuple[float, float]]]:
    """(wall, cpu) seconds per key, by what the key does, over `rounds` rounds of `keys` (after
    the keys `first`, untimed)."""
    names = [_name(keys, i) for i in range(len(keys))]
    terminal = Terminal(*command, source=source)
    try:
        if terminal.settle(quiet=1.0, first=10.0) is None:
            raise SystemExit(f"{' '.join(command)} wrote nothing")
        for key in first:
            terminal.press(key)
        times: dict[str, list[tuple[float, float]]] = {}
        for _ in range(rounds):
            for key, name in zip(keys, names):
                times.setdefault(name, []).append(terminal.press(key))
        return times
    finally:
        terminal.close()


def _name(keys: list[str], i: int) -> str:
    """A row of the table: a key, the target picked, or the group of dice digits."""
    if keys[i].isdigit() and keys[i - 1] == "s":
        return f"`{keys[i]}` (the target: the dice dialog opens)"
    if keys[i].isdigit() and i > 2:
        return "dice digits"
    return f"`{keys[i]}`" + (" (2nd)" if keys[i] in keys[:i] else "")


def floor() -> None:
    """A trivial Textual app (`--floor`): what Textual and this machine cost for any key."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Floor(App):
        BINDINGS = [("x", "count", "Count")]

        def compose(self) -> ComposeResult:
            yield Static("0")

        def action_count(self) -> None:
            static = self.query_one(Static)
            static.update(str(int(str(static.render())) + 1))

    Floor().run()


def startup_seconds(db: Path) -> float:
    """`ktlog --db DB` launched to the start screen drawn."""
    launched = time.perf_counter()
    terminal = Terminal(str(KTLOG), "--db", str(db))
    try:
        drawn = terminal.settle(quiet=1.0, first=10.0)
    finally:
        terminal.close()
    if drawn is None:
        raise SystemExit("ktlog wrote nothing")
    return drawn - launched


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def measure(db: Path, game: tuple[str, int, list[str]], rounds: int) -> dict:
    game_id, events, keys = game
    ktlog = [str(KTLOG), "--db", str(db)]
    return {
        "events": events,
        "keys": keys,
        "recording": time_keys([*ktlog, "record", game_id], keys, rounds),
        "replay seeking": time_keys([*ktlog, "replay", game_id], REPLAY_KEYS, rounds),
    }


def print_rows(title: str, table: dict[str, list[tuple[float, float]]], detail: bool) -> None:
    def cpu_ms(samples):
        return statistics.mean(c for _, c in samples) * 1000

    if detail:
        for key, samples in table.items():
            print(f"| {title}: {key} | {median_ms([w for w, _ in samples]):.0f} ms | {cpu_ms(samples):.0f} ms | |")
    every = [s for samples in table.values() for s in samples]
    print(
        f"| **{title}, every key** | **{median_ms([w for w, _ in every]):.0f} ms** (p90 {statistics.quantiles([w for w, _ in every], n=10)[-1] * 1000:.0f} ms) | **{cpu_ms(every):.0f} ms** | <= 50 ms |"
    )


def compare(db: Path, game: tuple[str, int, list[str]], rounds: int, base: str) -> None:
    """`--base DIR`: the recording keys of this checkout and of the ktlog in DIR (a checkout of
    main, say), measured in turns in the same run: min and median of each key, and the ratio."""
    game_id, events, keys = game
    command = [str(KTLOG), "--db", str(db), "record", game_id]
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {"base": {}, "this": {}}
    for _ in range(rounds):
        for name, source in (("base", base), ("this", None)):
            for key, samples in time_keys(command, keys, 1, source).items():
                runs[name].setdefault(key, []).extend(samples)
    if not any(w for samples in runs["base"].values() for w, _ in samples):
        raise SystemExit(f"the ktlog in {base} drew nothing: it cannot open this database (a checkout before schema 11 cannot)")
    print(f"Recording keys, a {events}-event game, 120x40, {rounds} rounds each, base = {base}\n")
    print("| key | base min / median | this min / median | median ratio |")
    print("|---|---|---|---|")
    for key in runs["this"]:
        b, t = ([w for w, _ in runs[name][key]] for name in ("base", "this"))
        print(f"| {key} | {min(b) * 1000:.0f} / {median_ms(b):.0f} ms | {min(t) * 1000:.0f} / {median_ms(t):.0f} ms | {median_ms(t) / median_ms(b):.2f} |")
    b, t = ([w for samples in runs[name].values() for w, _ in samples] for name in ("base", "this"))
    print(f"| **every key** | {min(b) * 1000:.0f} / {median_ms(b):.0f} ms | {min(t) * 1000:.0f} / {median_ms(t):.0f} ms | {median_ms(t) / median_ms(b):.2f} |")


def compare_bar(db: Path, game: tuple[str, int, list[str]], rounds: int) -> None:
    """`--bar`: the replay keys with the evaluation bar shown and hidden (`b`, as a user hides
    it; pressed twice, untimed, where it is shown), a ktlog of each in turn, round by round in
    the same run: min and median of wall and CPU per key, and the ratio of the medians."""
    game_id, events, _ = game
    command = [str(KTLOG), "--db", str(db), "replay", game_id]
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {"shown": {}, "hidden": {}}
    for _ in range(rounds):
        for name, first in (("hidden", ("b",)), ("shown", ("b", "b"))):  # the same first key in both: the first after start-up costs more
            for key, samples in time_keys(command, REPLAY_KEYS, 1, first=first).items():
                runs[name].setdefault(key, []).extend(samples)
    print(f"Replay keys with the evaluation bar hidden and shown, a {events}-event game, 120x40, {rounds} rounds each, in turns\n")
    print("| key | hidden: wall min / median, CPU min / median | shown: wall min / median, CPU min / median | median ratio (wall, CPU) |")
    print("|---|---|---|---|")
    rows = [(key, runs["hidden"][key], runs["shown"][key]) for key in runs["shown"]]
    rows.append(("**every key**", *([s for samples in runs[name].values() for s in samples] for name in ("hidden", "shown"))))
    for key, hidden, shown in rows:
        cells = []
        for samples in (hidden, shown):
            wall, cpu = [w for w, _ in samples], [c for _, c in samples]
            cells.append(f"{min(wall) * 1000:.0f} / {median_ms(wall):.0f} ms, {min(cpu) * 1000:.0f} / {median_ms(cpu):.0f} ms")
        ratio = [median_ms([x[i] for x in shown]) / max(median_ms([x[i] for x in hidden]), 1e-9) for i in (0, 1)]
        print(f"| {key} | {cells[0]} | {cells[1]} | {ratio[0]:.2f}, {ratio[1]:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a 500-event game and fewer rounds, for a smoke run")
    parser.add_argument("--floor", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", metavar="DIR", help="compare the recording keys with the ktlog of another checkout (e.g. main), in the same run")
    parser.add_argument("--rounds", type=int, help="rounds of the recording keys (default 10; 3 with --quick)")
    parser.add_argument("--bar", action="store_true", help="compare the replay keys with the evaluation bar hidden and shown, in the same run")
    args = parser.parse_args()
    if args.floor:
        return floor()
    target, rounds = (500, 3) if args.quick else (2000, 10)
    rounds = args.rounds or rounds
    if args.base or args.bar:
        with tempfile.TemporaryDirectory() as folder:
            db = Path(folder) / "ktlog.tui.db"
            store = Store(db)
            long = recording_game(store, target)
            store.close()
            if args.bar:
                compare_bar(db, long, rounds)
            else:
                compare(db, long, rounds, args.base)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "ktlog.tui.db"
        store = Store(db)
        long, real = recording_game(store, target), sample_game(store)
        store.close()
        long, real = measure(db, long, rounds), measure(db, real, rounds)
        trivial = time_keys([sys.executable, __file__, "--floor"], ["x"], rounds * 4)["`x`"]
        first = startup_seconds(db)  # the first start on a database also loads the sample games
        starts = [startup_seconds(db) for _ in range(5)]

    print(f"TUI benchmark, a real ktlog in a 120x40 pseudo-terminal, {rounds} rounds; recording keys: {' '.join(long['keys'])}\n")
    print("| key press to updated screen | median (wall) | mean CPU | target |")
    print("|---|---|---|---|")
    print(f"| *a {long['events']}-event game being recorded (72 operatives)* | | | |")
    for title in ("recording", "replay seeking"):
        print_rows(title, long[title], detail=True)
    print(f"| *sample game 01 cut at seq {real['events']} (16 operatives)* | | | |")
    for title in ("recording", "replay seeking"):
        print_rows(title, real[title], detail=False)
    print(
        f"| for reference: a trivial Textual app, one Static updated | {median_ms([w for w, _ in trivial]):.0f} ms | {statistics.mean(c for _, c in trivial) * 1000:.0f} ms | |"
    )
    print(
        f"| **start-up to the start screen** (`ktlog --db DB`, fresh process) | **{statistics.median(starts):.2f} s** (of {', '.join(f'{s:.2f}' for s in starts)}) | | <= 1 s |"
    )
    print(f"| the first start on the database, which also loads the 15 sample games | {first:.2f} s | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
