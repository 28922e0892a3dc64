"""The seats of a game: a link (and its QR code) for each player to record their side from their
own phone through `ktlog serve --seats`, as `ktlog seat GAME PLAYER` prints it; and ending a link.

A new link ends the seat's earlier one (the database keeps only a hash of each token, so an
earlier link cannot be shown again): the screen makes one only when asked.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from ktlog.errors import KtlogError
from ktlog.play import seats
from ktlog.play.database import Store
from ktlog.text.qr import qr_text

from ..markup import escape
from ..widgets.key_footer import KeyFooter
from ..widgets.text_field import TextField


class SeatsScreen(Screen):
    DEFAULT_CSS = """
    SeatsScreen VerticalScroll { padding: 0 1; }
    SeatsScreen .row { height: auto; }
    SeatsScreen .row Label { padding: 0 1 0 0; }
    SeatsScreen #base { width: 1fr; }
    SeatsScreen Button { margin: 0 1 0 0; min-width: 12; }
    SeatsScreen #link { height: auto; }
    SeatsScreen #qr { height: auto; width: auto; background: black; color: white; }  /* the half blocks draw the light modules */
    """
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, store: Store, game_id: str):
        super().__init__()
        self.store, self.game_id = store, game_id
        self.players = list(store.game(game_id).players)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                f"[b]Seats of game {self.game_id[:8]}[/]: each player records their side from their own phone. "
                "Start [b]ktlog serve --seats --host 0.0.0.0[/] and give the address it prints below. "
                "A link is the key: whoever holds it records as that player; a new one ends the old."
            )
            with Horizontal(classes="row"):
                yield Label("Server address")
                yield TextField(seats.DEFAULT_BASE, compact=True, id="base")
            for i, player in enumerate(self.players):
                with Horizontal(classes="row"):
                    yield Button(f"New link for {escape(player)}", id=f"issue-{i}", compact=True)
                    yield Button("End link", id=f"revoke-{i}", compact=True, variant="error")
            yield Static(id="link")
            yield Static(id="qr", markup=False)
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        action, _, index = (event.button.id or "").partition("-")
        player = self.players[int(index)]
        try:
            if action == "issue":
                self.issue(player)
            else:
                seats.revoke(self.store, self.game_id, player)
                self.show(f"[b]{escape(player)}[/]'s link ended: it records nothing more.", qr="")
        except KtlogError as exc:
            self.show(f"[bold red]{escape(str(exc))}[/]", qr="")

    def issue(self, player: str) -> None:
        base = self.query_one("#base", TextField).value.strip()
        if not base.startswith(("http://", "https://")):
            self.show("[bold red]The server address starts with http:// or https:// (as `ktlog serve` prints it)[/]", qr="")
            return
        url = seats.link(base, self.game_id, seats.issue(self.store, self.game_id, player))
        self.show(f"[b]{escape(player)}[/]'s seat (give it to {escape(player)} only; their earlier link is ended):\n{escape(url)}", qr=qr_text(url))

    def show(self, text: str, qr: str) -> None:
        self.query_one("#link", Static).update(text)
        self.query_one("#qr", Static).update(qr.rstrip("\n"))
        if qr:
            self.query_one("#qr").scroll_visible()
