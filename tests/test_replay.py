"""The replay cursor: the state at any seq equals folding from the start, at a bounded cost."""

from __future__ import annotations

import pytest
from conftest import game, next_turning_point

from ktlog.errors import KtlogError
from ktlog.events import ActivationEnded
from ktlog.play.builder import dash, shoot
from ktlog.play.replay import Replay
from ktlog.reducer import fold


@pytest.fixture
def played():
    g = game(4, 4)
    g.activate("a1", "engage", dash(), shoot("Gun", "b1", "6541", "211"), end=False)
    g.undo()
    g.annotate("Alice forgot the last dash")
    g.add(ActivationEnded(operative="a1"))
    next_turning_point(g, initiative="Bob")
    g.activate("b2", "engage", shoot("Gun", "a2", "6655", "111"))
    next_turning_point(g)
    return g


def test_every_seq_equals_a_fold_from_the_start(played):
    replay = Replay(_envelopes(played), every=10)
    for seq in range(0, len(played.events) + 1):
        state = replay.seek(seq)
        expected = fold(played.events[:seq]) if seq else fold([])
        expected.seq = seq
        assert state == expected, seq
        assert replay.last_seek_cost < 10 + 3  # a snapshot is at most 9 events back (+ an undo's reach)


def _envelopes(g):
    return [e for e, _ in g.sealed("22222222-2222-4222-8222-222222222222", "2026-11-21T10:00:00+00:00")]


def test_step_back_and_jump_to_turning_points(played):
    replay = Replay(_envelopes(played))
    replay.start()
    assert replay.seq == 0 and replay.state.ruleset == ""
    replay.step(3)
    assert replay.seq == 3
    replay.back()
    assert replay.seq == 2
    start = replay.timeline.turning_point_start(2)
    assert replay.seek(start).turning_point == 2 and replay.state.phase == "strategy"
    end = replay.timeline.turning_point_end(1)
    assert replay.seek(end).phase == "between"
    assert replay.timeline.turning_point_end(3) == replay.head  # TP3 is under way: its end is now
    with pytest.raises(KtlogError, match="turning point 4 was not played"):
        replay.timeline.turning_point_start(4)


def test_stepping_by_activation_skips_undone_ones(played):
    replay = Replay(_envelopes(played))
    replay.start()
    firsts = []
    while replay.seq < replay.head:
        replay.next_activation()
        if replay.seq < replay.head:
            firsts.append(replay.state.activation.operative)
    assert firsts[:2] == ["a1", "b1"]
    replay.previous_activation()
    assert replay.state.activation is not None


def test_notes_and_voids_replay_as_recorded(played):
    replay = Replay(_envelopes(played))
    state = replay.end()
    assert [n.text for n in state.notes] == ["Alice forgot the last dash"]
    assert state.operatives["b1"].wounds == 10  # the undone shot never happened
