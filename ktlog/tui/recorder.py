"""One game being recorded: every event is committed at once, and every failure is a message.

The recorder is the record screen's link to the store. It names the seq it expects for each
append, so a second recorder on the same game is caught (`ConcurrencyConflict`) instead of
silently interleaving; an event that could not be stored (a conflict, a locked database) is
kept as `pending` to be entered again with one key, so nothing typed is lost.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import msgspec

from ktlog import events as ev
from ktlog.errors import ConcurrencyConflict, KtlogError, RuleViolation
from ktlog.reducer import effective
from ktlog.state import GameState
from ktlog.storage.store import Store
from ktlog.text.render import changes
from ktlog.text.describe import describe

from .steps import Steps, refusal_text


@dataclass(frozen=True)
class Outcome:
    """What became of an entered event, as the screen tells it."""

    ok: bool
    message: str
    seq: int | None = None


class Recorder:
    def __init__(self, store: Store, game_id: str):
        self.store = store
        self.game_id = game_id
        self.pending: ev.Event | None = None
        """An event the store could not take (conflict, lock): `retry()` enters it again."""
        self.refused: ev.Event | None = None
        """The latest event a rule refused; `override(reason)` records it with a reason."""
        self.reload()

    def reload(self) -> None:
        """Read the game again (at the start, and after another writer added events)."""
        self.records: list[tuple[int, ev.Event]] = [(e.seq, e.payload) for e in self.store.events(self.game_id)]
        self._refresh()

    def _refresh(self) -> None:
        self.state: GameState = self.store.state(self.game_id)
        self.steps = Steps(self.state)

    @property
    def seq(self) -> int:
        return self.state.seq

    def commit(self, event: ev.Event) -> Outcome:
        """Validate and store one event, expecting it to take the next seq."""
        before = self.state
        try:
            envelope = self.store.append(self.game_id, event, expected_seq=self.state.seq + 1)
        except RuleViolation as exc:
            self.refused = event if exc.overridable and not event.meta else None
            hint = "; press ! to record it anyway with the reason (a kill team rule, pg 55)" if self.refused else ""
            return Outcome(False, f"Not recorded: {refusal_text(exc)}{hint}")
        except ConcurrencyConflict as exc:
            self.pending = event
            self.reload()
            return Outcome(False, f"{exc}. The game is reloaded; press ctrl+r to enter your event again on it")
        except (KtlogError, sqlite3.Error) as exc:
            self.pending = event
            return Outcome(False, f"Not recorded yet: {exc}. Your event is kept: press ctrl+r to try again")
        self.pending = self.refused = None
        self.records.append((envelope.seq, event))
        self._refresh()
        news = [describe(event, spectator=event.secret), *changes(before, self.state)]  # a secret choice is not echoed
        return Outcome(True, f"seq {envelope.seq}: " + " · ".join(news), envelope.seq)

    def retry(self) -> Outcome:
        if self.pending is None:
            return Outcome(False, "Nothing waits to be entered again")
        return self.commit(self.pending)

    def override(self, reason: str) -> Outcome:
        """Record the refused event with an override and its reason (precedence, pg 55)."""
        if self.refused is None:
            return Outcome(False, "No refused event to record with an override")
        if not reason.strip():
            return Outcome(False, "Give the reason (the kill team rule that allows it)")
        return self.commit(_with_override(self.refused, reason.strip()))

    def latest_effective(self) -> tuple[int, ev.Event] | None:
        """The latest event that still counts (what an undo voids), or None at the game's creation."""
        remaining = effective(self.records)
        return remaining[-1] if len(remaining) > 1 else None

    def undo(self) -> Outcome:
        latest = self.latest_effective()
        if latest is None:
            return Outcome(False, "There is nothing to undo: only the game's creation is left")
        target, undone = latest
        outcome = self.commit(ev.EventVoided(target=target))
        if outcome.ok:
            return Outcome(True, f"seq {outcome.seq}: undid seq {target} ({describe(undone)})", outcome.seq)
        return outcome

    def annotate(self, target: int, text: str) -> Outcome:
        if not text.strip():
            return Outcome(False, "The note is empty; nothing recorded")
        return self.commit(ev.Annotation(target=target, text=text.strip()))


def _with_override(event: ev.Event, reason: str) -> ev.Event:
    return msgspec.structs.replace(event, override=reason)
