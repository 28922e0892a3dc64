"""The reducer: `apply(state, event)` and `fold(events)`, pure and deterministic.

A rule broken by an event raises `RuleViolation` naming the rule and its page; with an
override reason the event is accepted and the break listed in `state.warnings`. Undo
(`EventVoided`) rewinds to the state before the latest effective event, and a correction
(`EventCorrected`) replays the history from the event it replaces, so both need the history:
`fold` handles them, `apply` refuses them.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterable

import msgspec

from .errors import InvalidEvent, RuleViolation
from .events import Envelope, Event, EventCorrected, EventVoided, GameCreated
from .rules import actions, attacks, battle, damage, reported, setup, team  # noqa: F401  (handlers register)
from .rules.context import HANDLERS, Ctx
from .rulesets import get_ruleset
from .state import Checkpoint, GameState, copy_state, encode_state
from .text.results import describe_result

SeqEvent = tuple[int, Event]
"""An event at its seq: what the reducer folds and the timeline lists."""


def apply(state: GameState, event: Event, seq: int | None = None) -> GameState:
    """The state after `event` (at `seq`, by default the next one). `state` is not changed."""
    if isinstance(event, EventVoided | EventCorrected):
        raise InvalidEvent(f"{type(event).__name__} reaches back to an earlier event: use fold() over the log, or the Store", type(event).__name__)
    new = copy_state(state)
    apply_in_place(new, event, state.seq + 1 if seq is None else seq)
    return new


def apply_in_place(state: GameState, event: Event, seq: int) -> None:
    """Apply one event to a state the caller owns (fold and the store use it; it is not pure)."""
    ruleset = None
    try:
        if state.ruleset == "":
            if not isinstance(event, GameCreated):
                raise InvalidEvent(f"a game starts with GameCreated, not {type(event).__name__}", "event")
            ruleset = get_ruleset(event.ruleset)
        else:
            ruleset = get_ruleset(state.ruleset)
            if type(event) not in ruleset.events and not event.meta:
                raise InvalidEvent(f"{type(event).__name__} is not part of {ruleset.title}; this game is played under it", ruleset.source)
            if state.phase == "over" and not event.meta:
                raise InvalidEvent(f"the game is over ({describe_result(state)}); only annotations and undo are accepted", "pg 110")
        ctx = Ctx(state, event, seq, ruleset)
        if ruleset is not None:
            ruleset.check_event(ctx, event)
        HANDLERS[type(event)](ctx, event)
    except RuleViolation as exc:
        exc.seq = seq
        if ruleset is not None:
            exc.rule = ruleset.cite(exc.rule)  # the shared machinery cites KT24 pages
        raise
    state.seq = seq


def numbered(events: Iterable[Event | SeqEvent | Envelope], first: int = 1) -> list[SeqEvent]:
    """(seq, event) pairs from envelopes, pairs, or bare events numbered from `first`."""
    records: list[SeqEvent] = []
    for i, item in enumerate(events, first):
        if isinstance(item, Envelope):
            records.append((item.seq, item.payload))
        elif isinstance(item, tuple):
            records.append(item)
        else:
            records.append((i, item))
    return records


def effective(records: list[SeqEvent]) -> list[SeqEvent]:
    """The events that still count: each `EventVoided` removes the latest effective event."""
    stack: list[SeqEvent] = []
    for seq, event in records:
        if not isinstance(event, EventVoided):
            stack.append((seq, event))
            continue
        if not stack:
            raise _bad_void(seq, f"seq {seq} voids seq {event.target}, which is not in the events given")
        latest = stack[-1][0]
        if event.target != latest:
            raise _bad_void(seq, f"seq {seq} voids seq {event.target} but the latest effective event is seq {latest}; undo goes back one event at a time")
        if isinstance(stack[-1][1], GameCreated):
            raise _bad_void(seq, "the game's creation cannot be undone")
        stack.pop()
    return stack


def _bad_void(seq: int, message: str, rule: str = "EventVoided") -> InvalidEvent:
    error = InvalidEvent(message, rule)
    error.seq = seq  # so that an import names the line
    return error


def corrected(records: list[SeqEvent]) -> list[SeqEvent]:
    """Effective records as they count after their corrections: each corrected event replaced
    by its correction's event (at its own seq), the corrections left out. A correction given
    with an override passes its reason to the replacement and to the events recorded between
    it and its target, so a break it causes in them is accepted and listed as a warning."""
    fixes: dict[int, tuple[int, EventCorrected]] = {}
    for seq, event in records:
        if isinstance(event, EventCorrected):
            fixes[event.target] = (seq, event)
    if not fixes:
        return records
    seqs = {seq for seq, _ in records}
    for target, (at, _) in fixes.items():
        if target not in seqs or target >= at:
            raise _bad_void(at, f"seq {at} corrects seq {target}, which is not an earlier event that counts", "EventCorrected")
    reasons = [(target, at, f"corrected at seq {at}: {fix.override}") for target, (at, fix) in fixes.items() if fix.override]
    out: list[SeqEvent] = []
    for seq, event in records:
        if isinstance(event, EventCorrected):
            continue
        if seq in fixes:
            at, fix = fixes[seq]
            if isinstance(event, GameCreated) or event.meta or isinstance(fix.event, GameCreated) or fix.event.meta:
                raise _bad_void(at, "a correction replaces an event of the game (not its creation, an undo, a note or a correction)", "EventCorrected")
            event = fix.event
        reason = next((r for target, at, r in reasons if target <= seq < at), None)
        if reason and event.override is None and not event.meta:
            event = msgspec.structs.replace(event, override=reason)
        out.append((seq, event))
    return out


def rewinds(records: list[SeqEvent]) -> list[tuple[int, int]]:
    """(seq, target) of each event that reaches back: undos and corrections. A snapshot taken
    after a target is no use to a seek past its rewind (`usable_snapshot_seq`)."""
    return [(seq, e.target) for seq, e in records if isinstance(e, EventVoided | EventCorrected)]


def fold(events: Iterable[Event | SeqEvent | Envelope], start: GameState | None = None) -> GameState:
    """The state after `events`, from the beginning or from the snapshot `start`.

    `start` is not changed. Voids in `events` may only reach back to events in `events`.

    >>> from ktlog.events import EventVoided, GameCreated, PlayerJoined
    >>> events = [GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"), PlayerJoined(player="Ana", kill_team="Kasrkin")]
    >>> state = fold(events)
    >>> state.seq, list(state.players), state.phase
    (2, ['Ana'], 'setup')
    >>> list(fold([PlayerJoined(player="Ben", kill_team="Legionaries")], start=state).players)  # on from a state
    ['Ana', 'Ben']
    >>> list(fold([*events, PlayerJoined(player="Ben", kill_team="Legionaries"), EventVoided(target=3)]).players)  # undone
    ['Ana']
    """
    state = copy_state(start) if start is not None else GameState()
    return _fold_into(state, numbered(events, state.seq + 1))


def _fold_into(state: GameState, records: list[SeqEvent]) -> GameState:
    for seq, event in corrected(effective(records)):
        apply_in_place(state, event, seq)
    if records:
        state.seq = records[-1][0]
    return state


def usable_snapshot_seq(snapshot_seqs: list[int], voids: list[tuple[int, int]], upto: int | None = None) -> int:
    """The latest snapshot seq to fold forward from: no later void (seq, target) up to seq
    `upto` may reach back to an event at or before it. 0 means fold from the start. `voids`
    are in seq order, and only those after the snapshot chosen are looked at (a seek in a
    long game does not walk every undo before it)."""
    i = len(voids) if upto is None else bisect.bisect_right(voids, (upto, math.inf))
    lowest = math.inf  # the earliest target of the voids after the snapshot tried
    for start in reversed(snapshot_seqs):
        while i and voids[i - 1][0] > start:
            i -= 1
            lowest = min(lowest, voids[i][1])
        if lowest > start:
            return start
    return 0


def resume(
    seq: int,
    snapshot_seqs: Iterable[int],
    voids: list[tuple[int, int]],
    load_snapshot: Callable[[int], GameState],
    records_after: Callable[[int], list[SeqEvent]],
) -> tuple[GameState, int]:
    """The state after `seq`, folded forward from the latest snapshot that no later undo
    reaches past (or from the start). `voids` are (seq, target) of the undos, in seq order
    (those after `seq` are passed over); `records_after(start)` gives the events after `start`
    up to `seq`. Returns the state and how many events were applied."""
    start = usable_snapshot_seq(sorted(s for s in snapshot_seqs if s <= seq), voids, seq)
    records = records_after(start)
    state = _fold_into(load_snapshot(start) if start else GameState(), records)  # a loaded snapshot is ours to change
    state.seq = seq
    return state, len(records)


def fold_with_snapshots(records: list[SeqEvent], every: int) -> tuple[GameState, list[tuple[int, bytes]]]:
    """Fold a whole log from the start, keeping the encoded state at every `every`-th seq.

    A snapshot at seq s is the state as of s. An undo of the event at seq t leaves the state
    as of seq t - 1 (everything after t was undone already), so the states an undo will need
    are kept on the way (`Checkpoint`s: their cost grows with neither the game nor the teams'
    datacards) and no undo refolds anything.
    """
    effective(records)  # every undo targets the latest effective event
    needed = {event.target - 1 for _, event in records if isinstance(event, EventVoided)}
    state = GameState()
    kept: dict[int, Checkpoint] = {0: Checkpoint(state)} if 0 in needed else {}
    snapshots: list[tuple[int, bytes]] = []
    for i, (seq, event) in enumerate(records):
        if isinstance(event, EventVoided):
            state = kept[event.target - 1].restore()
            state.seq = seq
        elif isinstance(event, EventCorrected):  # the history again, corrected (corrections are rare)
            state = _fold_into(GameState(), records[: i + 1])
        else:
            apply_in_place(state, event, seq)
        if seq in needed:
            kept[seq] = Checkpoint(state)
        if seq % every == 0:
            snapshots.append((seq, encode_state(state)))
    return state, snapshots
