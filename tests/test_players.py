"""Players as identities (`ktlog.play.players`, `ktlog player`): two clubs' namesakes stay two
players when their databases merge, a renamed or mistyped player stays one, and the standings,
Elo, results file and dataset carry a stable `player_id`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from clubs import merge_clubs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from league import finish, kill, new, tp

from ktlog.cli import cli
from ktlog.files.keys import public_hex
from ktlog.play.players import name_id
from ktlog.storage.store import Store


def ktlog(db: Path, *args, ok: bool = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert (result.exit_code == 0) == ok, result.output
    assert "Traceback" not in result.output
    return result


def play(db: Path, n: int, winner: str, loser: str, date: str) -> None:
    """A finished game (four turning points) that `winner` wins by one kill, stored in `db`."""
    p = new(winner, "Kasrkin", loser, "Legionaries", date=date, league="Circuit", season="2026", round=str(n))
    tp(p, winner)
    kill(p, f"{loser.lower()}1", f"{winner.lower()}1")
    for _ in range(3):
        tp(p, winner)
    finish(p)
    game_id = f"{n:08d}-0000-4000-8000-{db.stem[:12].encode().hex()[:12]:0<12}"
    with Store(db) as store:
        store.import_envelopes(game_id, p.g.sealed(game_id, p.start))


def json_of(db: Path, *args) -> list[dict]:
    return json.loads(ktlog(db, *args, "--format", "json").stdout)


@pytest.fixture
def clubs(tmp_path):
    """Two clubs' databases, each with a Hana and a Kai; North's Hana was once typed "Hanna"."""
    north, south, league = tmp_path / "north.db", tmp_path / "south.db", tmp_path / "league.db"
    play(north, 1, "Hana", "Kai", "2026-09-01")
    play(north, 2, "Kai", "Pia", "2026-09-08")
    play(north, 3, "Hanna", "Pia", "2026-09-15")
    play(south, 4, "Hana", "Kai", "2026-09-02")
    play(south, 5, "Ivo", "Jun", "2026-09-09")
    ktlog(north, "player", "club", "North")
    ktlog(south, "player", "club", "South")
    merge_clubs(league, north, south)
    return north, south, league


def test_two_clubs_merged_give_one_standings_row_per_person(clubs, tmp_path):
    north, south, league = clubs
    ktlog(league, "player", "merge", "Hana (North)", "Hanna")  # the typo is North's Hana
    ktlog(league, "player", "rename", "Kai (South)", "Kai S.")
    rows = {r["player"]: r for r in json_of(league, "stats", "standings")}
    assert {p: (r["games"], r["wins"]) for p, r in rows.items()} == {
        "Hana (North)": (2, 2),
        "Hana (South)": (1, 1),
        "Kai": (2, 1),  # North's, the only Kai once South's is Kai S.
        "Kai S.": (1, 0),
        "Pia": (2, 0),
        "Ivo": (1, 1),
        "Jun": (1, 0),
    }
    assert len({r["player_id"] for r in rows.values()}) == 7
    # The ids are the clubs' own: a player with no key is their name within the database that recorded them.
    north_id = json.loads(ktlog(north, "player", "club", "--json").stdout)["database_id"]
    assert (
        rows["Hana (North)"]["player_id"]
        == name_id(north_id, "Hana")
        == {p["name"]: p for p in json.loads(ktlog(north, "player", "list", "--json").stdout)}["Hana"]["player_id"]
    )
    # The results file and the dataset carry them too, and the dataset gives the same standings.
    results = json_of(league, "stats", "results")
    assert {(r["player"], r["player_id"]) for r in results} == {(p, r["player_id"]) for p, r in rows.items()}
    folder = tmp_path / "dataset"
    ktlog(league, "dataset", "export", folder)
    assert json_of(league, "stats", "standings", "--source", folder) == list(rows.values())


def test_a_name_that_is_two_players_is_refused_naming_both(clubs):
    _, _, league = clubs
    out = ktlog(league, "player", "show", "Hana", ok=False).output
    assert "'Hana' is the name of 3 players" not in out and "'Hana' is the name of 2 players" in out
    assert "Hana (North)" in out and "Hana (South)" in out
    assert "is the name of 2 players" in ktlog(league, "stats", "standings", "--player", "Kai", ok=False).output
    assert [r["player"] for r in json_of(league, "stats", "standings", "--player", "Kai (South)")] == ["Kai (South)"]
    shown = json.loads(ktlog(league, "player", "show", "Hana (South)", "--json").stdout)
    assert shown["games"] == 1 and shown["recorded_as"][0]["label"] == "South"
    assert [r["player"] for r in json_of(league, "stats", "standings", "--player", shown["player_id"])] == ["Hana (South)"]


def test_merge_refuses_two_different_pinned_keys(tmp_path):
    db = tmp_path / "club.db"
    play(db, 1, "Hana", "Kai", "2026-09-01")
    play(db, 2, "Noor", "Hana", "2026-09-08")
    hana, kai = (public_hex(Ed25519PrivateKey.generate()) for _ in range(2))
    ktlog(db, "key", "trust", "Hana", hana)
    ktlog(db, "key", "trust", "Kai", kai)
    out = ktlog(db, "player", "merge", "Hana", "Kai", ok=False).output
    assert "two different pinned keys" in out and hana in out and kai in out and "nothing was merged" in out
    ids = {p["name"]: p["player_id"] for p in json.loads(ktlog(db, "player", "list", "--json").stdout)}
    assert ids["Hana"] == f"k-{hana[:16]}" and ids["Kai"] == f"k-{kai[:16]}"
    # A player with no key merged into one with a key is that key's person.
    merged = json.loads(ktlog(db, "player", "merge", "Noor", "Kai", "--json").stdout)
    assert merged["player_id"] == f"k-{kai[:16]}" and merged["name"] == "Noor" and merged["games"] == 2


def test_a_rename_keeps_the_elo_history_whole(tmp_path):
    """Hana renamed to Hana B. between two games: one history, the second game's Elo before is the
    first's after, and the figures are those of a player who kept one name all along."""
    renamed, kept = tmp_path / "renamed.db", tmp_path / "kept.db"
    play(renamed, 1, "Hana", "Kai", "2026-09-01")
    ktlog(renamed, "player", "rename", "Hana", "Hana B.")
    play(renamed, 2, "Kai", "Hana B.", "2026-09-08")  # recorded under the new name
    play(kept, 1, "Hana", "Kai", "2026-09-01")
    play(kept, 2, "Kai", "Hana", "2026-09-08")
    history = [r for r in json_of(renamed, "stats", "elo") if r["player"] == "Hana B."]
    assert len(history) == 2 and len({r["player_id"] for r in history}) == 1
    assert history[1]["elo_before"] == history[0]["elo"]
    same = [r for r in json_of(kept, "stats", "elo") if r["player"] == "Hana"]
    assert [(r["elo_before"], r["elo"]) for r in history] == [(r["elo_before"], r["elo"]) for r in same]
    assert [r["player"] for r in json_of(renamed, "stats", "standings")] == ["Kai", "Hana B."]
    # The log keeps the names as recorded.
    assert json.loads(ktlog(renamed, "games", "--json").stdout)[-1]["players"] == ["Hana", "Kai"]


def test_a_rename_to_another_players_name_and_a_merge_of_opponents_are_refused(tmp_path):
    db = tmp_path / "club.db"
    play(db, 1, "Hana", "Kai", "2026-09-01")
    out = ktlog(db, "player", "rename", "Hana", "Kai", ok=False).output
    assert "'Kai' is another player's name in this database" in out and "ktlog player merge" in out
    assert "the name is empty" in ktlog(db, "player", "rename", "Hana", " ", ok=False).output
    assert "played each other (game 00000001): one person never plays themselves" in ktlog(db, "player", "merge", "Hana", "Kai", ok=False).output


def test_the_recording_database_travels_in_the_file_and_is_checked(tmp_path):
    db = tmp_path / "club.db"
    play(db, 1, "Hana", "Kai", "2026-09-01")
    ktlog(db, "player", "club", "North")
    header = json.loads(ktlog(db, "export", "0000").stdout.splitlines()[0])
    assert header["recorded_in"]["label"] == "North" and len(header["recorded_in"]["database"]) == 32
    bad = tmp_path / "bad.jsonl"
    lines = ktlog(db, "export", "0000").stdout.splitlines()
    lines[0] = json.dumps({**header, "recorded_in": {"database": "x", "label": "North"}})
    bad.write_text("\n".join(lines) + "\n")
    out = ktlog(tmp_path / "other.db", "import", bad, ok=False).output
    assert "line 1" in out and "recorded_in.database" in out


def test_identify_gives_a_new_name_the_id_its_games_will_have(tmp_path):
    """`play.players.identify`, for the faces that register players (a tournament): a typed name is
    a known player, or with `new` the player their first game here will make; never a namesake's."""
    from ktlog.errors import KtlogError
    from ktlog.play.players import identify

    db = tmp_path / "club.db"
    play(db, 1, "Hana", "Kai", "2026-09-01")
    with Store(db) as store:
        assert identify(store, "Hana").games == 1
        newcomer = identify(store, "Noor", new=True)
        assert newcomer.games == 0
        with pytest.raises(KtlogError, match="no player called 'Noor'"):
            identify(store, "Noor")
    play(db, 2, "Noor", "Kai", "2026-09-08")
    with Store(db) as store:
        assert identify(store, "Noor").player_id == newcomer.player_id
