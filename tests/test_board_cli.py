"""`ktlog new --layout` and positions typed on `ktlog event` (issue 44): what a user sees."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.data import SAMPLE_ROSTERS

SETUP = [
    ("RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2"),
    ("InitiativeDecided", "player=Alice"),
    ("ObjectiveMarkerSetUp", "marker=centre", "player=Bob"),
    ("ObjectiveMarkerSetUp", "marker=west", "player=Alice"),
    ("ObjectiveMarkerSetUp", "marker=east", "player=Bob"),
    ("CritOpRolled", "roll=2"),
    ("DropZoneChosen", "player=Alice", "drop_zone=A"),
    ("DropZoneChosen", "player=Bob", "drop_zone=B"),
    ("EquipmentSelected", "player=Alice"),
    ("EquipmentSelected", "player=Bob"),
]


@pytest.fixture
def run(tmp_path):
    def invoke(*args):
        return CliRunner().invoke(cli, ["--db", str(tmp_path / "board.db"), *map(str, args)], catch_exceptions=False)

    return invoke


def new(run, *layout: str):
    return run(
        "new",
        "--killzone",
        "volkus",
        *layout,
        "--player",
        f"Alice={SAMPLE_ROSTERS / 'kasrkin.toml'}:sergeant,medic",
        "--player",
        f"Bob={SAMPLE_ROSTERS / 'legionaries.toml'}:legionary-1,heavy-gunner",
    )


def test_a_game_on_a_layout_takes_positions_and_refuses_a_set_up_outside_the_drop_zone(run):
    created = new(run, "--layout", "volkus-like")
    assert created.exit_code == 0, created.output
    game = created.stdout.split()[0][:8]
    for event in SETUP:
        assert run("event", game, *event).exit_code == 0
    outside = run("event", game, "OperativeSetUp", "operative=sergeant", "x=8", "y=12")
    assert outside.exit_code == 1 and "Traceback" not in outside.output
    assert "not wholly within Alice's drop zone 'A'" in outside.output and "pg 110" in outside.output
    placed = run("event", game, "OperativeSetUp", "operative=sergeant", "x=8", "y=19.5")
    assert placed.exit_code == 0, placed.output
    log = run("log", game, "--json")
    assert '"x": 8.0' in log.stdout or '"x":8.0' in log.stdout


def test_an_unknown_layout_is_refused_before_anything_is_written(run, tmp_path):
    unknown = new(run, "--layout", "nowhere")
    assert unknown.exit_code == 1 and "no layout 'nowhere'" in unknown.output and "volkus-like" in unknown.output
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "mine"\nwidth = 0\n')
    refused = new(run, "--layout", bad)
    assert refused.exit_code == 1 and "field width" in refused.output and "Traceback" not in refused.output
    assert not (tmp_path / "board.db").exists()


def test_positions_in_a_game_without_a_layout_are_refused(run):
    game = new(run).stdout.split()[0][:8]
    for event in SETUP:
        run("event", game, *event)
    refused = run("event", game, "OperativeSetUp", "operative=sergeant", "x=8", "y=19.5")
    assert refused.exit_code == 1 and "has no layout" in refused.output and "--layout" in refused.output


def test_the_next_step_names_the_layouts_markers_and_asks_where_to_set_up(run):
    game = new(run, "--layout", "volkus-like").stdout.split()[0][:8]
    run("event", game, *SETUP[0])
    assert "marker=centre" in run("event", game, *SETUP[1]).output
    assert "marker=west" in run("event", game, *SETUP[2]).output  # the layout's next marker, not alice-marker
    assert "marker=east" in run("event", game, *SETUP[3]).output
    for event in SETUP[4:]:
        said = run("event", game, *event).output
    assert "OperativeSetUp operative=ID x=INCHES y=INCHES" in said
