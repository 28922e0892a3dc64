"""The start screen: recent games (resume an unfinished one, replay a finished one), a new game,
the league view."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ktlog.storage.store import Store

from ..widgets.game_table import GameTable
from ..widgets.key_footer import KeyFooter

RECENT = 100
"""The newest games listed: a table of thousands takes seconds to lay out."""


class StartScreen(Screen):
    DEFAULT_CSS = """
    StartScreen GameTable { height: 1fr; }
    StartScreen #hint { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("enter", "open", "Resume / replay"),
        Binding("r", "replay", "Replay"),
        Binding("l", "league", "League"),
        Binding("q", "app.quit", "Quit", show=False),  # the footer shows ^q Quit, the app's
    ]

    def __init__(self, store: Store):
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="hint")
        yield GameTable()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        self.load()

    def load(self) -> None:
        table = self.query_one(GameTable)
        table.show(self.store.games(newest=RECENT))
        table.focus()
        total, unfinished = self.store.count_games()  # not every game read: a league holds thousands
        self.query_one("#hint", Static).update(
            f"{total} games in {self.store.path or 'memory'}"
            + (f", {unfinished} unfinished" if unfinished else "")
            + (f" (the newest {RECENT} listed; l for the league view)" if total > RECENT else "")
            + ". Enter resumes an unfinished game or replays a finished one; n starts a new game."
            if total
            else "No games yet: press n to set up a new game."
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        game_id = self.query_one(GameTable).selected_game
        if game_id is None:
            return
        if self.store.game(game_id).status == "finished":
            self.app.open_replay(game_id)
        else:
            self.app.open_record(game_id)

    def action_replay(self) -> None:
        game_id = self.query_one(GameTable).selected_game
        if game_id is not None:
            self.app.open_replay(game_id)

    def action_new_game(self) -> None:
        self.app.open_new_game()

    def action_league(self) -> None:
        self.app.open_league()
