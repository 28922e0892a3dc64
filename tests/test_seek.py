"""Seeking in a long game and undoing with big teams (issue 26): a state kept for an undo is a
`Checkpoint` sharing the datacards and the logs, and a seek reads only the rewinds after the
snapshot it starts from."""

from __future__ import annotations

import random
import sqlite3
import zlib

import msgspec
import pytest
from conftest import game

from ktlog import state as state_module
from ktlog.play.builder import GameBuilder, dash, shoot
from ktlog.reducer import fold, usable_snapshot_seq
from ktlog.state import UNREAD_LOGS, Checkpoint, decode_state, encode_state
from ktlog.storage.snapshots import SNAPSHOT_EVERY, pack, seal, unpack
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


def chatty(size: int) -> GameBuilder:
    """A game of two `size`-operative teams recorded with notes on 40% of events and 20% of
    them undone and entered again (`benchmarks/run.py`'s chatty_game, smaller)."""
    g = game(size, size)
    rng = random.Random(size)
    for tp in range(1, 3):
        for i in range(1, size + 1):
            for player in "ab":
                g.activate(f"{player}{i}", "engage", dash())
                roll = rng.random()
                if roll < 0.4:
                    g.annotate(f"note {tp}.{i}")
                elif roll < 0.6:  # the activation's end undone and entered again
                    last = g.events[-1]
                    g.undo()
                    g.add(last)
        g.end_turning_point()
        g.turning_point(tp + 1, {"Alice": 5, "Bob": 2}, "Alice")
    return g


def test_the_state_at_any_seq_is_the_fold_from_seq_1_seek_after_seek(tmp_path):
    g = chatty(24)
    assert len(g.events) > 3 * SNAPSHOT_EVERY
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        rng = random.Random(7)
        seqs = [rng.randint(1, len(g.events)) for _ in range(40)]
        for seq in seqs + seqs[::-1]:  # each snapshot decoded once, then restored as it was kept
            state = store.state(GAME, seq)
            expected = fold(g.events[:seq])
            expected.seq = seq
            assert state == expected
            state.notes.clear()  # the caller's to change: what the store keeps is not touched
            state.operatives.clear()
        assert store.state(GAME, seqs[0]) == fold(g.events[: seqs[0]]) or seqs[0] == len(g.events)


def test_a_kept_snapshot_is_let_go_when_another_connection_writes(tmp_path):
    g = chatty(24)
    at = 2 * SNAPSHOT_EVERY + 5
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        assert store.state(GAME, at) == store.state(GAME, at - 1 + 1)  # decoded, then restored as kept
        other = sqlite3.connect(tmp_path / "seek.db")
        with other:
            other.execute("UPDATE snapshots SET state = ? WHERE seq = ?", (zlib.compress(b"\x93\x90\x90\xc0"), 2 * SNAPSHOT_EVERY))
        other.close()
        state = store.state(GAME, at)
    expected = fold(g.events[:at])
    expected.seq = at
    assert state == expected
    assert store.distrusted == [(GAME, 2 * SNAPSHOT_EVERY)]  # read again, and found out


def test_a_snapshot_stores_each_datacard_once_and_still_reads_one_stored_whole():
    whole = msgspec.msgpack.encode(chatty(6).state)  # as snapshots were stored before schema 21
    state = decode_state(whole)
    assert len({id(op.datacard) for op in state.operatives.values()}) == 12  # equal datacards, each its own object
    stored = encode_state(state)
    assert decode_state(stored) == state
    assert len(stored) < len(whole)
    copies = msgspec.msgpack.decode(stored)
    assert len(copies[0]) == len({op.datacard for op in state.operatives.values()})  # the distinct datacards, once each
    copies[1][0] = len(copies[0])  # an operative naming a datacard the state does not hold
    with pytest.raises(msgspec.ValidationError, match="one of its datacards"):
        decode_state(msgspec.msgpack.encode(copies))


def test_a_seek_after_one_folds_from_its_state_without_reading_a_snapshot(tmp_path):
    g = chatty(24)
    at = 2 * SNAPSHOT_EVERY + 40
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        store.state(GAME, at)
        read: list[str] = []
        store.conn.set_trace_callback(read.append)
        stepped = [store.state(GAME, seq) for seq in range(at + 1, at + 4)]  # a replay stepping on
        store.conn.set_trace_callback(None)
    assert not [sql for sql in read if "s.state" in sql]  # no snapshot read, unpacked or decoded
    assert [sql for sql in read if "FROM events" in sql and "payload" in sql and f"seq >= {at + 1}" in sql]  # the events after the kept state
    for seq, state in enumerate(stepped, at + 1):
        expected = fold(g.events[:seq])
        expected.seq = seq
        assert state == expected


def test_the_snapshots_of_a_game_share_their_log_chunks_byte_for_byte(monkeypatch):
    monkeypatch.setattr(state_module, "LOG_CHUNK", 50)
    g = chatty(24)
    earlier, later = encode_state(fold(g.events[:180])), encode_state(fold(g.events[:260]))
    earlier_chunks, later_chunks = msgspec.msgpack.decode(earlier)[3], msgspec.msgpack.decode(later)[3]
    # entries at seqs 61 (CP), 110-145 (warnings, notes), 169 ... 189, 196 (notes), 206-244 (notes): seqs 50-99, 100-149 ...
    assert len(earlier_chunks) == 3 and len(later_chunks) == 4
    assert earlier_chunks[:2] == later_chunks[:2] and earlier_chunks[2] != later_chunks[2]  # the last one grows
    known: dict[bytes, object] = {}
    assert decode_state(earlier, known) == fold(g.events[:180])
    assert set(known) == set(earlier_chunks[:2])  # the last chunk is not kept: a later snapshot extends it
    inflated: list[bytes] = []
    monkeypatch.setattr(state_module, "inflate", lambda packed, limit: inflated.append(packed) or zlib.decompress(packed))
    assert decode_state(later, known) == fold(g.events[:260])
    assert inflated == later_chunks[2:]  # only the chunks not decoded before


def test_a_stored_state_keeps_its_logs_in_its_chunks_only():
    stored = msgspec.msgpack.decode(encode_state(chatty(6).state))
    assert stored[3] and "notes" not in stored[2]
    stored[2]["notes"] = [{"seq": 1, "target": 1, "text": "slipped into the state"}]
    with pytest.raises(msgspec.ValidationError, match="log chunks only"):
        decode_state(msgspec.msgpack.encode(stored))


def test_the_log_chunks_of_a_stored_state_unpack_to_no_more_than_its_limit_together(monkeypatch):
    """A state edited behind ktlog's back cannot hold many chunks that each unpack within the
    limit but together far past it (a zip bomb in pieces): the limit is for all of them."""
    stored = msgspec.msgpack.decode(encode_state(chatty(6).state))
    chunk = zlib.decompress(stored[3][-1])
    stored[3] = [zlib.compress(chunk)] * 3
    monkeypatch.setattr(state_module, "INFLATED_LIMIT", 3 * len(chunk))
    assert len(decode_state(msgspec.msgpack.encode(stored)).notes) == 3 * len(chatty(6).state.notes)  # within the limit: read
    monkeypatch.setattr(state_module, "INFLATED_LIMIT", 3 * len(chunk) - 1)
    with pytest.raises(ValueError, match="larger than INFLATED_LIMIT"):
        decode_state(msgspec.msgpack.encode(stored))


def test_a_seek_decodes_only_the_log_chunks_its_store_has_not_and_equals_the_fold_at_every_seq(tmp_path, monkeypatch):
    monkeypatch.setattr(state_module, "LOG_CHUNK", 150)  # chunk boundaries between the snapshots
    g = chatty(24)
    assert len(g.events) > 4 * SNAPSHOT_EVERY
    for _ in range(60):  # undos at seqs past 500 reaching back past the chunk boundary at 450
        g.undo()
    assert g.events[-1].target < 3 * 150 < 5 * SNAPSHOT_EVERY < len(g.events)
    g.annotate("entered again after the undos")
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        seqs = list(range(1, len(g.events) + 1))
        random.Random(3).shuffle(seqs)
        for seq in seqs:
            expected = fold(g.events[:seq])
            expected.seq = seq
            assert store.state(GAME, seq) == expected, seq
        assert store._decoded.chunks and store.distrusted == []


def test_a_snapshot_stored_before_schema_22_is_read_as_it_is_and_rebuilt_in_chunks(tmp_path):
    g = chatty(24)
    with Store(tmp_path / "seek.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T10:00:00+00:00"))
        for seq, packed in store.conn.execute("SELECT seq, state FROM snapshots").fetchall():  # as schema 21 stored them
            state = decode_state(unpack(packed))
            cards, card_of, lean, _ = msgspec.msgpack.decode(unpack(packed))
            lean.update({name: msgspec.to_builtins(getattr(state, name)) for name in UNREAD_LOGS if getattr(state, name)})
            blob = msgspec.msgpack.encode([cards, card_of, lean])
            event_hash = store.conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()[0]
            store.conn.execute("UPDATE snapshots SET state = ?, seal = ? WHERE seq = ?", (pack(blob), seal(event_hash, blob), seq))
        store.conn.commit()
    with Store(tmp_path / "seek.db") as store:
        at = 2 * SNAPSHOT_EVERY + 7
        assert store.state(GAME, at) == fold(g.events[:at]) and store.distrusted == []
        assert store.rebuild() == 1
        stored = [msgspec.msgpack.decode(unpack(packed)) for (packed,) in store.conn.execute("SELECT state FROM snapshots")]
        assert stored and all(len(s) == 4 and s[3] and "notes" not in s[2] for s in stored)
        assert Store(tmp_path / "seek.db").state(GAME, at) == fold(g.events[:at])
