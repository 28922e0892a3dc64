"""One game being recorded: the application service behind the record screen and `ktlog event`,
`undo` and `annotate`.

Every event goes to the store at once. The session keeps the game's state and timeline in step
with what it stored; an event the store could not take (a conflict with another writer, a locked
database) is kept as `pending` to be entered again, and the latest event a rule refused as
`refused`, to be recorded with an override reason. Failures are raised: each face words them.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import msgspec

from .. import events as ev
from ..errors import ConcurrencyConflict, GameNotFound, KtlogError, RuleViolation
from ..reducer import SeqEvent, apply
from ..rules.attacks import unrecorded_splash
from ..rules.team import unlisted
from ..state import GameState
from ..storage.store import Store
from ..text.describe import describe
from .timeline import Timeline


class NothingToDo(KtlogError):
    """A retry, override or undo asked for when there is nothing to act on; a note with no text."""


@dataclass(frozen=True)
class Recorded:
    """An event stored, with the states before and after it (`text.render.changes` words the difference)."""

    seq: int
    event: ev.Event
    before: GameState
    after: GameState
    undone: SeqEvent | None = None
    """For an undo: the (seq, event) it voided."""
    warnings: tuple[str | None, ...] = ()
    """Per event stored, in order: what the table should know though the rules took it (a ploy
    the player's roster does not list, `rules.team.unlisted`; an x" Devastating critical that
    names nobody it reached, `rules.attacks.unrecorded_splash`), or None; worked out here once
    for every face."""


def _warning(state: GameState, event: ev.Event) -> str | None:
    return unlisted(state, event) or unrecorded_splash(state, event)


class RecordingSession:
    def __init__(self, store: Store, game_id: str, *, expect_next: bool = True):
        self.store = store
        self.game_id = game_id
        self.expect_next = expect_next
        """Each event must take the seq after the state held, so a second writer on the game is
        caught (`ConcurrencyConflict`) instead of silently interleaving. The command line turns
        it off: one command is one event, and `--expect-seq` asks for the check."""
        self.pending: ev.Event | None = None
        """An event the store could not take (conflict, lock): `retry()` enters it again."""
        self.refused: ev.Event | None = None
        """The latest event a rule refused that an override may record (see `override`)."""
        self.reload()

    def reload(self) -> None:
        """Read the game again (at the start, and after another writer added events)."""
        self.state: GameState = self.store.state(self.game_id)
        self.__dict__.pop("timeline", None)

    def follow(self) -> list[ev.Envelope]:
        """The events another writer (a player's seat, another terminal) stored since the state
        held, the session brought up to them: what a face following the game shows ([]: none)."""
        try:
            head_seq, _ = self.store.listing.head(self.game_id)
        except GameNotFound:  # deleted behind ktlog's back: nothing to follow
            return []
        if head_seq <= self.seq:
            return []
        news = self.store.events(self.game_id, after=self.seq)
        if "timeline" in self.__dict__:
            for envelope in news:
                self.timeline.append(envelope)
        self.state = self.store.state(self.game_id)
        return news

    @cached_property
    def timeline(self) -> Timeline:
        """The game's events, read when first asked for (recording an event does not need them)."""
        return Timeline(self.store.events(self.game_id))

    @property
    def seq(self) -> int:
        return self.state.seq

    def check(self, events: Iterable[ev.Event], start: GameState | None = None) -> GameState:
        """Try events on the rules one after another, from the state held (or `start`), without
        storing any: the state they would lead to, or the first refusal raised."""
        state = self.state if start is None else start
        for event in events:
            state = apply(state, event)
        return state

    def record(self, event: ev.Event, *, expected_seq: int | None = None) -> Recorded:
        """Validate and store one event, at `expected_seq` if given (else see `expect_next`)."""
        before = self.state
        expected = before.seq + 1 if expected_seq is None and self.expect_next else expected_seq
        try:
            envelope = self.store.append(self.game_id, event, expected_seq=expected)
        except RuleViolation as exc:
            self.refused = event if exc.overridable and (not event.meta or isinstance(event, ev.EventCorrected)) else None
            raise
        except ConcurrencyConflict:
            self.pending = event
            self.reload()
            raise
        except (KtlogError, sqlite3.Error):
            self.pending = event
            raise
        self.pending = self.refused = None
        if "timeline" in self.__dict__:
            self.timeline.append(envelope)
        self.state = self.store.state(self.game_id)
        return Recorded(envelope.seq, event, before, self.state, warnings=(_warning(before, event),))

    def record_all(self, events: list[ev.Event]) -> Recorded:
        """Validate and store events in one transaction, all or none: a refusal names the
        position of the event refused (`exc.index`) and nothing is stored. The Recorded is the
        last event's, with the state before the first."""
        before = self.state
        envelopes = self.store.append_all(self.game_id, events, expected_seq=before.seq + 1 if self.expect_next else None)
        if "timeline" in self.__dict__:
            for envelope in envelopes:
                self.timeline.append(envelope)
        self.state = self.store.state(self.game_id)
        return Recorded(envelopes[-1].seq, events[-1], before, self.state, warnings=tuple(_warning(self.state, event) for event in events))

    def retry(self) -> Recorded:
        """Enter the pending event again."""
        if self.pending is None:
            raise NothingToDo("Nothing waits to be entered again")
        return self.record(self.pending)

    def override(self, reason: str) -> Recorded:
        """Record the refused event with an override and its reason (precedence, pg 55)."""
        if self.refused is None:
            raise NothingToDo("No refused event to record with an override")
        if not reason.strip():
            raise NothingToDo("Give the reason (the kill team rule that allows it)")
        return self.record(msgspec.structs.replace(self.refused, override=reason.strip()))

    def latest(self) -> SeqEvent | None:
        """The latest event that still counts (what an undo voids), or None at the game's creation."""
        return self.timeline.latest()

    def undo(self, *, expected_seq: int | None = None) -> Recorded:
        """Void the latest event that still counts (nothing is deleted: the undo is an event too)."""
        latest = self.latest()
        if latest is None:
            raise NothingToDo("There is nothing to undo: only the game's creation is left")
        recorded = self.record(ev.EventVoided(target=latest[0]), expected_seq=expected_seq)
        return dataclasses.replace(recorded, undone=latest)

    def correct(self, target: int, event: ev.Event, *, override: str | None = None, expected_seq: int | None = None) -> Recorded:
        """Let `event` count instead of the event at seq `target` (a wrong die, target, damage),
        the later events checked again against the corrected history. A later event the
        correction makes illegal refuses it, naming that event's seq and the rule, unless
        `override` gives the reason to keep it."""
        correction = ev.EventCorrected(target=target, event=event, override=override)
        try:
            return self.record(correction, expected_seq=expected_seq)
        except RuleViolation as exc:
            if exc.seq is None or exc.seq > self.seq:
                raise
            what = f"its new event at seq {target}" if exc.seq == target else f"seq {exc.seq} ({describe(self.timeline.event(exc.seq))})"
            error = RuleViolation(f"the correction of seq {target} makes {what} illegal: {exc.message}", exc.rule, overridable=exc.overridable)
            error.seq = exc.seq
            raise error from None

    def annotate(self, target: int, text: str, *, expected_seq: int | None = None) -> Recorded:
        """A note on the event at seq `target`."""
        if not text.strip():
            raise NothingToDo("The note is empty; nothing recorded")
        return self.record(ev.Annotation(target=target, text=text.strip()), expected_seq=expected_seq)
