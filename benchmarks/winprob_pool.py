"""The gap to the rollout floor over several runs of benchmarks/winprob_bench.py pooled (issue 41):
each run's sampled moments (`--rows FOLDER`, one RULESET-SEED.jsonl a run), read together, per
ruleset. A second league of other seeds doubles the moments and halves the outcome measure's
noise, without the cost of a run twice the size in one process.

    .venv/bin/python benchmarks/winprob_pool.py FOLDER

For each ruleset: the runs pooled, the debiased Brier gap to the floor and the distance to it
with their standard errors (over the games, each seed's games apart), the outcomes' part (mean 0
when the floor is each moment's chance), and the target judged as winprob_bench judges it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from winprob_bench import distance_to_floor, outcomes_part, paired_gap

FIELDS = frozenset({"ruleset", "seed", "game", "model", "floor", "won", "continuations"})
"""What a row must hold (`winprob_bench.save_rows`) to be pooled."""


def pooled(rows: list[dict]) -> dict[str, float]:
    """The pooled figures of one ruleset's moments (each a row of `--rows`)."""
    games = {key: i for i, key in enumerate(sorted({(r["seed"], r["game"]) for r in rows}))}

    def game(r):
        return games[r["seed"], r["game"]]

    moments = [(r["model"], r["floor"], r["won"], r["continuations"], game(r)) for r in rows]
    gap, se_gap = paired_gap(moments)
    distance, se_distance = distance_to_floor([(a, b, n, g) for a, b, _, n, g in moments])
    outcomes, se_outcomes = outcomes_part(moments)
    return {
        "moments": len(rows),
        "games": len(games),
        "gap": gap,
        "se_gap": se_gap,
        "distance": distance,
        "se_distance": se_distance,
        "outcomes": outcomes,
        "se_outcomes": se_outcomes,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the folder winprob_bench.py --rows wrote to")
    args = parser.parse_args()
    by_ruleset: dict[str, list[dict]] = {}
    seeds: dict[str, set[int]] = {}
    files = sorted(args.folder.glob("*.jsonl"))
    if not files:
        print(f"no RULESET-SEED.jsonl in {args.folder}: run benchmarks/winprob_bench.py --rows {args.folder} first", file=sys.stderr)
        return 2
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            try:
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise ValueError("it is not a JSON object")
                if not FIELDS <= row.keys():
                    raise ValueError(f"it lacks {', '.join(sorted(FIELDS - row.keys()))}")
            except ValueError as exc:
                print(f"{path}:{number}: not a row winprob_bench.py --rows writes ({exc}); run it again for that seed", file=sys.stderr)
                return 2
            by_ruleset.setdefault(row["ruleset"], []).append(row)
            seeds.setdefault(row["ruleset"], set()).add(row["seed"])
    met = True
    for ruleset, rows in by_ruleset.items():
        f = pooled(rows)
        sound = abs(f["outcomes"]) <= 2 * f["se_outcomes"]
        judged = f["distance"] if sound else f["gap"]
        met &= judged <= 0.005
        print(f"{ruleset}: {f['moments']} moments of {f['games']} games, seeds {', '.join(map(str, sorted(seeds[ruleset])))}")
        print(f"  model - floor, debiased        {f['gap']:+.4f} +- {f['se_gap']:.4f}")
        print(f"  distance to the floor, debiased {f['distance']:+.4f} +- {f['se_distance']:.4f}")
        print(
            f"  the outcomes' part             {f['outcomes']:+.4f} +- {f['se_outcomes']:.4f} ({'within' if sound else 'NOT within'} two standard errors of 0)"
        )
        print(f"  target: model - floor <= +0.005, judged on the {'distance' if sound else 'debiased gap'}: {'met' if judged <= 0.005 else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
