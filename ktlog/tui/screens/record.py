"""The record screen: the live game, an action bar of the legal next steps, the event log.

Each step is one key (shown in the action bar; a click works too; the footer has the others); a step that
needs more (an operative, a target, dice) asks for it in a small dialog whose choices are keys
as well. Every entered event is committed at once through the `Recorder` (the recording session).
"""

from __future__ import annotations

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical

from ktlog import events as ev
from ktlog.errors import RuleViolation
from ktlog.play.database import Store
from ktlog.rules.questions import Kind
from ktlog.text.describe import describe
from ktlog.tui.typed_app import InKtlogApp

from .. import flows
from ..markup import escape
from ..recorder import Outcome, Recorder
from ..steps import KINDS
from ..widgets.action_bar import ActionBar
from ..widgets.event_log import EventLog
from ..widgets.key_footer import KeyFooter
from ..widgets.state_panel import StatePanel
from ..widgets.text_line import TextBlock
from .modal import DialogHost
from .pick import Choice, PickScreen
from .prompt import TextPrompt

FOLLOW_S = 0.25
"""How often the record screen looks for events the seats recorded (one indexed read)."""
OTHER_FLOWS = {"n": "note", ".": "more", "!": "override", "U": "set_up_all", "j": "jump"}
"""Keys of the flows that are not kinds of event (ktlog.tui.flows)."""


class RecordScreen(InKtlogApp, DialogHost):
    CSS_PATH = ["dialogs.tcss", "record.tcss"]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Under 30 lines (80x24) the log and the message give their room to the operatives."""
    BINDINGS = [
        *(Binding(k.key, f"step('{k.name}')", k.label, show=False) for k in KINDS if not k.more),  # shown in the action bar
        Binding("U", "set_up_all", "Set up all"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("n", "note", "Note"),
        Binding("full_stop", "more", "More"),
        Binding("exclamation_mark", "override", "Override"),
        Binding("ctrl+r", "retry", "Retry"),
        Binding("j", "jump", "Jump to event"),
        Binding("up", "log(-1)", "Earlier event", show=False),
        Binding("down", "log(1)", "Later event", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, store: Store, game_id: str):
        super().__init__()
        self.store = store
        self.recorder = Recorder(store, game_id)
        self.busy = False
        """A step is under way (between its dialogs)."""
        self.refused_kind: Kind | None = None
        """A step the rules refused (for a reason an override may set aside) that still asks its
        questions: ! enters it anyway (`flows.editing.override`)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            with Vertical(id="left"):
                yield StatePanel(len(self.recorder.state.players))
                yield ActionBar()
                yield TextBlock(id="message")
            yield EventLog()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(EventLog).load(self.recorder.session.timeline)
        self.query_one(EventLog).show_seq(self.recorder.seq)
        self.refresh_view()
        self.say("Keys for the legal next steps are in the bar above the log; Esc goes back", ok=None)
        self.set_interval(FOLLOW_S, self.follow_game)

    def follow_game(self) -> None:
        """Show what the players' seats (or another terminal) recorded meanwhile, as the web
        pages do, between steps (a step under way meets it when it records: the conflict says so)."""
        if self.busy or self.dialogs:
            return
        news = self.recorder.session.follow()
        if news:
            self.refresh_view()
            latest = news[-1]
            by = f" ({latest.payload.seat}'s seat)" if latest.payload.seat else ""
            self.say(f"seq {latest.seq}: {describe(latest.payload, spectator=latest.payload.secret)}{by}", ok=None)

    # --- showing ----------------------------------------------------------------------------

    @property
    def steps(self):
        return self.recorder.steps

    def refresh_view(self) -> None:
        state = self.recorder.state
        self.query_one(StatePanel).show(state)
        self.query_one(ActionBar).show(self.steps.available())
        log = self.query_one(EventLog)
        if log.last_seq < state.seq:
            log.extend(self.recorder.session.timeline.envelopes[log.last_seq :])
        self.refresh_bindings()

    def say(self, text: str, ok: bool | None = True) -> None:
        style = {True: "green", False: "bold red", None: "dim"}[ok]
        self.query_one("#message", TextBlock).set(f"[{style}]{escape(text)}[/]")

    def show_outcome(self, outcome: Outcome) -> None:
        self.refused_kind = None
        self.say(outcome.message, outcome.ok)
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):  # a dialog is open: its keys only
            return False
        if self.busy and action in ("undo", "retry", "back"):
            return False
        if action == "step":
            return self.steps.legal(str(parameters[0]))
        if action == "set_up_all":
            return self.steps.legal("set_up")
        if action == "retry":
            return self.recorder.session.pending is not None
        if action == "override":
            return self.recorder.session.refused is not None or self.refused_kind is not None
        return True

    async def on_key(self, event: events.Key) -> None:
        """Steps start here rather than from their bindings (which show them in the footer and
        take clicks): a step marks the screen busy at once, so keys typed before its dialog is
        on screen are kept for the dialog (`screens.modal`) instead of being taken as steps."""
        if self.in_dialog(self.focused):  # a dialog's key: its bindings run next
            return
        if self.dialogs and self.dialogs[-1].opened:
            await self.dialogs[-1].feed(event.key, event.character)
        elif self.busy:
            self.app.typeahead.append((event.key, event.character))
        elif event.character in OTHER_FLOWS and self.check_action(OTHER_FLOWS[event.character], ()):
            self.start(OTHER_FLOWS[event.character])
        elif (kind := self.legal_kind(event.character)) is not None:
            self.action_step(kind.name)
        else:
            self.explain(event.character)
            return
        event.stop()
        event.prevent_default()

    def legal_kind(self, key: str | None) -> Kind | None:
        return next((k for k in KINDS if k.key == key and not k.more and self.steps.legal(k.name)), None)

    def explain(self, key: str | None) -> None:
        """A step key with no legal step now: say why, in the rules' words (only the steps of
        this moment when the key has one, so the reason that matters is not crowded out)."""
        if key == "!":
            self.say("Nothing to record anyway: ! follows a refused event (its key first, then ! and the reason)", ok=False)
            return
        kinds = [k for k in KINDS if k.key == key and not k.more and self.steps.part_of(k.name)]
        if not kinds:
            return
        timely = [k for k in kinds if self.steps.refusal(k.name) is not None]
        kinds = timely or kinds
        for kind in kinds:
            refused = self.steps.refused_event(kind.name)
            refusal = self.steps.refusal(kind.name)
            if refused is None or not isinstance(refusal, RuleViolation) or not refusal.overridable:
                continue
            if kind.exact:
                self.recorder.session.refused = refused
                self.say(self.steps.why_not(kind.name) + "; press ! to record it anyway with the reason", ok=False)
            else:  # its choices and dice are still to enter: ! asks the reason, then the step's questions
                self.refused_kind = kind
                self.say(self.steps.why_not(kind.name) + "; press ! to enter it anyway with the reason", ok=False)
            self.refresh_bindings()
            return
        self.say("; ".join(self.steps.why_not(k.name) for k in kinds), ok=False)

    # --- committing -------------------------------------------------------------------------

    def record(self, event: ev.Event | None) -> bool:
        if event is None:
            self.say("Cancelled; nothing recorded", ok=None)
            return False
        outcome = self.recorder.commit(event)
        self.show_outcome(outcome)
        return outcome.ok

    def action_undo(self) -> None:
        self.show_outcome(self.recorder.undo())

    def action_retry(self) -> None:
        self.show_outcome(self.recorder.retry())

    def action_override(self) -> None:
        self.start("override")

    def action_note(self) -> None:
        self.start("note")

    def action_more(self) -> None:
        self.start("more")

    def action_jump(self) -> None:
        self.start("jump")

    def action_log(self, n: int) -> None:
        """↑↓ select an event in the log (for a note or a correction) without Tab to it first."""
        self.query_one(EventLog).action_move(n)

    def action_set_up_all(self) -> None:
        self.start("set_up_all")

    def action_step(self, kind: str) -> None:
        self.start(kind)

    def start(self, flow: str) -> None:
        """Take one step (a kind of move, or another flow), asking what it needs; keys typed
        from now on go to its dialogs."""
        self.busy = True
        self.run_flow(flow)

    @work(exclusive=True, group="step")
    async def run_flow(self, flow: str) -> None:
        try:
            await flows.run(self, flow)
        except Exception as exc:  # a bug: say so on screen; every event entered is stored already  # noqa: BLE001
            self.say(f"Unexpected {type(exc).__name__}: {exc}. This is a bug in ktlog; the events entered are stored. Please report it", ok=False)
        finally:
            self.busy = False
            self.refresh_bindings()  # the keys a step turned off (undo, back) are in the footer of the step's last frame
            for key, character in self.app.take_typeahead():
                self.app.post_message(events.Key(key, character))

    def selected_event(self) -> int | None:
        """The event under the log's cursor; on the last row, the latest event that counts (not
        an undo); None at the game's creation."""
        log = self.query_one(EventLog)
        if log.selected_seq == log.last_seq:
            latest = self.recorder.session.latest()
            return latest[0] if latest else None
        return log.note_target()

    def action_back(self) -> None:
        self.app.pop_screen()

    # --- asking -----------------------------------------------------------------------------

    async def pick(self, title: str, choices: list[Choice], hint: str = ""):
        return await self.ask(PickScreen(title, choices, hint))

    async def prompt(self, title: str, default: str = "", hint: str = "") -> str | None:
        return await self.ask(TextPrompt(title, default, hint))

    async def pick_one(self, title: str, choices: list[Choice]):
        """The only choice without asking, else a pick."""
        if len(choices) == 1:
            return choices[0].value
        return await self.pick(title, choices)
