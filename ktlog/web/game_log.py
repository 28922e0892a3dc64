"""A game's log as its page shows it, kept from one head to the next (issue 26): a new event
adds its row; an undo, a correction or a note re-makes only the rows it is about, and a reveal
re-words the rows a spectator could not read before. The rows are the same as `views.log_rows`
makes from the whole game (tests/test_web_log.py compares them head by head); the page shows
them a page at a time (`page_of`)."""

from __future__ import annotations

import bisect
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..events import Annotation, Envelope, EventCorrected, EventVoided
from ..play.database import Store
from ..play.timeline import Timeline
from ..rulesets import get_ruleset
from .views import event_row, log_rows

LOGS_KEPT = 16
"""Games whose log rows are kept between heads (the most recently viewed)."""
ROWS_A_PAGE = 200
"""Rows of the log on a game's page; older rows are on the pages `?before=SEQ` names."""


class GameLog:
    """One game's timeline, state and log rows at its head `head`."""

    def __init__(self, store: Store, game_id: str, head: int):
        self.game_id = game_id
        self.timeline = Timeline(store.events(game_id, upto=head))
        self.state = store.state(game_id, head)
        self.rows = log_rows(self.timeline, self.state)
        self.at = {row["seq"]: i for i, row in enumerate(self.rows)}
        ruleset = get_ruleset(self.state.ruleset)
        self.hidden = {seq for seq, e in self.timeline.records if ruleset.hidden(self.state, e)}
        """The seqs a spectator cannot read yet: re-worded when a later event reveals them."""

    @property
    def head(self) -> int:
        return self.timeline.head

    def extend(self, store: Store, head: int) -> None:
        """Bring the rows to the head `head`: the new events' rows added, the rows the new events
        are about (undone, corrected, noted, revealed) made again, every other row kept."""
        envelopes = store.events(self.game_id, after=self.head, upto=head)
        if not envelopes:
            return
        notes, undone_by = self.timeline.notes, self.timeline.undone_by
        for envelope in envelopes:
            self.timeline.append(envelope)
        self.state = store.state(self.game_id, head)
        ruleset = get_ruleset(self.state.ruleset)
        revealed = {seq for seq in self.hidden if not ruleset.hidden(self.state, self.timeline.event(seq))}
        self.hidden = (self.hidden - revealed) | {e.seq for e in envelopes if ruleset.hidden(self.state, e.payload)}
        targeted = {e.payload.target for e in envelopes if isinstance(e.payload, EventVoided | EventCorrected)}
        noted = _changed(notes, self.timeline.notes) | _changed(undone_by, self.timeline.undone_by)
        for seq in sorted((revealed | targeted | noted) & self.at.keys()):
            self.rows[self.at[seq]] = self._row(self.timeline.envelopes[seq - 1])
        for envelope in envelopes:
            if not isinstance(envelope.payload, Annotation):
                self.at[envelope.seq] = len(self.rows)
                self.rows.append(self._row(envelope))

    def _row(self, envelope: Envelope) -> dict[str, Any]:
        """A row as `log_rows` makes it at the current state."""
        row = event_row(envelope, self.state)
        row["notes"] = self.timeline.notes.get(envelope.seq, [])
        if envelope.seq in self.timeline.undone_by:
            row["undone_by"] = self.timeline.undone_by[envelope.seq]
        return row


@dataclass(frozen=True)
class LogPage:
    """The rows of one page of the log, and the `before=` of the pages next to it (None: no such
    page; 0: the latest page, which needs no `before=`)."""

    rows: list[dict[str, Any]]
    older: int | None
    newer: int | None


def page_of(rows: list[dict[str, Any]], before: int | None, size: int = ROWS_A_PAGE) -> LogPage:
    """The `size` rows before seq `before` (None: the latest `size` rows)."""
    end = len(rows) if before is None else bisect.bisect_left(rows, before, key=lambda row: row["seq"])
    start = max(0, end - size)
    older = rows[start]["seq"] if start > 0 else None
    if end == len(rows):
        newer = None
    else:
        newest = end + size
        newer = 0 if newest >= len(rows) else rows[newest]["seq"]
    return LogPage(rows[start:end], older, newer)


def _changed(before: dict[int, Any], after: dict[int, Any]) -> set[int]:
    """The keys whose values differ between the two."""
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


class GameLogs:
    """The kept logs of the games viewed most recently, each brought to the head asked for.
    Used from the source's worker thread only (one read at a time), so it needs no lock."""

    def __init__(self, kept: int = LOGS_KEPT):
        self.kept = kept
        self.logs: OrderedDict[tuple[int, str], GameLog] = OrderedDict()

    def at(self, store: Store, game_id: str, head: int, opened: int) -> GameLog:
        """The log of `game_id` at `head`, read through the `opened`-th connection of the source
        (a file put in place of another, read through a new one, holds other events under the
        same ids)."""
        key = (opened, game_id)
        log = self.logs.get(key)
        if log is None or log.head > head:
            log = self.logs[key] = GameLog(store, game_id, head)
            while len(self.logs) > self.kept:
                self.logs.popitem(last=False)
        else:
            log.extend(store, head)
        self.logs.move_to_end(key)
        return log
