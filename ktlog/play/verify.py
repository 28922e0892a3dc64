"""`ktlog verify`: re-check every stored game from its raw rows: seqs, hash chain, schemas, rules,
and the tables derived from them."""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass

from ..envelopes import GENESIS, chain_hash, decode_payload, event_id_text
from ..errors import KtlogError, StoreError
from ..reducer import fold_with_snapshots
from ..state import GameState, decode_state
from ..storage import log, projections
from ..storage.catalog import PROJECTIONS
from ..storage.log import SHORT_HASH
from ..storage.snapshots import SNAPSHOT_EVERY, unpack
from ..storage.store import Store
from ..text.plural import counted


@dataclass(frozen=True)
class Verdict:
    game_id: str
    events: int
    bad_seq: int | None = None
    problem: str | None = None
    disputed: tuple[tuple[int, int], ...] = ()
    """(the dispute's seq, the seq it disputes) of each open dispute: the log holds, but the
    result is provisional."""

    @property
    def ok(self) -> bool:
        return self.problem is None

    def describe(self) -> str:
        if self.ok and self.disputed:
            open_ = "; ".join(f"seq {target} is disputed (seq {seq})" for seq, target in self.disputed)
            return (
                f"{self.game_id[:8]}  ok ({counted(self.events, 'event')}), but {open_}: the result is provisional until it is resolved "
                f"(`ktlog event {self.game_id[:8]} DisputeResolved dispute={self.disputed[0][0]} outcome=accepted|withdrawn`)"
            )
        if self.ok:
            return f"{self.game_id[:8]}  ok ({counted(self.events, 'event')})"
        where = f"seq {self.bad_seq}" if self.bad_seq else "the game"
        return f"{self.game_id[:8]}  FAILED at {where}: {self.problem}"


APPEND_ONLY_TRIGGERS = {
    "events_no_update": ("events", "that keeps events append-only"),
    "events_no_delete": ("events", "that keeps events append-only"),
    "archives_no_update": ("game_archives", "that keeps archived events append-only"),
    "archives_no_delete": ("game_archives", "that keeps archived events append-only"),
}
UNIQUE_EVENT_KEYS = (("events", ("game_key", "seq")), ("event_ids", ("event_id",)))
"""The schema objects the log's promises rest on: triggers refusing to change or delete an event
(a row only once archived), and the unique keys that turn a race between writers into a conflict
instead of a duplicate, with the trigger that keeps every event id in `event_ids`."""


def check_file(store: Store) -> tuple[list[str], list[str]]:
    """What is wrong with the database file itself: what SQLite's integrity check finds (damaged
    pages, an index that disagrees with its table), and which schema objects the log relies on
    are missing (`ktlog rebuild` makes them again)."""
    conn = store.conn
    damage = [f"SQLite's integrity check: {row}" for (row,) in conn.execute("PRAGMA integrity_check") if row != "ok"]
    problems: list[str] = []
    triggers = {(table, name): sql for name, table, sql in conn.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")}
    for name, (table, role) in APPEND_ONLY_TRIGGERS.items():
        if "RAISE(ABORT" not in (triggers.get((table, name)) or ""):
            problems.append(f"the trigger {name} {role} is missing or changed: events can be edited without a trace")
    if "INSERT INTO event_ids" not in (triggers.get(("events", "events_ids")) or ""):
        problems.append("the trigger events_ids that keeps every event id in event_ids is missing or changed: two events could have the same id")
    for table, key in UNIQUE_EVENT_KEYS:
        unique = {
            tuple(column for _, _, column in conn.execute(f"PRAGMA index_info('{name}')"))
            for _, name, is_unique, _, partial in conn.execute(f"PRAGMA index_list('{table}')")
            if is_unique and not partial
        }
        if key not in unique:
            problems.append(f"the unique index of {table} on ({', '.join(key)}) is missing: two writers could store the same {key[-1]} twice")
    return damage, [f"{p} (`ktlog rebuild` makes it again)" for p in problems]


def verify_game(store: Store, game_id: str) -> Verdict:
    """Check one game, whatever its rows hold: a problem no check foresaw is the game's verdict
    too (`ktlog verify` goes on to the next game)."""
    try:
        return _verify_game(store, game_id)
    except Exception as exc:  # bytes no decoder accepts, a damaged page under this game ...
        return Verdict(game_id, 0, None, f"the game cannot be read ({type(exc).__name__}: {exc}); restore it from its exported file")


def _verify_game(store: Store, game_id: str) -> Verdict:
    """Read the raw rows (not trusting triggers or the cache) and check them one by one, then
    check that what the store derives from them (the game's row, projections, snapshots) agrees."""
    conn = store.conn
    head = conn.execute("SELECT game_key, head_seq, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
    # A game whose row was deleted is found by its first event, which names it.
    key = head[0] if head else next(k for k, named, _ in log.unlisted(conn) if named == game_id)
    rows = log.stored_rows(conn, key)
    if head is None:
        return Verdict(
            game_id, len(rows), None, f"{len(rows)} events are stored but the game's row is missing from the games table: it was deleted behind ktlog's back"
        )
    _, head_seq, head_hash = head
    prev, records = GENESIS, []
    for expected, (seq, event_id, type_name, version, recorded_at, payload, digest, named) in enumerate(rows, 1):
        if seq != expected:
            return Verdict(game_id, len(rows), expected, f"event seq {expected} is missing or out of order (found seq {seq} in its place)")
        if named != (game_id if seq == 1 else None):
            return Verdict(game_id, len(rows), seq, "the event's game_id column was changed: only a game's first event names it, with its own id")
        # An archived event's hash is checked by its first bytes (`log.SHORT_HASH`), its block's
        # last in full: an edit fails here, or at the next full hash the chain reaches.
        computed = chain_hash(prev, game_id, seq, event_id_text(event_id), version, recorded_at, payload.encode()) if isinstance(payload, str) else ""
        if not isinstance(digest, bytes) or len(digest) not in (SHORT_HASH, 32) or not computed.startswith(digest.hex()):
            return Verdict(game_id, len(rows), seq, "the hash does not match the event's content: it was changed after it was recorded")
        try:
            records.append((seq, decode_payload(type_name, version, payload)))
        except Exception as exc:  # a payload edited into something no schema accepts
            return Verdict(game_id, len(rows), seq, f"the payload does not match the {type_name} schema: {exc}")
        prev = computed
    if len(rows) != head_seq:
        return Verdict(
            game_id,
            len(rows),
            min(len(rows), head_seq) + 1,
            f"the game's head says {head_seq} events but {len(rows)} are stored: events were deleted or added behind ktlog's back",
        )
    if prev != head_hash:
        return Verdict(
            game_id, len(rows), head_seq, f"the game's head hash is not the hash of its last event (seq {head_seq}): the head was edited behind ktlog's back"
        )
    try:
        state, snapshots = fold_with_snapshots(records, SNAPSHOT_EVERY)
    except KtlogError as exc:
        return Verdict(game_id, len(rows), getattr(exc, "seq", None), f"the events break a rule: {exc}")
    bad_seq, problem = _derived_mismatch(store, game_id, state, snapshots) or (None, None)
    return Verdict(game_id, len(rows), bad_seq, problem, tuple((d.seq, d.target) for d in state.open_disputes))


REBUILD = "(`ktlog rebuild` rewrites it from the log)"


def _derived_mismatch(store: Store, game_id: str, state: GameState, snapshots: list[tuple[int, bytes]]) -> tuple[int | None, str] | None:
    """The first place where the game's row, a projection table or a snapshot disagrees with
    the events, as (seq, problem); None when they all agree."""
    conn = store.conn
    columns = projections.game_columns(state)
    stored = conn.execute(f"SELECT {', '.join(columns)} FROM games WHERE id = ?", (game_id,)).fetchone()
    edited = [c for c, value in zip(columns, stored) if value != columns[c]]
    if edited:
        return None, f"the game's row does not match its events ({', '.join(edited)}): it was edited behind ktlog's back {REBUILD}"
    found = []
    key = conn.execute("SELECT game_key FROM games WHERE id = ?", (game_id,)).fetchone()
    for table, expected in projections.rows_since(game_id, state, 0).items():
        names = PROJECTIONS[table]
        expected = [(*row, key[0] if key else None) for row in expected]
        rows = conn.execute(f"SELECT {', '.join(names)} FROM {table} WHERE game_id = ?", (game_id,)).fetchall()
        odd = (Counter(rows) - Counter(expected)) + (Counter(expected) - Counter(rows))
        if odd:
            seq = min(row[1] for row in odd)
            found.append((seq, f"the {table} row of seq {seq} does not match the events: the table was edited behind ktlog's back {REBUILD}"))
    kept = dict(snapshots)
    for seq, blob in conn.execute("SELECT seq, state FROM snapshots WHERE game_key = ? ORDER BY seq", key or (None,)):
        if seq not in kept or not _same_state(blob, kept[seq]):
            found.append((seq, f"the snapshot of the state at seq {seq} does not match the events: it was edited behind ktlog's back {REBUILD}"))
            break
    return min(found, key=lambda f: f[0]) if found else None


def _same_state(stored, expected: bytes) -> bool:
    """Whether a stored snapshot holds the state the events give (garbage holds none)."""
    try:
        return decode_state(unpack(stored)) == decode_state(expected)
    except Exception:  # not a state at all: msgspec's DecodeError or ValidationError, a wrong type
        return False


def stored_game_ids(store: Store) -> list[str]:
    """Every game in the games table, and any game whose events are stored without its row."""
    listed = [g.id for g in store.games()]
    return listed + [game_id for _, game_id, _ in log.unlisted(store.conn)]


def verify_file(store: Store) -> tuple[list[str], list[str]]:
    """`check_file`'s findings; the damage SQLite finds is kept in the database, and the file
    then refuses every write."""
    damage, missing = check_file(store)
    try:
        store.checks.record_file_check(damage)
    except (StoreError, sqlite3.Error):
        pass  # read-only, or too damaged to write to: the damage is still reported
    return damage, missing


def verify(store: Store, game_ids: list[str] | None = None) -> list[Verdict]:
    """Verify games and keep each verdict (statistics warn about games that failed). Text that
    is not UTF-8 is read with replacement characters, so it fails its game's checks by name
    instead of stopping the run."""
    factory = store.conn.text_factory
    store.conn.text_factory = lambda data: data.decode("utf-8", errors="replace")
    try:
        ids = game_ids if game_ids is not None else stored_game_ids(store)
        verdicts = [verify_game(store, g) for g in ids]
    finally:
        store.conn.text_factory = factory
    try:
        store.checks.record_verdicts(verdicts)
    except StoreError:
        pass  # a read-only database is still verified; its verdicts are just not kept
    return verdicts
