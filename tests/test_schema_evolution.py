"""Issue 6, part 6: a database and a game-log file from older ktlog versions open, upcast and replay;
a database from a newer ktlog is refused naming the version needed."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from conftest import ROOT

from ktlog.data import SAMPLE_GAMES
from ktlog.errors import StoreError
from ktlog.files.gamelog import header_result, read_game_log
from ktlog.play.importer import import_file
from ktlog.play.replay import Replay
from ktlog.play.verify import verify
from ktlog.storage import log
from ktlog.storage.catalog import TABLES
from ktlog.storage.dbfile import SCHEMA_VERSION
from ktlog.storage.store import Store

FIXTURES = ROOT / "tests" / "fixtures"


def test_a_schema_1_database_is_migrated_and_its_games_replay(tmp_path):
    # tests/fixtures/schema1.db was written by ktlog at database schema 1 (commit 502c870):
    # sample games 01 and 05, their GameCreated events at version 1.
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema1.db", path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [v.ok for v in verify(store)] == [True, True]  # stored rows untouched: hashes hold
        for game in store.games():
            header, _ = read_game_log(next(SAMPLE_GAMES.glob(f"*{_stem(game.id)}*.jsonl")))
            state = Replay.open(store, game.id).end()
            assert header_result(state) == header.result
        # The projections gained the schema 2 columns, filled in from the log.
        expected = store.conn.execute("SELECT COUNT(*) FROM attacks WHERE mode = 'dice' AND kind = 'shoot' AND expected_damage IS NULL").fetchone()[0]
        assert expected == 0
        assert store.conn.execute("SELECT COUNT(DISTINCT crit_op) FROM game_results").fetchone()[0] == 2
        versions = {r[3] for g in store.games() for r in log.rows(store.conn, g_key(store, g.id)) if r[2] == "GameCreated"}
        assert versions == {1}  # kept as recorded (archived since m019), upcast when read
        assert_current_schema(store)
        assert store.conn.execute("SELECT COUNT(DISTINCT game_id) FROM vp_by_op").fetchone()[0] == 2
        # Sample 05 then shot a Blast secondary target in the open behind a primary in cover: it
        # replays, and its warnings say which rule ktlog checks since (pg 111).
        warned = [w for game in store.games() for w in store.state(game.id).warnings if w.rule == "Blast, pg 111"]
        assert [w.reason for w in warned] == ["recorded before ktlog checked Blast secondary targets (pg 111)"]


def g_key(store: Store, game_id: str) -> int:
    return store.conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def assert_current_schema(store: Store) -> None:
    """Exactly the catalog's tables and columns, every game's derived rows as a rebuild from its
    log writes them, and every finished game archived (m019) but its head, whose events read back
    as the chain recorded them."""
    assert set(store.db.table_names()) - {"_sqlite_migrations"} == set(TABLES)
    for table, columns in TABLES.items():
        assert {c.name for c in store.db[table].columns} == set(columns), table
    assert all(v.ok for v in verify(store))  # the games rows and projections agree with the log
    for game in store.games():
        key = g_key(store, game.id)
        rows = store.conn.execute("SELECT seq FROM events WHERE game_key = ?", (key,)).fetchall()
        archived = store.conn.execute("SELECT min(first_seq), max(last_seq) FROM game_archives WHERE game_key = ?", (key,)).fetchone()
        assert game.status == "finished" and rows == [(game.head_seq,)] and archived == (1, game.head_seq - 1)
        assert [e.seq for e in store.events(game.id)] == list(range(1, game.head_seq + 1))
    ids = store.conn.execute("SELECT count(*) FROM event_ids").fetchone()[0]
    assert ids == sum(g.head_seq for g in store.games())  # every event's id is taken, archived or not


def test_a_schema_6_database_gets_vp_by_op_rows_and_typed_results(tmp_path):
    # tests/fixtures/schema6.db was written by ktlog at database schema 6 (commit b7c16e9): sample
    # games 07 (a concession), 10 (Multiplayer Ops, elimination VP) and 15 (KT21, mission VP),
    # with a vp_<op> column per op in game_results.
    path = tmp_path / "six.db"
    shutil.copy(FIXTURES / "schema6.db", path)
    old = sqlite3.connect(path)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 6
    ops = ("crit", "kill", "tac", "primary", "elimination", "mission")
    by_column = {
        (g, p, op): vp
        for g, p, *vps in old.execute(f"SELECT game_id, player, {', '.join(f'vp_{op}' for op in ops)} FROM game_results")
        for op, vp in zip(ops, vps)
        if vp
    }
    results = {g: r for g, r in old.execute("SELECT id, result FROM games")}
    old.close()
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert_current_schema(store)
        by_row = {(g, p, op): vp for g, p, op, vp in store.conn.execute("SELECT game_id, player, op, vp FROM vp_by_op WHERE vp != 0")}
        assert by_row == by_column and {op for _, _, op in by_row} == {"crit", "kill", "tac", "elimination", "mission"}
        typed = store.conn.execute("SELECT id, result, winner, draw, ended_by, conceded_by FROM games").fetchall()
        for game_id, result, *columns in typed:
            assert result == results[game_id]  # the JSON is as it was; its parts are typed columns beside it
            recorded = json.loads(result)
            assert columns == [recorded["winner"], int(recorded["draw"]), recorded["ended_by"], recorded["conceded_by"]]
        assert sorted((g[:8], winner, ended_by, conceded_by) for g, _, winner, _, ended_by, conceded_by in typed) == [
            ("3a38aa09", "Mia", "concession", "Ned"),
            ("5b0e6a51", "Nico", "battle", None),
            ("8d2b6a43", "Kasia", "battle", None),
        ]


def _stem(game_id: str) -> str:
    return {"334f68f6": "01_", "89e3b1dc": "05_"}[game_id[:8]]


def test_a_game_log_with_version_1_events_imports_and_upcasts(tmp_path):
    # tests/fixtures/gamelog_v1.jsonl: sample game 02 as exported when GameCreated was version 1.
    with Store(tmp_path / "x.db") as store:
        report = import_file(store, FIXTURES / "gamelog_v1.jsonl")
        assert report.status == "imported" and not report.warnings
        created = store.events(report.game_id)[0]
        assert created.version == 1 and created.payload.dataslate is None
        header, _ = read_game_log(FIXTURES / "gamelog_v1.jsonl")
        assert header_result(store.state(report.game_id)) == header.result
        assert verify(store)[0].ok


def test_a_database_from_a_newer_ktlog_is_refused_naming_the_version_needed(tmp_path):
    path = tmp_path / "new.db"
    Store(path).close()
    conn = sqlite3.connect(path)  # what a future ktlog 9.2.0 would leave
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("UPDATE meta SET value = '9.2.0' WHERE key = 'needs_ktlog'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=f"database schema {SCHEMA_VERSION + 1}; this is ktlog .*install ktlog 9.2.0 or newer to open it"):
        Store(path)


def test_version_1_events_a_later_check_may_refuse_are_read_with_an_override_saying_so():
    """Shot, Fought and EquipmentSelected version 2 (issue 24): the checks of Blast secondary
    targets (pg 111), fight assists (pg 45) and the set-up order (pg 110) came with them."""
    from ktlog.envelopes import decode_payload

    def read(type_name, payload):
        return decode_payload(type_name, 1, json.dumps({"type": type_name, **payload}))

    cover = {"target": "b1", "damage": 0, "cover": True}
    blast = read("Shot", {"operative": "a1", "weapon": "Frag", "attacks": [cover, {"target": "b2", "damage": 0}]})
    assert blast.override == "recorded before ktlog checked Blast secondary targets (pg 111)" and blast.guard is False
    same = read("Shot", {"operative": "a1", "weapon": "Frag", "attacks": [cover, {**cover, "target": "b2"}]})
    assert same.override is None
    kept = read("Shot", {"operative": "a1", "weapon": "Frag", "attacks": [cover, {"target": "b2", "damage": 0}], "override": "Grenadier"})
    assert kept.override == "Grenadier"
    assisted = read("Fought", {"operative": "a1", "target": "b1", "weapon": "Blade", "damage": 0, "damage_taken": 0, "assists": 2})
    assert assisted.override == "recorded before ktlog checked fight assists (pg 45)"
    assert read("Fought", {"operative": "a1", "target": "b1", "weapon": "Blade", "damage": 0, "damage_taken": 0}).override is None
    equipment = read("EquipmentSelected", {"player": "Alice", "equipment": ["Ammo cache"]})
    assert equipment.override == "recorded before ktlog checked the set-up order (pg 110)"
