"""The state of a game at one moment: header, score, each side's operatives, objective markers.

The record screen and the replay screen show the same panel; it only reads the state. Two
players' tables stand side by side; three or four players' (Multiplayer Ops) in a grid of two
columns.
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
    StatePanel > Horizontal.-grid { layout: grid; grid-size: 2; }
    """

    def __init__(self, players: int = 2, *, spectator: bool = False, **kwargs):
        """A table for each of `players`; a spectator sees secret choices only once revealed."""
        super().__init__(**kwargs)
        self.players, self.spectator = max(2, players), spectator

    def compose(self) -> ComposeResult:
        yield GameHeader()
        yield ScoreBoard(spectator=self.spectator)
        with Horizontal(classes="-grid" if self.players > 2 else ""):
            for i in range(self.players):
                yield OperativeTable(i, id=f"side-{i}")
        yield MarkerPanel()

    def show(self, state: GameState) -> None:
        self.query_one(GameHeader).show(state)
        self.query_one(ScoreBoard).show(state)
        for table in self.query(OperativeTable):
            table.show(state)
        self.query_one(MarkerPanel).show(state)
