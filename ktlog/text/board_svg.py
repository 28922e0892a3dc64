"""A board at one moment as SVG: the killzone's terrain, drop zones and objective markers, the
operatives on their bases (order, wounds), and optional trails and shot lines. A pure function of
a layout and placed operatives, for the web replay, the seat page and `ktlog chart --board`;
every text it draws is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..board.geometry import Board, Piece, Placed
from ..board.layout import MARKER_DIAMETER, Layout
from ..board.shapes import Point
from .safe import visible

SCALE = 24
"""Pixels per inch."""
PLAYER_COLOURS = ("#1f5fbf", "#c0392b", "#1e8449", "#8e44ad")
"""Each player's colour, in the order they are first met."""
ZONE_COLOURS = ("#1f5fbf", "#c0392b", "#1e8449", "#8e44ad")
LABEL_LENGTH = 14


@dataclass(frozen=True)
class Trail:
    """Where an operative moved: the points it passed, start first."""

    operative: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class ShotLine:
    """A shot from one operative to another."""

    attacker: str
    target: str


def _fill(p: Piece) -> tuple[str, str]:
    """A part's fill and outline, by its type (darker is harder to see through)."""
    t = p.traits
    if "wall" in t:
        return "#2b2b2b", "#000"
    if "door" in t or "accessible" in t:
        return "#8b5a2b", "#4a2f14"
    if "vantage" in t:
        return "#9fb4c8", "#3d5468"
    if "exposed" in t:
        return "#d8d2c0", "#9a927c"
    if "heavy" in t:
        return "#6e6e6e", "#333"
    return "#c9b98a", "#7d6f45"


def _num(value: float) -> str:
    return f"{value * SCALE:.1f}"


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _label(text: str) -> str:
    shown = text if len(text) <= LABEL_LENGTH else text[: LABEL_LENGTH - 1] + "…"
    return _text(shown)


def _text(text: str) -> str:
    """Text for the SVG: control characters shown as visible escapes (XML cannot hold them), then escaped."""
    return escape(visible(text), quote=True)


def board_svg(
    layout: Layout,
    operatives: Sequence[Placed] = (),
    *,
    trails: Sequence[Trail] = (),
    shots: Sequence[ShotLine] = (),
    open_hatchways: frozenset[str] = frozenset(),
    title: str | None = None,
) -> str:
    """The SVG document of the board with the operatives where they stand."""
    board = Board(layout, open_hatchways)
    w, d = layout.width, layout.depth
    footer = 1.0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(w)} {_num(d + footer)}" width="{_num(w)}" height="{_num(d + footer)}" '
        'font-family="sans-serif" role="img">',
        f"<title>{_text(title or layout.name)}</title>",
        f'<rect x="0" y="0" width="{_num(w)}" height="{_num(d)}" fill="#ece7da" stroke="#555" stroke-width="2"/>',
    ]
    for i, (name, poly) in enumerate(board.drop_zones.items()):
        colour = ZONE_COLOURS[i % len(ZONE_COLOURS)]
        out.append(f'<polygon points="{_points(poly)}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-dasharray="6 4"/>')
        x, y = poly[0]
        out.append(f'<text x="{_num(x + 0.3)}" y="{_num(y + 0.7)}" font-size="12" fill="{colour}">drop zone {_text(name)}</text>')
    for p in sorted(board.pieces, key=lambda p: (p.top, p.bottom)):
        fill, stroke = _fill(p)
        dash = ' stroke-dasharray="3 2"' if "exposed" in p.traits or p.bottom > 0 else ""
        out.append(
            f'<polygon points="{_points(p.polygon)}" fill="{fill}" stroke="{stroke}" stroke-width="1"{dash}><title>{_text(p.name)}: {", ".join(sorted(p.traits))}, {p.top:g}&quot;</title></polygon>'
        )
    for p in board.pieces:
        if "vantage" in p.traits:
            cx = sum(x for x, _ in p.polygon) / len(p.polygon)
            cy = sum(y for _, y in p.polygon) / len(p.polygon)
            out.append(f'<text x="{_num(cx)}" y="{_num(cy)}" font-size="11" text-anchor="middle" fill="#1d2b38">{p.top:g}&quot;</text>')
    r = MARKER_DIAMETER / 2
    for m in layout.objectives:
        out.append(f'<circle cx="{_num(m.x)}" cy="{_num(m.y)}" r="{_num(r)}" fill="#f4d03f" fill-opacity="0.5" stroke="#9a7d0a" stroke-width="2"/>')
        out.append(f'<text x="{_num(m.x)}" y="{_num(m.y + r + 0.45)}" font-size="10" text-anchor="middle" fill="#6e5a07">{_label(m.name)}</text>')
    colours = _player_colours(operatives)
    where = {o.id: o for o in operatives}
    for trail in trails:
        if len(trail.points) >= 2 and trail.operative in where:
            colour = colours[where[trail.operative].player]
            out.append(f'<polyline points="{_points(trail.points)}" fill="none" stroke="{colour}" stroke-width="2" stroke-dasharray="5 3" opacity="0.8"/>')
    for shot in shots:
        a, t = where.get(shot.attacker), where.get(shot.target)
        if a is not None and t is not None:
            out.append(
                f'<line x1="{_num(a.x)}" y1="{_num(a.y)}" x2="{_num(t.x)}" y2="{_num(t.y)}" stroke="#e67e22" stroke-width="2.5" marker-end="url(#arrow)"/>'
            )
    if shots:
        out.insert(
            2,
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#e67e22"/></marker></defs>',
        )
    for o in operatives:
        out += _operative(o, colours[o.player])
    caption = layout.name + (" (illustrative, not a published map)" if layout.illustrative and "illustrative" not in layout.name.lower() else "")
    out.append(f'<text x="{_num(0.2)}" y="{_num(d + 0.7)}" font-size="13" fill="#333">{_text(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _player_colours(operatives: Sequence[Placed]) -> dict[str, str]:
    colours: dict[str, str] = {}
    for o in operatives:
        colours.setdefault(o.player, PLAYER_COLOURS[len(colours) % len(PLAYER_COLOURS)])
    return colours


def _operative(o: Placed, colour: str) -> list[str]:
    """A base: filled with its player's colour, a solid ring for an Engage order and a dashed one
    for Conceal; its name above and its wounds below."""
    dash = "" if o.order == "engage" else ' stroke-dasharray="4 3"'
    tip = (
        f"{o.id} ({o.player}), {o.order}"
        + (f", {o.wounds}/{o.max_wounds} wounds" if o.wounds is not None and o.max_wounds else "")
        + (f', {o.z:g}" up' if o.z else "")
    )
    out = [
        f'<g class="operative"><title>{_text(tip)}</title>',
        f'<circle cx="{_num(o.x)}" cy="{_num(o.y)}" r="{_num(o.radius)}" fill="{colour}" fill-opacity="0.85" stroke="#111" stroke-width="2.5"{dash}/>',
        f'<text x="{_num(o.x)}" y="{_num(o.y - o.radius - 0.12)}" font-size="11" text-anchor="middle" fill="#111">{_label(o.id)}</text>',
    ]
    if o.wounds is not None and o.max_wounds:
        out.append(
            f'<text x="{_num(o.x)}" y="{_num(o.y + 0.16)}" font-size="10" text-anchor="middle" fill="#fff" font-weight="bold">{o.wounds}/{o.max_wounds}</text>'
        )
    out.append("</g>")
    return out
