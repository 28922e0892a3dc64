"""Simulated games kept apart (issue 16 #12): `ktlog simulate` marks its games
(GameCreated.simulated, the games row's `simulated` column, migration m010), and statistics,
datasets and the web's tables leave them out unless asked (`--simulated`)."""

from __future__ import annotations

import json
import random
import sqlite3

import msgspec
import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.events import GameCreated
from ktlog.play.live_tables import table_rows
from ktlog.play.simulate import simulate_games, simulate_into
from ktlog.ruleset_play.kt24.simulator import d6
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.store import Store


def ktlog(db, *args, code: int = 0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    return result


def standings(db, *args) -> dict[str, dict]:
    return {row["player"]: row for row in json.loads(ktlog(db, "stats", "standings", "--format", "json", *args).stdout)}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Four games played by people (as a league would be) and three by `ktlog simulate`."""
    db = tmp_path_factory.mktemp("mixed") / "league.db"
    with Store(db) as store:
        people = simulate_into(store, 4, seed=8, league="Autumn")
    ktlog(db, "simulate", "--games", "3", "--seed", "9")
    return db, people


def test_an_unmarked_game_created_keeps_its_bytes_and_a_simulated_one_says_so():
    plain = GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-25")
    assert b"simulated" not in msgspec.json.encode(plain)  # events recorded before the field hash as they did
    marked = msgspec.json.decode(
        msgspec.json.encode(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-25", simulated=True)), type=GameCreated
    )
    assert marked.simulated and not msgspec.json.decode(msgspec.json.encode(plain), type=GameCreated).simulated
    ((_, g),) = simulate_games(1, 3, simulated=True)
    assert g.state.simulated and g.events[0].simulated


def test_simulate_marks_its_games_and_games_lists_them_so(mixed):
    db, people = mixed
    listed = json.loads(ktlog(db, "games", "--json").stdout)
    assert sorted(g["id"] for g in listed if not g["simulated"]) == sorted(people)
    assert sum(g["simulated"] for g in listed) == 3
    lines = ktlog(db, "games").stdout.splitlines()
    assert sum(line.endswith("(simulated)") for line in lines) == 3 and len(lines) == 7
    with Store(db) as store:
        assert sorted(store.conn.execute("SELECT id FROM games WHERE simulated = 0").fetchall()) == sorted((g,) for g in people)


def test_statistics_leave_simulated_games_out_unless_asked(mixed):
    db, _ = mixed
    league = standings(db)
    both = standings(db, "--simulated")
    assert sum(r["games"] for r in league.values()) == 4 * 2  # two players a game
    assert sum(r["games"] for r in both.values()) == 7 * 2
    results = json.loads(ktlog(db, "stats", "results", "--format", "json").stdout)
    assert {r["league"] for r in results} == {"Autumn"}


def test_a_database_of_simulated_games_only_says_why_nothing_is_computed(tmp_path):
    db = tmp_path / "sim.db"
    ktlog(db, "simulate", "--games", "2", "--seed", "4")
    refused = ktlog(db, "stats", "standings", code=1)
    assert "only simulated games (2, from `ktlog simulate`)" in refused.output and "--simulated takes them in" in refused.output
    assert sum(r["games"] for r in standings(db, "--simulated").values()) == 4
    game = json.loads(ktlog(db, "games", "--json").stdout)[0]["id"]
    assert "played by `ktlog simulate`, which league statistics leave out" in ktlog(db, "chart", "vp", game[:8], "-o", tmp_path / "vp.svg", code=1).output
    ktlog(db, "report", game[:8], "-o", tmp_path / "one.html")  # one game's report is not the league's: any game


def test_a_database_of_pve_games_played_by_people_still_names_only_the_ruleset(tmp_path):
    db = tmp_path / "pve.db"
    with Store(db) as store:
        simulate_into(store, 1, seed=3, ruleset="kt24-joint")
    refused = ktlog(db, "stats", "standings", code=1).output
    assert "the database has only games of kt24-joint, which the league leaves out (--ruleset asks for them)." in refused


def test_dataset_export_leaves_simulated_games_out_unless_asked(mixed, tmp_path):
    import polars as pl

    db, people = mixed
    ktlog(db, "dataset", "export", tmp_path / "league")
    ktlog(db, "dataset", "export", tmp_path / "all", "--simulated")
    league = pl.read_parquet(sorted((tmp_path / "league" / "games").rglob("*.parquet")))
    every = pl.read_parquet(sorted((tmp_path / "all" / "games").rglob("*.parquet")))
    assert sorted(league.get_column("game_id")) == sorted(people) and every.height == 7
    assert every.get_column("simulated").sum() == 3
    assert standings(db, "--simulated") == standings(db, "--simulated", "--source", tmp_path / "all")


def test_the_filter_choices_offer_no_label_only_simulated_games_have(mixed):
    from ktlog.analytics.league import filter_choices

    db, _ = mixed
    assert filter_choices(db)["league"] == ["Autumn"]  # not "Simulated League", which would show nothing


def test_the_web_tables_leave_simulated_games_out(mixed):
    db, people = mixed
    with Store(db) as store:
        assert sorted(row["id"] for row in table_rows(store)) == sorted(people)


def test_a_schema_9_database_learns_which_games_were_simulated(tmp_path):
    db = tmp_path / "nine.db"
    with Store(db) as store:
        (simulated,) = simulate_into(store, 1, seed=5, simulated=True)
        (played,) = simulate_into(store, 1, seed=6)
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE games DROP COLUMN simulated")  # as schema 9 had it
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm010_simulated'")
    conn.execute("PRAGMA user_version = 9")
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert dict(store.conn.execute("SELECT id, simulated FROM games").fetchall()) == {simulated: 1, played: 0}


def test_the_simulators_dice_are_the_faces_random_choice_draws():
    """`d6` draws each face as `Random.choice("123456")` does, so the simulated games (and the
    leagues the docs' figures come from) are the same games with either."""
    for seed in range(200):
        chosen = random.Random(seed)
        assert d6(random.Random(seed), 9) == "".join(chosen.choice("123456") for _ in range(9))
    rolled = d6(random.Random(1), 6000)
    assert set(rolled) == set("123456") and all(900 < rolled.count(face) < 1100 for face in "123456")
