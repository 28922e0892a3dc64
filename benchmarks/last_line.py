"""Issue 25 item 6: finding a game-log file's last line (`play.importer._last_line`, run on every
file of a folder import to recognise games stored in full) when that line is long: the way before
(the tail copied again at each 8 KB step, the line's length checked after) against now (blocks
read from the end, stopped once longer than a line may be).

    .venv/bin/python benchmarks/last_line.py [--repeat R]

CPU and wall seconds, min and median of R runs, both ways on the same files in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from ktlog.play.importer import _last_line


def before(f: BinaryIO, chunk: int = 8192) -> bytes:
    """`_last_line` as it was until issue 25."""
    end = f.seek(0, os.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - chunk)
        f.seek(start)
        tail = f.read(end - start) + tail
        end = start
        stripped = tail.rstrip()
        if b"\n" in stripped:
            return stripped.rsplit(b"\n", 1)[1]
    return tail.rstrip()


def timed(find: Callable[[BinaryIO], bytes], path: Path, repeat: int) -> tuple[list[float], list[float]]:
    cpu, wall = [], []
    for _ in range(repeat):
        with open(path, "rb") as f:
            c, w = time.process_time(), time.perf_counter()
            try:
                find(f)
            except ValueError:  # now: refused as too long, left to the full check
                pass
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
    return cpu, wall


def cell(times: list[float]) -> str:
    return f"{min(times):.4f} / {statistics.median(times):.4f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"min / median of {args.repeat} runs, seconds\n")
    print("| last line | before: CPU | before: wall | now: CPU | now: wall |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (1_000, 2**20, 4 * 2**20, 8 * 2**20, 50 * 2**20):
            path = Path(tmp) / f"{size}.jsonl"
            path.write_bytes(b'{"format": "ktlog-game"}\n' + b"x" * size + b"\n")
            now_cpu, now_wall = timed(_last_line, path, args.repeat)
            if size <= 8 * 2**20:
                old_cpu, old_wall = timed(before, path, args.repeat)
                old = f"{cell(old_cpu)} | {cell(old_wall)}"
            else:
                old = "not run (over 120 s) | -"
            print(f"| {size:,} bytes | {old} | {cell(now_cpu)} | {cell(now_wall)} |")


if __name__ == "__main__":
    main()
