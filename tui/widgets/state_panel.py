"""The state of a game at one moment: header, score, both sides' operatives, objective markers.

The record screen and the replay screen show the same panel; it only reads the state.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from ktlog.state import GameState

from .game_header import GameHeader
from .marker_panel import MarkerPanel
from .operative_table import OperativeTable
from .scoreboard import ScoreBoard


class StatePanel(Vertical):
    DEFAULT_CSS = """
    StatePanel { height: 1fr; }
    StatePanel > Horizontal { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield GameHeader()
        yield ScoreBoard()
        with Horizontal():
            yield OperativeTable(0, id="side-0")
            yield OperativeTable(1, id="side-1")
        yield MarkerPanel()

    def show(self, state: GameState) -> None:
        self.query_one(GameHeader).show(state)
        self.query_one(ScoreBoard).show(state)
        for table in self.query(OperativeTable):
            table.show(state)
        self.query_one(MarkerPanel).show(state)
