"""The new game screen: the game, its ruleset and players, their kill teams from roster files
and the operatives selected for this battle. The ruleset says what else it asks for (`Ruleset`:
players, datacards, labels, missions, npos): Multiplayer Ops takes three or four players, Joint
Ops one players' side and the NPOs (its mission names their Wounds budget), KT21 a dataslate and
KT21 datacards. Creating it records those events in one transaction and goes on to the set-up."""

from __future__ import annotations

import datetime as dt
from typing import cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.suggester import SuggestFromList
from textual.widgets import Button, Header, Input, Label, Select, Static

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.play.creation import check_killzone, opening_events, unapplied_rules
from ktlog.play.database import Store
from ktlog.rules.ruleset import Ruleset
from ktlog.rulesets import RULESETS
from ktlog.tui.typed_app import InKtlogApp

from ..markup import escape
from ..widgets.key_footer import KeyFooter
from ..widgets.text_field import TextField
from .player_form import NpoForm, PlayerForm, sample_rosters

KILLZONES = sorted({k for r in RULESETS.values() for k in r.killzones})
"""Every ruleset's killzones, suggested for a ruleset that names none (the ruleset's own are checked on create)."""
LABELS = ("league", "round", "table", "mission")
NAMES = ("Alice", "Bob", "Carol", "Dave")
MISSIONS = [m for r in RULESETS.values() for m in r.missions]
FIRST = next(iter(RULESETS))
"""The ruleset the form starts with: the first offered."""
EXTRA_LABELS = {label: hint for r in RULESETS.values() for label, hint in r.label_hints.items()}
"""The labels a ruleset may ask for besides LABELS (`Ruleset.labels`), with the hint shown in the empty field."""


class NewGameScreen(InKtlogApp, Screen):
    DEFAULT_CSS = """
    NewGameScreen VerticalScroll { padding: 0 1; }
    NewGameScreen .row { height: auto; margin-bottom: 1; }
    NewGameScreen .row > Input, NewGameScreen .row > Select { width: 1fr; height: 1; }
    NewGameScreen #ruleset { width: 2fr; }
    NewGameScreen .row > Label { width: auto; padding: 0 1; }
    NewGameScreen #problem { color: $error; height: auto; width: 1fr; }
    NewGameScreen #create { margin: 0 0 1 0; }
    NewGameScreen #sides { height: auto; padding: 0 1; background: $boost; }
    """
    BINDINGS = [Binding("ctrl+s", "create", "Create game"), Binding("escape", "app.pop_screen", "Back")]
    AUTO_FOCUS = "#name-1"
    """The first player's name: typing goes somewhere at once (the date and killzone have defaults)."""

    def __init__(self, store: Store):
        super().__init__()
        self.store = store
        self.samples = sample_rosters()

    def compose(self) -> ComposeResult:
        yield Header()
        samples = self.offered(FIRST)
        paths = list(samples)
        with VerticalScroll():
            yield Static("[b]New game[/]: the players and their kill teams; the set-up comes next. Tab moves between fields.", classes="row")
            with Horizontal(classes="row"):
                yield Label("Date")
                yield TextField(dt.date.today().isoformat(), placeholder="YYYY-MM-DD", compact=True, id="date")
                yield Label("Killzone")
                yield TextField(RULESETS[FIRST].killzones[0] if RULESETS[FIRST].killzones else "", placeholder="killzone", compact=True, id="killzone")
                yield Label("Ruleset")
                yield Select([(r.title, name) for name, r in RULESETS.items()], value=FIRST, allow_blank=False, compact=True, id="ruleset")
            with Horizontal(classes="row"):
                for label in LABELS:
                    yield Label(label.title())
                    yield TextField(placeholder="optional", suggester=SuggestFromList(MISSIONS) if label == "mission" else None, compact=True, id=label)
            with Horizontal(classes="row", id="options"):
                yield Label("Players", id="player-count-label")
                yield Select([], allow_blank=True, compact=True, id="player-count")
                for label, hint in EXTRA_LABELS.items():
                    yield Label(label.title(), id=f"{label}-label")
                    yield TextField(placeholder=hint, compact=True, id=label)
            for i in range(2):
                yield PlayerForm(i + 1, NAMES[i], samples, paths[i])
            yield Label("", id="problem")
            yield Button("Create game (ctrl+s)", variant="primary", id="create")
        yield Static(id="sides")
        yield KeyFooter()

    async def on_mount(self) -> None:
        await self.fit()

    # --- what the ruleset asks for --------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return RULESETS[self.query_one("#ruleset", Select).value]

    def offered(self, name: str) -> dict:
        """The sample kill teams with the ruleset's datacards (KT21 ones for KT21)."""
        return {p: r for p, r in self.samples.items() if r.datacards == RULESETS[name].datacards}

    def players(self) -> list[PlayerForm]:
        """The player forms the ruleset takes (Joint Ops: one players' side)."""
        return list(self.query(PlayerForm))[: self.player_count()]

    def player_count(self) -> int:
        low, high = self.ruleset.players
        if self.ruleset.npos:
            return low - 1
        return cast(int, self.query_one("#player-count", Select).value) if high > 2 else low  # allow_blank=False

    async def fit(self) -> None:
        """Show the fields and forms of the chosen ruleset (mounting those it is the first to need)."""
        ruleset = self.ruleset
        many, npos = ruleset.players[1] > 2 and not ruleset.npos, ruleset.npos
        if many:
            count = self.query_one("#player-count", Select)
            low, high = ruleset.players
            if not isinstance(count.value, int) or not low <= count.value <= high:
                count.set_options([(str(n), n) for n in range(low, high + 1)])
                count.value = low
        for field, shown in (("player-count", many), *((label, label in ruleset.labels) for label in EXTRA_LABELS)):
            self.query_one(f"#{field}").display = self.query_one(f"#{field}-label").display = shown
        self.query_one("#options").display = many or bool(ruleset.labels)
        forms = list(self.query(PlayerForm))
        samples = forms[0].samples
        more: list[PlayerForm | NpoForm] = [
            PlayerForm(i + 1, NAMES[i] if i < len(NAMES) else f"Player {i + 1}", samples, list(samples)[i % len(samples)])
            for i in range(len(forms), self.player_count())
        ]
        if npos and not self.query(NpoForm):
            more.append(NpoForm())
        if more:
            await self.query_one(VerticalScroll).mount_all(more, before="#problem")
        taking = self.players()
        for form in self.query(PlayerForm):
            form.display = form in taking
        taking[0].border_title = "The players' side (solo, or co-op as one player, pg 87)" if npos else "Player 1"
        for form in self.query(NpoForm):
            form.display = npos
        self.show_sides()
        killzone = self.query_one("#killzone", Input)
        if ruleset.killzones and " ".join(killzone.value.split()).lower() not in ruleset.killzones:
            killzone.value = ruleset.killzones[0]  # another edition's killzone
        killzone.suggester = SuggestFromList(ruleset.killzones or KILLZONES)
        mission = self.query_one("#mission", Input)
        missions = ruleset.missions
        mission.placeholder = f"{', '.join(missions[:-1])} or {missions[-1]}" if missions else "optional"
        if missions and not mission.value:
            mission.value = missions[0]
        self.tally()

    def show_sides(self) -> None:
        """The line under the form naming every side and where it is: the second player's form
        starts far below the first's at 80x24, which nothing else on the first screen shows."""
        sides = [f"{form.border_title} {form.player or '?'} ({form.roster.name if form.roster else 'no kill team'})" for form in self.players()]
        sides += [f"the NPOs ({form.roster.name if form.roster else 'no roster'})" for form in self.query(NpoForm) if form.display]
        self.query_one("#sides", Static).update(
            escape(" · ".join(sides)) + ": one form under another (Tab moves field to field, PgDn scrolls); ctrl+s creates the game"
        )

    def offer_kill_teams(self) -> None:
        samples = self.offered(self.ruleset.name)
        if set(samples) != set(self.query(PlayerForm).first().samples):
            for i, form in enumerate(self.query(PlayerForm)):
                form.offer(samples, list(samples)[i % len(samples)])

    def tally(self) -> None:
        for form in self.query(NpoForm):
            form.tally(self.ruleset.npo_budget(self.value("mission")))

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "ruleset":
            self.offer_kill_teams()
        if event.select.id in ("ruleset", "player-count"):
            await self.fit()
        elif str(event.select.id).startswith("team-"):
            self.call_after_refresh(self.show_sides)  # once the form has taken the kill team

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("mission", "ops-npo"):
            self.tally()
        if str(event.input.id).startswith("name-"):
            self.show_sides()

    # --- creating -------------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_create()

    def value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value.strip()

    def action_create(self) -> None:
        problem = self.query_one("#problem", Label)
        ruleset = self.ruleset
        try:
            created = ev.GameCreated(
                ruleset=ruleset.name,
                killzone=check_killzone(ruleset.name, self.value("killzone")),
                date=self.value("date"),
                **{label: self.value(label) or None for label in (*LABELS, *ruleset.labels)},  # type: ignore[arg-type]  # the label fields, str | None
            )
            forms = self.players() + ([self.query_one(NpoForm)] if ruleset.npos else [])
            players = opening_events(created, [form.side() for form in forms])[1:]
            game_id = self.store.new_game(created, players)  # the rules check every event; a refusal stores nothing
        except KtlogError as exc:
            problem.update(f"Not created: {escape(str(exc))}")
            self.app.bell()
            self.call_after_refresh(problem.scroll_visible, animate=False)  # below the fold at 80x24
            return
        reported = [
            *(f"warning: {w}" for form in forms if form.roster for w in form.roster.warnings),
            *(f"not applied: {text}" for text in unapplied_rules(players, created.ruleset)),
        ]
        if reported:
            self.app.notify("\n".join(reported), title="Roster rules", severity="warning", timeout=20, markup=False)
        from .set_up import SetUpScreen

        if SetUpScreen.covers(ruleset):
            self.app.switch_screen(SetUpScreen(self.store, game_id))
        else:  # the set-up step by step on the record screen
            self.app.open_record(game_id, replace=True)
