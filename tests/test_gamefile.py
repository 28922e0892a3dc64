"""Game files (.ktgame): a whole game typed as a header and one event a line, imported with the
ids and hashes made on import, recognised again, refused with the line, and written back."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES, SAMPLE_ROSTERS
from ktlog.envelopes import canonical
from ktlog.errors import GameLogError, KtlogError
from ktlog.events import Dice, Reroll, ShootingAttack
from ktlog.play.game_files import game_file
from ktlog.play.importer import import_file, import_files
from ktlog.rulesets.approved.events import TacOpScored
from ktlog.state import encode_state
from ktlog.storage.store import Store
from ktlog.text.event_text import event_line, parse_event

EXAMPLE = Path(__file__).resolve().parent.parent / "ktlog" / "data" / "examples" / "first-activations.ktgame"
SAMPLES = sorted(SAMPLE_GAMES.glob("*.jsonl"))


def payloads(store: Store, game_id: str) -> list[bytes]:
    return [canonical(e.payload) for e in store.events(game_id)]


def edited(tmp_path: Path, old: str, new: str, name: str = "edited.ktgame") -> Path:
    text = EXAMPLE.read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def test_the_example_imports_as_a_game_whose_state_follows_its_lines(store):
    report = import_file(store, EXAMPLE)
    assert report.status == "imported" and report.events_added == 37  # creation, 2 + 6 joining, 28 lines
    state = store.state(report.game_id)
    assert state.labels["league"] == "Autumn League" and state.labels["table"] == "2"
    assert sorted(state.operatives) == ["aspiring-champion", "gunner-plasma", "heavy-gunner", "legionary-1", "medic", "sergeant"]
    assert state.players["Bob"].cp == 2  # 2 CP at the ready step (pg 36), 1 spent on Dark Pact
    assert state.operatives["legionary-1"].wounds < state.operatives["legionary-1"].datacard.wounds  # 6511 v 31: hit
    assert state.turning_point == 1


def test_the_same_file_again_is_unchanged_and_with_lines_added_extended(store, tmp_path):
    lines = EXAMPLE.read_text().splitlines(keepends=True)
    part = tmp_path / "part.ktgame"
    part.write_text("".join(lines[:-3]))
    first = import_file(store, part)
    assert first.status == "imported"
    part.write_text("".join(lines))
    again = import_file(store, part)
    assert (again.status, again.events_added, again.game_id) == ("extended", 3, first.game_id)
    assert import_file(store, part).status == "unchanged"
    assert store.listing.count()[0] == 1


def test_the_made_id_follows_the_header_not_comments_or_spelling(store, tmp_path):
    spelled = edited(tmp_path, "player: Alice=kasrkin:", f"# another comment\nplayer: Alice={SAMPLE_ROSTERS / 'kasrkin.toml'}:")
    other_table = edited(tmp_path, "table: 2", "table: 3", "other.ktgame")
    a, b, c = (import_file(store, p) for p in (EXAMPLE, spelled, other_table))
    assert a.game_id == b.game_id and b.status == "unchanged"
    assert c.status == "imported" and c.game_id != a.game_id


def test_a_roster_file_is_found_beside_the_game_file(store, tmp_path, monkeypatch):
    (tmp_path / "teams").mkdir()
    (tmp_path / "teams" / "mine.toml").write_text((SAMPLE_ROSTERS / "legionaries.toml").read_text())
    path = edited(tmp_path, "player: Bob=legionaries:", "player: Bob=teams/mine.toml:")
    monkeypatch.chdir(tmp_path.parent)  # not the game file's folder
    assert import_file(store, path).status == "imported"


def test_a_game_line_gives_the_id(store, tmp_path):
    path = edited(tmp_path, "killzone: volkus", "game: 0A1B2C3D-0000-4000-8000-000000000001\nkillzone: volkus")
    assert import_file(store, path).game_id == "0a1b2c3d-0000-4000-8000-000000000001"


def test_a_file_that_differs_from_the_stored_game_names_its_line(store, tmp_path):
    import_file(store, EXAMPLE)
    path = edited(tmp_path, "dice=6511 saves=31", "dice=6611 saves=31")
    with pytest.raises(GameLogError) as caught:
        import_file(store, path)
    assert caught.value.line == 39 and "another event at seq 36" in str(caught.value) and "dice=6611" in str(caught.value)


@pytest.mark.parametrize(
    "old, new, line, words",
    [
        ("table: 2", "tabel: 2", 8, "'tabel' is not a header key"),
        ("date: 2026-11-21", "date: 21/11/2026", 5, "not a date like 2026-10-04"),
        ("killzone: volkus", "killzone: volkus\nruleset: kt25", 5, "'kt25' is not a ruleset"),
        ("table: 2", "table: 2\ntable: 3", 9, "'table' is given twice (first on line 8)"),
        ("killzone: volkus", "game: 42\nkillzone: volkus", 4, "not a game id"),
        ("legionaries:", "legionnaires:", 10, "Bob's roster: no roster 'legionnaires'"),
        ("legionaries:aspiring", "legionaries:nobody,aspiring", 10, "no operative 'nobody'"),
        ("player: Bob=legionaries", "player: Bob legionaries", 10, "is not NAME=ROSTER"),
        ("CritOpRolled roll=2", "CritOpRolled roll=two", 17, "field roll"),
        ("saves=31", "saves=37", 39, "'7' is not a D6 result"),
        ("Dashed operative", "Dashd operative", 36, "unknown event type 'Dashd'"),
        ("Dashed operative=legionary-1", "Dashed operative=legionary-1 distance=3", 36, "Dashed has no field 'distance'"),
        ("Dashed operative=legionary-1", "Dashed operative=legionary-1 operative=sergeant", 36, "Dashed: operative is given twice"),
        ("Dashed operative=legionary-1", "Dashed operative=sergeant", 36, "Dashed (seq 33): operative 'sergeant' is not the active operative"),
        ("StrategicGambitUsed player=Bob", "StrategicGambitUsed player=Alice", 32, "(pg "),
        ("ActivationEnded operative=gunner-plasma", "ActivationEnded operative=gunner-plasma\nmission: Loot", 41, "comes after the events"),
        ('"Dark Pact"', '"Dark Pact', 32, "close the quotes"),
        ("player: Bob=legionaries:aspiring-champion,legionary-1,heavy-gunner", "", 9, "is played by 2 players, not 1 (Alice): give 2 (players)"),
    ],
)
def test_a_bad_line_is_refused_with_its_number_and_nothing_is_stored(store, tmp_path, old, new, line, words):
    with pytest.raises(GameLogError) as caught:
        import_file(store, edited(tmp_path, old, new))
    assert caught.value.line == line, str(caught.value)
    assert words in str(caught.value) and "Nothing from this file was imported" in str(caught.value)
    assert store.listing.count()[0] == 0


def test_a_rule_refusal_names_the_rule_and_the_override(store, tmp_path):
    with pytest.raises(GameLogError) as caught:
        import_file(store, edited(tmp_path, "Dashed operative=legionary-1", "Dashed operative=sergeant"))
    assert "(pg 39)" in str(caught.value) and "add override=REASON to the line" in str(caught.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "the header has no 'killzone' line"),
        ("killzone: volkus\ndate: 2026-01-01\nRolledOff purpose=setup rolls=A:1,B:2\n", "the header names no player"),
        ("killzone: volkus\nplayer: A=kasrkin\n", "the header has no 'date' line"),
    ],
)
def test_a_missing_header_line_is_named(store, tmp_path, text, words):
    path = tmp_path / "short.ktgame"
    path.write_text(text)
    with pytest.raises(GameLogError, match=words):
        import_file(store, path)


def test_files_too_large_long_lines_and_bytes_that_are_not_text_are_refused(store, tmp_path):
    huge = tmp_path / "huge.ktgame"
    with open(huge, "wb") as f:
        f.truncate(64 * 2**20 + 1)
    long = tmp_path / "long.ktgame"
    long.write_text("killzone: volkus\n# " + "x" * 2**20 + "\n")
    binary = tmp_path / "binary.ktgame"
    binary.write_bytes(b"killzone: volkus\n\xff\xfe\n")
    for path, line, words in ((huge, None, "larger than 64 MB"), (long, 2, "more than the 1,048,576"), (binary, 2, "not UTF-8")):
        with pytest.raises(GameLogError, match=words) as caught:
            import_file(store, path)
        assert caught.value.line == line


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem[:2] for p in SAMPLES])
def test_every_sample_game_round_trips_through_a_game_file(tmp_path, sample):
    """Export as a game file, import into a fresh database: the same events, so the same state
    at every seq, and the same score. Into its own database again: unchanged."""
    source = Store(tmp_path / "source.db")
    game_id = import_file(source, sample).game_id
    path = tmp_path / "game.ktgame"
    path.write_text(game_file(source, game_id))
    fresh = Store(tmp_path / "fresh.db")
    report = import_file(fresh, path)
    assert report.game_id == game_id
    assert payloads(fresh, game_id) == payloads(source, game_id)
    assert encode_state(fresh.state(game_id)) == encode_state(source.state(game_id))
    assert fresh.state(game_id).result == source.state(game_id).result
    assert import_file(source, path).status == "unchanged"


def test_the_export_names_rosters_where_they_give_the_stored_operatives(tmp_path):
    store = Store(tmp_path / "s.db")
    mirror = import_file(store, next(p for p in SAMPLES if p.name.startswith("06"))).game_id
    joint = import_file(store, next(p for p in SAMPLES if p.name.startswith("12"))).game_id
    text = game_file(store, mirror)
    assert "player: Kim=kasrkin:" in text and "player: Lou=kasrkin:" in text and "PlayerJoined" not in text
    joint_text = game_file(store, joint)  # the NPOs were added by hand, not from a roster: written out
    assert "player: Hugo=legionaries" in joint_text and "PlayerJoined player=NPOs" in joint_text


@pytest.mark.parametrize(
    "event",
    [
        TacOpScored(player="Ana", vp=2, reason="2"),
        ev.Annotation(target=3, text="true"),
        ev.Annotation(target=3, text=" spaced, with a comma: and 'quotes' # not a comment "),
        ev.RolledOff(purpose="setup", rolls={"A, the first": 4, "B": 2}),
        ev.EquipmentSelected(player="Ana", equipment=("Frag grenades", "Rope, long")),
        ev.Shot(
            operative="gunner",
            weapon="Gun",
            attacks=(ShootingAttack(target="x", attack_dice=Dice((6, 1), (Reroll(2, 5, "balanced"),)), defence_dice=Dice(()), cover=True),),
        ),
        ev.Shot(operative="gunner", weapon="Gun", attacks=(ShootingAttack(target="x", damage=3), ShootingAttack(target="y", damage=4))),
        ev.EventCorrected(target=12, event=ev.Dashed(operative="gunner")),
        ev.EventVoided(target=9),
    ],
)
def test_an_event_line_reads_back_as_the_same_event(event):
    assert canonical(parse_event(event_line(event))) == canonical(event)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("OperativeActivated operative=a1 order=engage order=conceal", "order is given twice (order=engage and order=conceal); give it once"),
        ("Shot operative=a1 weapon=Gun target=b1 target=b2 damage=1", "target is given twice (target=b1 and target=b2)"),
        ('Shot operative=a1 weapon=Gun target=b1 damage=1 attacks=\'[{"target": "b2", "damage": 1}]\'', "give attacks= or the one-target fields"),
        ('Shot operative=a1 weapon=Gun attacks=\'[{"target": "b1", "damage": 1, "damage": 6}]\'', "'damage' is given twice in the same object"),
        ("GambitPassed player=Alice override=a override=b", "override is given twice"),
    ],
)
def test_a_field_given_twice_is_refused_naming_it(line, words):
    with pytest.raises(KtlogError) as caught:
        parse_event(line)
    assert words in str(caught.value)


def test_a_yes_or_no_field_takes_the_words_cover_takes():
    assert parse_event("Shot operative=a1 weapon=Gun target=b1 damage=1 guard=yes").guard is True
    assert parse_event("Shot operative=a1 weapon=Gun target=b1 damage=1 guard=no").guard is False


def test_game_files_and_game_logs_import_together(tmp_path):
    """Several files go through the checking process: a game file's line numbers hold there too."""
    bad = edited(tmp_path, "Dashed operative=legionary-1", "Dashed operative=sergeant")
    results = list(import_files(Store(tmp_path / "mixed.db"), [SAMPLES[0], EXAMPLE, bad, SAMPLES[1]]))
    assert [getattr(r, "status", None) for r in results] == ["imported", "imported", None, "imported"]
    assert results[2].line == 36


def test_import_and_export_on_the_command_line(tmp_path):
    db = tmp_path / "cli.db"

    def ktlog(*args):
        return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])

    assert ktlog("import", EXAMPLE).exit_code == 0
    again = ktlog("import", EXAMPLE)
    assert again.exit_code == 0 and "already in the database" in again.output
    bad = edited(tmp_path, "table: 2", "tabel: 2")
    refused = ktlog("import", bad)
    assert refused.exit_code == 1 and f"{bad}, line 8: 'tabel' is not a header key" in refused.output
    assert "Traceback" not in refused.output
    game = ktlog("games").output.split()[0]
    printed = ktlog("export", game, "--format", "ktgame")
    assert printed.exit_code == 0 and printed.output.splitlines()[1].startswith("game: ")
    out = tmp_path / "back.ktgame"
    assert ktlog("export", game, "-o", out).exit_code == 0  # the suffix chooses the format
    assert out.read_text() == printed.output
    assert "carries no signatures" in ktlog("export", game, "-o", tmp_path / "s.ktgame", "--sign").output
    other = CliRunner().invoke(cli, ["--db", str(tmp_path / "other.db"), "import", str(out)])
    assert other.exit_code == 0 and "imported game" in other.output, other.output


def test_a_game_recorded_live_exports_as_a_game_file_that_imports_as_the_same_events(tmp_path):
    # Issue 24 #10: a live game exported as .ktgame got new event ids and hashes on import
    # elsewhere, so its .jsonl was later refused there as another recording of the game.
    def ktlog(db, *args):
        result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
        assert result.exit_code == 0, result.output
        return result.output

    table, league = tmp_path / "table.db", tmp_path / "league.db"
    game = ktlog(
        table,
        "new",
        "--killzone",
        "volkus",
        "--player",
        "Alice=kasrkin:sergeant,gunner-plasma,medic",
        "--player",
        "Bob=legionaries:aspiring-champion,legionary-1,heavy-gunner",
    ).split()[0]
    ktlog(table, "event", game, "--file", EXAMPLE.with_suffix(".txt"))
    ktlog(table, "export", game, "-o", tmp_path / "game.ktgame")
    ktlog(table, "export", game, "-o", tmp_path / "game.jsonl")
    assert f"imported game {game[:8]}" in ktlog(league, "import", tmp_path / "game.ktgame")
    assert "already in the database; nothing to import" in ktlog(league, "import", tmp_path / "game.jsonl")
    with Store(table) as a, Store(league) as b:
        assert [(e.event_id, e.recorded_at, e.hash) for e in a.events(game)] == [(e.event_id, e.recorded_at, e.hash) for e in b.events(game)]
    assert "the 1 game verified" in ktlog(league, "verify")


def _without_last_recorded(text: str) -> str:
    lines = text.splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if line.startswith("recorded: "))
    return "".join(lines[:last] + lines[last + 1 :])


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda t: t.replace(" @id=", " @id=x", 1), "is not an event id (a UUID)"),
        (lambda t: t.replace("+00:00\n", "\n", 1), "recorded: @at="),
        (lambda t: t[: t.index(" @id=", t.index("RolledOff"))] + "\n", "it has no @id and @at, while other lines carry them"),
        (_without_last_recorded, "the header makes 5 events (the creation, each side's joining and operatives) but has 4 `recorded:` lines"),
    ],
    ids=["bad-id", "no-offset", "one-line-without", "header-short"],
)
def test_recorded_ids_are_checked_and_all_or_none(tmp_path, change, words):
    db = tmp_path / "table.db"
    run = lambda *a: CliRunner().invoke(cli, ["--db", str(db), *map(str, a)])  # noqa: E731
    game = run("new", "--killzone", "volkus", "--player", "Alice=kasrkin:sergeant", "--player", "Bob=legionaries:legionary-1").output.split()[0]
    run("event", game, "RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2")
    text = run("export", game, "--format", "ktgame").output
    assert text.count("\nrecorded: ") == 5 and text.count(" @id=") == 1  # the creation, 2 players, 2 operatives; the roll-off
    path = tmp_path / "bad.ktgame"
    path.write_text(change(text))
    refused = run("--db", tmp_path / "other.db", "import", path)
    assert refused.exit_code == 1 and words in refused.output and "line" in refused.output, refused.output
