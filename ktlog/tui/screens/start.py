"""The start screen: recent games (resume an unfinished one, replay a finished one), a new game,
the league view."""

from __future__ import annotations

import textwrap

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from ktlog.play.database import Store
from ktlog.tui.typed_app import InKtlogApp

from ..widgets.game_table import GameTable
from ..widgets.key_footer import KeyFooter

RECENT = 100
"""The newest games listed: a table of thousands takes seconds to lay out."""
PLAYERS_WIDTH = 28
"""The players column: "Pia vs Quinn vs Rosa vs Sam", their kill teams wrapped under them."""


def team_lines(teams: list[str]) -> list[str]:
    """Kill teams joined by "vs" in lines of PLAYERS_WIDTH, a line broken between two teams."""
    lines: list[str] = []
    for team in teams:
        if lines and len(lines[-1]) + len(" vs ") + len(team) <= PLAYERS_WIDTH:
            lines[-1] += f" vs {team}"
        else:
            lines += textwrap.wrap(f"vs {team}" if lines else team, PLAYERS_WIDTH)
    return lines or [""]


class RecentGames(GameTable):
    """The newest games, each game's kill teams under its players: a row of two lines or more,
    so that the kill teams stay readable at 80 columns, where a column of their own is pushed
    off the right edge by the result (issue 16 #8)."""

    COLUMNS = (("date", "date"), ("players / kill teams", "players"), ("result", "result"), ("events", "events"), ("id", "id"))

    def cells(self, g) -> dict[str, object]:
        cells = super().cells(g)
        players = textwrap.wrap(str(cells["players"]), PLAYERS_WIDTH)
        cells["players"] = Text("\n".join(players)) + Text("\n" + "\n".join(team_lines(g.kill_teams)), style="dim")
        return cells

    def row_height(self, cells: dict[str, object]) -> int:
        return str(cells["players"]).count("\n") + 1


class StartScreen(InKtlogApp, Screen):
    DEFAULT_CSS = """
    StartScreen RecentGames { height: 1fr; }
    StartScreen #hint { height: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("enter", "open", "Resume / replay"),
        Binding("r", "replay", "Replay"),
        Binding("l", "league", "League"),
        Binding("q", "app.quit", "Quit", show=False),  # the footer shows ^q Quit, the app's
    ]

    def __init__(self, store: Store, samples: Store | None = None):
        super().__init__()
        self.store = store
        self.samples = samples
        """The demo database, listed while `store` has no games: its games are replayed, never resumed."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="hint")
        yield RecentGames()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        self.load()

    @property
    def showing_samples(self) -> bool:
        """Whether the table lists the demo database's sample games (the user has none of their own)."""
        return self.samples is not None and self.store.listing.count()[0] == 0

    def load(self) -> None:
        table = self.query_one(GameTable)
        table.focus()
        if self.showing_samples:
            assert self.samples is not None
            table.show(self.samples.games(newest=RECENT))
            self.sub_title = "SAMPLE GAMES (demo database)"
            self.query_one("#hint", Static).update(
                f"Sample games: {self.samples.listing.count()[0]} games from the demo database ({self.samples.path}), never part of your league. "
                f"Enter replays one; n starts your first game, in {self.store.path}."
            )
            return
        self.sub_title = None
        table.show(self.store.games(newest=RECENT))
        total, unfinished = self.store.listing.count()  # not every game read: a league holds thousands
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
        if self.showing_samples:
            self.app.open_replay(game_id, self.samples)
        elif self.store.game(game_id).status == "finished":
            self.app.open_replay(game_id)
        else:
            self.app.open_record(game_id)

    def action_replay(self) -> None:
        game_id = self.query_one(GameTable).selected_game
        if game_id is not None:
            self.app.open_replay(game_id, self.samples if self.showing_samples else None)

    def action_new_game(self) -> None:
        self.app.open_new_game()

    def action_league(self) -> None:
        self.app.open_league()
