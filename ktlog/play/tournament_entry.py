"""Who plays at a tournament: registration (before round 1, or late, for the next round to be
paired), check-in, a drop and a re-entry, and a registration taken back.

A registered player is a league identity (`play.players`): a name typed is the player of that
name (or, with `new`, a new player of this database), a namesake is refused until given as
shown with their club or by player id, and the same player typed twice is refused. Their name at
the event is the name their games there are recorded under: their own, or with their club where
another player has it here; a name that is not yet theirs in this database is counted as theirs
(`player_aliases`), so the league counts their games at the event for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..envelopes import now
from ..errors import KtlogError
from ..storage import tournaments as rows
from .database import Store
from .players import identify, name_id, players
from .tournament import Entrant, Table, check_name, load


@dataclass(frozen=True)
class Registered:
    entrant: Entrant
    typed: str


def _each_once(typed: Sequence[str]) -> list[str]:
    """The names typed, each a name (`check_name`) and each once."""
    if not typed:
        raise KtlogError("give the players' names: ktlog tournament add NAME PLAYER...")
    names = [check_name("a player's name", t) for t in typed]
    places: dict[str, list[int]] = {}
    for place, n in enumerate(names, 1):
        places.setdefault(n, []).append(place)
    twice = [f"{n!r} (entries {', '.join(map(str, at))})" for n, at in places.items() if len(at) > 1]
    if twice:
        raise KtlogError(
            f"{'; '.join(twice)} typed more than once: a player registers once. If they are two players of one name, give each as "
            "shown with their club, or by player id (`ktlog player list`); nobody was added"
        )
    return names


def add(store: Store, name: str, typed: Sequence[str]) -> list[Registered]:
    """Register players, all of them or none: before round 1, or late (they join the next round
    to be paired, checked in). Returns them with their names at the event."""
    event = load(store, name)
    current = event.current_round
    if current >= event.rounds:
        raise KtlogError(f"{event.name} has paired all its {event.rounds} rounds: nobody can join it now; nobody was added")
    names = _each_once(typed)
    roster = players(store)
    here, club = roster.home
    owners = {(h.database, h.name): p.player_id for p in roster.players.values() for h in p.handles}
    taken = {e.name: e for e in event.entrants}
    by_id = {e.player_id: e for e in event.entrants if e.player_id}
    late = current > 0
    entrants: list[Registered] = []
    aliases: list[tuple[str, str, str]] = []
    new_ids: dict[str, str] = {}
    for text in names:
        player = identify(store, text, new=True, roster=roster)
        if player.player_id in by_id or player.player_id in new_ids:
            other = by_id[player.player_id].name if player.player_id in by_id else new_ids[player.player_id]
            raise KtlogError(f"{text!r} is {player.shown} ({player.player_id}), registered already as {other!r}; nobody was added")
        at_event = player.name
        if owners.get((here, at_event), player.player_id) != player.player_id or at_event in taken:
            at_event = f"{player.name} ({player.label})"
        if owners.get((here, at_event), player.player_id) != player.player_id or at_event in taken:
            raise KtlogError(f"{text!r}: {at_event!r} is another player's name at {event.name} or in this database; give them by player id; nobody was added")
        if (here, at_event) not in owners and name_id(here, at_event) != player.player_id:
            aliases.append((here, at_event, player.player_id))
        entrant = Entrant(at_event, player.player_id, player.label or club, late, current + 1, None)
        taken[at_event] = entrant
        new_ids[player.player_id] = at_event
        entrants.append(Registered(entrant, text))
    stamp = now() if late else None
    rows.register(
        store,
        event.name,
        [
            {"player": r.entrant.name, "player_id": r.entrant.player_id, "club": r.entrant.club, "checked_in_at": stamp, "joins_round": r.entrant.joins_round}
            for r in entrants
        ],
        aliases,
        current,
    )
    return entrants


def check_in(store: Store, name: str, typed: Sequence[str], *, undo: bool = False) -> list[Entrant]:
    """Check players in (once anyone has, only those checked in are paired); a player checking in
    after round 1 was paired joins the next round. `undo`: before round 1 only."""
    event = load(store, name)
    current = event.current_round
    if undo and current:
        raise KtlogError(f"{event.name} round 1 is paired: a check-in is kept from then on; `ktlog tournament drop` a player who left; nothing was changed")
    found = [event.entrant(t) for t in typed]
    if not found:
        raise KtlogError("give the players to check in: ktlog tournament check-in NAME PLAYER...")
    changed = []
    with store.writing():
        for entrant in found:
            if entrant.checked_in != undo:
                continue
            joins = entrant.joins_round if entrant.joins_round > current else current + 1
            rows.update_player(store, event.name, entrant.name, current, checked_in_at=None if undo else now(), joins_round=joins)
            changed.append(Entrant(entrant.name, entrant.player_id, entrant.club, not undo, joins, entrant.dropped_after))
    return changed


def drop(store: Store, name: str, typed: str) -> tuple[Entrant, Table | None]:
    """The player leaves the event after the current round: not paired from the next one. Returns
    them, and their table of the current round if it is still open (it ends as any other)."""
    event = load(store, name)
    entrant = event.entrant(typed)
    current = event.current_round
    if entrant.dropped_after is not None:
        raise KtlogError(f"{entrant.name} dropped after round {entrant.dropped_after} already; `ktlog tournament rejoin` brings them back")
    if not current:
        raise KtlogError(
            f"{event.name} has no round paired yet: take {entrant.name}'s registration back with `ktlog tournament remove` instead; nothing was changed"
        )
    rows.update_player(store, event.name, entrant.name, current, dropped_after=current)
    table = next((t for t in event.open_tables(current) if entrant.name in t.players), None)
    return Entrant(entrant.name, entrant.player_id, entrant.club, entrant.checked_in, entrant.joins_round, current), table


def rejoin(store: Store, name: str, typed: str) -> Entrant:
    """A dropped player comes back: paired again from the next round to be paired."""
    event = load(store, name)
    entrant = event.entrant(typed)
    current = event.current_round
    if entrant.dropped_after is None:
        raise KtlogError(f"{entrant.name} has not dropped; nothing was changed")
    if current >= event.rounds:
        raise KtlogError(f"{event.name} has paired all its {event.rounds} rounds: {entrant.name} has no round left to rejoin; nothing was changed")
    joins = max(entrant.joins_round, current + 1)
    rows.update_player(store, event.name, entrant.name, current, dropped_after=None, joins_round=joins, checked_in_at=now())
    return Entrant(entrant.name, entrant.player_id, entrant.club, True, joins, None)


def remove(store: Store, name: str, typed: str) -> Entrant:
    """Take a registration back: only for a player never paired (a typo, a player who never came)."""
    event = load(store, name)
    entrant = event.entrant(typed)
    played = [t for t in event.tables if entrant.name in t.players]
    if played:
        raise KtlogError(
            f"{entrant.name} was paired in round {played[0].round} (table {played[0].table}): their results stay in the event; "
            f"`ktlog tournament drop` them instead; nothing was changed"
        )
    rows.remove_player(store, event.name, entrant.name)
    return entrant
