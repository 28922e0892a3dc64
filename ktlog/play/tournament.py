"""Running a tournament: the event as stored (`load`), its standings and results, and what the
faces show of it. The day's operations are in `tournament_entry` (registration, check-in, drop,
re-entry, removal), `tournament_rounds` (pairing, re-pairing, swaps, no-shows, games linked to
tables, the round timer, a round reopened) and `tournament_results` (results reported as
scores, one by one or a round's file); the pairing and standings themselves in
`tournament_swiss`. Every input is checked before anything is written; a table's result is read
from its game in the log (a battle, a concession, or a result reported for it), so the
standings follow the games as they end.

A round is final once the next is paired: a change to one of its results (a game's end undone
or corrected, a no-show taken back, another score reported) is refused, naming the round,
unless the organiser reopens it (`reopen`), which marks the round after it as paired on results
since changed until it is re-paired or the reopening closed."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..characters import unsafe_character
from ..envelopes import NAME_LIMIT
from ..errors import GameNotFound, KtlogError
from ..rulesets import RULESETS
from ..storage import tournaments as rows
from .database import Store
from .tournament_swiss import DEFAULT_TIE_BREAKERS, DRAW, LOSS, TIE_BREAKERS, WIN, Outcome, Ranking, Standing, Table, bye, no_show, standings

UNKNOWN = "unknown"
"""The kill team or killzone of a game made for a reported score when nobody gave it (shown as nothing)."""
TOURNAMENT_NAME_LIMIT = 80
MAX_ROUNDS = 20
SEED_LIMIT = 2**63 - 1
"""The largest seed (SQLite keeps it as a 64-bit integer)."""


class TournamentNotFound(GameNotFound):
    """No tournament of that name (the web answers 404, as for an unknown game)."""


def player_key(name: str) -> str:
    """The name a typed player name stands for at an event: spaces collapsed and trimmed."""
    return " ".join(name.split())


@dataclass(frozen=True)
class Entrant:
    """A registered player: their name at the event, who they are in the league (`player_id`,
    `club`), and when they take part."""

    name: str
    player_id: str | None
    club: str | None
    checked_in: bool
    joins_round: int
    dropped_after: int | None

    def taking_part(self, round_: int, check_in: bool) -> bool:
        """Whether they are paired in `round_` (`check_in`: the event checked its players in
        before round 1; a player who joined later was there when they joined)."""
        joined = self.joins_round <= round_ and (self.checked_in or not check_in or self.joins_round > 1)
        return joined and (self.dropped_after is None or round_ <= self.dropped_after)


@dataclass(frozen=True)
class TableNote:
    """What a table's result rests on besides its outcome: the score reported for it (VP by
    player, who stands behind it) and a flag when the game recorded in full says otherwise."""

    reported: dict[str, int] | None = None
    reported_by: tuple[str, ...] = ()
    flag: str | None = None


@dataclass(frozen=True)
class Timer:
    round: int
    ends_at: str
    """UTC, ISO 8601."""


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored, its tables' outcomes read from their games."""

    name: str
    rounds: int
    ruleset: str | None
    ranking: Ranking
    seed: int | None
    entrants: list[Entrant]
    tables: list[Table]
    kill_teams: dict[tuple[int, str], str]
    """(round, player) -> the kill team they played with."""
    notes: dict[tuple[int, int], TableNote]
    """(round, table) -> what its result rests on, for the tables with a report or a flag."""
    timer: Timer | None = None
    reopened_round: int | None = None
    organiser_token_hash: str | None = None

    @property
    def tie_breakers(self) -> tuple[str, ...]:
        return self.ranking.tie_breakers

    @property
    def players(self) -> list[str]:
        return [e.name for e in self.entrants]

    @property
    def check_in(self) -> bool:
        """Whether the event checks its players in: once anyone registered for round 1 has
        checked in, only those who did are paired."""
        return any(e.checked_in and e.joins_round == 1 for e in self.entrants)

    @property
    def current_round(self) -> int:
        """The latest round paired (0 before the first)."""
        return max((t.round for t in self.tables), default=0)

    def entrant(self, typed: str) -> Entrant:
        """The registered player a typed name stands for (a name at the event or a player id)."""
        key = player_key(typed)
        found = next((e for e in self.entrants if key in (e.name, e.player_id)), None)
        if found is None:
            listed = ", ".join(self.players) or "nobody yet"
            raise KtlogError(f"{key!r} is not registered for {self.name} (registered: {listed}); `ktlog tournament add` registers a player")
        return found

    def taking_part(self, round_: int) -> list[str]:
        """The players paired in `round_`, in the order they registered."""
        return [e.name for e in self.entrants if e.taking_part(round_, self.check_in)]

    def round_tables(self, round_: int) -> list[Table]:
        return [t for t in self.tables if t.round == round_]

    def open_tables(self, round_: int) -> list[Table]:
        """The tables of a round still being played: the round closes when this is empty."""
        return [t for t in self.round_tables(round_) if t.outcome is None]

    def table(self, round_: int, number: int) -> Table:
        found = next((t for t in self.round_tables(round_) if t.table == number), None)
        if found is None:
            count = len(self.round_tables(round_))
            which = f"tables 1 to {count}" if count else "no table (it is not paired)"
            raise KtlogError(f"{self.name} round {round_} has no table {number}: it has {which}")
        return found

    def standings(self) -> list[Standing]:
        return standings(self.players, self.tables, self.ranking)

    def refuse_final(self, round_: int, change: str) -> None:
        """Refuse a change to a result of `round_` once a later round was paired on it, unless
        the organiser reopened it (the store's own guard, `storage.tournaments.check_final`,
        words it the same way for a game's events)."""
        if round_ < self.current_round and self.reopened_round != round_:
            raise KtlogError(
                f"{change}: {self.name} round {round_} is final, round {round_ + 1} was paired on its results. To change it, "
                f"`ktlog tournament reopen {shlex.quote(self.name)} {round_}` first (round {round_ + 1} is then marked as paired on results since "
                "changed); nothing was changed"
            )


def check_name(what: str, text: str, limit: int = NAME_LIMIT) -> str:
    """A name typed by a user, refused if it is empty, too long or holds a control character."""
    name = player_key(text)
    if not name:
        raise KtlogError(f"{what} is empty: give a name")
    if len(name) > limit:
        raise KtlogError(f"{what} {name[:20]!r}... is {len(name)} characters; at most {limit}")
    if bad := unsafe_character(name):
        raise KtlogError(f"{what} {name!r} holds the control character {bad}; type it without")
    return name


def check_seed(seed: int | None) -> int | None:
    if seed is not None and not 0 <= seed <= SEED_LIMIT:
        raise KtlogError(f"--seed {seed}: give a whole number from 0 to {SEED_LIMIT:,}")
    return seed


def create(
    store: Store, name: str, rounds: int, ruleset: str | None, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS, bye_points: float | None = None
) -> None:
    name = check_name("the tournament's name", name, TOURNAMENT_NAME_LIMIT)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise KtlogError(f"--rounds {rounds}: a tournament has 1 to {MAX_ROUNDS} rounds")
    if ruleset is not None and ruleset not in RULESETS:
        raise KtlogError(f"--ruleset {ruleset!r} is not a ruleset; choose from {', '.join(sorted(RULESETS))}")
    if ruleset is not None and (RULESETS[ruleset].pve or not RULESETS[ruleset].players[0] <= 2 <= RULESETS[ruleset].players[1]):
        raise KtlogError(f"--ruleset {ruleset}: a Swiss round pairs two players a game, against each other; {ruleset} is not played that way")
    unknown = [t for t in tie_breakers if t not in TIE_BREAKERS]
    if unknown or len(set(tie_breakers)) != len(tie_breakers):
        raise KtlogError(f"--tie-breakers {','.join(tie_breakers)}: give each at most once, from {', '.join(TIE_BREAKERS)}, in the order they count")
    if bye_points is not None and not 0 <= bye_points <= rounds:
        raise KtlogError(f"--bye-counts {bye_points:g}: a bye counts as an opponent with 0 to {rounds} points, or as `average`")
    rows.create(store, name, rounds, ruleset, ",".join(tie_breakers), bye_points)


def listing(store: Store) -> list[dict[str, Any]]:
    """Every tournament: its name, rounds, ruleset, players, the round it is at and whether it is finished."""
    out = []
    for r in rows.listing(store):
        event = load(store, r["name"])
        current = event.current_round
        out.append(
            {
                "name": event.name,
                "rounds": event.rounds,
                "ruleset": event.ruleset,
                "players": len(event.entrants),
                "round": current,
                "finished": current == event.rounds and not event.open_tables(current),
                "created_at": r["created_at"],
            }
        )
    return out


def load(store: Store, name: str) -> Tournament:
    """The tournament named `name`, or an error that lists those there are."""
    row = rows.tournament(store, player_key(name))
    if row is None:
        there = rows.names(store)
        listed = f"the tournaments are: {', '.join(there)}" if there else "there is none yet: `ktlog tournament new NAME` creates one"
        raise TournamentNotFound(f"no tournament named {name!r}; {listed}")
    tables, kill_teams, notes = [], {}, {}
    for r in rows.tables(store, row["name"]):
        table = Table(r["round"], r["table_no"], r["player_a"], r["player_b"], game_id=r["game_id"])
        outcome, note = _outcome(table, r)
        tables.append(replace(table, outcome=outcome))
        if note is not None:
            notes[(table.round, table.table)] = note
        for player, team in r["kill_teams"].items():
            if team != UNKNOWN:
                kill_teams[(r["round"], player_key(player))] = team
    entrants = [
        Entrant(p["player"], p["player_id"], p["club"], p["checked_in_at"] is not None, p["joins_round"] or 1, p["dropped_after"])
        for p in rows.players(store, row["name"])
    ]
    breakers = tuple(b for b in (row["tie_breakers"] or "").split(",") if b)
    ranking = Ranking(breakers, row["seed"] or 0, row["bye_points"])
    timer = Timer(row["timer_round"], row["timer_ends_at"]) if row["timer_ends_at"] else None
    return Tournament(
        row["name"],
        row["rounds"],
        row["ruleset"],
        ranking,
        row["seed"],
        entrants,
        tables,
        kill_teams,
        notes,
        timer,
        row["reopened_round"],
        row["organiser_token_hash"],
    )


def _outcome(table: Table, row: dict[str, Any]) -> tuple[Outcome | None, TableNote | None]:
    """A table's outcome (a bye, a no-show, its game's result once it has ended, or the score
    reported for it while the game is recorded in full) and what it rests on."""
    if table.b is None:
        return bye(table.round, table.table, table.a).outcome, None
    if row["no_show"]:
        return no_show(table, row["no_show"]), None
    reported = row["reported"]
    note = None
    if reported:
        vp = {player_key(p): v for p, v in reported["vp"].items()}
        note = TableNote(vp, tuple(reported["by"]))
    if row["status"] == "finished":
        return _finished(table, row, note)
    if note is not None and note.reported is not None:  # reported while the game is being recorded: the report counts until the game ends
        best = max(note.reported.values())
        leaders = [p for p in table.players if note.reported.get(p) == best]
        points = {p: DRAW if len(leaders) > 1 else WIN if p in leaders else LOSS for p in table.players}
        flag = "reported while its game is recorded in full: the game's result will stand once it ends"
        return Outcome(points, {p: note.reported.get(p, 0) for p in table.players}, "report"), replace(note, flag=flag)
    return None, note


def _finished(table: Table, row: dict[str, Any], note: TableNote | None) -> tuple[Outcome, TableNote | None]:
    """A table whose game has ended: the game's result, and a flag when a score reported for it
    differs from the game recorded in full."""
    vp = {player_key(p): v for p, v in row["vp"].items()}
    winner = player_key(row["winner"]) if row["winner"] else None
    points = {p: DRAW if winner is None else WIN if p == winner else LOSS for p in table.players}
    conceded = player_key(row["conceded_by"]) if row["conceded_by"] else None
    ended_by = row["ended_by"] or "battle"
    if note is not None and note.reported is not None and ended_by != "report" and note.reported != {p: vp.get(p, 0) for p in table.players}:
        shown = "-".join(str(note.reported.get(p, 0)) for p in table.players)
        recorded = "-".join(str(vp.get(p, 0)) for p in table.players)
        note = replace(note, flag=f"reported {shown}, but the game recorded in full ended {recorded} ({ended_by}): the game's result stands")
    return Outcome(points, {p: vp.get(p, 0) for p in table.players}, ended_by, conceded), note


def issue_organiser_token(store: Store, name: str) -> str:
    """A new token for the tournament's organiser page (its earlier token stops working)."""
    event = load(store, name)
    token = secrets.token_urlsafe(32)
    rows.set_columns(store, event.name, organiser_token_hash=_token_hash(token))
    return token


def organiser_token_matches(event: Tournament, token: str | None) -> bool:
    """Whether `token` is the tournament's live organiser token (compared in constant time)."""
    return bool(token and event.organiser_token_hash) and hmac.compare_digest(_token_hash(token or ""), event.organiser_token_hash or "")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def revoke_organiser_token(store: Store, name: str) -> None:
    rows.set_columns(store, load(store, name).name, organiser_token_hash=None)


RESULT_COLUMNS = (
    "round",
    "table",
    "player_a",
    "kill_team_a",
    "vp_a",
    "player_b",
    "kill_team_b",
    "vp_b",
    "result",
    "winner",
    "ended_by",
    "by",
    "game_id",
    "reported",
    "reported_by",
    "flag",
)
"""The columns, in order (docs/running-a-league.md says what each holds)."""


def results(event: Tournament) -> list[dict[str, Any]]:
    """One row per table, in round and table order (RESULT_COLUMNS)."""
    out = []
    for t in event.tables:
        o = t.outcome
        note = event.notes.get((t.round, t.table), TableNote())
        winner = next((p for p, pts in o.points.items() if pts == WIN), None) if o and t.b is not None else None
        result = "open" if o is None else "bye" if t.b is None else "win" if winner else "draw"
        out.append(
            {
                "round": t.round,
                "table": t.table,
                "player_a": t.a,
                "kill_team_a": event.kill_teams.get((t.round, t.a)),
                "vp_a": o.vp.get(t.a) if o else None,
                "player_b": t.b,
                "kill_team_b": event.kill_teams.get((t.round, t.b)) if t.b else None,
                "vp_b": o.vp.get(t.b) if o and t.b else None,
                "result": result,
                "winner": winner,
                "ended_by": o.ended_by if o else None,
                "by": o.by if o else None,
                "game_id": t.game_id,
                "reported": "-".join(str(note.reported.get(p, 0)) for p in t.players) if note.reported is not None else None,
                "reported_by": ", ".join(note.reported_by) or None,
                "flag": note.flag,
            }
        )
    return out


STANDING_COLUMNS = (
    "rank",
    "player",
    "player_id",
    "club",
    "points",
    "opp_avg",
    "sos",
    "vp_for",
    "vp_against",
    "vp_diff",
    "wins",
    "draws",
    "losses",
    "byes",
    "played",
    "status",
    "kill_teams",
)
"""The columns, in order (docs/running-a-league.md says what each holds)."""


def standing_rows(event: Tournament) -> list[dict[str, Any]]:
    """The standings, a row per player (STANDING_COLUMNS)."""
    entrants = {e.name: e for e in event.entrants}
    out = []
    for s in event.standings():
        teams = dict.fromkeys(event.kill_teams[(r, s.player)] for r in range(1, event.current_round + 1) if (r, s.player) in event.kill_teams)
        entrant = entrants.get(s.player)
        out.append(
            {
                "rank": s.rank,
                "player": s.player,
                "player_id": entrant.player_id if entrant else None,
                "club": entrant.club if entrant else None,
                "points": s.points,
                "opp_avg": s.opp_avg,
                "sos": s.sos,
                "vp_for": s.vp_for,
                "vp_against": s.vp_against,
                "vp_diff": s.vp_diff,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
                "played": s.played,
                "status": _status(event, entrant),
                "kill_teams": ", ".join(teams) or None,
            }
        )
    return out


def _status(event: Tournament, entrant: Entrant | None) -> str:
    """`playing`, `dropped` (after round N), `not checked in`, `joins round N`, or `removed`."""
    if entrant is None:
        return "removed"
    if entrant.dropped_after is not None:
        return f"dropped after round {entrant.dropped_after}"
    if event.check_in and not entrant.checked_in:
        return "not checked in"
    if entrant.joins_round > max(event.current_round, 1):
        return f"joins round {entrant.joins_round}"
    return "playing"


def timer_view(event: Tournament) -> dict[str, Any] | None:
    """The current round's timer: when it ends and the seconds left now (None: no timer runs for it)."""
    if event.timer is None or event.timer.round != event.current_round:
        return None
    ends = dt.datetime.fromisoformat(event.timer.ends_at)
    left = (ends - dt.datetime.now(dt.UTC)).total_seconds()
    return {"round": event.timer.round, "ends_at": event.timer.ends_at, "seconds_left": max(0, round(left))}


def view(event: Tournament) -> dict[str, Any]:
    """The tournament as JSON: what the web pages show and `tournament show --json` gives."""
    current = event.current_round
    return {
        "name": event.name,
        "rounds": event.rounds,
        "ruleset": event.ruleset,
        "tie_breakers": list(event.tie_breakers),
        "bye_counts": "average" if event.ranking.bye_points is None else event.ranking.bye_points,
        "seed": event.seed,
        "players": event.players,
        "entrants": [
            {"player": e.name, "player_id": e.player_id, "club": e.club, "checked_in": e.checked_in, "status": _status(event, e)} for e in event.entrants
        ],
        "check_in": event.check_in,
        "round": current,
        "round_closed": bool(current) and not event.open_tables(current),
        "finished": current == event.rounds and not event.open_tables(current),
        "reopened_round": event.reopened_round,
        "timer": timer_view(event),
        "standings": standing_rows(event),
        "results": results(event),
    }
