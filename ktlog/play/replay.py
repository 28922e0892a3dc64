"""A replay cursor over one game's timeline: the state at any seq, step forward and back, jump to an activation.

Opening folds the log once and keeps a snapshot every `every` seqs, so a seek applies at most
`every - 1` events after decoding one snapshot (more only when an undo reaches back past it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import KtlogError
from ..events import Envelope
from ..reducer import fold_with_snapshots, resume, rewinds
from ..state import GameState, decode_state
from ..storage.store import Store
from .timeline import Timeline

SNAPSHOT_EVERY = 50


class Replay:
    def __init__(self, envelopes: Sequence[Envelope], every: int = SNAPSHOT_EVERY):
        if not envelopes:
            raise KtlogError("the game has no events to replay")
        self.timeline = Timeline(envelopes)
        """The game's events, what still counts, its notes and landmarks."""
        self.every = every
        final, snapshots = fold_with_snapshots(self.timeline.records, every)
        self._snapshots: dict[int, bytes] = dict(snapshots)
        self._voids = rewinds(self.timeline.records)
        self.final = final
        self.head = self.timeline.head
        self.seq = self.head
        self.state = final
        self.last_seek_cost = 0
        """Events applied by the latest seek (the bound the snapshots keep)."""

    @classmethod
    def open(cls, store: Store, game_id: str, every: int = SNAPSHOT_EVERY) -> Replay:
        return cls(store.events(game_id), every)

    # --- moving -----------------------------------------------------------------------------

    def seek(self, seq: int) -> GameState:
        """Move to the state after `seq` (clamped to 0..head)."""
        seq = max(0, min(seq, self.head))
        self.state, self.last_seek_cost = resume(
            seq,
            self._snapshots,
            self._voids,
            lambda s: decode_state(self._snapshots[s]),
            lambda start: self.timeline.records[start:seq],  # seqs run 1, 2, 3 ...: record i has seq i + 1
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

    def next_activation(self) -> GameState:
        later = [s for s in self.timeline.activations() if s > self.seq]
        return self.seek(later[0] if later else self.head)

    def previous_activation(self) -> GameState:
        earlier = [s for s in self.timeline.activations() if s < self.seq]
        return self.seek(earlier[-1] if earlier else 0)
