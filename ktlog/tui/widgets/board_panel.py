"""The battle on its killzone as characters (issue 44, docs/the-board.md): the map of the board
at the moment the replay shows, each operative a letter, and the key naming them; drawn at the
panel's size whenever it is painted. Names reach the terminal as plain text, never as markup."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from ktlog.play.battle import BoardView
from ktlog.text.board_map import board_key, board_map


class BoardPanel(Widget):
    DEFAULT_CSS = "BoardPanel { width: 1fr; height: 1fr; }"

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: BoardView | None = None

    def show(self, view: BoardView | None) -> None:
        self.view = view
        self.refresh()

    def render(self) -> Text:
        width, height = self.content_size
        if self.view is None or width < 10 or height < 4:
            return Text("")
        key = board_key(self.view.operatives, width)
        lines = board_map(self.view.layout, self.view.operatives, width, max(3, height - len(key))) + key
        return Text("\n".join(lines), no_wrap=True, overflow="crop")
