"""Issue 44's benchmark: the board's checks on the Volkus-like layout (29 terrain parts).

    .venv/bin/python benchmarks/board_bench.py [--repeats 7]

1. Pair by pair, in one process: a targeting-line check (cover and obscured from every lean
   point, `ktlog.board.geometry.targeting`) against the brute-force reference of
   tests/test_board_properties.py (sampling every line), on the same 30 pairs of operatives.
2. The other checks a move or a shot asks: visibility, control range, a move's cost, and the
   board drawn as SVG and as a 120x40 character map.
3. A whole process as a command will run it: load the layout file, then 1,000 targeting checks,
   against the same process that only imports the board.
Each figure: min and median of the repeats, CPU (process time) and wall, per check.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from ktlog.board.geometry import Board, Placed, control_range, targeting, visible  # noqa: E402
from ktlog.board.movement import move_cost, placement_problem  # noqa: E402
from ktlog.files.layouts import load_layout, shipped  # noqa: E402
from ktlog.text.board_map import board_map  # noqa: E402
from ktlog.text.board_svg import board_svg  # noqa: E402


def pairs(board: Board, count: int = 30, seed: int = 44) -> list[tuple[Placed, Placed]]:
    rng = random.Random(seed)
    ops: list[Placed] = []
    while len(ops) < 2 * count:
        op = Placed(f"o{len(ops)}", "AB"[len(ops) % 2], rng.uniform(1, 29), rng.uniform(1, 21), base_mm=32)
        if placement_problem(board, op, ops) is None:
            ops.append(op)
    return [(ops[i], ops[i + 1]) for i in range(0, len(ops), 2)]


def timed(work: Callable[[], object], calls: int, repeats: int) -> tuple[list[float], list[float]]:
    """Per call, in ms: CPU and wall of each repeat."""
    cpu, wall = [], []
    for _ in range(repeats):
        c, w = time.process_time(), time.perf_counter()
        work()
        cpu.append((time.process_time() - c) / calls * 1e3)
        wall.append((time.perf_counter() - w) / calls * 1e3)
    return cpu, wall


def line(name: str, cpu: list[float], wall: list[float]) -> str:
    return f"  {name:<38} CPU min {min(cpu):8.3f} ms, median {statistics.median(cpu):8.3f} ms;  wall min {min(wall):8.3f} ms, median {statistics.median(wall):8.3f} ms"


def process(code: str, repeats: int) -> tuple[list[float], list[float]]:
    cpu, wall = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        wall.append(time.perf_counter() - w)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=7)
    repeats = parser.parse_args().repeats
    layout = load_layout(shipped()["volkus-like"])
    board = Board(layout)
    sample = pairs(board)
    parts = sum(len(f.parts) for f in layout.terrain)
    print(f"Volkus-like layout: {parts} terrain parts; {len(sample)} pairs of operatives; {repeats} repeats")

    from test_board_properties import ref_targeting  # the brute-force reference

    print("1. a targeting-line check (cover and obscured), pair by pair:")
    fast_cpu, fast_wall = timed(lambda: [targeting(board, a, b) for a, b in sample], len(sample), repeats)
    few = sample[:6]
    slow_cpu, slow_wall = timed(lambda: [ref_targeting(layout, a, b) for a, b in few], len(few), max(2, repeats // 3))
    print(line("ktlog.board.geometry.targeting", fast_cpu, fast_wall))
    print(line("reference: every line sampled", slow_cpu, slow_wall))
    print(f"  ratio (median CPU): the reference takes {statistics.median(slow_cpu) / statistics.median(fast_cpu):,.0f}x as long")

    print("2. the other checks, per call:")
    path = [(a.x + 2, a.y, 0.0) for a, _ in sample]
    for name, work in (
        ("visible", lambda: [visible(board, a, b) for a, b in sample]),
        ("control_range", lambda: [control_range(board, a, b) for a, b in sample]),
        ("move_cost (one 2-inch increment)", lambda: [move_cost(board, a, [p]) for (a, _), p in zip(sample, path)]),
    ):
        print(line(name, *timed(work, len(sample), repeats)))
    everyone = [o for pair in sample[:10] for o in pair]
    print(line("board_svg (20 operatives)", *timed(lambda: board_svg(layout, everyone), 1, repeats)))
    print(line("board_map 120x40 (20 operatives)", *timed(lambda: board_map(layout, everyone, 120, 34), 1, repeats)))

    print("3. a whole process: load the layout file, 1,000 targeting checks (against importing the board only):")
    work = (
        "import sys; sys.path.insert(0, 'benchmarks'); from board_bench import pairs;"
        "from ktlog.board.geometry import Board, targeting; from ktlog.files.layouts import load_layout, shipped;"
        "b = Board(load_layout(shipped()['volkus-like'])); ps = pairs(b) * 34;"
        "[targeting(b, x, y) for x, y in ps[:1000]]"
    )
    base = "import ktlog.board.geometry, ktlog.files.layouts"
    full_cpu, full_wall = process(work, max(3, repeats // 2))
    base_cpu, base_wall = process(base, max(3, repeats // 2))
    print(
        f"  1,000 checks: CPU min {min(full_cpu):.2f} s, median {statistics.median(full_cpu):.2f} s; wall min {min(full_wall):.2f} s, median {statistics.median(full_wall):.2f} s"
    )
    print(
        f"  import only:  CPU min {min(base_cpu):.2f} s, median {statistics.median(base_cpu):.2f} s; wall min {min(base_wall):.2f} s, median {statistics.median(base_wall):.2f} s"
    )
    print(f"  the checks and the layout's loading: {(statistics.median(full_cpu) - statistics.median(base_cpu)) * 1e3:.0f} ms of CPU for 1,000 checks")


if __name__ == "__main__":
    main()
