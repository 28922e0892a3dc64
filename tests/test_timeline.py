"""The timeline: what still counts, undo pairs, notes, landmarks and secrets, computed once for every view."""

from __future__ import annotations

import pytest
from conftest import game
from tui_support import sample

from ktlog import events as ev
from ktlog.files.gamelog import read_game_log
from ktlog.play.builder import dash
from ktlog.play.timeline import Timeline
from ktlog.reducer import fold


def _timeline(g) -> Timeline:
    return Timeline([e for e, _ in g.sealed("33333333-3333-4333-8333-333333333333", "2026-11-21T10:00:00+00:00")])


@pytest.fixture
def undone():
    g = game(2, 2)
    g.activate("a1", "engage", dash(), end=False)
    dashed = len(g.events)
    g.annotate("first note", target=dashed)
    g.undo()  # the note goes
    g.undo()  # then the dash
    g.undo()  # then the activation
    g.annotate("kept note", target=dashed - 2)
    return g, dashed


def test_undo_pairs_notes_and_what_still_counts(undone):
    g, dashed = undone
    t = _timeline(g)
    note, first_undo = dashed + 1, dashed + 2
    assert t.undone_by == {note: first_undo, dashed: first_undo + 1, dashed - 1: first_undo + 2}
    assert not {dashed - 1, dashed, note, first_undo} & t.kept
    assert t.notes == {dashed - 2: ["kept note"]}
    assert [seq for seq, _ in t.counting] == [seq for seq in range(1, t.head + 1) if seq in t.kept]
    assert t.latest() == (t.head, ev.Annotation(target=dashed - 2, text="kept note"))


def test_appending_forgets_what_was_derived(undone):
    g, dashed = undone
    envelopes = [e for e, _ in g.sealed("33333333-3333-4333-8333-333333333333", "2026-11-21T10:00:00+00:00")]
    t = Timeline(envelopes[:-1])
    assert t.notes == {}
    t.append(envelopes[-1])
    assert t.notes == {dashed - 2: ["kept note"]} and t.head == envelopes[-1].seq


def test_landmarks_skip_undone_events(undone):
    g, _ = undone
    t = _timeline(g)
    assert t.activations() == []  # the only activation was undone with its dash
    assert list(t.turning_points.values()) == [1] and t.turning_point_start(1) in t.turning_points


def test_the_ruleset_says_which_rows_a_spectator_sees_revealed_later():
    _, sealed = read_game_log(sample("08"))
    t = Timeline([e for e, _ in sealed])
    final = fold(t.records)
    later = {type(t.event(seq)).__name__ for seq in t.revealed_later(final)}
    assert {"TacOpSelected", "TacOpRevealed", "PrimaryOpSelected"} <= later
    assert all(t.hidden(t.created, t.event(seq)) and not t.hidden(final, t.event(seq)) for seq in t.revealed_later(final))
    assert not any(isinstance(t.event(seq), ev.OperativeActivated) for seq in t.revealed_later(final))
