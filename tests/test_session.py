"""The recording session behind the record screen and `ktlog event`/`undo`/`annotate`."""

from __future__ import annotations

import pytest
from tui_support import tiny_game

from ktlog import events as ev
from ktlog.errors import ConcurrencyConflict, RuleViolation
from ktlog.play.session import NothingToDo, RecordingSession


def test_record_undo_and_annotate_keep_state_and_timeline_in_step(store):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    head = session.seq
    assert session.timeline.head == head  # read once ...
    recorded = session.record(ev.OperativeActivated(operative="trooper-1", order="engage"))
    assert recorded.seq == head + 1 and session.state == store.state(gid)
    assert session.timeline.head == head + 1  # ... then kept in step, not read again
    undone = session.undo()
    assert undone.undone == (head + 1, recorded.event) and session.state.activation is None
    assert session.timeline.undone_by == {head + 1: undone.seq}
    noted = session.annotate(head, "  a note  ")
    assert session.timeline.notes == {head: ["a note"]} and noted.seq == head + 3


def test_a_refused_event_can_be_recorded_with_an_override(store):
    session = RecordingSession(store, tiny_game(store))
    with pytest.raises(RuleViolation):
        session.record(ev.TurningPointEnded(turning_point=1))  # operatives still ready
    assert session.refused is not None
    with pytest.raises(NothingToDo, match="Give the reason"):
        session.override("  ")
    recorded = session.override("a kill team rule")
    assert recorded.event.override == "a kill team rule" and session.refused is None
    assert recorded.after.warnings[-1].reason == "a kill team rule" and len(recorded.after.warnings) == len(recorded.before.warnings) + 1


def test_a_second_writer_is_caught_and_the_event_kept_for_retry(store):
    gid = tiny_game(store)
    mine, theirs = RecordingSession(store, gid), RecordingSession(store, gid)
    theirs.record(ev.OperativeActivated(operative="trooper-1", order="engage"))
    with pytest.raises(ConcurrencyConflict):
        mine.record(ev.OperativeActivated(operative="trooper-2", order="engage"))
    assert mine.pending is not None and mine.seq == theirs.seq  # reloaded on the other's events
    with pytest.raises(RuleViolation):  # trooper-1 is active now: the kept event is refused on the new state
        mine.retry()


def test_the_command_line_session_appends_at_the_head_unless_told(store):
    gid = tiny_game(store)
    stale = RecordingSession(store, gid, expect_next=False)
    RecordingSession(store, gid).record(ev.OperativeActivated(operative="trooper-1", order="engage"))
    assert stale.annotate(1, "late but fine").seq == store.game(gid).head_seq


def test_nothing_to_undo_retry_or_note(store):
    session = RecordingSession(store, tiny_game(store, to="setup"))
    with pytest.raises(NothingToDo, match="Nothing waits"):
        session.retry()
    with pytest.raises(NothingToDo, match="empty"):
        session.annotate(1, " ")
    while session.latest() is not None:
        session.undo()
    with pytest.raises(NothingToDo, match="only the game's creation is left"):
        session.undo()


def test_check_tries_events_without_storing_them(store):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    head = store.game(gid).head_seq
    state = session.check([ev.OperativeActivated(operative="trooper-1", order="engage")])
    assert state.activation is not None and store.game(gid).head_seq == head
