"""How the ktlog database schema came to be: its migrations (sqlite-utils), applied when a
database of an older schema is opened (`dbfile.open_database`). Each describes the schema at its
time; the current schema is `catalog.py`. Loaded only for a migration: a current database opens
without sqlite-utils' import time (about 0.18 s of the TUI's start-up)."""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

migrations = Migrations("ktlog")
REBUILDING_MIGRATIONS = {
    "m002_dice_figures_and_crit_op",
    "m006_elimination_and_mission_vp",
    "m007_vp_by_op_and_typed_results",
    "m008_snapshot_seals",
    "m009_pve",
    "m010_simulated",
}
"""Migrations that change projection tables: a database they upgrade is rebuilt from its log."""


def restore_guards(conn) -> None:
    """The schema objects the log's promises rest on, made (again) as they should be: the unique
    indexes of events on (game_id, seq) and on event_id, and the triggers keeping events
    append-only (`ktlog verify` reports them missing; `ktlog rebuild` calls this)."""
    conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_events_game_id_seq ON events (game_id, seq)")
    conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_events_event_id ON events (event_id)")
    for op in ("UPDATE", "DELETE"):
        conn.execute(f"DROP TRIGGER IF EXISTS events_no_{op.lower()}")
        conn.execute(
            f"CREATE TRIGGER events_no_{op.lower()} BEFORE {op} ON events "
            f"BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction (undo) instead'); END"
        )


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    db["games"].create(
        {
            "id": str,
            "created_at": str,
            "updated_at": str,
            "ruleset": str,
            "killzone": str,
            "date": str,
            "mission": str,
            "league": str,
            "season": str,
            "round": str,
            "table_label": str,
            "players": str,
            "kill_teams": str,
            "status": str,
            "result": str,
            "head_seq": int,
            "head_hash": str,
        },
        pk="id",
        not_null={"ruleset", "status", "head_seq", "head_hash"},
    )
    db["events"].create(
        {
            "position": int,
            "game_id": str,
            "seq": int,
            "event_id": str,
            "type": str,
            "version": int,
            "recorded_at": str,
            "payload": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="position",
        not_null={"game_id", "seq", "event_id", "type", "version", "recorded_at", "payload", "prev_hash", "hash"},
        foreign_keys=[("game_id", "games", "id")],
    )
    restore_guards(db.conn)
    # Undos are found often (to pick a usable snapshot) and are few: a partial index holds only them.
    db.execute("CREATE INDEX idx_events_voids ON events (game_id, seq) WHERE type = 'EventVoided'")
    db["snapshots"].create({"game_id": str, "seq": int, "state": bytes}, pk=("game_id", "seq"))
    projection_v1 = {
        "vp_changes": "turning_point player op vp:int reason",
        "cp_changes": "turning_point player delta:int kind source",
        "attacks": "turning_point kind retaliation:int mode player operative weapon target_player target attack_dice:int "
        "hit:int normal_hits:int critical_hits:int defence_dice:int save:int normal_saves:int critical_saves:int "
        "damage:int incapacitated:int",
        "incapacitations": "turning_point player operative by_player by_operative source",
        "turning_points": "turning_point initiative",
        "game_results": "player kill_team opponents result ended_by vp_total:int vp_crit:int vp_kill:int vp_tac:int "
        "vp_primary:int kill_grade:int cp_left:int ruleset date league season round table_label",
    }
    for table, spec in projection_v1.items():
        columns = {"game_id": str, "seq": int}
        for column in spec.split():
            name, _, kind = column.partition(":")
            columns[name] = int if kind == "int" or name == "turning_point" else str
        db[table].create(columns)
        db[table].create_index(["game_id", "seq"])


@migrations()
def m002_dice_figures_and_crit_op(db: sqlite_utils.Database) -> None:
    """Schema 2: raw dice and expected damage on attacks (the luck index), crit op and
    killzone on game results. Projections are rebuilt after migrating (`dbfile.open_database`)."""
    for column, kind in (
        ("crit_on", int),
        ("rolled_successes", int),
        ("rolled_criticals", int),
        ("rolled_saves", int),
        ("rolled_critical_saves", int),
        ("expected_damage", float),
    ):
        db["attacks"].add_column(column, kind)
    db["game_results"].add_column("crit_op", str)
    db["game_results"].add_column("killzone", str)


@migrations()
def m003_verifications(db: sqlite_utils.Database) -> None:
    """Schema 3: the latest `ktlog verify` verdict of each game, for statistics to warn about."""
    db["verifications"].create({"game_id": str, "checked_at": str, "head_seq": int, "ok": int, "bad_seq": int, "problem": str}, pk="game_id")


@migrations()
def m004_meta(db: sqlite_utils.Database) -> None:
    """Schema 4: which ktlog wrote the database and which it needs, for older ktlogs to say."""
    db["meta"].create({"key": str, "value": str}, pk="key")


@migrations()
def m005_game_keys(db: sqlite_utils.Database) -> None:
    """Schema 5: every projection row carries its game's integer key (the analytics join on it)."""
    for table in ("vp_changes", "cp_changes", "attacks", "incapacitations", "turning_points", "game_results"):
        db[table].add_column("game_key", int)
        db.execute(f"UPDATE {table} SET game_key = (SELECT rowid FROM games WHERE games.id = {table}.game_id)")


@migrations()
def m006_elimination_and_mission_vp(db: sqlite_utils.Database) -> None:
    """Schema 6: game results carry Multiplayer Ops' elimination VP and KT21's mission VP (they
    were in vp_total only). Projections are rebuilt after migrating (`dbfile.open_database`)."""
    for column in ("vp_elimination", "vp_mission"):
        db["game_results"].add_column(column, int)


@migrations()
def m007_vp_by_op_and_typed_results(db: sqlite_utils.Database) -> None:
    """Schema 7: VP by op in long form, a `vp_by_op` row per player and op (a new scoring op
    needs no new column), instead of game_results' vp_crit, vp_kill, vp_tac, vp_primary,
    vp_elimination and vp_mission; and the games row's result as typed columns (winner, draw,
    ended_by, conceded_by) beside its JSON. Both are filled in from the log: the projections
    and games rows are rebuilt after migrating."""
    db["vp_by_op"].create({"game_id": str, "seq": int, "player": str, "op": str, "vp": int, "game_key": int})
    db["vp_by_op"].create_index(["game_id", "seq"])
    db["game_results"].transform(drop={f"vp_{op}" for op in ("crit", "kill", "tac", "primary", "elimination", "mission")})
    for column, kind in (("winner", str), ("draw", int), ("ended_by", str), ("conceded_by", str)):
        db["games"].add_column(column, kind)


@migrations()
def m008_snapshot_seals(db: sqlite_utils.Database) -> None:
    """Schema 8: each snapshot carries its seal, a hash of the hash of the event it was taken at
    and of its bytes (`snapshots.seal`); a reader uses only a snapshot whose seal holds. The
    snapshots are rewritten, sealed, after migrating. And the recorders' signatures of games
    (`play.signatures`), kept beside the log as the game-log files brought them."""
    db["snapshots"].add_column("seal", str)
    db["signatures"].create(
        {"game_id": str, "head_seq": int, "signer": str, "public_key": str, "signature": str, "recorded_at": str}, pk=("game_id", "head_seq", "public_key")
    )


@migrations()
def m009_pve(db: sqlite_utils.Database) -> None:
    """Schema 9: whether a game is played against non-player operatives (`Ruleset.pve`), in its
    games row, so the statistics leave such games out without loading the rules. Filled in from
    the log: the games rows are rebuilt after migrating."""
    db["games"].add_column("pve", int)


@migrations()
def m010_simulated(db: sqlite_utils.Database) -> None:
    """Schema 10: whether a game was played by `ktlog simulate` (GameCreated.simulated), in its
    games row, so statistics and datasets leave simulated games out unless asked. Filled in from
    the log: the games rows are rebuilt after migrating."""
    db["games"].add_column("simulated", int)
