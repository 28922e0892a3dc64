"""`ktlog roster check FILE` reports every problem of a roster file, each with its line and field
(issue 13), and `load_roster` names the first and how many more there are."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.errors import RosterError
from ktlog.files.rosters import check_roster, load_roster

THREE_PROBLEMS = """\
name = "Three Problems"

[[operatives]]
name = "Leader"
apl = "two"
move = 6
save = "4+"
wounds = 8
weapons = [
  { name = "Pistol", kind = "ranged", atk = 4, hit = "3+", dmg = "3/4" },
  { name = "Blade", kind = "melee", atk = 4, hit = "3+", dmg = "three" },
]

[[operatives]]
name = "Trooper"
apl = 2
move = 6
save = "4+"
wounds = 0
weapons = []
"""


def check(path):
    return CliRunner().invoke(cli, ["roster", "check", str(path)], catch_exceptions=False)


def test_three_different_problems_each_with_its_line_and_field(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(THREE_PROBLEMS)
    result = check(path)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:5: operative 'Leader': apl: Expected `int`, got `str`",
        f"{path}:11: operative 'Leader': weapon 'Blade': dmg 'three' is not like 3/4 (normal/critical)",
        f"{path}:19: operative 'Trooper': Wounds 0 is below 1",
        f"error: {path}: 3 problems (above); fix them and check again",
    ]
    with pytest.raises(RosterError) as err:
        load_roster(path)
    assert str(err.value) == f"{path}: operative 'Leader': apl: Expected `int`, got `str` (2 more: ktlog roster check {path} lists every problem)"


def test_unknown_and_missing_fields_and_tables_of_weapons(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(
        'name = "T"\ncolour = "red"\n\n[[operatives]]\nname = "A"\napl = 2\nmove = 6\nsave = "4+"\nwound = 8\n\n'
        '[[operatives.weapons]]\nname = "Gun"\nkind = "ranged"\natk = 4\nhit = "3+"\ndmg = "3/4"\n\n'
        '[[operatives.weapons]]\nname = "Club"\nkind = "melee"\natk = "3"\nhit = "3+"\ndmg = "3/4"\n\n'
        '[[operatives]]\nname = "B"\nid = "a"\napl = 2\nmove = 6\nsave = "4+"\nwounds = 7\nweapons = []\n'
    )
    roster, problems = check_roster(path)
    assert roster is None
    assert [(p.line, p.text) for p in problems] == [
        (2, "unknown field `colour` (docs/file-formats.md lists the fields)"),
        (4, "operative 'A': missing required field `wounds`"),
        (9, "operative 'A': unknown field `wound`: did you mean `wounds`?"),
        (21, "operative 'A': atk: Expected `int`, got `str`"),
        (27, "operative 'B': two operatives have the id 'a'; give one an `id`"),
    ]


def test_a_toml_syntax_error_has_its_line(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text('name = "T"\n\n[[operatives]]\nname = \n')
    result = check(path)
    assert result.exit_code == 1 and f"{path}:4: not valid TOML" in result.output


def test_a_clean_file_prints_a_summary(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(THREE_PROBLEMS.replace('"two"', "2").replace('"three"', '"3/4"').replace("wounds = 0", "wounds = 7"))
    result = check(path)
    assert result.exit_code == 0, result.output
    assert result.output == f"{path}: fine: Three Problems, 2 operatives; no archetypes (add archetypes = [...] for the game's records)\n"
