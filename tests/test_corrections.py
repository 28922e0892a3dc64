"""Correcting an earlier event (issue 16): the correction is an event that makes its target count
as another event; the later events are checked again against the corrected history."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tui_support import tiny_game

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.errors import RuleViolation
from ktlog.files.gamelog import read_game_log
from ktlog.play.replay import Replay
from ktlog.play.session import RecordingSession
from ktlog.play.verify import verify
from ktlog.reducer import fold
from ktlog.storage.store import Store

INITIATIVE = 9
"""The seq of tiny_game's InitiativeDecided (Alice, who won the set-up roll-off 6 to 1)."""


@pytest.fixture
def session(store):
    return RecordingSession(store, tiny_game(store))


def test_a_wrong_amount_of_damage_is_corrected_after_later_events(session, store):
    damage = session.record(ev.DamageInflicted(operative="bob-trooper-1", damage=2, source="mine")).seq
    session.record(ev.OperativeActivated(operative="trooper-1", order="engage"))
    session.annotate(damage, "the mine was a D3")
    recorded = session.correct(damage, ev.DamageInflicted(operative="bob-trooper-1", damage=3, source="mine"))
    assert session.state.operatives["bob-trooper-1"].wounds == 6 - 3  # the tiny team's troopers: 6 wounds
    assert session.state.activation.operative == "trooper-1"  # the later events still count
    assert store.state(session.game_id) == session.state == fold(store.events(session.game_id))
    assert session.timeline.corrected_by == {damage: recorded.seq}
    assert session.state.seq == recorded.seq


def test_a_correction_that_makes_a_later_event_illegal_is_refused_naming_its_seq_and_rule(session, store):
    head = session.seq
    with pytest.raises(RuleViolation) as refused:
        session.correct(INITIATIVE, ev.InitiativeDecided(player="Bob"))
    # pg 81: the player with set-up initiative does not place the first marker; Bob did at seq 10
    assert refused.value.seq == INITIATIVE + 1 and refused.value.rule == "pg 81"
    assert f"the correction of seq {INITIATIVE} makes seq {INITIATIVE + 1} (Bob sets up objective marker centre) illegal" in refused.value.message
    assert store.state(session.game_id).seq == head and session.refused is not None  # nothing stored; ! can override it
    kept = session.override("the roll-off was misrecorded")
    assert kept.after.setup_initiative == "Bob"
    warned = {w.seq for w in kept.after.warnings if w.reason == f"corrected at seq {kept.seq}: the roll-off was misrecorded"}
    assert INITIATIVE + 1 in warned and 18 in warned  # the first marker, trooper-1 set up first (pg 110)
    assert all(v.ok for v in verify(store))


def test_undo_takes_a_correction_back_and_the_stored_rows_follow(session, store):
    damage = session.record(ev.DamageInflicted(operative="bob-trooper-1", damage=2, source="mine")).seq
    session.record(ev.OperativeActivated(operative="trooper-1", order="engage"))
    session.correct(damage, ev.DamageInflicted(operative="bob-trooper-1", damage=6, source="mine"))
    assert session.state.operatives["bob-trooper-1"].incapacitated
    assert store.db["incapacitations"].count == 1
    session.undo()
    assert session.state.operatives["bob-trooper-1"].wounds == 4 and store.db["incapacitations"].count == 0
    assert all(v.ok for v in verify(store))


def test_a_correction_cannot_replace_the_creation_or_reach_forward(session):
    with pytest.raises(RuleViolation, match="not its creation"):
        session.correct(1, ev.CritOpRolled(roll=2))
    with pytest.raises(RuleViolation, match="not an earlier event that counts"):
        session.correct(session.seq + 5, ev.CritOpRolled(roll=2))


def test_the_replay_and_the_log_show_the_original_and_the_correction(session, store, tmp_path):
    damage = session.record(ev.DamageInflicted(operative="bob-trooper-1", damage=2, source="mine")).seq
    correction = session.correct(damage, ev.DamageInflicted(operative="bob-trooper-1", damage=5, source="mine")).seq
    replay = Replay.open(store, session.game_id)
    assert replay.seek(damage).operatives["bob-trooper-1"].wounds == 4  # as recorded then
    assert replay.seek(correction).operatives["bob-trooper-1"].wounds == 1  # as corrected
    db = store.path
    log = CliRunner().invoke(cli, ["--db", str(db), "log", session.game_id[:8]]).output
    assert f"bob-trooper-1 takes 2 damage (mine)  [corrected by seq {correction}]" in log
    assert f"correction of seq {damage}: bob-trooper-1 takes 5 damage (mine)" in log
    out = tmp_path / "game.jsonl"
    assert CliRunner().invoke(cli, ["--db", str(db), "export", session.game_id[:8], "-o", str(out)]).exit_code == 0
    header, sealed = read_game_log(out)
    other = Store(tmp_path / "other.db")
    other.import_envelopes(header.game_id, sealed)
    assert other.state(header.game_id).operatives["bob-trooper-1"].wounds == 1


def test_ktlog_correct_from_the_command_line(store):
    gid = tiny_game(store)
    run = CliRunner()
    refused = run.invoke(cli, ["--db", str(store.path), "correct", gid[:8], str(INITIATIVE), "InitiativeDecided", "player=Bob"])
    assert refused.exit_code == 1 and f"makes seq {INITIATIVE + 1}" in refused.output and "(pg 81)" in refused.output
    kept = run.invoke(cli, ["--db", str(store.path), "correct", gid[:8], str(INITIATIVE), "InitiativeDecided", "player=Bob", "--override", "misrecorded"])
    assert kept.exit_code == 0, kept.output
    assert f"correction of seq {INITIATIVE}: Bob has initiative" in kept.output
    assert f"kept with the override: seq {INITIATIVE + 1}" in kept.output
    assert store.state(gid).setup_initiative == "Bob"
