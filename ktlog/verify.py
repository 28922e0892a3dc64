"""`ktlog verify`: re-check every stored game from its raw rows: seqs, hash chain, schemas, rules."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import KtlogError
from .records import GENESIS, chain_hash, decode_payload
from .reducer import fold
from .store import Store


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
    """Read the raw rows (not trusting triggers or the cache) and check them one by one."""
    rows = store.conn.execute(
        "SELECT seq, event_id, type, version, recorded_at, payload, prev_hash, hash FROM events WHERE game_id = ? ORDER BY position",
        (game_id,),
    ).fetchall()
    head_seq, head_hash = store.conn.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
    prev, records = GENESIS, []
    for expected, (seq, event_id, type_name, version, recorded_at, payload, prev_hash, digest) in enumerate(rows, 1):
        if seq != expected:
            return Verdict(game_id, len(rows), expected, f"event seq {expected} is missing or out of order (found seq {seq} in its place)")
        if prev_hash != prev:
            return Verdict(game_id, len(rows), seq, "prev_hash does not match the previous event's hash: an event was removed or reordered")
        if chain_hash(prev, game_id, seq, event_id, version, recorded_at, payload.encode()) != digest:
            return Verdict(game_id, len(rows), seq, "the hash does not match the event's content: it was changed after it was recorded")
        try:
            records.append((seq, decode_payload(type_name, version, payload)))
        except Exception as exc:  # a payload edited into something no schema accepts
            return Verdict(game_id, len(rows), seq, f"the payload does not match the {type_name} schema: {exc}")
        prev = digest
    if len(rows) != head_seq or prev != head_hash:
        return Verdict(game_id, len(rows), min(len(rows), head_seq) + 1, f"the game's head says {head_seq} events but {len(rows)} are stored: events were deleted or added behind ktlog's back")
    try:
        fold(records)
    except KtlogError as exc:
        return Verdict(game_id, len(rows), getattr(exc, "seq", None), f"the events break a rule: {exc}")
    return Verdict(game_id, len(rows))


def verify(store: Store, game_ids: list[str] | None = None) -> list[Verdict]:
    """Verify games and keep each verdict (statistics warn about games that failed)."""
    ids = game_ids if game_ids is not None else [g.id for g in store.games()]
    verdicts = [verify_game(store, g) for g in ids]
    store.record_verdicts(verdicts)
    return verdicts
