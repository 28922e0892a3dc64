"""`ktlog dataset export DIR` and `ktlog stats ... --source DIR`: the league as a Parquet
dataset, the same figures from it as from the database, exported again only where new, and
read by DuckDB with its own SQL."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from league import league_fixture  # noqa: F401 (the `league` fixture)

from ktlog.cli import cli
from ktlog.play.simulate import simulate_into
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.store import Store

STATISTICS = [
    ("standings",),
    ("results",),
    ("players",),
    ("teams",),
    ("matchups",),
    ("matchups", "--long"),
    ("curves",),
    ("curves", "--comebacks"),
    ("ops",),
    ("dice",),
    ("dice", "--by", "weapon"),
    ("elo",),
]


def ktlog(db, *args, code: int = 0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    return result


@pytest.fixture(scope="module")
def exported(league, tmp_path_factory):
    folder = tmp_path_factory.mktemp("dataset") / "league"
    assert "wrote 3 partition(s) (13 games)" in ktlog(league.db, "dataset", "export", folder).stdout
    return folder


def files(folder):
    return {p.relative_to(folder): (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.rglob("*.parquet")}


@pytest.mark.parametrize("args", STATISTICS, ids=" ".join)
def test_every_statistic_is_the_same_from_the_dataset(league, exported, args):
    from_db = ktlog(league.db, "stats", *args, "--format", "csv")
    from_dataset = ktlog(league.db, "stats", *args, "--format", "csv", "--source", exported)
    assert from_dataset.stdout == from_db.stdout and from_dataset.stdout.count("\n") > 1
    assert from_dataset.stderr == from_db.stderr  # the game in progress is noted alike


def test_filters_apply_to_the_dataset_alike(league, exported):
    args = ("stats", "players", "--season", "2026", "--team", "Kasrkin", "--format", "json")
    assert ktlog(league.db, *args, "--source", exported).stdout == ktlog(league.db, *args).stdout


def test_the_layout_and_metadata(league, exported):
    meta = json.loads((exported / "metadata.json").read_text())
    assert meta["format"] == "ktlog-dataset" and meta["schema_version"] == SCHEMA_VERSION and meta["source_database"] == str(league.db.resolve())
    assert meta["last_position"] == Store(league.db).conn.execute("SELECT max(position) FROM events").fetchone()[0]
    assert sorted(str(p.parent.relative_to(exported)) for p in exported.glob("games/*/*/part-0.parquet")) == [
        "games/season=2026/league=Autumn League",
        "games/season=2026/league=Winter League",
        "games/season=2027/league=Winter League",
    ]
    for table in ("games", "game_results", "vp_by_op", "vp_changes", "attacks"):
        assert len(list((exported / table).glob("season=*/league=*/part-0.parquet"))) == 3


def test_run_again_it_adds_only_what_is_new(league, tmp_path):
    db, folder = tmp_path / "league.db", tmp_path / "dataset"
    shutil.copy(league.db, db)
    ktlog(db, "dataset", "export", folder)
    before = files(folder)
    assert "nothing new" in ktlog(db, "dataset", "export", folder).stdout
    assert files(folder) == before
    with Store(db) as store:
        simulate_into(store, 2, seed=4, league="Spring League")
    assert "wrote 1 partition(s) (2 games), kept 3" in ktlog(db, "dataset", "export", folder).stdout
    after = files(folder)
    new = {p for p in after if "Spring" in str(p)}
    assert len(new) == 9 and {p: after[p] for p in before} == before  # the other partitions untouched
    for args in (("standings",), ("results",), ("teams",)):
        assert ktlog(db, "stats", *args, "--format", "csv", "--source", folder).stdout == ktlog(db, "stats", *args, "--format", "csv").stdout


def test_another_database_or_filters_are_refused(league, exported, tmp_path):
    other = tmp_path / "other.db"
    shutil.copy(league.db, other)
    assert "holds an export of" in ktlog(other, "dataset", "export", exported, code=1).stderr
    assert "holds an export of" in ktlog(league.db, "dataset", "export", exported, "--season", "2026", code=1).stderr
    assert "is not a ktlog dataset" in ktlog(league.db, "stats", "standings", "--source", tmp_path, code=1).stderr


def test_duckdb_computes_the_same_standings(league, exported):
    """DuckDB reads the dataset with its own SQL (no ktlog code): wins, draws, losses and VP."""
    import duckdb

    def scan(table):
        return f"read_parquet('{exported}/{table}/*/*/*.parquet', hive_partitioning = false)"

    rows = duckdb.sql(f"""
        WITH r AS (
            SELECT r.game_key, r.player, r.result, r.vp_total FROM {scan("game_results")} r
            JOIN {scan("games")} g USING (game_key)
            WHERE g.status = 'finished'
        )
        SELECT me.player, count(*) AS games, sum((me.result = 'win')::INT) AS wins, sum((me.result = 'draw')::INT) AS draws,
               sum((me.result = 'loss')::INT) AS losses, sum(me.vp_total) AS vp_for, sum(them.vp_total) AS vp_against
        FROM r me JOIN r them ON me.game_key = them.game_key AND me.player != them.player
        GROUP BY me.player ORDER BY me.player
    """).fetchall()
    import polars as pl

    table = pl.read_csv(ktlog(league.db, "stats", "standings", "--format", "csv").stdout.encode())
    expected = table.select("player", "games", "wins", "draws", "losses", "vp_for", "vp_against").sort("player").rows()
    assert rows == expected and len(rows) == 5
