"""The base of the dice dialogs: dice typed as digits, the result worked out by the rules as
they are typed (the event is tried on a copy of the state), Enter records it."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.play.moves import Trial, refusal_text
from ktlog.rules.ruleset import listing
from ktlog.state import GameState, OperativeState

from ..markup import escape
from ..widgets.dice_entry import DiceEntry, Group
from ..widgets.text_line import TextBlock
from .modal import Modal


def wounds_text(op: OperativeState) -> str:
    fate = " [b red]incapacitated[/]" if op.incapacitated else (" [yellow]injured[/]" if op.injured else "")
    return f"{max(op.wounds, 0)}/{op.datacard.wounds}{fate}"


class DiceDialog(Modal):
    BINDINGS = [Binding("enter", "confirm", "Record")]
    HINT = "type the dice as digits; Backspace corrects; Enter records; Esc cancels"

    def __init__(self, title: str, trial: Trial):
        super().__init__()
        self.title_text = title
        self.trial = trial
        self.ready: ev.Event | None = None

    def compose(self) -> ComposeResult:
        yield Label(f"[b]{escape(self.title_text)}[/]")
        with Vertical(id="entries"):
            yield from self.entries()
        yield TextBlock(id="options")
        yield TextBlock(id="preview")
        yield Label(self.HINT, classes="hint")

    # --- what a dialog defines --------------------------------------------------------------

    def entries(self) -> ComposeResult:
        raise NotImplementedError

    def build(self) -> ev.Event | None:
        """The event as typed so far, or None while dice are missing."""
        raise NotImplementedError

    def summary(self, new: GameState) -> str:
        raise NotImplementedError

    def options_text(self) -> str:
        return ""

    def early_refusal(self) -> str | None:
        """A refusal the rules give whatever the dice (an invalid target), shown before them."""
        return None

    def waiting_text(self) -> str:
        return "waiting for the dice"

    # --- the preview ------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.update_preview()

    def on_dice_entry_changed(self, message: DiceEntry.Changed) -> None:
        self.update_preview()

    def on_dice_entry_refused(self, message: DiceEntry.Refused) -> None:
        self.query_one("#preview", TextBlock).set(f"[red]{escape(message.text)}[/]")

    def update_preview(self) -> None:
        self.query_one("#options", TextBlock).set(self.options_text())
        preview = self.query_one("#preview", TextBlock)
        self.ready = None
        try:
            event = self.build()
            if event is None:
                early = self.early_refusal()
                preview.set(f"[red]{escape(early)}[/] [dim](before any dice)[/]" if early else f"[dim]{escape(self.waiting_text())}[/]")
                return
            new = self.trial.result(event)
        except KtlogError as exc:
            preview.set(f"[red]{escape(refusal_text(exc))}[/]")
            return
        self.ready = event
        preview.set(self.summary(new) + "\n[green]Enter records it[/]")

    async def feed(self, key: str, character: str | None) -> None:
        entry = self.focused if isinstance(self.focused, DiceEntry) else self.query(DiceEntry).first()
        if entry.type(key, character) or self._overflow(entry, key, character):
            self.update_preview()  # at once: an Enter typed ahead must find the event ready
        else:
            await super().feed(key, character)

    def on_key(self, event: events.Key) -> None:
        """A die typed into a full entry goes on to the next entry that is not full."""
        if isinstance(self.focused, DiceEntry) and self._overflow(self.focused, event.key, event.character):
            event.stop()

    def _overflow(self, entry: DiceEntry, key: str, character: str | None) -> bool:
        if not (entry.full and character and character in "123456"):
            return False
        later = [e for e in self.query(DiceEntry) if not e.full]
        if not later:
            self.query_one("#preview", TextBlock).set("[red]every die is typed: Backspace corrects, Enter records[/]")
            return True
        later[0].focus()
        return later[0].type(key, character)

    def effects(self, new: GameState) -> list[str]:
        """CP spent and VP scored by the event."""
        lines = [f"{c.player} {c.delta:+d}CP ({c.source})" for c in new.cp_log]
        lines += [f"[b]{v.player} scores {v.vp}VP[/] ({v.reason})" for v in new.vp_log]
        return lines

    def action_confirm(self) -> None:
        if self.ready is None:
            self.app.bell()
            preview = self.query_one("#preview", TextBlock)
            if "[red]" not in (preview._text or ""):  # a refusal on show already says why
                preview.set(f"[red]Not recorded yet: {escape(self.waiting_text())}[/]")
            return
        self.dismiss(self.ready)


class RollOffDialog(DiceDialog):
    """A roll-off: one D6 per player (pg 55); in Multiplayer Ops, then one per player of each
    group still tied (pg 99)."""

    def __init__(self, trial: Trial, probe: ev.RolledOff):
        """The roll-off of the players (and purpose) of `probe`, the legal roll-off proposed."""
        s = trial.state
        what = "set-up initiative" if probe.purpose == "setup" else f"initiative in turning point {s.turning_point}"
        if len(s.players) > 2:
            what = f"player order{' (set-up)' if probe.purpose == 'setup' else ''}"
        again = f", again for {listing(list(probe.rolls))}" if s.order_ties else ""
        super().__init__(f"Roll-off for {what}{again}: each player's D6", trial)
        self.purpose = probe.purpose
        self.players = list(probe.rolls)

    def entries(self) -> ComposeResult:
        yield DiceEntry([Group(p, 1) for p in self.players])

    def build(self) -> ev.Event | None:
        entry = self.query_one(DiceEntry)
        if not entry.complete:
            return None
        return ev.RolledOff(purpose=self.purpose, rolls={p: int(d) for p, d in zip(self.players, entry.parts())})

    def summary(self, new: GameState) -> str:
        tied = [g for g in new.order_ties if len(g) > 1]
        if tied:
            return "tied: " + "; ".join(listing(g) for g in tied) + " roll off again (pg 99)"
        if new.decider is not None:
            return f"[b]{new.decider}[/] decides who has initiative"
        if new.rolloff is None:
            return "player order: [b]" + ", ".join(new.order) + "[/]"
        return "a tie: roll off again (pg 55)"
