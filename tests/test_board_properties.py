"""The board's geometry against a brute-force reference written here, separately: for random
layouts and positions, control range, visibility, targeting lines (cover and obscured) and
distances agree with sampling points on bases, along lines and inside terrain. A case whose
reference answer flips when the target moves by a hair is a tie the sampling cannot judge, and
is left out (`assume`)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ktlog.board.geometry import (
    CONTROL_RANGE,
    COVER_CLOSE,
    LEAN_POINTS,
    OBSCURE_NEAR,
    OPERATIVE_HEIGHT,
    Board,
    Placed,
    control_range,
    devastating_targets,
    distance,
    targeting,
    visible,
)
from ktlog.board.layout import Feature, Layout, Part, Rect
from ktlog.board.movement import placement_problem

# --- the reference: nothing from ktlog.board but the data ----------------------------------


def corners(rect: Rect) -> list[tuple[float, float]]:
    cx, cy = rect.x + rect.width / 2, rect.y + rect.depth / 2
    a = math.radians(rect.angle)
    out = []
    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = dx * rect.width / 2, dy * rect.depth / 2
        out.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    return out


def in_polygon(x: float, y: float, poly: list[tuple[float, float]]) -> bool:
    """Inside a polygon: a ray to the right crosses its edges an odd number of times."""
    crossings = 0
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i - 1], poly[i]
        if (y1 <= y < y2 or y2 <= y < y1) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


class Prism:
    def __init__(self, feature: int, part: Part):
        self.poly = corners(part.rect) if part.rect is not None else [(float(x), float(y)) for x, y in part.polygon or ()]
        self.feature, self.bottom, self.top, self.traits = feature, part.bottom, part.height, set(part.traits)

    def holds(self, x: float, y: float, z: float, *, sight: bool = False) -> bool:
        top = math.inf if sight and "wall" in self.traits else self.top
        return self.bottom <= z < top and in_polygon(x, y, self.poly)


def prisms(layout: Layout) -> list[Prism]:
    return [Prism(f, part) for f, feature in enumerate(layout.terrain) for part in feature.parts]


def ref_distance(a: Placed, b: Placed, samples: int = 240) -> float:
    """The least distance between points sampled on the two bases' edges (or 0 if they overlap)."""
    if math.hypot(a.x - b.x, a.y - b.y) <= a.radius + b.radius:
        return abs(a.z - b.z)
    ring = [(math.cos(2 * math.pi * i / samples), math.sin(2 * math.pi * i / samples)) for i in range(samples)]
    pa = [(a.x + a.radius * c, a.y + a.radius * s) for c, s in ring]
    pb = [(b.x + b.radius * c, b.y + b.radius * s) for c, s in ring]
    return min(math.hypot(math.hypot(x1 - x2, y1 - y2), a.z - b.z) for x1, y1 in pa for x2, y2 in pb)


def ref_line_clear(solids: list[Prism], start: tuple[float, float, float], end: tuple[float, float, float], steps: int = 400) -> bool:
    for i in range(1, steps):
        t = i / steps
        x, y, z = (s + t * (e - s) for s, e in zip(start, end))
        if any("exposed" not in p.traits and p.holds(x, y, z, sight=True) for p in solids):
            return False
    return True


def ref_visible(solids: list[Prism], viewer: Placed, target: Placed) -> bool:
    """Sight from the viewer's head to its target's middle and sides at foot, middle and head (the ruling)."""
    eye = (viewer.x, viewer.y, viewer.z + OPERATIVE_HEIGHT)
    dx, dy = target.x - viewer.x, target.y - viewer.y
    length = math.hypot(dx, dy) or 1.0
    points = [
        (target.x - s * dy / length * target.radius, target.y + s * dx / length * target.radius, target.z + h)
        for h in (0.1, OPERATIVE_HEIGHT / 2, OPERATIVE_HEIGHT)
        for s in (0, -1, 1)
    ]
    return any(ref_line_clear(solids, eye, p) for p in points)


def ref_lean_points(a: Placed, b: Placed) -> list[tuple[float, float]]:
    d = math.hypot(b.x - a.x, b.y - a.y)
    heading = math.atan2(b.y - a.y, b.x - a.x)
    reach = math.acos(min(1.0, a.radius / d))
    return [
        (
            a.x + a.radius * math.cos(heading - reach + 2 * reach * i / (LEAN_POINTS - 1)),
            a.y + a.radius * math.sin(heading - reach + 2 * reach * i / (LEAN_POINTS - 1)),
        )
        for i in range(LEAN_POINTS)
    ]


def ref_facing(p: tuple[float, float], b: Placed, samples: int = 24) -> list[tuple[float, float]]:
    toward = math.atan2(p[1] - b.y, p[0] - b.x)
    half = math.acos(min(1.0, b.radius / math.hypot(p[0] - b.x, p[1] - b.y)))
    return [
        (b.x + b.radius * math.cos(toward - half + 2 * half * i / samples), b.y + b.radius * math.sin(toward - half + 2 * half * i / samples))
        for i in range(samples + 1)
    ]


def ref_standing(solids: list[Prism], op: Placed) -> Prism | None:
    if op.z <= 0.01:
        return None
    return next((p for p in solids if "vantage" in p.traits and abs(p.top - op.z) <= 0.01 and in_polygon(op.x, op.y, p.poly)), None)


def ref_targeting(layout: Layout, a: Placed, b: Placed, steps: int = 120) -> tuple[bool, bool]:
    """(in cover, obscured) by sampling each targeting line from each lean point (pg 47, 51, 53)."""
    solids = prisms(layout)
    skip = {s.feature for s in (ref_standing(solids, a), ref_standing(solids, b)) if s is not None}
    covers, obscures = [], []
    for p in ref_lean_points(a, b):
        cover = obscured = False
        for q in ref_facing(p, b):
            for i in range(steps + 1):
                t = i / steps
                x, y, z = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), a.z + t * (b.z - a.z)
                for s in solids:
                    if "exposed" in s.traits or not s.holds(x, y, z if abs(a.z - b.z) > 0.01 else a.z):
                        continue
                    if math.hypot(x - b.x, y - b.y) <= b.radius + CONTROL_RANGE:
                        cover = True
                    heavy = "heavy" in s.traits or "wall" in s.traits
                    far = math.hypot(x - a.x, y - a.y) > a.radius + OBSCURE_NEAR and math.hypot(x - b.x, y - b.y) > b.radius + OBSCURE_NEAR
                    if heavy and far and s.feature not in skip:
                        obscured = True
        covers.append(cover)
        obscures.append(obscured)
    close = ref_distance(a, b) <= COVER_CLOSE
    return (not close and all(covers)), all(obscures)


# --- random layouts and operatives -----------------------------------------------------------


@st.composite
def scenes(draw) -> tuple[Layout, Placed, Placed]:
    """Two operatives, near each other or not, with terrain about the line between them; either
    may stand on a Vantage part."""
    ax, ay = draw(st.floats(3.0, 27.0)), draw(st.floats(3.0, 19.0))
    reach = draw(st.sampled_from([1.5, 2.5, 6.0, 12.0]))
    bx = min(28.0, max(2.0, ax + draw(st.floats(-reach, reach))))
    by = min(20.0, max(2.0, ay + draw(st.floats(-reach, reach))))
    features = []
    for i in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["heavy", "heavy", "light", "vantage", "exposed"]))
        t = draw(st.floats(0.1, 0.9) | st.floats(0.75, 0.95))  # some beside the target, for cover
        width, depth = draw(st.floats(0.3, 4.0)), draw(st.floats(0.3, 4.0))
        cx = ax + t * (bx - ax) + draw(st.floats(-1.5, 1.5))
        cy = ay + t * (by - ay) + draw(st.floats(-1.5, 1.5))
        if draw(st.booleans()):  # a screen 0-2" in front of the target, across the line: cover or not
            span = math.hypot(bx - ax, by - ay) or 1.0
            gap = 1.0 + draw(st.floats(0.0, 2.0)) + width / 2
            cx, cy = bx + (ax - bx) / span * gap, by + (ay - by) / span * gap
        rect = Rect(cx - width / 2, cy - depth / 2, width, depth, draw(st.sampled_from([0.0, 0.0, 30.0, -45.0])))
        height = draw(st.floats(0.5, 5.0))
        bottom = draw(st.sampled_from([0.0, height * 0.8])) if kind == "vantage" else 0.0
        feature = Feature(f"f{i}", [Part("p", [kind], height, bottom=bottom, rect=rect)])
        alone = Board(Layout(name="one", terrain=[feature]))
        if all(placement_problem(alone, Placed(n, n, x, y, base_mm=50)) is None for n, x, y in (("a", ax, ay), ("b", bx, by))):
            features.append(feature)  # on neither operative's base
    layout = Layout(name="random", terrain=features)
    ops = []
    for name, x, y in (("a", ax, ay), ("b", bx, by)):
        z = 0.0
        platforms = [p for f in features for p in f.parts if "vantage" in p.traits]
        if platforms and draw(st.booleans()):
            rect = draw(st.sampled_from(platforms)).rect
            assert rect is not None
            x, y, z = rect.x + rect.width / 2, rect.y + rect.depth / 2, next(p.height for f in features for p in f.parts if p.rect is rect)
        op = Placed(name, name.upper(), x, y, z=z, base_mm=draw(st.sampled_from([25, 28, 32, 40, 50])), order=draw(st.sampled_from(["engage", "conceal"])))
        assume(placement_problem(Board(layout), op) is None)
        ops.append(op)
    a, b = ops
    assume(math.hypot(a.x - b.x, a.y - b.y) > a.radius + b.radius + 0.05)
    return layout, a, b


def nudged(op: Placed, h: float = 0.03) -> list[Placed]:
    """The operative moved a hair each way: a reference answer that changes among these is a tie."""
    return [Placed(op.id, op.player, op.x + dx, op.y + dy, op.z, op.base_mm, op.order) for dx, dy in ((h, 0), (-h, 0), (0, h), (0, -h))]


PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@PROPERTY
@given(scenes())
def test_distance_between_bases_agrees_with_sampled_edges(scene):
    _, a, b = scene
    assert distance(a, b) <= ref_distance(a, b) + 1e-9
    assert ref_distance(a, b) - distance(a, b) < 0.01  # the sampling's spacing


@PROPERTY
@given(scenes())
def test_visibility_and_control_range_agree_with_sampled_lines_of_sight(scene):
    layout, a, b = scene
    solids = prisms(layout)
    reference = ref_visible(solids, a, b)
    assume(all(ref_visible(solids, a, n) == reference for n in nudged(b)))
    board = Board(layout)
    event(f"visible {reference}")
    assert visible(board, a, b) == reference
    near = ref_distance(a, b) <= CONTROL_RANGE
    assume(all((ref_distance(a, n) <= CONTROL_RANGE) == near for n in nudged(b)))
    event(f"within 1 inch {near}")
    assert control_range(board, a, b) == (near and (reference or ref_visible(solids, b, a)))


@pytest.mark.slow  # about a minute: the reference samples every line
@settings(PROPERTY, max_examples=80)
@given(scenes())
def test_cover_and_obscured_agree_with_sampled_targeting_lines(scene):
    layout, a, b = scene
    board = Board(layout)
    lines = targeting(board, a, b)
    answer = (lines.in_cover(), lines.obscured)
    # a tie: the answer changes when the target moves by about the reference's spacing of samples
    assume(all((t.in_cover(), t.obscured) == answer for n in nudged(b, 0.06) for t in [targeting(board, a, n)]))
    reference = ref_targeting(layout, a, b)
    # and a line that only grazes the top the target stands on: its answer changes when the target is raised a hair
    raised = Placed(b.id, b.player, b.x, b.y, b.z + 0.005, b.base_mm, b.order)
    assume(all(ref_targeting(layout, a, n) == reference for n in [*nudged(b, 0.06), raised]))
    event(f"cover {reference[0]}, obscured {reference[1]}, levels {a.z != b.z}")
    assert answer == reference


@PROPERTY
@given(scenes())
def test_close_operatives_within_1_inch_and_seen_are_in_control_range(scene):
    """Control range is mutual (pg 46)."""
    layout, a, b = scene
    board = Board(layout)
    assert control_range(board, a, b) == control_range(board, b, a)


WALL = Layout(name="small", terrain=[Feature("wall", [Part("p", ["heavy"], 3.0, rect=Rect(14.0, 9.0, 0.4, 4.0, 0.0))])])
"""A small layout: one Heavy wall 3" high across the middle, for x" Devastating's reach."""


@PROPERTY
@given(st.lists(st.tuples(st.floats(11.0, 17.0), st.floats(8.0, 14.0), st.sampled_from([25, 32])), min_size=1, max_size=5))
def test_devastating_reach_agrees_with_sampled_distances_and_sight(spots):
    """x" Devastating (pg 111): the board's list of the other operatives visible to and within 1"
    of the target equals the reference's, operative by operative."""
    board, solids = Board(WALL), prisms(WALL)
    target = Placed("target", "B", 13.2, 11.0, base_mm=32)
    others: list[Placed] = []
    for i, (x, y, mm) in enumerate(spots):  # those that can be placed beside the ones before
        o = Placed(f"o{i}", "AB"[i % 2], x, y, base_mm=mm)
        if placement_problem(board, o, [target, *others]) is None:
            others.append(o)

    def reached(t: Placed, o: Placed) -> bool:
        return ref_distance(t, o) <= 1.0 and ref_visible(solids, t, o)

    reference = [o.id for o in others if reached(target, o)]
    assume(all([o.id for o in others if reached(n, o)] == reference for n in nudged(target)))
    event(f"{len(reference)} reached of {len(others)}")
    assert [o.id for o in devastating_targets(board, target, 1, [target, *others])] == reference
