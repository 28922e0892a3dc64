"""benchmarks/game_page_bench.py's wrk mode (issue 26): wrk's report read into the figures
printed, and a machine without wrk told how to install it, not shown a traceback."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parents[1] / "benchmarks" / "game_page_bench.py"
WRK_REPORT = """Running 10s test @ http://127.0.0.1:40123/games/334f68f6
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    21.40ms    9.12ms 120.30ms   80.12%
    Req/Sec     2.36k   210.44     2.71k    74.00%
  Latency Distribution
     50%   17.12ms
     75%   24.80ms
     90%  812.00us
     99%    1.20s
  23551 requests in 10.01s, 842.11MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   2352.85
Transfer/sec:     84.13MB
"""


def test_wrks_report_is_read_into_requests_a_second_percentiles_and_failures() -> None:
    bench = runpy.run_path(str(BENCH))
    assert bench["wrk_figures"](WRK_REPORT) == {"req/s": 2352.85, "p50 ms": 17.12, "p90 ms": 0.812, "requests": 23551, "failed": 7}
    assert bench["wrk_ms"]("1.20s") == 1200.0


def test_without_wrk_the_benchmark_says_how_to_install_it(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no wrk on it
    done = subprocess.run([sys.executable, str(BENCH), "--wrk", "5"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert "apt-get install wrk" in done.stderr and "Traceback" not in done.stderr
