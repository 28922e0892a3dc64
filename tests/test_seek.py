"""Seeking in a long game and undoing with big teams (issue 26): a state kept for an undo is a
`Checkpoint` sharing the datacards and the logs, and a seek reads only the rewinds after the
snapshot it starts from."""

from __future__ import annotations

from conftest import game

from ktlog.play.builder import dash, shoot
from ktlog.reducer import fold, usable_snapshot_seq
from ktlog.state import Checkpoint
from ktlog.storage.store import Store

GAME = "66666666-6666-4666-8666-666666666666"


def test_a_checkpoint_restores_the_state_as_it_was_kept():
    g = game(4, 4)
    g.activate("a1", "engage", dash(), shoot("Gun", "b1", "6541", "211"))
    state = g.state
    kept = Checkpoint(state)
    expected = fold(g.events)
    g.annotate("after the checkpoint")
    g.activate("b2", "engage", shoot("Gun", "a2", "6655", "111"))
    assert g.state.notes and g.state.attacks != expected.attacks  # the live state went on

    restored = kept.restore()
    assert restored == expected
    assert restored.operatives["a1"].datacard is state.operatives["a1"].datacard  # shared, not copied
    restored.operatives["b1"].wounds = 1
    restored.attacks.clear()  # the restored state is its own: the live one is not touched
    assert g.state.attacks and g.state.operatives["b1"].wounds != 1


def test_a_checkpoint_without_logs_holds_only_what_is_applied_next():
    g = game(2, 2)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"), end=False)
    lean = Checkpoint(g.state).restore(logs=False)
    assert lean.attacks == [] and lean.cp_log == [] and lean.operatives == g.state.operatives
    assert lean.turning_points == g.state.turning_points  # the rules read it back: kept whole


def test_the_usable_snapshot_looks_at_the_voids_up_to_the_seq_sought():
    voids = [(12, 11), (25, 19), (41, 40)]
    assert usable_snapshot_seq([10, 20, 30, 40], voids) == 30  # the void at 41 reaches back past 40
    assert usable_snapshot_seq([10, 20, 30, 40], voids, upto=40) == 40  # ... but comes after seq 40
    assert usable_snapshot_seq([10, 20], voids, upto=30) == 10  # the void at 25 reaches back past 20
    assert usable_snapshot_seq([10], [(12, 9)], upto=12) == 0


def test_a_seek_reads_only_the_undos_after_its_snapshot(tmp_path):
    g = game(4, 4)
    for _ in range(30):  # 30 undos early in the game, none near its end
        g.annotate("a mistake")
        g.undo()
    for _ in range(230):
        g.annotate("a note")
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        read: list[str] = []
        store.conn.set_trace_callback(read.append)
        at = len(g.events) - 5
        state = store.state(GAME, at)
        store.conn.set_trace_callback(None)
    expected = fold(g.events[:at])
    expected.seq = at
    assert state == expected
    rewinds = [sql for sql in read if "EventVoided" in sql]
    assert rewinds == [sql for sql in rewinds if f"seq > {at // 100 * 100} " in sql], rewinds  # from the latest snapshot on
