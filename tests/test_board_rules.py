"""The rules the board checks, from the rulebook's own examples and numbers (file 000): distances
(pg 50), control range (pg 46), cover (pg 47), targeting lines (pg 51), obscured (pg 53),
objective control (pg 52), Vantage (pg 60), Blast, Torrent and x" Devastating (pg 111), and
moving with climbing, dropping and jumping (pg 40-41, 56, 61). Each refusal names its page."""

from __future__ import annotations

import math

import pytest

from ktlog.board.geometry import (
    Board,
    Placed,
    blast_targets,
    contests,
    control_range,
    crossed,
    devastating_targets,
    distance,
    marker_control,
    target_problem,
    targeting,
    torrent_targets,
    vantage,
    visible,
)
from ktlog.board.layout import Feature, Layout, Objective, Part, Rect
from ktlog.board.movement import move_cost, move_problem, placement_problem

R32 = 32 / 25.4 / 2  # a 32mm base's radius in inches


def board(*parts: tuple[str, list[str], float, Rect], bottom: dict[str, float] | None = None, objectives: list[Objective] | None = None) -> Board:
    """A 30 x 22 board with one feature per part: (name, traits, height, footprint)."""
    features = [Feature(name, [Part(name, traits, height, bottom=(bottom or {}).get(name, 0.0), rect=rect)]) for name, traits, height, rect in parts]
    return Board(Layout(name="test", terrain=features, objectives=objectives or []))


def op(name: str, x: float, y: float, z: float = 0.0, *, player: str = "A", order: str = "engage", apl: int = 2) -> Placed:
    return Placed(name, player, x, y, z, base_mm=32, order=order, apl=apl)


OPEN = board()


# --- distances and control range (pg 46, 50) -------------------------------------------------


def test_distances_are_measured_between_the_closest_parts_of_bases_pg50():
    a, b = op("a", 5, 5), op("b", 8, 5)
    assert distance(a, b) == pytest.approx(3 - 2 * R32)  # 1.74": centres 3" apart, 32mm bases
    up = op("b", 8, 5, z=3)
    assert distance(a, up) == pytest.approx(math.hypot(3 - 2 * R32, 3))
    touching = op("b", 5 + 2 * R32, 5)
    assert distance(a, touching) == 0


def test_control_range_is_visible_and_within_1_inch_and_mutual_pg46():
    a, b = op("a", 5, 5), op("b", 5 + 2 * R32 + 0.9, 5, player="B")
    assert control_range(OPEN, a, b) and control_range(OPEN, b, a)
    far = op("b", 5 + 2 * R32 + 1.1, 5, player="B")
    assert not control_range(OPEN, a, far)
    # pg 46: "Because of the terrain, operative B is not visible to operative C ... not within each other's control range."
    wall = board(("wall", ["heavy"], 4.0, Rect(5 + R32 + 0.2, 3, 0.4, 4)))
    assert not visible(wall, a, b) and not control_range(wall, a, b)


# --- cover (pg 47), targeting lines (pg 51), obscured (pg 53) --------------------------------


def test_the_four_cover_examples_pg47():
    shooter = op("shooter", 4, 11)
    target = op("target", 20, 11, player="B", order="engage")
    # "There's intervening terrain within operative A's control range, therefore it's in cover."
    near = board(("barricade", ["light"], 1.0, Rect(20 - R32 - 0.8, 9.5, 0.4, 3)))
    assert targeting(near, shooter, target).in_cover()
    # "There's intervening terrain, but it's not within operative A's control range ... not in cover."
    mid = board(("barricade", ["light"], 1.0, Rect(12, 9.5, 0.4, 3)))
    assert not targeting(mid, shooter, target).in_cover()
    # "There's terrain within operative A's control range, but the terrain is not intervening ... not in cover."
    behind = board(("barricade", ["light"], 1.0, Rect(20 + R32 + 0.3, 9.5, 0.4, 3)))
    assert not targeting(behind, shooter, target).in_cover()
    # "... but operative B is within 2" of operative A, therefore it's not in cover."
    close = op("shooter", 20 - 2 * R32 - 1.9, 11)
    lines = targeting(near, close, target)
    assert lines.close and not lines.in_cover()


def test_the_attackers_player_chooses_where_the_lines_are_drawn_from_pg51():
    """A post 1.4" in front of the shooter, across half its view: from the middle of its base the
    lines cross it, leaning the other way they do not. The player decides: not obscured. A post
    across the whole view cannot be leaned around: obscured."""
    shooter, target = op("shooter", 4, 11), op("target", 16, 11, player="B")
    half = board(("post", ["heavy"], 3.0, Rect(4 + R32 + 1.4, 10.95, 0.3, 1.9)))
    assert crossed(half.pieces[0], (4 + R32, 11), 0.0, target)
    assert not targeting(half, shooter, target).obscured
    whole = board(("post", ["heavy"], 3.0, Rect(4 + R32 + 1.4, 10.2, 0.3, 2.8)))
    assert targeting(whole, shooter, target).obscured


def test_the_three_obscured_examples_pg53():
    shooter, target = op("shooter", 4, 11), op("target", 20, 11, player="B")
    # "intervening Heavy terrain more than 1" from both operatives, therefore operative B is obscured."
    assert targeting(board(("ruin", ["heavy"], 1.0, Rect(11, 9, 1, 4))), shooter, target).obscured
    # "There's intervening Heavy terrain, but it's within 1" of operative A ... not obscured."
    assert not targeting(board(("ruin", ["heavy"], 1.0, Rect(4 + R32 + 0.3, 9, 0.5, 4))), shooter, target).obscured
    # "Whilst parts of it are within 1" of the operatives, part of it isn't, therefore operative B is obscured."
    long = board(("wall", ["heavy"], 1.0, Rect(12 - 7.5, 10.85, 15, 0.3, 10)))  # from beside one to beside the other, across the line
    assert targeting(long, shooter, target).obscured
    # Light terrain never obscures; Exposed terrain is never intervening (pg 61).
    assert not targeting(board(("rubble", ["light"], 1.0, Rect(11, 9, 1, 4))), shooter, target).obscured
    assert not targeting(board(("ladder", ["heavy", "exposed"], 1.0, Rect(11, 9, 1, 4))), shooter, target).obscured


def test_a_conceal_target_in_cover_is_not_a_valid_target_pg55():
    shooter = op("shooter", 4, 11)
    target = op("target", 20, 11, player="B", order="conceal")
    near = board(("barricade", ["light"], 1.0, Rect(20 - R32 - 0.8, 9.5, 0.4, 3)))
    refusal = target_problem(near, shooter, target, [shooter, target])
    assert refusal is not None and refusal.rule == "Valid target, pg 55" and "barricade" in refusal.text
    assert target_problem(near, shooter, target, [shooter, target], seek="seek light") is None  # pg 111: Seek Light
    engaged = Placed("target", "B", 20, 11, 0.0, 32, "engage")
    assert target_problem(near, shooter, engaged, [shooter, engaged]) is None  # Engage: valid, with a cover save
    friend = op("friend", 20 - 2 * R32 - 0.5, 11)
    refusal = target_problem(OPEN, shooter, engaged, [shooter, engaged, friend])
    assert refusal is not None and refusal.rule == "Shoot, pg 42"


# --- Vantage (pg 60): the audit's case --------------------------------------------------------


def vantage_board() -> Board:
    """A platform 4" up (a gantry floor), and light rubble beside a target on the floor."""
    return board(
        ("gantry", ["vantage"], 4.0, Rect(2, 8, 5, 6)),
        ("rubble", ["light"], 1.0, Rect(20 - R32 - 0.8, 9.5, 0.4, 3)),
        bottom={"gantry": 3.75},
    )


def test_from_vantage_a_conceal_target_in_light_cover_is_valid_and_keeps_an_improved_cover_save_pg60():
    """The audit's case: a shot from Vantage at a Conceal operative in Light cover was refused (pg 42).
    From 4" up it is a valid target; its cover save is kept (as a critical, or one more)."""
    shooter, target = op("shooter", 4.5, 11, z=4), op("target", 20, 11, player="B", order="conceal")
    b = vantage_board()
    assert b.standing_on(shooter) is not None
    assert targeting(b, shooter, target).in_cover()  # the rubble is still intervening: a cover save
    v = vantage(b, shooter, target)
    assert v.on_vantage and v.ignores_light_cover and v.accurate == 0  # Accurate only against Engage
    assert target_problem(b, shooter, target, [shooter, target]) is None
    floor = op("shooter", 9, 11)
    assert target_problem(b, floor, target, [floor, target]) is not None  # from the floor it is not


@pytest.mark.parametrize(("height", "accurate"), [(1.5, 0), (2.0, 1), (3.5, 1), (4.0, 2), (6.0, 2)])
def test_vantage_gives_accurate_1_at_2_inches_lower_and_accurate_2_at_4_pg60(height, accurate):
    b = board(("gantry", ["vantage"], height, Rect(2, 8, 5, 6)), bottom={"gantry": height - 0.25})
    shooter, target = op("shooter", 4.5, 11, z=height), op("target", 20, 11, player="B", order="engage")
    assert vantage(b, shooter, target).accurate == accurate


def test_heavy_terrain_connected_to_the_vantage_the_shooter_is_on_does_not_obscure_pg60():
    rampart = Part("wall", ["heavy"], 5.0, rect=Rect(7.2, 8, 0.4, 6))
    floor = Part("floor", ["vantage"], 3.0, bottom=2.75, rect=Rect(2, 8, 5.2, 6))
    other = Feature("ruin", [Part("ruin", ["heavy"], 5.0, rect=Rect(12, 8, 0.4, 6))])
    b = Board(Layout(name="t", terrain=[Feature("stronghold", [floor, rampart]), other]))
    shooter, target = op("shooter", 5, 11, z=3), op("target", 20, 11, player="B")
    lines = targeting(b, shooter, target)
    assert all("stronghold / wall" not in c.obscured_by for c in lines.choices)
    assert lines.obscured and all("ruin / ruin" in c.obscured_by for c in lines.choices)


# --- objective markers (pg 52) ----------------------------------------------------------------


def test_the_objective_control_example_pg52():
    """Three operatives contest the marker; the fourth is within 1" but terrain hides it: orange
    totals APL 2, white 4, so white controls it."""
    marker = Objective("centre", 15, 11)
    r = 20 / 25.4
    b = board(("pillar", ["heavy"], 3.0, Rect(15 - r - 0.45, 10.2, 0.3, 1.6)), objectives=[marker])
    white = [op("w1", 15, 11 - r - R32 - 0.5, player="white"), op("w2", 15 + r + R32 + 0.5, 11, player="white")]
    orange = [op("o1", 15, 11 + r + R32 + 0.5, player="orange"), op("o2", 15 - r - R32 - 0.9, 11, player="orange")]
    assert [contests(b, o, marker) for o in white + orange] == [True, True, True, False]
    assert marker_control(b, marker, white + orange) == "white"
    assert marker_control(b, marker, orange[:1] + white[:1]) is None  # equal APL: nobody
    assert marker_control(b, marker, white, carrier=orange[0]) == "orange"


# --- weapons reaching further (pg 111) --------------------------------------------------------


def test_blast_torrent_and_devastating_reach_pg111():
    shooter = op("shooter", 4, 11)
    primary = op("primary", 16, 11, player="B", order="conceal")
    beside = op("beside", 16, 11 + 2 * R32 + 1.5, player="B", order="conceal")  # 1.5" away
    friend = op("friend", 16 + 2 * R32 + 1.0, 11)  # the shooter's own operative, 1" away
    hidden = op("hidden", 16, 11 - 2 * R32 - 1.0, player="B", order="engage")
    b = board(
        ("wall", ["heavy"], 4.0, Rect(14, 11 - R32 - 0.6, 4, 0.3)),  # between primary and hidden
        ("cover", ["light"], 1.0, Rect(14.75, 12.51, 0.3, 2)),  # beside is in cover from the shooter
    )
    everyone = [shooter, primary, beside, friend, hidden]
    # Blast 2": visible to and within 2" of the primary target, friend or foe, whatever the order.
    assert [o.id for o in blast_targets(b, primary, 2.0, everyone)] == ["beside", "friend"]
    assert [o.id for o in devastating_targets(b, primary, 2.0, everyone)] == ["beside", "friend"]
    # Torrent 2": other valid targets within 2": beside is Conceal and in cover, the friend is not an
    # enemy; hidden, behind the wall from the primary target, is in the shooter's sight.
    assert [o.id for o in torrent_targets(b, shooter, primary, 2.0, everyone)] == ["hidden"]
    open_beside = Placed("beside", "B", beside.x, beside.y, 0.0, 32, "engage")
    assert [o.id for o in torrent_targets(b, shooter, primary, 2.0, [shooter, primary, open_beside, friend, hidden])] == ["beside", "hidden"]


# --- moving (pg 40-41, 46, 56, 61) -------------------------------------------------------------


def test_increments_are_rounded_up_pg40():
    """pg 40: 0.5" counts as 1", 2.75" as 3": 4" in all."""
    a = op("a", 5, 5)
    move = move_cost(OPEN, a, [(5.5, 5, 0), (5.5, 7.75, 0)])
    assert move.problem is None and move.cost == 4


def test_the_climbing_and_dropping_examples_pg56():
    """ "The operative moves up for 2" (a 1" distance, but treated as the minimum 2") ... across 3"
    ... then drops down for 0" (as the drop is less than 2")": 5"."""
    crate = board(("crate", ["heavy"], 1.0, Rect(6, 3, 1.5, 4)))
    a = op("a", 6 - R32, 5)
    move = move_cost(crate, a, [(6 - R32, 5, 1.0), (9 - R32, 5, 1.0), (9 - R32, 5, 0.0)])
    assert move.problem is None and move.cost == 2 + 3 + 0 and move.climbed
    # "The operative moves across 2" until it's fully off the ledge, then drops down for 2" (a 4"
    # distance, but the first 2" is ignored)": 4".
    ledge = board(("roof", ["vantage"], 4.0, Rect(2, 2, 4, 6)), bottom={"roof": 3.75})
    up = op("a", 5, 5, z=4)
    move = move_cost(ledge, up, [(7, 5, 4.0), (7, 5, 0.0)])
    assert move.problem is None and move.cost == 4
    # Dropping twice in one action: only 2" in all is ignored.
    assert move_cost(ledge, up, [(7, 5, 4.0), (7, 5, 2.0), (7, 5, 0.0)]).cost == 4


def test_a_dash_cannot_climb_and_a_move_cannot_go_further_than_it_allows_pg41():
    crate = board(("crate", ["heavy"], 1.0, Rect(6, 3, 1.5, 4)))
    a = op("a", 6 - R32, 5)
    path = [(6 - R32, 5, 1.0), (9 - R32, 5, 1.0), (9 - R32, 5, 0.0)]
    refusal = move_problem(crate, a, path, 3, climb=False, action="Dash")
    assert refusal is not None and refusal.rule == "Dash, pg 41" and "cannot climb" in refusal.text
    refusal = move_problem(crate, a, path, 4)
    assert refusal is not None and refusal.rule == "Reposition, pg 40-41" and 'counts 5"' in refusal.text
    assert move_problem(crate, a, path, 6) is None


def test_terrain_bases_and_the_board_edge_stop_a_move_pg46_56():
    wall = board(("wall", ["heavy"], 3.0, Rect(8, 2, 0.4, 8)))
    a = op("a", 5, 5)
    refusal = move_cost(wall, a, [(11, 5, 0)]).problem
    assert refusal is not None and refusal.rule == "Terrain and Movement, pg 56"
    enemy = op("e", 8, 5, player="B")
    refusal = move_cost(OPEN, a, [(11, 5, 0)], [enemy]).problem
    assert refusal is not None and refusal.rule == "Bases, pg 46" and "enemy operative e" in refusal.text
    assert move_cost(OPEN, a, [(11, 5, 0)], [op("f", 8, 5)]).problem is None  # through a friendly operative
    edge = placement_problem(OPEN, op("a", 0.3, 5))
    assert edge is not None and edge.rule == "Bases, pg 46"
    on_crate = placement_problem(board(("crate", ["heavy"], 1.0, Rect(4, 4, 2, 2))), op("a", 5, 5, z=1.0))
    assert on_crate is not None and on_crate.rule == "Vantage, pg 60"


def test_an_accessible_door_is_passed_at_1_inch_more_and_a_jump_is_at_most_4_across_pg56_61():
    door = board(("door", ["heavy", "accessible", "door"], 2.5, Rect(8, 2, 0.4, 8)))
    a = op("a", 5, 5)
    move = move_cost(door, a, [(11, 5, 0)])
    assert move.problem is None and move.cost == 6 + 1
    roof = board(("roof", ["vantage"], 4.0, Rect(2, 2, 4, 6)), bottom={"roof": 3.75})
    refusal = move_cost(roof, op("a", 5, 5, z=4), [(10.5, 5, 0.0)]).problem
    assert refusal is not None and refusal.rule == "Jumping, pg 56"
