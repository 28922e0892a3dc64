"""Where a set-up or a move would put an operative, judged as the rules judge it (issue 44, item
3; docs/the-board.md): a face moves a cursor over the board (the TUI's map, the seat page) and
asks here what the move counts there and what is left of it (`ktlog.board.movement.counted`, the
count the rules use), the levels it could stand on, and whether the rules take the event there
(the reducer tried on a copy of the state, so the refusal is the one recording would give, with
its rule and page)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import msgspec

from .. import events as ev
from ..board.geometry import Placed
from ..board.movement import Waypoint, counted
from ..board.shapes import box_of, inside
from ..rules.positions import allowance, board, on_board, placed
from ..state import GameState
from .moves import Moves, refusal_text

Placeable = ev.OperativeSetUp | ev.Moved
SNAP_STEP = 0.05
"""Inches: how finely `furthest` walks back along the line to the first spot the rules take."""
NEAREST_RINGS = 6
"""A set-up's first spot: the drop zone's middle, else the nearest free spot within this many
rings of 1" around it."""


def placeable(s: GameState, event: ev.Event) -> bool:
    """Whether the event says where an operative stands, in a game with a layout."""
    return s.layout is not None and isinstance(event, Placeable)


@dataclass(frozen=True)
class Spot:
    """The event with the operative at x, y, z, and what the rules make of it there."""

    event: Placeable
    used: int | None
    """Inches the move counts to here; None for a set-up, or a move from no position."""
    allowed: int | None
    """What the action allows (Move, Dash's 3", Move + 2" for a Charge, 2" counteracting)."""
    problem: str | None
    """The rules' refusal with its rule and page, or None: the event is legal here."""

    @property
    def left(self) -> int | None:
        return None if self.used is None or self.allowed is None else self.allowed - self.used


class Placing:
    """An operative being set up or moved to a spot of the board, from the state `moves` holds."""

    def __init__(self, moves: Moves, event: Placeable):
        s = moves.state
        if s.layout is None:
            raise ValueError("a game without a layout has no positions")
        self.moves, self.event = moves, event
        self.layout = s.layout
        self.board = board(s.layout)
        self.op = s.operatives[event.operative]
        self.others = on_board(s, but=self.op.id)
        self.start: Placed | None = placed(self.op) if isinstance(event, ev.Moved) else None
        self.allowed: int | None = allowance(moves.ruleset, s, self.op, event.name) if isinstance(event, ev.Moved) else None

    def at(self, x: float, y: float, z: float = 0.0) -> Placed:
        here = placed(self.op, x, y, z)
        assert here is not None
        return here

    def operatives_at(self, x: float, y: float, z: float = 0.0) -> list[Placed]:
        """Every operative on the board, this one at (x, y, z), in the order the maps letter them."""
        here = self.at(x, y, z)
        everyone = on_board(self.moves.state)
        if not any(o.id == here.id for o in everyone):
            everyone.append(here)
        return [here if o.id == here.id else o for o in everyone]

    def event_at(self, x: float, y: float, z: float = 0.0) -> Placeable:
        """The event with the position; on the floor, z is left out (as `ktlog event` writes it)."""
        return msgspec.structs.replace(self.event, x=round(x, 2), y=round(y, 2), z=round(z, 2) if z else None)

    def judge(self, x: float, y: float, z: float = 0.0) -> Spot:
        """What the move counts to (x, y, z) and what is left of it, and the rules' verdict."""
        event = self.event_at(x, y, z)
        used = None
        if self.start is not None:
            used, _ = counted(self.board, self.start, (x, y, z), self.others, climb=not isinstance(event, ev.Dashed))
        refusal = self.moves.trial.refusal(event)
        return Spot(event, used, self.allowed, refusal_text(refusal) if refusal is not None else None)

    def distance(self, spot: Spot) -> str:
        """The inches in words, as every face says them: what a set-up stands in, or what the move
        counts to the spot and what is left of it (or how far too far)."""
        if self.allowed is None:
            zone = self.moves.state.players[self.op.player].drop_zone
            return f"set up in {self.op.player}'s drop zone {zone}" if zone else "set up"
        if spot.used is None or not isinstance(spot.event, ev.Moved):
            return "it had no position: its distance is on the players' word"
        left = spot.left or 0
        more = f'{left}" left' if left >= 0 else f'{-left}" too far'
        return f'moves {spot.used}" of its {spot.event.name}\'s {spot.allowed}": {more}'

    def levels(self, x: float, y: float) -> list[float]:
        """The levels an operative's base centred at (x, y) may stand on: the floor and the top of
        each Vantage part under it (pg 60), lowest first."""
        tops = {round(p.top, 2) for p in self.board.pieces if "vantage" in p.traits and inside((x, y), p.polygon)}
        return [0.0, *sorted(tops)]

    def origin(self) -> Waypoint:
        """Where the cursor starts: where the operative stands; a set-up, the free spot nearest
        the middle of its player's drop zone; else the board's middle."""
        if self.start is not None:
            return self.start.x, self.start.y, self.start.z
        zone = self.board.drop_zones.get(self.moves.state.players[self.op.player].drop_zone or "")
        if zone is None:
            return self.layout.width / 2, self.layout.depth / 2, 0.0
        x0, y0, x1, y1 = box_of(zone)
        cx, cy = round((x0 + x1) / 2), round((y0 + y1) / 2)
        for ring in range(NEAREST_RINGS + 1):
            for dx in range(-ring, ring + 1):
                for dy in range(-ring, ring + 1):
                    if max(abs(dx), abs(dy)) == ring and self.on_board(cx + dx, cy + dy) and self.judge(cx + dx, cy + dy).problem is None:
                        return cx + dx, cy + dy, 0.0
        return cx, cy, 0.0

    def on_board(self, x: float, y: float) -> bool:
        return 0 <= x <= self.layout.width and 0 <= y <= self.layout.depth

    def furthest(self, x: float, y: float, z: float = 0.0) -> Waypoint:
        """The furthest spot along the line from where the operative stands toward (x, y) that
        the move allows (at most its allowance across, pg 40) and the rules take; when none,
        the furthest the move allows. A set-up, or a move from no position: (x, y, z)."""
        if self.start is None or self.allowed is None:
            return x, y, z
        sx, sy = self.start.x, self.start.y
        length = math.hypot(x - sx, y - sy)
        if length < SNAP_STEP:
            return x, y, z
        first: Waypoint | None = None
        steps = int(self.allowed / SNAP_STEP)
        for k in range(steps + 1):
            t = (self.allowed - k * SNAP_STEP) / length
            px, py = round(sx + (x - sx) * t, 2), round(sy + (y - sy) * t, 2)
            if not self.on_board(px, py):
                continue
            pz = z if z in self.levels(px, py) else 0.0
            used, _ = counted(self.board, self.start, (px, py, pz), self.others, climb=not isinstance(self.event, ev.Dashed))
            if used > self.allowed:
                continue
            first = first or (px, py, pz)
            if self.judge(px, py, pz).problem is None:
                return px, py, pz
        return first or (sx, sy, self.start.z)
