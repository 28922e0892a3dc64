"""How the ktlog database schema came to be: its migrations (sqlite-utils), applied when a
database of an older schema is opened (`dbfile.open_database`). Each describes the schema at its
time; the current schema is `catalog.py`. Loaded only for a migration: a current database opens
without sqlite-utils' import time (about 0.18 s of the TUI's start-up)."""

from __future__ import annotations

import sqlite3

from ..envelopes import GENESIS, event_id_bytes
from . import log
from .catalog import REWINDS
from .schema_library import sqlite_utils
from .snapshots import pack

migrations = sqlite_utils.Migrations("ktlog")
REBUILDING_MIGRATIONS = {
    "m002_dice_figures_and_crit_op",
    "m006_elimination_and_mission_vp",
    "m007_vp_by_op_and_typed_results",
    "m008_snapshot_seals",
    "m009_pve",
    "m010_simulated",
    "m014_rules_checked",
}
"""Migrations that change projection tables: a database they upgrade is rebuilt from its log."""
COMPACTING_MIGRATIONS = {"m011_lean_log", "m019_game_archives"}
"""Migrations that rewrite the largest tables smaller: a database they upgrade is vacuumed after,
so the file shrinks (the freed pages would otherwise stay in it, for new rows)."""


def restore_guards(conn: sqlite3.Connection) -> None:
    """The schema objects the log's promises rest on, made (again) as they should be: the unique
    index of events on (game_key, seq), every event id in `event_ids` (whose key keeps them
    unique) and the trigger that puts them there, and the triggers keeping events and archived
    blocks append-only (`ktlog verify` reports them missing; `ktlog rebuild` calls this)."""
    conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS idx_events_game_key_seq ON events (game_key, seq)")
    for sql in log.GUARDS:
        conn.execute(sql)
    conn.execute("INSERT OR IGNORE INTO event_ids (event_id, game_key) SELECT event_id, game_key FROM events ORDER BY event_id")
    _append_only(conn, log.ARCHIVED_ONLY)


def _append_only(conn: sqlite3.Connection, deletes_when: str = "") -> None:
    """The triggers refusing to change or delete an event (a delete `deletes_when` only)."""
    for op in ("UPDATE", "DELETE"):
        when = f" {deletes_when}" if op == "DELETE" and deletes_when else ""
        conn.execute(f"DROP TRIGGER IF EXISTS events_no_{op.lower()}")
        conn.execute(
            f"CREATE TRIGGER events_no_{op.lower()} BEFORE {op} ON events{when} "
            f"BEGIN SELECT RAISE(ABORT, 'events are append-only: record a correction (undo) instead'); END"
        )


@migrations()
def m001_initial(db: sqlite_utils.Database) -> None:
    db.table("games").create(
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
    db.table("events").create(
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
    db.execute("CREATE UNIQUE INDEX idx_events_game_id_seq ON events (game_id, seq)")
    db.execute("CREATE UNIQUE INDEX idx_events_event_id ON events (event_id)")
    _append_only(db.conn)
    # Undos are found often (to pick a usable snapshot) and are few: a partial index holds only them.
    db.execute("CREATE INDEX idx_events_voids ON events (game_id, seq) WHERE type = 'EventVoided'")
    db.table("snapshots").create({"game_id": str, "seq": int, "state": bytes}, pk=("game_id", "seq"))
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
        db.table(table).create(columns)
        db.table(table).create_index(["game_id", "seq"])


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
        db.table("attacks").add_column(column, kind)
    db.table("game_results").add_column("crit_op", str)
    db.table("game_results").add_column("killzone", str)


@migrations()
def m003_verifications(db: sqlite_utils.Database) -> None:
    """Schema 3: the latest `ktlog verify` verdict of each game, for statistics to warn about."""
    db.table("verifications").create({"game_id": str, "checked_at": str, "head_seq": int, "ok": int, "bad_seq": int, "problem": str}, pk="game_id")


@migrations()
def m004_meta(db: sqlite_utils.Database) -> None:
    """Schema 4: which ktlog wrote the database and which it needs, for older ktlogs to say."""
    db.table("meta").create({"key": str, "value": str}, pk="key")


@migrations()
def m005_game_keys(db: sqlite_utils.Database) -> None:
    """Schema 5: every projection row carries its game's integer key (the analytics join on it)."""
    for table in ("vp_changes", "cp_changes", "attacks", "incapacitations", "turning_points", "game_results"):
        db.table(table).add_column("game_key", int)
        db.execute(f"UPDATE {table} SET game_key = (SELECT rowid FROM games WHERE games.id = {table}.game_id)")


@migrations()
def m006_elimination_and_mission_vp(db: sqlite_utils.Database) -> None:
    """Schema 6: game results carry Multiplayer Ops' elimination VP and KT21's mission VP (they
    were in vp_total only). Projections are rebuilt after migrating (`dbfile.open_database`)."""
    for column in ("vp_elimination", "vp_mission"):
        db.table("game_results").add_column(column, int)


@migrations()
def m007_vp_by_op_and_typed_results(db: sqlite_utils.Database) -> None:
    """Schema 7: VP by op in long form, a `vp_by_op` row per player and op (a new scoring op
    needs no new column), instead of game_results' vp_crit, vp_kill, vp_tac, vp_primary,
    vp_elimination and vp_mission; and the games row's result as typed columns (winner, draw,
    ended_by, conceded_by) beside its JSON. Both are filled in from the log: the projections
    and games rows are rebuilt after migrating."""
    db.table("vp_by_op").create({"game_id": str, "seq": int, "player": str, "op": str, "vp": int, "game_key": int})
    db.table("vp_by_op").create_index(["game_id", "seq"])
    db.table("game_results").transform(drop={f"vp_{op}" for op in ("crit", "kill", "tac", "primary", "elimination", "mission")})
    for column, kind in (("winner", str), ("draw", int), ("ended_by", str), ("conceded_by", str)):
        db.table("games").add_column(column, kind)


@migrations()
def m008_snapshot_seals(db: sqlite_utils.Database) -> None:
    """Schema 8: each snapshot carries its seal, a hash of the hash of the event it was taken at
    and of its bytes (`snapshots.seal`); a reader uses only a snapshot whose seal holds. The
    snapshots are rewritten, sealed, after migrating. And the recorders' signatures of games
    (`play.signatures`), kept beside the log as the game-log files brought them."""
    db.table("snapshots").add_column("seal", str)
    db.table("signatures").create(
        {"game_id": str, "head_seq": int, "signer": str, "public_key": str, "signature": str, "recorded_at": str}, pk=("game_id", "head_seq", "public_key")
    )


@migrations()
def m009_pve(db: sqlite_utils.Database) -> None:
    """Schema 9: whether a game is played against non-player operatives (`Ruleset.pve`), in its
    games row, so the statistics leave such games out without loading the rules. Filled in from
    the log: the games rows are rebuilt after migrating."""
    db.table("games").add_column("pve", int)


@migrations()
def m010_simulated(db: sqlite_utils.Database) -> None:
    """Schema 10: whether a game was played by `ktlog simulate` (GameCreated.simulated), in its
    games row, so statistics and datasets leave simulated games out unless asked. Filled in from
    the log: the games rows are rebuilt after migrating."""
    db.table("games").add_column("simulated", int)


@migrations()
def m011_lean_log(db: sqlite_utils.Database) -> None:
    """Schema 11: a leaner log (662 bytes an event on disk down to 336). The games table
    gets an explicit integer primary key, `game_key` (the rowid its projection rows already
    carried, kept as it was: a VACUUM may renumber an implicit rowid). Events are keyed by it
    instead of the 36-character game id, which only a game's first event keeps; event ids that
    are UUIDs and hashes are stored as bytes instead of hex text; the previous hash, which is the
    hash of the event before, is no longer a column. Snapshots are keyed by game_key, their states
    compressed (`snapshots.pack`; the seal is over the state's own bytes, as before), their seals
    bytes. Every value is kept: the hashes and seals check again after."""
    conn = db.conn
    # Values edited behind ktlog's back are kept as they are (`ktlog verify` names them after).
    conn.create_function("hash_bytes", 1, _hash_bytes, deterministic=True)
    conn.create_function("uuid_bytes", 1, lambda i: event_id_bytes(i) if isinstance(i, str) else i, deterministic=True)
    conn.create_function("pack", 1, lambda state: pack(state) if isinstance(state, bytes) else state, deterministic=True)
    games = [c.name for c in db["games"].columns if c.name != "id"]
    conn.execute("DROP INDEX IF EXISTS idx_events_voids")
    conn.execute("ALTER TABLE games RENAME TO games_before_m011")
    conn.execute("ALTER TABLE events RENAME TO events_before_m011")
    conn.execute("ALTER TABLE snapshots RENAME TO snapshots_before_m011")
    db.table("games").create(
        {"game_key": int, "id": str, **{c: db["games_before_m011"].columns_dict[c] for c in games}},
        pk="game_key",
        not_null={"id", "ruleset", "status", "head_seq", "head_hash"},
    )
    conn.execute("CREATE UNIQUE INDEX idx_games_id ON games (id)")
    conn.execute(f"INSERT INTO games (game_key, id, {', '.join(games)}) SELECT rowid, id, {', '.join(games)} FROM games_before_m011")
    # A game whose events are stored without its row (deleted behind ktlog's back) gets a row
    # whose head is 0, so its events are kept: `ktlog verify` names it, `ktlog rebuild` fills it in.
    conn.execute(
        "INSERT INTO games (id, created_at, ruleset, status, head_seq, head_hash) SELECT game_id, min(recorded_at), '', 'setup', 0, ? "
        "FROM events_before_m011 WHERE game_id NOT IN (SELECT id FROM games) GROUP BY game_id",
        (GENESIS,),
    )
    conn.execute(
        """CREATE TABLE events (
            position INTEGER PRIMARY KEY,
            game_key INTEGER NOT NULL REFERENCES games (game_key),
            seq INTEGER NOT NULL,
            event_id BLOB NOT NULL,
            type TEXT NOT NULL,
            version INTEGER NOT NULL,
            recorded_at TEXT NOT NULL,
            payload TEXT NOT NULL,
            hash BLOB NOT NULL,
            game_id TEXT CHECK ((seq = 1) = (game_id IS NOT NULL))
        )"""
    )
    conn.execute(
        "INSERT INTO events (position, game_key, seq, event_id, type, version, recorded_at, payload, hash, game_id) "
        "SELECT e.position, g.game_key, e.seq, uuid_bytes(e.event_id), e.type, e.version, e.recorded_at, e.payload, hash_bytes(e.hash), "
        "CASE WHEN e.seq = 1 THEN e.game_id END FROM events_before_m011 e JOIN games g ON g.id = e.game_id ORDER BY e.position"
    )
    db.table("snapshots").create({"game_key": int, "seq": int, "state": bytes, "seal": bytes}, pk=("game_key", "seq"))
    conn.execute(
        "INSERT INTO snapshots (game_key, seq, state, seal) SELECT g.game_key, s.seq, pack(s.state), hash_bytes(s.seal) "
        "FROM snapshots_before_m011 s JOIN games g ON g.id = s.game_id WHERE s.seal GLOB '[0-9a-f]*' AND length(s.seal) = 64"
    )
    for table in ("snapshots", "events", "games"):
        conn.execute(f"DROP TABLE {table}_before_m011")
    conn.execute("CREATE UNIQUE INDEX idx_events_game_key_seq ON events (game_key, seq)")
    conn.execute("CREATE UNIQUE INDEX idx_events_event_id ON events (event_id)")
    _append_only(conn)
    conn.execute(f"CREATE INDEX idx_events_rewinds ON events (game_key, seq) WHERE {REWINDS}")


@migrations()
def m012_keyring(db: sqlite_utils.Database) -> None:
    """Schema 12: the league's keyring (`play.keyring`): each public key pinned to the one name
    it signs for, how it came to be pinned (`ktlog key trust`, or on first use at an import) and
    when, and when it was revoked. A signature counts as a player's only by a key pinned to them."""
    db.table("keyring").create(
        {"public_key": str, "name": str, "how": str, "pinned_at": str, "revoked_at": str}, pk="public_key", not_null={"name", "how", "pinned_at"}
    )
    db.table("keyring").create_index(["name"])


@migrations()
def m013_seats(db: sqlite_utils.Database) -> None:
    """Schema 13: the seats of a game (`ktlog seat`), one per player: the SHA-256 of its token
    (the token itself is never stored), when it was issued and revoked, and the public key the
    seat registered to sign with. And the games row's count of open disputes, which statistics
    name (no stored game has a dispute yet: nothing to rebuild)."""
    db.table("seats").create(
        {"game_id": str, "player": str, "token_hash": str, "issued_at": str, "revoked_at": str, "public_key": str},
        pk=("game_id", "player"),
    )
    db.execute("CREATE UNIQUE INDEX idx_seats_token_hash ON seats (token_hash)")
    db.table("games").add_column("disputes", int)
    db.execute("UPDATE games SET disputes = 0")


@migrations()
def m014_rules_checked(db: sqlite_utils.Database) -> None:
    """Schema 14 changes no table: the rules of this version check what the older ones did not
    (fight assists, Blast secondaries, Guard, equipment after the set-up roll-off), reading an
    older event they would refuse with an override that says so, and an equipment option gives a
    list of weapons (`PlayerJoined` version 4). The states a fold gives are no longer those the
    stored snapshots and projections hold, so a database this upgrades is rebuilt from its log
    (REBUILDING_MIGRATIONS), and `ktlog verify` finds no snapshot "edited behind ktlog's back"."""


@migrations()
def m017_player_identities(db: sqlite_utils.Database) -> None:
    """Schema 17: players as identities (`play.players`), beside the log, which is never rewritten.
    A player with no pinned key is their name within the database that recorded their games (its
    own id, `meta`'s `database_id`, made once when a file is set up or migrated: `dbfile`). `game_origins`: the
    database that recorded a game imported from another (a game-log file's `recorded_in`); a game
    with no row was recorded here. `player_aliases`: a name as one database recorded it, counted as
    another identity (`ktlog player merge`, a new name of `ktlog player rename`). `player_names`:
    an identity's name as shown, when renamed or merged."""
    db.table("game_origins").create({"game_id": str, "database_id": str, "label": str}, pk="game_id", not_null={"database_id", "label"})
    db.table("player_aliases").create({"database_id": str, "name": str, "player_id": str}, pk=("database_id", "name"), not_null={"player_id"})
    db.table("player_aliases").create_index(["player_id"])
    db.table("player_names").create({"player_id": str, "name": str, "changed_at": str}, pk="player_id", not_null={"name", "changed_at"})


def _hash_bytes(text: str | bytes | int | float | None) -> str | bytes | int | float | None:
    """A SHA-256 hash as hex text -> its 32 bytes (anything else as it is)."""
    if isinstance(text, str) and len(text) == 64:
        try:
            return bytes.fromhex(text)
        except ValueError:
            pass
    return text


@migrations()
def m018_tournaments(db: sqlite_utils.Database) -> None:
    """Schema 18: tournaments (`ktlog tournament`, `play.tournament`): each event's rounds,
    ruleset, tie-breakers and first-round seed; its players; and its tables, one row per pairing
    of a round (player_b empty for a bye), with the game linked to it or the player who did
    not show. The games themselves stay in the log: a table's result is read from its game."""
    db.table("tournaments").create(
        {"name": str, "created_at": str, "rounds": int, "ruleset": str, "tie_breakers": str, "seed": int}, pk="name", not_null={"created_at", "rounds"}
    )
    db.table("tournament_players").create({"tournament": str, "player": str, "added_at": str}, pk=("tournament", "player"))
    db.table("tournament_tables").create(
        {"tournament": str, "round": int, "table_no": int, "player_a": str, "player_b": str, "game_id": str, "no_show": str, "paired_at": str},
        pk=("tournament", "round", "table_no"),
        not_null={"player_a", "paired_at"},
    )
    db.execute("CREATE UNIQUE INDEX idx_tournament_tables_game_id ON tournament_tables (game_id) WHERE game_id IS NOT NULL")


@migrations()
def m019_game_archives(db: sqlite_utils.Database) -> None:
    """Schema 20: finished games archived (`storage.log`: 339 bytes an event down to about 140).
    A finished game's events but its head move into `game_archives`, zlib blocks of their
    columns with a short hash an event and the full hash of each block's last event; every event
    id is kept in `event_ids` (a WITHOUT ROWID table, filled by a trigger on events) instead of a
    unique index on events, so an archived event's id stays taken. The events table's delete
    trigger lets a row go only once it is archived. Every value is kept as it is: an event
    edited before stays one `ktlog verify` names."""
    conn = db.conn
    conn.execute(
        """CREATE TABLE game_archives (
            game_key INTEGER NOT NULL REFERENCES games (game_key),
            first_seq INTEGER NOT NULL,
            last_seq INTEGER NOT NULL,
            last_hash BLOB NOT NULL,
            game_id TEXT,
            events BLOB NOT NULL,
            PRIMARY KEY (game_key, first_seq)
        )"""
    )
    conn.execute("DROP INDEX IF EXISTS idx_events_event_id")
    restore_guards(conn)  # event_ids, filled from the events
    for key, head_seq in conn.execute("SELECT game_key, head_seq FROM games WHERE status = 'finished'").fetchall():
        log.archive(conn, key, head_seq - 1)


@migrations()
def m020_lean_snapshots(db: sqlite_utils.Database) -> None:
    """Schema 21 changes no table: a snapshot stores each distinct datacard of its state once
    (`state.encode_state`), not each operative's in full, so decoding one in a long game with
    big teams costs less. Snapshots stored before are read as they are (`state.decode_state`
    reads both) and written anew by `ktlog rebuild`; an older ktlog, which could not decode the
    new ones (it would take them for edited), refuses the file."""


@migrations()
def m021_log_chunks(db: sqlite_utils.Database) -> None:
    """Schema 22 changes no table: a snapshot keeps its state's logs (attacks, notes ...) apart
    from the rest, in compressed chunks of LOG_CHUNK seqs each (`state.encode_state`), which the
    snapshots of a game share byte for byte, so a seek decodes only the chunks its store has
    not decoded yet. Snapshots stored before are read as they are (`state.decode_state` reads
    them) and written anew by `ktlog rebuild`; an older ktlog, which would take the new ones
    for edited, refuses the file."""


@migrations()
def m022_event_day(db: sqlite_utils.Database) -> None:
    """Schema 23: an event day (`play.tournament`). A tournament's players as league identities
    (`player_id`, `club`), their check-in, the round a late arrival joins and the round after
    which a player dropped; a tournament's bye in the opponents' average, its round timer, a
    round reopened by the organiser and the organiser page's token (its hash). And the games
    row's `reported` (`ResultReported`), NULL for every game stored before: none had one."""
    for column, kind in (("bye_points", float), ("timer_round", int), ("timer_ends_at", str), ("reopened_round", int), ("organiser_token_hash", str)):
        db.table("tournaments").add_column(column, kind)
    for column, kind in (("player_id", str), ("club", str), ("checked_in_at", str), ("joins_round", int), ("dropped_after", int)):
        db.table("tournament_players").add_column(column, kind)
    db.execute("UPDATE tournament_players SET joins_round = 1")
    db.table("games").add_column("reported", str)
