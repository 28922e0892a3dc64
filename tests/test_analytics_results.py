"""`ktlog stats results`: the league's results file, one row per player per finished game."""

from __future__ import annotations

import csv

import polars as pl
import pytest
from click.testing import CliRunner
from league import IN_PROGRESS, game_id, league_fixture  # noqa: F401 (the `league` fixture)

from ktlog.analytics.league import League
from ktlog.analytics.results import results
from ktlog.analytics.standings import standings
from ktlog.cli import cli


def ktlog(db, *args):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def table(league) -> pl.DataFrame:
    return results(League(league.db))


def row(table: pl.DataFrame, game: int, player: str) -> dict:
    rows = table.filter((pl.col("game_id") == game_id(game)) & (pl.col("player") == player)).to_dicts()
    assert len(rows) == 1
    return rows[0]


def test_one_row_per_player_per_finished_game(table):
    assert table.height == 2 * 12
    assert IN_PROGRESS not in table.get_column("game_id").to_list()


def test_a_win_from_both_sides(table):
    """G01: Alice (Kasrkin) 4-1 Bob (Legionaries), Autumn 2026 R1."""
    alice, bob = row(table, 1, "Alice"), row(table, 1, "Bob")
    assert (alice["league"], alice["season"], alice["round"], alice["date"]) == ("Autumn League", "2026", "1", "2026-09-05")
    assert (alice["opponents"], alice["kill_team"], alice["opponent_teams"]) == ("Bob", "Kasrkin", "Legionaries")
    assert (alice["result"], alice["vp_total"], alice["vp_against"], alice["points"], alice["vp_diff"]) == ("win", 4, 1, 1.0, 3)
    assert (bob["result"], bob["vp_total"], bob["vp_against"], bob["points"], bob["vp_diff"]) == ("loss", 1, 4, 0.0, -3)
    assert alice["vp_total"] == sum(alice[c] for c in table.columns if c.startswith("vp_") and c not in ("vp_total", "vp_against", "vp_diff"))
    assert alice["elo_before"] == bob["elo_before"] == 1500.0
    assert alice["elo_after"] - 1500 == pytest.approx(1500 - bob["elo_after"]) == pytest.approx(16.0)


def test_a_draw_and_a_concession(table):
    """G03: Erin 2-2 Alice, a draw; G06: Carol concedes to Alice after TP2."""
    assert {row(table, 3, p)["result"] for p in ("Erin", "Alice")} == {"draw"}
    assert row(table, 3, "Alice")["points"] == 0.5
    assert row(table, 6, "Alice")["ended_by"] == "concession"
    assert not table.get_column("shared_win").any()


def test_kills_are_counted_from_both_sides(table):
    """Each operative one player lost is one the other incapacitated."""
    for game in range(1, 13):
        a, b = table.filter(pl.col("game_id") == game_id(game)).to_dicts()
        assert a["operatives_lost"] == b["operatives_incapacitated"]
        assert b["operatives_lost"] == a["operatives_incapacitated"]
    assert row(table, 5, "Erin")["operatives_lost"] == 5  # wiped out in TP3


def test_points_and_vp_add_up_to_the_standings(league, table):
    totals = table.group_by("player").agg(pl.col("points").sum(), pl.col("vp_total").sum().alias("vp_for"), pl.col("vp_diff").sum())
    expected = standings(League(league.db)).select("player", "points", "vp_for", "vp_diff")
    assert totals.sort("player").to_dicts() == expected.sort("player").to_dicts()


def test_league_order(table):
    """League, then season, then round, then the time the game was played; players in their seats."""
    keys = table.select("league", "season", "round").unique(maintain_order=True).rows()
    assert keys == [
        ("Autumn League", "2026", "1"),
        ("Autumn League", "2026", "2"),
        ("Winter League", "2026", "1"),
        ("Winter League", "2026", "2"),
        ("Winter League", "2027", "1"),
        ("Winter League", "2027", "2"),
    ]
    first_round = table.head(6).get_column("game_id").unique(maintain_order=True).to_list()
    assert first_round == [game_id(2), game_id(1), game_id(3)]  # G02 starts before G01
    assert table.head(2).get_column("player").to_list() == ["Carol", "Dan"]


def test_csv_opens_in_a_spreadsheet(league, table, tmp_path):
    """UTF-8 with a header row, ISO dates, no index column, written atomically (no temporary left)."""
    path = tmp_path / "results.csv"
    path.write_text("an older file\n")
    assert ktlog(league.db, "stats", "results", "--format", "csv", "-o", path, "--force").stdout == ""  # replacing an older file needs --force (issue 24 #8)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == table.columns
    assert len(rows) == table.height
    assert rows[0]["date"] == "2026-09-05" and rows[0]["game_id"] == game_id(2)
    assert [p.name for p in tmp_path.iterdir()] == ["results.csv"]


def test_filters_narrow_the_rows(league):
    out = ktlog(league.db, "stats", "results", "--season", "2027", "--player", "Alice", "--format", "csv").stdout
    frame = pl.read_csv(out.encode(), schema_overrides={"season": pl.String})
    assert frame.get_column("game_id").to_list() == [game_id(11)]
    assert frame.get_column("player").to_list() == ["Alice"]
