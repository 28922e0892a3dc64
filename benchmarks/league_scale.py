"""Issues 15, 26 and 40: `stats standings`, `players` and `teams` from a Parquet dataset (`--source
DIR`) of 1,000 to 1,000,000 games, each against DuckDB's SQL for the same figures over the same
files, timed in the same run, pair by pair; and the growth from the smallest size to the largest.

    .venv/bin/python benchmarks/league_scale.py [--games 1000,10000,100000,1000000] [--runs 3] [--figures stored|summed]
        [--part all|unfiltered|filtered] [--seasons N] [--compare CHECKOUT]

How the datasets are made: a 200-game league is simulated (`simulate_into`, every event through
the rules; not marked simulated, as a league of people) and exported with `ktlog dataset export`;
its tables are then repeated, each copy with new game keys (the games numbered) and ids, dates
moved on a day a copy, and players renamed per copy into a pool of 320 (16 simulated players x
20: `<name>-<copy % 20>`, in the result tables and in the games row alike, so ktlog's own checks
pass: checked at every size), so Elo rates many players over a long history. The league's Elo
is then stored in the dataset as `ktlog dataset export` stores it (`standings.store_elo`), and so
are the per-game figures (`figures.store_figures`; not with `--figures summed`, the way before
they were stored, when ktlog and DuckDB both sum them per query).

The statistics are computed the way `ktlog stats ... --source DIR` computes them (a fresh
`League` over the folder each time, reading through Polars `scan_parquet`). DuckDB computes the
same figures with its own SQL over the same files (reading the stored Elo and figures as ktlog
does, without ktlog's check that they are of the files beside them); its
answer is compared with ktlog's at the smallest size. CPU is the process's (every thread's) CPU
time; min and median of `--runs`, ktlog and DuckDB in turn.

Then each statistic as a league organiser runs it: the whole `ktlog stats NAME --source DIR`
process (start-up, the statistic, the quick integrity checks every statistic runs beside it, the
CSV written), `--runs` times each, ktlog's modules compiled to bytecode first as an install
has them (`startup_bench.compile_bytecode`): each reading the answers `ktlog dataset export`
stores (`analytics.answers`: the three without filters), and, in turn, working them out (the
answers moved away, as for any statistic with a filter); the two ways' CSVs must be the same
bytes. The 1,000,000-game target (<= 3 s together) is judged on these processes' median wall
times summed; what storing the answers adds to the export is printed beside them.

The filtered part (issue 40; `--part filtered` runs it alone): each of the three with `--league
L --season S` as the whole process an organiser runs, against a whole Python process running
DuckDB's SQL with the same filters over the same files and writing its CSV (`import duckdb` and
the query: what a user of DuckDB runs), in turn, pair by pair, `--runs` times: ktlog reading the
answer its export stored for that league and season (its CSV served without Polars, and the
Parquet answer through Polars), ktlog working it out (the answers moved away), and `--compare`'s
checkout (main before this work: `PYTHONPATH` to it, the process started
outside any checkout). The grown league is one league and season, so the filter names every game
(the Elo DuckDB reads, the league's stored one, is then the filtered league's); `--seasons N`
spreads its copies over N seasons, a partition each, the filter naming the first (DuckDB's Elo
and the standings' rank, which follows it, are then not compared). The ways' CSVs must be the
same bytes, and DuckDB's figures ktlog's at the smallest size.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl
from startup_bench import compile_bytecode

from ktlog.analytics.columns import PROJECTION_TABLES
from ktlog.analytics.dataset import export
from ktlog.analytics.integrity import suspicious_games
from ktlog.analytics.league import League
from ktlog.analytics.performance import entity_stats
from ktlog.analytics.place import Place
from ktlog.analytics.standings import standings
from ktlog.play.simulate import simulate_into
from ktlog.storage import catalog
from ktlog.storage.store import Store

try:  # the stored Elo (issue 26); absent in a checkout from before it, which computes Elo per query
    from ktlog.analytics.standings import store_elo
except ImportError:  # pragma: no cover
    store_elo = None  # type: ignore[assignment]
try:  # the stored answers (issue 26); absent before them, when every statistic is worked out per query
    from ktlog.analytics.answers import ANSWERS, store_answers
except ImportError:  # pragma: no cover
    ANSWERS, store_answers = "answers", None  # type: ignore[assignment]
try:  # the stored per-game figures (issue 26); absent before them, when both sum them per query
    from ktlog.analytics.figures import store_figures
except ImportError:  # pragma: no cover
    store_figures = None  # type: ignore[assignment]

BASE_GAMES = 200
TARGET_S = 3.0
TARGET_RATIO = 1.2
NAMED = {"player", "player_id", "player_name", "victim", "target_player", "by_player", "initiative", "winner"}
"""Columns holding player names and ids, renamed per copy (the games row's `players` list too)."""


def seed_dataset(tmp: Path) -> Path:
    db, folder = tmp / "seed.db", tmp / "seed"
    with Store(db) as store:
        simulate_into(store, BASE_GAMES, seed=1)
    export(db, Place.of(folder))
    return folder


def read(folder: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(sorted((folder / table).glob("*/*/*.parquet")), hive_partitioning=False)


def grow(seed: Path, games: int, out: Path, figures: bool = True, seasons: int = 1) -> Path:
    """`seed`'s tables repeated to `games` games, written as one partition per table (`seasons`
    above 1: copy c in season c % seasons + 1, a partition each); the Elo stored, and the
    per-game figures unless `figures` is False."""
    copies = -(-games // BASE_GAMES)
    base = {t: read(seed, t) for t in ("games", *PROJECTION_TABLES)}  # the stored figures are summed again below, as the Elo is rated
    hashed = base["games"].get_column("game_key").sort()
    span = len(hashed)
    for table, frame in base.items():
        frame = frame.with_columns(pl.col("game_key").replace_strict(hashed, range(span), return_dtype=pl.Int64))  # a dataset's keys are hashes: number them
        parts = []
        for copy in range(copies):
            suffix = f"-{copy % 20}"
            part = frame.with_columns(pl.col("game_key") + copy * span)
            if "game_id" in part.columns:
                part = part.with_columns(pl.format("{}-{}", pl.col("game_id").str.slice(0, 28), pl.lit(f"{copy:07d}")).alias("game_id"))
            if "date" in part.columns:
                part = part.with_columns(pl.col("date") + pl.duration(days=copy))
            part = part.with_columns([pl.col(c) + suffix for c in part.columns if c in NAMED])
            if table == "games":  # the names in the games row's list, as in the results
                part = part.with_columns(pl.col("players").list.eval(pl.element() + suffix))
            parts.append(part)
        grown = pl.concat(parts)
        keys = grown.get_column("game_key").unique().sort().head(games)
        grown = grown.filter(pl.col("game_key").is_in(keys.implode()))
        season = (pl.col("game_key") // span % seasons + 1).cast(pl.String)
        for label in range(1, seasons + 1):
            part = grown if seasons == 1 else grown.filter(season == str(label)).with_columns(season.alias("season") if "season" in grown.columns else [])
            target = out / table / str(label) / LEAGUE
            target.mkdir(parents=True)
            part.write_parquet(target / "part-0.parquet")
        del grown, parts
    (out / "metadata.json").write_text((seed / "metadata.json").read_text())
    (out / "verifications").mkdir()
    if store_elo is not None:
        store_elo(Place.of(out))
    if figures and store_figures is not None:
        store_figures(Place.of(out))
    problems = suspicious_games(League(Place.of(out)))
    if problems:
        raise SystemExit(f"the grown {games:,}-game dataset fails ktlog's checks: {len(problems)} games, the first {problems[0]}")
    return out


def scan(folder: Path, table: str) -> str:
    return f"read_parquet('{folder}/{table}/*/*/*.parquet', hive_partitioning = false)"


LEAGUE_GAMES = "SELECT game_key FROM {games} WHERE status = 'finished' AND NOT coalesce(pve, false) AND NOT coalesce(simulated, false){where}"
"""The games a league counts: without filters, or narrowed by `where` (`labelled`)."""
LEAGUE, SEASON = "Simulated League", "1"
"""The grown dataset's one league and season, which the filtered statistics name (as an organiser
names theirs: `--league L --season S`)."""


def labelled(league: str | None, season: str | None) -> str:
    """The SQL narrowing the league's games to a league and season (nothing when None)."""
    return "".join(f" AND {column} = '{value}'" for column, value in (("league", league), ("season", season)) if value is not None)


def league_games(folder: Path, where: str) -> str:
    return LEAGUE_GAMES.format(games=scan(folder, "games"), where=where)


def duckdb_standings(folder: Path, where: str = "") -> str:
    """The standings in DuckDB's SQL: the opponents' VP by a window (their mean with 3-4 players),
    the current Elo the stored one's last row per player."""
    return f"""
    WITH r AS (
        SELECT game_key, player, result, vp_total,
               (sum(vp_total) OVER w - vp_total) / (count(*) OVER w - 1) AS vp_against
        FROM {scan(folder, "game_results")} WHERE game_key IN ({league_games(folder, where)})
        WINDOW w AS (PARTITION BY game_key)
    ),
    elo AS (SELECT player, round(arg_max(elo, file_row_number))::BIGINT AS elo FROM read_parquet('{folder}/elo/*.parquet', file_row_number = true) GROUP BY player),
    t AS (
        SELECT player, count(*) AS games, count(*) FILTER (result = 'win') AS wins, count(*) FILTER (result = 'draw') AS draws,
               count(*) FILTER (result = 'loss') AS losses, sum(vp_total) AS vp_for, sum(vp_against) AS vp_against
        FROM r GROUP BY player
    )
    SELECT row_number() OVER (ORDER BY points DESC, vp_diff DESC, vp_for DESC, elo DESC, player) AS rank, player, games, wins, draws, losses,
           points, round(points / games, 3) AS win_rate, vp_for, vp_against, vp_diff, elo
    FROM (SELECT *, wins + 0.5 * draws AS points, vp_for - vp_against AS vp_diff FROM t LEFT JOIN elo USING (player))
    ORDER BY rank
    """


def stored(folder: Path, ops: list[str]) -> tuple[str, str]:
    """The per-game figures (VP by op, kills, CP, initiative) as the dataset stores them at export: read."""
    figures = (
        f"{', '.join(f'pg.vp_{op}' for op in ops)}, pg.enemies_incapacitated AS incapacitated, pg.operatives_lost AS lost, pg.cp_gained, pg.cp_spent,"
        " pg.turning_points AS tps, pg.turning_points_with_initiative AS with_initiative, pg.tp1_initiative AS tp1"
    )
    return figures, f"JOIN {scan(folder, 'player_games')} pg USING (game_key, game_id, player)"


def summed(folder: Path, ops: list[str]) -> tuple[str, str]:
    """The per-game figures summed from the projection tables (a dataset from before they were stored)."""
    vp = ", ".join(f"coalesce(sum(vp) FILTER (op = '{op}'), 0) AS vp_{op}" for op in ops)
    sums = {
        "ops": f"SELECT game_key, player, {vp} FROM {scan(folder, 'vp_by_op')} GROUP BY game_key, player",
        "lost": f"SELECT game_key, player, count(*) AS lost FROM {scan(folder, 'incapacitations')} GROUP BY game_key, player",
        "kills": f"SELECT game_key, count(*) AS kills FROM {scan(folder, 'incapacitations')} GROUP BY game_key",
        "cp": f"SELECT game_key, player, sum(greatest(delta, 0)) AS cp_gained, sum(-least(delta, 0)) AS cp_spent FROM {scan(folder, 'cp_changes')} GROUP BY game_key, player",
        "tps": f"SELECT game_key, count(*) AS tps FROM {scan(folder, 'turning_points')} GROUP BY game_key",
        "init": f"SELECT game_key, initiative AS player, count(*) AS with_initiative, bool_or(turning_point = 1) AS tp1 FROM {scan(folder, 'turning_points')} GROUP BY game_key, initiative",
    }
    on = {"ops": "game_key, player", "lost": "game_key, player", "kills": "game_key", "cp": "game_key, player", "tps": "game_key", "init": "game_key, player"}
    figures = (
        f"{', '.join(f'coalesce(ops.vp_{op}, 0) AS vp_{op}' for op in ops)}, coalesce(kills.kills, 0) - coalesce(lost.lost, 0) AS incapacitated,"
        " coalesce(lost.lost, 0) AS lost, coalesce(cp.cp_gained, 0) AS cp_gained, coalesce(cp.cp_spent, 0) AS cp_spent, coalesce(tps.tps, 0) AS tps,"
        " coalesce(init.with_initiative, 0) AS with_initiative, CASE WHEN tps.tps IS NULL THEN NULL ELSE coalesce(init.tp1, false) END AS tp1"
    )
    return figures, " ".join(f"LEFT JOIN ({sql}) {name} USING ({on[name]})" for name, sql in sums.items())


def duckdb_entities(folder: Path, by: str, ops: list[str], where: str = "") -> str:
    """`players` (by player) or `teams` (by kill_team, mirror matches left out of every figure,
    the most used ploys too: docs/statistics.md) in DuckDB's SQL."""
    z = 1.959964
    results = scan(folder, "game_results")
    figures, joins = (summed if not (folder / "player_games").is_dir() else stored)(folder, ops)
    mirror = "count(*) OVER w = 2 AND min(kill_team) OVER w = max(kill_team) OVER w"
    return f"""
    WITH r AS (
        SELECT game_key, game_id, player, kill_team, vp_total, kill_grade,
               CASE result WHEN 'win' THEN 1.0 WHEN 'draw' THEN 0.5 ELSE 0.0 END AS score, {mirror} AS mirror
        FROM {results} WHERE game_key IN ({league_games(folder, where)})
        WINDOW w AS (PARTITION BY game_key)
    ),
    g AS (
        SELECT r.*, {figures}
        FROM r {joins}
        {"WHERE NOT mirror" if by == "kill_team" else ""}
    ),
    ploys AS (
        SELECT {by}, string_agg(source || ' (' || uses || ')', ', ' ORDER BY uses DESC, source) FILTER (n <= 3) AS most_used_ploys FROM (
            SELECT {by}, source, count(*) AS uses, row_number() OVER (PARTITION BY {by} ORDER BY count(*) DESC, source) AS n
            FROM {scan(folder, "cp_changes")} c JOIN r USING (game_key, player)
            WHERE kind IN ('gambit', 'ploy', 'reroll') {"AND NOT mirror" if by == "kill_team" else ""} GROUP BY {by}, source
        ) GROUP BY {by}
    ),
    t AS (
        SELECT {by}, count(*) AS games, sum(score) / count(*) AS p, {", ".join(f"avg(vp_{op}) AS avg_vp_{op}" for op in (*ops, "total"))},
               avg(kill_grade) AS avg_kill_grade, avg(incapacitated) AS incapacitated_per_game, avg(lost) AS lost_per_game,
               avg(cp_gained) AS cp_gained_per_game, avg(cp_spent) AS cp_spent_per_game, sum(with_initiative) / sum(tps) AS initiative_rate,
               avg(score) FILTER (tp1) AS win_rate_tp1_initiative, avg(score) FILTER (NOT tp1) AS win_rate_no_tp1_initiative
        FROM g GROUP BY {by}
    )
    SELECT t.{by}, games, round(p, 3) AS win_rate,
           round((p + {z * z} / (2 * games)) / (1 + {z * z} / games) - {z} / (1 + {z * z} / games) * sqrt(p * (1 - p) / games + {z * z} / (4 * games * games)), 3) AS win_rate_low,
           round((p + {z * z} / (2 * games)) / (1 + {z * z} / games) + {z} / (1 + {z * z} / games) * sqrt(p * (1 - p) / games + {z * z} / (4 * games * games)), 3) AS win_rate_high,
           {", ".join(f"round(avg_vp_{op}, 3) AS avg_vp_{op}" for op in (*ops, "total"))},
           round(avg_kill_grade, 3) AS avg_kill_grade, round(incapacitated_per_game, 3) AS incapacitated_per_game, round(lost_per_game, 3) AS lost_per_game,
           round(cp_gained_per_game, 3) AS cp_gained_per_game, round(cp_spent_per_game, 3) AS cp_spent_per_game, round(initiative_rate, 3) AS initiative_rate,
           round(win_rate_tp1_initiative, 3) AS win_rate_tp1_initiative, round(win_rate_no_tp1_initiative, 3) AS win_rate_no_tp1_initiative, most_used_ploys
           {", (SELECT count(DISTINCT game_id) FROM r WHERE r.kill_team = t.kill_team AND mirror) AS mirror_games" if by == "kill_team" else ""}
    FROM t LEFT JOIN ploys USING ({by})
    ORDER BY p DESC, games DESC, t.{by}
    """


def ops_of(folder: Path) -> list[str]:
    """The ops the dataset scores, as the statistics' VP columns list them."""
    scored = set(pl.scan_parquet(f"{folder}/vp_by_op/*/*/*.parquet").select(pl.col("op").unique()).collect().to_series())
    return [*catalog.OPS, *sorted(scored - set(catalog.OPS))]


def duckdb_sql(folder: Path, name: str, ops: list[str], where: str = "") -> str:
    """DuckDB's SQL for `ktlog stats NAME` (standings, players, teams)."""
    return duckdb_standings(folder, where) if name == "standings" else duckdb_entities(folder, "player" if name == "players" else "kill_team", ops, where)


def ways(folder: Path) -> dict[str, tuple[Callable[[], pl.DataFrame], Callable[[], pl.DataFrame]]]:
    """Each statistic: ktlog's, and DuckDB's over the same files."""
    import duckdb

    ops = ops_of(folder)

    def sql(text: str) -> Callable[[], pl.DataFrame]:
        def run() -> pl.DataFrame:  # a few hundred rows: through Python objects, as pyarrow is not installed
            answer = duckdb.sql(text)
            return pl.DataFrame(answer.fetchall(), schema=answer.columns, orient="row", infer_schema_length=None)

        return run

    return {
        "standings": (lambda: standings(League(Place.of(folder))), sql(duckdb_sql(folder, "standings", ops))),
        "players": (lambda: entity_stats(League(Place.of(folder)), "player"), sql(duckdb_sql(folder, "players", ops))),
        "teams": (lambda: entity_stats(League(Place.of(folder)), "kill_team"), sql(duckdb_sql(folder, "teams", ops))),
    }


def same_figures(ours: pl.DataFrame, theirs: pl.DataFrame, name: str, but: tuple[str, ...] = ()) -> None:
    """DuckDB's answer is ktlog's: the same rows in the same order, numbers to the last digit
    rounded (Polars rounds a half to even, DuckDB away from zero: 2.0625 is 2.062 and 2.063);
    ktlog's `player_id` (issue 27's identities, which the SQL does not work out) aside, and the
    columns `but` (then in the players' order)."""
    ours = ours.drop("player_id", *but, strict=False)
    theirs = theirs.select(ours.columns)
    if but:
        ours, theirs = ours.sort("player"), theirs.sort("player")
    for column in ours.columns:
        a, b = ours.get_column(column), theirs.get_column(column)
        equal = (
            (a.cast(pl.Float64) - b.cast(pl.Float64)).abs().fill_null(0).max() <= 1.001e-3 and a.is_null().equals(b.is_null())
            if a.dtype.is_numeric()
            else a.equals(b)
        )
        if not equal:
            raise SystemExit(f"{name}: DuckDB's {column} differs from ktlog's:\n{ours.select(column).head(5)}\n{theirs.select(column).head(5)}")


def as_a_user_runs_it(
    folder: Path, name: str, answers: bool, filters: tuple[str, ...] = (), checkout: Path | None = None, fmt: str = "csv"
) -> tuple[float, float, bytes]:
    """CPU and wall seconds of the whole `ktlog stats NAME --source FOLDER [FILTERS]` process (its
    start, the statistic or its stored answer, the checks it runs beside it, the file written), as
    a league organiser runs it, and the file it wrote; `answers` False: with the dataset's stored
    answers moved away, so it works the statistic out; `checkout`: another checkout's ktlog."""
    stored, away = folder / ANSWERS, folder.with_name(f"{folder.name} answers")
    if not answers and stored.exists():
        stored.rename(away)
    try:
        with tempfile.TemporaryDirectory() as out:
            target = f"{out}/{name}.{fmt}"
            command = [sys.executable, "-m", "ktlog", "stats", name, "--source", str(folder), *filters, "--format", fmt, "--output", target]
            env = {**os.environ, "PYTHONPATH": str(checkout)} if checkout else None
            return *timed_process(command, env, cwd=out), Path(target).read_bytes()
    finally:
        if away.exists():
            away.rename(stored)


def duckdb_as_a_user_runs_it(folder: Path, name: str, ops: list[str], where: str) -> tuple[float, float, bytes]:
    """CPU and wall seconds of a whole Python process running DuckDB's SQL for `ktlog stats NAME`
    over the same files (narrowed by `where`) and writing its CSV, as a user of DuckDB runs it; and
    the file it wrote."""
    with tempfile.TemporaryDirectory() as out:
        target = f"{out}/{name}.csv"
        script = f"import duckdb\nduckdb.sql({duckdb_sql(folder, name, ops, where)!r}).write_csv({target!r})"
        return *timed_process([sys.executable, "-c", script]), Path(target).read_bytes()


def timed_process(command: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> tuple[float, float]:
    """The CPU (user + system, its children's) and wall seconds of a process run to its end (in
    `cwd`: `python -m ktlog` in a checkout would take that checkout's ktlog before PYTHONPATH's)."""
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=cwd)
    wall, after = time.perf_counter() - wall, resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def filtered_processes(folder: Path, n: int, runs: int, compare: Path | None, check: bool, seasons: int = 1) -> None:
    """Issue 40: `ktlog stats standings|players|teams --league L --season S --source DIR` as whole
    processes against a whole Python process running DuckDB's SQL with the same filters over the
    same files, each statistic's ways in turn, pair by pair: ktlog reading the answer stored for
    the league and season (its text, served without loading Polars; and through Polars, as
    `--format parquet` and a terminal's table read it), ktlog working it out (the answers moved
    away), and with `compare`
    another checkout's ktlog (main before this work). `check`: DuckDB's CSV has ktlog's figures
    (with `seasons` above 1 but the standings' Elo and rank: a league and season's Elo is that of
    its games, which SQL does not rate; DuckDB reads the league's stored one, as without filters)."""
    filters, where, ops = ("--league", LEAGUE, "--season", SEASON), labelled(LEAGUE, SEASON), ops_of(folder)
    ways_run: dict[str, Callable[[str], tuple[float, float, bytes]]] = {
        "ktlog, the stored answer": lambda name: as_a_user_runs_it(folder, name, True, filters),
        "ktlog, the stored answer through Polars (--format parquet)": lambda name: as_a_user_runs_it(folder, name, True, filters, fmt="parquet"),
        "ktlog, worked out": lambda name: as_a_user_runs_it(folder, name, False, filters),
        **({f"ktlog at {compare.name}": lambda name: as_a_user_runs_it(folder, name, True, filters, compare)} if compare else {}),
        "DuckDB": lambda name: duckdb_as_a_user_runs_it(folder, name, ops, where),
    }
    for name in ("standings", "players", "teams"):
        timings: dict[str, list[tuple[float, float, bytes]]] = {way: [] for way in ways_run}
        for _ in range(runs):  # the ways in turn
            for way, run in ways_run.items():
                timings[way].append(run(name))
        duck = timings.pop("DuckDB")
        if check:
            but = ("rank", "elo") if seasons > 1 and name == "standings" else ()
            same_figures(pl.read_csv(timings["ktlog, the stored answer"][0][2]), pl.read_csv(duck[0][2]), f"{name} --league --season", but)
        if len({run[2] for way, done in timings.items() if not way.startswith("ktlog at") and "parquet" not in way for run in done}) != 1:
            raise SystemExit(f"{name} --league --season at {n:,} games: the ways' CSVs differ")
        if compare and timings[f"ktlog at {compare.name}"][0][2] != timings["ktlog, the stored answer"][0][2]:
            print(f"({name}: the CSV of ktlog at {compare.name} differs from this checkout's)", flush=True)
        d_cpu, d_wall = [c for c, _, _ in duck], [w for _, w, _ in duck]
        for way, done in timings.items():
            cpu, wall = [c for c, _, _ in done], [w for _, w, _ in done]
            ratio = statistics.median(cpu) / statistics.median(d_cpu)
            pairs = [c / d for c, d in zip(cpu, d_cpu)]
            mark = f" ({'met' if ratio <= TARGET_RATIO else 'not met'}: <= {TARGET_RATIO}x)" if n == 100_000 and way == "ktlog, the stored answer" else ""
            print(
                f"| {n:,} | {name} --league --season, {way} | {spread(cpu)} | {spread(d_cpu)} | {ratio:.2f}x{mark}; pairs {spread(pairs)} "
                f"| {spread(wall)} | {spread(d_wall)} | {statistics.median(wall) / statistics.median(d_wall):.2f}x |",
                flush=True,
            )


def timed(run: Callable[[], object]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def spread(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", default="1000,10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--figures", choices=["stored", "summed"], default="stored", help="summed: no stored per-game figures, both sum them per query (as before)"
    )
    parser.add_argument(
        "--part",
        choices=["all", "unfiltered", "filtered"],
        default="all",
        help="filtered: only the statistics with --league and --season as processes against DuckDB's (issue 40); unfiltered: all but those",
    )
    parser.add_argument("--compare", metavar="CHECKOUT", type=Path, help="another checkout's ktlog, timed in turns in the filtered part")
    parser.add_argument("--seasons", type=int, default=1, help="the grown league's seasons, a partition each: the filtered statistics name the first")
    args = parser.parse_args()
    sizes = [int(n) for n in args.games.split(",")]
    compile_bytecode(None, *([args.compare] if args.compare else []))  # its `ktlog stats` processes start as an installed ktlog's do
    print("CPU and wall seconds, min / median of", args.runs, f"runs; ktlog and DuckDB in turn, same process, same files; per-game figures {args.figures}")
    print("| games | statistic | ktlog CPU | DuckDB CPU | CPU ratio (medians) | ktlog wall | DuckDB wall | wall ratio |")
    print("|---|---|---|---|---|---|---|---|")
    together: dict[int, float] = {}
    whole: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        seed = seed_dataset(tmp)
        for n in sizes:
            league = grow(seed, n, tmp / f"league-{n}", figures=args.figures == "stored", seasons=args.seasons)
            if args.part != "filtered":
                unfiltered(league, n, args.runs, sizes, together, whole)
            if args.part != "unfiltered":
                if store_answers is not None:  # as `ktlog dataset export` does last (stored already after the unfiltered part)
                    cpu, wall = timed(lambda league=league: store_answers(Place.of(league)))
                    print(f"| {n:,} | storing the answers without filters and of each league and season ({args.seasons}) | {cpu:.3f} | | | {wall:.3f} | | |")
                compare = args.compare.resolve() if args.compare else None
                filtered_processes(league, n, args.runs, compare, check=n == sizes[0], seasons=args.seasons)
            shutil.rmtree(league)  # 1,000,000 games take about a gigabyte
    first = sizes[0]
    if together:
        print("Growth of the three together (median wall):", ", ".join(f"{n:,}: {s:.3f} s ({s / together[first]:.1f}x)" for n, s in together.items()))
        print("Growth of the three processes, as exported (median wall):", ", ".join(f"{n:,}: {s:.3f} s ({s / whole[first]:.1f}x)" for n, s in whole.items()))
    return 0


def unfiltered(league: Path, n: int, runs_asked: int, sizes: list[int], together: dict[int, float], whole: dict[int, float]) -> None:
    """Issues 15 and 26: each statistic without filters as a function against DuckDB's SQL, then
    the three as whole processes, their answers worked out and read."""
    total = 0.0
    for name, (ours, duck) in ways(league).items():
        if n == sizes[0]:
            same_figures(ours(), duck(), name)
        runs = [(timed(ours), timed(duck)) for _ in range(runs_asked)]
        k_cpu, d_cpu = [k[0] for k, _ in runs], [d[0] for _, d in runs]
        k_wall, d_wall = [k[1] for k, _ in runs], [d[1] for _, d in runs]
        ratio = statistics.median(k_cpu) / statistics.median(d_cpu)
        mark = f" ({'met' if ratio <= TARGET_RATIO else 'not met'}: <= {TARGET_RATIO}x)" if n == 100_000 else ""
        wall_ratio = statistics.median(k_wall) / statistics.median(d_wall)
        print(
            f"| {n:,} | {name} | {spread(k_cpu)} | {spread(d_cpu)} | {ratio:.2f}x{mark} | {spread(k_wall)} | {spread(d_wall)} | {wall_ratio:.2f}x |",
            flush=True,
        )
        total += statistics.median(k_wall)
    together[n] = total
    print(f"| {n:,} | the three together, ktlog (median wall) | | | | {total:.3f} | | |", flush=True)
    if store_answers is not None:
        cpu, wall = timed(lambda league=league: store_answers(Place.of(league)))
        print(f"| {n:,} | storing the three answers, as `ktlog dataset export` does last | {cpu:.3f} | | | {wall:.3f} | | |", flush=True)
    ways_run = {"worked out": False, **({"their stored answers read": True} if store_answers is not None else {})}
    processes: dict[str, dict[str, list[tuple[float, float, bytes]]]] = {way: {} for way in ways_run}
    for _ in range(runs_asked):  # the two ways in turn
        for name in ("standings", "players", "teams"):
            for way, answers in ways_run.items():
                processes[way].setdefault(name, []).append(as_a_user_runs_it(league, name, answers))
    for name, runs in processes["worked out"].items():
        if any(run[2] != runs[0][2] for way in processes.values() for run in way[name]):
            raise SystemExit(f"{name} at {n:,} games: the stored answer's CSV differs from the one worked out")
    for way, by_name in processes.items():
        cpu = sum(statistics.median(c for c, _, _ in runs) for runs in by_name.values())
        wall = sum(statistics.median(w for _, w, _ in runs) for runs in by_name.values())
        whole[n] = wall
        target = f" ({'met' if wall <= TARGET_S else 'not met'}: <= {TARGET_S:.0f} s)" if n == 1_000_000 else ""
        each = ", ".join(f"{name} {spread([c for c, _, _ in runs])} / {spread([w for _, w, _ in runs])}" for name, runs in by_name.items())
        print(f"| {n:,} | the three as `ktlog stats` processes, {way} (CPU / wall: {each}) | {cpu:.3f} | | | {wall:.3f}{target} | | |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
