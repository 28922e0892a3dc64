"""Equipment from BSData catalogues and BattleScribe rosters, mapped into the roster format's
[[equipment]] (issue 13); ploys are not in the data. The fixtures are invented, in the real
structure: a catalogue's "Faction Equipment" group on its link to the game system's "Equipment
Reference" entry, which links to the "Universal Equipment" group; a roster's chosen equipment
inside its "Equipment Reference" selection."""

from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner
from conftest import ROSTERS

from ktlog.cli import cli
from ktlog.files.bsdata.catalogues import read_catalogue, read_system
from ktlog.files.bsdata.mapping import map_team
from ktlog.files.bsdata.rosters import read_roster
from ktlog.files.bsdata.toml_out import import_flags, render
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, shoot

FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
KNIVES = {"name": "Training Knives", "weapon": {"name": "Training knife", "kind": "melee", "atk": 3, "hit": "4+", "dmg": "2/4"}}
CHALK = {"name": "Chalk grenade", "kind": "ranged", "atk": 4, "hit": "4+", "dmg": "1/3", "rules": ['Range 6"', 'Blast 2"', "Limited 1"]}
PAINT = {"name": "Paint grenade", "kind": "ranged", "atk": 4, "hit": "4+", "dmg": "2/3", "rules": ['Range 6"', "Piercing 1", "Limited 1"]}


def catalogue_team():
    return map_team(read_catalogue(FIXTURES / "test-troopers.cat", read_system(FIXTURES / "test-system.gst")), [])


def written(team) -> list[dict]:
    """The [[equipment]] tables as a TOML reader reads them back."""
    return tomllib.loads(render(team))["equipment"]


def test_a_catalogue_gives_its_faction_equipment_then_the_universal_equipment():
    team = catalogue_team()
    assert written(team) == [
        {"name": "Practice Scope"},
        KNIVES,
        {"name": "Practice Grenades", "weapons": [CHALK, PAINT]},  # one option that gives two weapons (issue 24)
        {"name": "Practice Cones"},
    ]
    notes = {item.fields["name"]: item.notes for item in team.equipment}
    assert notes["Training Knives"] == ["Training knife: no ⌖/⚔ symbol; taken as melee from its rules"]
    assert notes["Practice Grenades"] == ["Practice Grenades gives 2 weapons (Chalk grenade, Paint grenade): one option, counted once (pg 110)"]
    assert [o.fields["name"] for o in team.operatives] == ["Trooper Sergeant", "Test Trooper"]  # equipment is no operative


def test_a_roster_gives_the_equipment_chosen():
    team = map_team(read_roster(FIXTURES / "test-troopers.ros"), [])
    assert written(team) == [KNIVES, {"name": "Practice Cones"}]
    assert [o.fields["name"] for o in team.operatives] == ["Trooper Sergeant", "Test Trooper", "Trooper Gunner"]


def test_rules_text_is_not_copied_and_ploys_are_left_to_the_player():
    text = render(catalogue_team())
    assert "Illustrative text" not in text and "reminder = " not in text.replace('# reminder = "', "")
    parsed = tomllib.loads(text)
    assert "ploys" not in parsed  # the data has none: a commented example only
    assert '# [[ploys]]\n# name = "..."\n# kind = "strategy"  # or "firefight"\n# cp = 1' in text


def test_equipment_notes_stay_off_the_operatives_flags():
    flags = import_flags(render(map_team(read_roster(FIXTURES / "test-troopers.ros"), [])) + '\n# note: stray\n[[equipment]]\nname = "X"\n')
    assert flags.notes["Test Trooper"] == ["Rifle stock: no ⌖/⚔ symbol; taken as melee from its rules"]
    assert all("Training knife" not in note and note != "stray" for notes in flags.notes.values() for note in notes)


def test_the_import_lists_the_equipment(tmp_path):
    result = CliRunner().invoke(cli, ["roster", "import", str(FIXTURES / "test-troopers.ros"), "--dry-run"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "equipment: Training Knives: melee ATK 3 HIT 4+ DMG 2/4\nequipment: Practice Cones\n" in result.output
    assert "ploys: the roster data has none" in result.output


def test_the_written_roster_loads_with_its_equipment(tmp_path):
    out = tmp_path / "team.toml"
    result = CliRunner().invoke(
        cli, ["roster", "import", str(FIXTURES / "test-troopers.cat"), "--system", str(FIXTURES / "test-system.gst"), "--out", str(out)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    roster = load_roster(out)
    assert [e.name for e in roster.equipment] == ["Practice Scope", "Training Knives", "Practice Grenades", "Practice Cones"]
    assert [w.name for w in roster.equipment[2].weapons] == ["Chalk grenade", "Paint grenade"]


def test_four_options_one_of_which_gives_two_weapons_are_four_of_four_pg110(tmp_path):
    # 000 pg 110: "Each player secretly selects up to four equipment options." An option that
    # gives two weapons (explosive grenades: frag and krak) is one option: the four are legal
    # (they were five entries before), and both of its weapons can be used.
    out = tmp_path / "team.toml"
    args = ["roster", "import", str(FIXTURES / "test-troopers.cat"), "--system", str(FIXTURES / "test-system.gst"), "--out", str(out)]
    assert CliRunner().invoke(cli, args, catch_exceptions=False).exit_code == 0
    g = GameBuilder(date="2026-11-21").player("Alice", load_roster(out)).player("Bob", load_roster(ROSTERS / "legionaries.toml"))
    four = ["Practice Scope", "Training Knives", "Practice Grenades", "Practice Cones"]
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, equipment={"Alice": four})
    assert g.state.players["Alice"].equipment == four and not g.state.warnings
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    g.activate("trooper-sergeant", "engage", shoot("Chalk grenade", "legionary-1", damage=0))
    g.activate("legionary-1", "conceal")
    g.activate("test-trooper", "engage", shoot("Paint grenade", "legionary-2", damage=0))
    assert [a.weapon for a in g.state.attacks] == ["Chalk grenade", "Paint grenade"]
