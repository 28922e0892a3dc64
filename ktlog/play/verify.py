"""`ktlog verify`: re-check every stored game from its raw rows: seqs, hash chain, schemas, rules,
and the tables derived from them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import KtlogError, StoreError
from ..records import GENESIS, chain_hash, decode_payload
from ..reducer import fold_with_snapshots
from ..state import GameState, decode_state
from ..storage import projections
from ..storage.catalog import PROJECTIONS
from ..storage.snapshots import SNAPSHOT_EVERY
from ..storage.store import Store


@dataclass(frozen=True)
class Verdict:
    game_id: str
    events: int
    bad_seq: int | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def describe(self) -> str:
        if self.ok:
            return f"{self.game_id[:8]}  ok ({self.events} events)"
        where = f"seq {self.bad_seq}" if self.bad_seq else "the game"
        return f"{self.game_id[:8]}  FAILED at {where}: {self.problem}"


def verify_game(store: Store, game_id: str) -> Verdict:
    """Read the raw rows (not trusting triggers or the cache) and check them one by one, then
    check that what the store derives from them (the game's row, projections, snapshots) agrees."""
    rows = store.conn.execute(
        "SELECT seq, event_id, type, version, recorded_at, payload, prev_hash, hash FROM events WHERE game_id = ? ORDER BY position",
        (game_id,),
    ).fetchall()
    head = store.conn.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
    if head is None:
        return Verdict(
            game_id, len(rows), None, f"{len(rows)} events are stored but the game's row is missing from the games table: it was deleted behind ktlog's back"
        )
    head_seq, head_hash = head
    prev, records = GENESIS, []
    for expected, (seq, event_id, type_name, version, recorded_at, payload, prev_hash, digest) in enumerate(rows, 1):
        if seq != expected:
            return Verdict(game_id, len(rows), expected, f"event seq {expected} is missing or out of order (found seq {seq} in its place)")
        if prev_hash != prev:
            return Verdict(game_id, len(rows), seq, "prev_hash does not match the previous event's hash: an event was removed or reordered")
        if not isinstance(payload, str) or chain_hash(prev, game_id, seq, event_id, version, recorded_at, payload.encode()) != digest:
            return Verdict(game_id, len(rows), seq, "the hash does not match the event's content: it was changed after it was recorded")
        try:
            records.append((seq, decode_payload(type_name, version, payload)))
        except Exception as exc:  # a payload edited into something no schema accepts
            return Verdict(game_id, len(rows), seq, f"the payload does not match the {type_name} schema: {exc}")
        prev = digest
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
    return Verdict(game_id, len(rows), bad_seq, problem)


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
    key = conn.execute("SELECT rowid FROM games WHERE id = ?", (game_id,)).fetchone()
    for table, expected in projections.rows_since(game_id, state, 0).items():
        names = PROJECTIONS[table]
        expected = [(*row, key[0] if key else None) for row in expected]
        rows = conn.execute(f"SELECT {', '.join(names)} FROM {table} WHERE game_id = ?", (game_id,)).fetchall()
        odd = (Counter(rows) - Counter(expected)) + (Counter(expected) - Counter(rows))
        if odd:
            seq = min(row[1] for row in odd)
            found.append((seq, f"the {table} row of seq {seq} does not match the events: the table was edited behind ktlog's back {REBUILD}"))
    kept = dict(snapshots)
    for seq, blob in conn.execute("SELECT seq, state FROM snapshots WHERE game_id = ? ORDER BY seq", (game_id,)):
        if seq not in kept or decode_state(blob) != decode_state(kept[seq]):
            found.append((seq, f"the snapshot of the state at seq {seq} does not match the events: it was edited behind ktlog's back {REBUILD}"))
            break
    return min(found, key=lambda f: f[0]) if found else None


def stored_game_ids(store: Store) -> list[str]:
    """Every game in the games table, and any game whose events are stored without its row."""
    listed = [g.id for g in store.games()]
    orphans = store.conn.execute("SELECT DISTINCT game_id FROM events WHERE game_id NOT IN (SELECT id FROM games)").fetchall()
    return listed + [game_id for (game_id,) in orphans]


def verify(store: Store, game_ids: list[str] | None = None) -> list[Verdict]:
    """Verify games and keep each verdict (statistics warn about games that failed)."""
    ids = game_ids if game_ids is not None else stored_game_ids(store)
    verdicts = [verify_game(store, g) for g in ids]
    try:
        store.record_verdicts(verdicts)
    except StoreError:
        pass  # a read-only database is still verified; its verdicts are just not kept
    return verdicts
