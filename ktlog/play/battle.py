"""A game with positions as a battle on its board at any moment (issue 44, docs/the-board.md):
the operatives where the rules left them, with their orders and wounds, the moves of the
activation under way as trails and its latest Shoot action as shot lines; what `ktlog chart
board`, the web replay and the TUI's map draw."""

from __future__ import annotations

from dataclasses import dataclass

from ..board.geometry import Placed
from ..board.layout import Layout
from ..events import CounteractStarted, Moved, OperativeActivated, Shot
from ..reducer import effective
from ..rules.positions import on_board
from ..text.board_svg import ShotLine, Trail, board_svg
from .replay import Replay


@dataclass(frozen=True)
class BoardView:
    """The board at one seq: what `board_svg` draws."""

    layout: Layout
    seq: int
    operatives: list[Placed]
    trails: list[Trail]
    shots: list[ShotLine]

    def svg(self, title: str | None = None) -> str:
        return board_svg(self.layout, self.operatives, trails=self.trails, shots=self.shots, title=title)


def board_view(replay: Replay, seq: int) -> BoardView | None:
    """The board after `seq` (clamped to the game), or None for a game without a layout. The
    replay is left at `seq`."""
    layout = replay.final.layout
    if layout is None:
        return None
    seq = max(0, min(seq, replay.head))
    counting = effective(replay.timeline.records[:seq])
    start = next((i for i in range(len(counting) - 1, -1, -1) if isinstance(counting[i][1], OperativeActivated | CounteractStarted)), len(counting))
    activation = counting[start:]
    moves = [(s, e) for s, e in activation if isinstance(e, Moved) and e.x is not None]
    trails: dict[str, list[tuple[float, float]]] = {}
    for s, e in moves:
        before = replay.seek(s - 1).operatives.get(e.operative)
        after = replay.seek(s).operatives.get(e.operative)
        if before is None or after is None or before.x is None or before.y is None or after.x is None or after.y is None:
            continue
        trails.setdefault(e.operative, [(before.x, before.y)]).append((after.x, after.y))
    shot = next((e for _, e in reversed(activation) if isinstance(e, Shot)), None)
    shots = [ShotLine(shot.operative, a.target) for a in shot.attacks] if shot is not None else []
    state = replay.seek(seq)
    return BoardView(layout, seq, on_board(state), [Trail(op, tuple(points)) for op, points in trails.items()], shots)
