"""The record screens' link to the recording session: each outcome as a line on screen, with
the key that follows it (ctrl+r to enter a kept event again, ! to override a refusal).

The session (`ktlog.play.session`) stores the events and keeps what the store could not take;
this adds the legal next steps of the state it holds, and words every failure, so nothing
typed is lost and nothing raises into the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ktlog import events as ev
from ktlog.errors import ConcurrencyConflict, DatabaseError, KtlogError, RuleViolation
from ktlog.play.database import Store
from ktlog.play.moves import refusal_text
from ktlog.play.session import NothingToDo, Recorded, RecordingSession
from ktlog.state import GameState
from ktlog.text.describe import describe
from ktlog.text.render import changes, undo_text

from .steps import Steps


@dataclass(frozen=True)
class Outcome:
    """What became of an entered event, as the screen tells it."""

    ok: bool
    message: str
    seq: int | None = None


class Recorder:
    """A recording session as the record and set-up screens use it: every action gives an `Outcome`."""

    def __init__(self, store: Store, game_id: str):
        self.session = RecordingSession(store, game_id)
        self.game_id = game_id
        self._steps: Steps | None = None
        self.reason: str | None = None
        """While a step is entered anyway after a refusal: the override reason its moves are
        tried with and its event is recorded with (precedence, pg 55)."""

    @property
    def state(self) -> GameState:
        return self.session.state

    @property
    def seq(self) -> int:
        return self.session.seq

    @property
    def steps(self) -> Steps:
        """The legal next steps from the state the session holds (found again when it changes)."""
        if self._steps is None or self._steps.state is not self.session.state or self._steps.trial.override != self.reason:
            self._steps = Steps(self.session.state, self.reason)
        return self._steps

    def commit(self, event: ev.Event) -> Outcome:
        """Store one event, expecting it to take the next seq (with the override `reason`, if any)."""
        event = self.steps.trial.overridden(event)
        return self._attempt(lambda: self.session.record(event), _news)

    def retry(self) -> Outcome:
        return self._attempt(self.session.retry, _news)

    def override(self, reason: str) -> Outcome:
        """Record the refused event with an override and its reason (precedence, pg 55)."""
        return self._attempt(lambda: self.session.override(reason), _news)

    def undo(self) -> Outcome:
        return self._attempt(self.session.undo, lambda r: undo_text(r.seq, *r.undone))  # type: ignore[misc]  # an undo's outcome names what it undid

    def correct(self, target: int, event: ev.Event) -> Outcome:
        """Let `event` count instead of the event at seq `target` (later events checked again)."""
        return self._attempt(lambda: self.session.correct(target, event), _news)

    def annotate(self, target: int, text: str) -> Outcome:
        return self._attempt(lambda: self.session.annotate(target, text), _news)

    def _attempt(self, act: Callable[[], Recorded], words: Callable[[Recorded], str]) -> Outcome:
        try:
            recorded = act()
        except NothingToDo as exc:
            return Outcome(False, str(exc))
        except RuleViolation as exc:
            hint = "; press ! to record it anyway with the reason (a kill team rule, pg 55)" if self.session.refused else ""
            return Outcome(False, f"Not recorded: {refusal_text(exc)}{hint}")
        except ConcurrencyConflict as exc:
            return Outcome(False, f"{exc}. The game is reloaded; press ctrl+r to enter your event again on it")
        except (KtlogError, DatabaseError) as exc:
            return Outcome(False, f"Not recorded yet: {exc}. Your event is kept: press ctrl+r to try again")
        return Outcome(True, words(recorded), recorded.seq)


def _news(r: Recorded) -> str:
    """The event (a secret choice is not echoed), a ploy the roster does not list, and what it changed."""
    return f"seq {r.seq}: " + " · ".join(
        [
            describe(r.event, spectator=r.event.secret, state=None if r.event.secret else r.after, before=None if r.event.secret else r.before),
            *(f"warning: {warning}" for warning in r.warnings if warning),
            *changes(r.before, r.after),
        ]
    )
