"""Issue 26: the statistics' fast paths give the figures of their previous definitions.

The opponents beside each result row come from window expressions for two-player games (they
were every row paired with its game's rows, the player's own dropped); a dataset stores the
league's Elo at export (it was rated again by every statistic) and a statistic reads it only
while it is of the very results it counts. Checked on the sample games, which hold a draw, a
concession, a mirror match, Multiplayer Ops games of three and four players (one a shared win)
and Joint Ops games against the NPOs, from the database and from its dataset, with and without
filters. The per-game figures a dataset stores at export are those summed from its tables, and
are never read once the files they were summed from have changed; so is the VP against each row
stored beside them, read by the standings while the stored games and VP are the results'.
"""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import SAMPLE_GAMES

from ktlog.analytics import figures as figures_module
from ktlog.analytics import standings as standings_module
from ktlog.analytics.figures import OPPONENTS, STORED, game_figures, store_figures, stored_figures, stored_opponents
from ktlog.analytics.league import Filters, League, with_opponents
from ktlog.analytics.place import Place
from ktlog.analytics.standings import FINGERPRINTED, STORED_ELO, _fingerprint, elo_history, league_elo
from ktlog.cli import cli
from ktlog.play.simulate import simulate_into
from ktlog.storage.store import Store

LEAGUES = [
    Filters(),
    Filters(ruleset="kt24-joint"),  # PvE: the NPOs' side
    Filters(ruleset="kt24-multiplayer"),  # three and four players
    Filters(ruleset="kt24-preliminary"),  # a draw, a concession, a mirror match
    Filters(player="Pia"),
]


@pytest.fixture(scope="module", autouse=True)
def samples_counted_as_played():
    """The sample games stand for a league people played here (the figures' variety): none is
    left out as a sample beside the other games (`League.samples_left_out`)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("ktlog.analytics.league.sample_game_ids", frozenset)
        yield


def ktlog(db, *args):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """Every sample game, and a simulated league besides (two-player games with a long Elo
    history), in one database and in its dataset."""
    folder = tmp_path_factory.mktemp("fast")
    db = folder / "samples.db"
    ktlog(db, "import", *sorted(SAMPLE_GAMES.glob("*.jsonl")))
    with Store(db) as store:
        simulate_into(store, 12, seed=26, league="Summer League")
    ktlog(db, "dataset", "export", folder / "dataset")
    return db, folder / "dataset"


def previous_with_opponents(results: pl.DataFrame) -> pl.DataFrame:
    """`League.with_opponents` before issue 26, word for word: every row paired with its game's
    rows, the player's own dropped."""
    other = results.select("game_key", pl.col("player").alias("opponent"), pl.col("kill_team").alias("opponent_team"), pl.col("vp_total").alias("vp_against"))
    pairs = results.join(other, on="game_key").filter(pl.col("player") != pl.col("opponent"))
    if pairs.height == results.height:
        return pairs
    opponents = pairs.group_by("game_key", "player").agg(
        pl.col("opponent").sort().str.join(", "), pl.col("opponent_team").sort_by("opponent").str.join(", "), pl.col("vp_against").mean()
    )
    return results.join(opponents, on=["game_key", "player"], how="left")


def in_order(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.sort("game_id", "player")


def test_the_samples_hold_every_kind_of_game(samples):
    db, _ = samples
    every = League(db, Filters(simulated=True, ruleset=None))
    rows = every.read("game_results", ("game_key", "player", "result"))
    sizes = rows.group_by("game_key").agg(pl.len(), (pl.col("result") == "draw").any().alias("draw"))
    assert set(sizes.get_column("len")) == {2, 3, 4}
    assert "NPOs" in rows.get_column("player").to_list()  # Joint Ops: the kill team (or two players together) against the NPOs
    assert sizes.get_column("draw").any()
    assert "concession" in every.read("games", ("ended_by",)).get_column("ended_by").to_list()


@pytest.mark.parametrize("filters", LEAGUES, ids=Filters.describe)
@pytest.mark.parametrize("source", ["database", "dataset"])
def test_the_opponents_are_as_before(samples, filters, source):
    league = League(samples[0] if source == "database" else Place.of(samples[1]), filters)
    fast, before = league.with_opponents, previous_with_opponents(league.results)
    assert fast.schema == before.schema
    assert in_order(fast).equals(in_order(before))
    assert fast.height == league.results.height > 0


def test_games_of_two_three_and_four_players_together_are_as_before(samples):
    """The mixed case: two-player games by windows, the others paired, in one frame."""
    every = League(samples[0], Filters(ruleset=None, simulated=True)).read("game_results", ("game_key", "game_id", "player", "kill_team", "vp_total", "result"))
    assert every.group_by("game_key").len().get_column("len").n_unique() == 3
    fast = with_opponents(every)
    assert fast.get_column("vp_against").dtype == pl.Float64
    assert in_order(fast).equals(in_order(previous_with_opponents(every)))


@pytest.mark.parametrize("filters", LEAGUES, ids=Filters.describe)
def test_the_stored_elo_is_the_computed_one(samples, filters, monkeypatch):
    db, folder = samples
    computed = elo_history(League(db, filters).scope.results)
    assert computed.height > 0
    assert league_elo(League(db, filters)).equals(computed)
    if filters == Filters() or filters.player:  # the league the dataset stored: read, not rated again
        monkeypatch.setattr(standings_module, "elo_history", lambda results: pytest.fail("rated again"))
    assert league_elo(League(Place.of(folder), filters)).equals(computed)


def test_an_elo_stored_from_other_results_is_not_read(samples, tmp_path):
    """A dataset whose stored Elo is another league's (copied in, or left by an export that
    stopped before storing it): the statistics rate the games again."""
    db, folder = samples
    other = tmp_path / "other"
    with Store(tmp_path / "other.db") as store:
        simulate_into(store, 3, seed=27)
    ktlog(tmp_path / "other.db", "dataset", "export", other)
    mixed = tmp_path / "mixed"
    shutil.copytree(folder, mixed)
    shutil.copy(other / STORED_ELO, mixed / STORED_ELO)
    assert league_elo(League(Place.of(mixed))).equals(elo_history(League(db).results))


@pytest.mark.parametrize("args", [("standings",), ("players",), ("teams",), ("results",), ("elo",), ("matchups", "--long"), ("ops",)], ids=" ".join)
@pytest.mark.parametrize("filters", [(), ("--ruleset", "kt24-joint"), ("--ruleset", "kt24-multiplayer"), ("--player", "Pia")], ids=" ".join)
def test_every_figure_is_the_same_from_the_dataset(samples, args, filters):
    db, folder = samples
    from_db = ktlog(db, "stats", *args, *filters, "--format", "csv").stdout
    assert ktlog(db, "stats", *args, *filters, "--format", "csv", "--source", folder).stdout == from_db and from_db.count("\n") > 1


FIGURES = ("players", "teams", "results")


def test_the_stored_figures_are_the_summed_ones(samples):
    """A dataset's `player_games` (stored at export) holds, row for row, the figures summed from
    its projection tables, and the statistics read them rather than sum again."""
    db, folder = samples
    league = League(Place.of(folder))
    stored = stored_figures(league)
    assert stored is not None and stored.height == league.result_rows.height > 0
    summed = game_figures(league.result_rows, league.by_op, league.table("incapacitations"), league.cp_changes, league.table("turning_points"), league.ops)
    assert stored.equals(summed)
    assert stored.get_column("operatives_lost").sum() > 0 and stored.get_column("cp_spent").sum() > 0 and stored.get_column("vp_crit").sum() > 0
    from_db = League(db).figures.select(summed.columns).drop("game_key")  # the database's, summed as ever (its game_key is its own)
    assert in_order(summed.drop("game_key")).equals(in_order(from_db))


def test_the_statistics_read_the_stored_figures(samples, monkeypatch):
    db, folder = samples
    expected = {args: ktlog(db, "stats", args, "--format", "csv").stdout for args in FIGURES}
    monkeypatch.setattr(figures_module, "game_figures", lambda *a: pytest.fail("summed again"))
    for args in FIGURES:
        assert ktlog(db, "stats", args, "--format", "csv", "--source", folder).stdout == expected[args]


def recount(folder, file) -> None:
    """A part's rows in metadata.json as it now holds them: the file rewritten by a tool that keeps
    the metadata (a part whose count differs is refused before it is read, issue 38)."""
    meta = json.loads((folder / "metadata.json").read_text())
    rel = str(file.relative_to(folder))
    for source in meta["sources"].values():
        if rel in source.get("rows", {}):
            source["rows"][rel] = pl.read_parquet(file).height
    (folder / "metadata.json").write_text(json.dumps(meta))


def edit_incapacitations(folder, tmp_path):
    """Drop one incapacitation from a partition's file, as another tool would rewrite it."""
    file = sorted(folder.glob("incapacitations/*/*/*.parquet"))[0]
    pl.read_parquet(file).slice(1).write_parquet(file)
    recount(folder, file)


def add_games(folder, tmp_path):
    """Another club's games in the dataset's partition files, the stored figures left as they were."""
    with Store(tmp_path / "more.db") as store:
        simulate_into(store, 2, seed=28, league="Summer League")
    ktlog(tmp_path / "more.db", "dataset", "export", tmp_path / "more")
    for table in ("games", "game_results", "vp_by_op", "incapacitations", "cp_changes", "turning_points"):
        mine, theirs = sorted(folder.glob(f"{table}/*/Summer League/*.parquet"))[0], sorted((tmp_path / "more").glob(f"{table}/*/*/*.parquet"))[0]
        pl.concat([pl.read_parquet(mine), pl.read_parquet(theirs)]).write_parquet(mine)
        recount(folder, mine)


@pytest.mark.parametrize(
    "stale", [edit_incapacitations, add_games, lambda folder, tmp_path: shutil.rmtree(folder / STORED)], ids=["edited", "games added", "none stored"]
)
def test_stale_stored_figures_are_summed_again(samples, tmp_path, stale):
    """Figures stored from other files than the dataset now holds are never read: the statistics
    sum the files they find (the same figures as a fresh export of those files)."""
    db, folder = samples
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    stale(copy, tmp_path)
    league = League(Place.of(copy))
    assert stored_figures(league) is None
    fresh = tmp_path / "fresh"
    shutil.copytree(copy, fresh)
    store_figures(Place.of(fresh))
    assert stored_figures(League(Place.of(fresh))) is not None
    for args in FIGURES:
        assert ktlog(db, "stats", args, "--format", "csv", "--source", copy).stdout == ktlog(db, "stats", args, "--format", "csv", "--source", fresh).stdout


def test_an_export_stores_the_figures_a_dataset_from_before_lacks(samples, tmp_path):
    db, folder = samples
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    shutil.rmtree(copy / STORED)
    assert "nothing new" in ktlog(db, "dataset", "export", copy).stdout
    assert stored_figures(League(Place.of(copy))) is not None


def test_figures_of_an_op_with_no_stored_column_are_summed(samples, tmp_path):
    """An op outside the stored columns (a future ruleset's): the partition's figures are stored
    unread, and the statistics sum them, with that op's column."""
    _, folder = samples
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    file = sorted(copy.glob("vp_by_op/*/*/*.parquet"))[0]
    pl.read_parquet(file).with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.lit("bounty")).otherwise("op").alias("op")).write_parquet(file)
    store_figures(Place.of(copy))
    league = League(Place.of(copy))
    assert stored_figures(league) is None
    assert "vp_bounty" in league.figures.columns and league.ops[-1] == "bounty"


@pytest.mark.parametrize("filters", LEAGUES, ids=Filters.describe)
def test_the_stored_vp_against_is_the_paired_one(samples, filters):
    """The VP against each result row stored at export (`player_games`) is `with_opponents`'s,
    of the same type (whole where every game has two players, a mean with three or four)."""
    league = League(Place.of(samples[1]), filters)
    stored, paired = stored_opponents(league), with_opponents(league.result_rows)
    assert stored is not None and stored.height == paired.height > 0
    columns = ["game_id", "player", "vp_against"]
    assert in_order(stored.select(columns)).equals(in_order(paired.select(columns)))
    dtype = stored.get_column("vp_against").dtype
    assert dtype == paired.get_column("vp_against").dtype and (dtype == pl.Int64) == (filters.ruleset in ("kt24-joint", "kt24-preliminary"))


def test_the_standings_read_the_stored_vp_against(samples, monkeypatch):
    db, folder = samples
    expected = {filters: ktlog(db, "stats", "standings", *filters, "--format", "csv").stdout for filters in [(), ("--ruleset", "kt24-multiplayer")]}
    monkeypatch.setattr(standings_module, "with_opponents", lambda rows: pytest.fail("paired again"))
    for filters, table in expected.items():
        assert ktlog(db, "stats", "standings", *filters, "--format", "csv", "--source", folder).stdout == table


def edit_a_result(folder, tmp_path):
    """One player's VP changed in `game_results`, as another tool would rewrite the file."""
    file = sorted(folder.glob("game_results/*/*/*.parquet"))[0]
    pl.read_parquet(file).with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.col("vp_total") + 3).otherwise("vp_total").alias("vp_total")).write_parquet(
        file
    )


def stored_before_the_opponents(folder, tmp_path):
    """`player_games` as an export before these columns wrote it: the figures, their fingerprint."""
    for file in folder.glob(f"{STORED}/*/*/*.parquet"):
        meta = pl.read_parquet_metadata(file)
        pl.read_parquet(file).drop(*OPPONENTS).write_parquet(file, metadata=meta)


@pytest.mark.parametrize("stale", [edit_a_result, add_games, stored_before_the_opponents], ids=["result edited", "games added", "stored before them"])
def test_a_stale_stored_vp_against_is_not_read(samples, tmp_path, stale):
    """The VP against stored of other results than the dataset now holds (or not stored) is never
    read: the standings pair the opponents again, as a fresh export of those files stores them."""
    db, folder = samples
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    stale(copy, tmp_path)
    assert stored_opponents(League(Place.of(copy))) is None
    fresh = tmp_path / "fresh"
    shutil.copytree(copy, fresh)
    store_figures(Place.of(fresh))
    assert stored_opponents(League(Place.of(fresh))) is not None
    table = ktlog(db, "stats", "standings", "--format", "csv", "--source", copy).stdout
    assert table == ktlog(db, "stats", "standings", "--format", "csv", "--source", fresh).stdout
    if stale is stored_before_the_opponents:  # the figures themselves are still read
        assert stored_figures(League(Place.of(copy))) is not None


def test_a_renamed_player_has_the_right_opponents_in_an_export_after_it(samples, tmp_path):
    """A player renamed in the database, then exported again into the dataset made before the
    rename: the partitions she played in are written again (a rename is no event, so the log's
    position alone would call them unchanged), and the standings from the dataset are the
    database's, under the new name, with the stored VP against."""
    db, _ = samples
    renamed = tmp_path / "renamed.db"
    shutil.copy(db, renamed)
    ktlog(renamed, "dataset", "export", tmp_path / "after")
    ktlog(renamed, "player", "rename", "Pia", "Pia R.")
    again = ktlog(renamed, "dataset", "export", tmp_path / "after").stdout
    assert "wrote 2 partition(s)" in again  # the two partitions Pia played in, of five
    assert "nothing new" in ktlog(renamed, "dataset", "export", tmp_path / "after").stdout
    assert stored_opponents(League(Place.of(tmp_path / "after"))) is not None
    table = ktlog(renamed, "stats", "standings", "--format", "csv").stdout
    assert "Pia R.," in table and "Pia," not in table
    assert ktlog(renamed, "stats", "standings", "--format", "csv", "--source", tmp_path / "after").stdout == table


def test_the_elo_fingerprint_tells_results_swapped_between_players(samples):
    """Two players of a game with their results swapped: another fingerprint (each row's columns
    are mixed before the rows are summed), so the stored Elo is rated again."""
    rows = League(Place.of(samples[1])).result_rows.select(FINGERPRINTED)
    first = rows.get_column("game_id")[0]
    swapped = rows.with_columns(pl.when(pl.col("game_id") == first).then(pl.col("result").reverse().over("game_id")).otherwise("result").alias("result"))
    assert swapped.get_column("result").to_list() != rows.get_column("result").to_list()
    assert _fingerprint(swapped) != _fingerprint(rows) and _fingerprint(rows.reverse()) == _fingerprint(rows)


def test_a_league_reads_the_games_lists_only_when_asked(samples):
    """The statistics read the games without their lists of players and kill teams (half the
    read), and --team reads them: the same games as the lists name."""
    league = League(Place.of(samples[1]), Filters(team="Hearthkyn Salvagers"))
    assert not {"players", "kill_teams"} & set(league.games.columns) and league.games.height > 0
    teams = league.read("games", ("game_key", "kill_teams")).filter(pl.col("kill_teams").list.contains("Hearthkyn Salvagers"))
    assert (
        league.games.get_column("game_key")
        .sort()
        .equals(teams.filter(pl.col("game_key").is_in(league.games.get_column("game_key").implode())).get_column("game_key").sort())
    )
    assert set(League(Place.of(samples[1])).games.get_column("game_key")) >= set(league.games.get_column("game_key"))
