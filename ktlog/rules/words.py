"""Each event type's words: how the event log, `ktlog log`, the record screen and a seat's page say
an event. Registered by type as rule handlers are (`@words(Shot)`): the core's in
ktlog/text/describe.py, a ruleset's beside its own event types. `ktlog.text.describe.describe`
finds an event's words by its type, else by its nearest base type's (every action without words
of its own is said as an action)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..events import Event

if TYPE_CHECKING:
    from ..events import ShootingAttack
    from ..state import GameState


class Said(Protocol):
    """What an event's words are told besides the event: the moment viewed, whether a secret
    must stay hidden there, and the words of the parts several event types share."""

    @property
    def state(self) -> GameState | None:
        """The state at the moment viewed (None: no moment given, so nothing is revealed)."""

    @property
    def hide(self) -> bool:
        """A spectator views it and the ruleset hides what this event says at that moment."""

    @property
    def before(self) -> GameState | None:
        """The state the event was applied to, for a reply to the event just recorded (else None)."""

    def describe(self, event: Event) -> str:
        """Another event in words, seen the same way (a correction's event)."""

    def attacks(self, attacks: tuple[ShootingAttack, ...]) -> str:
        """A shooting action's attacks: "gunner (6542 vs 31, cover); ..."."""

    def cp(self, cp: int | None, player: str, name: str) -> str:
        """A ploy's or gambit's cost, " (2CP)": as given, else its cost on the player's roster."""


E = TypeVar("E", bound=Event)
Words = Callable[[Any, Said], str]
"""An event type's words: the event (of that type) and what is said about the moment -> a line."""
WORDS: dict[type[Event], Words] = {}


def words(*types: type[E]) -> Callable[[Callable[[E, Said], str]], Callable[[E, Said], str]]:
    """Register the words of event types (one function per type, as `handles`)."""

    def register(fn: Callable[[E, Said], str]) -> Callable[[E, Said], str]:
        for t in types:
            assert t not in WORDS, f"two wordings of {t.__name__}"
            WORDS[t] = fn
        return fn

    return register


def words_of(cls: type[Event]) -> Words | None:
    """The words of an event type: its own, else its nearest base type's (None: no words)."""
    return next((WORDS[base] for base in cls.__mro__ if base in WORDS), None)
