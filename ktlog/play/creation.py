"""Creating a game, the one way every face does it (`ktlog new`, the TUI's new-game form, game
files, the seat API): its GameCreated, then each side's PlayerJoined and OperativeAdded from its
roster, checked before anything is written and stored in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import events as ev
from ..errors import InvalidEvent
from ..files.rosters import Roster, is_npo, joining
from ..rules.not_applied import not_applied, not_applied_in_setup
from ..rulesets import get_ruleset
from ..storage.store import Store


@dataclass(frozen=True)
class Side:
    """A side joining a new game: a player (or Joint Ops' NPOs) and their kill team's roster, with
    the operatives selected for this battle (None: all of them; an id named n times: n of it)."""

    name: str
    roster: Roster
    select: list[str] | None = None
    npo: bool = False


def opening_events(created: ev.GameCreated, sides: Sequence[Side], *, joining_later: int = 0) -> list[ev.Event]:
    """GameCreated and each side's PlayerJoined and OperativeAdded events, in order; refused
    (InvalidEvent) when the ruleset is not played by that many sides (with `joining_later`, those
    a game file's own PlayerJoined lines add)."""
    ruleset = get_ruleset(created.ruleset)
    low, high = ruleset.players
    count = len(sides) + joining_later
    if not low <= count <= high:
        many = f"{low}" if low == high else f"{low} to {high}"
        npos = " (the players' side and the NPOs')" if ruleset.npos else ""
        given = ", ".join(side.name for side in sides) or "nobody"
        raise InvalidEvent(f"{ruleset.title} ({ruleset.name}) is played by {many} players{npos}, not {count} ({given}): give {many}", "players")
    events: list[ev.Event] = [created]
    taken: set[str] = set()
    for side in sides:
        events += joining(side.name, side.roster, side.select, taken, npo=side.npo)
    return events


def check_killzone(ruleset_name: str, killzone: str) -> str:
    """The killzone a new game is set up on, as its ruleset names it (case and spaces aside);
    refused, naming the choices, when the ruleset lists its killzones and this is not one."""
    ruleset = get_ruleset(ruleset_name)
    named = " ".join(killzone.split()).lower()
    if not ruleset.killzones or named in ruleset.killzones:
        return named if ruleset.killzones else killzone
    *others, last = ruleset.killzones
    choices = f"{', '.join(others)} or {last}" if others else last
    raise InvalidEvent(f"unknown killzone {killzone!r}: {ruleset.title} is played on {choices}; give one of them", "killzone")


def create_game(store: Store, created: ev.GameCreated, sides: Sequence[Side], *, game_id: str | None = None) -> str:
    """Check and store a new game's opening events, all or none (the rules check each); its id."""
    events = opening_events(created, sides)
    return store.new_game(created, events[1:], game_id=game_id)


def unapplied_rules(opening: Sequence[ev.Event], ruleset: str) -> list[str]:
    """What the datacards a new game's opening events bring in hold that reads like a rule ktlog
    does not apply (`rules.not_applied`), each datacard once: `ktlog new` and the new-game form say it."""
    return not_applied_in_setup(opening, get_ruleset(ruleset))


def roster_unapplied(roster: Roster, ruleset: str) -> list[str]:
    """The same for each datacard of a roster (`ktlog roster check`)."""
    cards = dict.fromkeys(operative.datacard for operative in roster.operatives)
    return [text for card in cards for text in not_applied(card, get_ruleset(ruleset), npo=is_npo(roster.faction, list(card.keywords)))]
