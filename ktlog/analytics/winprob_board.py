"""The win-probability model's board features (issue 44; docs/statistics.md): in a game with
positions, each player's operatives within control range of an objective marker (pg 52), their
mean distance to the nearest marker, and those in cover from the nearest enemy (pg 47); nothing
in a game without. Read by `ktlog.board` as the rules read it (`rules.positions`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..board.geometry import contests, distance, marker_distance, targeting
from ..rules.positions import board, on_board
from ..state import GameState

BOARD_FEATURES = ("on_markers", "marker_distance", "in_cover")
"""The features read from the board (`winprob_features.CATALOGUE`)."""


@dataclass(slots=True)
class Positions:
    """One player's operatives on the board: within control range of a marker, mean inches to the nearest, in cover from the nearest enemy."""

    on_markers: int = 0
    marker_distance: float = 0.0
    in_cover: int = 0


def positions_key(state: GameState) -> tuple:
    """What the board features depend on: where each operative in the killzone stands, and the markers set up."""
    return (state.layout is not None, tuple((o.id, o.x, o.y, o.z) for o in state.scan() if o.in_killzone), tuple(state.markers))


def board_figures(state: GameState) -> dict[str, Positions]:
    """Each player's `Positions` (all 0 in a game without a layout, or for operatives without a position)."""
    out = {name: Positions() for name in state.players}
    if state.layout is None:
        return out
    b = board(state.layout)
    standing = on_board(state)
    markers = [m for m in state.layout.objectives if m.name in state.markers]
    counted = dict.fromkeys(state.players, 0)
    for op in standing:
        mine = out.get(op.player)
        if mine is None:
            continue
        counted[op.player] += 1
        if markers:
            mine.on_markers += any(contests(b, op, m) for m in markers)
            mine.marker_distance += min(marker_distance(op, m) for m in markers)
        enemies = [e for e in standing if e.player != op.player]
        if enemies:
            mine.in_cover += targeting(b, min(enemies, key=lambda e: distance(op, e)), op).in_cover()
    for name, mine in out.items():
        mine.marker_distance = mine.marker_distance / counted[name] if counted[name] else 0.0
    return out
