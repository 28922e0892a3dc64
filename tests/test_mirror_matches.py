"""Kill-team figures leave mirror matches out everywhere (issue 40 #9): the hand-made league of
tests/league.py with one more game, G14, Alice (Kasrkin) v Dan (Kasrkin), a 0-0 draw in which
each plays Grenadier in turning points 1 to 3 (1CP each; once a turning point, pg 37).

Without G14 the Kasrkin's most used ploys are "Take Aim (6), Covering Fire (3), Combined Arms (2)"
(tests/test_analytics_league.py, test_teams); counting G14's six Grenadiers (and G11's one) would
put "Grenadier (7)" first. Alice's own figures count every game she played: Grenadier 3 + 1 (G11).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest
from league import AUTUMN, GAMES, finish, game_id, new, ploy, tp

from ktlog.analytics.dataset import export
from ktlog.analytics.league import League
from ktlog.analytics.performance import entity_stats
from ktlog.analytics.place import Place
from ktlog.storage.store import Store

MIRROR = game_id(14)
KASRKIN = "Take Aim (6), Covering Fire (3), Combined Arms (2)"


def g14():
    p = new("Alice", "Kasrkin", "Dan", "Kasrkin", date="2026-10-17", round="2", **AUTUMN)
    for initiative in ("Alice", "Dan", "Alice"):
        tp(p, initiative)
        ploy(p, "Alice", "Grenadier")
        ploy(p, "Dan", "Grenadier")
    tp(p, "Dan")
    return finish(p)


def write(db: Path, games) -> Path:
    with Store(db) as store:
        for n, make in games:
            p = make()
            store.import_envelopes(game_id(n), p.g.sealed(game_id(n), p.start))
    return db


@pytest.fixture(scope="module")
def leagues(tmp_path_factory) -> tuple[Path, Path]:
    """The league without G14, and with it."""
    folder = tmp_path_factory.mktemp("mirror")
    games = list(enumerate(GAMES, 1))
    return write(folder / "without.db", games), write(folder / "with.db", [*games, (14, g14)])


def test_the_mirror_match_is_one(leagues):
    results = League(leagues[1]).result_rows.filter(pl.col("game_id") == MIRROR)
    assert results.select("player", "kill_team", "result").rows() == [("Alice", "Kasrkin", "draw"), ("Dan", "Kasrkin", "draw")]


def test_most_used_ploys_of_a_kill_team_leave_mirror_matches_out(leagues):
    teams = entity_stats(League(leagues[1]), "kill_team").filter(pl.col("kill_team") == "Kasrkin").row(0, named=True)
    assert (teams["games"], teams["mirror_games"], teams["most_used_ploys"]) == (9, 1, KASRKIN)


def test_a_players_figures_count_their_mirror_matches(leagues):
    alice = entity_stats(League(leagues[1]), "player").filter(pl.col("player") == "Alice").row(0, named=True)
    assert (alice["games"], alice["most_used_ploys"]) == (6, "Grenadier (4), Take Aim (3), Covering Fire (2)")


def test_a_mirror_match_changes_no_kill_team_figure(leagues):
    without, with_mirror = (entity_stats(League(db), "kill_team") for db in leagues)
    assert with_mirror.drop("mirror_games").equals(without.drop("mirror_games"))


def test_the_benchmarks_duckdb_baseline_leaves_them_out_too(leagues, tmp_path):
    """benchmarks/league_scale.py's SQL for `stats teams` agrees with ktlog on a dataset holding
    the mirror match: its equality check would catch either counting them."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    import duckdb
    from league_scale import duckdb_entities, same_figures

    export(leagues[1], Place.of(tmp_path))
    ours = entity_stats(League(Place.of(tmp_path)), "kill_team")
    answer = duckdb.sql(duckdb_entities(tmp_path, "kill_team", ["crit", "kill", "tac", "primary", "elimination", "mission"]))
    theirs = pl.DataFrame(answer.fetchall(), schema=answer.columns, orient="row", infer_schema_length=None)
    same_figures(ours, theirs, "teams")
    assert theirs.filter(pl.col("kill_team") == "Kasrkin").get_column("most_used_ploys").item() == KASRKIN
