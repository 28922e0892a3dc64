"""The analyser's benchmarks (issue 41): how good each ruleset's model is against the rollout
floor and the baselines, and how fast a game is read and a what-if is played.

    .venv/bin/python benchmarks/winprob_bench.py [--part quality|speed|all] [--rulesets kt24-preliminary,...]
        [--fit-games 2000] [--score-games 400] [--moments 300] [--continuations 100] [--calibration-games 2000] [--runs 5]
        [--score-seed 4242] [--rows FOLDER] [--floors FOLDER]

quality, per ruleset: the model is the ruleset's default ktlog ships (ktlog/data/winprob.json:
tools/winprob_defaults.py fitted it on a league of simulated games of seed 41, 2,000 or 6,000 as its
`source` says; --refit fits one
here on --fit-games games of that seed with the same fitter). A second league of --score-games
games played with other seeds (4242, or --score-seed) is read as `ktlog analyse GAME --json` reads it
(`key_moments.analyse`); this script then scores it with its own code (no ktlog scoring):
  - the Brier score of the model at --moments moments sampled from the second league (battle
    moments, the result's own step left out), and at the same moments: a coin, a logistic on VP
    difference alone fitted here on the first league's --fit-games games (VP difference as it is,
    over the square root of the battle left and times it; Newton's method in plain Python), and
    the rollout floor: --continuations games played on from each moment by the ruleset's simulator
    with hidden choices chosen again (`winprob_rollout`), their share of wins; its Monte Carlo
    noise (p(1-p)/(n-1) a moment) is taken off as "debiased";
  - the same in turning point 1 and in each turning point (where a gap is), and each decile of
    the model's chances over every battle moment of the second league's first --calibration-games
    games (2,000, more than the sampled ones: over 400 a decile swings by 2-5 points from one
    league to the next, more than its standard error says): the mean predicted, the share won,
    and the standard error of their difference with whole games resampled.
The gap to the floor is also read from the chances alone: the model's mean squared distance to
the floor's chances, less the floor's noise, is the expected Brier gap when the floor is each
moment's chance, without the outcomes' noise; the rest of the gap (the outcomes' part) must then
be within two standard errors of 0, and when it is the target is judged on the distance, else on
the debiased gap. Standard errors are over the sampled moments' games (a ratio estimator by game).
--rows writes each sampled moment's chances and outcome to FOLDER/RULESET-SEED.jsonl, so that runs
of other seeds can be pooled (benchmarks/winprob_pool.py). --floors FOLDER reads each moment's floor
from such a file of an earlier run of the same seed and size instead of playing its rollouts again
(most of a run's CPU): the floor is the simulator's, not the model's, so a new model is scored
against it in minutes. The run checks the moments sampled and their outcomes are the ones saved,
and plays the first moments' rollouts again (`CHECKED_AGAIN`): a simulator that now plays them
differently is refused, as the saved floors are no longer its.
Targets: model <= floor + 0.005 and <= the VP logistic; in turning point 1 the model's margin over
a coin at least half the floor's; every decile within 5 points.

speed: `ktlog analyse GAME` on run.py's long game (at least 2,000 events) against `ktlog log GAME`,
each a whole process as a user runs it, in turn, --runs times (CPU of the child process from
wait4, and wall), judged on the median of the pairs' ratios (each analyse run beside its log, so a
machine whose speed drifts during the run moves both); and a what-if of one moment (200 continuations from each of the two moments,
in the process: `winprob_rollout.what_if`) at moments a quarter, half and three quarters through
a simulated game of each two-player ruleset. Where valgrind is installed, the two commands' work and
each what-if a quarter in are also counted in instructions (cachegrind, deterministic): the work
the CPU readings swing around on a shared machine, and the speed it would take to meet the target.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import long_game

from ktlog.analytics.key_moments import analyse
from ktlog.analytics.winprob import Choice, defaults
from ktlog.analytics.winprob_features import Reader, in_battle, states
from ktlog.analytics.winprob_fit import Fitted, read_games
from ktlog.analytics.winprob_rollout import Roller, what_if
from ktlog.play.simulate import simulate_games
from ktlog.rulesets import RULESETS
from ktlog.storage.store import Store

RULESETS_SCORED = ("kt24-preliminary", "kt24-approved", "kt21", "kt24-multiplayer")
FIT_SEED, SCORE_SEED = 41, 4242
CHECKED_AGAIN = 3
"""Moments whose rollouts a run with --floors plays again, to check the saved floors are still the simulator's."""
KTLOG = str(Path(sys.executable).with_name("ktlog"))


# --- the games --------------------------------------------------------------------------------


def league(ruleset: str, games: int, seed: int) -> list[list[tuple[int, object]]]:
    return [list(enumerate(g.events, 1)) for _, g in simulate_games(games, seed, ruleset=ruleset)]


def shares(records) -> list[float]:
    """Each player's share of the game's result, worked out here from the final state's result."""
    *_, (_, _, state) = states(records)
    r = state.result
    winners = r.winners or ([r.winner] if r.winner else list(state.players))
    return [1 / len(winners) if p in winners else 0.0 for p in state.players]


# --- the VP baseline, fitted here -------------------------------------------------------------


def vp_rows(records, reader: Reader) -> list[tuple[list[list[float]], int]]:
    """Every battle moment: each player's VP terms (relative VP, over sqrt(left + 1/4), times left)."""
    vp = reader.features.index("vp")
    out = []
    for _, _, state in states(records):
        if in_battle(state) and state.result is None:
            m = reader.moment(state)
            root = 1 / math.sqrt(m.left + 0.25)
            out.append(([[r[vp], r[vp] * root, r[vp] * m.left] for r in m.relative], m.seq))
    return out


def fit_vp_logistic(groups: list[tuple[list[list[float]], list[float]]], iterations: int = 20) -> list[float]:
    """A conditional logit (each moment's players compete; for two players a logistic regression)
    on the three VP terms, by Newton's method with a tiny ridge: plain Python."""
    w = [0.0, 0.0, 0.0]
    for _ in range(iterations):
        grad = [0.0] * 3
        hess = [[1e-6 * len(groups) if i == j else 0.0 for j in range(3)] for i in range(3)]
        for xs, ys in groups:
            scores = [sum(a * b for a, b in zip(w, x)) for x in xs]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            total = sum(e)
            p = [v / total for v in e]
            mean = [sum(p[k] * xs[k][i] for k in range(len(xs))) for i in range(3)]
            for k, x in enumerate(xs):
                for i in range(3):
                    grad[i] += (p[k] - ys[k]) * x[i]
                    for j in range(3):
                        hess[i][j] += p[k] * x[i] * x[j]
            for i in range(3):
                for j in range(3):
                    hess[i][j] -= mean[i] * mean[j]
        step = solve3(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def solve3(a: list[list[float]], b: list[float]) -> list[float]:
    """Cramer's rule for a 3x3 system."""

    def det(m):
        return (
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        )

    d = det(a)
    return [det([[b[r] if c == i else a[r][c] for c in range(3)] for r in range(3)]) / d for i in range(3)]


def softmax(w: list[float], xs: list[list[float]]) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, x)) for x in xs]
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    return [v / sum(e) for v in e]


# --- scoring, here --------------------------------------------------------------------------


def brier(pairs: list[tuple[float, float]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs) if pairs else float("nan")


def deciles(rows: list[tuple[float, float, int]], resamples: int = 200) -> list[tuple[int, int, float, float, float]]:
    """(decile, rows, mean predicted, share won, standard error of won less predicted) of the
    chances (p, outcome, game) in each tenth; the error by resampling whole games, since a
    game's moments rise and fall together."""
    sums: dict[int, dict[int, list[float]]] = {}  # game -> decile -> [rows, predicted, won]
    for p, y, g in rows:
        s = sums.setdefault(g, {}).setdefault(min(9, int(p * 10)), [0, 0.0, 0.0])
        s[0] += 1
        s[1] += p
        s[2] += y

    def table(games: list[int]) -> dict[int, list[float]]:
        out: dict[int, list[float]] = {}
        for g in games:
            for b, (n, p, y) in sums[g].items():
                t = out.setdefault(b, [0, 0.0, 0.0])
                t[0] += n
                t[1] += p
                t[2] += y
        return out

    games = list(sums)
    whole = table(games)
    rng = random.Random(3)
    gaps: dict[int, list[float]] = {b: [] for b in whole}
    for _ in range(resamples):
        for b, (n, p, y) in table([rng.choice(games) for _ in games]).items():
            if b in gaps:
                gaps[b].append((y - p) / n)
    return [(b, int(n), p / n, y / n, statistics.stdev(gaps[b]) if len(gaps[b]) > 1 else float("nan")) for b, (n, p, y) in sorted(whole.items())]


def quality(
    ruleset: str,
    fit_games: int,
    score_games: int,
    moments: int,
    continuations: int,
    refit: bool,
    calibration_games: int = 0,
    score_seed: int = SCORE_SEED,
    rows_to: Path | None = None,
    floors_from: Path | None = None,
) -> bool:
    t0 = time.process_time()
    kept_floors = read_floors(floors_from, ruleset, score_seed) if floors_from else None
    reader = Reader(RULESETS[ruleset])
    fitted_games = league(ruleset, fit_games, FIT_SEED)
    if refit:
        rows, _ = read_games(ruleset, ((r, True) for r in fitted_games))
        model = Fitted(rows, reader.features).model(ruleset, games=fit_games)
        del rows
    else:
        model = defaults().models[ruleset]
    baseline_groups = []
    for records in fitted_games:
        y = shares(records)
        baseline_groups += [(xs, y) for xs, _ in vp_rows(records, reader)]
    vp_w = fit_vp_logistic(baseline_groups)
    del fitted_games, baseline_groups
    fit_cpu = time.process_time() - t0

    scored = league(ruleset, max(score_games, calibration_games), score_seed)
    every: list[tuple[float, float, int]] = []
    candidates = []  # (game, seq, turning point, the model's chances, outcome)
    for g, records in enumerate(scored):
        y = shares(records)
        mine, _ = analyse(records, Choice(model, ""))
        tps = {}
        for _, _, state in states(records):
            tps[state.seq] = state.turning_point
        for seq, chances in mine.curve:
            if mine.decided is not None and seq >= mine.decided:
                continue
            every += [(p, won, g) for p, won in zip(chances, y)]
            if g < score_games:
                candidates.append((g, seq, tps[seq], chances, y))
    rng = random.Random(7)
    sample = sorted(rng.sample(candidates, min(moments, len(candidates))), key=lambda c: (c[0], c[1]))
    roller = Roller(ruleset, seed=11)
    by_game: dict[int, list] = {}
    for c in sample:
        by_game.setdefault(c[0], []).append(c)
    saved = saved_floors(*kept_floors, continuations, sample) if kept_floors else None
    results = []
    t1 = time.process_time()
    for g, picked in by_game.items():
        wanted = {c[1]: c for c in picked}
        for seq, _, state in states(scored[g]):
            if seq in wanted:
                c = wanted[seq]
                if saved is None or len(results) < CHECKED_AGAIN:
                    floor = roller.rollout(state, continuations).chances
                    if saved is not None and floor != saved[g, seq]:
                        sys.exit(
                            f"{floors_from}: game {g} seq {seq}'s rollouts now give {floor}, not the saved {saved[g, seq]}: the simulator changed; run without --floors"
                        )
                else:
                    floor = saved[g, seq]
                vp = softmax(vp_w, [x for x in vp_rows_at(state, reader)])
                results.append((c, floor, vp))
    floor_cpu = time.process_time() - t1
    if rows_to is not None:
        save_rows(rows_to, ruleset, score_seed, continuations, results)

    def column(pick, only_tp1=False, tp=None):
        pairs = []
        for c, floor, vp in results:
            if (only_tp1 and c[2] != 1) or (tp is not None and c[2] != tp):
                continue
            preds = {"model": c[3], "floor": floor, "vp": vp, "coin": [1 / len(c[4])] * len(c[4])}[pick]
            pairs += list(zip(preds, c[4]))
        return pairs

    noise = sum(sum(p * (1 - p) for p in floor) / (continuations - 1) for _, floor, _ in results) / sum(len(c[4]) for c, _, _ in results)
    tp1_rows = [r for r in results if r[0][2] == 1]
    noise1 = (
        (sum(sum(p * (1 - p) for p in f) / (continuations - 1) for _, f, _ in tp1_rows) / max(1, sum(len(c[4]) for c, _, _ in tp1_rows))) if tp1_rows else 0
    )
    b = {k: brier(column(k)) for k in ("model", "floor", "vp", "coin")}
    b1 = {k: brier(column(k, True)) for k in ("model", "floor", "vp", "coin")}
    floor, floor1 = b["floor"] - noise, b1["floor"] - noise1
    made = f"fitted here on {fit_games} games" if refit else f"the shipped default ({model.source})"
    print(f"\n{ruleset}: the model is {made}; the VP logistic fitted on {fit_games} games of seed {FIT_SEED} ({fit_cpu:.0f} s CPU);")
    print(f"  scored on {score_games} games (seed {score_seed}):")
    played = (
        f"{floor_cpu:.0f} s CPU" if saved is None else f"read from {floors_from}, the first {CHECKED_AGAIN} played again and the same, {floor_cpu:.0f} s CPU"
    )
    print(f"  {len(results)} moments sampled of {len(candidates)}, {continuations} continuations each ({played}); per player-moment rows:")
    print(f"  Brier   model {b['model']:.4f}  VP logistic {b['vp']:.4f}  coin {b['coin']:.4f}  floor {b['floor']:.4f} (debiased {floor:.4f})")
    print(
        f"  TP1     model {b1['model']:.4f}  VP logistic {b1['vp']:.4f}  coin {b1['coin']:.4f}  floor {b1['floor']:.4f} (debiased {floor1:.4f}), {len(tp1_rows)} moments"
    )
    _, se_floor = paired_gap([(c[3], f, c[4], continuations, c[0]) for c, f, _ in results])
    _, se_vp = paired_gap([(c[3], v, c[4], 0, c[0]) for c, _, v in results])
    ok_vp = b["model"] <= b["vp"]
    ok_tp1 = (b1["coin"] - b1["model"]) >= 0.5 * (b1["coin"] - floor1) if tp1_rows else True
    print(
        f"  model - floor {b['model'] - b['floor']:+.4f} (debiased {b['model'] - floor:+.4f} +- {se_floor:.4f});"
        f" model - VP logistic {b['model'] - b['vp']:+.4f} +- {se_vp:.4f} ({'met' if ok_vp else 'NOT met'});"
        f" TP1 margin over a coin: model {b1['coin'] - b1['model']:.4f}, floor {b1['coin'] - b1['floor']:.4f} (debiased {b1['coin'] - floor1:.4f};"
        f" {'met' if ok_tp1 else 'NOT met'})  (+-: one standard error over the sampled moments' games)"
    )
    distance, se_distance = distance_to_floor([(c[3], f, continuations, c[0]) for c, f, _ in results])
    outcomes, se_outcomes = outcomes_part([(c[3], f, c[4], continuations, c[0]) for c, f, _ in results])
    floor_sound = abs(outcomes) <= 2 * se_outcomes
    ok_floor = (distance if floor_sound else b["model"] - floor) <= 0.005  # the sharper of the two, when the floor passes its check
    print(
        f"  the same gap from the chances alone: the model's mean squared distance to the floor, debiased, {distance:+.4f} +- {se_distance:.4f}"
        f" (the expected Brier gap when the floor is each moment's chance; the outcomes' part of the gap above, {outcomes:+.4f} +- {se_outcomes:.4f},"
        f" {'is within two standard errors of 0, as it is then' if floor_sound else 'is NOT within two standard errors of 0, so the gap above is judged'})"
    )
    print(f"  target: model - floor <= +0.005, judged on the {'distance' if floor_sound else 'debiased gap'}: {'met' if ok_floor else 'NOT met'}")
    print("  by turning point: model / floor (not debiased) / coin, moments, the model's distance to the floor (debiased)")
    for tp in sorted({c[2] for c, _, _ in results}):
        n = sum(1 for c, _, _ in results if c[2] == tp)
        d_tp, se_tp = distance_to_floor([(c[3], f, continuations, c[0]) for c, f, _ in results if c[2] == tp])
        print(
            f"    TP{tp}  {brier(column('model', tp=tp)):.4f}  {brier(column('floor', tp=tp)):.4f}  {brier(column('coin', tp=tp)):.4f}  {n}  {d_tp:+.4f} +- {se_tp:.4f}"
        )
    ok_cal = True
    print(
        f"  deciles of the model's chances over every battle moment of {len(scored)} games of the second league ({len(every)} player-moments):"
        " predicted / won / rows / won less predicted +- its standard error (games resampled)"
    )
    for d, n, pred, won, se in deciles(every):
        good = abs(pred - won) <= 0.05 or n < 200
        ok_cal &= good
        print(f"    {d / 10:.1f}-{(d + 1) / 10:.1f}  {pred:.3f}  {won:.3f}  {n}  {won - pred:+.3f} +- {se:.3f}{'' if good else '  NOT within 5 points'}")
    return ok_floor and ok_vp and ok_tp1 and ok_cal


def save_rows(path: Path, ruleset: str, score_seed: int, continuations: int, results) -> None:
    """Each sampled moment as a JSON line (the model's, the floor's and the VP logistic's chances and
    the outcome), so that runs of other seeds can be pooled; written whole, then renamed."""
    lines = [
        json.dumps(
            {
                "ruleset": ruleset,
                "seed": score_seed,
                "game": c[0],
                "seq": c[1],
                "tp": c[2],
                "model": c[3],
                "floor": f,
                "vp": v,
                "won": c[4],
                "continuations": continuations,
            }
        )
        for c, f, v in results
    ]
    with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp") as out:
        out.write("\n".join(lines) + "\n")
    os.replace(out.name, path)


def read_floors(folder: Path, ruleset: str, score_seed: int) -> tuple[Path, dict[tuple[int, int], dict]]:
    """The moments an earlier run (`--rows`) saved ((game, seq) -> row), read before any game is
    played; the run refused with a sentence when there are none to read."""
    path = folder / f"{ruleset}-{score_seed}.jsonl"
    try:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        return path, {(r["game"], r["seq"]): r for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        sys.exit(f"{path}: no floors to read ({exc}); run with --rows {folder} first")


def saved_floors(path: Path, saved: dict[tuple[int, int], dict], continuations: int, sample) -> dict[tuple[int, int], list[float]]:
    """The floors saved for these moments ((game, seq) -> chances); the run refused with a sentence
    when they are not these moments, outcomes and continuations."""
    for g, seq, _, _, won in sample:
        row = saved.get((g, seq))
        if row is None or row.get("won") != won or row.get("continuations") != continuations:
            sys.exit(
                f"{path}: game {g} seq {seq} is not saved with this outcome and {continuations} continuations: run with the same --score-games, --moments and --continuations"
            )
    if len(saved) != len(sample):
        sys.exit(f"{path}: {len(saved)} moments saved, {len(sample)} sampled: run with the same --moments")
    return {key: r["floor"] for key, r in saved.items()}


def paired_gap(rows: list[tuple[list[float], list[float], list[float], int, int]]) -> tuple[float, float]:
    """(Brier of a) - (Brier of b) over the sampled moments ((a, b, outcomes, n, game) each), and its
    standard error; b debiased when it is a rollout of n continuations (n > 1)."""

    def gap(a, b, y, n):
        return sum((p - t) ** 2 - (q - t) ** 2 + (q * (1 - q) / (n - 1) if n > 1 else 0.0) for p, q, t in zip(a, b, y))

    return ratio_mean([(gap(a, b, y, n), len(y), g) for a, b, y, n, g in rows])


def outcomes_part(rows: list[tuple[list[float], list[float], list[float], int, int]]) -> tuple[float, float]:
    """The debiased gap to the floor less the distance to it ((model, floor, outcomes, n, game) a
    moment): 2(p - q)(q - t), whose mean is -2 q(1 - q)/(n - 1), added back; mean 0 when the floor
    is each moment's chance. Its mean and standard error."""
    return ratio_mean([(sum(2 * (p - q) * (q - t) + 2 * q * (1 - q) / (n - 1) for p, q, t in zip(a, b, y)), len(y), g) for a, b, y, n, g in rows])


def ratio_mean(rows: list[tuple[float, int, int]]) -> tuple[float, float]:
    """The mean per player-moment row of sums over moments ((sum, rows, game) each), and its
    standard error: a ratio estimator over the games, since the moments of one game share its
    outcome and rise and fall together."""
    games: dict[int, list[float]] = {}
    for total, count, game in rows:
        g = games.setdefault(game, [0.0, 0])
        g[0] += total
        g[1] += count
    mean = sum(t for t, _ in games.values()) / sum(k for _, k in games.values())
    spread = statistics.pvariance([t - mean * k for t, k in games.values()]) if len(games) > 1 else 0.0
    return mean, math.sqrt(len(games) * spread) / sum(k for _, k in games.values())


def distance_to_floor(rows: list[tuple[list[float], list[float], int, int]]) -> tuple[float, float]:
    """The mean squared distance of the model's chances to the rollout floor's ((model, floor,
    continuations, game) a moment), less the floor's Monte Carlo noise (q(1-q)/(n-1)), and its standard
    error. With the floor each moment's chance, this is the model's expected Brier less the
    floor's, measured without the outcomes' noise."""
    return ratio_mean([(sum((p - q) ** 2 - q * (1 - q) / (n - 1) for p, q in zip(a, b)), len(a), g) for a, b, n, g in rows])


def vp_rows_at(state, reader: Reader) -> list[list[float]]:
    m = reader.moment(state)
    vp = reader.features.index("vp")
    root = 1 / math.sqrt(m.left + 0.25)
    return [[r[vp], r[vp] * root, r[vp] * m.left] for r in m.relative]


# --- speed ----------------------------------------------------------------------------------


def child(args: list[str]) -> tuple[float, float]:
    """CPU (user + system, from wait4) and wall seconds of one ktlog process."""
    t = time.perf_counter()
    proc = subprocess.Popen([KTLOG, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, args
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - t


def instructions(command: list[str]) -> int | None:
    """Instructions one process executes (valgrind's cachegrind), or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    proc = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    counted = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    assert counted, f"cachegrind printed no instruction count: {proc.stderr[-300:]}"
    return int(counted[1].replace(",", ""))


def speed(runs: int) -> bool:
    game_id, g = long_game(2000)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "long.db"
        with Store(db) as store:
            store.import_envelopes(game_id, g.sealed(game_id, "2026-06-01T18:00:00+00:00"))
        pairs = {"log": [], "analyse": []}
        for _ in range(runs):  # pair by pair, in turn
            pairs["log"].append(child(["--db", str(db), "log", game_id[:8]]))
            pairs["analyse"].append(child(["--db", str(db), "analyse", game_id[:8]]))
        logged, analysed = (instructions([KTLOG, "--db", str(db), name, game_id[:8]]) for name in ("log", "analyse"))
    print(f"\nreading a {len(g.events)}-event game ({runs} runs each, in turn; whole processes):")
    for name, got in pairs.items():
        cpu, wall = [c for c, _ in got], [w for _, w in got]
        print(
            f"  ktlog {name:<8} CPU min {min(cpu):.3f} s median {statistics.median(cpu):.3f} s   wall min {min(wall):.3f} s median {statistics.median(wall):.3f} s"
        )
    medians = statistics.median(c for c, _ in pairs["analyse"]) / statistics.median(c for c, _ in pairs["log"])
    ratio = statistics.median(a / b for (a, _), (b, _) in zip(pairs["analyse"], pairs["log"], strict=True))
    print(
        f"  ratio analyse / log (CPU): {ratio:.2f} the median of the {runs} pairs' (each analyse beside its log), {medians:.2f} of the medians; target at most 1.5"
    )
    if logged and analysed:
        print(
            f"  instructions (cachegrind, one run each): log {logged / 1e6:,.0f} million, analyse {analysed / 1e6:,.0f} million,"
            f" ratio {analysed / logged:.3f} (the work the CPU ratio swings around)"
        )
        rate = logged / statistics.median(c for c, _ in pairs["log"]) / 1e9
        print(f"  this machine ran `ktlog log` at {rate:.2f} billion instructions a CPU second in this run (to compare runs on a shared machine)")
    ok = ratio <= 1.5
    print("\na what-if of one moment: 200 continuations after the move made and 200 from the moment before it (in the process, CPU):")
    for ruleset in ("kt24-preliminary", "kt24-approved", "kt21"):
        records = speed_game(ruleset)
        for share in (0.25, 0.5, 0.75):
            seq = move_at(records, share)
            cpu = []
            for _ in range(max(1, runs // 2)):
                t = time.process_time()
                what_if(records, seq, 200)
                cpu.append(time.process_time() - t)
            ok &= statistics.median(cpu) < 2.0
            print(f"  {ruleset:<17} seq {seq:>3} of {len(records)}: CPU min {min(cpu):.2f} s median {statistics.median(cpu):.2f} s (target under 2 s)")
            if share == 0.25 and (counted := what_if_instructions(ruleset, share)):
                print(
                    f"    the what-if's instructions (cachegrind, its set-up taken off): {counted / 1e9:.2f} billion, under 2 s at"
                    f" {counted / 2e9:.2f} billion a CPU second or more; it ran at {counted / statistics.median(cpu) / 1e9:.2f} here"
                )
    return ok


MOVES_ASKED = ("Shot", "Fought", "Repositioned", "Dashed", "Charged", "MarkerSecured", "MarkerLooted", "NormalMoved")
"""The events a what-if of the speed part is asked about: a player's move."""


def speed_game(ruleset: str) -> list[tuple[int, object]]:
    """The speed part's game of `ruleset` (seed 8), its events by seq."""
    _, game = next(iter(simulate_games(1, 8, ruleset=ruleset)))
    return list(enumerate(game.events, 1))


def move_at(records: list[tuple[int, object]], share: float) -> int:
    """The seq of the first move at `share` of the game or after."""
    seq = int(len(records) * share)
    while type(records[seq - 1][1]).__name__ not in MOVES_ASKED:
        seq += 1
    return seq


def what_if_instructions(ruleset: str, share: float) -> int | None:
    """Instructions of the what-if at `share` of `ruleset`'s game, alone: a process that finds the
    moment and plays it, less one that only finds it (None without valgrind)."""
    child = "import sys; sys.path.insert(0, sys.argv[1]); import winprob_bench; winprob_bench.what_if_alone(*sys.argv[2:])"
    counted = [instructions([sys.executable, "-c", child, str(Path(__file__).parent), ruleset, str(share), play]) for play in ("play", "find")]
    return counted[0] - counted[1] if None not in counted else None


def what_if_alone(ruleset: str, share: str, play: str) -> None:
    """`what_if_instructions`' child process: the moment found, and its what-if played if `play` is "play"."""
    records = speed_game(ruleset)
    seq = move_at(records, float(share))
    if play == "play":
        what_if(records, seq, 200)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("quality", "speed", "all"), default="all")
    parser.add_argument("--rulesets", default=",".join(RULESETS_SCORED))
    parser.add_argument("--fit-games", type=int, default=2000)
    parser.add_argument("--score-games", type=int, default=400)
    parser.add_argument("--moments", type=int, default=300)
    parser.add_argument(
        "--calibration-games", type=int, default=2000, help="read the deciles over this many games of the second league (at least --score-games)"
    )
    parser.add_argument("--continuations", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--refit", action="store_true", help="fit the model here instead of scoring the shipped default")
    parser.add_argument("--score-seed", type=int, default=SCORE_SEED, help="the second league's seed")
    parser.add_argument("--rows", type=Path, help="write each sampled moment here as JSON lines, named RULESET-SEED.jsonl (a folder)")
    parser.add_argument("--floors", type=Path, help="read each sampled moment's floor from an earlier run's --rows folder instead of playing its rollouts")
    args = parser.parse_args()
    met = []
    if args.part in ("quality", "all"):
        met += [
            quality(
                r,
                args.fit_games,
                args.score_games,
                args.moments,
                args.continuations,
                args.refit,
                args.calibration_games,
                args.score_seed,
                args.rows / f"{r}-{args.score_seed}.jsonl" if args.rows else None,
                args.floors,
            )
            for r in args.rulesets.split(",")
        ]
    if args.part in ("speed", "all"):
        met.append(speed(args.runs))
    print("\nall targets met" if all(met) else "\nsome targets NOT met")
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
