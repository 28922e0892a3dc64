"""Start-up (issue 16, issue 26's import): whole processes, this checkout against another, in turns.

    .venv/bin/python benchmarks/startup_bench.py [--base DIR] [--rounds N]

Each round runs, for this checkout and then for the ktlog in DIR (a checkout of main, or of an
older commit; run with this venv's interpreter and PYTHONPATH=DIR): `ktlog --help`,
`ktlog import --help`, `ktlog stats standings` on a database holding the sample games, and the
terminal UI's start screen (`ktlog --db DB` in a 120x40 pseudo-terminal, launched to the last
byte written before a second of quiet, as `tui_bench.py` times it). CPU is user + system of the
whole process (for the terminal UI, up to the screen drawn). Each checkout has its own database,
made by its own first `ktlog --db DB` (which loads the sample games). Min and median of each, and
the median of the ratios this / base taken round by round.

Both checkouts' modules are compiled to bytecode first, as installing ktlog does: a checkout run
with PYTHONDONTWRITEBYTECODE set (as this workplace's sessions are) otherwise compiles every ktlog
module it imports at every start. `--no-compile` times them as they are.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tui_bench import KTLOG, Terminal


def command_run(command: list[str], source: str | None) -> tuple[float, float]:
    """(wall, cpu) seconds of one whole process."""
    env = dict(os.environ, PYTHONPATH=source) if source else None
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed (PYTHONPATH={source})")
    return wall, usage.ru_utime + usage.ru_stime


def start_screen(db: Path, source: str | None, first: float = 10.0) -> tuple[float, float]:
    """(wall, cpu) seconds of `ktlog --db DB` launched to the start screen drawn (waiting up to
    `first` seconds for its first byte)."""
    launched = time.perf_counter()
    terminal = Terminal(str(KTLOG), "--db", str(db), source=source)
    try:
        drawn = terminal.settle(quiet=1.0, first=first)
        cpu = terminal.cpu()
    finally:
        terminal.close()
    if drawn is None:
        raise SystemExit(f"ktlog wrote nothing (PYTHONPATH={source})")
    return drawn - launched, cpu


def figures(db: Path) -> dict[str, list[str]]:
    ktlog = str(KTLOG)
    return {
        "`ktlog --help`": [ktlog, "--help"],
        "`ktlog import --help`": [ktlog, "import", "--help"],
        "`ktlog stats standings` (the sample games)": [ktlog, "--db", str(db), "stats", "standings"],
    }


THIS = Path(__file__).resolve().parent.parent
"""This checkout: the ktlog a benchmark times when it is given no other source tree."""


def compile_bytecode(*checkouts: Path | None) -> None:
    """Compile each checkout's ktlog (None: this one) to bytecode, as installing ktlog does, before
    its processes are timed: with PYTHONDONTWRITEBYTECODE set (as this workplace's sessions are) a
    checkout otherwise compiles every ktlog module it imports at every start (0.1-0.15 s of CPU a
    `ktlog stats` process, 2026-11-28), which no installed ktlog pays."""
    for checkout in checkouts:
        compileall.compile_dir((checkout or THIS) / "ktlog", quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", metavar="DIR", help="another checkout's ktlog, timed in turns with this one")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-compile", action="store_true", help="time the checkouts without compiling their bytecode first")
    args = parser.parse_args()
    sources = {"this": None, **({"base": str(Path(args.base).resolve())} if args.base else {})}
    if not args.no_compile:
        compile_bytecode(None, *([Path(args.base)] if args.base else []))
    with tempfile.TemporaryDirectory() as folder:
        dbs = {name: Path(folder) / f"{name}.db" for name in sources}
        for name, source in sources.items():
            start_screen(dbs[name], source, first=120.0)  # the first start makes the database and loads the samples
        times: dict[str, dict[str, list[tuple[float, float]]]] = {name: {} for name in sources}
        for _ in range(args.rounds):
            for name, source in sources.items():
                for figure, command in figures(dbs[name]).items():
                    times[name].setdefault(figure, []).append(command_run(command, source))
                times[name].setdefault("the terminal UI's start screen (`ktlog --db DB`, 120x40)", []).append(start_screen(dbs[name], source))
    compiled = "as they are" if args.no_compile else "bytecode compiled"
    print(f"Start-up, whole processes, {args.rounds} rounds, {compiled}" + (f"; base = {args.base}, in turns" if args.base else "") + "\n")
    print(
        "| process | wall min / median | CPU min / median |"
        + (" base wall min / median | base CPU min / median | ratio wall / CPU (median of pairs) |" if args.base else "")
    )
    print("|---|---|---|" + ("---|---|---|" if args.base else ""))
    for figure, samples in times["this"].items():
        row = f"| {figure} | {_min_median([w for w, _ in samples])} | {_min_median([c for _, c in samples])} |"
        if args.base:
            base = times["base"][figure]
            wall = statistics.median(t[0] / b[0] for t, b in zip(samples, base))
            cpu = statistics.median(t[1] / b[1] for t, b in zip(samples, base) if b[1])
            row += f" {_min_median([w for w, _ in base])} | {_min_median([c for _, c in base])} | {wall:.2f} / {cpu:.2f} |"
        print(row)
    return 0


def _min_median(samples: list[float]) -> str:
    return f"{min(samples):.3f} / {statistics.median(samples):.3f} s"


if __name__ == "__main__":
    sys.exit(main())
