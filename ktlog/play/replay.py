"""A replay cursor over one game: the state at any seq, step forward and back, jump to a turning point.

Opening folds the log once and keeps a snapshot every `every` seqs, so a seek applies at most
`every - 1` events after decoding one snapshot (more only when an undo reaches back past it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import KtlogError
from ..events import Envelope, Event, EventVoided, OperativeActivated, TurningPointEnded, TurningPointStarted
from ..reducer import effective, fold_with_snapshots, resume
from ..state import GameState, decode_state
from ..storage.store import Store

SNAPSHOT_EVERY = 50


class Replay:
    def __init__(self, envelopes: Sequence[Envelope], every: int = SNAPSHOT_EVERY):
        if not envelopes:
            raise KtlogError("the game has no events to replay")
        self.envelopes = list(envelopes)
        self.records: list[tuple[int, Event]] = [(e.seq, e.payload) for e in self.envelopes]
        self.every = every
        final, snapshots = fold_with_snapshots(self.records, every)
        self._snapshots: dict[int, bytes] = dict(snapshots)
        self._voids = [(seq, e.target) for seq, e in self.records if isinstance(e, EventVoided)]
        self.final = final
        self.head = self.records[-1][0]
        self.seq = self.head
        self.state = final
        self.last_seek_cost = 0
        """Events applied by the latest seek (the bound the snapshots keep)."""
        self._effective = {seq for seq, _ in effective(self.records)}

    @classmethod
    def open(cls, store: Store, game_id: str, every: int = SNAPSHOT_EVERY) -> Replay:
        return cls(store.events(game_id), every)

    # --- moving -----------------------------------------------------------------------------

    def seek(self, seq: int) -> GameState:
        """Move to the state after `seq` (clamped to 0..head)."""
        seq = max(0, min(seq, self.head))
        self.state, self.last_seek_cost = resume(
            seq, self._snapshots, self._voids, lambda s: decode_state(self._snapshots[s]),
            lambda start: self.records[start:seq],  # seqs run 1, 2, 3 ...: record i has seq i + 1
        )
        self.seq = seq
        return self.state

    def step(self, n: int = 1) -> GameState:
        return self.seek(self.seq + n)

    def back(self, n: int = 1) -> GameState:
        return self.seek(self.seq - n)

    def start(self) -> GameState:
        return self.seek(0)

    def end(self) -> GameState:
        return self.seek(self.head)

    # --- landmarks --------------------------------------------------------------------------

    def _landmarks(self, kind: type, **match) -> list[int]:
        """Seqs of events of a kind that still count at the end of the game (undone ones skipped)."""
        return [
            seq for seq, e in self.records
            if isinstance(e, kind) and seq in self._effective and all(getattr(e, k) == v for k, v in match.items())
        ]

    def turning_point_start(self, tp: int) -> int:
        seqs = self._landmarks(TurningPointStarted, turning_point=tp)
        if not seqs:
            raise KtlogError(f"turning point {tp} was not played in this game")
        return seqs[0]

    def turning_point_end(self, tp: int) -> int:
        """The seq ending turning point `tp` (or the game's last event if it has not ended)."""
        seqs = self._landmarks(TurningPointEnded, turning_point=tp)
        if seqs:
            return seqs[0]
        self.turning_point_start(tp)
        return self.head

    def activations(self) -> list[int]:
        """Seqs where an activation starts: stepping by activation jumps between them."""
        return self._landmarks(OperativeActivated)

    def next_activation(self) -> GameState:
        later = [s for s in self.activations() if s > self.seq]
        return self.seek(later[0] if later else self.head)

    def previous_activation(self) -> GameState:
        earlier = [s for s in self.activations() if s < self.seq]
        return self.seek(earlier[-1] if earlier else 0)
