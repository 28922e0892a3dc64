"""What is impossible or unsafe in a layout (docs/the-board.md), each problem naming its field and
what to do: a layout file is checked with it before it is used (`ktlog.files.layouts`), and a
game's layout when its creation is applied (an imported log may carry any layout)."""

from __future__ import annotations

import math
from collections import Counter

from ..characters import unsafe_character
from .layout import Feature, Layout, Rect
from .shapes import area, rect_corners, simple

NAME_LENGTH = 100
NOTE_LENGTH = 1000
BOARD_RANGE = (6.0, 60.0)
"""A board's width and depth, inches: from a small skirmish mat to twice a 30" board."""
MAX_HEIGHT = 24.0
MAX_FEATURES = 100
MAX_PARTS = 30
"""In one feature."""
MAX_ALL_PARTS = 400
MAX_CORNERS = 64
MAX_DROP_ZONES = 8
MAX_OBJECTIVES = 16
SHOWN = 3
"""Problems a refusal names at once."""
MIN_AREA = 0.01
"""Square inches: a footprint smaller than this is a mistake (a point or a line)."""


def summary(problems: list[str]) -> str:
    """The first `SHOWN` problems, and how many more there are."""
    more = f" (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
    return "; ".join(problems[:SHOWN]) + more


def problems_of(layout: Layout) -> list[str]:
    """What is impossible or unsafe in a layout, each with its field and what to do."""
    out = _board_problems(layout)
    if out:
        return out
    out = _count_problems(layout)
    if out:
        return out
    w, d = layout.width, layout.depth
    out += _unique([f.name for f in layout.terrain], "terrain")
    for i, feature in enumerate(layout.terrain):
        out += _feature_problems(feature, f"terrain[{i}]", w, d)
    out += _unique([z.name for z in layout.drop_zones], "drop_zones")
    for i, zone in enumerate(layout.drop_zones):
        out += _name(zone.name, f"drop_zones[{i}].name") + _shape(zone.rect, zone.polygon, f"drop_zones[{i}]", w, d)
    out += _unique([m.name for m in layout.objectives], "objectives")
    r = 20 / 25.4
    for i, marker in enumerate(layout.objectives):
        out += _name(marker.name, f"objectives[{i}].name")
        if not (math.isfinite(marker.x) and math.isfinite(marker.y) and r <= marker.x <= w - r and r <= marker.y <= d - r):
            out.append(f"field objectives[{i}]: the marker at ({marker.x}, {marker.y}) is not wholly on the {w:g} x {d:g} board; give its centre in inches")
    return out


def _board_problems(layout: Layout) -> list[str]:
    """The layout's name, note and board size."""
    out = _name(layout.name, "name")
    if layout.note is not None and (len(layout.note) > NOTE_LENGTH or unsafe_character(layout.note, tab=True)):
        out.append(f"field note: at most {NOTE_LENGTH} characters, without control characters")
    lo, hi = BOARD_RANGE
    for key in ("width", "depth"):
        value = getattr(layout, key)
        if not (math.isfinite(value) and lo <= value <= hi):
            out.append(f"field {key}: {value} is not a board size; give inches from {lo:g} to {hi:g} (the default board is 30 x 22, pg 56)")
    return out


def _count_problems(layout: Layout) -> list[str]:
    """How many features, parts, drop zones and markers: each within its limit."""
    out = []
    if len(layout.terrain) > MAX_FEATURES:
        out.append(f"field terrain: {len(layout.terrain)} features; at most {MAX_FEATURES}")
    if sum(len(f.parts) for f in layout.terrain) > MAX_ALL_PARTS:
        out.append(f"field terrain: more than {MAX_ALL_PARTS} parts in all; split the killzone or simplify its parts")
    if len(layout.drop_zones) > MAX_DROP_ZONES:
        out.append(f"field drop_zones: {len(layout.drop_zones)} drop zones; at most {MAX_DROP_ZONES}")
    if len(layout.objectives) > MAX_OBJECTIVES:
        out.append(f"field objectives: {len(layout.objectives)} objective markers; at most {MAX_OBJECTIVES}")
    return out


def _feature_problems(feature: Feature, at: str, w: float, d: float) -> list[str]:
    """One terrain feature's name and parts."""
    out = _name(feature.name, f"{at}.name")
    if not feature.parts:
        out.append(f"field {at}.parts: the feature {feature.name[:60]!r} has no parts; give at least one")
    if len(feature.parts) > MAX_PARTS:
        return [*out, f"field {at}.parts: {len(feature.parts)} parts; at most {MAX_PARTS} in one feature"]
    out += _unique([p.name for p in feature.parts], f"{at}.parts")
    for j, part in enumerate(feature.parts):
        here = f"{at}.parts[{j}]"
        out += _name(part.name, f"{here}.name")
        out += _shape(part.rect, part.polygon, here, w, d)
        if not (math.isfinite(part.height) and 0 < part.height <= MAX_HEIGHT):
            out.append(f"field {here}.height: {part.height} is not a height; give inches above the floor, more than 0 and at most {MAX_HEIGHT:g}")
        elif not (math.isfinite(part.bottom) and 0 <= part.bottom < part.height):
            out.append(f"field {here}.bottom: {part.bottom} must be 0 or more and below the part's height ({part.height:g})")
        if not part.traits:
            out.append(f'field {here}.traits: give the part\'s terrain types, e.g. ["heavy"] or ["light"] (pg 58: every part has a type)')
        elif len(set(part.traits)) != len(part.traits):
            out.append(f"field {here}.traits: a type is named twice")
    return out


def _name(name: str, field: str) -> list[str]:
    if not name.strip():
        return [f"field {field}: the name is empty; give one"]
    if len(name) > NAME_LENGTH:
        return [f"field {field}: the name is {len(name)} characters; at most {NAME_LENGTH}"]
    if bad := unsafe_character(name):
        return [f"field {field}: the name holds the control character {bad}; remove it"]
    return []


def _unique(names: list[str], field: str) -> list[str]:
    twice = sorted(n for n, count in Counter(names).items() if count > 1)
    return [f"field {field}: {', '.join(repr(n[:60]) for n in twice)} named twice; give each a name of its own"] if twice else []


def _shape(rect: Rect | None, polygon: list[tuple[float, float]] | None, field: str, w: float, d: float) -> list[str]:
    if (rect is None) == (polygon is None):
        return [f"field {field}: give its footprint as a rect = {{ x, y, width, depth }} or a polygon = [[x, y], ...], one of the two"]
    if rect is not None:
        numbers = (rect.x, rect.y, rect.width, rect.depth, rect.angle)
        if not all(math.isfinite(n) for n in numbers):
            return [f"field {field}.rect: every number must be finite"]
        if rect.width <= 0 or rect.depth <= 0:
            return [f"field {field}.rect: width and depth must be more than 0 inches"]
        if abs(rect.angle) > 360:
            return [f"field {field}.rect.angle: {rect.angle} degrees; give -360 to 360"]
        corners = list(rect_corners(rect.x, rect.y, rect.width, rect.depth, rect.angle))
    else:
        assert polygon is not None
        if not 3 <= len(polygon) <= MAX_CORNERS:
            return [f"field {field}.polygon: {len(polygon)} corners; give 3 to {MAX_CORNERS}"]
        if not all(math.isfinite(n) for p in polygon for n in p):
            return [f"field {field}.polygon: every number must be finite"]
        corners = [(float(x), float(y)) for x, y in polygon]
        if abs(area(corners)) < MIN_AREA:
            return [f"field {field}.polygon: its area is under {MIN_AREA} square inches; give at least three corners apart"]
        if not simple(corners):
            return [f"field {field}.polygon: its edges cross; give the corners in order around the shape"]
    outside = [(x, y) for x, y in corners if not (-1e-6 <= x <= w + 1e-6 and -1e-6 <= y <= d + 1e-6)]
    if outside:
        x, y = outside[0]
        return [f"field {field}: the corner ({x:.2f}, {y:.2f}) is off the {w:g} x {d:g} board; keep it within 0-{w:g} across and 0-{d:g} down"]
    return []
