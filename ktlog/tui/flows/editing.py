"""The flows that are not kinds of move: a note, a correction, an override of a refusal, an
event typed as `ktlog event` takes it, and the "more" menu of the rare steps."""

from __future__ import annotations

from typing import cast

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.play.seats import correction
from ktlog.text.describe import describe
from ktlog.text.event_text import answers_line, parse_event

from ..screens.pick import Choice
from ..screens.prompt import TextPrompt
from ..widgets.event_log import EventLog
from .questions import AS_LINE, change_answers, run
from .registry import Asker, flow


@flow("override")
async def override(screen: Asker) -> None:
    """Record the refused event anyway, with the kill team rule that allows it (pg 55); a refused
    step that still has questions is entered anyway (`step_anyway`)."""
    refused = screen.recorder.session.refused
    if refused is None:
        await step_anyway(screen)
        return
    reason = await screen.prompt(f"Record anyway: {describe(refused)}", hint="the kill team rule that allows it (precedence, pg 55)")
    if reason is not None:
        screen.show_outcome(screen.recorder.override(reason))


async def step_anyway(screen: Asker) -> None:
    """The step the rules refused, entered anyway: the reason first, then the step's own
    questions, its choices those the rules accept with that reason (precedence, pg 55)."""
    kind, screen.refused_kind = screen.refused_kind, None
    if kind is None:
        return
    reason = await screen.prompt(f"{kind.label} anyway", hint="the kill team rule that allows it (precedence, pg 55)")
    if not reason or not reason.strip():
        screen.say("Cancelled; nothing recorded", ok=None)
        return
    screen.recorder.reason = reason.strip()
    try:
        await run(screen, kind.name)
    finally:
        screen.recorder.reason = None
        screen.refresh_view()


@flow("note")
async def note(screen: Asker) -> None:
    """A note on the event selected in the log (`selected_event`)."""
    target = screen.selected_event()
    if target is None:
        screen.say("No event to annotate yet", ok=False)
        return
    text = await screen.prompt(f"Note on seq {target}", hint="a comment kept with the event, shown in replays")
    if text is not None:
        screen.show_outcome(screen.recorder.annotate(target, text))


@flow("correct")
async def correct(screen: Asker) -> None:
    """Correct the event selected in the log through its move's form, filled in with the event's
    answers (pick one, change it, r records); typed as `ktlog event` takes it when no form asks
    it, or when asked (l). The later events are checked again (! keeps them anyway)."""
    target = screen.selected_event()
    if target is None:
        screen.say("No event to correct yet: select one in the log (Tab, then ↑↓)", ok=False)
        return
    session = screen.recorder.session
    wrong = session.timeline.event(target)
    title = f"Correct seq {target}: {describe(wrong)}"
    try:
        form = correction(session.store, session.game_id, target)
    except KtlogError as exc:
        screen.say(f"Not corrected: {exc}", ok=False)
        return
    move = form.move
    answers = await change_answers(screen, move, form.answers or [], title) if move is not None else AS_LINE
    if answers is None:
        screen.say("Cancelled; nothing recorded", ok=None)
        return
    if answers is AS_LINE or move is None:
        hint = "edit the event as `ktlog event` takes it (e.g. a die of dice=6511); the later events are checked again"
        event = await typed_event(screen, title, hint, form.line)
    else:
        event = await made_event(screen, move.event, cast(list[tuple[str, str]], answers))
    if event is not None:
        screen.show_outcome(screen.recorder.correct(target, event))


async def made_event(screen: Asker, event_type: str, answers: list[tuple[str, str]]) -> ev.Event | None:
    """The event a move's answers make, as `ktlog event` reads it (None, said on screen, if it does not read)."""
    try:
        return parse_event(answers_line(event_type, answers))
    except KtlogError as exc:
        screen.say(f"Not recorded: {exc}", ok=False)
        return None


@flow("typed")
async def typed(screen: Asker) -> None:
    """Any event, typed in the CLI's syntax: a way to record what no step offers."""
    hint = 'TYPE FIELD=VALUE ..., e.g. TacOpScored player=Ana vp=2 reason="Flank"; override=REASON sets a rule aside'
    event = await typed_event(screen, "An event, as `ktlog event` takes it", hint)
    if event is not None:
        screen.record(event)


async def typed_event(screen: Asker, title: str, hint: str, default: str = "") -> ev.Event | None:
    """An event typed in the CLI's syntax (`default`: an event's line to edit); None (and why,
    on screen) if cancelled or unreadable."""
    text = await screen.ask(TextPrompt(title, default, hint, edit=bool(default)))
    if not text:
        screen.say("Cancelled; nothing recorded", ok=None)
        return None
    try:
        return parse_event(text)
    except KtlogError as exc:
        screen.say(f"Not recorded: {exc}", ok=False)
        return None


@flow("jump")
async def jump(screen: Asker) -> None:
    """Select an event in the log by its seq (then n notes it, . c corrects it)."""
    log = screen.query_one(EventLog)
    text = await screen.prompt(f"Jump to event (seq 1 to {log.last_seq})", str(log.selected_seq or ""))
    if text is None:
        return
    if not text.strip().isdigit() or not 1 <= int(text) <= log.last_seq:
        screen.say(f"{text!r} is not a seq: type a number from 1 to {log.last_seq}", ok=False)
        return
    log.show_seq(int(text), place=True)
    screen.say(f"seq {int(text)} selected: n notes it, . then c corrects it", ok=None)


@flow("more")
async def more(screen: Asker) -> None:
    """The rare steps, an event typed, a correction, a dispute, the players' seats."""
    choices = [Choice(k.label, k.name, k.key) for k in screen.steps.available(more=True)]
    choices.append(Choice("Type an event, as `ktlog event` takes it", "typed", "e"))
    choices.append(Choice("Correct the event selected in the log", "correct", "c"))
    choices.append(Choice("Dispute the event selected in the log", "dispute", "d"))
    if screen.recorder.state.open_disputes:
        choices.append(Choice("Resolve a dispute (accepted or withdrawn)", "resolve", "r"))
    choices.append(Choice("Seats: links for the players to record from their phones", "seats", "l"))
    chosen = await screen.pick("More", choices)
    if chosen:
        await run(screen, chosen)
