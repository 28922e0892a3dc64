"""The event store: a game's append-only events with their hash chain, appended one at a time
or imported whole, undone by a void, read back as events or as the state at any seq.

Appending validates the event with the reducer, then writes the event, the projection rows
and the game's head in one transaction, so a crash leaves every committed event intact and
no half-written one. `UNIQUE(game_key, seq)` turns a race between two writers into a
`ConcurrencyConflict` instead of a duplicate. Opening the file is `dbfile`, the derived tables
`projections` and `snapshots`, the schema `catalog`.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..envelopes import GENESIS, GameRow, check_game_id, check_ids, check_limits, decode_payload, event_id_text, event_ids_bytes, game_prefix, now, seal
from ..errors import ConcurrencyConflict, GameNotFound, InvalidEvent, KtlogError, StoreError
from ..events import Envelope, Event, EventCorrected, EventVoided, GameCreated
from ..reducer import apply_in_place, fold_with_snapshots
from ..state import GameState, copy_state, encode_state, game_status
from . import log, projections, tournaments
from .catalog import DATABASE_ID, EVENTS, LABEL_COLUMNS, PROJECTIONS
from .dbfile import BUSY_TIMEOUT_MS, REBUILD_PENDING, Origin, database_home, default_db_path, durable_once, open_database, transaction
from .recent import Recent
from .snapshots import SNAPSHOT_EVERY, Decoded, sealed_rows, state_at, write_sealed, write_snapshots

if TYPE_CHECKING:
    import contextlib

    import sqlite_utils

FINISHED = "finished"
"""A finished game's status (`state.game_status`): its events but the last are archived (`log.archive`)."""
DAMAGED = "damaged"
"""The meta key holding what `ktlog verify` found wrong with the file (integrity check, schema)."""


class Raced(KtlogError):
    """Another writer stored this game, or more of its events, after an import compared its
    file with the database (the importer compares again)."""


def _result(state: GameState) -> tuple[Any, ...] | None:
    """A finished game's result as a value to compare: who won, how, and each player's VP."""
    r = state.result
    return None if r is None else (r.winner, r.draw, r.ended_by, r.conceded_by, tuple((name, p.total_vp) for name, p in state.players.items()))


def _change(event: Event, seq: int) -> str:
    """An event that changes a finished game's result, in words."""
    if isinstance(event, EventVoided):
        return f"undoing seq {event.target} changes the result"
    if isinstance(event, EventCorrected):
        return f"correcting seq {event.target} changes the result"
    return f"{type(event).__name__} at seq {seq} changes the result"


def listed_game(row: dict[str, Any]) -> GameRow:
    """A row of the games table as a `GameRow`."""
    return GameRow(
        id=row["id"],
        created_at=row["created_at"],
        ruleset=row["ruleset"],
        killzone=row["killzone"],
        date=row["date"],
        head_seq=row["head_seq"],
        status=row["status"],
        labels={k: row[c] for k, c in LABEL_COLUMNS.items() if row[c]},
        players=json.loads(row["players"] or "[]"),
        kill_teams=json.loads(row["kill_teams"] or "[]"),
        result=json.loads(row["result"]) if row["result"] else None,
        simulated=bool(row["simulated"]),
    )


class Store:
    """A ktlog database. Open it with `Store(path)`; `Store(":memory:")` for tests.

    A game is created with its first events, grows by appended events (each checked by the
    rules, refused with the rule and its page) and is read back as its events or its state:

    >>> from ktlog.events import GameCreated, PlayerJoined, TurningPointStarted
    >>> store = Store(":memory:")
    >>> game = store.new_game(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"), [PlayerJoined(player="Ana", kill_team="Kasrkin")])
    >>> store.append(game, PlayerJoined(player="Ben", kill_team="Legionaries")).seq
    3
    >>> [envelope.type for envelope in store.events(game)]
    ['GameCreated', 'PlayerJoined', 'PlayerJoined']
    >>> store.state(game).players["Ben"].kill_team
    'Legionaries'
    >>> store.append(game, TurningPointStarted(turning_point=1))
    Traceback (most recent call last):
    ktlog.errors.InvalidEvent: set up every operative before the battle: no operatives selected (pg 110)
    >>> store.close()
    """

    def __init__(self, path: str | Path | None = None, *, create: bool = True, busy_timeout_ms: int = BUSY_TIMEOUT_MS):
        self.path = Path(path) if path not in (None, ":memory:") else (default_db_path() if path is None else None)
        self._cache: dict[str, GameState] = {}
        self._keys: dict[str, int] = {}
        """Game id -> its game_key (which never changes), for the games this store has read or written."""
        self.distrusted: list[tuple[str, int]] = []
        """(game, seq) of each snapshot passed over because its seal did not hold (readers say so)."""
        self._recent: dict[str, Recent] = {}
        """Per game, the latest events this store appended: an undo of one takes its state from
        here instead of folding from a snapshot."""
        self._decoded = Decoded()
        """The snapshots this store decoded lately: a seek near one again restores it."""
        self._heads: dict[str, tuple[int, str]] = {}
        self._columns: dict[str, tuple[tuple[Any, ...] | None, dict[str, Any]]] = {}
        """Per game, its head (seq, hash) and derived columns as this store last wrote them (with
        the `projections.columns_key` they came from): true while no other connection has
        written (`_data_version`), so an append reads neither."""
        self._data_version: int | None = None
        """SQLite's data_version when this store last checked the file (the damage mark, the heads);
        it changes when another connection commits (not when this one does)."""
        self.busy_timeout_ms = busy_timeout_ms
        self.commits = 0
        """Write transactions this store committed (an error after one must not say "nothing was changed")."""
        self._inside: bool | None = None
        """None outside a write transaction; inside one, whether a write of its own joined it (`writing`)."""
        self.conn, stale = open_database(self.path, create=create, busy_timeout_ms=busy_timeout_ms)
        if stale:
            self.rebuild()  # derived tables of an older schema are filled in from the log

    @cached_property
    def db(self) -> sqlite_utils.Database:
        """The database through sqlite-utils, for tests and tools (imported at first use: the
        store reads through `_rows`)."""
        from .schema_library import sqlite_utils

        return sqlite_utils.Database(self.conn, execute_plugins=False)  # ktlog uses no plugins: no scan of installed packages

    def _rows(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.conn.execute(sql, args)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor]

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, *, damaged_ok: bool = False, appending: bool = False) -> Iterator[None]:
        """A write transaction; refused in a file `ktlog verify` found damaged (`record_file_check`).
        `appending`: the damage mark is read, and the heads and columns this store wrote are
        forgotten, only if another connection has committed since this store last looked
        (SQLite's data_version changes then, not for this connection's own commits). Inside
        another write transaction of this store (`writing`), a write joins it: one commit for all."""
        if self._inside is not None:
            self._inside = True
            if appending:
                self._look_again()
            yield
            return
        self._inside = False
        try:
            with transaction(self.conn, self.path):
                if appending:
                    self._look_again()
                elif not damaged_ok:
                    self._refuse_damaged()
                yield
        except BaseException:
            self._keys.clear()  # a games row rolled back: its key may go to another game
            self._decoded.clear()  # as may a snapshot decoded in the transaction
            self._heads.clear()
            self._columns.clear()
            if self._inside:  # the states of every game written in it were rolled back too
                self._cache.clear()
                self._recent.clear()
            raise
        finally:
            self._inside = None
        self.commits += 1

    def _look_again(self) -> None:
        """Forget the heads and columns this store wrote, and read the damage mark again, if
        another connection has committed since this store last looked."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._heads.clear()
            self._columns.clear()
            self._refuse_damaged()
            self._data_version = version

    def _refuse_damaged(self) -> None:
        damage = self.conn.execute("SELECT value FROM meta WHERE key = ?", (DAMAGED,)).fetchone()
        if damage:
            raise StoreError(
                f"{self.path or ':memory:'} failed `ktlog verify` ({damage[0]}); ktlog writes nothing more to it. "
                "Restore it from a backup, or import the games' exported files into a new database"
            )

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """One write transaction for the tables beside the log (a tournament's, `storage.tournaments`);
        the appends and new games made inside it are part of it (a results file: all or nothing)."""
        return self._write()

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Many write transactions made durable together (one fsync for a whole import)."""
        return durable_once(self.conn)

    # --- games ------------------------------------------------------------------------------

    def games(self, newest: int | None = None) -> list[GameRow]:
        """Every game, oldest first; or only the `newest` games, newest first."""
        if newest is None:
            return [listed_game(r) for r in self._rows("SELECT * FROM games ORDER BY date, created_at")]
        return [listed_game(r) for r in self._rows("SELECT * FROM games ORDER BY date DESC, created_at DESC LIMIT ?", [newest])]

    def count_games(self) -> tuple[int, int]:
        """How many games there are, and how many of them are unfinished."""
        total, unfinished = self.conn.execute("SELECT count(*), coalesce(sum(status != 'finished'), 0) FROM games").fetchone()
        return total, unfinished

    def game(self, game_id: str) -> GameRow:
        rows = self._rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            raise GameNotFound(f"no game {game_id!r} in {self.path or ':memory:'}; `ktlog games` lists them")
        return listed_game(rows[0])

    def resolve(self, prefix: str) -> str:
        """The id of the game whose id is `prefix` or starts with it."""
        prefix = game_prefix(prefix)
        if not prefix:
            raise GameNotFound("give a game id (or the start of one); `ktlog games` lists them")
        # The ids that start with `prefix` exactly (no LIKE wildcards), a range of the primary key.
        ids = [
            r["id"]
            for r in self._rows(
                "SELECT id FROM games WHERE id >= ? AND id < ? AND substr(id, 1, ?) = ? ORDER BY id", [prefix, prefix + "\uffff", len(prefix), prefix]
            )
        ]
        if not ids:
            raise GameNotFound(f"no game id starts with {prefix!r}; `ktlog games` lists them")
        if len(ids) > 1:
            raise GameNotFound(f"{len(ids)} games start with {prefix!r} ({', '.join(i[:12] for i in ids[:4])}...); type more of the id")
        return str(ids[0])

    def has_game(self, game_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def new_game(self, created: GameCreated, events: Sequence[Event] = (), *, game_id: str | None = None, then: Callable[[str], None] | None = None) -> str:
        """Create a game and record its first events in one transaction, with `then(game_id)`'s
        writes in it too (a tournament's table linked to the game). Returns its id."""
        game_id = game_id or str(uuid.uuid4())
        sealed, prev = [], GENESIS
        for seq, event in enumerate([created, *events], 1):
            envelope, payload = seal(game_id, seq, event, prev)
            sealed.append((envelope, payload))
            prev = envelope.hash
        self.import_envelopes(game_id, sealed, then=then)
        return game_id

    def import_envelopes(
        self,
        game_id: str,
        sealed: list[tuple[Envelope, bytes]],
        *,
        already: int = 0,
        then: Callable[[str], None] | None = None,
        origin: Origin | None = None,
    ) -> GameState:
        """Validate sealed events and write them with their projections and snapshots, in one
        transaction: a new game (`already` 0; with `then(game_id)`'s writes) or the rest of a
        game whose first `already` events are stored (the caller has checked they are these, by
        hash). Raises on the first illegal event; then nothing is written. `origin`: the
        database that recorded the game, when another (`_keep_origin`)."""
        rows = event_rows(sealed)
        state, snapshots = fold_with_snapshots([(e.seq, e.payload) for e, _ in sealed], SNAPSHOT_EVERY)
        if not already:
            self.import_folded(game_id, folded(game_id, rows, state, snapshots), then=then, origin=origin)
            return self._new_head(game_id, state)
        with self._write():
            if self._head(game_id)[0] != already:
                raise Raced(f"game {game_id[:8]} changed while it was being imported")
            before = self._state_at_head(game_id, already)
            if game_status(before) == FINISHED and _result(before) != _result(state):  # a tournament's later round may have been paired on it
                tournaments.check_final(self.conn, game_id, lambda: f"importing events {already + 1} to {len(sealed)} changes the result")
            projections.delete(self.conn, game_id)  # the new events may undo stored ones: every row is written again
            self._write_folded(game_id, folded(game_id, rows, state, snapshots, already=already))
            self._keep_origin(game_id, origin)
        return self._new_head(game_id, state)

    def import_folded(self, game_id: str, game: Folded, *, then: Callable[[str], None] | None = None, origin: Origin | None = None) -> None:
        """Write a new game whose events are checked and folded already (`folded`, perhaps made
        by another process: this one only inserts), in one transaction (with `then(game_id)`'s
        writes, if given, and the database that recorded it, `origin`)."""
        with self._write():
            if self.has_game(game_id):
                raise Raced(f"game {game_id[:8]} was stored by another writer while it was being imported")
            self.conn.execute(
                "INSERT INTO games (id, created_at, ruleset, status, head_seq, head_hash) VALUES (?,?,?,?,?,?)",
                (game_id, game.rows[0][RECORDED_AT], game.ruleset, "setup", 0, GENESIS),
            )
            self._write_folded(game_id, game)
            self._keep_origin(game_id, origin)
            if then is not None:
                then(game_id)
        self._cache.pop(game_id, None)
        self._recent.pop(game_id, None)

    def _keep_origin(self, game_id: str, origin: Origin | None) -> None:
        """Remember which database recorded a game, unless it is this one or known already (the
        first database a game came from is the one that recorded it)."""
        if origin is not None and origin[0] != self.meta(DATABASE_ID):
            self.conn.execute("INSERT OR IGNORE INTO game_origins (game_id, database_id, label) VALUES (?,?,?)", (game_id, *origin))

    def origin(self, game_id: str) -> Origin:
        """The database that recorded a game: the one it was imported from, or this one."""
        row = self.conn.execute("SELECT database_id, label FROM game_origins WHERE game_id = ?", (game_id,)).fetchone()
        return (str(row[0]), str(row[1])) if row else self.home()

    def home(self) -> Origin:
        """This database's id and label (`dbfile.database_home`)."""
        if self.meta(DATABASE_ID) is None:  # its row deleted behind ktlog's back: a new id, as a new database would make
            self.set_meta(DATABASE_ID, uuid.uuid4().hex)
        return database_home(self.rows, self.path)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """A query's rows as tuples (`dbfile.Rows`)."""
        return self.conn.execute(sql).fetchall()

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._write():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def record_player(self, player_id: str, name: str, aliases: Iterable[tuple[str, str]], *, merged: str | None = None) -> None:
        """In one transaction: a player's name as shown, names as databases recorded them counted
        as theirs (database id, name), and with `merged` another player's names and aliases
        taken over (`play.players`: rename, merge). The log keeps the names as recorded."""
        with self._write():
            if merged is not None:
                self.conn.execute("UPDATE player_aliases SET player_id = ? WHERE player_id = ?", (player_id, merged))
                self.conn.execute("DELETE FROM player_names WHERE player_id = ?", (merged,))
            self.conn.executemany(
                "INSERT OR REPLACE INTO player_aliases (database_id, name, player_id) VALUES (?,?,?)", [(db, n, player_id) for db, n in aliases]
            )
            self.conn.execute("INSERT OR REPLACE INTO player_names (player_id, name, changed_at) VALUES (?,?,?)", (player_id, name, now()))

    def _new_head(self, game_id: str, state: GameState) -> GameState:
        """Remember the state of a game whose events came in whole (the states before them are not kept)."""
        self._cache[game_id] = state
        self._recent.pop(game_id, None)
        return state

    def _write_folded(self, game_id: str, game: Folded) -> None:
        """A game's events, their snapshots, its projections (it has none stored) and head."""
        key = self._key(game_id)
        archived = game.rows[:-1] if game.blocks else []  # packed already: only the head is a row
        try:
            self.conn.executemany(INSERT_EVENT, [(key, *row) for row in game.rows[len(archived) :]])
            log.write_blocks(self.conn, key, game.blocks, [row[1] for row in archived])
        except sqlite3.IntegrityError as exc:
            raise self._taken_event_id(game_id, game.rows) from exc
        write_sealed(self.conn, key, game.snapshots)
        projections.insert(self.conn, game_id, game.projections, key)
        head = (game.seq, game.rows[-1][HASH].hex())
        self._update_game(game_id, {**game.columns, "updated_at": now(), "head_seq": head[0], "head_hash": head[1]})
        if game.columns["status"] == FINISHED and not game.blocks:  # its events but the last are archived
            log.archive(self.conn, key, game.seq - 1)
        self._heads[game_id], self._columns[game_id] = head, (None, game.columns)

    # --- appending --------------------------------------------------------------------------

    def append(self, game_id: str, event: Event, *, expected_seq: int | None = None) -> Envelope:
        """Validate and record one event. `expected_seq` is the seq the caller believes comes next."""
        return self.append_all(game_id, [event], expected_seq=expected_seq)[0]

    def append_all(self, game_id: str, events: list[Event], *, expected_seq: int | None = None) -> list[Envelope]:
        """Validate and record events in one transaction: all of them, or none (the refusal of
        the first the rules refuse is raised, its position in `events` as `exc.index`)."""
        envelopes = []
        try:
            with self._write(appending=True):
                head_seq, head_hash = self._heads.get(game_id) or self._head(game_id)
                if expected_seq is not None and expected_seq != head_seq + 1:
                    raise ConcurrencyConflict(game_id, expected_seq, head_seq)
                for index, event in enumerate(events):
                    try:
                        envelope = self._append_one(game_id, event, head_seq + 1 + index, head_hash)
                    except KtlogError as exc:
                        exc.index = index
                        raise
                    envelopes.append(envelope)
                    head_hash = envelope.hash
        except BaseException:  # the cache holds states of events rolled back, or one a refusal left half applied
            self._cache.pop(game_id, None)
            self._recent.pop(game_id, None)
            raise
        return envelopes

    def _append_one(self, game_id: str, event: Event, seq: int, head_hash: str) -> Envelope:
        envelope, payload = seal(game_id, seq, event, head_hash)
        row = event_rows([(envelope, payload)])[0]  # its values checked before the rules see them
        before = self._state_at_head(game_id, seq - 1)
        was_over = game_status(before) == FINISHED
        result = _result(before) if was_over else None  # before it is applied to in place
        recent = self._recent.get(game_id)
        if isinstance(event, EventVoided):
            state = (recent and recent.undo(event.target)) or self._state_from_snapshot(game_id, seq, then=(seq, event))
            state.seq = seq
        elif isinstance(event, EventCorrected):
            state = self._state_from_snapshot(game_id, seq, then=(seq, event))
            self._recent.pop(game_id, None)  # its states are before the history the correction changed
        else:  # applied to the cached state itself (`state` gives callers copies; a refusal drops the cache)
            if recent is None:
                recent = self._recent[game_id] = Recent(before)
            state = before
            apply_in_place(state, event, seq)
            recent.appended(seq, event, state)
        if was_over and _result(state) != result:  # a tournament's later round may have been paired on it
            tournaments.check_final(self.conn, game_id, lambda: _change(event, seq))
        key = self._key(game_id)
        self._insert_event(envelope, (key, *row))
        since = self._rewritten_since(game_id, event)
        if since is not None:  # the rows from the first event whose state changed are the new state's
            projections.delete(self.conn, game_id, since=since)
            projections.write(self.conn, game_id, state, since - 1, key)
        else:
            projections.write(self.conn, game_id, state, seq - 1, key)
        if seq % SNAPSHOT_EVERY == 0:
            write_snapshots(self.conn, key, [(seq, encode_state(state))])
        self._advance_head(game_id, state, envelope, (seq - 1, head_hash))
        if not was_over and game_status(state) == FINISHED:  # the game ended: its events but this one are archived
            log.archive(self.conn, key, seq - 1)
        self._cache[game_id] = state
        return envelope

    def _rewritten_since(self, game_id: str, event: Event) -> int | None:
        """The first seq whose projection rows `event` changes, if it reaches back: an undo's
        target (or, undoing a correction, the corrected event), a correction's target."""
        if isinstance(event, EventCorrected):
            return event.target
        if not isinstance(event, EventVoided):
            return None
        row = log.event(self.conn, self._key(game_id), event.target)
        return json.loads(row[1])["target"] if row and row[0] == "EventCorrected" else event.target

    def _insert_event(self, envelope: Envelope, row: tuple[Any, ...]) -> None:
        try:
            self.conn.execute(INSERT_EVENT, row)
        except sqlite3.IntegrityError as exc:
            if "event_id" in str(exc):
                raise InvalidEvent(f"event id {envelope.event_id} is already stored", "event_id") from exc
            head, _ = self._head(envelope.game_id)
            raise ConcurrencyConflict(envelope.game_id, envelope.seq, head) from exc

    def _taken_event_id(self, game_id: str, rows: list[tuple[Any, ...]]) -> InvalidEvent:
        """The error for the first of these events (`event_rows`) whose id an event of another game has."""
        for seq, event_id, *_ in rows:
            row = log.holder(self.conn, event_id, self._key(game_id))
            if row:
                error = InvalidEvent(
                    f"event id {event_id_text(event_id)} is already the id of seq {row[1]} of game {row[0][:8]}; "
                    "each event has its own id, so these events were copied from another game",
                    "event_id",
                )
                error.seq = seq
                return error
        return InvalidEvent("an event id of this game is already stored in another game", "event_id")

    def _key(self, game_id: str) -> int:
        """The game's game_key (its events, snapshots and projection rows are keyed by it)."""
        key = self._keys.get(game_id)
        if key is None:
            row = self.conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(f"no game {game_id!r}; `ktlog games` lists them")
            key = self._keys[game_id] = row[0]
        return key

    def _head(self, game_id: str) -> tuple[int, str]:
        row = self.conn.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id!r}; `ktlog games` lists them")
        return int(row[0]), str(row[1])

    def _advance_head(self, game_id: str, state: GameState, envelope: Envelope, was: tuple[int, str]) -> None:
        """Move the game's head on from `was` (seq, hash) to the event appended, `envelope`,
        writing only the columns that changed since this store last wrote them (worked out only
        if what they follow from changed: `projections.columns_key`); updated when the event was
        recorded. One statement, which also refuses a head another writer moved (whatever this
        store believed)."""
        key = projections.columns_key(state)
        known_key, known = self._columns.get(game_id, (None, {}))
        if key is not None and key == known_key:
            columns, values = known, {}
        else:
            columns = projections.game_columns(state)
            values = {c: v for c, v in columns.items() if c not in known or known[c] != v}
        head_hash = envelope.hash
        values.update(updated_at=envelope.recorded_at, head_seq=state.seq, head_hash=head_hash)
        cursor = self.conn.execute(_head_update(tuple(values)), (*values.values(), self._key(game_id), *was))
        if cursor.rowcount != 1:
            raise ConcurrencyConflict(game_id, state.seq, self._head(game_id)[0])
        self._heads[game_id], self._columns[game_id] = (state.seq, head_hash), (key, columns)

    def _update_game(self, game_id: str, columns: dict[str, Any]) -> None:
        self.conn.execute(f"UPDATE games SET {', '.join(f'{c}=?' for c in columns)} WHERE id=?", (*columns.values(), game_id))

    def add_signatures(self, game_id: str, signatures: list[tuple[int, str, str, str]]) -> None:
        """Keep checked signatures of a game: (head_seq, signer, public key, signature) each."""
        with self._write():
            self.conn.executemany(
                "INSERT OR IGNORE INTO signatures (game_id, head_seq, signer, public_key, signature, recorded_at) VALUES (?,?,?,?,?,?)",
                [(game_id, *s, now()) for s in signatures],
            )

    def pin_key(self, public_key: str, name: str, how: str) -> None:
        """Pin a public key to a name in the league's keyring (again, if it was revoked)."""
        with self._write():
            self.conn.execute(
                "INSERT INTO keyring (public_key, name, how, pinned_at) VALUES (?,?,?,?) "
                "ON CONFLICT (public_key) DO UPDATE SET name = excluded.name, how = excluded.how, pinned_at = excluded.pinned_at, revoked_at = NULL",
                (public_key, name, how, now()),
            )

    def revoke_key(self, public_key: str) -> None:
        """Mark a pinned key revoked: signatures by it count as no one's from now on."""
        with self._write():
            self.conn.execute("UPDATE keyring SET revoked_at = ? WHERE public_key = ? AND revoked_at IS NULL", (now(), public_key))

    def issue_seat(self, game_id: str, player: str, token_hash: str) -> None:
        """Give the player's seat of the game a new token (by its hash): an earlier token of
        that seat stops working, and the key it registered goes with it (a new device)."""
        with self._write():
            self.conn.execute(
                "INSERT OR REPLACE INTO seats (game_id, player, token_hash, issued_at, revoked_at, public_key) VALUES (?,?,?,?,NULL,NULL)",
                (game_id, player, token_hash, now()),
            )

    def update_seat(self, game_id: str, player: str, **columns: str | None) -> bool:
        """Set columns of a seat (`revoked_at`, `public_key`); whether the game has that seat."""
        with self._write():
            cursor = self.conn.execute(
                f"UPDATE seats SET {', '.join(f'{c}=?' for c in columns)} WHERE game_id=? AND player=?", (*columns.values(), game_id, player)
            )
        return cursor.rowcount > 0

    def seat_rows(self, *, game_id: str | None = None, token_hash: str | None = None) -> list[dict[str, Any]]:
        """The seats of a game, or the live (not revoked) seat holding a token, as rows."""
        if token_hash is not None:
            return self._rows("SELECT * FROM seats WHERE token_hash = ? AND revoked_at IS NULL", [token_hash])
        return self._rows("SELECT * FROM seats WHERE game_id = ? ORDER BY player", [game_id])

    def record_file_check(self, problems: list[str]) -> None:
        """Keep what `ktlog verify` found wrong with the file itself: while it stands, every write is refused."""
        self._data_version = None  # the next append reads the mark again
        with self._write(damaged_ok=True):
            if problems:
                self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (DAMAGED, "; ".join(problems)))
            else:
                self.conn.execute("DELETE FROM meta WHERE key = ?", (DAMAGED,))

    def record_verdicts(self, verdicts: Iterable[Any]) -> None:
        """Keep the latest `ktlog verify` verdict of each game (not part of the log)."""
        with self._write(damaged_ok=True):
            self.conn.executemany(
                "INSERT OR REPLACE INTO verifications (game_id, checked_at, head_seq, ok, bad_seq, problem) VALUES (?,?,?,?,?,?)",
                [(v.game_id, now(), v.events, int(v.ok), v.bad_seq, v.problem) for v in verdicts],
            )

    # --- derived tables -------------------------------------------------------------------

    def rebuild(self) -> int:
        """Rebuild every projection, snapshot and game row (its head too) from the event log; a
        game whose row was deleted gets it back, and the append-only triggers and unique event
        indexes are made again if they were dropped. Returns the games rebuilt."""
        from .migrations import restore_guards

        with self._write():
            self.conn.execute(f"DELETE FROM meta WHERE key = '{REBUILD_PENDING}'")  # with the rebuild, or not at all
            restore_guards(self.conn)
            self.conn.executemany(  # a game's first event names it, with its key
                "INSERT INTO games (game_key, id, created_at, ruleset, status, head_seq, head_hash) VALUES (?, ?, ?, '', 'setup', 0, ?)",
                [(*unlisted, GENESIS) for unlisted in log.unlisted(self.conn)],
            )
            ids = [g.id for g in self.games()]
            for table in (*PROJECTIONS, "snapshots"):
                self.conn.execute(f"DELETE FROM {table}")
            for game_id in ids:
                envelopes = self.events(game_id)
                state, snapshots = fold_with_snapshots([(e.seq, e.payload) for e in envelopes], SNAPSHOT_EVERY)
                write_snapshots(self.conn, self._key(game_id), snapshots)
                projections.write(self.conn, game_id, state, 0)
                self._update_game(game_id, {"ruleset": state.ruleset, "head_seq": state.seq, "head_hash": envelopes[-1].hash})
                self._update_game(game_id, projections.game_columns(state))
        self._cache.clear()
        self._recent.clear()
        self._decoded.clear()
        self._heads.clear()
        self._columns.clear()
        return len(ids)

    # --- reading ----------------------------------------------------------------------------

    def events(self, game_id: str, *, upto: int | None = None, after: int = 0) -> list[Envelope]:
        """The game's stored events in seq order (after `after`, up to `upto`)."""
        return [envelope for envelope, _ in self.sealed(game_id, upto=upto, after=after)]

    def sealed(self, game_id: str, *, upto: int | None = None, after: int = 0) -> list[tuple[Envelope, bytes]]:
        """The same, each with its payload as stored: the canonical bytes its hash covers, in the
        version it was recorded in (the envelope's payload is upcast to this ktlog's)."""
        # The event at `after` is read too: its hash is the previous hash of the first one returned.
        rows = log.rows(self.conn, self._key(game_id), first=after, last=upto)
        prev = GENESIS
        if rows and rows[0][0] == after:
            prev = rows.pop(0)[-1].hex()
        sealed = []
        for row in rows:
            with _readable(game_id, row[0]):
                envelope = row_envelope(game_id, row, prev)
                sealed.append((envelope, row[PAYLOAD].encode()))
            prev = envelope.hash
        return sealed

    def _records(self, game_id: str, after: int, upto: int) -> list[tuple[int, Event]]:
        """(seq, event) of the game's events after seq `after` up to `upto`: what a fold reads (no
        envelope, no hash worked out)."""
        records = []
        for seq, type_name, version, payload in log.payloads(self.conn, self._key(game_id), after + 1, upto):
            with _readable(game_id, seq):
                records.append((seq, decode_payload(type_name, version, payload)))
        return records

    def event_hash(self, game_id: str, seq: int) -> str | None:
        """The hash of a game's event at `seq` (hex), None if the game has no such event."""
        if not self.has_game(game_id):
            return None
        digest = log.hashes(self.conn, self._key(game_id), [seq]).get(seq)
        return digest.hex() if isinstance(digest, bytes) else None

    def last_events(self, game_ids: list[str]) -> dict[str, Event]:
        """The event at the head of each of these games (a game with none is left out)."""
        return {game_id: decode_payload(type_name, version, payload) for game_id, type_name, version, payload in log.last_events(self.conn, game_ids)}

    def position(self) -> int:
        """How far the log has grown (`log.position`): it only grows."""
        return log.position(self.conn)

    def changed_since(self, position: int) -> list[tuple[str, int]]:
        """(game id, position of its latest event) of each game with events stored after `position`."""
        return [(game_id, latest) for _, game_id, latest in log.changed_since(self.conn, position)]

    def state(self, game_id: str, at: int | None = None) -> GameState:
        """The state after seq `at` (default: the latest), from the nearest usable snapshot."""
        head_seq, _ = self._head(game_id)
        at = head_seq if at is None or at > head_seq else at
        if at == head_seq:
            return copy_state(self._state_at_head(game_id, head_seq))
        return self._state_from_snapshot(game_id, at)

    def _state_at_head(self, game_id: str, head_seq: int) -> GameState:
        cached = self._cache.get(game_id)
        if cached is None or cached.seq != head_seq:
            cached = self._state_from_snapshot(game_id, head_seq)
            self._cache[game_id] = cached
            self._recent.pop(game_id, None)  # another writer's events came in between
        return cached

    def _state_from_snapshot(self, game_id: str, at: int, then: tuple[int, EventVoided | EventCorrected] | None = None) -> GameState:
        passed_over: list[int] = []
        self._decoded.current(self.conn)
        state = state_at(self.conn, self._key(game_id), at, lambda after, upto: self._records(game_id, after, upto), then, passed_over, self._decoded)
        self.distrusted += [(game_id, seq) for seq in passed_over]
        return state


@cache
def _head_update(columns: tuple[str, ...]) -> str:
    """The UPDATE moving a game's head and setting `columns`, made once for each set of columns."""
    return f"UPDATE games SET {', '.join(f'{c}=?' for c in columns)} WHERE game_key = ? AND head_seq = ? AND head_hash = ?"


INSERT_EVENT = f"INSERT INTO events ({', '.join(EVENTS)}) VALUES ({', '.join('?' * len(EVENTS))})"
"""Rows of `event_rows`, each with the game's key first."""
RECORDED_AT, PAYLOAD, HASH = 4, 5, 6
"""Where an `event_rows` row holds the time recorded and the hash."""


def event_rows(sealed: list[tuple[Envelope, bytes]]) -> list[tuple[Any, ...]]:
    """Sealed events as rows of the events table, in INSERT_EVENT's column order after the game's
    key (which the games row gives when the rows are written): the one way into the table, so
    every event's values are checked here (`envelopes.check_limits`) before a row is written. Ids
    and hashes become bytes (`event_id_bytes`); the game's id is kept on its first event only.
    One pass: a game's id is checked once, an event id that is a UUID needs no other check."""
    rows = []
    checked_game = None
    for (e, p), event_id in zip(sealed, event_ids_bytes([e.event_id for e, _ in sealed]), strict=True):
        try:
            if not isinstance(event_id, bytes):
                check_ids(e.game_id, e.event_id)
            elif e.game_id != checked_game:
                check_game_id(e.game_id)
                checked_game = e.game_id
            check_limits(e.payload, p)
        except InvalidEvent as exc:
            exc.seq = e.seq
            raise
        rows.append((e.seq, event_id, type(e.payload).__name__, e.version, e.recorded_at, p.decode(), bytes.fromhex(e.hash), e.game_id if e.seq == 1 else None))
    return rows


@dataclass(frozen=True)
class Folded:
    """A game's events checked and folded, as what the writer inserts and nothing it must work
    out: an import's checking process makes it (`folded`), the importing one writes it."""

    rows: list[tuple[Any, ...]]
    """The events' rows (`event_rows`), the first `already` left out."""
    snapshots: list[tuple[int, bytes, bytes]]
    """`snapshot_rows`."""
    projections: dict[str, list[tuple[Any, ...]]]
    """Every projection row of the game (`projections.rows_since`)."""
    columns: dict[str, Any]
    """The games row's derived columns (`projections.game_columns`)."""
    ruleset: str
    seq: int
    """The head's seq."""
    blocks: list[log.Block]
    """A new finished game's events but its head, archived (`log.blocks`): the writer inserts
    them instead of those rows. Empty for a game in progress or the rest of a stored game."""


def folded(game_id: str, rows: list[tuple[Any, ...]], state: GameState, snapshots: list[tuple[int, bytes]], *, already: int = 0) -> Folded:
    """A game's `event_rows`, its state and its (seq, encoded state) snapshots as the writer
    inserts them (the events after `already`). Raises if a CP or VP total would not fit a column."""
    if error := projections.out_of_range(state):
        raise error
    columns = projections.game_columns(state)
    return Folded(
        rows[already:],
        snapshot_rows(rows, [(seq, blob) for seq, blob in snapshots if seq > already]),
        projections.rows_since(game_id, state, 0),
        columns,
        state.ruleset,
        state.seq,
        log.blocks(rows[:-1]) if columns["status"] == FINISHED and not already else [],
    )


def snapshot_rows(rows: list[tuple[Any, ...]], snapshots: list[tuple[int, bytes]]) -> list[tuple[int, bytes, bytes]]:
    """(seq, encoded state) snapshots of events (`event_rows`) as the rows to store, packed and
    sealed with the hashes of those rows."""
    seqs = {seq for seq, _ in snapshots}
    return sealed_rows(snapshots, {row[0]: row[HASH] for row in rows if row[0] in seqs})


@contextmanager
def _readable(game_id: str, seq: int) -> Iterator[None]:
    """A stored row that does not read as an event, as `log.damaged` says it."""
    try:
        yield
    except log.UNREADABLE as exc:
        raise log.damaged(game_id, exc, seq) from exc


def row_envelope(game_id: str, row: tuple[Any, ...], prev_hash: str) -> Envelope:
    """An event as `log.rows` read it, of game `game_id`, whose previous event's hash is `prev_hash`."""
    seq, event_id, type_name, version, recorded_at, payload, digest = row
    return Envelope(
        game_id=game_id,
        seq=seq,
        event_id=event_id_text(event_id),
        version=version,
        recorded_at=recorded_at,
        payload=decode_payload(type_name, version, payload),
        prev_hash=prev_hash,
        hash=digest.hex() if isinstance(digest, bytes) else str(digest),  # one edited behind ktlog's back: `verify` names it
    )
