"""The new game screen: the game, its two players, their kill teams from roster files and the
operatives selected for this battle. Creating it records those events in one transaction and
goes on to the set-up screen."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.widgets import Button, Header, Input, Label, Select, SelectionList, Static

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.reducer import fold
from ktlog.rosters import Roster, game_id_for, load_roster
from ktlog.rules import RULESETS
from ktlog.simulate import ROSTERS
from ktlog.store import Store

from ..widgets.key_footer import KeyFooter

KILLZONES = ["volkus", "gallowdark", "bheta-decima"]
LABELS = ("league", "round", "table", "mission")


def sample_rosters(folder: Path = ROSTERS) -> dict[str, Roster]:
    """The sample rosters, by path, offered by default (the NPO datacards are for Joint Ops)."""
    rosters = {}
    for path in sorted(folder.glob("*.toml")):
        if path.stem != "npo":
            rosters[str(path)] = load_roster(path)
    return rosters


class PlayerForm(Vertical):
    """One player: name, kill team (a sample roster or a file), the operatives selected."""

    DEFAULT_CSS = """
    PlayerForm { height: auto; border: round $primary-darken-2; padding: 0 1; margin-bottom: 1; }
    PlayerForm Horizontal { height: 1; margin-bottom: 1; }
    PlayerForm Input, PlayerForm Select { width: 1fr; height: 1; }
    PlayerForm Horizontal > Label { width: auto; padding: 0 1 0 0; }
    PlayerForm SelectionList { height: auto; max-height: 8; }
    PlayerForm .error { color: $error; height: auto; }
    """

    def __init__(self, number: int, name: str, samples: dict[str, Roster], default: str):
        super().__init__(id=f"player-{number}")
        self.border_title = f"Player {number}"
        self.number, self.default_name, self.samples, self.default = number, name, samples, default
        self.roster: Roster | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Label("Name")
            yield Input(self.default_name, placeholder="name", compact=True, id=f"name-{self.number}")
            yield Label(" Kill team")
            yield Select([(r.name, path) for path, r in self.samples.items()], value=self.default, allow_blank=False, compact=True, id=f"team-{self.number}")
        with Horizontal():
            yield Label("or a roster file")
            yield Input(placeholder="path of a roster file (TOML), then Enter", compact=True, id=f"file-{self.number}")
        yield Label("", classes="error", id=f"error-{self.number}")
        yield SelectionList(id=f"ops-{self.number}")

    def on_mount(self) -> None:
        self.use(self.samples[self.default])

    def use(self, roster: Roster) -> None:
        self.roster = roster
        ops = self.query_one(SelectionList)
        ops.clear_options()
        ops.add_options([(f"{o.id} · {o.datacard.name}", o.id, True) for o in roster.operatives])
        ops.border_title = f"{roster.name}: the operatives selected (Space toggles)"
        self.error("")

    def error(self, text: str) -> None:
        label = self.query_one(".error", Label)
        label.update(text)
        label.display = bool(text)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.value in self.samples:
            self.query_one(f"#file-{self.number}", Input).value = ""
            self.use(self.samples[event.value])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == f"file-{self.number}" and event.value.strip():
            event.stop()
            self.load_file(event.value.strip())

    def load_file(self, path: str) -> bool:
        try:
            self.use(load_roster(Path(path).expanduser()))
        except KtlogError as exc:
            self.roster = None
            self.query_one(SelectionList).clear_options()
            self.error(f"{exc}. Fix the file and press Enter in the path again, or pick a sample kill team")
            return False
        return True

    def events(self, taken: set[str]) -> list[ev.Event]:
        """This player's PlayerJoined and OperativeAdded events."""
        name = self.query_one(f"#name-{self.number}", Input).value.strip()
        path = self.query_one(f"#file-{self.number}", Input).value.strip()
        if path and (self.roster is None or self.roster.path != str(Path(path).expanduser())) and not self.load_file(path):
            raise KtlogError(f"player {self.number}: the roster file has an error (shown above)")
        if self.roster is None:
            raise KtlogError(f"player {self.number}: choose a kill team")
        selected = self.query_one(SelectionList).selected
        if not selected:
            raise KtlogError(f"player {self.number}: select at least one operative")
        roster = self.roster
        out: list[ev.Event] = [ev.PlayerJoined(player=name, kill_team=roster.name, faction=roster.faction, archetypes=roster.archetypes)]
        for op in roster.select(list(selected)):
            op_id = game_id_for(op.id, name, taken)
            taken.add(op_id)
            out.append(ev.OperativeAdded(player=name, operative=op_id, datacard=op.datacard))
        return out


class NewGameScreen(Screen):
    DEFAULT_CSS = """
    NewGameScreen VerticalScroll { padding: 0 1; }
    NewGameScreen .row { height: auto; margin-bottom: 1; }
    NewGameScreen .row > Input, NewGameScreen .row > Select { width: 1fr; height: 1; }
    NewGameScreen #ruleset { width: 2fr; }
    NewGameScreen .row > Label { width: auto; padding: 0 1; }
    NewGameScreen #problem { color: $error; height: auto; }
    NewGameScreen #create { margin: 0 0 1 0; }
    """
    BINDINGS = [Binding("ctrl+s", "create", "Create game"), Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, store: Store):
        super().__init__()
        self.store = store
        self.samples = sample_rosters()

    def compose(self) -> ComposeResult:
        yield Header()
        paths = list(self.samples)
        with VerticalScroll():
            yield Static("[b]New game[/]: the players and their kill teams; the set-up comes next. Tab moves between fields.", classes="row")
            with Horizontal(classes="row"):
                yield Label("Date")
                yield Input(dt.date.today().isoformat(), placeholder="YYYY-MM-DD", compact=True, id="date")
                yield Label("Killzone")
                yield Input("volkus", placeholder="killzone", suggester=SuggestFromList(KILLZONES), compact=True, id="killzone")
                yield Label("Ruleset")
                yield Select([(r.title, name) for name, r in RULESETS.items()], value="kt24-preliminary", allow_blank=False, compact=True, id="ruleset")
            with Horizontal(classes="row"):
                for label in LABELS:
                    yield Label(label.title())
                    yield Input(placeholder="optional", compact=True, id=label)
            yield PlayerForm(1, "Alice", self.samples, paths[0])
            yield PlayerForm(2, "Bob", self.samples, paths[min(1, len(paths) - 1)])
            yield Label("", id="problem")
            yield Button("Create game (ctrl+s)", variant="primary", id="create")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_create()

    def value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value.strip()

    def action_create(self) -> None:
        problem = self.query_one("#problem", Label)
        try:
            created = ev.GameCreated(
                ruleset=self.query_one("#ruleset", Select).value, killzone=self.value("killzone"), date=self.value("date"),
                **{label: self.value(label) or None for label in LABELS},
            )
            taken: set[str] = set()
            players = [e for form in self.query(PlayerForm) for e in form.events(taken)]
            fold([created, *players])  # the rules check every field before anything is stored
            game_id = self.store.new_game(created, players)
        except KtlogError as exc:
            problem.update(f"Not created: {exc}")
            return
        from .set_up import SetUpScreen

        self.app.switch_screen(SetUpScreen(self.store, game_id))
