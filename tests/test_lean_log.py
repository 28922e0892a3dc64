"""The lean log (issue 15, schema 11): events keyed by the game's integer key, ids and hashes as
bytes, no previous-hash column; migration m011 from older databases keeps every value; the
checks the old columns carried still hold (a duplicate event id refused, the chain re-checked)."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import ROOT, game

import ktlog.envelopes
from ktlog.cli import cli
from ktlog.envelopes import GENESIS, decode_payload, seal
from ktlog.errors import InvalidEvent
from ktlog.events import Annotation
from ktlog.files.gamelog import export_lines, write_game_log
from ktlog.play.importer import import_file
from ktlog.play.replay import Replay
from ktlog.play.verify import verify
from ktlog.reducer import fold
from ktlog.state import decode_state
from ktlog.storage.catalog import TABLES
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.snapshots import unpack
from ktlog.storage.store import Store

FIXTURES = ROOT / "tests" / "fixtures"


def old_log(path) -> dict[str, list[tuple]]:
    """A database's events as an older schema stored them (game_id, prev_hash and hash as hex
    text), read raw: game id -> (seq, event id, type, version, recorded at, payload, prev hash, hash)."""
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT game_id, seq, event_id, type, version, recorded_at, payload, prev_hash, hash FROM events ORDER BY position").fetchall()
    conn.close()
    games: dict[str, list[tuple]] = {}
    for game_id, *row in rows:
        games.setdefault(game_id, []).append(tuple(row))
    return games


@pytest.mark.parametrize("fixture, version", [("schema1.db", 1), ("schema6.db", 6), ("schema9.db", 9)])
def test_m011_keeps_every_event_exactly_and_the_games_replay_as_before(tmp_path, fixture, version):
    # schema9.db was written by ktlog at schema 9 (commit 84d4453): sample games 05 (undos and
    # notes) and 10 (Multiplayer Ops), the tiny game with a correction and an undo, signed by Alice.
    path = tmp_path / fixture
    shutil.copy(FIXTURES / fixture, path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == version
    before = old_log(path)
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert set(store.db.table_names()) - {"_sqlite_migrations"} == set(TABLES)
        for table, columns in TABLES.items():
            assert {c.name for c in store.db[table].columns} == set(columns), table
        assert sorted(before) == sorted(g.id for g in store.games())
        for game_id, rows in before.items():
            stored = [(e.seq, e.event_id, e.payload, e.version, e.recorded_at, e.prev_hash, e.hash) for e in store.events(game_id)]
            assert stored == [(s, i, decode_payload(t, v, p), v, at, prev, h) for s, i, t, v, at, p, prev, h in rows]
            state = fold([(s, decode_payload(t, v, p)) for s, _, t, v, _, p, _, _ in rows])
            assert store.state(game_id) == state == Replay.open(store, game_id).end()
        assert all(v.ok for v in verify(store))  # the hashes check again, the projections agree with the log


def test_m011_keeps_snapshots_seals_and_signatures(tmp_path):
    path = tmp_path / "nine.db"
    shutil.copy(FIXTURES / "schema9.db", path)
    old = sqlite3.connect(path)
    snapshots = sorted(old.execute("SELECT game_id, seq, state, seal FROM snapshots"))
    signatures = old.execute("SELECT * FROM signatures").fetchall()
    old.close()
    with Store(path) as store:
        kept = store.conn.execute("SELECT g.id, s.seq, s.state FROM snapshots s JOIN games g USING (game_key) ORDER BY g.id, s.seq")
        unpacked = [(game_id, seq, decode_state(unpack(state))) for game_id, seq, state in kept]
        # the states as they were (m014's rebuild stores them as schema 21 does), seals holding: nothing distrusted below
        assert unpacked == [(game_id, seq, decode_state(state)) for game_id, seq, state, _ in snapshots] and len(snapshots) == 5
        assert store.conn.execute("SELECT * FROM signatures").fetchall() == signatures
        out = CliRunner().invoke(cli, ["--db", str(path), "verify"])
        assert out.exit_code == 0 and "signed by Alice (key " in out.stdout and "not pinned); not by Bob" in out.stdout
        for game in store.games():
            assert not store.distrusted and store.state(game.id, 150) == Replay.open(store, game.id).seek(150)
        assert not store.distrusted


def test_standings_after_m011_are_those_of_the_same_games_imported_afresh(tmp_path):
    path, fresh = tmp_path / "nine.db", tmp_path / "fresh.db"
    shutil.copy(FIXTURES / "schema9.db", path)
    with Store(path) as store, Store(fresh) as other:
        for game in store.games():
            write_game_log(tmp_path / f"{game.id}.jsonl", export_lines(store, game.id))
            assert import_file(other, tmp_path / f"{game.id}.jsonl").status == "imported"
    for command in (["stats", "standings", "--format", "json"], ["games", "--json"]):
        migrated, imported = (CliRunner().invoke(cli, ["--db", str(db), *command]) for db in (path, fresh))
        assert migrated.exit_code == 0 and migrated.stdout == imported.stdout


def test_an_event_id_taken_by_another_game_is_refused_in_append(store, monkeypatch):
    g = game(2, 2)
    first = store.new_game(g.events[0], g.events[1:])
    taken = store.events(first)[3].event_id
    second = store.new_game(g.events[0])
    monkeypatch.setattr(ktlog.envelopes, "event_uuid", lambda recorded_at: taken)
    with pytest.raises(InvalidEvent, match=f"event id {taken} is already stored"):
        store.append(second, g.events[1])
    assert store.game(second).head_seq == 1 and len(store.events(second)) == 1


def test_an_event_id_taken_by_another_game_is_refused_in_import(store, tmp_path):
    g = game(2, 2)
    first = store.new_game(g.events[0], g.events[1:])
    copied, prev = [], GENESIS  # the same events, ids and all, sealed again into another game
    other = "00000000-0000-4000-8000-000000000001"
    for e in store.events(first):
        envelope, payload = seal(other, e.seq, e.payload, prev, event_id=e.event_id, recorded_at=e.recorded_at)
        copied.append(_line(envelope))
        prev = envelope.hash
    header = export_lines(store, first)[0].replace(first.encode(), other.encode())
    write_game_log(tmp_path / "copy.jsonl", [header, *copied])
    out = CliRunner().invoke(cli, ["--db", str(store.path), "import", str(tmp_path / "copy.jsonl")])
    assert out.exit_code == 1 and f"is already the id of seq 1 of game {first[:8]}" in out.stderr
    assert not store.has_game(other)


def _line(envelope) -> bytes:
    from ktlog.files.gamelog import _encoder

    return _encoder.encode(envelope)


def test_event_ids_that_are_not_uuids_are_kept_as_text(store):
    g = game(1, 1)
    sealed, prev = [], GENESIS
    ids = ["abcdefghijklmnop", "0123456789abcdef0123456789abcdef", "E-3"]  # 16 characters: never taken for 16 bytes
    for seq, event in enumerate(g.events, 1):
        envelope, payload = seal("00000000-0000-4000-8000-000000000002", seq, event, prev, event_id=ids[seq - 1] if seq <= 3 else None)
        sealed.append((envelope, payload))
        prev = envelope.hash
    store.import_envelopes("00000000-0000-4000-8000-000000000002", sealed)
    read = store.events("00000000-0000-4000-8000-000000000002")
    assert [e.event_id for e in read] == [e.event_id for e, _ in sealed] and read[:3] == [e for e, _ in sealed[:3]]
    kinds = store.conn.execute("SELECT typeof(event_id), count(*) FROM events GROUP BY 1 ORDER BY 1").fetchall()
    assert kinds == [("blob", len(g.events) - 3), ("text", 3)]
    assert all(v.ok for v in verify(store))


def test_a_deleted_games_row_comes_back_from_the_first_event_which_names_it(store):
    g = game(2, 2)
    gid = store.new_game(g.events[0], g.events[1:])
    score = CliRunner().invoke(cli, ["--db", str(store.path), "score", gid[:8]]).stdout
    store.conn.execute("PRAGMA foreign_keys = OFF")
    store.conn.execute("DELETE FROM games")
    assert [v.problem for v in verify(store)] == [
        f"{len(g.events)} events are stored but the game's row is missing from the games table: it was deleted behind ktlog's back"
    ]
    assert store.rebuild() == 1
    assert store.games()[0].id == gid and all(v.ok for v in verify(store))
    assert CliRunner().invoke(cli, ["--db", str(store.path), "score", gid[:8]]).stdout == score


def test_only_a_games_first_event_names_it(store):
    g = game(1, 1)
    gid = store.new_game(g.events[0], g.events[1:])
    named = store.conn.execute("SELECT seq, game_id FROM events WHERE game_id IS NOT NULL").fetchall()
    assert named == [(1, gid)]
    with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
        store.conn.execute(
            "INSERT INTO events (game_key, seq, event_id, type, version, recorded_at, payload, hash, game_id) SELECT game_key, 99, x'00', type, version, recorded_at, payload, hash, game_id FROM events WHERE seq = 1"
        )


def test_a_snapshot_that_unpacks_too_large_or_not_at_all_is_passed_over(store, monkeypatch):
    import zlib

    from ktlog import state
    from ktlog.storage import snapshots

    g = game(3, 3)
    while len(g.events) < snapshots.SNAPSHOT_EVERY + 5:
        g.add(Annotation(target=2, text="a note"))
    gid = store.new_game(g.events[0], g.events[1:])
    monkeypatch.setattr(state, "INFLATED_LIMIT", 1000)
    with pytest.raises(ValueError, match="larger than INFLATED_LIMIT"):
        snapshots.unpack(zlib.compress(bytes(1001)))
    with pytest.raises(ValueError, match="not packed by zlib"):
        snapshots.unpack(b"\x93\x01\x02")
    store.conn.execute("UPDATE snapshots SET state = ?", (zlib.compress(bytes(5000)),))
    fresh = Store(store.path)
    assert fresh.state(gid, snapshots.SNAPSHOT_EVERY + 2) == fold(g.events[: snapshots.SNAPSHOT_EVERY + 2])
    assert fresh.distrusted == [(gid, snapshots.SNAPSHOT_EVERY)]


def test_m011_keeps_a_value_edited_behind_ktlogs_back_and_verify_names_it(tmp_path):
    path = tmp_path / "nine.db"
    shutil.copy(FIXTURES / "schema9.db", path)
    with sqlite3.connect(path) as old:
        old.execute("DROP TRIGGER events_no_update")
        game_id = old.execute("SELECT game_id FROM events WHERE seq = 1 ORDER BY position LIMIT 1").fetchone()[0]
        old.execute("UPDATE events SET hash = 'not a hash' WHERE game_id = ? AND seq = 7", (game_id,))
    with Store(path) as store:
        # Finished, the game is archived since m019: its seq 7 keeps a short hash no content has.
        assert store.conn.execute("SELECT count(*) FROM game_archives WHERE game_key = 1").fetchone()[0] == 1
        verdicts = {v.game_id: v for v in verify(store)}
        assert (verdicts[game_id].bad_seq, verdicts[game_id].problem) == (
            7,
            "the hash does not match the event's content: it was changed after it was recorded",
        )
        assert sum(v.ok for v in verdicts.values()) == 2


def test_a_game_refused_whole_leaves_no_key_behind_for_the_next_game(store, tmp_path):
    """A refused import rolls its games row back; the key it had goes to the next game stored,
    and the refused game, imported again once fixed, gets a key of its own."""
    g = game(2, 2)
    first = store.new_game(g.events[0], g.events[1:])
    taken = store.events(first)[1].event_id
    again = "00000000-0000-4000-8000-000000000003"
    sealed, prev = [], GENESIS
    for seq, event in enumerate(g.events, 1):
        envelope, payload = seal(again, seq, event, prev, event_id=taken if seq == 2 else None)
        sealed.append((envelope, payload))
        prev = envelope.hash
    with pytest.raises(InvalidEvent, match="is already the id of seq 2"):
        store.import_envelopes(again, sealed)
    other = store.new_game(g.events[0], g.events[1:])  # takes the key the refused game had
    store.new_game(g.events[0], g.events[1:], game_id=again)
    keys = dict(store.conn.execute("SELECT id, game_key FROM games"))
    assert len(set(keys.values())) == 3
    for game_id in (first, other, again):
        assert store.conn.execute("SELECT count(*) FROM events WHERE game_key = ?", (keys[game_id],)).fetchone()[0] == len(g.events)
    assert all(v.ok for v in verify(store))


def test_m011_gives_the_freed_pages_back_to_the_disk(tmp_path):
    path = tmp_path / "nine.db"
    shutil.copy(FIXTURES / "schema9.db", path)
    before = path.stat().st_size
    with Store(path) as store:
        assert store.conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        in_use = store.conn.execute("PRAGMA page_count").fetchone()[0] * store.conn.execute("PRAGMA page_size").fetchone()[0]
    # Every page of the file is in use; the later migrations' empty tables and indexes (m013 on,
    # a page each: 20 pages, 80 KB) are most of what keeps it above three quarters of its old size.
    assert path.stat().st_size == in_use < before * 0.8
