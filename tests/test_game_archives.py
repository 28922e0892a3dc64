"""Issue 26's storage target: a finished game's events but its head are archived (`storage.log`:
zlib blocks in `game_archives`, every event id in `event_ids`), in the transaction that finishes
it, and read back byte for byte; an archived event's id stays taken; a game that goes on after
its end (an undo of the end) is archived again when it ends again."""

from __future__ import annotations

import contextlib
import sqlite3

import pytest
from raw_log import RawLog

from ktlog.data import SAMPLE_GAMES
from ktlog.envelopes import GENESIS, seal
from ktlog.errors import GameNotFound, InvalidEvent
from ktlog.events import Annotation, EventVoided
from ktlog.files.gamelog import export_lines, read_game_log
from ktlog.play.simulate import simulate_games
from ktlog.play.verify import verify
from ktlog.storage import log
from ktlog.storage.store import Store

SAMPLES = sorted(SAMPLE_GAMES.glob("*.jsonl"))


def layout(store: Store, game_id: str) -> tuple[list[int], list[tuple[int, int]]]:
    """The seqs a game keeps as rows, and its archived blocks' (first, last) seqs."""
    key = store.conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    rows = [s for (s,) in store.conn.execute("SELECT seq FROM events WHERE game_key = ? ORDER BY seq", (key,))]
    blocks = store.conn.execute("SELECT first_seq, last_seq FROM game_archives WHERE game_key = ? ORDER BY first_seq", (key,)).fetchall()
    return rows, blocks


def in_progress(sealed: list) -> tuple[Store, int]:
    """A store holding the longest start of these events that does not finish the game (rows only)."""
    for n in range(len(sealed) - 1, 0, -1):
        store = Store(":memory:")
        store.import_envelopes(sealed[0][0].game_id, sealed[:n])
        if store.game(sealed[0][0].game_id).status != "finished":
            return store, n
        store.close()
    raise AssertionError("the game is finished from its first event")


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem[:2] for p in SAMPLES])
def test_an_archived_game_exports_byte_for_byte_as_its_rows_did(tmp_path, path):
    """Each sample game (written by ktlog before archives existed) imported finished, so archived
    but its head, exports the same event lines, byte for byte, as the same events stored as rows
    (the game before its end: not finished, nothing archived), and reads back the same envelopes."""
    _, sealed = read_game_log(path)
    game_id = sealed[0][0].game_id
    rows, n = in_progress(sealed)
    with Store(tmp_path / "archived.db") as archived, rows:
        archived.import_envelopes(game_id, sealed)
        assert layout(archived, game_id) == ([len(sealed)], [(1, len(sealed) - 1)])
        assert layout(rows, game_id) == (list(range(1, n + 1)), [])
        assert export_lines(archived, game_id)[1 : n + 1] == export_lines(rows, game_id)[1:]
        assert archived.sealed(game_id, upto=n) == rows.sealed(game_id)
        assert [v.ok for v in verify(archived)] == [True]


def test_a_games_records_are_its_events_as_a_fold_reads_them_archived_or_in_rows(tmp_path):
    """`records` (what `ktlog analyse` folds) gives each stored event's seq and event, as
    `events` does without its envelope: a finished game archived but its head, the same game
    stored as rows before its end, and an unknown game refused, named."""
    _, sealed = read_game_log(SAMPLES[0])
    game_id = sealed[0][0].game_id
    rows, n = in_progress(sealed)
    with Store(tmp_path / "archived.db") as archived, rows:
        archived.import_envelopes(game_id, sealed)
        assert archived.records(game_id) == [(e.seq, e.payload) for e, _ in sealed]
        assert rows.records(game_id) == [(e.seq, e.payload) for e, _ in sealed[:n]]
        with pytest.raises(GameNotFound, match="no game 'nope'"):
            archived.records("nope")


def test_the_end_event_archives_the_game_in_its_transaction_and_an_undo_goes_on_in_rows(tmp_path):
    (game_id, g), *_ = simulate_games(1, 5)
    with Store(tmp_path / "league.db") as store:
        store.new_game(g.events[0], g.events[1:-1], game_id=game_id)
        head = len(g.events)
        assert layout(store, game_id) == (list(range(1, head)), [])
        before = store.sealed(game_id)
        store.append(game_id, g.events[-1])
        assert layout(store, game_id) == ([head], [(1, head - 1)])
        assert store.sealed(game_id)[:-1] == before
        ids = store.conn.execute("SELECT count(*) FROM event_ids").fetchone()[0]
        assert ids == head  # the archived events' ids are kept taken
        store.append(game_id, EventVoided(target=head))  # the end undone: the game goes on
        store.append(game_id, Annotation(target=3, text="a note after the undo"))
        assert layout(store, game_id) == ([head, head + 1, head + 2], [(1, head - 1)])
        store.append(game_id, g.events[-1])  # it ends again: what was a row since is archived too
        assert layout(store, game_id) == ([head + 3], [(1, head - 1), (head, head + 2)])
        assert [e.payload for e in store.events(game_id)] == [
            *g.events,
            EventVoided(target=head),
            Annotation(target=3, text="a note after the undo"),
            g.events[-1],
        ]
        assert [v.ok for v in verify(store)] == [True]
        fresh = Store(store.path)
        assert fresh.state(game_id) == store.state(game_id) and fresh.state(game_id, 150) == store.state(game_id, 150)


def test_an_archived_events_id_is_refused_to_another_game_naming_its_seq(tmp_path):
    (game_id, g), *_ = simulate_games(1, 5)
    with Store(tmp_path / "league.db") as store:
        store.new_game(g.events[0], g.events[1:], game_id=game_id)
        copied = store.sealed(game_id)
        other = "00000000-0000-4000-8000-000000000001"
        sealed, prev = [], GENESIS
        for e, _ in copied[:5]:
            envelope, payload = seal(other, e.seq, e.payload, prev, event_id=e.event_id, recorded_at=e.recorded_at)
            sealed.append((envelope, payload))
            prev = envelope.hash
        with pytest.raises(InvalidEvent) as refused:
            store.import_envelopes(other, sealed)
        assert f"is already the id of seq 1 of game {game_id[:8]}" in str(refused.value)
        assert not store.has_game(other)


def test_a_crash_before_the_commit_leaves_the_rows_and_no_block(tmp_path):
    """Archiving is part of the end event's transaction: if it fails, the event and the
    archive are both rolled back (the rows stay, the game is as before)."""
    (game_id, g), *_ = simulate_games(1, 5)
    with Store(tmp_path / "league.db") as store:
        store.new_game(g.events[0], g.events[1:-1], game_id=game_id)
        before = store.sealed(game_id)

        def crash(conn: sqlite3.Connection, key: int, upto: int) -> int:
            archive(conn, key, upto)
            raise OSError("the disk went away")

        archive = log.archive
        log.archive = crash  # type: ignore[assignment]
        try:
            with pytest.raises(OSError):
                store.append(game_id, g.events[-1])
        finally:
            log.archive = archive
        assert layout(store, game_id) == (list(range(1, len(g.events))), [])
        assert Store(store.path).sealed(game_id) == before


def test_an_archived_row_cannot_be_deleted_and_a_live_one_neither(tmp_path):
    (game_id, g), *_ = simulate_games(1, 5)
    with Store(tmp_path / "league.db") as store:
        store.new_game(g.events[0], g.events[1:], game_id=game_id)
        head = len(g.events)
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.conn.execute("DELETE FROM events WHERE seq = ?", (head,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.conn.execute("DELETE FROM game_archives")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.conn.execute("UPDATE game_archives SET events = x'00'")


def test_an_edit_of_an_archived_event_is_named_by_its_seq_and_the_chain_is_checked_in_full(tmp_path):
    """The short hash names the seq of an edit; the chain itself is checked in full at the
    block's end (the hash of its last event), where an edit the short hashes let by would fail."""
    (game_id, g), *_ = simulate_games(1, 5)
    db = tmp_path / "league.db"
    with Store(db) as store:
        store.new_game(g.events[0], g.events[1:], game_id=game_id)
        head = len(g.events)
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("DROP TRIGGER archives_no_update")
        raw = RawLog(conn, game_id)
        recorded_at = raw.get(20)["recorded_at"]
        raw.update(20, recorded_at="2020-01-01T00:00:00+00:00")
    with Store(db) as store:
        (verdict,) = verify(store)
        assert (verdict.bad_seq, verdict.problem) == (20, "the hash does not match the event's content: it was changed after it was recorded")
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        RawLog(conn, game_id).update(20, recorded_at=recorded_at)  # as it was
        conn.execute("UPDATE game_archives SET last_hash = zeroblob(32)")
    with Store(db) as store:
        (verdict,) = verify(store)
        assert verdict.bad_seq == head - 1 and "the hash does not match" in str(verdict.problem)


def test_a_seek_in_an_archived_game_reads_what_the_rows_hold_across_its_blocks(tmp_path, monkeypatch):
    """A seek reads an archived game's events without their hashes (`log.payloads`), and the rewinds
    before its snapshot from the blocks, by their place in a block: with blocks of 7 events, every
    range of seqs reads what the game's rows held, and the state at every seq is the one the same
    game in rows gives (its snapshots every 100 seqs, undos among its events)."""
    monkeypatch.setattr(log, "BLOCK_EVENTS", 7)
    _, sealed = read_game_log(next(p for p in SAMPLES if p.name.startswith("05_undo")))
    game_id = sealed[0][0].game_id
    rows, n = in_progress(sealed)
    with Store(tmp_path / "archived.db") as archived, rows:
        archived.import_envelopes(game_id, sealed)
        assert len(layout(archived, game_id)[1]) == -(-(len(sealed) - 1) // 7)
        key = archived._key(game_id)
        voids = [r[0] for r in rows.conn.execute("SELECT seq FROM events WHERE type = 'EventVoided'")]
        assert voids
        for first, last in [(1, n), (1, 1), (6, 8), (7, 7), (8, 14), (13, 30), (n - 9, n), (n, n)] + [(v, v) for v in voids] + [(v + 1, v + 9) for v in voids]:
            expected = [
                (r[0], r[2], r[3], r[5])
                for r in rows.conn.execute("SELECT seq, 0, type, version, 0, payload FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq", (first, last))
            ]
            assert log.payloads(archived.conn, key, first, last) == expected, (first, last)
            assert sorted(log.rewind_targets(archived.conn, key, first - 1, last)) == sorted(log.rewind_targets(rows.conn, rows._key(game_id), first - 1, last))
        for seq in range(1, n + 1):
            assert archived.state(game_id, seq) == rows.state(game_id, seq), seq


def test_an_archived_events_hash_is_worked_out_only_as_far_as_it_is_asked(tmp_path, monkeypatch):
    """A seek checks the seal of its snapshot against the chain up to the snapshot's event: the
    hashes of an archived block are worked out as far as a reader asked, each once, and they are
    the hashes the events were recorded with."""
    _, sealed = read_game_log(SAMPLES[0])
    game_id = sealed[0][0].game_id
    worked_out = []
    chain_hash = log.chain_hash
    monkeypatch.setattr(log, "chain_hash", lambda *args: worked_out.append(args[2]) or chain_hash(*args))
    with Store(tmp_path / "archived.db") as store:
        store.import_envelopes(game_id, sealed)
        key = store._key(game_id)
        log._chain.cache_clear()
        assert log.hashes(store.conn, key, [10]) == {10: bytes.fromhex(sealed[9][0].hash)}
        assert worked_out == list(range(1, 11))
        assert log.hashes(store.conn, key, [5, 40]) == {5: bytes.fromhex(sealed[4][0].hash), 40: bytes.fromhex(sealed[39][0].hash)}
        assert worked_out == list(range(1, 41))
        assert [e.hash for e in store.events(game_id)] == [e.hash for e, _ in sealed]
        assert worked_out == list(range(1, len(sealed)))  # the head is a row: its hash is stored
