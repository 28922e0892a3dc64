"""Creating a game, the one way (ktlog/play/creation.py) `ktlog new`, the TUI's new-game form and
game files share: the opening events from the sides' rosters, and a player count the ruleset
cannot play refused before anything is written (issue 24 #5)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.data import SAMPLE_ROSTERS
from ktlog.errors import InvalidEvent
from ktlog.files.rosters import joining, load_roster
from ktlog.play.creation import Side, create_game, opening_events
from ktlog.play.simulate import simulate_into
from ktlog.storage.store import Store

KASRKIN = load_roster(SAMPLE_ROSTERS / "kasrkin.toml")
LEGIONARIES = load_roster(SAMPLE_ROSTERS / "legionaries.toml")
NPOS = load_roster(SAMPLE_ROSTERS / "npo.toml")


def created(ruleset: str = "kt24-preliminary") -> ev.GameCreated:
    return ev.GameCreated(ruleset=ruleset, killzone="volkus", date="2026-11-21", mission="breach" if ruleset == "kt24-joint" else None)


def test_the_opening_events_are_each_sides_roster_in_order_and_stored_all_at_once(store):
    sides = [Side("Alice", KASRKIN, ["sergeant", "medic"]), Side("Bob", KASRKIN, ["sergeant"])]
    game_id = create_game(store, created(), sides)
    stored = [e.payload for e in store.events(game_id)]
    assert stored == opening_events(created(), sides)
    assert [type(e).__name__ for e in stored] == ["GameCreated", "PlayerJoined", "OperativeAdded", "OperativeAdded", "PlayerJoined", "OperativeAdded"]
    assert [e.operative for e in stored if isinstance(e, ev.OperativeAdded)] == ["sergeant", "medic", "bob-sergeant"]  # a mirror: Bob's is renamed
    assert stored[1:4] == joining("Alice", KASRKIN, ["sergeant", "medic"], set())


@pytest.mark.parametrize(
    ("ruleset", "sides", "words"),
    [
        ("kt24-preliminary", [Side("Alice", KASRKIN)], "KT24 Preliminary Ops (kt24-preliminary) is played by 2 players, not 1 (Alice): give 2"),
        ("kt24-multiplayer", [Side("Ana", KASRKIN), Side("Ben", LEGIONARIES)], "(kt24-multiplayer) is played by 3 to 4 players, not 2 (Ana, Ben): give 3 to 4"),
        ("kt24-joint", [Side("Alice", KASRKIN)], "is played by 2 players (the players' side and the NPOs'), not 1 (Alice)"),
        ("kt24-preliminary", [Side(n, KASRKIN) for n in ("A", "B", "C")], "not 3 (A, B, C)"),
    ],
)
def test_a_player_count_the_ruleset_cannot_play_is_refused_and_nothing_stored(store, ruleset, sides, words):
    with pytest.raises(InvalidEvent, match="played by") as refused:
        create_game(store, created(ruleset), sides)
    assert words in str(refused.value) and "(players)" in str(refused.value)
    assert store.listing.count()[0] == 0


def test_joint_ops_takes_the_players_side_and_the_npos(store):
    game_id = create_game(store, created("kt24-joint"), [Side("Alice", KASRKIN, ["sergeant"]), Side("NPOs", NPOS, ["trooper-marksman"], npo=True)])
    assert [p.npo for p in store.state(game_id).players.values()] == [False, True]


def ktlog(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])


def test_ktlog_new_refuses_one_player_before_the_database_is_made(tmp_path):
    db = tmp_path / "league.db"
    result = ktlog(db, "new", "--killzone", "volkus", "--player", "Alice=kasrkin")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "KT24 Preliminary Ops (kt24-preliminary) is played by 2 players, not 1 (Alice): give 2" in result.output
    assert not db.exists()
    result = ktlog(db, "new", "--ruleset", "kt24-multiplayer", "--killzone", "volkus", "--player", "Ana=kasrkin", "--player", "Ben=legionaries")
    assert result.exit_code == 1 and "is played by 3 to 4 players, not 2 (Ana, Ben)" in result.output
    assert "the game is over" not in result.output and "next:" not in result.output


def test_a_game_stored_with_one_player_by_an_older_ktlog_does_not_break_the_statistics(tmp_path):
    db = tmp_path / "league.db"
    with Store(db) as store:
        simulate_into(store, 2, seed=4, league="Autumn")
        dead = store.new_game(
            ev.GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21", league="Autumn"), joining("Solo", KASRKIN, None, set())
        )
    for args in (("stats", "standings"), ("stats", "teams"), ("games",)):
        result = ktlog(db, *args)
        assert result.exit_code == 0, result.output
    assert f"in progress are not counted ({dead[:8]})" in ktlog(db, "stats", "standings").output


def test_ktlog_new_refuses_a_killzone_its_ruleset_does_not_have_naming_the_choices(tmp_path):
    """Issue 42 #5: `--killzone nowhere` was accepted; a stored or imported game keeps any name."""
    db = tmp_path / "league.db"
    result = ktlog(db, "new", "--killzone", "nowhere", "--player", "Alice=kasrkin", "--player", "Bob=legionaries")
    assert result.exit_code == 1 and not db.exists()
    assert "unknown killzone 'nowhere': KT24 Preliminary Ops is played on volkus, gallowdark or bheta-decima; give one of them" in result.output
    result = ktlog(db, "new", "--ruleset", "kt21", "--killzone", "volkus", "--player", "Ines=kt21_veteran_guardsmen", "--player", "Jonas=kt21_cultists")
    assert result.exit_code == 1 and "KT21 is played on octarius, chalnath" in result.output
    game = ktlog(db, "new", "--killzone", " Bheta-Decima ", "--player", "Alice=kasrkin", "--player", "Bob=legionaries").stdout.splitlines()[0]
    assert Store(db).game(game).killzone == "bheta-decima"
