"""The event log: a game's append-only events with their hash chain, appended one at a time
or imported whole, undone by a void, read back as events or as the state at any seq; and the
write transactions every room of the store writes in (`Store` is this log and its rooms).

Appending validates the event with the reducer, then writes the event, the projection rows
and the game's head in one transaction, so a crash leaves every committed event intact and
no half-written one. `UNIQUE(game_key, seq)` turns a race between two writers into a
`ConcurrencyConflict` instead of a duplicate. Opening the file is `dbfile`, the rows `rows` and
`log`, the derived tables `projections` and `snapshots`, the schema `catalog`.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..envelopes import GENESIS, decode_payload, event_id_text, now, seal
from ..errors import ConcurrencyConflict, GameNotFound, InvalidEvent, KtlogError, StoreError
from ..events import Envelope, Event, EventCorrected, EventVoided, GameCreated
from ..reducer import apply_in_place, fold_with_snapshots
from ..state import GameState, copy_state, encode_state, game_status
from . import log, projections, tournaments
from .catalog import PROJECTIONS
from .dbfile import REBUILD_PENDING, Origin, transaction
from .recent import Recent
from .rows import FINISHED, HASH, INSERT_EVENT, PAYLOAD, RECORDED_AT, Folded, event_rows, folded, readable, row_envelope
from .snapshots import SNAPSHOT_EVERY, Decoded, state_at, write_sealed, write_snapshots

if TYPE_CHECKING:
    import contextlib

    from .checks import Checks
    from .games import Games
    from .players import Players


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


class EventLog:
    """The events of every game of one connection, with what this connection keeps of them (the
    states at the heads it read or wrote, the snapshots it decoded). `Store` opens the file and
    makes the rooms the log writes beside its events (`listing`, the games table with the heads;
    `players`, where an imported game came from; `checks`, the damage that stops every write)."""

    conn: sqlite3.Connection
    path: Path | None
    listing: Games
    players: Players
    checks: Checks

    def __init__(self) -> None:
        self._cache: dict[str, GameState] = {}
        self._keys: dict[str, int] = {}
        """Game id -> its game_key (which never changes), for the games this store has read or written."""
        self.distrusted: list[tuple[str, int]] = []
        """(game, seq) of each snapshot passed over because its seal did not hold (readers say so)."""
        self._recent: dict[str, Recent] = {}
        """Per game, the latest events this store appended: an undo of one takes its state from
        here instead of folding from a snapshot."""
        self._adopted: dict[str, tuple[str, GameState]] = {}
        """Per game, a state at its head another store handed over (`adopt`), with the head's hash."""
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
        self.commits = 0
        """Write transactions this store committed (an error after one must not say "nothing was changed")."""
        self._inside: bool | None = None
        """None outside a write transaction; inside one, whether a write of its own joined it (`writing`)."""

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
        version = self.data_version()
        if version != self._data_version:
            self._heads.clear()
            self._columns.clear()
            self._refuse_damaged()
            self._data_version = version

    def _refuse_damaged(self) -> None:
        damage = self.checks.damage()
        if damage:
            raise StoreError(
                f"{self.path or ':memory:'} failed `ktlog verify` ({damage}); ktlog writes nothing more to it. "
                "Restore it from a backup, or import the games' exported files into a new database"
            )

    def data_version(self) -> int:
        """SQLite's count for this connection, which moves when another connection commits to the
        file (not for this one's own commits)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """One write transaction for the tables beside the log (a tournament's, `storage.tournaments`);
        the appends and new games made inside it are part of it (a results file: all or nothing)."""
        return self._write()

    def unguarded(self) -> contextlib.AbstractContextManager[None]:
        """A write transaction made even in a file `ktlog verify` found damaged: what verify
        itself keeps (`checks.Checks`). The next append reads the damage mark again."""
        self._data_version = None
        return self._write(damaged_ok=True)

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
            if self.listing.head(game_id)[0] != already:
                raise Raced(f"game {game_id[:8]} changed while it was being imported")
            before = self._state_at_head(game_id, already)
            if game_status(before) == FINISHED and _result(before) != _result(state):  # a tournament's later round may have been paired on it
                tournaments.check_final(self.conn, game_id, lambda: f"importing events {already + 1} to {len(sealed)} changes the result")
            projections.delete(self.conn, game_id)  # the new events may undo stored ones: every row is written again
            self._write_folded(game_id, folded(game_id, rows, state, snapshots, already=already))
            self.players.keep_origin(game_id, origin)
        return self._new_head(game_id, state)

    def import_folded(self, game_id: str, game: Folded, *, then: Callable[[str], None] | None = None, origin: Origin | None = None) -> None:
        """Write a new game whose events are checked and folded already (`folded`, perhaps made
        by another process: this one only inserts), in one transaction (with `then(game_id)`'s
        writes, if given, and the database that recorded it, `origin`)."""
        with self._write():
            if self.listing.has(game_id):
                raise Raced(f"game {game_id[:8]} was stored by another writer while it was being imported")
            self.conn.execute(
                "INSERT INTO games (id, created_at, ruleset, status, head_seq, head_hash) VALUES (?,?,?,?,?,?)",
                (game_id, game.rows[0][RECORDED_AT], game.ruleset, "setup", 0, GENESIS),
            )
            self._write_folded(game_id, game)
            self.players.keep_origin(game_id, origin)
            if then is not None:
                then(game_id)
        self._cache.pop(game_id, None)
        self._recent.pop(game_id, None)

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
                head_seq, head_hash = self._heads.get(game_id) or self.listing.head(game_id)
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
            head, _ = self.listing.head(envelope.game_id)
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
            raise ConcurrencyConflict(game_id, state.seq, self.listing.head(game_id)[0])
        self._heads[game_id], self._columns[game_id] = (state.seq, head_hash), (key, columns)

    def _update_game(self, game_id: str, columns: dict[str, Any]) -> None:
        self.conn.execute(f"UPDATE games SET {', '.join(f'{c}=?' for c in columns)} WHERE id=?", (*columns.values(), game_id))

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
            ids = [g.id for g in self.listing.listed()]
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

    def records(self, game_id: str) -> list[tuple[int, Event]]:
        """(seq, event) of each of the game's stored events up to its head, in seq order: what a
        fold reads, without the envelopes `events` makes (no hash worked out)."""
        return self._records(game_id, 0, self.listing.head(game_id)[0])

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
            with readable(game_id, row[0]):
                envelope = row_envelope(game_id, row, prev)
                sealed.append((envelope, row[PAYLOAD].encode()))
            prev = envelope.hash
        return sealed

    def _records(self, game_id: str, after: int, upto: int) -> list[tuple[int, Event]]:
        """(seq, event) of the game's events after seq `after` up to `upto`: what a fold reads (no
        envelope, no hash worked out)."""
        records = []
        for seq, type_name, version, payload in log.payloads(self.conn, self._key(game_id), after + 1, upto):
            with readable(game_id, seq):
                records.append((seq, decode_payload(type_name, version, payload)))
        return records

    def event_hash(self, game_id: str, seq: int) -> str | None:
        """The hash of a game's event at `seq` (hex), None if the game has no such event."""
        if not self.listing.has(game_id):
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
        head_seq, head_hash = self.listing.head(game_id)
        at = head_seq if at is None or at > head_seq else at
        if at == head_seq:
            return copy_state(self._state_at_head(game_id, head_seq, head_hash))
        return self._state_from_snapshot(game_id, at)

    def adopt(self, game_id: str, state: GameState, head_hash: str) -> None:
        """Take a state at a game's head (seq `state.seq`, hash `head_hash`) that another store of
        this process worked out (in the server, a seat's append), handed over to this store and
        no one else: while the game's stored head is that one, reading it folds nothing."""
        self._adopted[game_id] = (head_hash, state)

    def _state_at_head(self, game_id: str, head_seq: int, head_hash: str | None = None) -> GameState:
        cached = self._cache.get(game_id)
        if cached is None or cached.seq != head_seq:
            adopted = self._adopted.pop(game_id, None)
            if adopted is not None and adopted[1].seq == head_seq and adopted[0] == head_hash:
                cached = adopted[1]
            else:
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
