"""The set-up of a new game on one form (pg 110, pg 81): the set-up roll-off and initiative,
objective markers, crit op (or roll it), drop zones, equipment, and the operatives set up in the
rulebook's order. Defaults make it quick; the record screen can do the same step by step, and
does it for the rulesets whose set-up is not this one (`SetUpScreen.covers`)."""

from __future__ import annotations

import random
from typing import cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Header, Input, Label, Select, Static

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.files.rosters import slug
from ktlog.play.database import Store
from ktlog.rules.ruleset import Ruleset
from ktlog.rulesets import get_ruleset
from ktlog.tui.typed_app import InKtlogApp

from ..markup import escape
from ..recorder import Recorder
from ..widgets.key_footer import KeyFooter
from ..widgets.text_field import TextField


class DieInput(TextField):
    """One player's D6 in the set-up roll-off. The screen moves on after one digit; a digit that
    reaches a field already holding one (typed before the focus moved) goes to the next die."""

    def __init__(self, player: str, index: int):
        super().__init__(placeholder=f"{player}'s die", max_length=1, restrict="[1-6]*", compact=True, id=f"roll-{index}")

    def insert_text_at_cursor(self, text: str) -> None:
        dice = list(self.screen.query(DieInput))
        later = dice[dice.index(self) + 1 :]
        if self.value and later:
            later[0].focus()
            later[0].insert_text_at_cursor(text)
        else:
            super().insert_text_at_cursor(text)


class SetUpScreen(InKtlogApp, Screen):
    DEFAULT_CSS = """
    SetUpScreen VerticalScroll { padding: 0 1; }
    SetUpScreen .row { height: auto; margin-bottom: 1; }
    SetUpScreen .row > Label { width: 22; }
    SetUpScreen .row > Input, SetUpScreen .row > Select { width: 1fr; height: 1; margin-right: 1; }
    SetUpScreen Button { margin-right: 2; }
    SetUpScreen #problem { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("ctrl+s", "start", "Start the battle"),
        Binding("ctrl+t", "step_by_step", "Set up step by step"),
        Binding("escape", "step_by_step", "Back"),
    ]

    @staticmethod
    def covers(ruleset: Ruleset) -> bool:
        """Whether the form fits the ruleset's set-up: two players, three markers and a crit op
        (Preliminary and Approved Ops; Approved Ops' tac ops and scouting follow on the record screen)."""
        return ruleset.players == (2, 2) and ruleset.objective_markers == 3 and bool(ruleset.crit_ops)

    def __init__(self, store: Store, game_id: str):
        super().__init__()
        self.store = store
        self.recorder = Recorder(store, game_id)
        self.players = list(self.recorder.state.players)
        self.crit_ops = get_ruleset(self.recorder.state.ruleset).crit_ops

    def compose(self) -> ComposeResult:
        first = self.players[0]
        yield Header()
        with VerticalScroll():
            yield Static("[b]Set-up[/] (pg 110): each field has a default; ctrl+s records it all and starts the battle.")
            with Horizontal(classes="row"):
                yield Label("Set-up roll-off (D6)")
                for i, p in enumerate(self.players):
                    yield DieInput(p, i)
            with Horizontal(classes="row"):
                yield Label("Initiative")
                yield Select([(p, p) for p in self.players], value=first, allow_blank=False, compact=True, id="initiative")
            with Horizontal(classes="row"):
                yield Label("Objective markers")
                for i in range(3):
                    yield TextField(compact=True, id=f"marker-{i}")
            with Horizontal(classes="row"):
                yield Label("Crit op")
                yield Select([(f"{name} (D3 {roll})", roll) for roll, name in self.crit_ops.items()], value=1, allow_blank=False, compact=True, id="crit-op")
                yield Button("Roll the D3", compact=True, id="roll-crit-op")
            with Horizontal(classes="row"):
                yield Label("Drop zones")
                for i, p in enumerate(self.players):
                    yield TextField(placeholder=f"{p}'s drop zone", compact=True, id=f"zone-{i}")
            with Horizontal(classes="row"):
                yield Label("Equipment")
                for i, p in enumerate(self.players):
                    yield TextField(placeholder=f"{p}: options, comma separated", compact=True, id=f"equipment-{i}")
            yield Checkbox("Set up every operative now, in the rulebook's order (alternating thirds)", value=True, id="all")
            yield Label("", id="problem")
            with Horizontal(classes="row"):
                yield Button("Start the battle (ctrl+s)", variant="primary", id="start")
                yield Button("Set up step by step (ctrl+t)", id="step-by-step")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = " vs ".join(self.players)
        self.defaults()
        self.query_one("#roll-0", Input).focus()

    # --- defaults follow the roll-off and initiative ----------------------------------------

    def initiative(self) -> tuple[str, str]:
        first = cast(str, self.query_one("#initiative", Select).value)  # allow_blank=False: always a player
        return first, next(p for p in self.players if p != first)

    def defaults(self) -> None:
        first, other = self.initiative()
        for i, name in enumerate(("centre", f"{slug(first)}-marker", f"{slug(other)}-marker")):
            self.query_one(f"#marker-{i}", Input).value = name
        for i, p in enumerate(self.players):
            self.query_one(f"#zone-{i}", Input).value = "A" if p == first else "B"

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id and event.input.id.startswith("roll-"):
            if event.value and event.input.has_focus:
                self.focus_next()  # one die each: on to the next field
            rolls = self.rolls()
            if rolls and len(set(rolls.values())) == 2:
                self.query_one("#initiative", Select).value = max(rolls, key=rolls.__getitem__)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "initiative":
            self.defaults()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll-crit-op":
            self.query_one("#crit-op", Select).value = random.randint(1, 3)
        elif event.button.id == "start":
            self.action_start()
        else:
            self.action_step_by_step()

    def rolls(self) -> dict[str, int] | None:
        values = [self.query_one(f"#roll-{i}", Input).value for i in range(len(self.players))]
        return {p: int(v) for p, v in zip(self.players, values)} if all(values) else None

    # --- recording ----------------------------------------------------------------------------

    def events(self) -> list[tuple[str, ev.Event]]:
        """The set-up events in the rulebook's order, each with the field it comes from."""
        first, other = self.initiative()
        rolls = self.rolls()
        if rolls is None:
            raise KtlogError("enter both players' set-up roll-off dice (1 to 6)")
        out: list[tuple[str, ev.Event]] = [("roll-off", ev.RolledOff(purpose="setup", rolls=rolls)), ("initiative", ev.InitiativeDecided(player=first))]
        for i, placer in enumerate((other, first, other)):
            out.append((f"objective marker {i + 1}", ev.ObjectiveMarkerSetUp(marker=self.query_one(f"#marker-{i}", Input).value.strip(), player=placer)))
        out.append(("crit op", ev.CritOpRolled(roll=cast(int, self.query_one("#crit-op", Select).value))))
        zones = {p: self.query_one(f"#zone-{i}", Input).value.strip() for i, p in enumerate(self.players)}
        out += [("drop zones", ev.DropZoneChosen(player=p, drop_zone=zones[p])) for p in (first, other)]
        for i, p in enumerate(self.players):
            text = self.query_one(f"#equipment-{i}", Input).value
            out.append((f"{p}'s equipment", ev.EquipmentSelected(player=p, equipment=tuple(x.strip() for x in text.split(",") if x.strip()))))
        return out

    def action_start(self) -> None:
        problem = self.query_one("#problem", Label)
        try:
            events = self.events()
        except KtlogError as exc:
            problem.update(str(exc))
            return
        roll_off = events[0][1]
        assert isinstance(roll_off, ev.RolledOff), "events() starts with the set-up roll-off"
        rolls = roll_off.rolls
        if len(set(rolls.values())) == 1:
            self.commit([events[0]])  # dice are facts: the tie is recorded, then a re-roll (pg 55)
            for i in range(len(self.players)):
                self.query_one(f"#roll-{i}", Input).value = ""
            self.query_one("#roll-0", Input).focus()
            problem.update(f"A tie ({rolls[self.players[0]]} each) is recorded: roll off again (pg 55)")
            return
        state = self.recorder.state
        for field, event in events:  # every field checked by the rules before anything is stored
            try:
                state = self.recorder.session.check([event], start=state)
            except KtlogError as exc:
                problem.update(f"{field}: {escape(str(exc))}")
                return
        if not self.commit(events):
            return
        if self.query_one("#all", Checkbox).value and self.recorder.steps.legal("set_up"):  # Approved Ops: tac ops first
            while self.recorder.steps.legal("set_up"):  # the first operative of the player due (pg 110)
                if not self.commit([("operative set-up", self.recorder.steps.options("set_up")[0])]):
                    return
        self.action_step_by_step()

    def commit(self, events: list[tuple[str, ev.Event]]) -> bool:
        for field, event in events:
            outcome = self.recorder.commit(event)
            if not outcome.ok:
                self.query_one("#problem", Label).update(f"{field}: {escape(outcome.message)}")
                return False
        return True

    def action_step_by_step(self) -> None:
        """On to the record screen, where the rest of the set-up is done step by step."""
        self.app.open_record(self.recorder.game_id, replace=True)
