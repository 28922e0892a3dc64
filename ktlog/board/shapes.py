"""Plane geometry on the board's footprints: points, segments, polygons and discs, in inches.
Plain floats and tuples, written for speed (a targeting check runs hundreds of these)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Box = tuple[float, float, float, float]
"""min x, min y, max x, max y"""

EPS = 1e-9


def rect_corners(x: float, y: float, width: float, depth: float, angle: float = 0.0) -> Polygon:
    """A rectangle's corners, clockwise on the page, turned `angle` degrees clockwise (y points down) about its centre."""
    cx, cy = x + width / 2, y + depth / 2
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for dx, dy in ((-width / 2, -depth / 2), (width / 2, -depth / 2), (width / 2, depth / 2), (-width / 2, depth / 2)):
        out.append((cx + dx * c - dy * s, cy + dx * s + dy * c))
    return tuple(out)


def box_of(points: Sequence[Point]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def boxes_meet(a: Box, b: Box, margin: float = 0.0) -> bool:
    return a[0] - margin <= b[2] and b[0] - margin <= a[2] and a[1] - margin <= b[3] and b[1] - margin <= a[3]


def area(poly: Sequence[Point]) -> float:
    """Signed area (the shoelace formula)."""
    total = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i - 1]
        x2, y2 = poly[i]
        total += x1 * y2 - x2 * y1
    return total / 2


def ccw(poly: Sequence[Point]) -> Polygon:
    """The polygon with positive signed area (counter-clockwise in x-right, y-up terms)."""
    return tuple(poly) if area(poly) >= 0 else tuple(reversed(poly))


def inside(p: Point, poly: Sequence[Point]) -> bool:
    """Whether p is inside the polygon (even-odd rule; a point on an edge may go either way)."""
    x, y = p
    result = False
    j = len(poly) - 1
    for i in range(len(poly)):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result


def seg_point_distance(a: Point, b: Point, p: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 <= EPS else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(ax + t * dx - p[0], ay + t * dy - p[1])


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd meet (touching counts)."""
    d1, d2, d3, d4 = _orient(c, d, a), _orient(c, d, b), _orient(a, b, c), _orient(a, b, d)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and ((d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)):
        return True
    return (
        (abs(d1) <= EPS and seg_point_distance(c, d, a) <= 1e-7)
        or (abs(d2) <= EPS and seg_point_distance(c, d, b) <= 1e-7)
        or (abs(d3) <= EPS and seg_point_distance(a, b, c) <= 1e-7)
        or (abs(d4) <= EPS and seg_point_distance(a, b, d) <= 1e-7)
    )


def segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    if segments_cross(a, b, c, d):
        return 0.0
    return min(seg_point_distance(a, b, c), seg_point_distance(a, b, d), seg_point_distance(c, d, a), seg_point_distance(c, d, b))


def point_polygon_distance(p: Point, poly: Sequence[Point]) -> float:
    """0 inside, else the distance to the nearest edge."""
    if inside(p, poly):
        return 0.0
    return min(seg_point_distance(poly[i - 1], poly[i], p) for i in range(len(poly)))


def segment_polygon_distance(a: Point, b: Point, poly: Sequence[Point]) -> float:
    """0 where the segment enters the polygon, else the nearest distance between them."""
    if inside(a, poly) or inside(b, poly):
        return 0.0
    return min(segment_distance(a, b, poly[i - 1], poly[i]) for i in range(len(poly)))


def simple(poly: Sequence[Point]) -> bool:
    """No two edges that are not neighbours meet: the polygon does not cross itself."""
    n = len(poly)
    for i in range(n):
        for j in range(i + 1, n):
            if j == i + 1 or (i == 0 and j == n - 1):
                continue
            if segments_cross(poly[i], poly[(i + 1) % n], poly[j], poly[(j + 1) % n]):
                return False
    return True


def clip(poly: Sequence[Point], clipper: Sequence[Point]) -> list[Point]:
    """The part of `poly` inside the convex, counter-clockwise `clipper` (Sutherland-Hodgman); a
    concave `poly` may come back with edges along the clipper, which is harmless for the tests
    made of it here (empty or not, near a disc or not). Written out for speed: a targeting check
    makes dozens."""
    out = list(poly)
    n = len(clipper)
    for i in range(n):
        if not out:
            break
        ax, ay = clipper[i - 1]
        bx, by = clipper[i]
        ex, ey = bx - ax, by - ay
        source, out = out, []
        px, py = source[-1]
        dp = ex * (py - ay) - ey * (px - ax)
        for cx, cy in source:
            dc = ex * (cy - ay) - ey * (cx - ax)
            if (dc >= -EPS) != (dp >= -EPS):
                t = dp / (dp - dc)
                out.append((px + t * (cx - px), py + t * (cy - py)))
            if dc >= -EPS:
                out.append((cx, cy))
            px, py, dp = cx, cy, dc
    return out


def covered_by_discs(poly: Sequence[Point], discs: Sequence[tuple[Point, float]]) -> bool:
    """Whether every point of the polygon lies in the union of the discs (centre, radius). A union
    of discs here has no holes, so its boundary decides: each edge is covered by the discs' chords."""
    if not poly:
        return True
    for i in range(len(poly)):
        a, b = poly[i - 1], poly[i]
        spans = sorted(s for c, r in discs if (s := _chord(a, b, c, r)) is not None)
        reach = 0.0
        for lo, hi in spans:
            if lo > reach + 1e-9:
                return False
            reach = max(reach, hi)
        if reach < 1 - 1e-9:
            return False
    return True


def _chord(a: Point, b: Point, c: Point, r: float) -> tuple[float, float] | None:
    """The part [t0, t1] of segment ab (t from 0 to 1) inside the disc."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    fx, fy = a[0] - c[0], a[1] - c[1]
    qa = dx * dx + dy * dy
    if qa <= EPS:
        return (0.0, 1.0) if fx * fx + fy * fy <= r * r else None
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - r * r
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    root = math.sqrt(disc)
    t0, t1 = (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)
    t0, t1 = max(0.0, t0), min(1.0, t1)
    return (t0, t1) if t0 <= t1 else None


def spans_inside(a: Point, b: Point, poly: Sequence[Point]) -> list[tuple[float, float]]:
    """The parts [t0, t1] of segment ab inside the polygon."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    cuts = [0.0, 1.0]
    for i in range(len(poly)):
        c, d = poly[i - 1], poly[i]
        ex, ey = d[0] - c[0], d[1] - c[1]
        denom = dx * ey - dy * ex
        if abs(denom) <= EPS:
            continue
        t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / denom
        u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / denom
        if 0.0 < t < 1.0 and -EPS <= u <= 1 + EPS:
            cuts.append(t)
    cuts.sort()
    out = []
    for t0, t1 in zip(cuts, cuts[1:]):
        if t1 - t0 <= EPS:
            continue
        mid = (t0 + t1) / 2
        if inside((a[0] + mid * dx, a[1] + mid * dy), poly):
            out.append((t0, t1))
    return out
