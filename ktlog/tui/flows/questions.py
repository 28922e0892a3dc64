"""A move asked from its description (ktlog.play.questions): which of the legal moves of the
kind, then each question in turn (a pick for choices, a line of text for the rest), then the
event line `ktlog event` takes, read as `ktlog event` reads it, recorded."""

from __future__ import annotations

import re

import msgspec

from ktlog import events as ev
from ktlog.errors import KtlogError
from ktlog.rules.questions import Move, Question
from ktlog.text.event_text import answers_line, parse_event

from ..screens.pick import Choice, operative_choice, player_choice
from ..screens.prompt import TextPrompt
from ..steps import KIND
from .placing import where
from .registry import FLOWS, KIND_FLOWS, Asker

AMOUNT_AND_TEXT = re.compile(r"^\s*([+-]?\d+)\s*(.*)$")
NONE = object()
"""The answer "none" to an optional question."""


async def run(screen: Asker, kind: str) -> None:
    """Take one step of this kind (or one of the other flows), asking what it needs: the kind's
    own flow from the registry, a shot's (Shoot, KT21 Overwatch ...), else its questions."""
    flow = FLOWS.get(kind)
    if flow is not None:
        await flow(screen)
    elif (moves := screen.steps.describe(kind)) and issubclass(ev.event_type(moves[0].event), ev.Shot):
        await KIND_FLOWS["shot"](screen, kind)
    else:
        await ask_move(screen, kind)


async def ask_move(screen: Asker, kind: str) -> None:
    """Take a move of this kind: pick which (when several are legal), answer its questions, record it."""
    moves = screen.steps.describe(kind)
    if not moves:
        screen.say(screen.steps.why_not(kind), ok=False)
        return
    s = screen.recorder.state
    by_player = len({m.player for m in moves}) == len(moves) and all(m.player in s.players for m in moves)
    choices = [player_choice(m.player, m, s, m.label) if by_player and m.player else Choice(m.label, m) for m in moves]  # a player's number is theirs all game
    move = await screen.pick_one(KIND[kind].label, choices)
    answers = await answer(screen, move) if move is not None else None
    if answers is False or answers is True:  # refused, and said why (True is never answered)
        return
    if answers is None:
        screen.record(None)
        return
    try:
        event = parse_event(answers_line(move.event, answers))
    except KtlogError as exc:
        screen.say(f"Not recorded: {exc}", ok=False)
        return
    screen.record(await where(screen, event))


async def answer(screen: Asker, move: Move) -> list[tuple[str, str]] | None | bool:
    """The answers to a move's questions, its fixed fields first; None: cancelled; False: an
    answer was refused (and the screen says why). A number
    followed by a text (VP and what scored them) or by an option with a default (damage and
    its source) is typed on one line: "2 Flank held", "3 mine"."""
    given = list(move.fixed.items())
    so_far = dict(move.fixed)
    questions = list(move.questions)
    while questions:
        q = questions.pop(0)
        then = questions[0] if questions and _on_one_line(q, questions[0]) else None
        if then is not None:
            questions.pop(0)
            pair = await _number_and_more(screen, move, q, then)
            if not isinstance(pair, tuple):
                return pair
            found = [(q.field, pair[0]), (then.field, pair[1])]
        else:
            value = await _one(screen, move, q, so_far)
            if value is None:
                return None
            found = [] if value is NONE else [(q.field, str(value))]
        for field, value in found:
            given.append((field, value))
            so_far.setdefault(field, value)
    return given


def _on_one_line(q: Question, then: Question) -> bool:
    return q.kind == "number" and (then.kind == "text" or (then.kind == "option" and then.default is not None))


async def _one(screen: Asker, move: Move, q: Question, so_far: dict[str, str], *, edit: bool = False):
    """One question's answer (NONE: an optional one left unanswered; None: cancelled); with
    `edit`, a typed answer's default is there to edit (a correction), not to replace."""
    title = f"{move.label}: {q.label}" if q.label[:1].islower() else q.label
    legal = q.legal(so_far)
    if q.kind in ("number", "text", "dice") or (q.other and not legal) or (q.many and q.kind == "operatives"):  # several: typed A,B, the choices listed
        text = await screen.ask(TextPrompt(title, q.default or "", _hint(q), edit=edit))
        if text is None or not text.strip():
            return NONE if q.optional and text is not None else None
        return text.strip()
    if not legal:
        return NONE  # ruled out by the earlier answers: it does not apply
    choices = [_choice(screen, q, c.value, c.label) for c in legal]
    if q.optional:
        choices.append(Choice("none", NONE, "0"))
    if len(choices) == 1:
        return choices[0].value
    return await screen.pick(title, choices, _hint(q) if q.hint else "")


def _choice(screen: Asker, q: Question, value: str, label: str) -> Choice:
    """An operative keeps its key all game (its place in its kill team); an option of the
    event's own words (engage, conceal; mine, hot ...) that start with different letters is
    picked by its first letter; names (a kill team's archetypes) by their place."""
    s = screen.recorder.state
    if q.kind in ("operative", "target") and value in s.operatives:
        return operative_choice(s.operatives[value], value, s)
    if q.field == "player" and value in s.players:  # a player keeps their number all game (issue 24 #15)
        return player_choice(value, value, s, label)
    firsts = [c.value[:1] for c in q.choices]
    if q.kind == "option" and all(c.value.isalpha() and c.value.islower() for c in q.choices) and len(set(firsts)) == len(firsts):
        return Choice(label, value, value[:1].lower())
    return Choice(label, value)


def _hint(q: Question) -> str:
    listed = f" ({', '.join(c.value for c in q.choices)})" if q.choices and q.kind != "option" or q.other and q.choices else ""
    return (q.hint or q.label) + listed


async def _number_and_more(screen: Asker, move: Move, q: Question, then: Question) -> tuple[str, str] | None | bool:
    """A number and the text or option after it, typed on one line (False: not a number, said)."""
    options = f": {', '.join(c.value for c in then.choices)}" if then.choices else ""
    hint = f"{q.label}, then {then.label}{options}" + (f"; {q.hint}" if q.hint else "")
    text = await screen.prompt(move.label, hint=hint)
    found = AMOUNT_AND_TEXT.match(text or "")
    if found is None:
        if not text:
            return None
        screen.say(f"Nothing recorded: {text!r} does not start with a number ({hint})", ok=False)
        return False
    rest = found[2].strip()
    if then.kind == "option":
        rest = rest if rest in {c.value for c in then.choices} else (then.default or "")
    return found[1], rest


RECORD, AS_LINE = object(), object()
"""A correction's form: record it; type it as a line instead."""


async def change_answers(screen: Asker, move: Move, answers: list[tuple[str, str]], title: str) -> list[tuple[str, str]] | object | None:
    """A move's answers as a form to change (a correction): each question with its answer, picked
    to be asked again with that answer as its default, until r records them (the answers, its
    fixed fields first), l asks for the line instead (AS_LINE), or Esc cancels (None)."""
    given: dict[int, str] = {}
    for field, value in answers:
        i = next((n for n, q in enumerate(move.questions) if q.field == field and n not in given), None)
        if i is not None:
            given[i] = value
    while True:
        rows = [Choice(f"{q.label}: {given.get(i) or '—'}", i) for i, q in enumerate(move.questions)]
        rows += [Choice("Record the correction", RECORD, "r"), Choice("Type it as a line instead", AS_LINE, "l")]
        chosen = await screen.pick(title, rows, "pick an answer to change it; r records the correction, Esc cancels")
        if chosen is None or chosen is AS_LINE:
            return chosen
        if chosen is RECORD:
            kept = [(move.questions[i].field, v) for i, v in sorted(given.items()) if v != "" or "." in move.questions[i].field]
            return [*move.fixed.items(), *kept]
        so_far = dict(move.fixed) | {move.questions[i].field: v for i, v in given.items() if i < chosen}
        q = msgspec.structs.replace(move.questions[chosen], default=given.get(chosen, move.questions[chosen].default))
        value = await _one(screen, move, q, so_far, edit=True)
        if value is not None:
            given[chosen] = "" if value is NONE else str(value)
