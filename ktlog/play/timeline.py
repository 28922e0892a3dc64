"""A game's events read once for every view: which still count, what undid what, the notes on
each event, the turning points and activations, and what a spectator may not see yet.

The log, the replay screen, `ktlog log`, the HTML report and the recording session all ask a
`Timeline` instead of working it out again. What it derives is computed on first use and
forgotten when an event is appended, so recording an event costs nothing until a view asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from ..errors import KtlogError
from ..events import Annotation, Envelope, Event, EventCorrected, EventVoided, OperativeActivated, TurningPointEnded, TurningPointStarted
from ..reducer import SeqEvent, effective, fold
from ..rulesets import get_ruleset
from ..state import GameState

_DERIVED = ("counting", "kept", "undone_by", "corrected_by", "notes", "turning_points")


class Timeline:
    """The events of one game in seq order (seqs run 1, 2, 3 ...: record i has seq i + 1)."""

    def __init__(self, envelopes: Sequence[Envelope]):
        self.envelopes = list(envelopes)
        self.records: list[SeqEvent] = [(e.seq, e.payload) for e in self.envelopes]

    def append(self, envelope: Envelope) -> None:
        """An event recorded after the timeline was read."""
        self.envelopes.append(envelope)
        self.records.append((envelope.seq, envelope.payload))
        for name in _DERIVED:
            self.__dict__.pop(name, None)

    @property
    def head(self) -> int:
        """The seq of the latest event (0 for no events)."""
        return self.records[-1][0] if self.records else 0

    def event(self, seq: int) -> Event:
        return self.records[seq - 1][1]

    # --- what still counts ------------------------------------------------------------------

    @cached_property
    def counting(self) -> list[SeqEvent]:
        """The events that still count, in order (each undo removed its target)."""
        return effective(self.records)

    @cached_property
    def kept(self) -> frozenset[int]:
        """The seqs of the events that still count."""
        return frozenset(seq for seq, _ in self.counting)

    @cached_property
    def undone_by(self) -> dict[int, int]:
        """The seq of each undone event -> the seq of the undo that voided it."""
        return {e.target: seq for seq, e in self.records if isinstance(e, EventVoided)}

    @cached_property
    def corrected_by(self) -> dict[int, int]:
        """The seq of each corrected event -> the seq of the correction that counts (the latest)."""
        return {e.target: seq for seq, e in self.counting if isinstance(e, EventCorrected)}

    def latest(self) -> SeqEvent | None:
        """The latest event that still counts (what an undo voids), or None at the game's creation."""
        return self.counting[-1] if len(self.counting) > 1 else None

    @cached_property
    def notes(self) -> dict[int, list[str]]:
        """The notes that still count, by the seq of the event they are about."""
        notes: dict[int, list[str]] = {}
        for _, e in self.counting:
            if isinstance(e, Annotation):
                notes.setdefault(e.target, []).append(e.text)
        return notes

    # --- landmarks --------------------------------------------------------------------------

    @cached_property
    def turning_points(self) -> dict[int, int]:
        """The seq starting each turning point played -> its number."""
        return {seq: e.turning_point for seq, e in self.counting if isinstance(e, TurningPointStarted)}

    def landmarks(self, kind: type, **match) -> list[int]:
        """Seqs of the events of a kind that still count (`match`: fields they must have)."""
        return [seq for seq, e in self.counting if isinstance(e, kind) and all(getattr(e, k) == v for k, v in match.items())]

    def turning_point_start(self, tp: int) -> int:
        seqs = self.landmarks(TurningPointStarted, turning_point=tp)
        if not seqs:
            raise KtlogError(f"turning point {tp} was not played in this game")
        return seqs[0]

    def turning_point_end(self, tp: int) -> int:
        """The seq ending turning point `tp` (or the game's last event if it has not ended)."""
        seqs = self.landmarks(TurningPointEnded, turning_point=tp)
        if seqs:
            return seqs[0]
        self.turning_point_start(tp)
        return self.head

    def activations(self) -> list[int]:
        """Seqs where an activation starts: stepping by activation jumps between them."""
        return self.landmarks(OperativeActivated)

    # --- secrets ----------------------------------------------------------------------------

    @staticmethod
    def hidden(state: GameState, event: Event) -> bool:
        """Whether a spectator may not yet see what `event` says at the moment `state` (the
        ruleset decides: a secret choice, its reveal, VP scored on it)."""
        return get_ruleset(state.ruleset).hidden(state, event)

    @cached_property
    def created(self) -> GameState:
        """The state just after the game's creation, when no secret is revealed yet."""
        return fold(self.records[:1])

    def revealed_later(self, final: GameState) -> list[int]:
        """The seqs a spectator sees hidden at the game's creation and revealed by `final`: the
        rows whose words depend on the moment viewed."""
        return [seq for seq, e in self.records if self.hidden(self.created, e) and not self.hidden(final, e)]
