"""The league view: the standings and kill teams as `ktlog stats` computes them, the games of
the league, and the VP race of the game under the cursor; filtered by league, season, round
and ruleset.

The figures are computed with Polars in a worker thread, so the screen opens at once and
shows them as they come; a change of filter starts again, and a result that is no longer
wanted is dropped.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState, get_current_worker

from ktlog.analytics.league import Filters, League
from ktlog.play.database import GameRow, Store
from ktlog.text.results import game_result
from ktlog.tui.typed_app import InKtlogApp

from ..markup import escape
from ..widgets.game_table import GameTable
from ..widgets.key_footer import KeyFooter
from ..widgets.league_filters import LeagueFilters, describe
from ..widgets.league_tables import StandingsTable, TeamsTable
from ..widgets.race_curve import RaceCurve
from ..widgets.text_line import TextLine

GAMES_SHOWN = 100
"""The newest games listed; a round or another filter narrows a large league to its games."""


class LeagueTable(GameTable):
    """The games of the league, the result before the kill teams (whose names can be long)."""

    COLUMNS = (("league", "league"), ("round", "round"), ("table", "table"), *GameTable.COLUMNS)


class LeagueScreen(InKtlogApp, Screen):
    DEFAULT_CSS = """
    LeagueScreen #summary { height: auto; padding: 0 1; }
    LeagueScreen TabbedContent { height: 1fr; }
    LeagueScreen TabPane { padding: 0; }
    LeagueScreen LeagueTable { height: 1fr; min-height: 4; }
    LeagueScreen #race { height: 1; padding: 0 1; }
    LeagueScreen RaceCurve { height: 1fr; min-height: 8; max-height: 18; }
    """
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "tab('standings')", "Standings"),
        Binding("k", "tab('teams')", "Kill teams"),
        Binding("g", "tab('games')", "Games"),
        Binding("f", "filters", "Filters"),
    ]

    def __init__(self, store: Store):
        super().__init__()
        self.store = store
        self.filters = Filters()
        """The filters asked for last (the figures shown may still be those of the ones before)."""
        self.league: League | None = None
        """The league whose games are listed."""
        self.games: dict[str, GameRow] = {}
        """The games listed, by id (rows of the store's games table)."""
        self.shown: Filters | None = None
        """The filters whose figures are all on screen (None while the first read goes on)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield LeagueFilters()
        yield Static(id="summary")
        with TabbedContent(initial="standings"):
            with TabPane("Standings", id="standings"):
                yield StandingsTable()
            with TabPane("Kill teams", id="teams"):
                yield TeamsTable()
            with TabPane("Games", id="games"):
                with Vertical():
                    yield LeagueTable()
                    yield TextLine(id="race")
                    yield RaceCurve()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = "league"
        if self.store.path is None:
            self.say("The league view reads a database file, and this one is in memory.")
            return
        self.query_one(StandingsTable).focus()
        self.read(Filters(), offer_filters=True)

    # --- reading the league, off the UI thread ------------------------------------------------

    def read(self, filters: Filters, *, offer_filters: bool = False) -> None:
        self.filters = filters
        for table in self.query(DataTable):
            table.loading = True
        self.say("Reading the league...")
        assert self.store.path is not None, "the league reads a database file (not :memory:)"
        self.read_league(Path(self.store.path), filters, offer_filters)

    @work(thread=True, exclusive=True, group="league", exit_on_error=False)
    def read_league(self, db: Path, filters: Filters, offer_filters: bool) -> None:
        """The standings first, then the filters' choices, the games and the kill teams, each
        shown when ready."""
        from ktlog.analytics.integrity import shared_wins
        from ktlog.analytics.league import NothingToCompute, filter_choices
        from ktlog.analytics.performance import entity_stats
        from ktlog.analytics.standings import standings

        worker = get_current_worker()

        def post(show, *args) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(show, *args)

        league = League(db, filters)
        try:
            table = standings(league)
            post(self.show_standings, league, table, shared_wins(league))
            counted = True
        except NothingToCompute as exc:
            post(self.show_nothing, str(exc))
            counted = False
        if offer_filters:
            post(self.query_one(LeagueFilters).offer, filter_choices(db))
        newest = league.games.sort("date", "created_at", descending=True).get_column("game_id")
        post(self.show_games, league, newest.head(GAMES_SHOWN).to_list(), newest.len())
        if counted:
            post(self.show_teams, entity_stats(league, "kill_team"))
        post(setattr, self, "shown", filters)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            for table in self.query(DataTable):
                table.loading = False
            self.say(f"[red]The league could not be read: {escape(str(event.worker.error))}[/]")

    def on_league_filters_changed(self, message: LeagueFilters.Changed) -> None:
        if message.filters != self.filters:
            self.read(message.filters)

    # --- showing ------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.query_one("#summary", Static).update(text)

    def show_standings(self, league: League, table: pl.DataFrame, shared: list[str]) -> None:
        """The standings, and a summary line saying what they count: the games, those in
        progress, the samples left out, a shared win counted as a draw (`integrity.shared_wins`)."""
        standings = self.query_one(StandingsTable)
        standings.show(table)
        standings.loading = False
        waiting = league.in_progress.height
        note = f" ({waiting} in progress, not counted)" if waiting else ""
        also = [f"the {league.samples_left_out} sample games left out beside yours"] * bool(league.samples_left_out)
        also += [text.removeprefix("note: ") for text in shared]
        self.say(" · ".join([f"[b]{escape(describe(league.filters))}[/]", f"{league.games.height} games{note}", f"{table.height} players", *map(escape, also)]))

    def show_nothing(self, why: str) -> None:
        for table in (self.query_one(StandingsTable), self.query_one(TeamsTable)):
            table.clear()
            table.loading = False
        self.say(f"[yellow]{escape(why[0].upper() + why[1:])}.[/]")

    def show_teams(self, table: pl.DataFrame) -> None:
        teams = self.query_one(TeamsTable)
        teams.show(table)
        teams.loading = False

    def show_games(self, league: League, ids: list[str], total: int) -> None:
        self.league = league
        self.games = {game_id: self.store.game(game_id) for game_id in ids}
        table = self.query_one(LeagueTable)
        table.show(list(self.games.values()))
        table.loading = False
        pane = self.query_one(TabbedContent).get_tab("games")
        pane.label = f"Games ({total})" if total <= GAMES_SHOWN else f"Games (newest {GAMES_SHOWN} of {total})"
        if ids:  # the row under the cursor may not have moved, so no RowHighlighted comes
            self.show_game(self.games[table.selected_game])
        else:
            self.query_one("#race", TextLine).set("No game matches these filters.")
            self.query_one(RaceCurve).hide()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if isinstance(event.data_table, LeagueTable) and event.row_key.value in self.games:
            self.show_game(self.games[event.row_key.value])

    def show_game(self, g: GameRow) -> None:
        caption = self.query_one("#race", TextLine)
        if g.status != "finished":
            caption.set(f"[b]{g.id[:8]}[/] {escape(' v '.join(g.players))}: [yellow]{g.status}[/], not counted in the league; Enter opens its replay")
            self.query_one(RaceCurve).hide()
            return
        caption.set(f"[b]{g.id[:8]}[/] {escape(' v '.join(g.players))}: {escape(game_result(g.ruleset, g.result or {}))} · Enter: replay")
        self.read_race(self.league, g.id)

    @work(thread=True, exclusive=True, group="race", exit_on_error=False)
    def read_race(self, league: League, game_id: str) -> None:
        from ktlog.analytics.curves import game_race

        race, boundaries = game_race(league, game_id)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_race, game_id, race, boundaries)

    def show_race(self, game_id: str, race: pl.DataFrame, boundaries: pl.DataFrame) -> None:
        if self.query_one(LeagueTable).selected_game == game_id:
            self.query_one(RaceCurve).show_race(game_id, race, boundaries)

    # --- keys ---------------------------------------------------------------------------------

    def action_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        self.query_one(f"#{tab} DataTable").focus()

    def action_filters(self) -> None:
        self.query_one(LeagueFilters).query_one("Select").focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a game opens its replay."""
        if isinstance(event.data_table, LeagueTable) and event.row_key.value:
            self.app.open_replay(event.row_key.value)
