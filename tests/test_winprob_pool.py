"""benchmarks/winprob_pool.py (issue 41): runs of winprob_bench.py of other seeds pooled, each
figure worked out here by hand from the rows."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from winprob_pool import pooled  # noqa: E402

ROWS = [  # two runs (seeds 1 and 2), both with a game numbered 0: they are two games
    {
        "ruleset": "kt21",
        "seed": 1,
        "game": 0,
        "seq": 50,
        "tp": 1,
        "model": [0.6, 0.4],
        "floor": [0.5, 0.5],
        "vp": [0.5, 0.5],
        "won": [1.0, 0.0],
        "continuations": 11,
    },
    {
        "ruleset": "kt21",
        "seed": 2,
        "game": 0,
        "seq": 90,
        "tp": 2,
        "model": [0.3, 0.7],
        "floor": [0.2, 0.8],
        "vp": [0.5, 0.5],
        "won": [0.0, 1.0],
        "continuations": 11,
    },
]


def test_the_gap_and_the_distance_are_the_rows_own_figures():
    f = pooled(ROWS)
    noise = [0.5 * 0.5 / 10, 0.2 * 0.8 / 10]  # q(1-q)/(n-1), each player's
    # model's Brier less the floor's, debiased, over the four player-moment rows
    gap = ((0.16 - 0.25 + noise[0]) * 2 + (0.09 - 0.04 + noise[1]) * 2) / 4
    distance = ((0.01 - noise[0]) * 2 + (0.01 - noise[1]) * 2) / 4
    assert f["moments"] == 2 and f["games"] == 2
    assert f["gap"] == pytest.approx(gap)
    assert f["distance"] == pytest.approx(distance)
    assert f["gap"] == pytest.approx(f["distance"] + f["outcomes"])  # the outcomes' part is the rest


def test_the_script_reads_a_folder_of_runs_and_names_the_seeds(tmp_path):
    for seed in (1, 2):
        (tmp_path / f"kt21-{seed}.jsonl").write_text("\n".join(json.dumps(r) for r in ROWS if r["seed"] == seed) + "\n")
    out = subprocess.run([sys.executable, str(BENCHMARKS / "winprob_pool.py"), str(tmp_path)], capture_output=True, text=True, cwd=BENCHMARKS)
    assert "kt21: 2 moments of 2 games, seeds 1, 2" in out.stdout, out.stderr
    assert "distance to the floor, debiased" in out.stdout


def test_an_empty_folder_says_what_to_run(tmp_path):
    out = subprocess.run([sys.executable, str(BENCHMARKS / "winprob_pool.py"), str(tmp_path)], capture_output=True, text=True, cwd=BENCHMARKS)
    assert out.returncode == 2
    assert "winprob_bench.py --rows" in out.stderr


def test_a_row_that_is_not_the_benchs_is_named_with_its_line(tmp_path):
    (tmp_path / "kt21-1.jsonl").write_text(json.dumps(ROWS[0]) + "\n" + json.dumps({"ruleset": "kt21", "seed": 1}) + "\n")
    out = subprocess.run([sys.executable, str(BENCHMARKS / "winprob_pool.py"), str(tmp_path)], capture_output=True, text=True, cwd=BENCHMARKS)
    assert out.returncode == 2
    assert "kt21-1.jsonl:2: not a row winprob_bench.py --rows writes (it lacks continuations, floor, game, model, won)" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_line_that_is_not_an_object_is_named_with_its_line(tmp_path):
    (tmp_path / "kt21-1.jsonl").write_text("[1, 2]\n")
    out = subprocess.run([sys.executable, str(BENCHMARKS / "winprob_pool.py"), str(tmp_path)], capture_output=True, text=True, cwd=BENCHMARKS)
    assert out.returncode == 2
    assert "kt21-1.jsonl:1: not a row winprob_bench.py --rows writes (it is not a JSON object)" in out.stderr
    assert "Traceback" not in out.stderr


def _bench(*args: str) -> subprocess.CompletedProcess:
    small = [
        "--part",
        "quality",
        "--rulesets",
        "kt24-preliminary",
        "--fit-games",
        "12",
        "--score-games",
        "6",
        "--moments",
        "5",
        "--continuations",
        "4",
        "--calibration-games",
        "6",
    ]
    return subprocess.run([sys.executable, str(BENCHMARKS / "winprob_bench.py"), *small, *args], capture_output=True, text=True, cwd=BENCHMARKS)


@pytest.mark.slow  # four small benchmark runs: 16 s
def test_a_run_with_the_floors_saved_scores_the_same_moments_against_the_same_floors(tmp_path):
    """--floors reads an earlier run's floors (the rollouts, most of a run's CPU) instead of playing
    them again: the same moments, floors and outcomes come out; a floor the simulator would no
    longer give, or a run of another size, is refused with what to do."""
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir()
    again.mkdir()
    assert "moments sampled" in _bench("--rows", str(first)).stdout
    out = _bench("--rows", str(again), "--floors", str(first))
    assert f"read from {first}, the first 3 played again and the same" in out.stdout, out.stderr
    saved = first / "kt24-preliminary-4242.jsonl"
    assert (again / "kt24-preliminary-4242.jsonl").read_text() == saved.read_text()

    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    rows[0]["floor"] = [0.0, 1.0] if rows[0]["floor"] != [0.0, 1.0] else [1.0, 0.0]  # a floor the simulator does not give
    saved.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = _bench("--floors", str(first))
    assert out.returncode != 0 and "the simulator changed; run without --floors" in out.stderr and "Traceback" not in out.stderr
    out = _bench("--floors", str(first), "--moments", "4")
    assert out.returncode != 0 and "run with the same --moments" in out.stderr
    out = _bench("--floors", str(tmp_path / "none"))
    assert out.returncode != 0 and "run with --rows" in out.stderr
