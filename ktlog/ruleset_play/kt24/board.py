"""Where a simulated game's operatives stand, on a layout (issue 44; docs/the-board.md): set up in
their drop zones, moved toward an objective marker or an enemy, charging into control range,
shooting valid targets with the cover and obscured the terrain gives, the other operatives a
Blast, Torrent or x" Devastating weapon reaches, and who controls each marker. Every geometric
decision is `ktlog.board`'s, asked as the rules ask it (`rules.positions`), so the reducer judges
a simulated game's positions as it judges a person's. On the killzone floor only: nobody climbs
to Vantage terrain."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import NamedTuple

from ...board.geometry import (
    Board,
    Placed,
    blast_targets,
    contests,
    control_range,
    devastating_targets,
    distance,
    target_problem,
    torrent_targets,
)
from ...board.layout import Layout
from ...board.movement import move_problem, placement_problem
from ...board.shapes import box_of
from ...errors import KtlogError
from ...rules.positions import board, cover_and_obscured, holders, on_board, placed, wholly_within
from ...rules.weapons import WeaponProfile
from ...state import GameState, OperativeState

TURNS = (0, 25, -25, 50, -50, 90, -90, 135, -135, 180)
"""Degrees off the straight way to its goal a move tries, in turn, when the straight way is closed."""
SHARES = (1.0, 0.6, 0.3)
"""Of the move's reach, tried in turn: the whole of it first."""
SHORTEST = 0.5
"""Inches: a move shorter than this is not worth an action."""
SPARE = 0.02
"""Inches kept short of the allowance, so that rounding a position to 0.01 never adds an inch."""
CHARGE_GAP = 0.5
"""Inches between the bases where a Charge ends: within control range (1", pg 41)."""
SET_UP_TRIES = 400
TOWARD_MARKER = 0.6
"""How often a move heads for the nearest objective marker rather than the nearest enemy."""


class Aim(NamedTuple):
    """One target of a Shoot action, with its cover (pg 47) and obscured (pg 53) from the board."""

    target: str
    cover: bool
    obscured: bool


def _at(x: float, y: float) -> tuple[float, float]:
    return round(x, 2), round(y, 2)


def setup_positions(rng: random.Random, s: GameState, layout: Layout, zones: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Where each operative is set up: at random, wholly within its player's drop zone (pg 110),
    where a base can be placed (pg 46, 56); on the floor."""
    b = board(layout)
    out: dict[str, tuple[float, float]] = {}
    standing: list[Placed] = []
    for op in s.scan():
        zone = b.drop_zones[zones[op.player]]
        x0, y0, x1, y1 = box_of(zone)
        for _ in range(SET_UP_TRIES):
            here = placed(op, *_at(rng.uniform(x0, x1), rng.uniform(y0, y1)), 0.0)
            assert here is not None
            if wholly_within(here, zone) and placement_problem(b, here, standing) is None:
                out[op.id] = (here.x, here.y)
                standing.append(here)
                break
        else:
            raise KtlogError(f"no room to set up {op.id} in drop zone {zones[op.player]!r} of layout {layout.name!r}: give a larger drop zone")
    return out


def _ends(b: Board, s: GameState, op: OperativeState, goal: tuple[float, float], reach: float, action: str) -> tuple[float, float] | None:
    """The first end of a straight move toward `goal` (turning off it when closed, shorter when
    the whole reach is) that the board allows: a path it can take within `reach` (pg 40, 56),
    not ending within an enemy's control range (pg 40)."""
    start = placed(op)
    assert start is not None
    others = on_board(s, but=op.id)
    enemies = [o for o in others if o.player != op.player]
    heading = math.atan2(goal[1] - start.y, goal[0] - start.x)
    far = min(reach - SPARE, math.hypot(goal[0] - start.x, goal[1] - start.y))
    for share in SHARES:
        length = far * share
        if length < SHORTEST:
            continue
        for turn in TURNS:
            angle = heading + math.radians(turn)
            x, y = _at(start.x + length * math.cos(angle), start.y + length * math.sin(angle))
            end = placed(op, x, y, 0.0)
            assert end is not None
            if move_problem(b, start, [(x, y, 0.0)], reach, others, climb=action != "Dash", action=action) is None and not any(
                control_range(b, end, e) for e in enemies
            ):
                return x, y
    return None


def step(rng: random.Random, s: GameState, op: OperativeState, action: str, reach: float) -> tuple[float, float] | None:
    """Where a Reposition or Dash ends: toward the nearest objective marker or the nearest enemy."""
    assert s.layout is not None
    here = placed(op)
    assert here is not None
    enemies = [p for p in on_board(s) if p.player != op.player]
    if s.layout.objectives and (not enemies or rng.random() < TOWARD_MARKER):
        marker = min(s.layout.objectives, key=lambda m: math.hypot(m.x - here.x, m.y - here.y))
        goal = (marker.x, marker.y)
    else:
        nearest = min(enemies, key=lambda e: distance(here, e))
        goal = (nearest.x, nearest.y)
    return _ends(board(s.layout), s, op, goal, reach, action)


def fall_back(s: GameState, op: OperativeState, reach: float) -> tuple[float, float] | None:
    """Where a Fall Back ends: straight away from the enemies within its control range."""
    assert s.layout is not None
    here = placed(op)
    assert here is not None
    near = [e for o in op.engaged_with if (e := placed(s.operatives[o])) is not None]
    if not near:
        return None
    cx, cy = sum(e.x for e in near) / len(near), sum(e.y for e in near) / len(near)
    away = math.atan2(here.y - cy, here.x - cx)
    return _ends(board(s.layout), s, op, (here.x + reach * math.cos(away), here.y + reach * math.sin(away)), reach, "Fall Back")


def charge(rng: random.Random, s: GameState, op: OperativeState, reach: float) -> tuple[float, float, tuple[str, ...]] | None:
    """Where a Charge at a random enemy within reach ends, and the enemies within control range
    there (each its target, pg 41); None when no enemy can be reached."""
    assert s.layout is not None
    b = board(s.layout)
    start = placed(op)
    assert start is not None
    others = on_board(s, but=op.id)
    enemies = [o for o in others if o.player != op.player]
    reachable = [e for e in enemies if distance(start, e) <= reach]
    rng.shuffle(reachable)
    for aim in reachable:
        gap = start.radius + aim.radius + CHARGE_GAP
        heading = math.atan2(start.y - aim.y, start.x - aim.x)
        for turn in TURNS:
            angle = heading + math.radians(turn)
            x, y = _at(aim.x + gap * math.cos(angle), aim.y + gap * math.sin(angle))
            end = placed(op, x, y, 0.0)
            assert end is not None
            if control_range(b, end, aim) and move_problem(b, start, [(x, y, 0.0)], reach, others, action="Charge") is None:
                return x, y, tuple(e.id for e in enemies if control_range(b, end, e))
    return None


def shot(rng: random.Random, s: GameState, op: OperativeState, profile: WeaponProfile, enemies: Sequence[OperativeState]) -> list[Aim] | None:
    """A Shoot action's targets: a valid target within Range chosen at random (pg 42, 55, 111)
    and the others its Blast or Torrent reaches (pg 111), each with the cover and obscured the
    terrain gives; None when the weapon has none. A Blast target whose reach the rules cannot
    record as its primary target's (the shooter within it, an operative beyond Range, a
    secondary target not in cover where the primary is, pg 111) is not chosen."""
    assert s.layout is not None
    b = board(s.layout)
    shooter = placed(op)
    assert shooter is not None
    everyone = on_board(s)
    seek = "seek" if profile.seek else "seek light" if profile.seek_light else None
    candidates = [p for e in enemies if (p := placed(e)) is not None]
    rng.shuffle(candidates)
    for primary in candidates:
        if not _in_range(shooter, primary, profile) or target_problem(b, shooter, primary, everyone, seek=seek) is not None:
            continue
        first = Aim(primary.id, *cover_and_obscured(b, shooter, primary, profile))
        others = _reached(b, shooter, primary, profile, everyone, seek)
        if others is None:
            continue
        aims = [Aim(o.id, *cover_and_obscured(b, shooter, o, profile)) for o in others]
        if profile.blast and any((first.cover and not a.cover) or (first.obscured and not a.obscured) for a in aims):
            continue
        return [first, *aims]
    return None


def _in_range(shooter: Placed, target: Placed, profile: WeaponProfile) -> bool:
    return profile.range is None or distance(shooter, target) <= profile.range


def _reached(b: Board, shooter: Placed, primary: Placed, profile: WeaponProfile, everyone: list[Placed], seek: str | None) -> list[Placed] | None:
    """The other targets a Blast or Torrent weapon attacks (pg 111), None when they cannot all be shot."""
    if profile.blast:
        reached = blast_targets(b, primary, profile.blast, everyone)
        if any(o.id == shooter.id or not _in_range(shooter, o, profile) for o in reached):
            return None
        return reached
    if profile.torrent:
        return [o for o in torrent_targets(b, shooter, primary, profile.torrent, everyone, seek=seek) if _in_range(shooter, o, profile)]
    return []


def splashed(s: GameState, target: str, inches: int) -> tuple[str, ...]:
    """The other operatives an x" Devastating weapon's critical reaches from its target (pg 111)."""
    assert s.layout is not None
    aimed = placed(s.operatives[target])
    assert aimed is not None
    return tuple(sorted(o.id for o in devastating_targets(board(s.layout), aimed, inches, on_board(s))))


def contested(s: GameState, op: OperativeState) -> list[str]:
    """The objective markers set up on the layout within the operative's control range (pg 52)."""
    assert s.layout is not None
    here = placed(op)
    b = board(s.layout)
    return [m.name for m in s.layout.objectives if m.name in s.markers and here is not None and contests(b, here, m)]


def control(s: GameState) -> dict[str, str | None]:
    """Who controls each objective marker set up on the layout (pg 52), as the rules judge it."""
    return holders(s, on_board(s))
