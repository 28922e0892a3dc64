"""The open event vocabulary (issue 43): the core's types in ktlog/events.py, each ruleset's own in
its package, registered with their upcasters, handlers and words; a type the registry cannot
use is refused at once, naming what it lacks, never a log that later fails to read."""

from __future__ import annotations

import msgspec
import pytest

from ktlog import events as ev
from ktlog.envelopes import decode_payload
from ktlog.errors import RegistryError
from ktlog.events import CORE_EVENTS, EVENT_TYPES, UPCASTERS, Event, register_events
from ktlog.rules.context import HANDLERS
from ktlog.rules.words import WORDS, words_of
from ktlog.rulesets import RULESETS, register
from ktlog.rulesets.preliminary.rules import PreliminaryOps
from ktlog.text.describe import describe

OWN = {ruleset.name: ruleset for ruleset in RULESETS.values() if type(ruleset).__module__.startswith("ktlog.")}


def test_events_py_holds_no_ruleset_only_type():
    """Each core type is accepted by two of ktlog's rulesets or more (a meta event by all); the
    ruleset-only ones live in their ruleset's package."""
    for cls in CORE_EVENTS:
        assert cls.meta or sum(cls in r.events for r in OWN.values()) >= 2, f"{cls.__name__} is one ruleset's: move it into its package"
    own = {cls for r in OWN.values() for cls in r.events} - set(CORE_EVENTS)
    assert len(own) == 14 and all(cls.__module__.startswith("ktlog.rulesets.") for cls in own)
    assert all(EVENT_TYPES[cls.__name__] is cls and cls in HANDLERS and words_of(cls) for cls in own)


def test_every_type_is_worded_by_its_own_words_or_its_bases():
    for cls in EVENT_TYPES.values():
        assert words_of(cls) is not None, cls.__name__
    assert words_of(EVENT_TYPES["NormalMoved"]) is WORDS[ev.Action]  # an action without words of its own
    overwatch = EVENT_TYPES["OverwatchFired"](operative="a1", weapon="Gun", attacks=(ev.ShootingAttack(target="b1", damage=2),))
    assert describe(overwatch) == "a1 performs Overwatch with Gun at b1 (2 damage)"  # its own words, not a Shot's


class Claimed(Event):
    player: str


@pytest.fixture
def vocabulary():
    """The registries as they are, put back after the test (in place: other modules hold them)."""
    kept = [(registry, dict(registry)) for registry in (EVENT_TYPES, UPCASTERS, HANDLERS, WORDS)]
    yield
    for registry, before in kept:
        registry.clear()
        registry.update(before)


def test_register_events_refuses_what_the_vocabulary_cannot_read(vocabulary):

    class Shot(Event):  # another type of a name taken
        operative: str

    class Tagged(Event, tag="claimed"):
        player: str

    class Newer(Event):
        version = 2
        player: str

    for cls, message in (
        (Shot, "two event types are called 'Shot'"),
        (Tagged, "is tagged 'claimed': an event's tag is its class name"),
        (Newer, "version 2 with no upcaster from version 1"),
        (int, "is not an event type"),
    ):
        with pytest.raises(RegistryError, match=message):
            register_events(cls)
    register_events(Newer, upcasters={("Newer", 1): ev.unchanged})
    register_events(Newer)  # again: left as it is
    assert EVENT_TYPES["Newer"] is Newer


def test_a_type_registered_later_decodes_in_a_correction_too(vocabulary):
    register_events(Claimed)
    stored = b'{"event":{"player":"Ana","type":"Claimed"},"target":4,"type":"EventCorrected"}'
    assert decode_payload("EventCorrected", 1, stored) == ev.EventCorrected(target=4, event=Claimed(player="Ana"))
    assert decode_payload("Claimed", 1, b'{"player":"Ana","type":"Claimed"}') == Claimed(player="Ana")
    with pytest.raises(msgspec.ValidationError):  # a correction of a correction: never
        decode_payload("EventCorrected", 1, b'{"event":' + stored + b',"target":5,"type":"EventCorrected"}')


def test_a_ruleset_whose_own_type_lacks_a_piece_is_refused(vocabulary, monkeypatch):

    class Skirmish(PreliminaryOps):
        name = "skirmish-test"
        events = PreliminaryOps.events | {Claimed}

    with pytest.raises(RegistryError, match="accepts Claimed, which is not a registered event type: declare it with ktlog.events.register_events"):
        register(Skirmish())
    register_events(Claimed)
    with pytest.raises(RegistryError, match=r"Claimed, which has no rule handler: give it one with @ktlog.rules.context.handles\(Claimed\)"):
        register(Skirmish())
    HANDLERS[Claimed] = lambda ctx, e: None
    with pytest.raises(RegistryError, match=r"Claimed, which has no words: give it them with @ktlog.rules.words.words\(Claimed\)"):
        register(Skirmish())
    WORDS[Claimed] = lambda e, said: f"{e.player} claims"
    monkeypatch.setattr("ktlog.rulesets.RULESETS", dict(RULESETS))
    assert register(Skirmish()).name == "skirmish-test"
    assert describe(Claimed(player="Ana")) == "Ana claims"
