"""Moving on the board (pg 40-41, 46, 56-61): the distance a move costs, with climbing, dropping
and jumping, and where it may go and end. A move is the operative's path as waypoints, each
leg one straight-line increment (pg 40):

- a leg on one level is a horizontal increment, rounded up to the nearest inch (pg 40); its
  base may not pass through terrain standing at that level, a Wall, or an enemy's base (pg 46,
  66), except through an Accessible part, which its centre passes at 1" more (pg 61), and
  Insignificant parts, moved over without going up and down (pg 61);
- a leg straight up is a climb: at least 2" (pg 56), rounded up, and only beside terrain that
  reaches that high (within 1" horizontally and 3" vertically, pg 56);
- a leg straight down is a drop; a leg that goes across and down, or across and at most 1" up,
  is a jump, at most 4" across in one increment (pg 56). The first 2" of dropping in an action
  is ignored (pg 56);
- the move ends where the operative can be placed: wholly on the board, on the floor or on
  Vantage terrain, its base on no terrain and no other base (pg 46, 56, 60).

Simplified (docs/the-board.md): a climb's "visible" terrain is any within reach; the path over a
Vantage part's edge while climbing is not traced; Gallowdark's measuring around walls is not done."""

from __future__ import annotations

import math
from collections.abc import Sequence

from .geometry import LEVEL, OPERATIVE_HEIGHT, Board, Piece, Placed, Reason
from .shapes import box_of, boxes_meet, point_polygon_distance, seg_point_distance, segment_polygon_distance

CLIMB_MINIMUM = 2.0
CLIMB_REACH = (1.0, 3.0)
"""Within 1" horizontally and 3" vertically of the terrain it climbs (pg 56)."""
DROP_IGNORED = 2.0
JUMP_ACROSS = 4.0
JUMP_UP_IGNORED = 1.0
ACCESSIBLE_EXTRA = 1.0

Waypoint = tuple[float, float, float]


def _blocking(p: Piece, z: float) -> bool:
    """Whether a base moving on level z collides with the part: it stands at that level (its
    bottom below the operative's head, its top above its feet), unless the centre may pass it."""
    if "wall" in p.traits:
        return True
    if "insignificant" in p.traits or "blocking" in p.traits:
        return False
    return p.bottom < z + OPERATIVE_HEIGHT - LEVEL and p.top > z + LEVEL


def placement_problem(board: Board, op: Placed, others: Sequence[Placed] = ()) -> Reason | None:
    """Why the operative cannot be placed where it is, or None (pg 46, 56, 60)."""
    w, d = board.layout.width, board.layout.depth
    r = op.radius
    if not (r - LEVEL <= op.x <= w - r + LEVEL and r - LEVEL <= op.y <= d - r + LEVEL):
        return Reason(f"{op.id}'s base would be over the edge of the killzone", "Bases, pg 46")
    stand = board.standing_on(op)
    if op.z > LEVEL and stand is None:
        return Reason(f'{op.id} is {op.z:g}" up but not on Vantage terrain: it can finish a move only on the floor or on Vantage terrain', "Vantage, pg 60")
    for p in board.pieces:
        if p is stand or not _blocking(p, op.z) or point_polygon_distance(op.centre, p.polygon) >= r - LEVEL:
            continue
        return Reason(f"{op.id}'s base would be on {p.name}: a base cannot be placed on terrain that is not Vantage", "Terrain and Movement, pg 56")
    for o in others:
        if o.id != op.id and abs(o.z - op.z) < OPERATIVE_HEIGHT and math.hypot(o.x - op.x, o.y - op.y) < r + o.radius - LEVEL:
            return Reason(f"{op.id}'s base would be on {o.id}'s: bases can touch but one cannot be placed on another", "Bases, pg 46")
    return None


class Move:
    """A move's cost, or why it cannot be made: `cost` in inches as the rules count it, `climbed`
    (Dash cannot climb, pg 41), and `problem` (None when the path is possible)."""

    def __init__(self) -> None:
        self.across = 0
        self.climbs = 0
        self.dropped = 0.0
        self.accessible = 0
        self.climbed = False
        self.problem: Reason | None = None

    @property
    def cost(self) -> int:
        dropped = max(0.0, self.dropped - DROP_IGNORED)
        return self.across + self.climbs + math.ceil(dropped - 1e-9) + self.accessible * int(ACCESSIBLE_EXTRA)


def _up(n: float) -> int:
    """An increment rounded up to the nearest inch (pg 40)."""
    return math.ceil(n - 1e-9)


def move_cost(board: Board, op: Placed, path: Sequence[Waypoint], others: Sequence[Placed] = ()) -> Move:
    """What moving the operative along `path` (its waypoints after where it stands) costs (pg 40,
    56, 61), and the first thing that makes it impossible."""
    move = Move()
    here = (op.x, op.y, op.z)
    enemies = [o for o in others if o.player != op.player]
    for there in path:
        problem = _leg(board, op, here, there, move, enemies)
        if problem is not None:
            move.problem = problem
            return move
        here = there
    end = Placed(op.id, op.player, *here, base_mm=op.base_mm)
    move.problem = placement_problem(board, end, [o for o in others if o.id != op.id])
    return move


def _leg(board: Board, op: Placed, here: Waypoint, there: Waypoint, move: Move, enemies: Sequence[Placed]) -> Reason | None:
    (x0, y0, z0), (x1, y1, z1) = here, there
    across = math.hypot(x1 - x0, y1 - y0)
    rise = z1 - z0
    if across <= LEVEL and abs(rise) <= LEVEL:
        return None
    if across <= LEVEL:
        if rise > 0:
            return _climb(board, op, (x0, y0), z0, z1, move)
        move.dropped += -rise
        return None
    if abs(rise) > LEVEL:
        if across > JUMP_ACROSS + LEVEL:
            return Reason(f'a jump goes at most {JUMP_ACROSS:g}" across in one straight line ({across:.1f}" here)', "Jumping, pg 56")
        if rise > JUMP_UP_IGNORED + LEVEL:
            return Reason(f'a jump ignores at most {JUMP_UP_IGNORED:g}" of height; climb the {rise:.1f}" as an increment of its own', "Jumping, pg 56")
        if rise < 0:
            move.dropped += -rise
    move.across += _up(across)
    level = max(z0, z1)
    swept = box_of([(x0, y0), (x1, y1)])
    for p in board.pieces:
        if not boxes_meet(swept, p.box, op.radius) or not _blocking(p, level) or segment_polygon_distance((x0, y0), (x1, y1), p.polygon) >= op.radius - LEVEL:
            continue
        if "accessible" in p.traits and "wall" not in p.traits:
            move.accessible += 1  # only the centre passes through (pg 61)
            continue
        return Reason(f"{op.id} cannot move through {p.name}: move around, climb over or jump it", "Terrain and Movement, pg 56")
    for e in enemies:
        if abs(e.z - level) < OPERATIVE_HEIGHT and seg_point_distance((x0, y0), (x1, y1), e.centre) < op.radius + e.radius - LEVEL:
            return Reason(f"{op.id} cannot move through the enemy operative {e.id}", "Bases, pg 46")
    return None


def _climb(board: Board, op: Placed, at: tuple[float, float], z0: float, z1: float, move: Move) -> Reason | None:
    reach_across, reach_up = CLIMB_REACH
    if not any(
        "insignificant" not in p.traits
        and p.top >= z1 - LEVEL
        and p.bottom <= z0 + reach_up
        and point_polygon_distance(at, p.polygon) <= op.radius + reach_across
        for p in board.pieces
    ):
        return Reason(f'nothing to climb: an operative climbs terrain within {reach_across:g}" of its base that reaches {z1:g}"', "Climbing, pg 56")
    move.climbs += _up(max(CLIMB_MINIMUM, z1 - z0))
    move.climbed = True
    return None


def move_problem(
    board: Board, op: Placed, path: Sequence[Waypoint], allowance: float, others: Sequence[Placed] = (), *, climb: bool = True, action: str = "Reposition"
) -> Reason | None:
    """Why the move cannot be made as an action allowing `allowance` inches (Move for Reposition
    and Fall Back, Move + 2" for Charge, 3" for Dash, 2" when counteracting; pg 38-41), or None."""
    move = move_cost(board, op, path, others)
    if move.problem is not None:
        return move.problem
    if move.climbed and not climb:
        return Reason(f"{op.id} cannot climb during a {action}", f"{action}, pg 41")
    if move.cost > allowance + 1e-9:
        return Reason(
            f'the move counts {move.cost}" (increments rounded up, climbs at least 2", drops past the first 2"); {action} allows {allowance:g}"',
            f"{action}, pg 40-41",
        )
    return None


def fewest_inches(start: Waypoint, end: Waypoint) -> int:
    """What any path from start to end counts at least (pg 40, 56): the straight line across, its
    increments rounded up, a rise of more than 1" climbed (at least 2"), a drop past the first 2"."""
    across = _up(math.hypot(end[0] - start[0], end[1] - start[1]))
    rise = end[2] - start[2]
    climb = _up(max(CLIMB_MINIMUM, rise)) if rise > JUMP_UP_IGNORED + 0.01 else 0
    drop = _up(max(0.0, -rise - DROP_IGNORED))
    return across + climb + drop


def counted(board: Board, op: Placed, end: Waypoint, others: Sequence[Placed] = (), *, climb: bool = True) -> tuple[int, bool]:
    """What a move from where the operative stands to `end` counts: the cheapest of the straight
    ways there (one jump, across then up or down, up or down then across) that is open, and True;
    when terrain blocks all three (the player's way around is not searched), the fewest inches
    any path counts, and False. Without `climb` (a Dash, pg 40) a way that climbs is not open."""
    here = (op.x, op.y, op.z)
    least = fewest_inches(here, end)
    cheapest: int | None = None
    for way in ([end], [(end[0], end[1], here[2]), end], [(here[0], here[1], end[2]), end]):
        move = move_cost(board, op, way, others)
        if move.problem is None and (climb or not move.climbed):
            cheapest = move.cost if cheapest is None else min(cheapest, move.cost)
            if move.cost <= least:
                break  # no way costs less
    return (least, False) if cheapest is None else (cheapest, True)
