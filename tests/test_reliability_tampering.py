"""Tampering: a game edited directly in the SQLite file, with the append-only triggers dropped as
an attacker would, is caught by `ktlog verify`, which names the game and the first bad seq and
exits with status 1. The other game in the database still verifies."""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import game
from raw_log import RawLog

from ktlog.cli import cli
from ktlog.files.gamelog import export_lines, write_game_log
from ktlog.play.builder import shoot
from ktlog.play.simulate import simulate_games
from ktlog.storage.snapshots import SNAPSHOT_EVERY
from ktlog.storage.store import Store

Tamper = Callable[[sqlite3.Connection, "Game"], int | None]


class Game:
    """The game under attack: its id and where its interesting rows are."""

    def __init__(self, conn: sqlite3.Connection, game_id: str):
        self.id = game_id
        self.head = conn.execute("SELECT head_seq FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        self.shot = conn.execute("SELECT min(seq) FROM attacks WHERE game_id = ? AND damage > 0", (game_id,)).fetchone()[0]
        self.vp_seq = conn.execute("SELECT min(seq) FROM vp_changes WHERE game_id = ?", (game_id,)).fetchone()[0]
        self.log = RawLog(conn, game_id)


LAYOUTS = ("rows", "archived")
"""How the attacked game's events are stored: rows of `events` (a game in progress: the
simulated game without its last event) or, finished, in `game_archives` blocks but its head
(`ktlog.storage.log`). Every case is made on both."""


@pytest.fixture(scope="module", params=LAYOUTS)
def recorded(request, tmp_path_factory) -> tuple[Path, str, str]:
    """A database with two simulated games (more than 200 events, with kills, VP and snapshots;
    finished or not, as the layout says): the one to tamper with, and a bystander."""
    path = tmp_path_factory.mktemp("tampering") / "league.db"
    with Store(path) as store:
        ids = []
        for game_id, g in simulate_games(2, 3):
            events = g.events if request.param == "archived" else g.events[:-1]
            store.new_game(events[0], events[1:], game_id=game_id)
            ids.append(game_id)
        assert all(store.game(i).head_seq > 2 * SNAPSHOT_EVERY for i in ids)
        archived = store.conn.execute("SELECT count(*) FROM game_archives").fetchone()[0]
        assert archived == (2 if request.param == "archived" else 0)
    return path, ids[0], ids[1]


@pytest.fixture
def league(recorded, tmp_path):
    """A fresh copy of the recorded database, its triggers dropped, and the game to attack."""
    source, target, bystander = recorded
    db = tmp_path / "league.db"
    shutil.copy(source, db)
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        for trigger in ("events_no_update", "events_no_delete", "archives_no_update", "archives_no_delete"):
            conn.execute(f"DROP TRIGGER {trigger}")
        yield db, conn, Game(conn, target), bystander


def edit_payload(conn, g):
    g.log.update(g.shot, payload=g.log.get(g.shot)["payload"].replace('"operative":', '"operative": '))
    return g.shot


def edit_payload_into_bytes(conn, g):
    g.log.update(g.shot, payload=g.log.get(g.shot)["payload"].encode())
    return g.shot


def edit_type_column(conn, g):
    g.log.update(g.shot, type="Annotation")
    return g.shot


def edit_recorded_at(conn, g):
    g.log.update(40, recorded_at="2020-01-01T00:00:00+00:00")
    return 40


def delete_an_event(conn, g):
    g.log.delete(57)
    return 57


def delete_the_last_event(conn, g):
    g.log.delete(g.head)
    return g.head


def swap_two_seqs(conn, g):
    g.log.swap(80, 81)
    return 80


def swap_two_rows(conn, g):
    """Exchange everything but the seq between two events: the order of the log changes."""
    a, b = g.log.get(90), g.log.get(91)
    g.log.update(90, event_id=b"-")  # event ids are unique
    g.log.update(91, **a)
    g.log.update(90, **b)
    return 90


def forge_an_event_at_the_end(conn, g):
    key, recorded_at = conn.execute(
        "SELECT game_key, recorded_at FROM events WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = ?", (g.id, g.head)
    ).fetchone()
    conn.execute(
        "INSERT INTO events (game_key, seq, event_id, type, version, recorded_at, payload, hash) VALUES (?,?,?,?,?,?,?,?)",
        (key, g.head + 1, "forged", "GameConceded", 1, recorded_at, '{"player":"Ana","type":"GameConceded"}', bytes(32)),
    )
    return g.head + 1


def edit_head_seq(conn, g):
    conn.execute("UPDATE games SET head_seq = head_seq - 1 WHERE id = ?", (g.id,))
    return g.head


def edit_head_hash(conn, g):
    conn.execute("UPDATE games SET head_hash = ? WHERE id = ?", ("f" * 64, g.id))
    return g.head


def edit_a_vp_row(conn, g):
    conn.execute("UPDATE vp_changes SET vp = vp + 3 WHERE game_id = ? AND seq = ?", (g.id, g.vp_seq))
    return g.vp_seq


def delete_an_attack_row(conn, g):
    conn.execute("DELETE FROM attacks WHERE game_id = ? AND seq = ?", (g.id, g.shot))
    return g.shot


def add_a_vp_row(conn, g):
    conn.execute("INSERT INTO vp_changes (game_id, seq, turning_point, player, op, vp, reason) VALUES (?, 30, 1, 'Ana', 'kill', 5, 'forged')", (g.id,))
    return 30


def edit_a_snapshot(conn, g):
    other = conn.execute(
        "SELECT state FROM snapshots WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = ?", (g.id, SNAPSHOT_EVERY)
    ).fetchone()[0]
    conn.execute("UPDATE snapshots SET state = ? WHERE game_key = (SELECT game_key FROM games WHERE id = ?) AND seq = ?", (other, g.id, 2 * SNAPSHOT_EVERY))
    return 2 * SNAPSHOT_EVERY


def edit_the_result(conn, g):
    """No seq to name: the game's row as a whole is wrong."""
    row = json.loads(conn.execute("SELECT result FROM games WHERE id = ?", (g.id,)).fetchone()[0] or "{}")
    row["winner"], row["draw"] = "Mallory", False
    conn.execute("UPDATE games SET result = ? WHERE id = ?", (json.dumps(row), g.id))


def delete_the_games_row(conn, g):
    """No seq to name: the game's events are there without its row."""
    conn.execute("DELETE FROM games WHERE id = ?", (g.id,))


def two_edits(conn, g):
    edit_recorded_at(conn, g)
    g.log.update(12, recorded_at="2020-01-01T00:00:00+00:00")
    return 12


def reseal_an_illegal_edit(conn, g):
    """An attacker who recomputes the chain: the edited shot now comes from an operative of the
    other player, which the rules refuse."""
    payload = json.loads(g.log.get(g.shot)["payload"])
    payload["operative"] = payload["attacks"][0]["target"]
    g.log.update(g.shot, payload=json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=False))
    g.log.reseal_from(g.shot)
    return g.shot


def edit_an_archived_block(conn, g):
    """Bytes of a block that no longer unpack: the game cannot be read, and says so (no seq:
    its events are not known). A game in progress has no block: its first event's bytes instead."""
    if g.log.archived(1) is None:
        pytest.skip("a game in progress has no block")
    conn.execute("UPDATE game_archives SET events = x'00ff' WHERE game_key = ? AND first_seq = 1", (g.log.key,))
    return None


CASES: list[Tamper] = [
    edit_payload,
    edit_payload_into_bytes,
    edit_type_column,
    edit_recorded_at,
    delete_an_event,
    delete_the_last_event,
    swap_two_seqs,
    swap_two_rows,
    forge_an_event_at_the_end,
    edit_head_seq,
    edit_head_hash,
    edit_a_vp_row,
    delete_an_attack_row,
    add_a_vp_row,
    edit_a_snapshot,
    edit_the_result,
    delete_the_games_row,
    two_edits,
    reseal_an_illegal_edit,
    edit_an_archived_block,
]


def run_verify(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), "verify", *args])


def test_an_untouched_database_verifies(recorded):
    db, *_ = recorded
    result = run_verify(db)
    assert result.exit_code == 0 and "all 2 games verified" in result.stdout


@pytest.mark.parametrize("tamper", CASES, ids=[c.__name__ for c in CASES])
def test_verify_names_the_game_and_the_first_bad_seq(league, tamper, figures):
    db, conn, g, bystander = league
    bad_seq = tamper(conn, g)
    result = run_verify(db)
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    where = f"seq {bad_seq}" if bad_seq else "the game"
    assert f"{g.id[:8]}  FAILED at {where}: " in result.stdout, result.stdout
    assert f"{bystander[:8]}  ok" in result.stdout
    assert "1 of 2 games failed verification" in result.stderr
    figures["tampering: cases detected by ktlog verify"] += 1


def test_a_resealed_edit_is_caught_without_a_rebuild_and_by_the_export_with_one(tmp_path, figures):
    """The hash chain is not a signature: someone who changes a shot's saves (a change the rules
    accept), recomputes the chain and rebuilds the derived tables leaves a consistent database.
    Before the rebuild, the derived tables give it away (the kill is gone); after it, the copy exported before (kept
    by the table or the organiser) is the reference: importing it refuses the edited game."""
    db, original = tmp_path / "league.db", tmp_path / "table.jsonl"
    g = game(3, 3)
    g.activate("a1", "engage", shoot("Gun", "b1", "6541", "211"))
    with Store(db) as store:
        game_id = store.new_game(g.events[0], g.events[1:])
        write_game_log(original, export_lines(store, game_id))
    shot = len(g.events) - 1
    with contextlib.closing(sqlite3.connect(db, isolation_level=None)) as conn:
        conn.execute("DROP TRIGGER events_no_update")
        log = RawLog(conn, game_id)
        log.update(shot, payload=log.get(shot)["payload"].replace("[2,1,1]", "[6,6,6]"))
        log.reseal_from(shot)

    caught = run_verify(db, game_id[:8])
    assert caught.exit_code == 1 and f"FAILED at seq {shot}: the " in caught.stdout and "does not match the events" in caught.stdout, caught.stdout
    figures["tampering: cases detected by ktlog verify"] += 1
    assert CliRunner().invoke(cli, ["--db", str(db), "rebuild"]).exit_code == 0
    assert run_verify(db, game_id[:8]).exit_code == 0  # consistent now, as far as the database alone can tell
    refused = CliRunner().invoke(cli, ["--db", str(db), "import", str(original)])
    assert refused.exit_code == 1
    assert f"line {shot + 1}: game {game_id[:8]} is already in {db} with different events from seq {shot}" in refused.stderr
    figures["tampering: resealed edits caught by the export kept elsewhere"] += 1
