"""The ktlog terminal UI: an app factory that the CLI and the tests share."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from ktlog.errors import KtlogError
from ktlog.play.database import Store
from ktlog.tui.compat import show_control_characters

SCREENS = ("start", "new", "record", "replay")


class KtlogApp(App):
    """Record a match live at the table, replay a battle step by step."""

    TITLE = "ktlog"
    SUB_TITLE = "Kill Team match recorder"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self, store: Store, *, screen: str = "start", game_id: str | None = None, spectator: bool = False, samples: Store | None = None):
        super().__init__()
        self.store = store
        self.samples = samples
        """The demo database the start screen lists while `store` has no games (`ktlog` alone)."""
        self.first_screen = screen
        self.game_id = game_id
        self.spectator = spectator
        """Spectator replays hide secret choices (Approved Ops) until they are revealed."""
        self.typeahead: list[tuple[str, str | None]] = []
        """Keys typed while a step waits for its next dialog (see `screens.modal`)."""

    def take_typeahead(self) -> list[tuple[str, str | None]]:
        keys, self.typeahead = self.typeahead, []
        return keys

    def on_mount(self) -> None:
        from .screens.start import StartScreen

        self.push_screen(StartScreen(self.store, samples=self.samples))
        if self.first_screen == "new":
            self.open_new_game()
        elif self.first_screen == "record" and self.game_id:
            self.open_record(self.game_id)
        elif self.first_screen == "replay" and self.game_id:
            self.open_replay(self.game_id)

    # --- screens, opened the same way from the CLI and from the start screen --------------------

    def open_new_game(self) -> None:
        from .screens.new_game import NewGameScreen

        self.push_screen(NewGameScreen(self.store))

    def open_record(self, game_id: str, *, replace: bool = False) -> None:
        from .screens.record import RecordScreen

        self._open(lambda: RecordScreen(self.store, game_id), replace)

    def open_replay(self, game_id: str, store: Store | None = None) -> None:
        """The replay of a game of the database (or of `store`: the demo database's samples)."""
        from .screens.replay import ReplayScreen

        self._open(lambda: ReplayScreen(store or self.store, game_id, spectator=self.spectator), False)

    def open_league(self) -> None:
        from .screens.league import LeagueScreen

        self.push_screen(LeagueScreen(self.store))

    def _open(self, make, replace: bool) -> None:
        try:
            screen = make()
        except KtlogError as exc:  # a game that cannot be opened: say so, stay where we are
            self.notify(str(exc), severity="error", timeout=8)
            return
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)


def make_app(store: Store, *, screen: str = "start", game_id: str | None = None, spectator: bool = False, samples: Store | None = None) -> KtlogApp:
    """The app on `store`, opening `screen` ("start", "new", "record" or "replay") first;
    `samples`: the demo database, listed by the start screen while `store` has no games."""
    if screen not in SCREENS:
        raise ValueError(f"screen {screen!r} is not one of {', '.join(SCREENS)}")
    if screen in ("record", "replay") and game_id is None:
        raise ValueError(f"the {screen} screen needs a game_id")
    show_control_characters()
    return KtlogApp(store, screen=screen, game_id=game_id, spectator=spectator, samples=samples)
