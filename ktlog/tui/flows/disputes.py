"""Disputes and seats from the table: dispute the event selected in the log, close a dispute,
and the players' links to record from their phones (the seats screen)."""

from __future__ import annotations

from ktlog import events as ev
from ktlog.text.describe import describe

from ..screens.pick import Choice
from ..screens.seats import SeatsScreen
from .registry import Asker, flow


@flow("dispute")
async def dispute(screen: Asker) -> None:
    """Dispute the event selected in the log, saying why: the result is provisional until it is
    resolved."""
    target = screen.selected_event()
    if target is None:
        screen.say("No event to dispute yet: select one in the log (Tab, then ↑↓)", ok=False)
        return
    event = screen.recorder.session.timeline.event(target)
    reason = await screen.prompt(
        f"Dispute seq {target}: {describe(event)}", hint="why it is wrong; kept in the log, and the result is provisional until it is resolved"
    )
    if reason is None or not reason.strip():
        screen.say("Cancelled; nothing recorded", ok=None)
        return
    screen.record(ev.EventDisputed(target=target, reason=reason.strip()))


@flow("resolve")
async def resolve(screen: Asker) -> None:
    """Close an open dispute: its event was corrected and the correction accepted, or it is
    withdrawn."""
    open_disputes = screen.recorder.state.open_disputes
    if not open_disputes:
        screen.say("No dispute is open", ok=None)
        return
    choices = [Choice(f"seq {d.target}: {d.reason} (raised by {d.raised_by or 'the table'})", d.seq) for d in open_disputes]
    chosen = await screen.pick_one("Which dispute", choices)
    if chosen is None:
        return
    outcome = await screen.pick_one(
        "How it ends",
        [Choice("Accepted: the event was corrected (. then c corrects it first)", "accepted", "a"), Choice("Withdrawn: the event stands", "withdrawn", "w")],
    )
    if outcome is not None:
        screen.record(ev.DisputeResolved(dispute=chosen, outcome=outcome))


@flow("seats")
async def seats(screen: Asker) -> None:
    """The players' links to record from their own phones."""
    screen.app.push_screen(SeatsScreen(screen.recorder.session.store, screen.recorder.game_id))
