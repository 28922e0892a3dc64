"""`ktlog dataset export s3://BUCKET/PREFIX` and `ktlog stats ... --source s3://...` against a
local S3-compatible server started here (moto's server mode), with credentials given the usual
way (the AWS_* variables); and DuckDB reading what was written."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import boto3
import duckdb
import pytest
from league import league_fixture  # noqa: F401 (the `league` fixture)
from moto.server import ThreadedMotoServer
from test_dataset import ktlog

STATISTICS = [("standings",), ("results",), ("players",), ("teams",), ("matchups",), ("curves",), ("ops",), ("dice",), ("elo",)]
DOC = Path(__file__).resolve().parent.parent / "docs" / "dataset.md"


@pytest.fixture(scope="module")
def s3():
    """A moto server on a free port, and the environment that points boto3 and Polars at it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {
        "AWS_ACCESS_KEY_ID": "ktlog-test",
        "AWS_SECRET_ACCESS_KEY": "ktlog-test-secret",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_CONFIG_FILE": "/nonexistent",
        "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
    }
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        client = boto3.client("s3")
        client.create_bucket(Bucket="league")
        yield client
    server.stop()


@pytest.fixture(scope="module")
def exported(s3, league):
    out = json.loads(ktlog(league.db, "dataset", "export", "s3://league/circuit/2026", "--json").stdout)
    assert out == {"dataset": "s3://league/circuit/2026", "partitions_written": 3, "partitions_kept": 0, "games": 13, "last_position": out["last_position"]}
    return "s3://league/circuit/2026"


def keys(s3, prefix="circuit/"):
    return {o["Key"]: o["ETag"] for o in s3.list_objects_v2(Bucket="league", Prefix=prefix).get("Contents", ())}


@pytest.mark.parametrize("args", STATISTICS, ids=" ".join)
def test_every_statistic_from_object_storage(league, exported, args):
    from_db = ktlog(league.db, "stats", *args, "--format", "csv")
    from_s3 = ktlog(league.db, "stats", *args, "--format", "csv", "--source", exported)
    assert from_s3.stdout == from_db.stdout and from_s3.stdout.count("\n") > 1


def test_the_layout_in_the_bucket_and_a_second_export(s3, league, exported):
    written = keys(s3)
    assert "circuit/2026/metadata.json" in written and "circuit/2026/games/2026/Autumn League/" in "".join(written)
    # 9 tables and the stored figures in 3 partitions, the stored Elo, the answers without filters and of each partition's league and season
    assert len([k for k in written if k.endswith(".parquet")]) == 3 * 10 + 1 + 3 + 3 * 3
    assert "circuit/2026/elo/elo.parquet" in written and "circuit/2026/answers/standings.parquet" in written
    assert "nothing new" in ktlog(league.db, "dataset", "export", exported).stdout
    parquet = {k: v for k, v in written.items() if k.endswith(".parquet")}
    assert {k: v for k, v in keys(s3).items() if k.endswith(".parquet")} == parquet  # no file rewritten
    meta = json.loads(s3.get_object(Bucket="league", Key="circuit/2026/metadata.json")["Body"].read())
    assert meta["layout"] == 2 and list(meta["schema"]) == meta["tables"]


def test_duckdb_reads_what_was_written(s3, league, exported, tmp_path):
    """The docs' standings query on a copy of the bucket's files, equal to `ktlog stats
    standings`; on the s3:// address itself when DuckDB's httpfs extension is installed (it is
    downloaded from the internet the first time, which this test does not ask for)."""
    import polars as pl

    for key in keys(s3):
        local = tmp_path / key
        local.parent.mkdir(parents=True, exist_ok=True)
        s3.download_file("league", key, str(local))
    query = re.search(r"```sql\n(.*?)```", DOC.read_text(), re.S).group(1)
    rows = duckdb.sql(query.replace("'league-dataset/", f"'{tmp_path}/circuit/2026/")).fetchall()
    table = pl.read_csv(ktlog(league.db, "stats", "standings", "--format", "csv").stdout.encode())
    expected = table.select("player", "games", "wins", "draws", "losses", "vp_for", "vp_against").sort("player").rows()
    assert [(*r[:6], int(r[6])) for r in rows] == expected
    con = duckdb.connect()
    try:
        con.execute("LOAD httpfs")
    except duckdb.Error:
        pytest.skip("DuckDB's httpfs extension is not installed (INSTALL httpfs downloads it); read from a copy only")
    endpoint = s3.meta.endpoint_url.removeprefix("http://")
    con.execute(f"CREATE SECRET (TYPE s3, KEY_ID 'ktlog-test', SECRET 'ktlog-test-secret', ENDPOINT '{endpoint}', URL_STYLE 'path', USE_SSL false)")
    assert con.sql(query.replace("'league-dataset/", "'s3://league/circuit/2026/")).fetchall() == rows


def test_without_credentials_or_with_a_missing_bucket_it_says_so(s3, league, monkeypatch):
    assert "cannot" in ktlog(league.db, "dataset", "export", "s3://no-such-bucket/x", code=1).stderr
    assert "is not a ktlog dataset" in ktlog(league.db, "stats", "standings", "--source", "s3://league/nothing-here", code=1).stderr
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    refused = ktlog(league.db, "dataset", "export", "s3://league/other", code=1).stderr
    assert "no AWS credentials found" in refused and "Traceback" not in refused
    assert "s3://BUCKET/PREFIX" in ktlog(league.db, "dataset", "export", "gs://league/x", code=1).stderr


def test_labels_escaped_in_keys_read_back(s3, tmp_path):
    """A label's `/`, `:` and `%` are %XX in the key (as in a folder name): Polars reads the key as
    it is, not decoded."""
    from ktlog.play.simulate import simulate_into
    from ktlog.storage.store import Store

    db = tmp_path / "odd.db"
    with Store(db) as store:
        simulate_into(store, 2, seed=70, league="North/South: 100%")
        simulate_into(store, 1, seed=71, league="_practice")
    ktlog(db, "dataset", "export", "s3://league/odd", "--simulated")
    assert any("/North%2FSouth%3A 100%25/" in k for k in keys(s3, "odd/"))
    standings = ("stats", "standings", "--simulated", "--format", "csv")
    assert ktlog(db, *standings, "--source", "s3://league/odd").stdout == ktlog(db, *standings).stdout


def test_the_stored_figures_are_read_from_the_bucket(exported):
    """The per-game figures stored beside each partition's files in the bucket are of those very
    files (their fingerprint read back from the bucket), so the statistics read them."""
    from ktlog.analytics.figures import stored_figures
    from ktlog.analytics.league import League
    from ktlog.analytics.place import Place

    league = League(Place.of(exported))
    assert stored_figures(league) is not None and league.figures.height == league.result_rows.height > 0


def test_the_answers_are_read_from_the_bucket(exported):
    """The answers stored in the bucket are of its files (their fingerprint worked out from the
    bucket's bytes), so `ktlog stats` without filters reads them, and they are what it works out."""
    from ktlog.analytics.answers import STATISTICS, stored_answer
    from ktlog.analytics.league import League
    from ktlog.analytics.place import Place

    for name, statistic in STATISTICS.items():
        answer = stored_answer(League(Place.of(exported)), name)
        assert answer is not None and answer[0].height > 0 and answer[0].equals(statistic(League(Place.of(exported))))


def test_a_file_read_if_there_is_one_in_one_request(s3):
    """`read_if_any`: the bytes, or None for a key that is not there (one GET, no LIST before it);
    any other refusal is said, naming what could not be read."""
    from ktlog.analytics.place import Place
    from ktlog.errors import KtlogError

    s3.put_object(Bucket="league", Key="probe/here.json", Body=b"{}")
    place = Place.of("s3://league/probe")
    assert place.read_if_any("here.json") == b"{}"
    assert place.read_if_any("not-here.json") is None
    with pytest.raises(KtlogError, match="s3://no-such-bucket/probe/here.json"):
        Place.of("s3://no-such-bucket/probe").read_if_any("here.json")
