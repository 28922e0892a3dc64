"""Run the real `ktlog` in tmux, press keys like a person, and check what is on the screen.

    .venv/bin/python tests/tmux_check.py [--keep]

A throw-away database and home folder (where the demo database goes) in a temporary folder; a
100x30 tmux pane. Each check waits (a few
seconds at most) for the text a person would look for, prints PASS or FAIL with the screen
when it fails, and the script exits with status 1 if anything was missing. `--keep` leaves
the tmux session running at the end, to look at it (the command is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ktlog.data import SAMPLE_GAMES  # noqa: E402

KEY_DELAY = 0.15
"""Seconds between keys: a quick typist."""


SOCKET = f"ktlog-check-{os.getpid()}"
"""A tmux server of this run's own (`tmux -L`), without the user's configuration, kept alive
between the checks: a new session no longer races the exit of the server the previous check's
last session took down (the CalledProcessError at the second `new-session`, issue 16 #16)."""


def tmux(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["tmux", "-L", SOCKET, "-f", os.devnull, *args], capture_output=True, text=True, check=check)


def ktlog() -> str:
    """This environment's `ktlog`."""
    script = Path(sys.executable).with_name("ktlog")
    return str(script if script.exists() else "ktlog")


class Pane:
    def __init__(self, name: str, db: Path):
        self.name, self.db = name, db
        self.failures = 0

    def start(self, *args: str) -> None:
        command = " ".join(shlex.quote(a) for a in [ktlog(), *args])
        env = f"KTLOG_DB={shlex.quote(str(self.db))} HOME={shlex.quote(str(self.db.parent))} TERM=xterm-256color"
        shell = f"cd {shlex.quote(str(ROOT))} && {env} {command}; sleep 600"
        for attempt in range(3):  # the server may still be starting: try again before failing
            started = tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", self.name, shell, check=False)
            if started.returncode == 0:
                return
            time.sleep(0.5 * (attempt + 1))
        raise RuntimeError(f"tmux new-session failed 3 times: {started.stderr.strip()}")

    def tmux(self, *args: str) -> str:
        return tmux(*args).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", "-t", self.name, key)
            time.sleep(KEY_DELAY)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", text)
        time.sleep(KEY_DELAY)

    def sees(self, what: str, *texts: str, timeout: float = 8.0) -> bool:
        """PASS when every text is on the screen within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            missing = [t for t in texts if t not in screen]
            if not missing:
                print(f"PASS  {what}")
                return True
            if time.monotonic() > deadline:
                self.failures += 1
                print(f"FAIL  {what}: not on the screen: {missing}\n{screen}")
                return False
            time.sleep(0.2)

    def stop(self) -> None:
        tmux("kill-session", "-t", self.name, check=False)


def sample_game_id(prefix: str) -> str:
    path = next(SAMPLE_GAMES.glob(f"{prefix}*.jsonl"))
    with open(path) as f:
        return json.loads(f.readline())["game_id"]


def record_a_game(pane: Pane) -> None:
    """`ktlog` with no arguments on a new database: the samples from the demo database, a new
    game set up and recorded by keys."""
    pane.start()
    pane.sees("start screen lists the sample games, from the demo database", "Sample games", "demo database", "Jun vs Kai", "New game")
    pane.keys("n")
    pane.sees("new game screen, the second player named though below the fold", "New game", "Player 1", "Player 2 Bob")
    pane.keys("C-s")
    pane.sees("set-up screen after creating the game", "Set-up", "Objective markers", "Start the battle")
    pane.keys("6", "2", "C-s")
    pane.sees("record screen, every operative set up", "Set-up", "Start turning point", "set up")
    pane.keys("d")
    pane.sees("an illegal key is explained", "Dash is not a step of this moment")
    pane.keys("t")
    pane.sees("roll-off dialog", "Roll-off for initiative")
    pane.keys("5", "2")
    pane.sees("the rules say who decides", "Alice decides who has initiative")
    pane.keys("Enter", "1")
    pane.sees("initiative recorded", "Alice has initiative", "Gambit", "Pass")
    pane.keys("p", "p")
    pane.sees("firefight: the action bar offers activations", "Activate", "Bob passes")
    pane.keys("a")
    pane.sees("activation picker", "Activate", "1 ")
    pane.keys("1", "e")
    pane.sees("operative active with an Engage order", "activates (engage)", "ACTIVE", "End activation")
    pane.keys("s")
    pane.sees("shooting: a target or the dice dialog", "shoot")
    if "shoots" not in pane.screen():
        pane.keys("1")  # more than one target: the first
    pane.keys("9")
    pane.sees("a die that is not a D6 result is refused", "9 is not a D6 result")
    pane.keys("q", "3")
    pane.sees("quick mode shows the damage before recording", "3 damage", "Enter records it")
    pane.keys("Enter")
    pane.sees("the attack is recorded", "shoots")
    pane.keys("C-z")
    pane.sees("undo is one key", "undid seq")
    pane.keys("Escape")
    pane.sees("back on the start screen, the new game unfinished", "1 unfinished", "Alice vs Bob")
    pane.keys("C-q")


def replay_a_game(pane: Pane) -> None:
    """`ktlog replay GAME` (the samples loaded by `ktlog demo`): step, jump to a turning point, the
    VP curve and the scrubber."""
    game = sample_game_id("01")
    subprocess.run([ktlog(), "--db", str(pane.db), "demo"], check=True, capture_output=True, env=os.environ | {"HOME": str(pane.db.parent)})
    pane.start("replay", game[:8])
    pane.sees("replay opens at the start of the battle", "turning point 1 begins", "VP", "Events")
    pane.keys("Right", "]")
    pane.sees("stepping forward to an activation", "activates")
    pane.keys("t", "3")
    pane.sees("jump to turning point 3", "TP3", "turning point 3 begins")
    pane.keys("End")
    pane.sees("the end of the battle", "Battle over", "Alice won", "266/266")
    pane.keys("C-q")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", action="store_true", help="leave the last tmux session running")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed: install it (apt-get install tmux) to run this check")
        return 2
    failures = 0
    tmux("start-server", ";", "set-option", "-g", "exit-empty", "off")
    try:
        with tempfile.TemporaryDirectory() as folder:
            for check in (record_a_game, replay_a_game):
                home = Path(folder) / check.__name__
                home.mkdir()
                pane = Pane(f"ktlog-check-{check.__name__}", home / "ktlog.db")
                try:
                    check(pane)
                finally:
                    failures += pane.failures
                    if not args.keep:
                        pane.stop()
    finally:
        if not args.keep:
            tmux("kill-server", check=False)
        else:
            print(f"look at it: tmux -L {SOCKET} attach")
    print(f"\n{'all checks passed' if not failures else f'{failures} check(s) failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
