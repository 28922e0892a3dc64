"""Two players' phones recording a game through their seats' pages, tap by tap, as a person does
(tests/test_seat_game_browser.py, benchmarks/seat_game.py).

Each event of a scripted game is made on the page of the seat whose decision it is: the move's
button, then each question the page asks as the page asks it (a choice a tap, a toggle or an
option a tap if it is not already as wanted, dice typed on the pad, a number or a text filled in),
then the one button that records. The answers come from the event itself (`answers_from`, as a
correction's form is filled in). Every tap is counted, the dice faces apart; an event no form
asks (a Blast shot's further targets, an override) is typed as a line under More, and counted as
such."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import msgspec

from ktlog import events as ev
from ktlog.play.questions import answers_from
from ktlog.play.seats import seat_moves, whose
from ktlog.rules.questions import Move
from ktlog.state import GameState
from ktlog.text.event_text import answers_line, event_line, parse_event

WAIT_MS = 10_000
REFUSED = "(!!document.querySelector('#form-body .why') || !document.getElementById('form-problem').hidden)"
"""The page says a move was not recorded (at the question it is about, or above the form)."""


@dataclass
class Tapped:
    """How one event was recorded from a phone."""

    event: str
    kind: str
    taps: int = 0
    """Taps besides the dice faces (the move, each choice, each toggle or option changed, each
    dice group moved to, each text filled in, the button that records)."""
    dice: int = 0
    typed_line: bool = False
    at: float = 0.0
    """When its last tap was made, the one that sends it (performance.timeOrigin + now(), ms, in the tapping page)."""
    seq: int = 0
    what: list[str] = field(default_factory=list)
    """What each tap was (the move, a choice's value, a toggle ...)."""


@dataclass
class Phones:
    """The two seats' pages, by player; `taps` keeps every event's count."""

    pages: dict[str, object]
    taps: list[Tapped] = field(default_factory=list)

    def seat_for(self, state: GameState, event: ev.Event) -> str:
        """The player whose seat records the event: its owner's, a shared step the player's with
        initiative (or the first)."""
        owner = whose(state, event)
        if owner in self.pages:
            return owner
        first = state.initiative or state.setup_initiative or next(iter(state.players))
        return first if first in self.pages else next(iter(self.pages))

    def record(self, state: GameState, event: ev.Event, seat: str | None = None) -> Tapped:
        """Make `event` on the seat's page (the owner's by default) and wait until that page shows it."""
        player = seat or self.seat_for(state, event)
        page = self.pages[player]
        wait_for_seq(page, state.seq)  # the page has caught up with the game (the other phone's or the table's last event)
        move = move_for(state, player, event)
        if move is None:
            tapped = self._typed(page, event)
        else:
            tapped = self._asked(page, move, answers_from(move, event) or [], state)
        tapped.seq = state.seq + 1
        wait_for_seq(page, state.seq + 1)
        self.taps.append(tapped)
        return tapped

    # --- through the move's form ------------------------------------------------------------

    def _asked(self, page, move: Move, answers: list[tuple[str, str]], state: GameState) -> Tapped:
        tapped = Tapped(move.event, move.kind)
        wanted = by_question(move, answers)
        same_kind = [m for m in seat_moves(state, page_player(page))[0] if m.kind == move.kind]
        if move_is_more(page, move.kind):
            _tap(page, "#more summary", tapped)
        first = wanted.get(0, "")
        chosen = page.locator(f".move[data-kind='{move.kind}'][data-value='{first}']")  # one button an operative: the first choice made
        _tap(page, chosen if first and chosen.count() else f".move[data-kind='{move.kind}'] >> nth={same_kind.index(move)}", tapped)
        for _ in range(len(move.questions) + 2):
            wait_until(
                page,
                "(seq) => Number(document.body.dataset.seq) >= seq || (!document.body.dataset.busy && !document.getElementById('form').hidden)",
                state.seq + 1,
            )
            if _recorded(page, state.seq + 1):
                return tapped
            step = page.locator("#form-body .step")
            if step.count():
                i = int(step.get_attribute("data-question"))
                value = wanted.get(i, "")
                choice = page.locator(f"#form-body .step .choice[data-value='{value}']")
                if choice.count():
                    _tap(page, choice, tapped)
                else:  # a name the choices do not list (a ploy the roster lacks): typed, then Record takes it
                    page.locator("#form-body .step input").fill(value)
                    tapped.taps += 1
                    tapped.what.append(f"typed {value}")
                    _tap(page, "#form-ok", tapped)
                continue
            self._sheet(page, move, wanted, tapped)
            _tap(page, "#form-ok", tapped)
            wait_until(page, f"(seq) => Number(document.body.dataset.seq) >= seq || {REFUSED}", state.seq + 1)
            if not _recorded(page, state.seq + 1):
                raise AssertionError(f"{move.event} {answers}: {page.locator('#form-problem').text_content()}")
            return tapped
        raise AssertionError(f"{move.event} {answers}: the form did not end")

    def _sheet(self, page, move: Move, wanted: dict[int, str], tapped: Tapped) -> None:
        """Set each question on the sheet as wanted, as a person would: only what differs."""
        for element in page.locator("#form-body .question").all():
            i = int(element.get_attribute("data-question"))
            q = move.questions[i]
            value = wanted.get(i, q.default if q.kind == "option" else None)  # left out: its default (not in cover ...)
            details = page.locator("#form-body details.extra")
            inside = details.count() and element.evaluate("(e) => !!e.closest('details')")
            if value in (None, "") and q.kind in ("number", "text", "dice"):
                continue
            if inside and not details.evaluate("(d) => d.open"):
                _tap(page, "#form-body details.extra > summary", tapped)
            if q.shape == "BOOL":
                toggle = element.locator(".toggle")
                if toggle.get_attribute("aria-pressed") != value:
                    _tap(page, toggle, tapped)
            elif q.kind == "dice":
                for n, digits in enumerate(value.split(",")):
                    digits = digits.split(":")[-1]
                    slot = element.locator(f".dice[data-group='{n}']")
                    if "typing" not in (slot.get_attribute("class") or ""):
                        _tap(page, slot, tapped)
                    for die in digits:
                        page.locator(f"#pad button[data-die='{die}']").tap()
                        tapped.dice += 1
            elif q.kind in ("number", "text"):
                box = element.locator("input")
                if box.input_value() != value:
                    box.fill(value)
                    tapped.taps += 1
                    tapped.what.append(f"typed {q.field}")
            elif q.many:  # several picked: a tap each (further targets, operatives splashed)
                for picked in filter(None, (value or "").split(",")):
                    segment = element.locator(f".segment[data-value='{picked}']")
                    if segment.get_attribute("aria-pressed") != "true":
                        _tap(page, segment, tapped)
            else:
                segment = element.locator(f".segment[data-value='{value or ''}']")
                if segment.get_attribute("aria-pressed") != "true":
                    _tap(page, segment, tapped)

    # --- typed as a line ------------------------------------------------------------------------

    def _typed(self, page, event: ev.Event) -> Tapped:
        tapped = Tapped(type(event).__name__, "line", typed_line=True)
        if not page.locator("#more").evaluate("(d) => d.open"):
            _tap(page, "#more summary", tapped)
        _tap(page, "#type-line", tapped)
        page.locator("#fix-line").fill(line_of(event))
        tapped.taps += 1
        _tap(page, "#fix-send", tapped)
        return tapped


def move_for(state: GameState, player: str, event: ev.Event) -> Move | None:
    """The seat's legal move that makes exactly `event` (None: no form asks it)."""
    for move in seat_moves(state, player)[0]:
        if move.event != type(event).__name__ or (answers := answers_from(move, event)) is None:
            continue
        try:
            made = parse_event(answers_line(move.event, answers))
        except Exception:  # noqa: BLE001  # not this move's answers
            continue
        dice = [value for name, value in answers if any(q.field == name and q.kind == "dice" for q in move.questions)]
        if bare(made) == bare(event) and all(re.fullmatch(r"([^:,]+:[1-6],?)*|[1-6,]*", d) for d in dice):
            return move
    return None


def by_question(move: Move, answers: list[tuple[str, str]]) -> dict[int, str]:
    """Each question's answer by its place in the move (a field asked twice answered in turn)."""
    found: dict[int, str] = {}
    for name, value in answers:
        i = next((n for n, q in enumerate(move.questions) if q.field == name and n not in found), None)
        if i is not None:
            found[i] = value
    return found


def bare(event: ev.Event) -> ev.Event:
    return msgspec.structs.replace(event, seat=None)


def line_of(event: ev.Event) -> str:
    return event_line(bare(event))


def page_player(page) -> str:
    return page.evaluate("() => document.getElementById('who').textContent.replace(/'s seat$/, '')")


def move_is_more(page, kind: str) -> bool:
    return page.evaluate("(kind) => !!document.querySelector(`#more-moves .move[data-kind='${kind}']`) && !document.getElementById('more').open", kind)


def _recorded(page, seq: int) -> bool:
    return page.evaluate("(seq) => Number(document.body.dataset.seq) >= seq", seq)


def _tap(page, target, tapped: Tapped) -> None:
    locator = page.locator(target) if isinstance(target, str) else target
    tapped.what.append(locator.evaluate("(e) => e.dataset.value || e.dataset.field || e.dataset.kind || e.id || e.textContent"))
    tapped.at = page.evaluate("() => performance.timeOrigin + performance.now()")
    locator.tap()
    tapped.taps += 1


def wait_for_seq(page, seq: int, timeout: int = WAIT_MS) -> None:
    wait_until(page, "(seq) => Number(document.body.dataset.seq) >= seq", seq, timeout)


def wait_until(page, function: str, arg=None, timeout: int = WAIT_MS) -> None:
    """Until `function(arg)` holds in the page, asked every few ms. (Playwright's own
    wait_for_function evaluates a string with `new Function`, which the seat page's CSP forbids:
    no unsafe-eval; `evaluate` goes through the DevTools protocol, which the CSP does not govern.)"""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(function, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} ms for {function} ({arg})")
        time.sleep(0.005)


def now_ms() -> float:
    return time.time() * 1000
