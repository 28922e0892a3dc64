"""The current schema of a ktlog database, in one place: every table, its columns and their
types (int, float, str or bytes). The store, the projections, `ktlog verify` and the
statistics take their columns from here; `migrations.py` records how older schemas got here
(a test checks that migrating any of them, or creating a database, gives exactly these tables).

Loaded without sqlite-utils or the rules: the statistics read it to type their frames.
"""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from ..state import LOGS

GAMES: dict[str, type] = {
    "game_key": int,
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
    "winner": str,
    "draw": int,
    "ended_by": str,
    "conceded_by": str,
    "pve": int,
    "simulated": int,
    "disputes": int,
    "reported": str,
}
"""One row per game. `game_key`, its integer primary key, keys its events, snapshots and
projection rows (a tenth of the 36-character id, and never renumbered by a VACUUM); `id` is the
game's id as users and files give it (unique). `head_hash` is the hash of its last event (hex
text, as the game-log files and signatures give hashes). `players`,
`kill_teams` and `result` are JSON for listing games (`ktlog games --json` shows `result` as it
is); the result's parts a program compares are typed columns: `winner` (None for a draw or a
shared win), `draw` (0 or 1), `ended_by`, `conceded_by`, and each player's VP in `game_results`
and `vp_by_op`. `pve` (0 or 1): played against non-player operatives (`Ruleset.pve`), left out of
the league unless asked for. `simulated` (0 or 1): played by `ktlog simulate` (GameCreated.simulated),
left out of statistics and datasets unless asked for (`--simulated`). `disputes`: how many
disputes of its events are open (`EventDisputed`): while any is, its result is provisional.
`reported`: the result reported for it (`ResultReported`: JSON of the VP by player, who stands
behind them and the event's seq), beside a battle recorded in full or as the result itself."""

LABEL_COLUMNS = {"mission": "mission", "league": "league", "season": "season", "round": "round", "table": "table_label"}
"""A game's label -> its column in the games table."""

EVENTS: dict[str, type] = {
    "game_key": int,
    "seq": int,
    "event_id": bytes,
    "type": str,
    "version": int,
    "recorded_at": str,
    "payload": str,
    "hash": bytes,
    "game_id": str,
}
"""The append-only log's rows (besides `position`, its primary key: the order events were stored
in): a game in progress's events, and a finished game's last (the rest are in `game_archives`;
`storage.log` is the one reader of both), stored lean: the game's integer key, the event id (a UUID) as its 16 bytes, the SHA-256 hash as
its 32 bytes, and no previous hash (it is the hash of the event before: readers take it from
there, `ktlog verify` checks the chain with it). `game_id` is filled in on a game's first event
only (seq 1): the log names its games by itself, so a deleted games row can be rebuilt. The
in-memory `Envelope` keeps ids and hashes as text: `rows.event_rows` and `rows.row_envelope`
convert at the boundary. An event id that is not a UUID (a game-log file may carry any short
text) is stored as its UTF-8 bytes."""

GAME_ARCHIVES: dict[str, type] = {"game_key": int, "first_seq": int, "last_seq": int, "last_hash": bytes, "game_id": str, "events": bytes}
"""A finished game's events but its head, in blocks of seqs first_seq..last_seq (`log.pack`: one
zlib stream of their columns, a short hash an event), with the full hash of the block's last
event; `game_id` on the block holding seq 1 (the log names its games by itself). Read only
through `storage.log`."""
EVENT_IDS: dict[str, type] = {"event_id": bytes, "game_key": int}
"""Every stored event's id (WITHOUT ROWID, keyed by it: an id is taken once, archived or not),
and its game's key; filled by a trigger on `events`."""

REWINDS = "type IN ('EventVoided', 'EventCorrected')"
"""The events that reach back (an undo, a correction): found often, to pick a usable snapshot,
and few, so a partial index of events holds only them."""

SNAPSHOTS: dict[str, type] = {"game_key": int, "seq": int, "state": bytes, "seal": bytes}
"""A sealed state every `snapshots.SNAPSHOT_EVERY` seqs of a game (the seal: 32 bytes of SHA-256)."""
VERIFICATIONS: dict[str, type] = {"game_id": str, "checked_at": str, "head_seq": int, "ok": int, "bad_seq": int, "problem": str}
"""The latest `ktlog verify` verdict of each game."""
META: dict[str, type] = {"key": str, "value": str}
"""Which ktlog wrote the database and which it needs."""
SIGNATURES: dict[str, type] = {"game_id": str, "head_seq": int, "signer": str, "public_key": str, "signature": str, "recorded_at": str}
"""Recorders' signatures of a game as it stood at head_seq (Ed25519, hex; `play.signatures`)."""
KEYRING: dict[str, type] = {"public_key": str, "name": str, "how": str, "pinned_at": str, "revoked_at": str}
"""The league's keyring: each public key (hex) pinned to the one name it signs for (`play.keyring`)."""

TOURNAMENTS: dict[str, type] = {
    "name": str,
    "created_at": str,
    "rounds": int,
    "ruleset": str,
    "tie_breakers": str,
    "seed": int,
    "bye_points": float,
    "timer_round": int,
    "timer_ends_at": str,
    "reopened_round": int,
    "organiser_token_hash": str,
}
"""One row per tournament (`ktlog tournament new`): its number of rounds, the ruleset its games are
played under (None: any), its tie-breakers after points (comma separated, `play.tournament_swiss`),
the seed that drew its first round (None until it is paired) and draws the last tie-breaker, what
a bye counts for in the opponents' average (None: left out), the round timer (its round and when
it ends, UTC), the round whose results the organiser reopened after a later round was paired,
and the SHA-256 of the organiser page's token."""
TOURNAMENT_PLAYERS: dict[str, type] = {
    "tournament": str,
    "player": str,
    "added_at": str,
    "player_id": str,
    "club": str,
    "checked_in_at": str,
    "joins_round": int,
    "dropped_after": int,
}
"""A player registered for a tournament: their name at the event (the name their games there
give them), their league identity (`play.players`: `player_id`, and the club that tells them from
a namesake), when they checked in, the first round they may be paired in (a late arrival's is
later than 1) and the last round they played before they dropped (None: they have not)."""
TOURNAMENT_TABLES: dict[str, type] = {
    "tournament": str,
    "round": int,
    "table_no": int,
    "player_a": str,
    "player_b": str,
    "game_id": str,
    "no_show": str,
    "paired_at": str,
}
"""One row per pairing of a tournament's round: `player_b` None for a bye; `game_id` the game
played at the table (linked once, unique), or `no_show` the player who did not come."""

SEATS: dict[str, type] = {"game_id": str, "player": str, "token_hash": str, "issued_at": str, "revoked_at": str, "public_key": str}
"""A player's seat of a game (`play.seats`): the SHA-256 of its token (hex; the token is only
ever in the seat's link), when it was issued and revoked, and the Ed25519 public key it signs with."""

GAME_ORIGINS: dict[str, type] = {"game_id": str, "database_id": str, "label": str}
"""The database that recorded a game imported from another (its id and its label then); a game
with no row was recorded in this one (`play.players`)."""
PLAYER_ALIASES: dict[str, type] = {"database_id": str, "name": str, "player_id": str}
"""A name as one database recorded it, counted as another player's (`ktlog player merge|rename`)."""
PLAYER_NAMES: dict[str, type] = {"player_id": str, "name": str, "changed_at": str}
"""A player's name as shown, when renamed or merged (the log keeps the names as recorded)."""
DATABASE_ID = "database_id"
"""The meta key of the database's own id (32 hex digits, made once): a player with no pinned key
is their name within the database that recorded them."""
DATABASE_LABEL = "database_label"
"""The meta key of the database's label (`ktlog player club`), shown beside a namesake's name."""

GAME_KEY = "game_key"
"""Every projection row also carries its game's integer key (the games table's `game_key`), which the
analytics read and join on: a tenth of the cost of the 36-character game id."""

PROJECTION_LOGS = {
    "vp_changes": "vp_log",
    "cp_changes": "cp_log",
    "attacks": "attacks",
    "incapacitations": "incapacitations",
    "turning_points": "turning_points",
}
"""Projection table -> the state log (`ktlog.state.LOGS`) whose entries are its rows."""


def _sql_type(annotation: Any) -> type:
    """The column type for a state field: int (bools too), float, or text."""
    names = {getattr(a, "__name__", str(a)) for a in (get_args(annotation) or (annotation,))}
    return float if "float" in names else int if names & {"int", "bool"} else str


def _log_columns(log: str) -> dict[str, type]:
    struct = LOGS[log]
    hints = get_type_hints(struct)
    return {"game_id": str, **{f: _sql_type(hints[f]) for f in struct.__struct_fields__}}


DERIVED: dict[str, dict[str, type]] = {table: _log_columns(log) for table, log in PROJECTION_LOGS.items()}
DERIVED["game_results"] = {
    "game_id": str,
    "seq": int,
    "player": str,
    "kill_team": str,
    "opponents": str,
    "result": str,
    "ended_by": str,
    "vp_total": int,
    "kill_grade": int,
    "cp_left": int,
    "ruleset": str,
    "date": str,
    "league": str,
    "season": str,
    "round": str,
    "table_label": str,
    "crit_op": str,
    "killzone": str,
}
DERIVED["vp_by_op"] = {"game_id": str, "seq": int, "player": str, "op": str, "vp": int}
"""Projection table -> the columns derived from the game's state (what `projections.rows_since`
gives, in this order). `game_results`: one row per player of a finished game; `vp_by_op`: the
VP each of them scored by op, one row per op (a new op needs no new column)."""

PROJECTIONS: dict[str, dict[str, type]] = {table: {**columns, GAME_KEY: int} for table, columns in DERIVED.items()}
"""Projection table -> its columns as stored (the derived ones and the game's key)."""

TABLES: dict[str, dict[str, type]] = {
    "games": GAMES,
    "events": {"position": int, **EVENTS},
    "game_archives": GAME_ARCHIVES,
    "event_ids": EVENT_IDS,
    "snapshots": SNAPSHOTS,
    "verifications": VERIFICATIONS,
    "meta": META,
    "signatures": SIGNATURES,
    "keyring": KEYRING,
    "seats": SEATS,
    "game_origins": GAME_ORIGINS,
    "player_aliases": PLAYER_ALIASES,
    "player_names": PLAYER_NAMES,
    "tournaments": TOURNAMENTS,
    "tournament_players": TOURNAMENT_PLAYERS,
    "tournament_tables": TOURNAMENT_TABLES,
    **PROJECTIONS,
}
"""Every table of a current database -> its columns."""

OPS = ("crit", "kill", "tac", "primary", "elimination", "mission")
"""The ops the statistics give a VP column each (vp_crit ... in this order, 0 where a ruleset
has no such op): KT24's four, Multiplayer Ops' elimination op and KT21's mission VP. An op
found in `vp_by_op` and not here gets its column after these."""


def select(table: str, columns: tuple[str, ...] | None = None) -> tuple[str, dict[str, type]]:
    """A query reading `columns` of `table` (all of them by default), and their types."""
    known = TABLES[table]
    columns = tuple(known) if columns is None else columns
    unknown = [c for c in columns if c not in known]
    if unknown:
        raise KeyError(f"{table} has no column {', '.join(unknown)}")
    return f"SELECT {', '.join(columns)} FROM {table}", {c: known[c] for c in columns}
