"""The record screen: the live game, an action bar of the legal next steps, the event log.

Each step is one key (shown in the action bar; a click works too; the footer has the others); a step that
needs more (an operative, a target, dice) asks for it in a small dialog whose choices are keys
as well. Every entered event is committed at once through the `Recorder` (the recording session).
"""

from __future__ import annotations

import random
import re

import msgspec
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.files.gamefile import event_line
from ktlog.rules.candidates import active
from ktlog.rulesets import get_ruleset
from ktlog.state import OperativeState
from ktlog.storage.store import Store
from ktlog.text.describe import describe
from ktlog.text.event_text import parse_event

from ..markup import escape
from ..recorder import Outcome, Recorder
from ..steps import KIND, KINDS, StepKind
from ..widgets.action_bar import ActionBar
from ..widgets.event_log import EventLog
from ..widgets.key_footer import KeyFooter
from ..widgets.state_panel import StatePanel
from ..widgets.text_line import TextBlock
from .control import ControlDialog
from .dice_dialog import RollOffDialog
from .fight import FightDialog
from .modal import DialogHost
from .pick import Choice, PickScreen, Question, distinct, operative_choice, player_choice
from .prompt import TextPrompt
from .ruleset_flows import RulesetFlows
from .shoot import ShootDialog

FLOWS = {"n": "note", ".": "more", "!": "override", "U": "set_up_all", "j": "jump"}
"""Keys of the steps that are not kinds of event."""
AMOUNT_AND_TEXT = re.compile(r"^\s*([+-]?\d+)\s*(.*)$")


def as_recorded(event: ev.Event) -> str:
    """The event as `ktlog event` takes it, to be edited ("" if it cannot be written so)."""
    try:
        return event_line(event)
    except KtlogError:
        return ""


def name_and_cp(text: str) -> tuple[str, int | None]:
    """'Seize Ground, 2' -> ('Seize Ground', 2); without a CP, None: the roster's cost, else 1CP."""
    name, _, cp = text.rpartition(",")
    if name and cp.strip().isdigit():
        return name.strip(), int(cp)
    return text.strip(), None


class RecordScreen(RulesetFlows, DialogHost):
    DEFAULT_CSS = """
    RecordScreen #main { height: 1fr; }
    RecordScreen #left { height: 1fr; }
    RecordScreen EventLog { height: 7; }
    RecordScreen #message { height: auto; min-height: 2; max-height: 6; padding: 0 1; }
    RecordScreen.-wide #main { layout: horizontal; }
    RecordScreen.-wide #left { width: 1fr; }
    RecordScreen.-wide EventLog { width: 40%; height: 1fr; }
    RecordScreen.-short.-narrow EventLog { height: 5; }
    RecordScreen.-short #message { min-height: 1; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Under 30 lines (80x24) the log and the message give their room to the operatives."""
    BINDINGS = [
        *(Binding(k.key, f"step('{k.action}')", k.label, show=False) for k in KINDS if not k.more),  # shown in the action bar
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
            return self.recorder.session.refused is not None
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
        elif event.character in FLOWS and self.check_action(FLOWS[event.character], ()):
            self.start(getattr(self, f"flow_{FLOWS[event.character]}"))
        elif (kind := self.legal_kind(event.character)) is not None:
            self.action_step(kind.action)
        else:
            self.explain(event.character)
            return
        event.stop()
        event.prevent_default()

    def legal_kind(self, key: str | None) -> StepKind | None:
        return next((k for k in KINDS if k.key == key and not k.more and self.steps.legal(k.action)), None)

    def explain(self, key: str | None) -> None:
        """A step key with no legal step now: say why, in the rules' words (only the steps of
        this moment when the key has one, so the reason that matters is not crowded out)."""
        if key == "!":
            self.say("Nothing to record anyway: ! follows a refused event (its key first, then ! and the reason)", ok=False)
            return
        kinds = [k for k in KINDS if k.key == key and not k.more and self.steps.part_of(k.action)]
        if not kinds:
            return
        timely = [k for k in kinds if self.steps.refusal(k.action) is not None]
        kinds = timely or kinds
        for kind in kinds:
            refused = self.steps.refused_event(kind.action)
            if kind.exact and refused is not None:
                self.recorder.session.refused = refused
                self.refresh_bindings()
                self.say(self.steps.why_not(kind.action) + "; press ! to record it anyway with the reason", ok=False)
                return
        self.say("; ".join(self.steps.why_not(k.action) for k in kinds), ok=False)

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
        self.start(self.flow_override)

    def action_note(self) -> None:
        self.start(self.flow_note)

    def action_more(self) -> None:
        self.start(self.flow_more)

    def action_jump(self) -> None:
        self.start(self.flow_jump)

    def action_log(self, n: int) -> None:
        """↑↓ select an event in the log (for a note or a correction) without Tab to it first."""
        self.query_one(EventLog).action_move(n)

    def action_set_up_all(self) -> None:
        self.start(self.flow_set_up_all)

    def action_step(self, action: str) -> None:
        self.start(getattr(self, f"flow_{action}", None) or (lambda: self.pick_and_record(action)))

    def start(self, flow) -> None:
        """Take one step, asking what it needs; keys typed from now on go to its dialogs."""
        self.busy = True
        self.run_flow(flow)

    @work(exclusive=True, group="step")
    async def run_flow(self, flow) -> None:
        try:
            await flow()
        except Exception as exc:  # a bug: say so on screen; every event entered is stored already  # noqa: BLE001
            self.say(f"Unexpected {type(exc).__name__}: {exc}. This is a bug in ktlog; the events entered are stored. Please report it", ok=False)
        finally:
            self.busy = False
            self.refresh_bindings()  # the keys a step turned off (undo, back) are in the footer of the step's last frame
            for key, character in self.app.take_typeahead():
                self.app.post_message(events.Key(key, character))

    async def flow_override(self) -> None:
        refused = self.recorder.session.refused
        if refused is None:
            return
        reason = await self.prompt(f"Record anyway: {describe(refused)}", hint="the kill team rule that allows it (precedence, pg 55)")
        if reason is not None:
            self.show_outcome(self.recorder.override(reason))

    def selected_event(self) -> int | None:
        """The event under the log's cursor; on the last row, the latest event that counts (not
        an undo); None at the game's creation."""
        log = self.query_one(EventLog)
        if log.selected_seq == log.last_seq:
            latest = self.recorder.session.latest()
            return latest[0] if latest else None
        return log.note_target()

    async def flow_note(self) -> None:
        """A note on the event selected in the log (see `selected_event`)."""
        target = self.selected_event()
        if target is None:
            self.say("No event to annotate yet", ok=False)
            return
        text = await self.prompt(f"Note on seq {target}", hint="a comment kept with the event, shown in replays")
        if text is not None:
            self.show_outcome(self.recorder.annotate(target, text))

    async def flow_jump(self) -> None:
        """Select an event in the log by its seq (then n notes it, . c corrects it)."""
        log = self.query_one(EventLog)
        text = await self.prompt(f"Jump to event (seq 1 to {log.last_seq})", str(log.selected_seq or ""))
        if text is None:
            return
        if not text.strip().isdigit() or not 1 <= int(text) <= log.last_seq:
            self.say(f"{text!r} is not a seq: type a number from 1 to {log.last_seq}", ok=False)
            return
        log.show_seq(int(text), place=True)
        self.say(f"seq {int(text)} selected: n notes it, . then c corrects it", ok=None)

    async def flow_correct(self) -> None:
        """Correct the event selected in the log: the event it should have been, typed as
        `ktlog event` takes it; the later events are checked again (! keeps them anyway)."""
        target = self.selected_event()
        if target is None:
            self.say("No event to correct yet: select one in the log (Tab, then ↑↓)", ok=False)
            return
        wrong = self.recorder.session.timeline.event(target)
        hint = "edit the event as `ktlog event` takes it (e.g. a die of dice=6511); the later events are checked again"
        event = await self.typed_event(f"Correct seq {target}: {describe(wrong)}", hint, as_recorded(wrong))
        if event is not None:
            self.show_outcome(self.recorder.correct(target, event))

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

    async def pick_player(self, action: str, title: str) -> str | None:
        """The player of a step, among those it is legal for."""
        s = self.recorder.state
        return await self.pick_one(title, [player_choice(p, p, s) for p in distinct(e.player for e in self.steps.options(action))])

    # --- steps ------------------------------------------------------------------------------

    async def pick_and_record(self, action: str) -> None:
        """A step whose only question is which of its legal events."""
        options = self.steps.options(action)
        if not options:
            self.say(self.steps.why_not(action), ok=False)
            return
        event = await self.pick_one(KIND[action].label, [Choice(describe(e), e) for e in options])
        self.record(event)

    async def flow_start_tp(self) -> None:
        if not self.record(self.steps.options("start_tp")[0]):
            return
        if self.steps.legal("roll_off"):
            await self.flow_roll_off()
        elif self.steps.legal("initiative"):  # Approved Ops TP1: the scouting options decide (002 step 5)
            await self.flow_initiative()

    async def flow_roll_off(self) -> None:
        """The roll-off, each roll-off again its ties call for, then who decides initiative picks."""
        while True:
            event = await self.ask(RollOffDialog(self.steps.trial, self.steps.options("roll_off")[0]))
            if not self.record(event):
                return
            if self.recorder.state.decider is not None:
                return await self.flow_initiative()
            if not self.steps.legal("roll_off"):  # Multiplayer Ops: the player order is settled
                return

    async def flow_initiative(self) -> None:
        decider = self.recorder.state.decider
        options = sorted(self.steps.options("initiative"), key=lambda e: e.player != decider)
        choices = [player_choice(e.player, e, self.recorder.state) for e in options]
        self.record(await self.pick(f"{decider} gives initiative to", choices))

    async def flow_marker(self) -> None:
        probe = self.steps.options("marker")[0]
        name = await self.prompt(f"Objective marker {len(self.recorder.state.markers) + 1}, set up by {probe.player}: its name", probe.marker)
        self.record(msgspec.structs.replace(probe, marker=name.strip()) if name else None)

    async def flow_crit_op(self) -> None:
        crit_ops = get_ruleset(self.recorder.state.ruleset).crit_ops
        choices = [Choice(f"{name} (D3 roll {roll})", roll) for roll, name in crit_ops.items()]
        choices.append(Choice("roll the D3 for me", "roll", "r"))
        roll = await self.pick("Crit op: the initiative player's D3 (pg 84)", choices)
        if roll == "roll":
            roll = random.randint(1, 3)
        self.record(ev.CritOpRolled(roll=roll) if roll else None)

    async def flow_drop_zone(self) -> None:
        probe = self.steps.options("drop_zone")[0]
        zone = await self.prompt(f"Drop zone chosen by {probe.player}", probe.drop_zone)
        self.record(msgspec.structs.replace(probe, drop_zone=zone.strip()) if zone else None)

    async def flow_equipment(self) -> None:
        player = await self.pick_player("equipment", "Equipment of")
        if player is None:
            return self.record(None)
        options = ", ".join(e.name for e in self.recorder.state.players[player].equipment_options)
        text = await self.prompt(
            f"Equipment selected by {player}", hint="options separated by commas; empty: none" + (f" (the roster's: {options})" if options else "")
        )
        if text is not None:
            self.record(ev.EquipmentSelected(player=player, equipment=tuple(x.strip() for x in text.split(",") if x.strip())))

    async def flow_set_up(self) -> None:
        options = self.steps.options("set_up")
        player = self.recorder.state.operatives[options[0].operative].player
        ops = [self.recorder.state.operatives[e.operative] for e in options]
        self.record(await self.pick_one(f"{player} sets up", [operative_choice(o, ev.OperativeSetUp(operative=o.id), self.recorder.state) for o in ops]))

    async def flow_set_up_all(self) -> None:
        """Set up every remaining operative in the rulebook's order (alternating thirds)."""
        while self.steps.legal("set_up"):
            if not self.record(self.steps.options("set_up")[0]):
                return

    async def flow_gambit(self) -> None:
        player = self.steps.options("gambit")[0].player
        chosen = await self.ploy_used(player, "strategy", f"Strategic gambit used by {player}")
        if chosen is not None:
            self.record(ev.StrategicGambitUsed(player=player, gambit=chosen[0], cp=chosen[1]))

    async def flow_ploy(self) -> None:
        player = await self.pick_player("ploy", "Firefight ploy used by")
        if player is None:
            return
        chosen = await self.ploy_used(player, "firefight", f"Firefight ploy used by {player}", " (Command Re-roll: with the dice)")
        if chosen is None:
            return
        operative = await self.ploy_operative(player, chosen[0])
        if operative is not None:
            self.record(ev.FirefightPloyUsed(player=player, ploy=chosen[0], cp=chosen[1], operative=operative or None))

    async def ploy_used(self, player: str, kind: str, title: str, more: str = "") -> tuple[str, int | None] | None:
        """A ploy of the player's roster by name (its CP charged by the rules), or "other…": a
        name typed, with its CP after a comma (a name the roster does not list is recorded as
        free text, with a warning). None: cancelled."""
        ploys = [p for p in self.recorder.state.players[player].ploys if p.kind == kind]
        name: str | None = None
        if ploys:
            choices = [Choice(f"{p.name} ({p.cp}CP)" + (f" · {p.reminder}" if p.reminder else ""), p.name) for p in ploys]
            choices.append(Choice("other… (type its name)", "", "o"))
            name = await self.pick(title, choices)
            if name is None:
                return None
        if name:
            return name, None
        text = await self.prompt(title, hint="its name, then a comma and the CP if not 1" + more)
        return name_and_cp(text) if text else None

    async def ploy_operative(self, player: str, ploy: str) -> str | None:
        """The player's own operative a ploy is used on, asked during an activation ("" for none;
        None: cancelled). Out of an activation a ploy names no operative."""
        s = self.recorder.state
        if s.activation is None:
            return ""
        own = [op for op in s.operatives.values() if op.player == player and op.in_killzone]
        own.sort(key=lambda op: op.id != s.activation.operative)
        choices = [operative_choice(op, op.id, s) for op in own]
        choices.insert(1 if own and own[0].id == s.activation.operative else 0, Choice("no operative", "", "0"))
        return await self.pick(f"{ploy}: used on which of {player}'s operatives?", choices)

    async def flow_activate(self) -> None:
        """The operative, then its order, in one dialog (the only operative: its order at once)."""
        s = self.recorder.state
        ops = [s.operatives[e.operative] for e in self.steps.options("activate")]

        def order(answers: tuple) -> Question | None:
            if len(answers) > 1:
                return None
            op = answers[0]
            orders = sorted([Choice("Engage", "engage", "e"), Choice("Conceal", "conceal", "c")], key=lambda c: c.value != op.order)
            return Question(f"Order for {op.id}", orders, "e engage, c conceal (Enter keeps its order)")

        if len(ops) == 1:
            first = order((ops[0],))
            answer = await self.pick(first.title, first.choices, first.hint)
            answers = (ops[0], answer) if answer else None
        else:
            answers = await self.ask(PickScreen("Activate", [operative_choice(o, o, s) for o in ops], then=order))
        self.record(ev.OperativeActivated(operative=answers[0].id, order=answers[1]) if answers else None)

    async def flow_charge(self) -> None:
        """The enemy charged, each listed under its fixed key (its place in its kill team)."""
        s = self.recorder.state
        options = self.steps.options("charge")
        choices = [operative_choice(s.operatives[e.targets[0]], e, s) if len(e.targets) == 1 else Choice(describe(e), e) for e in options]
        self.record(await self.pick_one("Charge: which enemy?", choices))

    async def flow_control(self) -> None:
        self.record(await self.ask(ControlDialog(self.recorder.state)))

    async def flow_shoot(self) -> None:
        await self.shoot(active(self.recorder.state))

    async def shoot(self, op: OperativeState, action: str = "shoot") -> None:
        s = self.recorder.state
        targets = self.steps.shot_targets(op, action)
        target = await self.pick_one("Shoot at", [operative_choice(s.operatives[t], t, s) for t in targets])
        if target is None:
            return self.record(None)
        self.record(await self.ask(ShootDialog(self.steps, target, op, action)))

    async def flow_fight(self) -> None:
        s = self.recorder.state
        options = self.steps.options("fight")
        targets = distinct((e.action, e.target) for e in options)
        choices = [operative_choice(s.operatives[t], (a, t), s, "" if a == "Fight" else f" ({a})") for a, t in targets]
        chosen = await self.pick_one("Fight", choices)
        if chosen is None:
            return self.record(None)
        probes = [e for e in options if (e.action, e.target) == chosen]
        self.record(await self.ask(FightDialog(self.steps.trial, probes)))

    # --- the "more" menu --------------------------------------------------------------------

    async def flow_more(self) -> None:
        choices = [Choice(k.label, k.action, k.key) for k in self.steps.available(more=True)]
        choices.append(Choice("Type an event, as `ktlog event` takes it", "typed", "e"))
        choices.append(Choice("Correct the event selected in the log", "correct", "c"))
        action = await self.pick("More", choices)
        if action:
            await getattr(self, f"flow_{action}")()

    async def flow_typed(self) -> None:
        """Any event, typed in the CLI's syntax: a way to record what no step offers."""
        hint = 'TYPE FIELD=VALUE ..., e.g. TacOpScored player=Ana vp=2 reason="Flank"; override=REASON sets a rule aside'
        event = await self.typed_event("An event, as `ktlog event` takes it", hint)
        if event is not None:
            self.record(event)

    async def typed_event(self, title: str, hint: str, default: str = "") -> ev.Event | None:
        """An event typed in the CLI's syntax (`default`: an event's line to edit); None (and
        why, on screen) if cancelled or unreadable."""
        text = await self.ask(TextPrompt(title, default, hint, edit=bool(default)))
        if not text:
            self.say("Cancelled; nothing recorded", ok=None)
            return None
        try:
            return parse_event(text)
        except KtlogError as exc:
            self.say(f"Not recorded: {exc}", ok=False)
            return None

    async def _amount_for(self, action: str, title: str, hint: str, who: str = "operative"):
        """Pick the operative (or player) of a rare step, then its amount and reason."""
        s = self.recorder.state
        if who == "operative":
            subject = await self.pick_one(title, [operative_choice(s.operatives[e.operative], e.operative, s) for e in self.steps.options(action)])
        else:
            subject = await self.pick_player(action, title)
        if subject is None:
            return None, None, None
        text = await self.prompt(f"{title}: {subject}", hint=hint)
        match = AMOUNT_AND_TEXT.match(text or "")
        if match is None:
            self.say("Nothing recorded" + (f": {text!r} does not start with a number ({hint})" if text else ""), ok=False)
            return None, None, None
        return subject, int(match[1]), match[2].strip()

    async def flow_damage(self) -> None:
        op, amount, source = await self._amount_for("damage", "Damage from outside an attack", "damage, then mine, devastating, hot or other; e.g. 3 mine")
        if op is not None:
            source = source if source in ("mine", "devastating", "hot", "other") else "other"
            self.record(ev.DamageInflicted(operative=op, damage=amount, source=source))

    async def flow_regain(self) -> None:
        op, amount, reason = await self._amount_for("regain", "Wounds regained", "wounds, then the rule; e.g. 2 Medic!")
        if op is not None:
            self.record(ev.WoundsRegained(operative=op, wounds=amount, reason=reason))

    async def flow_apl(self) -> None:
        op, amount, reason = await self._amount_for("apl", "APL change", "+1 or -1, then the rule; e.g. -1 Stun")
        if op is not None:
            self.record(ev.AplModified(operative=op, delta=amount, reason=reason))

    async def flow_cp(self) -> None:
        player, amount, reason = await self._amount_for("cp", "CP adjustment", "+1 or -1, then the rule; e.g. +1 Strategic Mastery", who="player")
        if player is not None:
            self.record(ev.CommandPointsAdjusted(player=player, delta=amount, reason=reason))

    async def flow_resource(self) -> None:
        """Count one of a kill team's resources up or down (its roster names them)."""
        s = self.recorder.state
        options = self.steps.options("resource")
        choices = [Choice(f"{e.player}: {e.resource} ({s.players[e.player].resources[e.resource]})", e) for e in options]
        probe = await self.pick_one("Resource", choices)
        if probe is None:
            return self.record(None)
        text = await self.prompt(f"{probe.player}'s {probe.resource}: count it up or down", hint="+1 or -1, then why; e.g. -1 special order")
        match = AMOUNT_AND_TEXT.match(text or "")
        if match is None or int(match[1]) == 0:
            self.say("Nothing recorded" + (f": {text!r} does not start with a number other than 0 (+1 or -1)" if text else ""), ok=False)
            return
        self.record(msgspec.structs.replace(probe, delta=int(match[1]), reason=match[2].strip()))

    async def flow_concede(self) -> None:
        player = await self.pick("Who concedes?", [player_choice(e.player, e.player, self.recorder.state) for e in self.steps.options("concede")])
        if player is None:
            return
        sure = await self.pick(f"{player} concedes the game: sure?", [Choice("yes, record the concession", True, "y"), Choice("no", False, "n")])
        self.record(ev.GameConceded(player=player) if sure else None)
