"""Filtered statistics from a dataset (issue 40 #8): `ktlog stats standings|players|teams --league L
--season S --source DIR` reads the answer `ktlog dataset export` stored for that league and season
while it is of the files beside it, and any statistic whose filters name a league or a season
reads only the folders holding that league's games; the same figures and notes as from the
database either way. The hand-made league of tests/league.py: Autumn League 2026, Winter League
2026 and Winter League 2027, three partitions."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import polars as pl
import pytest
from click.testing import CliRunner
from league import league_fixture  # noqa: F401 (the `league` fixture)
from test_dataset import STATISTICS

from ktlog.analytics import answers, served
from ktlog.analytics import performance as performance_module
from ktlog.analytics import standings as standings_module
from ktlog.analytics.league import Filters, League
from ktlog.analytics.place import Place
from ktlog.cli import cli

SCOPES = [("Autumn League", "2026"), ("Winter League", "2026"), ("Winter League", "2027")]
FILTERS = [
    ("--league", "Winter League"),  # two seasons
    ("--season", "2026"),  # two leagues
    ("--league", "Winter League", "--season", "2027"),
    ("--league", "Autumn League", "--season", "2026", "--round", "2"),
    ("--league", "Autumn League", "--player", "Alice"),
    ("--league", "No Such League"),
]


def ktlog(db, *args, code: int = 0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    return result


@pytest.fixture(scope="module")
def exported(league, tmp_path_factory):
    folder = tmp_path_factory.mktemp("filtered") / "league"
    ktlog(league.db, "dataset", "export", folder)
    return folder


def test_an_answer_is_stored_for_each_league_and_season(exported):
    found = sorted(str(p.relative_to(exported / answers.ANSWERS)) for p in (exported / answers.ANSWERS).rglob("*.parquet"))
    assert found == sorted(
        [f"{n}.parquet" for n in answers.STATISTICS] + [f"{season}/{league}/{n}.parquet" for league, season in SCOPES for n in answers.STATISTICS]
    )


@pytest.mark.parametrize(("league_name", "season"), SCOPES)
def test_a_league_and_season_reads_its_stored_answer(league, exported, monkeypatch, league_name, season):
    filters = ("--league", league_name, "--season", season)
    expected = {name: ktlog(league.db, "stats", name, *filters, "--format", "csv") for name in answers.STATISTICS}

    def worked_out(*args) -> None:
        raise AssertionError("worked out, not read")

    monkeypatch.setattr(standings_module, "standings", worked_out)  # what `ktlog stats NAME` calls; the answers' own references are kept
    monkeypatch.setattr(performance_module, "entity_stats", worked_out)
    for name in answers.STATISTICS:
        read = ktlog(league.db, "stats", name, *filters, "--format", "csv", "--source", exported)
        assert (read.stdout, read.stderr) == (expected[name].stdout, expected[name].stderr) and read.stdout.count("\n") > 2
    assert "worked out, not read" in ktlog(league.db, "stats", "standings", *filters, "--round", "1", "--source", exported, code=1).output


def test_an_answer_of_files_since_changed_is_not_read(league, exported, tmp_path):
    copy = tmp_path / "league"
    shutil.copytree(exported, copy)
    results = sorted(copy.glob("game_results/2027/*/*.parquet"))[0]
    frame = pl.read_parquet(results)
    frame.with_columns(pl.col("vp_total") + 1).write_parquet(results)  # another league's file: the answers are of every file
    scoped = League(Place.of(copy), Filters(league="Autumn League", season="2026"))
    assert answers.stored_answer(scoped, "standings") is None
    assert answers.stored_answer(League(Place.of(exported), scoped.filters), "standings") is not None


@pytest.mark.parametrize("filters", FILTERS, ids=" ".join)
@pytest.mark.parametrize("args", STATISTICS, ids=" ".join)
def test_a_filtered_statistic_reads_only_its_leagues_folders_and_gives_the_databases_figures(league, exported, tmp_path, args, filters):
    copy = tmp_path / "league"
    shutil.copytree(exported, copy, ignore=shutil.ignore_patterns(answers.ANSWERS))  # worked out, not read
    code = 1 if "No Such League" in filters else 0
    from_db = ktlog(league.db, "stats", *args, *filters, "--format", "csv", code=code)
    from_dataset = ktlog(league.db, "stats", *args, *filters, "--format", "csv", "--source", copy, code=code)
    assert (from_dataset.stdout, from_dataset.stderr) == (from_db.stdout, from_db.stderr)


def test_the_folders_read(exported):
    def folders(**filters: str) -> set[str] | None:
        found = League(Place.of(exported), Filters(**filters)).folders
        return None if found is None else set(found)

    assert folders() is None
    assert folders(league="Winter League") == {"2026/Winter League", "2027/Winter League"}
    assert folders(season="2026") == {"2026/Autumn League", "2026/Winter League"}
    assert folders(league="Winter League", season="2027") == {"2027/Winter League"}
    assert folders(league="Spring League") == set()
    scoped = League(Place.of(exported), Filters(league="Autumn League"))
    assert {f.split("/")[-3] for f in scoped.files("vp_by_op")} == {"2026"} and len(scoped.files("vp_by_op")) == 1


SERVED = [((), "csv"), ((), "json"), (("--league", "Winter League", "--season", "2027"), "csv"), (("--league", "Autumn League", "--season", "2026"), "json")]


@pytest.mark.parametrize(("filters", "fmt"), SERVED)
@pytest.mark.parametrize("name", list(answers.STATISTICS))
def test_the_stored_text_is_served_without_polars_and_is_the_databases(league, exported, tmp_path, name, filters, fmt):
    """The answer's text stored beside it (`served`) is written without loading Polars, the
    same bytes and notes as the database's; a table written to a file too."""
    out = tmp_path / f"{name}.{fmt}"
    code = (
        "import sys; from ktlog.cli import main\n"
        f"sys.argv = ['ktlog', 'stats', {name!r}, '--source', {str(exported)!r}, *{list(filters)!r}, '--format', {fmt!r}, '--output', {str(out)!r}]\n"
        "try: main()\nexcept SystemExit: pass\n"
        "print('ktlog.analytics.served' in sys.modules, *(m in sys.modules for m in ('polars', 'ktlog.storage.store', 'ktlog.analytics.standings')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "False", "False"]
    expected = ktlog(league.db, "stats", name, *filters, "--format", fmt)
    assert out.read_text() == expected.stdout and done.stderr == expected.stderr
    table, whole = tmp_path / f"{name}.txt", tmp_path / f"{name}-wide.txt"
    ktlog(league.db, "stats", name, *filters, "--source", exported, "-o", table)  # a table for people: player_id left to --wide
    ktlog(league.db, "stats", name, *filters, "--source", exported, "--wide", "-o", whole)  # the stored text
    assert table.read_text() == ktlog(league.db, "stats", name, *filters).stdout
    assert whole.read_text() == ktlog(league.db, "stats", name, *filters, "--wide").stdout


def test_a_stored_text_edited_or_of_other_files_is_not_served(league, exported, tmp_path):
    copy = tmp_path / "league"
    shutil.copytree(exported, copy)
    place, scope = Place.of(copy), ("Autumn League", "2026")
    assert served.served_text(place, "standings", scope, "csv") is not None
    sidecar = copy / (served.answer_base("standings", scope) + served.SERVED)
    body = json.loads(sidecar.read_text())
    body["texts"]["csv"] = body["texts"]["csv"].replace("Alice", "Alicia")
    sidecar.write_text(json.dumps(body))
    assert served.served_text(place, "standings", scope, "csv") is None
    args = ("stats", "standings", "--league", "Autumn League", "--season", "2026", "--format", "csv")
    assert ktlog(league.db, *args, "--source", copy).stdout == ktlog(league.db, *args).stdout  # the Parquet answer, or worked out
    assert served.served_text(place, "players", scope, "csv") is not None
    results = sorted(copy.glob("game_results/2026/Winter League/*.parquet"))[0]
    pl.read_parquet(results).write_parquet(results, compression="uncompressed")  # the same rows, other bytes
    assert served.served_text(place, "players", scope, "csv") is None
    assert served.served_text(place, "players", scope, "parquet") is None  # binary: never served


def test_which_filters_are_answered():
    assert served.scope_of({"league": None, "season": None, "round": None}) == (None, None)
    assert served.scope_of({"league": "L", "season": "S", "player": None}) == ("L", "S")
    assert served.scope_of({"league": "L", "season": None}) is None
    assert served.scope_of({"league": "L", "season": "S", "round": "2"}) is None
    assert served.scope_of({"league": None, "season": None, "simulated": True}) is None
