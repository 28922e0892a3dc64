"""Merging tables: the databases of several tables (some games on one laptop only, some copied
between laptops) merge into one league database by `ktlog import` of their exports, in any
order; importing again changes nothing; a game recorded two different ways is refused, naming
both sources."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.envelopes import canonical
from ktlog.events import Annotation
from ktlog.play.simulate import simulate_games
from ktlog.play.verify import verify
from ktlog.storage import log
from ktlog.storage.catalog import DERIVED
from ktlog.storage.store import Store

PARTIAL = 120
"""Events of game A copied to table 2 in mid-game (a laptop swap, say)."""


def ktlog(db: Path, *args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def copy_of(source: Store, game_id: str, upto: int | None = None) -> list:
    """A game's stored envelopes (up to a seq), to store on another machine as they are."""
    return [(e, canonical(e.payload)) for e in source.events(game_id, upto=upto)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> dict:
    """Three tables' databases. Table 1 recorded A and B; table 2 holds the first events of A
    (copied in mid-game) and recorded C; table 3 recorded D and holds all of B."""
    root = tmp_path_factory.mktemp("tables")
    (a, ga), (b, gb), (c, gc), (d, gd) = simulate_games(4, 21, league="Merge League")
    dbs = {n: root / f"table{n}.db" for n in (1, 2, 3)}
    with Store(dbs[1]) as t1, Store(dbs[2]) as t2, Store(dbs[3]) as t3:
        for store, game_id, g in ((t1, a, ga), (t1, b, gb), (t2, c, gc), (t3, d, gd)):
            store.new_game(g.events[0], g.events[1:], game_id=game_id)
        t2.import_envelopes(a, copy_of(t1, a, PARTIAL))
        t3.import_envelopes(b, copy_of(t1, b))
        files = []
        for n, store in ((1, t1), (2, t2), (3, t3)):
            for row in store.games():
                files.append(root / f"table{n}-{row.id[:8]}.jsonl")
                assert ktlog(dbs[n], "export", row.id, "-o", files[-1])[0] == 0
    return {"dbs": dbs, "files": files, "games": {a: ga, b: gb, c: gc, d: gd}, "recorded_on": {a: dbs[1], b: dbs[1], c: dbs[2], d: dbs[3]}, "a": a}


def league_content(db: Path) -> dict:
    """Per game: its events (seq, event id, hash) and its rows in every projection table; the
    order games arrived in (their rows' positions and their games' integer keys) left out."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        games = [g for (g,) in conn.execute("SELECT id FROM games ORDER BY id")]
        return {
            g: {
                "events": [(seq, event_id, digest) for seq, event_id, *_, digest in log.rows(conn, key_of(conn, g))],
                "head": conn.execute("SELECT head_seq, head_hash, status, result FROM games WHERE id = ?", (g,)).fetchone(),
                **{t: sorted(map(repr, conn.execute(f"SELECT {', '.join(c)} FROM {t} WHERE game_id = ?", (g,)))) for t, c in DERIVED.items()},
            }
            for g in games
        }


def key_of(conn: sqlite3.Connection, game_id: str) -> int:
    return conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def dump(db: Path) -> list[str]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return list(conn.iterdump())


def test_tables_merge_into_one_league_in_any_order_and_twice_changes_nothing(tables, tmp_path, figures):
    files = tables["files"]
    league, reverse = tmp_path / "league.db", tmp_path / "league-reversed.db"
    status, out, err = ktlog(league, "import", *files)
    assert status == 0, err
    assert out.count("imported game") + out.count("added") + out.count("already in the database") == len(files)

    content = league_content(league)
    assert set(content) == set(tables["games"])  # every game once, the overlapping ones merged
    for game_id, g in tables["games"].items():
        # Nothing lost: every game has every event it was recorded with, in order.
        assert len(content[game_id]["events"]) == len(g.events)
        assert content[game_id] == league_content(tables["recorded_on"][game_id])[game_id]  # events, head, analytics rows
    with Store(league) as store:
        assert all(v.ok for v in verify(store))
        assert store.state(tables["a"]) == tables["games"][tables["a"]].state

    before = dump(league)
    status, out, _ = ktlog(league, "import", *files)
    assert status == 0 and out.count("already in the database; nothing to import") == len(files)
    assert dump(league) == before  # importing twice changes nothing

    assert ktlog(reverse, "import", *reversed(files))[0] == 0
    assert league_content(reverse) == content  # the order of the files does not matter
    figures["merge: table databases merged"] += len(tables["dbs"])
    figures["merge: game files imported"] += 2 * len(files)
    figures["merge: events in the league"] += sum(len(c["events"]) for c in content.values())


def test_the_same_game_recorded_two_ways_is_refused_naming_both_sources(tables, tmp_path, figures):
    """Table 2 went on recording game A on its partial copy while table 1 recorded the real
    game: the league keeps the copy it has and refuses the other, saying where each came from."""
    a, dbs, root = tables["a"], tables["dbs"], tmp_path
    diverged_db = root / "table2-diverged.db"
    with Store(dbs[2]) as t2, Store(diverged_db) as copy:
        copy.import_envelopes(a, copy_of(t2, a))
        copy.append(a, Annotation(target=1, text="recorded on table 2"))
    diverged = root / "table2-a.jsonl"
    assert ktlog(diverged_db, "export", a, "-o", diverged)[0] == 0
    league = root / "league.db"
    assert ktlog(league, "import", *tables["files"])[0] == 0
    kept = league_content(league)

    status, _, err = ktlog(league, "import", diverged)
    assert status == 1
    seq = PARTIAL + 1
    message = err.strip().removeprefix("error: ")
    assert message.startswith(f"{diverged}, line {seq + 1}: game {a[:8]} is already in {league} with different events from seq {seq}: ")
    with Store(dbs[1]) as t1:
        theirs = t1.events(a, upto=seq, after=seq - 1)[0]
    assert f"{league} has {theirs.type} recorded at {theirs.recorded_at} (event id {theirs.event_id})" in message
    assert f"{diverged} has Annotation recorded at " in message
    assert message.endswith("Nothing from this file was imported")
    assert league_content(league) == kept
    figures["merge: diverging copies refused"] += 1
