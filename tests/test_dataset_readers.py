"""The dataset as other tools read it with their default settings (issue 27): Polars, DuckDB,
pandas and pyarrow see the same rows and the types `metadata.json` gives; labels a reader
would hide or mistype stay whole; docs/dataset.md lists every column and its DuckDB query gives
`ktlog stats standings`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
from league import league_fixture  # noqa: F401 (the `league` fixture)
from test_dataset import (
    exported_fixture,  # noqa: F401 (the `exported` fixture: the league's dataset)
    ktlog,
)

from ktlog.analytics.columns import TABLES
from ktlog.play.simulate import simulate_into
from ktlog.storage.store import Store

DOC = Path(__file__).resolve().parent.parent / "docs" / "dataset.md"


@pytest.mark.parametrize("table", TABLES)
def test_four_readers_read_every_table_with_their_defaults(exported, table):
    meta = json.loads((exported / "metadata.json").read_text())["schema"][table]
    arrow = pq.read_table(exported / table)
    assert {f.name: str(f.type) for f in arrow.schema} == meta  # no column added from a folder name, none of another type
    frame = pl.read_parquet(exported / table)
    panda = pd.read_parquet(exported / table)
    duck = duckdb.sql(f"SELECT * FROM '{exported}/{table}/*/*/*.parquet'")
    assert frame.columns == list(panda.columns) == duck.columns == list(meta)
    assert frame.height == len(panda) == arrow.num_rows == duck.count("*").fetchall()[0][0]
    assert frame.height or table == "verifications"


def test_the_types_each_reader_sees(exported):
    """The league's seasons are all numbers ("2026", "2027"): text to every reader all the same."""
    games = pl.read_parquet(exported / "games")
    assert games.schema["season"] == pl.String and games.schema["date"] == pl.Date and games.schema["pve"] == pl.Boolean
    assert games.schema["players"] == pl.List(pl.String) and games.schema["created_at"] == pl.Datetime("us", "UTC")
    g01 = games.filter(pl.col("game_id").str.starts_with("01")).row(0, named=True)
    assert (g01["season"], str(g01["date"]), g01["players"], g01["pve"]) == ("2026", "2026-09-05", ["Alice", "Bob"], False)
    panda = pd.read_parquet(exported / "games")
    assert panda["season"].map(type).eq(str).all() and panda["pve"].dtype == bool
    assert list(panda.sort_values("game_id")["players"].iloc[0]) == ["Alice", "Bob"]
    types = {r[0]: r[1] for r in duckdb.sql(f"DESCRIBE SELECT season, date, pve, players, created_at FROM '{exported}/games/*/*/*.parquet'").fetchall()}
    assert types == {"season": "VARCHAR", "date": "DATE", "pve": "BOOLEAN", "players": "VARCHAR[]", "created_at": "TIMESTAMP WITH TIME ZONE"}
    results = pl.read_parquet(exported / "game_results")
    assert set(results.get_column("result")) == {"win", "draw", "loss"}
    alice = results.filter(pl.col("game_id").str.starts_with("01") & (pl.col("player") == "Alice")).row(0, named=True)
    assert alice["opponents"] == ["Bob"] and alice["result"] == "win"


def test_results_csv_and_the_dataset_share_the_result_words(league, exported):
    csv = pl.read_csv(ktlog(league.db, "stats", "results", "--format", "csv").stdout.encode())
    dataset = pl.read_parquet(exported / "game_results")
    pairs = csv.select("game_id", "player", "result").join(dataset.select("game_id", "player", "result"), on=["game_id", "player"])
    assert pairs.height == csv.height == 24 and pairs.filter(pl.col("result") != pl.col("result_right")).is_empty()


def test_labels_a_reader_would_hide_or_split_stay_whole(tmp_path):
    """pyarrow and Spark skip a folder starting with `_` or `.`; a `/` would split a folder; a
    missing season has a folder of its own. Every reader still sees every game."""
    db, folder = tmp_path / "odd.db", tmp_path / "odd"
    with Store(db) as store:
        for i, league_label in enumerate(("_practice", ".hidden", "North/South", "a=b", "~")):
            simulate_into(store, 1, seed=60 + i, league=league_label)
        store.conn.execute("UPDATE games SET season = NULL WHERE league = 'a=b'")
    ktlog(db, "dataset", "export", folder, "--simulated")
    folders = sorted(str(p.relative_to(folder / "games")) for p in (folder / "games").glob("*/*"))
    assert folders == ["1/%2Ehidden", "1/%5Fpractice", "1/%7E", "1/North%2FSouth", "~/a%3Db"]
    leagues = {"_practice", ".hidden", "North/South", "a=b", "~"}
    assert set(pq.read_table(folder / "games").column("league").to_pylist()) == leagues
    assert set(pd.read_parquet(folder / "games")["league"]) == leagues
    assert set(pl.read_parquet(folder / "games").get_column("league")) == leagues
    assert {r[0] for r in duckdb.sql(f"SELECT league FROM '{folder}/games/*/*/*.parquet'").fetchall()} == leagues
    standings = ("stats", "standings", "--simulated", "--format", "csv")
    assert ktlog(db, *standings, "--source", folder).stdout == ktlog(db, *standings).stdout


def test_docs_list_every_column_with_its_type(exported):
    """docs/dataset.md's column tables are the metadata's schema, table by table."""
    schema = json.loads((exported / "metadata.json").read_text())["schema"]
    text = DOC.read_text()
    documented = {}
    for table in TABLES:
        section = text.split(f"### {table}", 1)[1].split("###", 1)[0]
        documented[table] = dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", section, re.M))
    assert documented == schema


def test_the_docs_duckdb_query_gives_the_standings(league, tmp_path):
    """The league and Joint Ops games (whose `NPOs` side is no player): the query in
    docs/dataset.md finds what `ktlog stats standings` finds."""
    db, folder = tmp_path / "league.db", tmp_path / "league-dataset"
    shutil.copy(league.db, db)
    with Store(db) as store:
        simulate_into(store, 3, seed=8, league="Autumn League", ruleset="kt24-joint")
        store.conn.execute("UPDATE games SET simulated = 0")  # as a league's own Joint Ops games
    ktlog(db, "dataset", "export", folder)
    query = re.search(r"```sql\n(.*?)```", DOC.read_text(), re.S).group(1).replace("'league-dataset/", f"'{folder}/")
    assert "NPOs" in {r[0] for r in duckdb.sql(query.replace("AND NOT g.pve", "")).fetchall()}  # the filter is needed
    rows = duckdb.sql(query).fetchall()
    table = pl.read_csv(ktlog(db, "stats", "standings", "--format", "csv").stdout.encode())
    expected = table.select("player", "games", "wins", "draws", "losses", "vp_for", "vp_against").sort("player").rows()
    assert [(*r[:6], int(r[6])) for r in rows] == expected and len(rows) == 5
