"""Roster import (issue 13): BattleScribe rosters (.ros, .rosz), New Recruit JSON, BSData
catalogues with their game system (.cat/.catz + .gst), a data folder, KT21 rosters; the roster
commands; and bad input refused with a clear message, nothing written."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.files.rosters import load_roster

FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
ROS = FIXTURES / "test-troopers.ros"
SYSTEM = FIXTURES / "test-system.gst"
CATALOGUE = FIXTURES / "test-troopers.cat"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """The user's roster folder, empty, in a temporary directory."""
    rosters = tmp_path / "rosters"
    monkeypatch.setenv("KTLOG_ROSTERS", str(rosters))
    return rosters


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def imported(folder: Path, *args: str):
    result = run("roster", "import", *args)
    assert result.exit_code == 0, result.output
    return load_roster(folder / "test-troopers.toml")


def cards(roster) -> dict:
    return {o.id: o.datacard for o in roster.operatives}


def test_battlescribe_roster_becomes_a_roster_file_with_its_source(folder):
    roster = imported(folder, str(ROS), "--archetypes", "Security,Recon")
    assert (roster.name, roster.archetypes, roster.source, roster.revision) == ("Test Troopers", ("Security", "Recon"), "test-troopers.ros", "3")
    ops = cards(roster)
    assert sorted(ops) == ["test-trooper-1", "test-trooper-2", "trooper-gunner", "trooper-sergeant"]  # two identical troopers: count 2
    sergeant = ops["trooper-sergeant"]
    assert (sergeant.apl, sergeant.move, sergeant.save, sergeant.wounds) == (3, 6, 4, 9)
    assert sergeant.keywords == ("TEST TROOPERS", "LEADER")  # "Operative" is structural, not a keyword
    assert sergeant.rules == ("Steady Hands",)
    assert [(a.name, a.ap) for a in sergeant.unique_actions] == [("Drill Call", 1)]
    rifle, blade = sergeant.weapons
    assert (rifle.name, rifle.kind, rifle.atk, rifle.hit, rifle.normal_dmg, rifle.crit_dmg) == ("Practice rifle", "ranged", 4, 3, 3, 4)
    assert rifle.rules == ('Range 8"', "Piercing Crits 1", "Drill*")  # the team's own rule kept by name
    assert blade.kind == "melee" and blade.rules == ("Lethal 5+",)


def test_weapon_kind_fallback_bad_damage_and_move_0_are_flagged_not_fatal(folder):
    result = run("roster", "import", str(ROS), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Marker launcher: no ⌖/⚔ symbol; taken as ranged" in result.output
    assert "Rifle stock: no ⌖/⚔ symbol; taken as melee" in result.output
    assert "Wobbly not a rule ktlog knows" in result.output and "Drill*" not in result.output.split("note:", 1)[1]
    assert "left out: Trooper Gunner: weapon 'Signal flare': Dmg '-'" in result.output
    assert 'left out: Training Beacon: Move 0"' in result.output
    assert "archetypes: BSData has none" in result.output
    assert "dry run: nothing written" in result.output and not folder.exists()


def test_rosz_is_the_zipped_roster(folder, tmp_path):
    rosz = tmp_path / "test-troopers.rosz"
    with zipfile.ZipFile(rosz, "w") as z:
        z.write(ROS, "test-troopers.ros")
    assert cards(imported(folder, str(rosz))) == cards(load_roster(_import_to(tmp_path / "plain.toml", ROS)))


def _import_to(path: Path, source: Path) -> Path:
    assert run("roster", "import", str(source), "--out", str(path)).exit_code == 0
    return path


def test_new_recruit_json(folder):
    roster = imported(folder, str(FIXTURES / "test-troopers.json"))
    assert sorted(cards(roster)) == ["test-trooper-1", "test-trooper-2", "test-trooper-3", "trooper-sergeant"]  # number 3
    assert roster.source == "test-troopers.json" and roster.revision == "3"
    assert cards(roster)["test-trooper-1"].weapons[0].rules == ()


def test_kt21_roster_keeps_its_profiles(folder, tmp_path):
    roster = load_roster(_import_to(tmp_path / "veterans.toml", FIXTURES / "test-veterans-kt21.ros"))
    sergeant = cards(roster)["veteran-drill-sergeant"]
    assert (sergeant.move, sergeant.group_activation, sergeant.defence, sergeant.save, sergeant.wounds) == (6, 1, 3, 5, 8)  # M 3⬤ is 6"
    carbine = sergeant.weapons[0]
    assert carbine.rules == ('Rng 6"', "AP1") and carbine.critical_rules == ("MW2",)
    grenade = cards(roster)["veteran-grenadier-1"].weapons[0]
    assert grenade.kind == "ranged" and grenade.rules == ('Rng 6"', 'Blast 2"', "Limited")


def test_catalogue_with_its_game_system_gives_every_option(folder):
    roster = imported(folder, str(CATALOGUE), "--system", str(SYSTEM))
    sergeant, trooper = cards(roster)["trooper-sergeant"], cards(roster)["test-trooper"]
    assert [w.name for w in sergeant.weapons] == ["Practice pistol", "Training blade", "Practice rifle", "Fists"]  # links followed
    assert {w.name: w.hit for w in sergeant.weapons}["Training blade"] == 3  # the sergeant's modifier applied
    assert {w.name: w.hit for w in trooper.weapons}["Training blade"] == 4
    assert (trooper.apl, trooper.wounds) == (2, 7)  # its Operative profile is a shared profile
    assert sergeant.keywords == ("TEST TROOPERS", "LEADER")  # the hidden structural category left out


def test_zipped_catalogue_and_a_whole_data_folder(folder, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(SYSTEM, data)
    with zipfile.ZipFile(data / "test-troopers.catz", "w") as z:
        z.write(CATALOGUE, "test-troopers.cat")
    (data / "broken.cat").write_text("<catalogue")
    result = run("roster", "import", str(data), "--dry-run")
    assert result.exit_code == 1 and "error: 1 catalogue of" in result.output  # issue 24 #14: it said nothing of broken.cat in its status
    lines = result.output.splitlines()
    assert lines[0].split() == ["kill", "team", "operatives", "weapons", "could", "not", "map"]
    assert any(line.startswith("broken ") and "not a BattleScribe XML file" in line for line in lines)
    assert any(line.split()[:4] == ["Test", "Troopers", "2", "4"] for line in lines)
    assert not folder.exists()
    written = run("roster", "import", str(data))
    assert written.exit_code == 1 and f"error: 1 catalogue of {data} could not be imported (above)" in written.output
    assert load_roster(folder / "test-troopers.toml").revision == "3"  # the others are written all the same
    (data / "broken.cat").unlink()
    assert run("roster", "import", str(data), "--force").exit_code == 0


def test_import_into_an_existing_folder_and_check_by_name(folder, tmp_path):
    # Issue 24 #14: `--out DIR` of an existing folder said "a roster file is already there";
    # `roster check` took only a path, while `roster show` takes a name.
    mine = tmp_path / "mine"
    mine.mkdir()
    result = run("roster", "import", str(CATALOGUE), "--system", str(SYSTEM), "--out", str(mine))
    assert result.exit_code == 0, result.output
    assert [p.name for p in mine.iterdir()] == ["test-troopers.toml"] and f"wrote {mine / 'test-troopers.toml'}" in result.output
    imported(folder, str(ROS))
    by_name = run("roster", "check", "test-troopers")
    assert by_name.exit_code == 0 and f"checking {folder / 'test-troopers.toml'}" in by_name.output and "Test Troopers, 4 operatives" in by_name.output
    assert "Kasrkin" in run("roster", "check", "kasrkin").output  # a sample by name
    unknown = run("roster", "check", "no-such-team")
    assert unknown.exit_code == 1 and "no roster 'no-such-team'" in unknown.output


def test_refuses_to_overwrite_without_force(folder):
    imported(folder, str(ROS))
    again = run("roster", "import", str(ROS))
    assert again.exit_code == 1 and "already there; give --force" in again.output
    assert run("roster", "import", str(ROS), "--force").exit_code == 0
    assert [p.name for p in folder.iterdir()] == ["test-troopers.toml"]  # no temporary file left


def test_a_game_is_created_from_the_imported_roster(folder, tmp_path):
    imported(folder, str(ROS))
    db = tmp_path / "games.db"
    result = run(
        "--db",
        str(db),
        "new",
        "--killzone",
        "volkus",
        "--player",
        "Alice=Test Troopers",  # by its name in the user's roster folder
        "--player",
        f"Bob={folder / 'test-troopers.toml'}:trooper-sergeant,test-trooper-1",
    )
    assert result.exit_code == 0, result.output
    shown = run("--db", str(db), "show", result.output.split()[0], "--json")
    assert shown.exit_code == 0 and "bob-trooper-sergeant" in shown.output
    unknown = run("--db", str(db), "new", "--killzone", "volkus", "--player", "Alice=No Such Team", "--player", "Bob=kasrkin")
    assert unknown.exit_code == 1 and "no roster 'No Such Team'" in unknown.output and "ktlog roster list" in unknown.output


def test_list_show_and_check(folder, tmp_path):
    imported(folder, str(ROS))
    listed = run("roster", "list").output
    assert "test-troopers" in listed and "Test Troopers (4 operatives)" in listed and "kasrkin" in listed
    shown = run("roster", "show", "test-troopers")
    assert shown.exit_code == 0 and "from test-troopers.ros revision 3" in shown.output and "2x Test Trooper" in shown.output
    assert "Hot-shot" in run("roster", "show", "kasrkin").output  # a shipped sample by name
    good = run("roster", "check", str(folder / "test-troopers.toml"))
    assert good.exit_code == 0 and "usable, with 2 not applied (above): Test Troopers, 4 operatives; no archetypes" in good.output
    assert "not applied: Trooper Gunner: weapon 'Marker launcher': 'Wobbly' is not a weapon rule ktlog knows" in good.output
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "X"\n\n[[operatives]]\nname = "A"\napl = 2\nmove = 6\nsave = "4+"\nwounds = 8\nweapons = []\n\n'
        '[[operatives]]\nname = "B"\napl = "two"\nmove = 6\nsave = "4+"\nwounds = 8\nweapons = []\n'
    )
    result = run("roster", "check", str(bad))
    assert result.exit_code == 1 and f"{bad}:13:" in result.output and "apl" in result.output
    bad.write_text('name = "X"\n[[operatives]]\nname = "A"\napl = 2\nmove = 0\nsave = "4+"\nwounds = 8\nweapons = []\n')
    assert f"{bad}:5:" in run("roster", "check", str(bad)).output  # the field's line, for a datacard problem
    bad.write_text('name = "X"\nname = \n')
    assert f"{bad}:2:" in run("roster", "check", str(bad)).output


# --- bad input: a clear message naming the file, nothing written, exit 1, no traceback --------

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<roster name="&c;"/>"""
EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster name="&secret;"/>"""
ANOTHER_GAME = ROS.read_text().replace("Warhammer 40,000: Kill Team (2024)", "Warhammer 40,000 10th Edition").replace("c521-ad27-44df-f959", "sys-other")
NO_WOUNDS = ROS.read_text().replace('<characteristic name="Wounds" typeId="74f9">9</characteristic>', "")


def _zip(path: Path, **members: str) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(name.replace("_", "."), text)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("team.ros", "this is not XML", "not a BattleScribe XML file (syntax error: line 1, column 0)"),
        ("team.json", "{not json", "not a JSON file (line 1, column 2"),
        ("team.json", '{"list": []}', 'not a New Recruit roster export: it has no "roster" object'),
        ("team.rosz", "not a zip", "not a zip file"),
        (
            "team.rosz",
            {"notes_txt": "hello", "other_txt": "x"},
            "not a BattleScribe zip: it should hold one .ros, .cat or .gst file, and it holds notes.txt, other.txt",
        ),
        ("team.ros", BILLION_LAUGHS, "refused: the XML declares entities"),
        ("team.ros", EXTERNAL_ENTITY, "refused: the XML declares entities"),
        ("team.ros", ANOTHER_GAME, "made for the game system 'Warhammer 40,000 10th Edition', not Kill Team"),
        ("team.ros", NO_WOUNDS, "selection 'Trooper Sergeant' > profile 'Trooper Sergeant' (Operative) has no Wounds characteristic"),
        ("team.ros", CATALOGUE.read_text(), "not a roster: its top element is <catalogue>"),
    ],
    ids=[
        "not-xml",
        "not-json",
        "json-not-roster",
        "not-zip",
        "zip-not-battlescribe",
        "billion-laughs",
        "external-entity",
        "another-game",
        "missing-characteristic",
        "catalogue-as-roster",
    ],
)
def test_bad_input_is_refused_clearly(folder, tmp_path, name, content, message):
    path = tmp_path / name
    if isinstance(content, dict):
        _zip(path, **content)
    else:
        path.write_text(content)
    result = run("roster", "import", str(path))
    assert result.exit_code == 1
    assert message in result.output and str(path) in result.output and "Traceback" not in result.output
    assert not folder.exists()


def test_a_huge_file_is_refused_before_it_is_read(folder, tmp_path):
    huge = tmp_path / "huge.ros"
    with open(huge, "wb") as f:
        f.truncate(21 * 2**20)
    result = run("roster", "import", str(huge))
    assert result.exit_code == 1 and "is larger than 20 MB, the most ktlog reads as a roster or catalogue" in result.output and not folder.exists()


def test_a_catalogue_needs_its_own_game_system(folder, tmp_path):
    assert "needs its game system: add --system" in run("roster", "import", str(CATALOGUE)).output
    other = tmp_path / "other.gst"
    other.write_text(
        SYSTEM.read_text().replace(
            'id="c521-ad27-44df-f959" name="Warhammer 40,000: Kill Team (2024)"', 'id="3b7e-7dab-f79f-2e74" name="Warhammer 40,000: Kill Team (2021)"'
        )
    )
    result = run("roster", "import", str(CATALOGUE), "--system", str(other))
    assert result.exit_code == 1 and "give the catalogue's own game system with --system" in result.output


def _leader(ability: str):
    """A made-up leader as the BSData files give one: an Operative profile, a melee weapon and an
    ability whose text marks the action up the way BSData does (two **Fight** actions)."""
    from ktlog.files.bsdata.teams import Entry, Profile, Team

    profiles = [
        Profile("Operative", "Boss", {"APL": "3", "Move": '6"', "Save": "4+", "Wounds": "14"}, "test"),
        Profile("Weapons", "⚔ Big blade", {"ATK": "4", "HIT": "3+", "DMG": "4/5", "WR": "-"}, "test"),
        Profile("Abilities", "Brawler", {"Ability": ability}, "test"),
    ]
    return Team("Test Bosses", "kt24", "test.cat", "1", [Entry("Boss", 1, profiles, ["Operative", "Leader"], "test")])


def test_two_fight_actions_as_bsdata_words_them_become_double_action_pg39():
    # Issue 24: "This operative can perform two **Fight** actions during its activation" (BSData's
    # markup) was neither mapped nor noted, so the leader's second Fight was refused.
    from ktlog.files.bsdata.mapping import map_team

    (boss,) = map_team(_leader("This operative can perform two **Fight** actions during its activation."), []).operatives
    assert boss.fields["double_action"] == ["Fight"]
    assert "double_action = [\"Fight\"]: read from the ability 'Brawler'" in boss.notes


def test_an_ability_that_only_reads_like_two_actions_is_noted_as_not_applied_naming_double_action():
    from ktlog.files.bsdata.mapping import map_team

    (boss,) = map_team(_leader("This operative can either perform two **Shoot** or two **Fight** actions during its activation."), []).operatives
    assert "double_action" not in boss.fields or boss.fields["double_action"] == []
    assert any("the ability 'Brawler' reads like an action performed twice" in n and 'double_action = ["ACTION"]' in n for n in boss.notes)
