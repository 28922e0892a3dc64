"""The game's rules against the brute-force reference of tests/test_board_properties.py: for
random layouts and positions, a Charge is refused exactly when the reference finds its target
outside control range (pg 41, 46), and a Shoot action exactly when the reference finds the target
hidden (pg 55) or the declared cover or obscured differs from its own (pg 47, 53)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import assume, event, example, given, settings
from test_board_game import game
from test_board_properties import CONTROL_RANGE, PROPERTY, nudged, prisms, ref_distance, ref_targeting, ref_visible, scenes

from ktlog.board.geometry import Placed
from ktlog.board.layout import Feature, Layout, Part, Rect
from ktlog.errors import RuleViolation
from ktlog.events import Charged, OperativeActivated, ShootingAttack, Shot
from ktlog.reducer import apply_in_place
from ktlog.state import GameState, copy_state

BASE = game()
BASE.add(OperativeActivated(operative="legionary-1", order="engage"))
"""Turning point 1, Bob's legionary active with an Engage order; the others have no position, so
only the two a scene places are on the board."""


def placed_on(layout: Layout, a: Placed, b: Placed) -> GameState:
    """The game with the scene's layout, the legionary where `a` stands and the sergeant at `b`."""
    s = copy_state(BASE.state)
    s.layout = layout
    for op_id, where in (("legionary-1", a), ("sergeant", b)):
        op = s.operatives[op_id]
        op.datacard = msgspec.structs.replace(op.datacard, base_mm=where.base_mm)
        op.x, op.y, op.z = where.x, where.y, where.z
        if op_id == "sergeant":
            op.order = "engage"
    for op_id in ("gunner-plasma", "heavy-gunner"):
        s.operatives[op_id].x = s.operatives[op_id].y = None
    return s


def outcome(s: GameState, e) -> str | None:
    try:
        apply_in_place(s, e, BASE.seq + 1)
    except RuleViolation as refusal:
        return refusal.rule
    return None


WALL_BETWEEN = (
    Layout(name="wall", terrain=[Feature("wall", [Part("wall", ["heavy"], 3.0, rect=Rect(10, 5, 0.2, 4))])]),
    Placed("a", "A", 9.3, 7, base_mm=25),
    Placed("b", "B", 10.9, 7, base_mm=25),
)
"""0.62" between the bases and a wall between them: within 1" but neither sees the other."""


@PROPERTY
@given(scenes())
@example(WALL_BETWEEN)
def test_a_charge_is_refused_exactly_when_its_target_is_out_of_control_range(scene):
    layout, a, b = scene
    solids = prisms(layout)
    near = ref_distance(a, b) <= CONTROL_RANGE
    assume(all((ref_distance(a, n) <= CONTROL_RANGE) == near for n in nudged(b)))
    seen = ref_visible(solids, a, b) or ref_visible(solids, b, a)
    assume(all((ref_visible(solids, a, n) or ref_visible(solids, n, a)) == seen for n in nudged(b)))
    event(f"control range {near and seen}")
    charge = Charged(operative="legionary-1", targets=("sergeant",), x=a.x, y=a.y, z=a.z)  # charges where it stands
    assert outcome(placed_on(layout, a, b), charge) == (None if near and seen else "Charge, pg 41")


@pytest.mark.slow  # the reference samples every targeting line
@settings(PROPERTY, max_examples=30)
@given(scenes())
def test_a_shot_is_refused_exactly_when_the_reference_finds_the_target_hidden_or_the_cover_declared_wrong(scene):
    layout, a, b = scene
    b = Placed(b.id, b.player, b.x, b.y, b.z, b.base_mm, order="engage")
    solids = prisms(layout)
    seen = ref_visible(solids, a, b)
    assume(all(ref_visible(solids, a, n) == seen for n in nudged(b)))
    cover, obscured = ref_targeting(layout, a, b)
    assume(all(ref_targeting(layout, a, n) == (cover, obscured) for n in nudged(b, 0.06)))
    event(f"visible {seen}, cover {cover}, obscured {obscured}")

    def shot(cover: bool, obscured: bool) -> Shot:
        return Shot(operative="legionary-1", weapon="Boltgun", attacks=(ShootingAttack(target="sergeant", damage=0, cover=cover, obscured=obscured),))

    assert outcome(placed_on(layout, a, b), shot(cover, obscured)) == (None if seen else "Valid target, pg 55")
    if seen:
        assert outcome(placed_on(layout, a, b), shot(not cover, obscured)) == "Cover, pg 47"
        assert outcome(placed_on(layout, a, b), shot(cover, not obscured)) == "Obscured, pg 53"
