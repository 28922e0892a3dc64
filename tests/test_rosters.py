"""Roster files: the TOML format, clear errors, and the Joint Ops NPO datacards of pg 89."""

from __future__ import annotations

import pytest
from conftest import ROSTERS

from ktlog.errors import RosterError
from ktlog.files.rosters import game_id_for, load_roster


def test_sample_rosters_load_with_their_sizes():
    sizes = {p.stem: len(load_roster(p).operatives) for p in ROSTERS.glob("*.toml")}
    assert sizes == {
        "kasrkin": 10,
        "legionaries": 6,
        "pathfinders": 12,
        "hearthkyn": 10,
        "npo": 6,
        "kt21_veteran_guardsmen": 10,
        "kt21_kommandos": 10,
        "kt21_cultists": 11,
    }


# pg 89: name -> (APL, Save, Wounds, [(weapon, Atk, Hit, normal Dmg, critical Dmg, rules)])
PG89 = {
    "Trooper (Brawler)": (2, 5, 7, [("Blades", 4, 4, 3, 4, ("Ceaseless",))]),
    "Trooper (Marksman)": (2, 5, 7, [("Firearm", 4, 4, 2, 3, ()), ("Special weapon", 4, 4, 4, 5, ("Piercing 1",)), ("Knife", 3, 4, 2, 3, ())]),
    "Tough (Brawler)": (2, 4, 10, [("Blades", 4, 4, 4, 5, ("Ceaseless",))]),
    "Warrior (Marksman)": (2, 4, 8, [("Firearm", 4, 4, 3, 4, ()), ("Knife", 3, 4, 2, 3, ())]),
    "Heavy (Brawler)": (3, 3, 14, [("Blades", 5, 3, 4, 5, ("Ceaseless",))]),
    "Heavy (Marksman)": (3, 3, 14, [("Firearm", 4, 3, 3, 4, ()), ("Knife", 4, 3, 3, 4, ())]),
}


def test_npo_datacards_are_pg89_exactly():
    npo = {o.datacard.name: o.datacard for o in load_roster(ROSTERS / "npo.toml").operatives}
    assert set(npo) == set(PG89)
    for name, (apl, save, wounds, weapons) in PG89.items():
        c = npo[name]
        assert (c.apl, c.move, c.save, c.wounds) == (apl, 6, save, wounds), name
        assert [(w.name, w.atk, w.hit, w.normal_dmg, w.crit_dmg, w.rules) for w in c.weapons] == weapons, name


def write(tmp_path, text):
    path = tmp_path / "team.toml"
    path.write_text(text)
    return path


GOOD = """
name = "Test"
[[operatives]]
name = "Grunt"
count = 2
apl = 2
move = 6
save = "5+"
wounds = 7
weapons = [{ name = "Gun", kind = "ranged", atk = 4, hit = "4+", dmg = "3/4" }]
"""


def test_count_makes_numbered_ids(tmp_path):
    roster = load_roster(write(tmp_path, GOOD))
    assert [o.id for o in roster.operatives] == ["grunt-1", "grunt-2"]
    assert roster.operatives[0].datacard.save == 5
    assert [o.id for o in roster.select(["grunt-2"])] == ["grunt-2"]
    with pytest.raises(RosterError, match="no operative 'boss'"):
        roster.select(["boss"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('dmg = "3/4"', 'dmg = "three"'), "dmg 'three' is not like 3/4"),
        (('save = "5+"', 'save = "9+"'), "save '9\\+' is not like 3\\+"),
        (("wounds = 7", "wounds = 0"), "Wounds 0 is below 1"),
        (('kind = "ranged"', 'kind = "psychic"'), "kind 'psychic' is neither ranged nor melee"),
        (("apl = 2", "apl = 2\nspeed = 9"), "operative 'Grunt': unknown field `speed`"),
        (("apl = 2", "apl = [2"), "not valid TOML"),
    ],
)
def test_roster_errors_name_the_file_operative_and_field(tmp_path, change, message):
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(RosterError, match=message) as err:
        load_roster(path)
    assert str(path) in str(err.value)


def test_mirror_match_ids():
    assert game_id_for("sergeant", "Lou", {"sergeant"}) == "lou-sergeant"
    assert game_id_for("sergeant", "Lou", set()) == "sergeant"


def test_a_roster_says_the_edition_of_its_datacards(tmp_path):
    """`datacards = "kt21"`, not a file name, says a roster's datacards are KT21's (the new-game
    form and the simulators offer it for the rulesets that play them); an edition no ruleset
    plays is refused, naming the field."""
    assert {p.stem: load_roster(p).datacards for p in sorted(ROSTERS.glob("*.toml"))} == {
        "hearthkyn": "kt24",
        "kasrkin": "kt24",
        "kt21_cultists": "kt21",
        "kt21_kommandos": "kt21",
        "kt21_veteran_guardsmen": "kt21",
        "legionaries": "kt24",
        "npo": "kt24",
        "pathfinders": "kt24",
    }
    renamed = tmp_path / "orks.toml"
    renamed.write_text((ROSTERS / "kt21_kommandos.toml").read_text())
    assert load_roster(renamed).datacards == "kt21"
    renamed.write_text((ROSTERS / "kt21_kommandos.toml").read_text().replace('datacards = "kt21"', 'datacards = "kt30"'))
    with pytest.raises(RosterError, match="datacards = 'kt30': no ruleset plays that edition's datacards; write one of kt21, kt24"):
        load_roster(renamed)
