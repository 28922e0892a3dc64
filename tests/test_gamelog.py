"""Game-log files: export, import whole or not at all, idempotent, errors naming the line and field."""

from __future__ import annotations

import json
import os
import re

import pytest
from conftest import game

from ktlog.data import SAMPLE_GAMES
from ktlog.errors import GameLogError, KtlogError
from ktlog.files.gamelog import export_lines, write_game_log
from ktlog.play.builder import shoot
from ktlog.play.importer import _checked, import_file
from ktlog.storage.store import Store


@pytest.fixture
def exported(store, tmp_path):
    g = game(3, 3)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"))
    g.annotate("first blood")
    gid = store.new_game(g.events[0], g.events[1:])
    path = tmp_path / "game.jsonl"
    write_game_log(path, export_lines(store, gid))
    return gid, path, g


@pytest.fixture
def other(tmp_path):
    s = Store(tmp_path / "other.db")
    yield s
    s.close()


def snapshot(store):
    return [tuple(r) for r in store.conn.execute("SELECT g.id, e.seq, e.hash FROM events e JOIN games g USING (game_key) ORDER BY position")]


def test_round_trip_keeps_ids_hashes_and_state(exported, other):
    gid, path, g = exported
    report = import_file(other, path)
    assert (report.status, report.events_added) == ("imported", len(g.events))
    assert other.state(gid) == g.state
    header = json.loads(path.read_text().splitlines()[0])
    assert header["format"] == "ktlog-game" and header["game_id"] == gid and header["events"] == len(g.events)
    assert [p["name"] for p in header["players"]] == ["Alice", "Bob"]


def test_importing_twice_changes_nothing(exported, other):
    gid, path, _ = exported
    import_file(other, path)
    before = snapshot(other)
    report = import_file(other, path)
    assert report.status == "unchanged" and "already in the database" in report.describe()
    assert snapshot(other) == before


def test_a_longer_copy_of_the_same_game_extends_it(store, other, tmp_path, exported):
    gid, path, g = exported
    import_file(other, path)
    from ktlog.events import OperativeActivated

    store.append(gid, OperativeActivated(operative="b2", order="conceal"))
    longer = tmp_path / "longer.jsonl"
    write_game_log(longer, export_lines(store, gid))
    report = import_file(other, longer)
    assert (report.status, report.events_added) == ("extended", 1)
    assert other.state(gid) == store.state(gid)


def test_the_same_game_with_different_events_is_refused(store, other, tmp_path, exported):
    gid, path, g = exported
    import_file(other, path)
    from ktlog.events import OperativeActivated

    store.append(gid, OperativeActivated(operative="b2", order="conceal"))
    other.append(gid, OperativeActivated(operative="b2", order="engage"))
    diverged = tmp_path / "diverged.jsonl"
    write_game_log(diverged, export_lines(store, gid))
    before = snapshot(other)
    with pytest.raises(GameLogError, match=f"game {gid[:8]} is already in .* with different events from seq {len(g.events) + 1}"):
        import_file(other, diverged)
    assert snapshot(other) == before


def lines_of(path):
    return path.read_text().splitlines()


def rewrite(path, lines):
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda ls: ls[:1], "has a header but no events"),
        (lambda ls: ls[:-1], "header says .* events but the file has .*truncated"),
        (lambda ls: ls[:3] + [ls[3][: len(ls[3]) // 2]] + ls[4:], "line 4: not valid JSON"),
        (lambda ls: ls[:2] + ls[3:], "line 3: field seq: expected 2, found 3"),
        (lambda ls: ls[:2] + [ls[2].replace('"type":"PlayerJoined"', '"type":"PlayerLeft"')] + ls[3:], "line 3: .*PlayerLeft"),
        (lambda ls: ls[:2] + [re.sub(r'"version":\d+', '"version":7', ls[2])] + ls[3:], "line 3: .*version 7 is newer than this ktlog understands"),
        (
            lambda ls: ls[:2] + [ls[2].replace('"kill_team":"Alice\'s team"', '"kill_team":5')] + ls[3:],
            "line 3: field payload.kill_team: Expected `str`, got `int`",
        ),
        (lambda ls: ls[:2] + [ls[2].replace("Alice's team", "Alice's team!")] + ls[3:], "line 3: field hash: does not match the event's content"),
        (lambda ls: [ls[0].replace('"format_version":1', '"format_version":9')] + ls[1:], "line 1: format version 9 is newer"),
        (lambda ls: ['{"hello": 1}'] + ls[1:], "line 1: not a ktlog game-log header"),
        (lambda ls: [], "the file is empty"),
    ],
    ids=[
        "no-events",
        "truncated",
        "broken-json",
        "missing-line",
        "unknown-type",
        "newer-version",
        "wrong-type",
        "edited",
        "newer-format",
        "not-a-header",
        "empty",
    ],
)
def test_malformed_files_are_refused_whole_naming_the_line(exported, other, mangle, message):
    _, path, _ = exported
    rewrite(path, mangle(lines_of(path)))
    with pytest.raises(GameLogError, match=message):
        import_file(other, path)
    assert snapshot(other) == []


def test_an_illegal_event_in_the_middle_refuses_the_file(store, other, tmp_path):
    # A well-formed, correctly hashed file whose 40th event breaks a rule.
    from ktlog.events import OperativeActivated
    from ktlog.play.builder import GameBuilder

    g = game(3, 3)
    events = g.events + [OperativeActivated(operative="b1", order="engage")]  # it is Alice's turn
    sealed = GameBuilder.sealed(type("G", (), {"events": events})(), "11111111-1111-4111-8111-111111111111", "2026-11-21T10:00:00+00:00")
    from ktlog.files.gamelog import _encoder, make_header

    path = tmp_path / "bad.jsonl"
    header = make_header("11111111-1111-4111-8111-111111111111", g.state, len(sealed))
    write_game_log(path, [_encoder.encode(header)] + [_encoder.encode(e) for e, _ in sealed])
    with pytest.raises(GameLogError, match=f"line {len(events) + 1}: it is Alice's turn"):
        import_file(other, path)
    assert snapshot(other) == []


def test_a_header_result_that_disagrees_is_reported(exported, other):
    _, path, _ = exported
    lines = lines_of(path)
    header = json.loads(lines[0])
    header["result"] = {"winner": "Bob", "draw": False, "ended_by": "battle", "score": {"Alice": {"total": 0}, "Bob": {"total": 12}}}
    rewrite(path, [json.dumps(header)] + lines[1:])
    report = import_file(other, path)
    assert report.status == "imported"
    assert any("header's result differs" in w for w in report.warnings)


def test_an_older_event_version_is_upcast_on_read_and_keeps_its_hash(monkeypatch, tmp_path, other):
    """Pretend GambitPassed is now version 2 (its player field was called `who` in version 1)."""
    from ktlog import events
    from ktlog.envelopes import GENESIS, canonical_raw, chain_hash
    from ktlog.files.gamelog import Header, _encoder

    g = game(2, 2)
    lines, prev = [], GENESIS
    gid = "44444444-4444-4444-8444-444444444444"
    for seq, event in enumerate(g.events, 1):
        payload = json.loads(__import__("msgspec").json.encode(event))
        if payload["type"] == "GambitPassed":
            payload["who"] = payload.pop("player")  # as version 1 wrote it
        raw = canonical_raw(json.dumps(payload).encode())
        digest = chain_hash(prev, gid, seq, f"e{seq}", 1, "2026-11-21T10:00:00+00:00", raw)
        lines.append(
            json.dumps(
                {
                    "game_id": gid,
                    "seq": seq,
                    "event_id": f"e{seq}",
                    "version": 1,
                    "recorded_at": "2026-11-21T10:00:00+00:00",
                    "payload": json.loads(raw),
                    "prev_hash": prev,
                    "hash": digest,
                }
            )
        )
        prev = digest
    header = Header(
        format="ktlog-game", format_version=1, game_id=gid, ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21", players=(), events=len(lines)
    )
    path = tmp_path / "v1.jsonl"
    path.write_text("\n".join([_encoder.encode(header).decode(), *lines]) + "\n")

    monkeypatch.setattr(events.GambitPassed, "version", 2)
    monkeypatch.setitem(events.UPCASTERS, ("GambitPassed", 1), lambda d: {**{k: v for k, v in d.items() if k != "who"}, "player": d["who"]})
    assert import_file(other, path).status == "imported"
    assert other.state(gid) == g.state
    stored = other.conn.execute("SELECT version, payload FROM events WHERE type = 'GambitPassed' LIMIT 1").fetchone()
    assert stored[0] == 1 and '"who"' in stored[1]  # kept as recorded, upcast on read
    from ktlog.play.verify import verify_game

    assert verify_game(other, gid).ok


def projection_rows(store):
    from ktlog.storage.catalog import PROJECTIONS

    return {t: sorted(tuple(r[c] for c in cols if c != "game_key") for r in store.db[t].rows) for t, cols in PROJECTIONS.items()}


def same_tables(a: Store, b: Store) -> None:
    assert snapshot(a) == snapshot(b) and projection_rows(a) == projection_rows(b)
    snapshots = "SELECT g.id, s.seq, s.state, s.seal FROM snapshots s JOIN games g USING (game_key) ORDER BY g.id, s.seq"
    assert list(a.conn.execute(snapshots)) == list(b.conn.execute(snapshots))
    assert [(g.id, g.status, g.result, g.head_seq) for g in a.games()] == [(g.id, g.status, g.result, g.head_seq) for g in b.games()]


def test_ktlog_import_checks_in_a_second_process_and_stores_what_one_by_one_does(tmp_path):
    """`ktlog import` (a fresh process, which can fork its checker) against `import_file`."""
    import subprocess
    import sys

    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))
    one = Store(tmp_path / "one.db")
    for path in samples:
        import_file(one, path)
    out = subprocess.run(
        [sys.executable, "-m", "ktlog", "--db", str(tmp_path / "many.db"), "import", *map(str, samples)], capture_output=True, text=True, check=True
    ).stdout
    assert out.count(": imported game") == len(samples)
    same_tables(Store(tmp_path / "many.db"), one)


def dies_at_the_second_sample(path, tests_process=os.getpid()):  # noqa: B008  (the test process, fixed when the module loads)
    """A checking process that dies (is killed) at the second sample game."""
    if path.name.startswith("02_") and os.getpid() != tests_process:
        os._exit(1)
    return _checked(path)


def test_without_a_checking_process_one_process_imports_the_rest(tmp_path, monkeypatch):
    """The checker dies at the second file (or cannot be forked at all): the rest is imported
    here, each file once, in order."""

    from ktlog.play import importer

    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))[:4]
    monkeypatch.setattr(importer, "_checked", dies_at_the_second_sample)
    one, many = Store(tmp_path / "one.db"), Store(tmp_path / "many.db")
    reports = [import_file(one, path) for path in samples]
    assert [(r.path, r.status) for r in importer.import_files(many, samples)] == [(r.path, r.status) for r in reports]
    same_tables(many, one)


DIES_MID_RESULT = """
import os, struct, sys
from pathlib import Path
from ktlog.play import importer
from ktlog.storage.store import Store

def dies_in_the_middle_of_a_result(paths, unclaimed, sender, unread, parent):
    unread.acquire()
    importer._claim(unclaimed)
    os.write(sender.fileno(), struct.pack("!i", 100000) + b"half a result")
    os._exit(1)

importer._check_claimed = dies_in_the_middle_of_a_result
print(",".join(r.status for r in importer.import_files(Store(sys.argv[1]), [Path(p) for p in sys.argv[2:]])))
"""


def test_a_checker_dying_in_the_middle_of_a_result_loses_nothing(tmp_path):
    """In a fresh process (this one may be too big to fork): the checker claims a file, writes
    half its result and dies. The importer neither hangs nor fails: it checks that file and
    the rest itself, each once, in order."""
    import subprocess
    import sys

    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))[:4]
    out = subprocess.run(
        [sys.executable, "-c", DIES_MID_RESULT, str(tmp_path / "many.db"), *map(str, samples)], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert out.split() == [",".join(["imported"] * len(samples))]
    one = Store(tmp_path / "one.db")
    for path in samples:
        import_file(one, path)
    same_tables(Store(tmp_path / "many.db"), one)


def test_many_files_each_whole_or_not_at_all_in_order(store, other, tmp_path, exported):
    from ktlog.events import OperativeActivated
    from ktlog.play.importer import import_files

    gid, path, g = exported
    import_file(other, path)  # this game is stored already ...
    store.append(gid, OperativeActivated(operative="b2", order="conceal"))
    longer = tmp_path / "longer.jsonl"
    write_game_log(longer, export_lines(store, gid))  # ... and this file has one more event
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_bytes(b"\n".join(path.read_bytes().splitlines()[:-3]) + b"\n")
    fresh = tmp_path / "fresh.jsonl"
    fresh_id = store.new_game(g.events[0], g.events[1:5])
    write_game_log(fresh, export_lines(store, fresh_id))
    results = list(import_files(other, [path, truncated, longer, fresh]))
    assert [r.status for r in (results[0], results[2], results[3])] == ["unchanged", "extended", "imported"]
    assert isinstance(results[1], GameLogError) and "truncated" in str(results[1]) and "Nothing from this file was imported" in str(results[1])
    assert other.state(gid) == store.state(gid) and other.state(fresh_id) == store.state(fresh_id)


def test_an_illegal_event_found_by_the_checking_process_names_its_line(store, other, tmp_path, exported):
    from ktlog.events import OperativeActivated
    from ktlog.files.gamelog import _encoder, make_header
    from ktlog.play.builder import GameBuilder
    from ktlog.play.importer import import_files

    g = game(3, 3)
    events = g.events + [OperativeActivated(operative="b1", order="engage")]  # it is Alice's turn
    sealed = GameBuilder.sealed(type("G", (), {"events": events})(), "11111111-1111-4111-8111-111111111111", "2026-11-21T10:00:00+00:00")
    bad = tmp_path / "bad.jsonl"
    write_game_log(bad, [_encoder.encode(make_header("11111111-1111-4111-8111-111111111111", g.state, len(sealed)))] + [_encoder.encode(e) for e, _ in sealed])
    error, report = import_files(other, [bad, exported[1]])
    assert isinstance(error, GameLogError) and error.line == len(events) + 1 and "it is Alice's turn" in str(error)
    assert report.status == "imported" and [gid for gid, *_ in snapshot(other)] == [exported[0]] * report.events_added


def test_a_locked_database_refuses_each_file_and_says_so(tmp_path, exported):
    import sqlite3

    from ktlog.errors import KtlogError
    from ktlog.play.importer import import_files

    db = tmp_path / "locked.db"
    Store(db).close()
    other_writer = sqlite3.connect(db)
    other_writer.execute("BEGIN IMMEDIATE")
    store = Store(db, busy_timeout_ms=50)
    results = list(import_files(store, [exported[1], exported[1]]))
    assert len(results) == 2 and all(isinstance(r, KtlogError) and "is locked by another ktlog" in str(r) and "try again" in str(r) for r in results)
    other_writer.rollback()
    assert [r.status for r in import_files(store, [exported[1], exported[1]])] == ["imported", "unchanged"]


def test_a_game_log_is_written_whole_or_not_at_all(tmp_path, monkeypatch, exported):
    """One writer of files (`ktlog export -o`, the sample games, statistics (`ktlog export -o`, the sample games): a failure while
    writing (here: a full disk) leaves the old file as it was and no temporary file beside it."""
    import errno

    from ktlog.files import atomic

    _, path, _ = exported
    before = path.read_bytes()

    def full_disk(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(KtlogError, match="No space left"):
        write_game_log(path, [b'{"half": "a file"}'])
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    monkeypatch.undo()
    write_game_log(path, [b"{}"])
    assert path.read_bytes() == b"{}\n" and [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


@pytest.mark.parametrize("fixture", ["gamelog_v1.jsonl", "12_joint_ops_breach_legionaries_solo_v2.jsonl", "13_joint_ops_escape_kasrkin_coop_v2.jsonl"])
def test_a_game_recorded_by_an_older_ktlog_exports_to_a_file_that_imports(tmp_path, fixture):
    """Its events of older versions are written as recorded (the bytes their hashes cover), not
    upcast to this ktlog's versions: the exported file imports into another database, same game."""
    from conftest import ROOT

    with Store(tmp_path / "first.db") as first:
        game_id = import_file(first, ROOT / "tests" / "fixtures" / fixture).game_id
        assert any(e.version != type(e.payload).version for e in first.events(game_id))  # some events are upcast
        exported = tmp_path / "exported.jsonl"
        write_game_log(exported, export_lines(first, game_id))
        with Store(tmp_path / "second.db") as second:
            assert import_file(second, exported).status == "imported"
            assert second.events(game_id) == first.events(game_id)
            assert second.state(game_id) == first.state(game_id)
