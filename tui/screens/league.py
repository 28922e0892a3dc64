"""The league view: every game and its result, by league, season and round (the standings and
charts are `ktlog stats`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, Static

from ktlog.store import Store

from ..widgets.game_table import GameTable
from ..widgets.key_footer import KeyFooter


class LeagueTable(GameTable):
    COLUMNS = (("league", "league"), ("round", "round"), ("table", "table"), *GameTable.COLUMNS)


class LeagueScreen(Screen):
    DEFAULT_CSS = """
    LeagueScreen LeagueTable { height: 1fr; }
    LeagueScreen #summary { height: auto; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("enter", "replay", "Replay")]

    def __init__(self, store: Store):
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="summary")
        yield LeagueTable()
        yield KeyFooter()

    def on_mount(self) -> None:
        games = sorted(self.store.games(), key=lambda g: (g.labels.get("league", ""), g.labels.get("season", ""), g.labels.get("round", ""), g.date))
        self.query_one(LeagueTable).show(games)
        self.query_one(LeagueTable).focus()
        leagues = sorted({g.labels.get("league", "no league") for g in games})
        finished = sum(g.status == "finished" for g in games)
        self.query_one("#summary", Static).update(
            f"[b]League view[/]: {len(games)} games ({finished} finished) in {len(leagues)} league(s): {', '.join(leagues) or 'none'}. "
            "The standings: `ktlog stats standings`."
        )

    def action_replay(self) -> None:
        game_id = self.query_one(LeagueTable).selected_game
        if game_id is not None:
            self.app.open_replay(game_id)

    def on_data_table_row_selected(self, event) -> None:
        self.action_replay()
