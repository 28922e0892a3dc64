"""Players as identities, not strings: who played, across the databases a league merges.

A game's log names its players as they were recorded; this module says who they are. A player
is their pinned public key where they have one (`play.keyring`: a key pinned to the name in this
database's keyring, for the games recorded here or signed with that key), otherwise their name
within the database that recorded the game (each database has an id of its own, made once, and a
game imported from a game-log file keeps the database it came from: its header's `recorded_in`).
So two clubs' Hana are two players once their databases' games are merged, and one club's Hana
is one player in every database and dataset her games reach.

A player id is `k-` and the first 16 hex digits of the key, or `n-` and 16 hex digits of the
BLAKE2b hash of the recording database's id and the name: the same wherever it is computed.
`rename` and `merge` write a mapping beside the log (a name as a database recorded it -> a
player, and a player's name as shown), never the log itself, so the games stay as recorded and
every statistic counts the player whole.
"""

from __future__ import annotations

import difflib
import hashlib
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..envelopes import name_problem
from ..errors import KtlogError
from ..storage.catalog import DATABASE_LABEL
from ..storage.dbfile import Origin, Rows

if TYPE_CHECKING:
    from ..storage.store import Store

KEY_ID = "k-"
NAME_ID = "n-"


@dataclass(frozen=True)
class Handle:
    """A name as one database recorded it (its id and label)."""

    database: str
    label: str
    name: str


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str
    """The name as shown: the latest given by `rename`, else as recorded."""
    label: str
    """What tells the player from a namesake: their key (`key 1a2b3c4d`) or the recording database's label."""
    shown: str
    """The name as lists show it: with the label where another player has the same name."""
    public_key: str | None
    handles: tuple[Handle, ...]
    games: int

    def as_json(self) -> dict:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "shown": self.shown,
            "label": self.label,
            "public_key": self.public_key,
            "games": self.games,
            "recorded_as": [{"name": h.name, "database": h.database, "label": h.label} for h in self.handles],
        }


@dataclass(frozen=True)
class Roster:
    """Every player of a database's games, and who each name of each game is."""

    players: dict[str, Player]
    """By player id, in the order lists show them."""
    seats: list[tuple[int, str, str, str]]
    """(game_key, game_id, name as recorded, player id) for every player of every game."""
    home: Origin

    def find(self, text: str) -> Player:
        """The player a person means by `text` (`pick`)."""
        return self.players[pick(text, [(p.player_id, p.shown, {p.name, *(h.name for h in p.handles)}) for p in self.players.values()])]


def pick(text: str, people: Iterable[tuple[str, str, Collection[str]]]) -> str:
    """The id of the player a person means by `text`, among (player id, name as shown, names as
    recorded or given): an id, else a name as shown, else a name; refused, naming each, when it
    is several players' name, and with the closest names when it is no one's."""
    text = text.strip()
    people = list(people)
    for matches in ([p for p in people if p[0] == text], [p for p in people if p[1] == text], [p for p in people if text in p[2]]):
        if len(matches) == 1:
            return matches[0][0]
        if matches:
            which = "; ".join(f"{shown} ({pid})" for pid, shown, _ in sorted(matches, key=lambda p: p[1]))
            raise KtlogError(f"{text!r} is the name of {len(matches)} players: {which}; give the name as shown or the player id")
    close = difflib.get_close_matches(text, [shown for _, shown, _ in people], n=3)
    hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else "; `ktlog player list` lists them"
    raise KtlogError(f"no player called {text!r}{hint}")


def name_id(database: str, name: str) -> str:
    """The id of a player with no pinned key: their name within the database that recorded them."""
    return NAME_ID + hashlib.blake2b(f"{database}\x00{name}".encode(), digest_size=8).hexdigest()


def key_id(public_key: str) -> str:
    return KEY_ID + public_key[:16]


def roster(rows: Rows, home: Origin) -> Roster:
    """Who played every game of a database (`rows` reads it; `home`: its id and label)."""
    here = home[0]
    labels = {here: home[1]}
    origin: dict[str, str] = {}
    for game_id, database, label in rows("SELECT game_id, database_id, label FROM game_origins"):
        origin[game_id] = database
        labels.setdefault(database, label)
    primary: dict[str, str] = {}  # a name -> its first pinned key (one person may pin a second, for a new device)
    pinned_to: dict[str, str] = {}
    for public_key, name in rows("SELECT public_key, name FROM keyring WHERE revoked_at IS NULL ORDER BY pinned_at, public_key"):
        primary.setdefault(name, public_key)
        pinned_to[public_key] = name
    signed = {
        (origin.get(game_id, here), signer): primary[signer]
        for game_id, signer, public_key in rows("SELECT game_id, signer, public_key FROM signatures")
        if pinned_to.get(public_key) == signer
    }
    aliases = {(database, name): player_id for database, name, player_id in rows("SELECT database_id, name, player_id FROM player_aliases")}
    names = {player_id: name for player_id, name in rows("SELECT player_id, name FROM player_names")}
    seats = [
        (key, game_id, name, origin.get(game_id, here))
        for key, game_id, name in rows("SELECT g.game_key, g.id, j.value FROM games g, json_each(g.players) j ORDER BY g.game_key, j.key")
    ]

    def natural(handle: tuple[str, str]) -> tuple[str, str | None]:
        """A name's player id (and key) before any mapping: its key, or the name where recorded."""
        database, name = handle
        key = signed.get(handle) or (primary.get(name) if database == here else None)
        return (key_id(key), key) if key else (name_id(database, name), None)

    of_handle: dict[tuple[str, str], str] = {}
    keys: dict[str, str] = {}
    own: dict[str, tuple[str, str]] = {}  # a player id -> the name it was made from
    games: Counter[str] = Counter()
    for _, _, name, database in seats:
        handle = (database, name)
        if handle not in of_handle:
            player_id, key = natural(handle)
            if key:
                keys[player_id] = key
            own.setdefault(player_id, handle)
            of_handle[handle] = aliases.get(handle, player_id)
        games[of_handle[handle]] += 1
    handles: dict[str, list[Handle]] = {}
    for (database, name), player_id in of_handle.items():
        handles.setdefault(player_id, []).append(Handle(database, labels.get(database, database[:8]), name))
    players = []
    for player_id, recorded in handles.items():
        database, name = own.get(player_id) or (recorded[0].database, recorded[0].name)
        key = keys.get(player_id)
        label = f"key {key[:8]}" if key else labels.get(database, database[:8])
        shown_name = names.get(player_id) or (pinned_to[key] if key else name)
        players.append((player_id, shown_name, label, key, tuple(sorted(recorded, key=lambda h: (h.label, h.name)))))
    shown = shown_names([(p[0], p[1], p[2]) for p in players])
    listed = sorted(players, key=lambda p: (shown[p[0]].casefold(), p[0]))
    return Roster(
        {pid: Player(pid, name, label, shown[pid], key, recorded, games[pid]) for pid, name, label, key, recorded in listed},
        [(key, game_id, name, of_handle[(database, name)]) for key, game_id, name, database in seats],
        home,
    )


def shown_names(players: list[tuple[str, str, str]]) -> dict[str, str]:
    """Each player's name as lists show it, from (player id, name, label): the name, with the
    label where another player has the same name, and the id too where even that is shared."""
    named = Counter(name for _, name, _ in players)
    labelled = Counter((name, label) for _, name, label in players)
    return {
        pid: name if named[name] == 1 else f"{name} ({label})" if labelled[(name, label)] == 1 else f"{name} ({label}, {pid})" for pid, name, label in players
    }


def players(store: Store) -> Roster:
    """The roster of the store's database."""
    return roster(store.rows, store.players.home())


def identify(store: Store, text: str, *, new: bool = False, roster: Roster | None = None) -> Player:
    """The player a person types (`Roster.find`: an id, a name as shown or as recorded). With
    `new`, a name no game has yet is a new player of this database (registering for an event):
    the identity their games recorded here will have. For `ktlog tournament` and the like
    (`roster`: the store's, when the caller has it already)."""
    found = roster or players(store)
    try:
        return found.find(text)
    except KtlogError:
        name = text.strip()
        if not new or any(p.name == name or any(h.name == name for h in p.handles) for p in found.players.values()):
            raise
    if problem := name_problem(name, "NAME"):
        raise KtlogError(problem)
    database, label = found.home
    player_id = name_id(database, name)
    return Player(player_id, name, label, name, None, (Handle(database, label, name),), 0)


def rename(store: Store, text: str, new_name: str) -> Player:
    """Show a player under another name from now on, in every statistic and list; their games
    keep the names they were recorded with, and games recorded here under the new name are theirs."""
    found = players(store)
    player = found.find(text)
    new_name = new_name.strip()
    if problem := name_problem(new_name, "NEW_NAME"):
        raise KtlogError(f"{problem}; nothing was renamed")
    here = found.home[0]
    for other in found.players.values():
        if other.player_id != player.player_id and any(h.database == here and h.name == new_name for h in other.handles):
            raise KtlogError(
                f"{new_name!r} is another player's name in this database ({other.shown}, {other.player_id}); if they are one person, "
                f"`ktlog player merge {other.player_id} {player.player_id}`; nothing was renamed"
            )
    store.players.record(player.player_id, new_name, [(here, new_name)])
    return players(store).players[player.player_id]


def merge(store: Store, keep: str, other: str) -> Player:
    """Count two players as one person, shown under the first one's name: refused for two
    different pinned keys (two keys are two people)."""
    found = players(store)
    first, second = found.find(keep), found.find(other)
    if first.player_id == second.player_id:
        raise KtlogError(f"{keep!r} and {other!r} are one player already ({first.shown}, {first.player_id}); nothing was merged")
    if first.public_key and second.public_key and first.public_key != second.public_key:
        raise KtlogError(
            f"{first.shown} and {second.shown} have two different pinned keys ({first.public_key} and {second.public_key}): a key is one person's, "
            "so they are two people. If a key was pinned to the wrong name, `ktlog key revoke` it first; nothing was merged"
        )
    both = {g for _, g, _, pid in found.seats if pid == first.player_id} & {g for _, g, _, pid in found.seats if pid == second.player_id}
    if both:
        raise KtlogError(f"{first.shown} and {second.shown} played each other (game {min(both)[:8]}): one person never plays themselves; nothing was merged")
    into, gone = (second, first) if second.public_key and not first.public_key else (first, second)
    store.players.record(into.player_id, first.name, [(h.database, h.name) for h in gone.handles], merged=gone.player_id)
    return players(store).players[into.player_id]


def set_club(store: Store, label: str) -> Origin:
    """Name this database (the club's name): shown beside its players' names where a merged
    league has a namesake, and carried by the game-log files it exports."""
    label = label.strip()
    if problem := name_problem(label, "CLUB"):
        raise KtlogError(f"{problem}; nothing was changed")
    store.set_meta(DATABASE_LABEL, label)
    return store.players.home()
