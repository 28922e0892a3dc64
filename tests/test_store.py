"""The SQLite event store: append-only log, hash chain, concurrency, snapshots, projections, bad files."""

from __future__ import annotations

import sqlite3

import msgspec
import pytest
from conftest import game

from ktlog.errors import ConcurrencyConflict, RuleViolation, StoreError
from ktlog.events import ActivationEnded, Annotation, DisputeResolved, EventDisputed, EventVoided, GameCreated, OperativeActivated
from ktlog.play.builder import dash, shoot
from ktlog.play.session import NothingToDo, RecordingSession
from ktlog.play.simulate import simulate_games
from ktlog.reducer import fold
from ktlog.storage import event_log as store_module
from ktlog.storage import projections
from ktlog.storage.catalog import PROJECTIONS, TABLES
from ktlog.storage.dbfile import default_db_path
from ktlog.storage.snapshots import SNAPSHOT_EVERY
from ktlog.storage.store import Store


def recorded(store, g):
    """Store a builder's game event by event through append (as a recorder would)."""
    gid = store.new_game(g.events[0])
    for event in g.events[1:]:
        store.append(gid, event)
    return gid


def test_append_validates_commits_and_reads_back(store):
    g = game(2, 2)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"))
    gid = recorded(store, g)
    assert [e.payload for e in store.events(gid)] == g.events
    assert store.state(gid) == g.state
    assert store.game(gid).head_seq == len(g.events)
    with pytest.raises(RuleViolation, match="expended"):
        store.append(gid, OperativeActivated(operative="a1", order="engage"))
    assert store.game(gid).head_seq == len(g.events)  # nothing written


def test_wal_mode_and_durable_commits(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_table_is_append_only(store):
    gid = store.new_game(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("UPDATE events SET payload = '{}' WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", (gid,))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.conn.execute("DELETE FROM events WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", (gid,))


def test_hash_chain_links_every_event(store):
    gid = recorded(store, game(2, 2))
    envelopes = store.events(gid)
    assert envelopes[0].prev_hash == "0" * 64
    for before, after in zip(envelopes, envelopes[1:]):
        assert after.prev_hash == before.hash
    assert store.game(gid).head_seq == envelopes[-1].seq


def test_a_second_writer_at_the_same_seq_gets_a_conflict(tmp_path):
    path = tmp_path / "shared.db"
    first, second = Store(path), Store(path)
    g = game(2, 2)
    gid = recorded(first, g)
    nxt = len(g.events) + 1
    first.append(gid, OperativeActivated(operative="a1", order="engage"), expected_seq=nxt)
    with pytest.raises(ConcurrencyConflict, match=f"appended at seq {nxt} but another writer already stored seq {nxt}"):
        second.append(gid, OperativeActivated(operative="a1", order="conceal"), expected_seq=nxt)
    # The loser reloads and retries at the next seq.
    second.append(gid, dash()("a1"), expected_seq=nxt + 1)
    assert [e.seq for e in first.events(gid)][-2:] == [nxt, nxt + 1]
    assert first.state(gid).activation.actions == ["Dash"]


def test_a_locked_database_refuses_the_event_and_keeps_nothing_half_written(tmp_path):
    """The terminal UI opens the store with a short busy timeout: a writer holding the lock makes
    its append fail after that timeout (the recorder keeps the event for ctrl+r), not hang."""
    path = tmp_path / "locked.db"
    g = game(2, 2)
    gid = recorded(Store(path), g)
    ui = Store(path, busy_timeout_ms=100)
    assert ui.conn.execute("PRAGMA busy_timeout").fetchone() == (100,)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises((StoreError, sqlite3.OperationalError), match="locked"):
        ui.append(gid, OperativeActivated(operative="a1", order="engage"))
    holder.execute("ROLLBACK")
    ui.append(gid, OperativeActivated(operative="a1", order="engage"))
    assert len(Store(path).events(gid)) == len(g.events) + 1


def test_unique_seq_is_enforced_by_the_database(store):
    recorded(store, game(2, 2))
    columns = "game_key, seq, event_id, type, version, recorded_at, payload, hash, game_id"
    row = store.conn.execute(f"SELECT {columns} FROM events WHERE seq = 1").fetchone()
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE constraint failed: events.game_key, events.seq"):
        store.conn.execute(f"INSERT INTO events ({columns}) VALUES (?,?,?,?,?,?,?,?,?)", (*row[:2], b"other-id", *row[3:]))


def test_snapshots_every_n_and_state_at_any_seq_equals_fold(store):
    from conftest import next_turning_point

    g = game(10, 10)
    while len(g.events) < SNAPSHOT_EVERY * 2 + 7:
        s = g.state
        ready = s.ready_operatives(s.next_player) or s.ready_operatives(s.opponent(s.next_player))
        if ready:
            g.activate(ready[0].id, "engage", dash())
        else:
            next_turning_point(g)
    gid = store.new_game(g.events[0], g.events[1:])
    seqs = [r[0] for r in store.conn.execute("SELECT seq FROM snapshots WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", (gid,))]
    assert seqs == [SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY]
    for at in (1, 50, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, 2 * SNAPSHOT_EVERY + 3):
        assert store.state(gid, at) == fold(g.events[:at])


def test_undo_rewrites_projections(store):
    g = game(5, 5)
    g.activate("a1", "engage", shoot("Gun", "b1", "6666", "111"))
    gid = recorded(store, g)
    assert store.db["vp_changes"].count == 1 and store.db["attacks"].count == 1
    undo(store, gid)  # voids ActivationEnded
    undo(store, gid)  # voids the shot
    assert store.db["vp_changes"].count == 0 and store.db["attacks"].count == 0
    assert store.state(gid).operatives["b1"].wounds == 10
    assert len(store.events(gid)) == len(g.events) + 2  # nothing deleted


def undo(store: Store, gid: str) -> None:
    """Void the latest event that still counts, as the recording session does."""
    RecordingSession(store, gid).undo()


def projection_rows(store: Store) -> dict[str, list[tuple]]:
    return {t: sorted(tuple(r.values()) for r in store.db[t].rows) for t in PROJECTIONS}


def rebuilt(db, copy) -> Store:
    """A copy of the database with every projection rebuilt from the log."""
    copy.unlink(missing_ok=True)
    sqlite3.connect(db).execute(f"VACUUM INTO '{copy}'")
    store = Store(copy)
    store.rebuild()
    return store


def test_undoing_this_stores_latest_events_needs_no_fold_and_agrees_with_one(tmp_path, monkeypatch):
    """An undo of an event this store appended takes the state kept from before it; it is the
    state a fresh store folds from the log, and the projections are the same."""
    g = game(6, 6)
    for op, action in (("a1", dash()), ("b1", shoot("Gun", "a1", "6666", "111")), ("a2", dash())):
        g.activate(op, "engage", action)
    db = tmp_path / "undo.db"
    store = Store(db)
    gid = store.new_game(g.events[0], g.events[1:4])
    for event in g.events[4:]:
        store.append(gid, event)
    folds = []
    monkeypatch.setattr(Store, "_state_from_snapshot", lambda self, *a, **k: folds.append(a) or pytest.fail("folded"))
    for _ in range(5):  # back to before a2's activation: every undo from the kept states
        undo(store, gid)
        monkeypatch.undo()
        fresh = Store(db)
        assert store.state(gid) == fresh.state(gid) == fold(store.events(gid))
        fresh.close()
        assert projection_rows(store) == projection_rows(rebuilt(db, tmp_path / "rebuilt.db"))
        monkeypatch.setattr(Store, "_state_from_snapshot", lambda self, *a, **k: folds.append(a) or pytest.fail("folded"))
    assert folds == []
    monkeypatch.undo()
    store.append(gid, g.events[len(g.events) - 5])  # recorded again after the undos
    assert store.state(gid) == fold(store.events(gid))


def test_undoing_many_of_this_stores_appends_in_a_row_folds_none_and_agrees_with_a_fold(tmp_path, monkeypatch):
    """The states kept for undo are encoded every few appends (`storage.recent`), not on each:
    undoing past several of them, each state is the fold's, and none is folded from a snapshot."""
    from ktlog.storage.recent import EVERY

    g = game(6, 6)
    for op in ("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"):
        g.activate(op, "engage", dash())
    store = Store(tmp_path / "undo.db")
    gid = store.new_game(g.events[0], g.events[1:4])
    for event in g.events[4:]:
        store.append(gid, event)
    assert len(g.events) - 4 > 2 * EVERY
    monkeypatch.setattr(Store, "_state_from_snapshot", lambda self, *a, **k: pytest.fail("folded"))
    states = []
    for _ in range(2 * EVERY):
        undo(store, gid)
        states.append(store.state(gid))
    monkeypatch.undo()
    fresh = Store(tmp_path / "undo.db")
    assert states[-1] == fresh.state(gid) == fold(store.events(gid))
    assert [msgspec.structs.replace(s, seq=0) for s in states] == [msgspec.structs.replace(fold(g.events[: -n - 1]), seq=0) for n in range(2 * EVERY)]


def test_an_append_reads_nothing_before_writing_while_no_one_else_writes(tmp_path):
    """Issue 26: an append is its INSERT and the head's UPDATE (and, here, SQLite's data_version);
    it read the damage mark and the head before. Another connection's commit makes it read them again."""
    g = game(2, 2)
    g.activate("a1", "engage", dash())
    store, other = Store(tmp_path / "two.db"), Store(tmp_path / "two.db")
    gid = store.new_game(g.events[0], g.events[1:-2])
    store.append(gid, g.events[-2])
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    store.append(gid, g.events[-1])
    # The INSERT is traced again for the trigger putting the event's id in event_ids (`storage.log`).
    assert [s.split()[0] for s in dict.fromkeys(statements)] == ["BEGIN", "PRAGMA", "INSERT", "UPDATE", "COMMIT"]
    other.append(gid, Annotation(target=1, text="from the other table"))
    statements.clear()
    store.append(gid, Annotation(target=2, text="mine"))
    words = [s.split()[:4] for s in statements]
    assert words[2:4] == [["SELECT", "value", "FROM", "meta"], ["SELECT", "head_seq,", "head_hash", "FROM"]]  # then the state, refolded
    assert [w[0] for w in words[-3:]] == ["INSERT", "UPDATE", "COMMIT"]
    assert store.game(gid).head_seq == len(g.events) + 2 and store.state(gid) == fold(store.events(gid))


def test_the_games_row_follows_every_append_though_its_columns_are_worked_out_only_on_change(tmp_path):
    """Issue 26: an append works out the games row's derived columns only when what they follow
    from changed (`projections.columns_key`). After every append of a whole game (set-up, the
    battle, its end) and of a dispute raised, undone, raised again and resolved, the row is what
    the state gives, and its updated_at is when the last event was recorded."""
    store = Store(tmp_path / "row.db")
    (_, simulated), *_ = simulate_games(1, seed=5)
    g = game(2, 2)
    g.activate("a1", "engage", dash())
    disputes = [
        EventDisputed(target=len(g.events), reason="it was conceal", seat="Bob"),
        EventVoided(target=len(g.events) + 1),
        EventDisputed(target=len(g.events), reason="it was conceal", seat="Bob"),
        DisputeResolved(dispute=len(g.events) + 3, outcome="withdrawn", seat="Bob"),
    ]
    ids = []
    for events in (simulated.events, [*g.events, *disputes]):
        gid = store.new_game(events[0])
        ids.append(gid)
        for event in events[1:]:
            store.append(gid, event)
            row = store.listing._rows("SELECT * FROM games WHERE id = ?", [gid])[0]
            columns = projections.game_columns(store.state(gid))
            assert {c: row[c] for c in columns} == columns, event
            assert row["updated_at"] == store.events(gid, after=row["head_seq"] - 1)[-1].recorded_at
    assert [store.game(i).status for i in ids] == ["finished", "in progress"]
    assert store.conn.execute("SELECT head_seq, disputes FROM games WHERE id = ?", (gid,)).fetchone() == (len(g.events) + len(disputes), 0)


@pytest.mark.parametrize("marked_by", ["this store", "another connection"])
def test_an_append_is_refused_once_the_file_is_marked_damaged(tmp_path, marked_by):
    g = game(2, 2)
    store = Store(tmp_path / "d.db")
    gid = recorded(store, g)
    store.append(gid, Annotation(target=1, text="before"))
    marker = store if marked_by == "this store" else Store(tmp_path / "d.db")
    marker.checks.record_file_check(["integrity_check: a page is damaged"])
    with pytest.raises(StoreError, match="failed `ktlog verify`"):
        store.append(gid, Annotation(target=1, text="after"))
    marker.checks.record_file_check([])
    store.append(gid, Annotation(target=1, text="after"))
    assert store.game(gid).head_seq == len(g.events) + 2


def test_an_append_on_a_head_another_writer_moved_is_a_conflict_even_if_unseen(tmp_path):
    """The head's UPDATE names the head the append was made on: were this store's belief wrong,
    the append is refused, not written after another writer's event."""
    g = game(2, 2)
    store = Store(tmp_path / "h.db")
    gid = recorded(store, g)
    store._heads[gid] = (len(g.events), "0" * 64)  # a wrong belief about the head's hash
    with pytest.raises(ConcurrencyConflict):
        store.append(gid, Annotation(target=1, text="note"))
    store.append(gid, Annotation(target=1, text="note"))  # the belief was dropped with the refusal
    assert [e.seq for e in store.events(gid)] == list(range(1, len(g.events) + 2))


def test_a_refusal_after_the_rules_changed_the_state_leaves_the_head_state_as_it_was(store, monkeypatch):
    """An append applies the event to the store's own head state (no copy): a rule that refuses
    after changing it must leave nothing of the change behind, in the state or an undo after."""
    g = game(2, 2)
    g.activate("a1", "engage", dash())
    gid = recorded(store, g)
    before = store.state(gid)

    def refuses_half_way(state, event, seq):
        next(iter(state.players.values())).cp += 5  # the state is changed, as a handler might ...
        raise RuleViolation("refused after the change", "pg 0")  # ... before a later check refuses the event

    monkeypatch.setattr(store_module, "apply_in_place", refuses_half_way)
    with pytest.raises(RuleViolation, match="after the change"):
        store.append(gid, OperativeActivated(operative="b1", order="engage"))
    monkeypatch.undo()
    assert store.state(gid) == before == fold(store.events(gid))
    store.append(gid, OperativeActivated(operative="b1", order="engage"))
    assert store.state(gid) == fold(store.events(gid))
    undo(store, gid)
    after_undo = store.state(gid)
    assert after_undo == fold(store.events(gid))
    assert msgspec.structs.replace(after_undo, seq=before.seq) == before  # the state before b1's activation


def test_an_undo_after_another_writer_folds_from_the_log(tmp_path):
    g = game(6, 6)
    g.activate("a1", "engage", dash())
    db = tmp_path / "two.db"
    mine, theirs = Store(db), Store(db)
    gid = mine.new_game(g.events[0], g.events[1:-1])
    mine.append(gid, g.events[-1])
    undo(theirs, gid)  # the other writer undoes my last event ...
    theirs.append(gid, g.events[-1])  # ... and records it again
    undo(mine, gid)  # my kept state would be right by luck; the store must not rely on it
    assert mine.state(gid) == fold(mine.events(gid)) == theirs.state(gid)


def test_a_reader_takes_the_head_state_a_writer_of_its_process_handed_over(tmp_path, monkeypatch):
    """Issue 43: in the server a seat's append works the state out; the reading store takes it
    (`adopt`) instead of folding the game again, but only for the head it was worked out at."""
    g = game(6, 6)
    g.activate("a1", "engage", dash())
    db = tmp_path / "two.db"
    writer, reader = Store(db), Store(db)
    gid = writer.new_game(g.events[0], g.events[1:-1])
    reader.state(gid)  # the reader's own state, at the head before the append
    writer.append(gid, g.events[-1])
    reader.adopt(gid, writer.state(gid), writer.listing.head(gid)[1])
    folds = []
    monkeypatch.setattr(store_module, "state_at", lambda *args, **kwargs: folds.append(args) or pytest.fail("folded"))
    assert reader.state(gid) == fold(writer.events(gid)) and folds == []
    monkeypatch.undo()

    writer.append(gid, Annotation(target=1, text="a note"))
    marked = writer.state(gid)
    marked.players["Alice"].cp += 5  # a state of the head's seq, told apart from the true one
    reader.adopt(gid, marked, "0" * 64)  # not the stored head's hash: not taken
    assert reader.state(gid) == fold(writer.events(gid)) != marked


def test_undo_refuses_to_undo_the_game_creation(store):
    gid = store.new_game(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"))
    with pytest.raises(NothingToDo, match="nothing to undo"):
        undo(store, gid)


def test_projections_rebuild_to_the_same_rows(store):
    g = game(5, 5)
    g.activate("a1", "engage", shoot("Gun", "b1", "6666", "111"))
    gid = recorded(store, g)
    store.append(gid, Annotation(target=3, text="a note"))
    tables = list(PROJECTIONS)
    before = {t: list(store.db.query(f"SELECT * FROM {t} ORDER BY seq, rowid")) for t in tables}
    store.rebuild()
    after = {t: list(store.db.query(f"SELECT * FROM {t} ORDER BY seq, rowid")) for t in tables}
    assert before == after
    assert before["attacks"][0]["damage"] == 16 and before["cp_changes"]


def test_game_results_are_written_when_the_battle_ends(store):
    from conftest import play_out

    g = game(2, 2)
    play_out(g)
    gid = recorded(store, g)
    rows = list(store.db.query("SELECT player, result, vp_total FROM game_results ORDER BY player"))
    assert rows == [{"player": "Alice", "result": "draw", "vp_total": 0}, {"player": "Bob", "result": "draw", "vp_total": 0}]
    assert store.game(gid).status == "finished"


def test_default_database_follows_ktlog_db(monkeypatch, tmp_path):
    monkeypatch.setenv("KTLOG_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("KTLOG_DB")
    assert default_db_path().name == "ktlog.db"


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("hello, this is not a database at all")
    with pytest.raises(StoreError, match="not a SQLite database"):
        Store(bad)
    assert bad.read_text().startswith("hello")  # untouched


def test_another_programs_sqlite_database_is_refused(tmp_path):
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not a ktlog one"):
        Store(other)


def test_a_database_from_a_newer_ktlog_is_refused(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer ktlog .*schema 99.*install ktlog .* to open it"):
        Store(path)


def test_an_unknown_game_and_ambiguous_prefix(store):
    created = GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21")
    store.new_game(created, game_id="aaaa1111-0000-4000-8000-000000000000")
    store.new_game(created, game_id="aaaa2222-0000-4000-8000-000000000000")
    from ktlog.errors import GameNotFound

    with pytest.raises(GameNotFound, match="2 games start with 'aaaa'"):
        store.resolve("aaaa")
    with pytest.raises(GameNotFound, match="no game id starts with 'bbbb'"):
        store.resolve("bbbb")
    assert store.resolve("AAAA1").startswith("aaaa1111")


def test_events_after_the_end_are_refused_but_annotations_are_kept(store):
    from conftest import play_out

    g = game(1, 1)
    play_out(g)
    gid = recorded(store, g)
    with pytest.raises(RuleViolation, match="the game is over"):
        store.append(gid, OperativeActivated(operative="a1", order="engage"))
    store.append(gid, Annotation(target=5, text="good game"))
    assert store.state(gid).notes[-1].text == "good game"
    assert store.state(gid).result.draw


def test_a_cached_state_is_not_changed_by_callers(store):
    gid = recorded(store, game(2, 2))
    state = store.state(gid)
    state.players["Alice"].cp = 99
    assert store.state(gid).players["Alice"].cp == 3
    store.append(gid, OperativeActivated(operative="a1", order="engage"))
    store.append(gid, ActivationEnded(operative="a1"))
    assert store.state(gid).players["Alice"].cp == 3


def test_a_new_database_has_the_catalogs_tables_and_columns(store):
    assert set(store.db.table_names()) - {"_sqlite_migrations"} == set(TABLES)
    for table, columns in TABLES.items():
        assert {c.name for c in store.db[table].columns} == set(columns), table


def test_no_optional_library_is_imported_on_ktlogs_paths(tmp_path):
    # Issue 26: sqlite-utils imports pandas (and numpy) whenever they are installed: an import
    # into a new database cost 1.22x the CPU with pandas. A stand-in pandas on the path says
    # when it is imported; plain `import sqlite_utils` shows that it would be.
    import subprocess
    import sys

    from ktlog.data import SAMPLE_GAMES

    fake = tmp_path / "site"
    for name in ("pandas", "numpy"):
        (fake / name).mkdir(parents=True)
        (fake / name / "__init__.py").write_text(
            f"import pathlib\npathlib.Path({str(tmp_path / 'imported')!r}).open('a').write({name!r} + ' ')\n"
            "def __getattr__(attribute):\n    return type(attribute, (), {})\n"  # whatever sqlite-utils reads of it
        )
    env = {**__import__("os").environ, "PYTHONPATH": str(fake)}
    sample = next(SAMPLE_GAMES.glob("01_*.jsonl"))
    subprocess.run([sys.executable, "-c", "import sqlite_utils"], env=env, check=True)
    assert (tmp_path / "imported").read_text().split() == ["pandas", "numpy"]  # the stand-ins are reached
    (tmp_path / "imported").unlink()
    done = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(tmp_path / "new.db"), "import", str(sample)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "imported").exists(), (tmp_path / "imported").read_text()
    # And as sys.modules says, at the end of the same command run in the process that checks.
    command = (
        "import runpy, sys\n"
        f"sys.argv = ['ktlog', '--db', {str(tmp_path / 'newer.db')!r}, 'import', {str(sample)!r}]\n"
        "try:\n    runpy.run_module('ktlog', run_name='__main__')\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "print(sorted(name for name in ('pandas', 'numpy') if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", command], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]" and (tmp_path / "newer.db").exists()
    done = subprocess.run([sys.executable, "-c", "import ktlog.storage.schema_library, pandas"], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and (tmp_path / "imported").read_text() == "pandas "  # a later import of pandas still works


def test_a_new_file_is_made_as_the_migrations_make_it_without_sqlite_utils(tmp_path, monkeypatch):
    """Issue 26: a new database is made from `new_database`'s statements (no sqlite-utils import,
    no migrations run one by one): the same tables, indexes, triggers, pragmas and migration
    rows as the migrations give, and a later migration applies to it as to any."""
    import subprocess
    import sys

    from ktlog.storage import new_database

    def schema(path):
        conn = sqlite3.connect(path)
        try:
            return (
                sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")),
                [n for (n,) in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")],
                [conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version", "journal_mode")],
                sorted(conn.execute("SELECT key FROM meta")),
            )
        finally:
            conn.close()

    Store(tmp_path / "made.db").close()
    monkeypatch.setattr(new_database, "VERSION", -1)  # stale: the migrations make the file
    Store(tmp_path / "migrated.db").close()
    made, migrated = schema(tmp_path / "made.db"), schema(tmp_path / "migrated.db")
    assert made == migrated, "new_database.py is stale: `make new-database` writes it again"
    code = "import sys, ktlog.storage.store as s; s.Store(sys.argv[1]).close(); print(sorted(m for m in sys.modules if m.startswith('sqlite_utils')))"
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "lean.db")], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
