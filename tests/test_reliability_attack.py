"""The independent attack of issue 17: each case as it was reported, refused or survived (the
reliability figures count the control-character, path and damage cases)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys

import msgspec
import pytest
from click.testing import CliRunner
from conftest import game
from hypothesis import given
from hypothesis import strategies as st

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.errors import InvalidEvent
from ktlog.events import AplModified, DamageInflicted, PlayerJoined, WoundsRegained
from ktlog.storage.store import Store

KTLOG = [sys.executable, "-m", "ktlog"]


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def table_rows(store: Store) -> dict[str, int]:
    tables = [n for (n,) in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") if n != "verifications"]
    return {t: store.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


@pytest.fixture
def samples_db(tmp_path):
    db = tmp_path / "league.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "import", *map(str, sorted(SAMPLE_GAMES.glob("*.jsonl")))])
    assert result.exit_code == 0, result.output
    return db


def ktlog(db, *args, ok: bool | None = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    if ok is not None:
        assert (result.exit_code == 0) == ok, result.output
    return result


# --- 1: a value the store cannot keep is refused before anything is written ---------------------


@pytest.mark.parametrize(
    "event",
    [
        AplModified(operative="a1", delta=10**20, reason="typo"),
        DamageInflicted(operative="a1", damage=2**63, source="other"),
        WoundsRegained(operative="a1", wounds=2**70, reason="typo"),
    ],
)
def test_a_too_large_number_is_refused_with_its_field_and_nothing_is_stored(store, event):
    g = game()
    gid = store.new_game(g.events[0], g.events[1:])
    before = table_rows(store)
    with pytest.raises(InvalidEvent, match=r"field (delta|damage|wounds): -?\d+ is out of range"):
        store.append(gid, event)
    assert table_rows(store) == before
    assert store.state(gid).seq == len(g.events)


def test_ktlog_event_says_nothing_was_changed_only_when_true(tmp_path):
    db = tmp_path / "g.db"
    g = game()
    with Store(db) as store:
        gid = store.new_game(g.events[0], g.events[1:])
        before = table_rows(store)
    out = ktlog(db, "event", gid[:8], "AplModified", "operative=a1", "delta=100000000000000000000", "reason=typo", ok=False)
    assert "field delta" in out.output and "unexpected" not in out.output and "bug" not in out.output
    with Store(db) as store:
        assert table_rows(store) == before
    ktlog(db, "score", gid[:8])
    ktlog(db, "export", gid[:8], "-o", tmp_path / "g.jsonl")
    ktlog(tmp_path / "other.db", "import", tmp_path / "g.jsonl")


# --- 2: an output over the database is refused; outputs are written whole --------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("export", "334f", "-o", "{db}"),
        ("export", "334f", "-o", "{db}-wal"),
        ("report", "334f", "-o", "{db}"),
        ("stats", "standings", "-o", "{db}"),
        ("stats", "standings", "--format", "parquet", "-o", "{db}"),
        ("chart", "vp", "334f", "-o", "{link}"),
    ],
)
def test_an_output_path_that_is_the_database_is_refused(samples_db, args, figures):
    link = samples_db.with_name("league-link.svg")
    link.hardlink_to(samples_db)
    before = digest(samples_db)
    out = ktlog(samples_db, *[a.format(db=samples_db, link=link) for a in args], ok=False)
    assert "it is the database" in out.output and "wrote" not in out.output
    assert digest(samples_db) == before
    with Store(samples_db) as store:
        assert len(store.games()) == len(list(SAMPLE_GAMES.glob("*.jsonl")))
    figures["paths: outputs over the open database refused, database intact"] += 1


def test_a_failed_output_leaves_the_previous_file_whole(samples_db, tmp_path, monkeypatch):
    target = tmp_path / "standings.csv"
    target.write_text("the previous standings\n")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ktlog.files.atomic.os.fsync", full_disk)
    out = ktlog(samples_db, "stats", "standings", "--format", "csv", "-o", target, "--force", ok=False)
    assert f"cannot write {target}: No space left on device" in out.output
    assert target.read_text() == "the previous standings\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


# --- 10: broken pipes and full devices ------------------------------------------------------------


def test_a_closed_pipe_ends_quietly_with_the_sigpipe_status(samples_db):
    proc = subprocess.Popen([*KTLOG, "--db", str(samples_db), "log", "99ca"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before ktlog writes its first line
    assert proc.wait(timeout=60) == 141
    assert proc.stderr.read() == b""


@pytest.mark.skipif(not shutil.os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("log", "334f"), ("stats", "standings")])
def test_a_full_output_device_is_named(samples_db, args):
    """Standard output buffered, as in a user's shell (no PYTHONUNBUFFERED): what is left in the
    buffer must not fail again at exit (status 120, "Exception ignored")."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*KTLOG, "--db", str(samples_db), *args], stdout=full, stderr=subprocess.PIPE, timeout=60, env=env)
    assert proc.returncode == 1  # the statistics' notes (the sample games taken in ...) come before the error
    assert proc.stderr.decode().strip().splitlines()[-1] == "error: cannot write to standard output: No space left on device; nothing was changed"


def test_names_with_control_characters_are_refused_at_the_boundary(store):
    g = game(to="setup")
    for name, bad in [("Al\x1b[31mice", "U+001B"), ("Bob\x00", "U+0000"), ("Carol\u202e", "U+202E"), ("Dan\x9b", "U+009B"), ("E\tve", "U+0009")]:
        with pytest.raises(InvalidEvent, match=f"field player: holds the control character U\\{bad[1:]}"):
            store.new_game(g.events[0], [PlayerJoined(player=name, kill_team="x")])
    assert store.games() == []


# --- 3 and 7: names an older database holds are shown escaped, and never become column names ------


@pytest.fixture
def odd_names_db(tmp_path, monkeypatch):
    """A finished game of players named `seq` and with an escape sequence, stored as an older
    ktlog stored it (before the boundary refused control characters)."""
    import msgspec

    from ktlog.events import decodable
    from ktlog.files.gamelog import read_game_log

    db = tmp_path / "old.db"
    monkeypatch.setattr("ktlog.storage.rows.check_limits", lambda event, payload=None: None)
    renamed = {b'"Alice"': b'"seq"', b'"Bob"': msgspec.json.encode("VP\x1b[2J\x1b]0;pwned\x07")}
    events = []
    for envelope, _ in read_game_log(next(SAMPLE_GAMES.glob("01_*.jsonl")))[1]:
        data = msgspec.json.encode(envelope.payload)
        for old, new in renamed.items():
            data = data.replace(old, new)
        events.append(msgspec.json.decode(data, type=decodable()))
    with Store(db) as store:
        gid = store.new_game(events[0], events[1:])
    monkeypatch.undo()
    return db, gid


def test_control_characters_of_an_older_game_are_shown_escaped_everywhere(odd_names_db, tmp_path, figures):
    db, gid = odd_names_db
    for args in [("games",), ("show", gid[:8]), ("score", gid[:8]), ("log", gid[:8]), ("games", "--json"), ("stats", "standings", "--format", "csv")]:
        out = ktlog(db, *args).output
        assert "\x1b" not in out and "\x07" not in out, args
        assert "VP\\u001b[2J" in out, args
        figures["control characters: outputs shown escaped (commands, CSV, JSON, HTML, charts)"] += 1
    report = tmp_path / "r.html"
    ktlog(db, "report", gid[:8], "-o", report)
    assert "\x1b" not in report.read_text() and "VP\\u001b[2J" in report.read_text()
    for chart in ("vp", "elo"):
        ktlog(db, "chart", chart, gid[:8], "-o", tmp_path / f"{chart}.svg")
        assert "VP\\u001b[2J" in (tmp_path / f"{chart}.svg").read_text()


def test_player_names_that_are_column_names_draw_their_curves(odd_names_db, tmp_path):
    db, gid = odd_names_db
    rows = json.loads(ktlog(db, "stats", "curves", "--game", gid[:8], "--format", "json").stdout)
    assert {r["player"] for r in rows} == {"seq", "VP\x1b[2J\x1b]0;pwned\x07"}
    assert rows[-1]["seq"] > 0


# --- 6: verify names each damaged game and goes on; a damaged file refuses writes ---------------------


def two_games(db):
    g = game()
    with Store(db) as store:
        return [store.new_game(g.events[0], g.events[1:]) for _ in range(2)]


def raw(db, sql, *args):
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute(sql, args)
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "damage, problem",
    [
        ("UPDATE snapshots SET state = X'00FF13' WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", "snapshot of the state at seq"),
        (
            "UPDATE events SET payload = CAST(X'7B2274797065223A22FF227D' AS TEXT) WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 3",
            "FAILED at seq 3: the hash does not match",
        ),
        ("UPDATE games SET players = CAST(X'5B22FF225D' AS TEXT) WHERE id = ?", "the game's row does not match its events (players)"),
    ],
)
def test_verify_names_the_damaged_game_and_verifies_the_others(tmp_path, damage, problem, figures):
    db = tmp_path / "v.db"
    bad, good = two_games(db)
    if "snapshots" in damage:
        raw(db, "INSERT INTO snapshots (game_key, seq, state) VALUES ((SELECT game_key FROM games WHERE id = ?), 10, X'00')", bad)
    raw(db, damage, bad)
    out = ktlog(db, "verify", ok=False)
    assert f"{bad[:8]}  FAILED" in out.output and problem in out.output and f"{good[:8]}  ok" in out.output
    assert "bug" not in out.output and "database problem" not in out.output
    figures["tampering: damaged games named by ktlog verify, the others verified"] += 1


def test_verify_finds_dropped_schema_objects_and_rebuild_makes_them_again(tmp_path, figures):
    db = tmp_path / "v.db"
    two_games(db)
    raw(db, "DROP TRIGGER events_ids")
    raw(db, "DROP TRIGGER archives_no_delete")
    out = ktlog(db, "verify", ok=False)
    assert "the trigger events_no_update that keeps events append-only is missing" in out.output
    assert "the trigger events_ids that keeps every event id in event_ids is missing" in out.output
    assert "the trigger archives_no_delete that keeps archived events append-only is missing" in out.output
    figures["tampering: damaged files found by ktlog verify"] += 1
    ktlog(db, "rebuild")
    assert "the file" not in ktlog(db, "verify").output


def test_verify_runs_sqlites_integrity_check(tmp_path, figures):
    import sqlite3

    db = tmp_path / "v.db"
    gid, _ = two_games(db)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'idx_events_game_key_seq'").fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:  # zero cells' keys in the index's root page (its cells end it): the index now disagrees with its table
        f.seek((root - 1) * page_size + page_size * 3 // 4)
        f.write(b"\x00" * (page_size // 4))
    out = ktlog(db, "verify", ok=False)
    assert "the file  FAILED: SQLite's integrity check" in out.output
    refusal = ktlog(db, "annotate", gid[:8], "2", "a note", ok=False).output
    assert "failed `ktlog verify`" in refusal or "malformed" in refusal
    figures["tampering: damaged files found by ktlog verify"] += 1


# --- 5: readers check what they read from the cached tables ---------------------------------------


def test_an_edited_snapshot_is_passed_over_and_said(samples_db):
    import sqlite3

    true_score = ktlog(samples_db, "score", "99ca").stdout
    conn = sqlite3.connect(samples_db)
    gid = conn.execute("SELECT id FROM games WHERE id LIKE '99ca%'").fetchone()[0]
    forged = conn.execute("SELECT state FROM snapshots WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 100", (gid,)).fetchone()[0]
    conn.execute(
        "UPDATE snapshots SET state = ? WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = 300", (forged, gid)
    )  # a valid state, from another seq
    conn.commit()
    conn.close()
    for args in (("score", "99ca"), ("show", "99ca", "--at", "320")):
        out = CliRunner().invoke(cli, ["--db", str(samples_db), *args])
        assert out.exit_code == 0
        assert f"the snapshot of game {gid[:8]} at seq 300 does not match its events" in out.stderr
    assert CliRunner().invoke(cli, ["--db", str(samples_db), "score", "99ca"]).stdout == true_score


def test_statistics_say_when_their_tables_disagree_with_the_events(samples_db):
    import sqlite3

    conn = sqlite3.connect(samples_db)
    gone, short = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id LIMIT 2")]
    conn.execute("PRAGMA foreign_keys = OFF")
    for table in ("game_results", "vp_by_op", "vp_changes", "cp_changes", "attacks", "incapacitations", "turning_points", "verifications"):
        conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (gone,))
    conn.execute("DELETE FROM snapshots WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", (gone,))
    conn.execute("DELETE FROM games WHERE id = ?", (gone,))
    conn.execute("UPDATE games SET head_seq = head_seq - 1 WHERE id = ?", (short,))
    conn.commit()
    conn.close()

    def run(*args):  # each command in its own process, as a user runs them
        return subprocess.run([*KTLOG, "--db", str(samples_db), *args], capture_output=True, text=True, timeout=120)

    out = run("stats", "standings")
    assert f"game {gone[:8]}" in out.stderr and "games row is missing" in out.stderr
    assert f"game {short[:8]}" in out.stderr and "`ktlog rebuild`" in out.stderr
    assert run("rebuild").returncode == 0
    assert "warning" not in run("stats", "standings").stderr
    assert run("verify").stdout.endswith(f"all {len(list(SAMPLE_GAMES.glob('*.jsonl')))} games verified\n")


# --- 8 and 9: game ids and prefixes --------------------------------------------------------------


def test_a_prefix_is_matched_exactly(samples_db):
    assert "no game id starts with '334f68f_'" in ktlog(samples_db, "score", "334f68f_", ok=False).output
    assert "no game id starts with '%'" in ktlog(samples_db, "score", "%", ok=False).output
    assert "Alice" in ktlog(samples_db, "score", " 334F68F6 ").output
    assert "no game id starts with '334f68f_'" in ktlog(samples_db, "stats", "curves", "--game", "334f68f_", ok=False).output
    assert ktlog(samples_db, "stats", "curves", "--game", "334F", "--format", "csv").output.startswith("seq,")


# --- 12: unbounded inputs ----------------------------------------------------------------------------


def test_a_pipe_or_a_device_is_refused_not_waited_on(tmp_path, samples_db):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for args in (["--db", str(fifo), "games"], ["--db", str(fifo), "stats", "standings"], ["--db", str(samples_db), "import", str(fifo)]):
        proc = subprocess.run([*KTLOG, *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1 and "not a regular file" in proc.stderr, (args, proc.stderr)
    proc = subprocess.run([*KTLOG, "--db", str(samples_db), "import", "/dev/zero"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "/dev/zero is a device or socket, not a regular file" in proc.stderr


def test_an_oversized_file_line_name_or_note_is_refused(tmp_path, store, monkeypatch):
    from ktlog.events import Annotation
    from ktlog.files import gamelog

    g = game(to="setup")
    with pytest.raises(InvalidEvent, match="field player: 1,000,000 characters is too long"):
        store.new_game(g.events[0], [PlayerJoined(player="A" * 1_000_000, kill_team="x")])
    gid = store.new_game(g.events[0], g.events[1:])
    with pytest.raises(InvalidEvent, match="field text: 50,000,000 characters is too long"):
        store.append(gid, Annotation(target=2, text="n" * 50_000_000))
    big = tmp_path / "big.jsonl"
    big.write_bytes(next(SAMPLE_GAMES.glob("01_*.jsonl")).read_bytes().split(b"\n")[0] + b"\n" + b"x" * (2**20 + 1) + b"\n")
    assert "line 2: the line is 1,048,577 bytes long, more than the 1,048,576" in ktlog(tmp_path / "db", "import", big, ok=False).output
    monkeypatch.setattr(gamelog, "GAME_LOG_LIMIT", 2**20)
    assert "larger than 1 MB" in ktlog(tmp_path / "db", "import", big, ok=False).output


# --- 13: small ones ------------------------------------------------------------------------------------


def test_a_byte_that_is_not_utf8_is_counted_within_its_line(samples_db, tmp_path):
    from ktlog.files.gamelog import export_lines, write_game_log

    with Store(samples_db) as store:
        lines = export_lines(store, store.resolve("99ca"))
    broken = lines[3].replace(b'"type":"', b'"type":"\xff', 1)
    path = tmp_path / "bad.jsonl"
    write_game_log(path, [*lines[:3], broken, *lines[4:]])
    out = ktlog(tmp_path / "new.db", "import", path, ok=False).output
    offset = broken.index(b"\xff")
    assert f"line 4: not valid JSON (byte {offset} is not UTF-8 text" in out


def test_a_deeply_nested_argument_is_refused_plainly(tmp_path):
    db = tmp_path / "g.db"
    gid, _ = two_games(db)
    out = ktlog(db, "event", gid[:8], "Annotation", "target=2", "text=" + "[" * 100_000 + "]" * 100_000, ok=False).output
    assert "bug" not in out and "nothing was changed" in out


def test_a_version_1_game_created_with_a_dataslate_is_refused():
    from ktlog.envelopes import decode_payload

    with pytest.raises(InvalidEvent, match="GameCreated version 1 has no dataslate field"):
        decode_payload("GameCreated", 1, b'{"type":"GameCreated","ruleset":"kt24-preliminary","killzone":"volkus","date":"2026-11-01","dataslate":"Q4"}')
    assert decode_payload("GameCreated", 1, b'{"type":"GameCreated","ruleset":"kt24-preliminary","killzone":"volkus","date":"2026-11-01"}').dataslate is None


# --- signatures -------------------------------------------------------------------------------------


def test_both_players_sign_a_game_and_a_recomputed_chain_loses_the_signatures(samples_db, tmp_path, monkeypatch):
    alice_keys, bob_keys = tmp_path / "alice", tmp_path / "bob"
    bob_db, league_db = tmp_path / "bob.db", tmp_path / "league.db"
    monkeypatch.setenv("KTLOG_KEYS", str(alice_keys))
    assert "made the signing key of Alice" in ktlog(samples_db, "key", "new", "Alice").output
    assert "already holds a signing key" in ktlog(samples_db, "key", "new", "Mallory", ok=False).output
    ktlog(samples_db, "export", "334f", "--sign", "-o", tmp_path / "alice.jsonl")
    monkeypatch.setenv("KTLOG_KEYS", str(bob_keys))
    ktlog(samples_db, "key", "new", "Bob")
    out = ktlog(bob_db, "import", tmp_path / "alice.jsonl").output
    assert "signed by Alice (key " in out and "not pinned); not by Bob" in out
    ktlog(bob_db, "export", "334f", "--sign", "-o", tmp_path / "both.jsonl")
    out = ktlog(league_db, "import", "--trust-new", tmp_path / "both.jsonl", *sorted(SAMPLE_GAMES.glob("0[2-4]_*.jsonl"))).output
    assert "signed by Alice, Bob (every player, each by their pinned key)" in out  # pinned on first use (tests/test_keyring.py)
    assert "334f68f6  ok (266 events); signed by Alice, Bob (every player, each by their pinned key)" in ktlog(league_db, "verify").output
    standings = json.loads(ktlog(league_db, "stats", "standings", "--signed-by-both", "--format", "json").stdout)
    assert sorted(r["player"] for r in standings) == ["Alice", "Bob"] and all(r["games"] == 1 for r in standings)

    # An event edited and the chain recomputed (here its time): the file imports (a chain is
    # integrity, not authenticity), but the signatures no longer hold: not counted as signed.
    lines = (tmp_path / "both.jsonl").read_bytes().split(b"\n")[:-1]
    edited = json.loads(lines[5])
    lines[5] = json.dumps({**edited, "recorded_at": "2026-10-04T23:59:59+00:00"}).encode()
    forged_db = tmp_path / "forged.db"
    (tmp_path / "forged.jsonl").write_bytes(b"\n".join(rechained(lines)) + b"\n")
    out = ktlog(forged_db, "import", tmp_path / "forged.jsonl", *sorted(SAMPLE_GAMES.glob("0[2-4]_*.jsonl"))).output
    assert "no valid signature; the signature of Alice, Bob does NOT match the events" in out
    assert "334f68f6  ok (266 events); not signed" in ktlog(forged_db, "verify").output  # what does not hold is not kept
    out = CliRunner().invoke(cli, ["--db", str(forged_db), "stats", "standings", "--signed-by-both"])
    assert out.exit_code == 1 and "Alice" not in out.stdout


def test_a_header_with_an_empty_signature_list_imports_as_unsigned(samples_db, tmp_path):
    # Found by mypy's union-attr (issue 22): the import read `"signatures"` in the header, found
    # no signature to keep (None) and asked None to describe who signed: a traceback.
    ktlog(samples_db, "export", "334f", "-o", tmp_path / "game.jsonl")
    lines = (tmp_path / "game.jsonl").read_bytes().split(b"\n")
    header = json.loads(lines[0])
    (tmp_path / "empty.jsonl").write_bytes(b"\n".join([json.dumps({**header, "signatures": []}).encode(), *lines[1:]]))
    out = ktlog(tmp_path / "fresh.db", "import", tmp_path / "empty.jsonl", sorted(SAMPLE_GAMES.glob("02_*.jsonl"))[0]).output
    assert "2 files: 2 new" in out and "signed" not in out
    assert "334f68f6  ok (266 events); not signed" in ktlog(tmp_path / "fresh.db", "verify").output


def test_an_event_id_of_two_uuids_on_two_lines_is_refused_naming_the_field(samples_db, tmp_path):
    """The event ids of a file are checked and converted together (`envelopes.event_ids_bytes`):
    one id holding a newline between two UUIDs, the file's chain recomputed, is still one id,
    refused by its control character (not a traceback, nor two ids)."""
    ktlog(samples_db, "export", "334f", "-o", tmp_path / "game.jsonl")
    lines = (tmp_path / "game.jsonl").read_bytes().split(b"\n")[:-1]
    third = json.loads(lines[3])
    lines[3] = json.dumps({**third, "event_id": f"{json.loads(lines[2])['event_id']}\n{third['event_id']}"}).encode()
    (tmp_path / "forged.jsonl").write_bytes(b"\n".join(rechained(lines)) + b"\n")
    out = ktlog(tmp_path / "fresh.db", "import", tmp_path / "forged.jsonl", ok=False).output
    assert "forged.jsonl, line 4: field event_id: holds the control character U+000A" in out and "Traceback" not in out, out


def rechained(lines: list[bytes]) -> list[bytes]:
    """Game-log lines with their hash chain recomputed, as a forger would."""
    from ktlog.envelopes import GENESIS, canonical_raw, chain_hash

    out, prev = [lines[0]], GENESIS
    for line in lines[1:]:
        e = json.loads(line)
        payload = canonical_raw(json.dumps(e["payload"]).encode())
        e = {**e, "prev_hash": prev}
        e["hash"] = prev = chain_hash(prev, e["game_id"], e["seq"], e["event_id"], e["version"], e["recorded_at"], payload)
        out.append(json.dumps(e).encode())
    return out


@given(name=st.text(max_size=260), delta=st.integers())
def test_the_byte_search_never_passes_what_the_walk_refuses(name, delta):
    from ktlog.envelopes import _bad_value, _plainly_within_limits, canonical

    for event in (PlayerJoined(player=name, kill_team=name), AplModified(operative="a1", delta=delta, reason=name)):
        if _plainly_within_limits(canonical(event)):
            assert _bad_value(msgspec.to_builtins(event), type(event).__name__, "") is None


@given(name=st.text(alphabet='ab"\\', max_size=12), padding=st.integers(min_value=185, max_value=205))
def test_quotes_inside_a_text_keep_the_byte_search_within_the_walk(name, padding):
    """Texts around NAME_LIMIT with quotes (`\\"` in JSON) and backslashes in them: the byte
    search passes none the walk refuses."""
    from ktlog.envelopes import _bad_value, _plainly_within_limits, canonical

    event = PlayerJoined(player="x" * padding + name, kill_team='Blast 2"')
    if _plainly_within_limits(canonical(event)):
        assert _bad_value(msgspec.to_builtins(event), type(event).__name__, "") is None


def test_an_inch_mark_passes_the_byte_search():
    """Weapon rules such as `Blast 2"` are in most games' OperativeAdded events (issue 26)."""
    from ktlog.envelopes import _plainly_within_limits, canonical

    assert _plainly_within_limits(canonical(PlayerJoined(player='Kal "the Red"', kill_team='Blast 2"')))
    assert not _plainly_within_limits(canonical(PlayerJoined(player="Kal\\", kill_team="x")))
    assert not _plainly_within_limits(canonical(PlayerJoined(player="Kal\n", kill_team="x")))


def test_a_byte_that_is_not_utf8_on_the_command_line_is_refused_naming_the_field(samples_db):
    """A shell passes bytes; Python makes an invalid one a lone surrogate, which JSON cannot hold."""
    before = samples_db.read_bytes()
    for args in (["event", "334f", "AplModified", "operative=sergeant", "delta=1", b"reason=bad\xff"], ["annotate", "334f", "5", b"x\xffy"]):
        proc = subprocess.run([*KTLOG, "--db", str(samples_db), *args], capture_output=True)
        assert proc.returncode == 1, proc.stderr
        assert b"holds U+DCFF, which is not a character" in proc.stderr and b"bug" not in proc.stderr
    assert samples_db.read_bytes() == before
