"""One match, one result: the recordings of one match made in two databases (each club recording it
in its own) recognised, so the league counts the match once.

Two games are **recordings of one match** when they were recorded in two databases (the database
that recorded a game: its `game_origins` row, else the database holding it; a dataset's
`games.recorded_in`) on the same date, and either

- they are at the same tournament table: the same league, season, round and table labels, the
  round and table given; or
- they have the same players (names as recorded, spaces and case aside) and no label tells them
  apart (a league, season, round or table label that both give, with two values).

Recordings linked through another are one match. One database never holds two recordings of one
match: its games are the games its tables played (a pair meeting twice in an evening).

The match counts once, as its **counted recording**: a finished one before one in progress, one
with no open dispute before a disputed one (so an organiser makes the other count by disputing the
wrong one, `ktlog dispute`), then the first recorded (its start, then its id). Nothing is deleted:
every recording stays in its database's log, and the statistics leave the others out. Where the
finished recordings give different results (each player's result and VP, by name; by the results
alone when their names differ), the match is flagged for the organiser wherever it is counted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..storage.store import Store

LABELS = ("league", "season", "round", "table_label")
RECORDED_IN = "coalesce((SELECT o.database_id FROM game_origins o WHERE o.game_id = games.id), (SELECT m.value FROM meta m WHERE m.key = 'database_id'))"
"""SQL over the games table: the id of the database that recorded each game (`play.players`)."""


def same_name(name: str) -> str:
    """A player's name as two scorers may both have typed it: spaces collapsed, case folded."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Recording:
    """A game as the recognition of matches reads it."""

    game_id: str
    recorded_in: str | None
    date: str | None
    labels: tuple[str | None, ...]
    """Its `LABELS`, in order."""
    players: tuple[str, ...]
    finished: bool
    disputed: bool
    created_at: str
    result: tuple[tuple[str, str, int], ...] = ()
    """Each player's (name, result, VP) once finished, in the game's order of players."""

    @property
    def table(self) -> tuple[str | None, ...] | None:
        league, season, round_, table = self.labels
        return (league, season, round_, table) if round_ and table else None

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(sorted(same_name(p) for p in self.players))

    def told_apart(self, other: Recording) -> bool:
        return any(a and b and a != b for a, b in zip(self.labels, other.labels))

    def order(self) -> tuple[bool, bool, str, str]:
        """The counted recording first: finished, undisputed, then the first recorded."""
        return (not self.finished, self.disputed, self.created_at, self.game_id)

    def outcome(self, by_name: bool) -> tuple:
        return tuple(sorted((same_name(n), r, vp) if by_name else (r, vp) for n, r, vp in self.result))


def why_one_match(a: Recording, b: Recording) -> str | None:
    """Why `a` and `b` are recordings of one match ("same tournament table", "same players and
    date"), or None if they are not."""
    if a.recorded_in == b.recorded_in or not a.date or a.date != b.date:
        return None
    if a.table is not None and a.table == b.table:
        return "same tournament table"
    if a.people == b.people and not a.told_apart(b):
        return "same players and date"
    return None


@dataclass(frozen=True)
class Match:
    """A match recorded more than once: the recording counted and the others, and why they are one."""

    counted: Recording
    others: tuple[Recording, ...]
    why: str

    @property
    def agreed(self) -> bool:
        """Whether every finished recording gives the same result."""
        finished = [r for r in (self.counted, *self.others) if r.finished]
        by_name = len({r.people for r in finished}) == 1
        return len({r.outcome(by_name) for r in finished}) <= 1

    def describe(self) -> str:
        """The match in words, for a note or an import's report."""
        others = ", ".join(r.game_id[:8] for r in self.others)
        text = f"game {others} {'is another recording' if len(self.others) == 1 else 'are other recordings'} of game {self.counted.game_id[:8]}'s match ({self.why}, recorded in another database): counted once, as {self.counted.game_id[:8]}"
        if self.agreed:
            return text
        results = "; ".join(f"{r.game_id[:8]}: {', '.join(f'{n} {res} {vp}VP' for n, res, vp in r.result)}" for r in (self.counted, *self.others) if r.finished)
        return (
            f"{text}, but the recordings disagree ({results}): settle it with the clubs, then dispute the wrong recording's event "
            "(`ktlog dispute GAME SEQ --reason ...`: a disputed recording gives way to one that is not)"
        )


def matches(recordings: Iterable[Recording]) -> list[Match]:
    """The matches recorded more than once among `recordings`, each with its counted recording, in
    the order of their counted recordings' ids. Only recordings sharing a date are compared."""
    by_date: dict[str, list[Recording]] = {}
    for r in recordings:
        if r.date:
            by_date.setdefault(r.date, []).append(r)
    return sorted((m for day in by_date.values() for m in _of_one_day(day)), key=lambda m: m.counted.game_id)


def _of_one_day(day: list[Recording]) -> list[Match]:
    """The matches among one day's recordings: each pair compared, pairs linked through another joined."""
    parent = list(range(len(day)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    alike: dict[tuple, list[int]] = {}  # only recordings at one table or of the same players can be one match
    for i, r in enumerate(day):
        alike.setdefault(("people", r.people), []).append(i)
        if r.table is not None:
            alike.setdefault(("table", r.table), []).append(i)
    why: dict[int, str] = {}
    for same in alike.values():
        for n, i in enumerate(same):
            for j in same[n + 1 :]:
                if (reason := why_one_match(day[i], day[j])) and (ri := root(i)) != (rj := root(j)):
                    parent[rj] = ri
                    absorbed = why.pop(rj, None)
                    why[ri] = why.get(ri) or absorbed or reason
    groups: dict[int, list[Recording]] = {}
    for i, r in enumerate(day):
        groups.setdefault(root(i), []).append(r)
    found = []
    for i, group in groups.items():
        if len(group) > 1:
            counted, *others = sorted(group, key=Recording.order)
            found.append(Match(counted, tuple(others), why[i]))
    return found


def recordings_of_the_day(store: Store, game_id: str) -> list[Recording]:
    """The recordings in the store of the day `game_id` was played (simulated games aside), with
    their results."""
    columns = ", ".join(f"games.{c}" for c in ("id", "date", *LABELS, "players", "status", "disputes", "created_at"))
    rows = store.conn.execute(
        f"SELECT {columns}, {RECORDED_IN} FROM games WHERE date = (SELECT date FROM games WHERE id = ?) AND coalesce(simulated, 0) = 0",
        (game_id,),
    ).fetchall()
    results: dict[str, list[tuple[str, str, int]]] = {}
    ids = json.dumps([r[0] for r in rows])
    for gid, player, result, vp in store.conn.execute(
        "SELECT game_id, player, result, vp_total FROM game_results WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY rowid", (ids,)
    ):
        results.setdefault(gid, []).append((player, result, vp))
    return [
        Recording(
            gid,
            recorded_in,
            date,
            (league, season, round_, table),
            tuple(json.loads(players or "[]")),
            status == "finished",
            bool(disputes),
            created_at,
            tuple(results.get(gid, ())),
        )
        for gid, date, league, season, round_, table, players, status, disputes, created_at, recorded_in in rows
    ]


def match_of(store: Store, game_id: str) -> Match | None:
    """The match `game_id` is a recording of, when another database recorded it too."""
    return next((m for m in matches(recordings_of_the_day(store, game_id)) if game_id in {r.game_id for r in (m.counted, *m.others)}), None)
