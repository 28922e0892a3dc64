"""The rules' geometry on a board (docs/the-board.md): distances between bases (pg 50),
visibility (pg 55), control range (pg 46), targeting lines, intervening terrain, cover and
obscured (pg 47, 51, 53), Vantage (pg 60), objective control (pg 52), and the operatives Blast,
Torrent and x" Devastating reach (pg 111). Pure functions of a `Board` and `Placed` operatives;
a check that refuses gives a `Reason` naming the rule and its page.

The model (each a ruling where the book leaves it to the table, docs/the-board.md):
- An operative is a base (a disc, `base_mm` across) on a level `z` (0 on the killzone floor, a
  Vantage part's height on it), and a body `OPERATIVE_HEIGHT` tall above it; it sees from the
  top of its body above the base's centre.
- A terrain part is a prism: its footprint from its `bottom` up to its `height`. Every part but
  an Exposed one blocks sight; a Wall part at any height (pg 66).
- Targeting lines (pg 51) are drawn in three dimensions, from a point of the attacker's base to
  every facing part of the target's base, each at its level; with both on one level this is the
  book's top-down drawing. A part is crossed where a line passes through it from its bottom up
  to, not including, its top (so the platform two operatives stand on is not between them). The
  attacker's player chooses the point (pg 51): ktlog tries `LEAN_POINTS` points of the base's
  front edge, from leaning fully left to fully right, and every outcome they give is a choice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import msgspec

from .layout import MARKER_DIAMETER, Layout, Objective, Part, Trait
from .shapes import (
    Box,
    Point,
    Polygon,
    box_of,
    boxes_meet,
    ccw,
    clip,
    covered_by_discs,
    point_polygon_distance,
    rect_corners,
    spans_inside,
)

MM = 1 / 25.4
DEFAULT_BASE_MM = 32
"""Ruling: an operative whose datacard gives no base size stands on a 32mm base."""
OPERATIVE_HEIGHT = 1.25
"""Ruling: an operative's body is 1.25" tall above its base (a 28-32mm miniature); it sees from the top."""
CONTROL_RANGE = 1.0
"""Visible and within 1" (pg 46)."""
COVER_CLOSE = 2.0
"""An operative cannot be in cover while within 2" of the other operative (pg 47)."""
OBSCURE_NEAR = 1.0
"""Heavy terrain within 1" of either operative does not obscure (pg 53)."""
VANTAGE_ACCURATE = ((4.0, 2), (2.0, 1))
"""At least 4" lower: Accurate 2; at least 2" lower: Accurate 1 (pg 60)."""
LEAN_POINTS = 7
"""Points of the attacker's base's front edge the targeting lines are tried from (pg 51)."""
FACING_CHORDS = 4
"""Straight pieces the target's facing edge is drawn with when the lines slope (3D): within 0.05" of the curve."""
LEVEL = 0.01
"""Heights within this are one level (an operative on a 3" platform is at 3")."""


class Reason(msgspec.Struct, frozen=True):
    """Why a check refuses: what is wrong, and the rule with its page."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


class Placed(msgspec.Struct, frozen=True):
    """An operative where it stands: its base's centre (x, y) on level z, its base size from the
    datacard (`base_mm`), and what the rules ask of it here (order, APL for marker control)."""

    id: str
    player: str
    x: float
    y: float
    z: float = 0.0
    base_mm: int | None = None
    order: str = "conceal"
    apl: int = 2
    wounds: int | None = None
    max_wounds: int | None = None

    @property
    def radius(self) -> float:
        return (self.base_mm or DEFAULT_BASE_MM) * MM / 2

    @property
    def centre(self) -> Point:
        return self.x, self.y


@dataclass(frozen=True)
class Piece:
    """A terrain part as geometry: its footprint, heights and types as they stand now."""

    index: int
    feature: int
    name: str
    polygon: Polygon
    box: Box
    bottom: float
    top: float
    traits: frozenset[str]

    @property
    def heavy(self) -> bool:
        return "heavy" in self.traits or "wall" in self.traits

    @property
    def light(self) -> bool:
        """Light terrain, or a part that is neither Light nor Heavy (Blocking gaps, pg 59: ruling, as Light)."""
        return "light" in self.traits or "vantage" in self.traits or not self.heavy

    @property
    def blocks_sight(self) -> bool:
        """Ruling: every part but an Exposed one blocks sight (Exposed terrain has large gaps, pg 61)."""
        return "exposed" not in self.traits

    @property
    def sight_top(self) -> float:
        """Visibility cannot be determined over Wall terrain (pg 66)."""
        return math.inf if "wall" in self.traits else self.top

    @property
    def intervenes(self) -> bool:
        """Exposed terrain is never intervening for cover and obscured (pg 61)."""
        return "exposed" not in self.traits


HATCHWAY_CLOSED: frozenset[Trait] = frozenset({"hatchway", "heavy", "wall"})
HATCHWAY_OPEN: frozenset[Trait] = frozenset({"hatchway", "accessible", "insignificant", "exposed"})
"""A hatchway's access point and hatch, closed and open (pg 69)."""


def footprint(part: Part | object) -> Polygon:
    """A part's or a drop zone's footprint as a counter-clockwise polygon."""
    rect = getattr(part, "rect", None)
    if rect is not None:
        return ccw(rect_corners(rect.x, rect.y, rect.width, rect.depth, rect.angle))
    return ccw([(float(x), float(y)) for x, y in getattr(part, "polygon", None) or ()])


@dataclass
class Board:
    """A layout ready for geometry, with the hatchways open now (pg 69; all begin closed)."""

    layout: Layout
    open_hatchways: frozenset[str] = frozenset()
    pieces: list[Piece] = field(init=False)

    def __post_init__(self) -> None:
        self.pieces = []
        for f, feature in enumerate(self.layout.terrain):
            for part in feature.parts:
                traits = frozenset(part.traits)
                name = f"{feature.name} / {part.name}"
                if "hatchway" in traits:
                    traits = HATCHWAY_OPEN if name in self.open_hatchways or feature.name in self.open_hatchways else HATCHWAY_CLOSED
                poly = footprint(part)
                self.pieces.append(Piece(len(self.pieces), f, name, poly, box_of(poly), part.bottom, part.height, traits))

    @cached_property
    def drop_zones(self) -> dict[str, Polygon]:
        return {z.name: footprint(z) for z in self.layout.drop_zones}

    def standing_on(self, op: Placed) -> Piece | None:
        """The Vantage part an operative above the floor stands on: its top at the operative's
        level under the base's centre (ruling: the centre decides where a base overhangs)."""
        if op.z <= LEVEL:
            return None
        for p in self.pieces:
            if "vantage" in p.traits and abs(p.top - op.z) <= LEVEL and point_polygon_distance(op.centre, p.polygon) == 0.0:
                return p
        return None


# --- distances (pg 50) ---------------------------------------------------------------------


def distance(a: Placed, b: Placed) -> float:
    """Between the closest parts of two bases (pg 50): their horizontal gap and the difference of
    their levels. Ruling: measured in a straight line; Gallowdark's walls (pg 66) are not yet
    measured around."""
    gap = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)
    return math.hypot(gap, a.z - b.z)


def within(a: Placed, b: Placed, inches: float) -> bool:
    """'Within' x: any part of it is x or less away (pg 50)."""
    return distance(a, b) <= inches + 1e-9


def marker_distance(op: Placed, marker: Objective) -> float:
    """From an operative's base to an objective marker on the killzone floor (40mm, pg 52)."""
    gap = max(0.0, math.hypot(op.x - marker.x, op.y - marker.y) - op.radius - MARKER_DIAMETER / 2)
    return math.hypot(gap, op.z)


# --- visibility (pg 55) and control range (pg 46) -----------------------------------------


def eye(op: Placed) -> tuple[float, float, float]:
    return op.x, op.y, op.z + OPERATIVE_HEIGHT


def sight_points(viewer: Placed, target: Placed) -> list[tuple[float, float, float]]:
    """The points of the target the viewer looks for (ruling): its middle and both sides as seen
    from the viewer, at its foot, its middle and its head."""
    dx, dy = target.x - viewer.x, target.y - viewer.y
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * target.radius, dx / length * target.radius
    return [(target.x + s * nx, target.y + s * ny, target.z + h) for h in (0.1, OPERATIVE_HEIGHT / 2, OPERATIVE_HEIGHT) for s in (0.0, -1.0, 1.0)]


def sight_blocked(board: Board, start: tuple[float, float, float], end: tuple[float, float, float], pieces: Sequence[Piece] | None = None) -> Piece | None:
    """The first part a straight line of sight passes through, if any (of `pieces`, if given: those that may be in the way)."""
    (x0, y0, z0), (x1, y1, z1) = start, end
    box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    for p in board.pieces if pieces is None else pieces:
        if not p.blocks_sight or not boxes_meet(box, p.box):
            continue
        top = p.sight_top
        if max(z0, z1) < p.bottom or min(z0, z1) >= top:
            continue
        for t0, t1 in spans_inside((x0, y0), (x1, y1), p.polygon):
            lo, hi = sorted((z0 + t0 * (z1 - z0), z0 + t1 * (z1 - z0)))
            if hi >= p.bottom and lo < top:
                return p
    return None


def visible(board: Board, viewer: Placed, target: Placed) -> bool:
    """Whether the viewer can see any part of the target (pg 55): an unobstructed straight line
    from its head to one of the target's sight points. Operatives and bases do not block sight."""
    if viewer.id == target.id:
        return True  # an operative is always visible to itself
    start = eye(viewer)
    r = target.radius
    box = (min(viewer.x, target.x - r), min(viewer.y, target.y - r), max(viewer.x, target.x + r), max(viewer.y, target.y + r))
    pieces = [p for p in board.pieces if p.blocks_sight and boxes_meet(box, p.box)]
    return any(sight_blocked(board, start, point, pieces) is None for point in sight_points(viewer, target))


def control_range(board: Board, a: Placed, b: Placed) -> bool:
    """Within each other's control range: one visible to the other and within 1" (pg 46: mutual)."""
    return within(a, b, CONTROL_RANGE) and (visible(board, a, b) or visible(board, b, a))


def marker_visible(board: Board, op: Placed, marker: Objective) -> bool:
    """Whether the operative can see any part of the marker, a disc on the floor (pg 52, 55)."""
    dx, dy = marker.x - op.x, marker.y - op.y
    length = math.hypot(dx, dy) or 1.0
    r = MARKER_DIAMETER / 2
    start = eye(op)
    points = [(marker.x + s * -dy / length * r, marker.y + s * dx / length * r, 0.01) for s in (0.0, -1.0, 1.0)]
    return any(sight_blocked(board, start, p) is None for p in points)


def contests(board: Board, op: Placed, marker: Objective) -> bool:
    """An operative contests a marker within its control range: visible to it and within 1" (pg 52)."""
    return marker_distance(op, marker) <= CONTROL_RANGE + 1e-9 and marker_visible(board, op, marker)


def marker_control(board: Board, marker: Objective, operatives: Iterable[Placed], carrier: Placed | None = None) -> str | None:
    """The player whose operatives contesting the marker have the greater total APL; None when
    equal or nobody contests it (pg 52). A carrier controls the marker it carries."""
    if carrier is not None:
        return carrier.player
    totals: dict[str, int] = {}
    for op in operatives:
        if contests(board, op, marker):
            totals[op.player] = totals.get(op.player, 0) + op.apl
    if not totals:
        return None
    best = max(totals.values())
    leaders = [p for p, apl in totals.items() if apl == best]
    return leaders[0] if len(leaders) == 1 else None


# --- targeting lines, cover and obscured (pg 47, 51, 53) -------------------------------------


class Lines(msgspec.Struct, frozen=True):
    """What the targeting lines from one point of the attacker's base cross (pg 51): the parts
    giving the target cover (crossed within 1" of its base, pg 47) and those obscuring it
    (Heavy, crossed more than 1" from both bases, pg 53)."""

    cover: tuple[str, ...] = ()
    light_cover_only: bool = False
    """Every part giving cover is Light (Seek Light and Vantage ignore those, pg 60, 111)."""
    obscured_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Targeting:
    """The targeting lines from an attacker to a target: `choices`, the distinct outcomes of the
    points its player may draw them from (pg 51: the player decides)."""

    visible: bool
    close: bool
    """Within 2" of each other: the target cannot be in cover (pg 47)."""
    choices: tuple[Lines, ...]

    def in_cover(self, *, ignore_light: bool = False) -> bool:
        """In cover whichever point the lines are drawn from (pg 47); `ignore_light`: Light terrain
        does not count (Seek Light, Vantage's second rule; pg 60, 111)."""
        if self.close:
            return False
        return all(c.cover and not (ignore_light and c.light_cover_only) for c in self.choices)

    def can_avoid_cover(self, *, ignore_light: bool = False) -> bool:
        return not self.in_cover(ignore_light=ignore_light)

    @property
    def obscured(self) -> bool:
        """Obscured whichever point the lines are drawn from (pg 53)."""
        return all(c.obscured_by for c in self.choices)


def _front_points(a: Placed, b: Placed) -> list[Point]:
    """Points of a's base from which a's player may draw lines to b: its front edge, as far round
    as a point whose lines are not bettered by another's (each inner point's are: pg 51)."""
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy)
    if d <= 1e-9:
        return [a.centre]
    heading = math.atan2(dy, dx)
    reach = math.acos(min(1.0, a.radius / d))
    steps = LEAN_POINTS - 1
    return [
        (a.x + a.radius * math.cos(heading + reach * (2 * i / steps - 1)), a.y + a.radius * math.sin(heading + reach * (2 * i / steps - 1)))
        for i in range(LEAN_POINTS)
    ]


def facing_edge(p: Point, target: Placed, pieces: int) -> list[Point]:
    """`pieces` + 1 points along the part of the target's base facing p, end to end."""
    cx, cy = target.centre
    d = math.hypot(p[0] - cx, p[1] - cy)
    toward = math.atan2(p[1] - cy, p[0] - cx)
    half = math.acos(min(1.0, target.radius / d))
    r = target.radius
    return [(cx + r * math.cos(toward - half + 2 * half * i / pieces), cy + r * math.sin(toward - half + 2 * half * i / pieces)) for i in range(pieces + 1)]


def _fractions(piece: Piece, z0: float, z1: float) -> tuple[float, float] | None:
    """The stretch [f0, f1] of a line rising or falling from z0 to z1 (f from 0 to 1) that is at a
    height from the piece's bottom up to its top."""
    if abs(z1 - z0) <= LEVEL:
        return (0.0, 1.0) if piece.bottom - LEVEL <= z0 < piece.top - LEVEL else None
    lo, hi = sorted(((piece.bottom - z0) / (z1 - z0), (piece.top - z0) / (z1 - z0)))
    lo, hi = max(0.0, lo), min(1.0, hi)
    return (lo, hi) if lo < hi else None


def crossed(piece: Piece, p: Point, z0: float, target: Placed, edge: Sequence[Point] | None = None) -> list[list[Point]]:
    """Where the lines from p (at level z0) to the target's facing edge cross the piece, as
    polygons of the footprint (empty: not crossed). On one level the lines fill the triangle
    between p and the edge's ends (the piece does not reach into the base); sloping, the fan of
    triangles to `FACING_CHORDS` pieces of the edge, cut to the stretch at the piece's heights.
    `edge`: the facing edge, if already worked out for p."""
    stretch = _fractions(piece, z0, target.z)
    if stretch is None:
        return []
    f0, f1 = stretch
    if edge is None:
        edge = facing_edge(p, target, 1 if abs(target.z - z0) <= LEVEL else FACING_CHORDS)
    turn = (edge[0][0] - p[0]) * (edge[-1][1] - p[1]) - (edge[0][1] - p[1]) * (edge[-1][0] - p[0])
    if abs(turn) <= 1e-12:
        return []
    out = []
    px, py = p
    for a, b in zip(edge, edge[1:]) if turn > 0 else zip(edge[::-1], edge[-2::-1]):
        far = [(px + f1 * (a[0] - px), py + f1 * (a[1] - py)), (px + f1 * (b[0] - px), py + f1 * (b[1] - py))]
        if f0 <= 0:
            region = [p, *far]
        else:  # counter-clockwise, as the triangle p, a, b
            region = [(px + f0 * (a[0] - px), py + f0 * (a[1] - py)), *far, (px + f0 * (b[0] - px), py + f0 * (b[1] - py))]
        if not boxes_meet(box_of(region), piece.box):
            continue
        hit = clip(piece.polygon, region)
        if hit:
            out.append(hit)
    return out


def ignored_for_obscured(board: Board, attacker: Placed, target: Placed) -> set[int]:
    """Heavy terrain connected to the Vantage terrain the attacker or the target is on (pg 60, third rule): its feature's parts."""
    features = {p.feature for op in (attacker, target) if (p := board.standing_on(op)) is not None}
    return {p.index for p in board.pieces if p.feature in features}


def targeting(board: Board, attacker: Placed, target: Placed) -> Targeting:
    """The targeting lines from the attacker to the target (pg 51), with cover (pg 47) and
    obscured (pg 53) for each point the attacker's player may draw them from."""
    seen = visible(board, attacker, target)
    close = within(attacker, target, COVER_CLOSE)
    cover_pieces, obscuring = _intervening(board, attacker, target)
    choices: list[Lines] = []
    chords = 1 if abs(target.z - attacker.z) <= LEVEL else FACING_CHORDS
    for point in _front_points(attacker, target):
        lines = _lines_from(point, attacker, target, chords, cover_pieces, obscuring)
        if lines not in choices:
            choices.append(lines)
        if not lines.cover and not lines.obscured_by:
            break  # nothing better to choose
    return Targeting(seen, close, tuple(choices))


def _intervening(board: Board, attacker: Placed, target: Placed) -> tuple[list[Piece], list[Piece]]:
    """The pieces that may give the target cover (within its control range, pg 47) and those that
    may obscure it (Heavy, more than 1" from both, pg 53), between the two bases."""
    hull = (
        min(attacker.x - attacker.radius, target.x - target.radius),
        min(attacker.y - attacker.radius, target.y - target.radius),
        max(attacker.x + attacker.radius, target.x + target.radius),
        max(attacker.y + attacker.radius, target.y + target.radius),
    )
    skip = ignored_for_obscured(board, attacker, target)
    near_both = [(attacker.centre, attacker.radius + OBSCURE_NEAR), (target.centre, target.radius + OBSCURE_NEAR)]
    reach = max(attacker.radius, target.radius) + LEVEL  # every line lies within this of the line between the centres
    candidates = [p for p in board.pieces if p.intervenes and boxes_meet(hull, p.box) and _near_line(p, attacker.centre, target.centre, reach)]
    cover_pieces = [p for p in candidates if point_polygon_distance(target.centre, p.polygon) <= target.radius + CONTROL_RANGE]
    obscuring = [p for p in candidates if p.heavy and p.index not in skip and not covered_by_discs(p.polygon, near_both)]
    return cover_pieces, obscuring


def _lines_from(point: Point, attacker: Placed, target: Placed, chords: int, cover_pieces: list[Piece], obscuring: list[Piece]) -> Lines:
    """The lines from one point of the attacker's base to the target: the cover and obscuring terrain they cross."""
    near_target = target.radius + CONTROL_RANGE
    near_both = [(attacker.centre, attacker.radius + OBSCURE_NEAR), (target.centre, target.radius + OBSCURE_NEAR)]
    edge = facing_edge(point, target, chords)
    hits = {p.index: crossed(p, point, attacker.z, target, edge) for p in (*cover_pieces, *obscuring)}
    cover = [p for p in cover_pieces if any(point_polygon_distance(target.centre, hit) <= near_target for hit in hits[p.index])]
    obscured = [p.name for p in obscuring if any(not covered_by_discs(hit, near_both) for hit in hits[p.index])]
    return Lines(tuple(p.name for p in cover), bool(cover) and all(p.light and not p.heavy for p in cover), tuple(obscured))


def _near_line(piece: Piece, a: Point, b: Point, reach: float) -> bool:
    """False when the piece lies wholly to one side of the line through a and b, farther than
    `reach` from it (a quick test: True may still be far)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    sides = [((x - a[0]) * dy - (y - a[1]) * dx) / length for x, y in piece.polygon]
    return not (min(sides) > reach or max(sides) < -reach)


# --- valid targets and Vantage (pg 42, 55, 60) -----------------------------------------------


class Vantage(msgspec.Struct, frozen=True):
    """What Vantage terrain gives a shot (pg 60): the attacker's Accurate x against an Engage
    target, and whether a Conceal target's Light cover is ignored when selecting it (it keeps its
    cover save, retained as a critical success or with one more cover save)."""

    on_vantage: bool
    drop: float
    """How much lower the target is."""
    accurate: int = 0
    ignores_light_cover: bool = False


def vantage(board: Board, attacker: Placed, target: Placed) -> Vantage:
    stand = board.standing_on(attacker)
    drop = attacker.z - target.z
    if stand is None:
        return Vantage(False, drop)
    accurate = next((x for inches, x in VANTAGE_ACCURATE if drop >= inches - LEVEL), 0) if target.order == "engage" else 0
    return Vantage(True, drop, accurate, target.order == "conceal" and drop >= 2.0 - LEVEL)


def target_problem(board: Board, attacker: Placed, target: Placed, operatives: Sequence[Placed], *, seek: str | None = None) -> Reason | None:
    """Why the target is not a valid target for the attacker, or None (pg 42, 55): it must be
    visible; with a Conceal order, not in cover (Light cover ignored from Vantage 2" higher, pg
    60, and with Seek Light; any cover with Seek, pg 111); and no operative of the attacker's side
    within its control range (pg 42)."""
    if not visible(board, attacker, target):
        return Reason(f"{target.id} is not visible to {attacker.id}: terrain hides every part of it", "Valid target, pg 55")
    if target.order == "conceal" and seek != "seek":
        lines = targeting(board, attacker, target)
        ignore_light = seek == "seek light" or vantage(board, attacker, target).ignores_light_cover
        if lines.in_cover(ignore_light=ignore_light):
            names = ", ".join(sorted({n for c in lines.choices for n in c.cover}))
            return Reason(f"{target.id} has a Conceal order and is in cover ({names}) from every point of {attacker.id}'s base", "Valid target, pg 55")
    friends = [o.id for o in operatives if o.player == attacker.player and o.id != attacker.id and control_range(board, o, target)]
    if friends:
        return Reason(f"{', '.join(friends)} {'is' if len(friends) == 1 else 'are'} within {target.id}'s control range", "Shoot, pg 42")
    return None


# --- weapons reaching other operatives (pg 111) ----------------------------------------------


def blast_targets(board: Board, primary: Placed, inches: float, operatives: Sequence[Placed]) -> list[Placed]:
    """Blast x: the other operatives visible to and within x of the primary target, friend or foe,
    whatever their order (pg 111; ruling: visible to the primary target)."""
    return [o for o in operatives if o.id != primary.id and within(primary, o, inches) and visible(board, primary, o)]


def devastating_targets(board: Board, target: Placed, inches: float, operatives: Sequence[Placed]) -> list[Placed]:
    """x" Devastating y: the other operatives visible to and within x of the target (pg 111)."""
    return blast_targets(board, target, inches, operatives)


def torrent_targets(board: Board, attacker: Placed, primary: Placed, inches: float, operatives: Sequence[Placed], *, seek: str | None = None) -> list[Placed]:
    """Torrent x: the other valid targets within x of the primary target (pg 111), the
    attacker's side's operatives excluded."""
    return [
        o
        for o in operatives
        if o.id != primary.id
        and o.player != attacker.player
        and within(primary, o, inches)
        and target_problem(board, attacker, o, operatives, seek=seek) is None
    ]
