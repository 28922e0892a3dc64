"""One match, one result across clubs (issue 40 #6): a match recorded at two clubs, each in its own
database, counts once wherever the clubs' games meet (a central database importing both, a
dataset both export into), and is never credited to the other club's namesake; a club can export
only the games it recorded into a shared dataset (docs/running-a-league.md, One match, one result).

The clubs: North Hall records N1, Hana v Bob on 2026-10-03 at 19:00 (Bob concedes); South records
the same match as S1, started at 19:05, and S2, its own Hana (another person) against Carl on
2026-10-10 (Carl concedes).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
from click.testing import CliRunner
from clubs import merge_clubs
from league import TROOPER, Played, tp

from ktlog.analytics.league import League
from ktlog.analytics.place import Place
from ktlog.analytics.standings import standings
from ktlog.cli import cli
from ktlog.events import GameConceded, OperativeAdded, PlayerJoined
from ktlog.play.builder import GameBuilder
from ktlog.play.matches import Recording, matches, why_one_match
from ktlog.storage.store import Store

N1, S1, S2 = (f"{n}0000000-0000-4000-8000-000000000000" for n in ("a", "b", "c"))
DAY = "2026-10-03"


def record(db: Path, game_id: str, first: str, second: str, loser: str, *, date: str = DAY, start: str = "19:00", **labels: str) -> None:
    """A game at a club: five Troopers a side, `loser` concedes in turning point 1."""
    g = GameBuilder(date=date, **labels)
    for player, team in ((first, "Kasrkin"), (second, "Legionaries")):
        g.add(PlayerJoined(player=player, kill_team=team))
        for i in range(1, 6):
            g.add(OperativeAdded(player=player, operative=f"{player.split()[0].lower()}{i}", datacard=TROOPER))
    g.setup(rolloff={first: 6, second: 1}, initiative=first, crit_op=2, markers=[("centre", second), ("north", first), ("south", second)])
    tp(Played(g, ""), first)
    g.add(GameConceded(player=loser))
    with Store(db) as store:
        store.import_envelopes(game_id, g.sealed(game_id, f"{date}T{start}:00+00:00"))


def ktlog(db: Path, *args: str, ok: bool = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert (result.exit_code == 0) == ok, result.output
    return result


def clubs(tmp_path: Path, south_loser: str = "Bob") -> tuple[Path, Path]:
    north, south = tmp_path / "north.db", tmp_path / "south.db"
    record(north, N1, "Hana", "Bob", "Bob")
    record(south, S1, "Hana", "Bob", south_loser, start="19:05")
    record(south, S2, "Hana", "Carl", "Carl", date="2026-10-10")
    ktlog(north, "player", "club", "North Hall")
    ktlog(south, "player", "club", "South")
    return north, south


def table(db: Path | Place) -> list[tuple]:
    return standings(League(db)).select("player", "games", "wins", "losses").sort("player").rows()


ONCE = [("Bob (North Hall)", 1, 0, 1), ("Carl", 1, 0, 1), ("Hana (North Hall)", 1, 1, 0), ("Hana (South)", 1, 1, 0)]
"""N1 counted, S1 left out: South's Hana won only S2, and Bob has one player, North's, with one loss."""


def test_a_match_recorded_at_two_clubs_counts_once(tmp_path):
    north, south = clubs(tmp_path)
    central = tmp_path / "central.db"
    merge_clubs(central, north, south)
    assert table(central) == ONCE
    result = ktlog(central, "stats", "standings")
    assert f"1 match(es) recorded in two databases are counted once ({S1[:8]} as {N1[:8]}; 1 recording(s) left out)" in result.stderr
    assert "disagree" not in result.stderr
    rows = json.loads(ktlog(central, "stats", "results", "--format", "json").stdout)
    assert sorted({r["game_id"] for r in rows}) == [N1, S2]


def test_the_import_says_so(tmp_path):
    north, south = clubs(tmp_path)
    central = tmp_path / "central.db"
    merge_clubs(central, north)
    ktlog(south, "export", S1, "-o", str(tmp_path / "s1.jsonl"))
    result = ktlog(central, "import", str(tmp_path / "s1.jsonl"), "--json")
    (said,) = json.loads(result.stdout)["files"]
    assert said["status"] == "imported"
    assert said["warnings"] == [
        f"game {S1[:8]} is another recording of game {N1[:8]}'s match (same players and date, recorded in another database): counted once, as {N1[:8]}"
    ]


def test_recordings_that_disagree_are_flagged_and_the_organiser_settles_it_by_a_dispute(tmp_path):
    north, south = clubs(tmp_path, south_loser="Hana")  # South's scorer has Hana conceding
    central = tmp_path / "central.db"
    merge_clubs(central, north, south)
    result = ktlog(central, "stats", "standings")
    assert table(central) == ONCE  # N1, the first recorded, counts meanwhile
    assert f"warning: game {S1[:8]} is another recording of game {N1[:8]}'s match" in result.stderr
    assert f"the recordings disagree ({N1[:8]}: Hana win 0VP, Bob loss 0VP; {S1[:8]}: Hana loss 0VP, Bob win 0VP)" in result.stderr
    with Store(central, create=False) as store:
        conceded = len(store.events(N1))
    ktlog(central, "dispute", N1[:8], str(conceded), "--reason", "South's scorer has it right: Hana conceded")
    assert table(central) == [("Bob (South)", 1, 1, 0), ("Carl", 1, 0, 1), ("Hana (South)", 2, 1, 1)]  # S1 counts: South's Hana and Bob


def test_a_tournament_table_is_one_match_whatever_the_names(tmp_path):
    north, south = tmp_path / "north.db", tmp_path / "south.db"
    labels = {"league": "Autumn GT", "season": "2026", "round": "2", "table": "3"}
    record(north, N1, "Dan", "Eve", "Eve", **labels)
    record(south, S1, "Daniel", "Eve", "Eve", start="19:05", **labels)
    central = tmp_path / "central.db"
    merge_clubs(central, north, south)
    assert League(central).games.get_column("game_id").to_list() == [N1]
    assert [m.why for m in League(central).same_matches] == ["same tournament table"]


def test_two_rounds_are_two_matches(tmp_path):
    north, south = tmp_path / "north.db", tmp_path / "south.db"
    record(north, N1, "Hana", "Bob", "Bob", round="1")
    record(south, S1, "Hana", "Bob", "Hana", start="21:00", round="2")
    central = tmp_path / "central.db"
    merge_clubs(central, north, south)
    assert sorted(League(central).games.get_column("game_id").to_list()) == [N1, S1]


def test_one_club_recording_a_pair_twice_is_two_games(tmp_path):
    north = tmp_path / "north.db"
    record(north, N1, "Hana", "Bob", "Bob")
    record(north, S1, "Hana", "Bob", "Hana", start="21:00")
    assert sorted(League(north).games.get_column("game_id").to_list()) == [N1, S1]


def test_the_rule():
    def rec(game_id: str, db: str, players=("Hana", "Bob"), labels=(None, None, None, None), **kw) -> Recording:
        return Recording(game_id, db, kw.get("date", DAY), labels, players, kw.get("finished", True), kw.get("disputed", False), kw.get("at", game_id))

    assert why_one_match(rec("1", "a"), rec("2", "b", players=("bob ", " HANA"))) == "same players and date"
    assert why_one_match(rec("1", "a"), rec("2", "a")) is None  # one database
    assert why_one_match(rec("1", "a"), rec("2", "b", date="2026-10-04")) is None
    assert why_one_match(rec("1", "a", labels=("L", None, "1", None)), rec("2", "b", labels=("L", "S", "2", None))) is None  # rounds 1 and 2
    assert why_one_match(rec("1", "a", labels=("L", None, None, None)), rec("2", "b", labels=(None, "S", "2", "4"))) == "same players and date"
    table = ("GT", "2026", "2", "3")
    assert why_one_match(rec("1", "a", ("Dan", "Eve"), table), rec("2", "b", ("Daniel", "Eve"), table)) == "same tournament table"
    # Three clubs: counted the finished one before one in progress, an undisputed one before a
    # disputed one, then the first recorded.
    (match,) = matches([rec("3", "c", at="1"), rec("1", "a", finished=False), rec("2", "b", disputed=True, at="0")])
    assert (match.counted.game_id, [r.game_id for r in match.others]) == ("3", ["2", "1"])


def test_each_club_exporting_into_one_dataset_counts_it_once(tmp_path):
    north, south = clubs(tmp_path)
    shared = tmp_path / "circuit"
    ktlog(north, "dataset", "export", str(shared), "--name", "north")
    ktlog(south, "dataset", "export", str(shared), "--name", "south")
    assert table(Place.of(shared)) == ONCE
    games = pl.read_parquet(sorted(shared.glob("games/*/*/*.parquet")))
    assert games.get_column("recorded_in").n_unique() == 2
    out = ktlog(north, "stats", "standings", "--source", str(shared), "--format", "csv")
    assert "counted once" in out.stderr and out.stdout.count("\n") == 5  # the header and four players


def test_a_club_that_imported_another_clubs_game_exports_only_its_own(tmp_path):
    north, south = clubs(tmp_path)
    ktlog(south, "export", S2, "-o", str(tmp_path / "s2.jsonl"))
    ktlog(north, "import", str(tmp_path / "s2.jsonl"))  # North looks at South's game
    shared = tmp_path / "circuit"
    ktlog(south, "dataset", "export", str(shared), "--name", "south")
    refused = ktlog(north, "dataset", "export", str(shared), "--name", "north", ok=False)
    assert f"game {S2[:8]}" in refused.output and "--recorded-here" in refused.output and "nothing was written" in refused.output
    ktlog(north, "dataset", "export", str(shared), "--name", "north", "--recorded-here")
    assert table(Place.of(shared)) == ONCE
    meta = json.loads((shared / "metadata.json").read_text())
    assert meta["sources"]["north"]["filters"] == {"recorded_here": True}
    again = ktlog(north, "dataset", "export", str(shared), "--name", "north", ok=False)  # the same source, other filters
    assert "with filters" in again.output


def test_a_dataset_of_an_earlier_ktlog_is_read_as_before(tmp_path):
    north, _ = clubs(tmp_path)
    folder = tmp_path / "old"
    ktlog(north, "dataset", "export", str(folder))
    for file in folder.glob("games/*/*/*.parquet"):
        pl.read_parquet(file).drop("recorded_in").write_parquet(file)
    shutil.rmtree(folder / "answers")
    assert League(Place.of(folder)).games.get_column("recorded_in").to_list() == [None]
    assert table(Place.of(folder)) == [("Bob", 1, 0, 1), ("Hana", 1, 1, 0)]


def test_a_database_without_a_recording_elsewhere_is_as_before(tmp_path):
    north, _ = clubs(tmp_path)
    assert League(north).same_matches == [] and table(north) == [("Bob", 1, 0, 1), ("Hana", 1, 1, 0)]


def test_a_recording_left_out_is_named_with_the_one_counted(tmp_path):
    north, south = clubs(tmp_path)
    central = tmp_path / "central.db"
    merge_clubs(central, north, south)
    result = ktlog(central, "stats", "curves", "--game", S1[:8], ok=False)
    assert f"game {S1[:8]} is another recording of game {N1[:8]}'s match" in result.output
    assert f"the league's figures are those of game {N1[:8]}" in result.output and "Traceback" not in result.output
