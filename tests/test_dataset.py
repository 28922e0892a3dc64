"""`ktlog dataset export DIR` and `ktlog stats ... --source DIR`: the league as a Parquet
dataset, the same figures from it as from the database, exported again only where new, and
read by DuckDB with its own SQL."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clubs import merge_clubs
from league import league_fixture  # noqa: F401 (the `league` fixture)

from ktlog.analytics import answers
from ktlog.analytics.dataset import dataset_key, source_name
from ktlog.analytics.standings import STORED_ELO
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


@pytest.fixture(scope="module", name="exported")
def exported_fixture(league, tmp_path_factory):
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


def test_a_statistic_from_a_dataset_starts_without_the_store_or_the_rules(league, exported, tmp_path):
    """`ktlog stats ... --source DIR` reads Parquet only: the store, the reducer and the rules are
    not loaded (a tenth of a second of each process's start, issue 26), and the figures are the
    database's."""
    out = tmp_path / "standings.csv"
    code = (
        "import sys; from ktlog.cli import main\n"
        f"sys.argv = ['ktlog', 'stats', 'standings', '--source', {str(exported)!r}, '--format', 'csv', '--output', {str(out)!r}]\n"
        "try: main()\nexcept SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('ktlog.')))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "ktlog.analytics.served" in loaded  # the text its export stored (issue 40; tests/test_filtered_statistics.py)
    assert "ktlog.storage.store" not in loaded and "ktlog.reducer" not in loaded and "ktlog.rules" not in loaded
    assert out.read_text() == ktlog(league.db, "stats", "standings", "--format", "csv").stdout


def test_a_result_edited_in_a_dataset_is_named_whether_its_stored_figures_hold_or_not(league, exported, tmp_path):
    """The quick check every statistic runs compares each result row's VP with the VP by op
    recorded: read beside the row from the stored figures while they are of the dataset's files,
    summed from `vp_by_op` once an input of theirs is edited too. Either way the edited game is named."""
    import polars as pl

    from ktlog.analytics.figures import stored_figures
    from ktlog.analytics.integrity import suspicious_games
    from ktlog.analytics.league import League
    from ktlog.analytics.place import Place

    copy = tmp_path / "league"
    shutil.copytree(exported, copy)
    part = sorted(copy.glob("game_results/*/*/*.parquet"))[0]
    results = pl.read_parquet(part)
    game_id = results.get_column("game_id")[0]
    results.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.col("vp_total") + 1).otherwise(pl.col("vp_total")).alias("vp_total")).write_parquet(part)
    problem = (game_id, "its result rows do not match the score recorded with the game")
    assert stored_figures(League(Place.of(copy))) is not None  # the figures' own files are untouched: read beside the rows
    assert suspicious_games(League(Place.of(copy))) == [problem]
    warning = f"warning: game {game_id[:8]} failed verification: {problem[1]}"
    assert warning in ktlog(league.db, "stats", "standings", "--source", copy).stderr
    by_op = copy / "vp_by_op" / part.relative_to(copy / "game_results")
    pl.read_parquet(by_op).write_parquet(by_op, compression="uncompressed")  # the same rows, other bytes: the figures are summed again
    assert stored_figures(League(Place.of(copy))) is None
    assert suspicious_games(League(Place.of(copy))) == [problem]


@pytest.mark.parametrize(("table", "args"), [("game_results", ("standings",)), ("player_games", ("dice",))])
def test_a_file_of_a_dataset_cut_short_is_named_and_nothing_is_written(league, exported, tmp_path, table, args):
    """A Parquet file cut short (a copy stopped half-way, a full disk) is named with what to do,
    never "a bug in ktlog", and no output is written: whether the statistic reads it (the results)
    or only the checks run beside it do (the stored figures, for `dice`)."""
    copy, out = tmp_path / "league", tmp_path / "out.csv"
    shutil.copytree(exported, copy)
    part = sorted(copy.glob(f"{table}/*/*/*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    result = ktlog(league.db, "stats", *args, "--source", copy, "--format", "csv", "--output", out, code=1)
    assert f"{part.relative_to(copy).as_posix()} cannot be read as Parquet" in result.output
    assert "export the league again into an empty folder" in result.output and "nothing was written" in result.output
    assert "bug" not in result.output and not out.exists()


def test_the_statistics_without_filters_are_stored_answers_read_while_they_are_of_the_files(league, exported, tmp_path, monkeypatch):
    """An export stores standings, players and teams of the league without filters, with their
    notes (`answers`); `ktlog stats` reads them instead of working them out, and works them out
    as soon as a file they are of, or the answer itself, is edited, or a filter is given."""
    import polars as pl

    from ktlog.analytics import standings as standings_module
    from ktlog.analytics.league import League
    from ktlog.analytics.place import Place

    copy = tmp_path / "league"
    shutil.copytree(exported, copy)
    expected = {name: ktlog(league.db, "stats", name, "--format", "csv") for name in answers.STATISTICS}

    def worked_out(league) -> None:
        raise AssertionError("worked out, not read")

    monkeypatch.setattr(standings_module, "standings", worked_out)  # what `ktlog stats standings` calls; the answers' own reference is kept
    read = ktlog(league.db, "stats", "standings", "--format", "csv", "--source", copy)
    assert (read.stdout, read.stderr) == (expected["standings"].stdout, expected["standings"].stderr)
    assert "in progress are not counted" in read.stderr  # the notes are stored with it
    assert "worked out, not read" in ktlog(league.db, "stats", "standings", "--season", "2026", "--source", copy, code=1).output  # a filter: worked out
    monkeypatch.undo()

    answer = copy / answers.ANSWERS / "standings.parquet"
    meta = pl.read_parquet_metadata(answer)
    table = pl.read_parquet(answer)
    table.with_columns(pl.col("wins") + 1).write_parquet(answer, metadata=meta)  # an answer edited with its metadata kept
    assert answers.stored_answer(League(Place.of(copy)), "standings") is None
    assert ktlog(league.db, "stats", "standings", "--format", "csv", "--source", copy).stdout == expected["standings"].stdout

    only = tmp_path / "only"  # the tables the answers are of, and nothing else: each works out to its answer
    shutil.copytree(
        exported, only, ignore=lambda folder, names: [n for n in names if Path(folder) == exported and n not in {*answers.TABLES, "elo", "metadata.json"}]
    )
    for name in answers.STATISTICS:
        assert ktlog(league.db, "stats", name, "--format", "csv", "--source", only).stdout == expected[name].stdout
        stored = answers.stored_answer(League(Place.of(exported)), name)
        assert stored is not None and stored[0].equals(answers.STATISTICS[name](League(Place.of(only))))

    part = sorted(copy.glob("vp_by_op/*/*/*.parquet"))[0]
    pl.read_parquet(part).write_parquet(part, compression="uncompressed")  # the same rows, other bytes: no longer what they are of
    assert all(answers.stored_answer(League(Place.of(copy)), name) is None for name in answers.STATISTICS)


def test_filters_apply_to_the_dataset_alike(league, exported):
    args = ("stats", "players", "--season", "2026", "--team", "Kasrkin", "--format", "json")
    assert ktlog(league.db, *args, "--source", exported).stdout == ktlog(league.db, *args).stdout


def test_the_layout_and_metadata(league, exported):
    meta = json.loads((exported / "metadata.json").read_text())
    name = source_name(league.db)
    assert meta["format"] == "ktlog-dataset" and meta["schema_version"] == SCHEMA_VERSION and list(meta["sources"]) == [name]
    source = meta["sources"][name]
    assert source["source_database"] == str(league.db.resolve()) and source["schema_version"] == SCHEMA_VERSION
    assert source["last_position"] == Store(league.db).conn.execute("SELECT max(position) FROM events").fetchone()[0]
    assert sorted(str(p.parent.relative_to(exported)) for p in exported.glob(f"games/*/*/part-{name}.parquet")) == [
        "games/2026/Autumn League",
        "games/2026/Winter League",
        "games/2027/Winter League",
    ]
    for table in ("games", "game_results", "vp_by_op", "vp_changes", "attacks"):
        assert len(list((exported / table).glob(f"*/*/part-{name}.parquet"))) == 3
    assert meta["layout"] == 2 and meta["result_values"] == ["win", "draw", "loss"] and list(meta["schema"]) == list(meta["tables"])


def test_the_game_key_is_the_games_own(league, exported):
    import polars as pl

    games = pl.read_parquet(sorted(exported.glob("games/*/*/*.parquet")))
    assert games.height == 13 and games.get_column("game_key").n_unique() == 13
    assert all(key == dataset_key(gid) for key, gid in games.select("game_key", "game_id").rows())
    results = pl.read_parquet(sorted(exported.glob("game_results/*/*/*.parquet")))
    assert set(results.get_column("game_key")) <= set(games.get_column("game_key")) and results.height == 24
    assert all(key == dataset_key(gid) for key, gid in results.select("game_key", "game_id").rows())


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
    new = {p for p in after if "Spring" in str(p) and p.parts[0] != answers.ANSWERS}
    partitions = {p for p in before if p.parts[0] not in ("elo", answers.ANSWERS)}
    # every table and the stored figures; the other partitions untouched
    assert {p for p in after if "Spring" in str(p)} - new == {Path(answers.ANSWERS, "1", "Spring League", f"{n}.parquet") for n in answers.STATISTICS}
    assert len(new) == 10 and {p: after[p] for p in partitions} == {p: before[p] for p in partitions}
    assert after[Path(STORED_ELO)] != before[Path(STORED_ELO)]  # the league's Elo, over every game, stored again
    assert all(after[p] != before[p] for p in before if p.parts[0] == answers.ANSWERS)  # and the answers
    for args in (("standings",), ("results",), ("teams",)):
        assert ktlog(db, "stats", *args, "--format", "csv", "--source", folder).stdout == ktlog(db, "stats", *args, "--format", "csv").stdout


def test_another_database_with_the_same_games_or_other_filters_are_refused(league, exported, tmp_path):
    before = files(exported), (exported / "metadata.json").read_bytes()
    other = tmp_path / "other.db"
    shutil.copy(league.db, other)
    refused = ktlog(other, "dataset", "export", exported, code=1).stderr
    assert "game 01000000 (and 12 more) is in" in refused and "exported from another database" in refused and "nothing was written" in refused
    name = source_name(league.db)
    assert f"under the name {name!r}" in ktlog(other, "dataset", "export", exported, "--name", name, code=1).stderr
    assert "holds an export of" in ktlog(league.db, "dataset", "export", exported, "--season", "2026", code=1).stderr
    assert "a source name is 1 to 40" in ktlog(league.db, "dataset", "export", exported, "--name", "../x", code=1).stderr
    assert (files(exported), (exported / "metadata.json").read_bytes()) == before
    assert "is not a ktlog dataset" in ktlog(league.db, "stats", "standings", "--source", tmp_path, code=1).stderr


def test_a_dataset_of_an_earlier_ktlog_is_refused_not_mixed(league, tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    (old / "metadata.json").write_text(json.dumps({"format": "ktlog-dataset", "source_database": str(league.db), "last_position": 3}))
    assert "a dataset of an earlier ktlog" in ktlog(league.db, "dataset", "export", old, code=1).stderr
    assert sorted(p.name for p in old.iterdir()) == ["metadata.json"]


def test_a_dataset_of_the_hive_layout_is_refused_not_misread(league, exported, tmp_path):
    """Layout 1 (season= and league= folders, the labels in the files too) is refused by export
    and by --source, before anything is read with the wrong types."""
    old = tmp_path / "old"
    shutil.copytree(exported, old)
    meta = json.loads((old / "metadata.json").read_text())
    (old / "metadata.json").write_text(json.dumps({k: v for k, v in meta.items() if k != "layout"}))
    assert "a dataset of an earlier ktlog (another layout" in ktlog(league.db, "dataset", "export", old, code=1).stderr
    refused = ktlog(league.db, "stats", "standings", "--source", old, code=1).stderr
    assert "not a ktlog dataset of this version (layout 2" in refused and "export it again" in refused


def test_a_folder_holding_one_game_twice_is_refused_when_read(league, exported, tmp_path):
    twice = tmp_path / "twice"
    shutil.copytree(exported, twice)
    for part in twice.rglob("*.parquet"):
        shutil.copy(part, part.with_name("part-copy.parquet"))
    assert "holds game key" in ktlog(league.db, "stats", "standings", "--source", twice, code=1).stderr


def test_two_clubs_datasets_in_one_folder_give_the_standings_of_both(tmp_path):
    """Two databases whose games share rowids, labels and partitions, exported into one folder:
    its figures are those of a database that imported both (and DuckDB reads the union); their
    namesakes are two players in both (`play.players`)."""
    import duckdb

    north, south, central, folder = (tmp_path / n for n in ("north.db", "south.db", "central.db", "circuit"))
    for db, seed in ((north, 31), (south, 32)):
        with Store(db) as store:
            simulate_into(store, 5, seed=seed, league="Circuit")
    merge_clubs(central, north, south)
    ktlog(north, "dataset", "export", folder, "--name", "north")
    ktlog(south, "dataset", "export", folder)
    assert sorted(p.name for p in folder.glob("games/*/*/*.parquet")) == ["part-north.parquet", f"part-{source_name(south)}.parquet"]
    for args in (("standings",), ("results",), ("teams",), ("matchups",)):
        from_folder = ktlog(central, "stats", *args, "--format", "csv", "--source", folder).stdout
        assert from_folder == ktlog(central, "stats", *args, "--format", "csv").stdout and from_folder.count("\n") > 3
    games = duckdb.sql(f"SELECT count(DISTINCT game_key) FROM read_parquet('{folder}/game_results/*/*/*.parquet')").fetchall()[0][0]
    assert games == 10
    assert "Jun (north-" in ktlog(central, "stats", "standings", "--source", folder).stdout
    assert "nothing new" in ktlog(north, "dataset", "export", folder, "--name", "north").stdout


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


def test_what_only_the_database_holds_is_asked_of_it(league, exported):
    """Signatures are not in a dataset: --signed-by-both with --source says so (it tried to open
    the folder as a database)."""
    refused = ktlog(league.db, "stats", "standings", "--source", exported, "--signed-by-both", code=1).stderr
    assert "signatures, which are in the database only, not in a dataset" in refused and "drop --source" in refused
