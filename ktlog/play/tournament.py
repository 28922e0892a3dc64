"""Running a tournament: registering players, pairing Swiss rounds (`tournament_swiss`),
linking each game to its round and table, no-shows, and the standings and results the faces
show. Every input is checked here before anything is written; a table's result is read from
its game in the log (a game ended by a concession says so), so the standings follow the games
as they end."""

from __future__ import annotations

import secrets
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..characters import unsafe_character
from ..envelopes import NAME_LIMIT
from ..errors import GameNotFound, KtlogError
from ..rulesets import RULESETS
from ..storage import tournaments as rows
from .database import Store
from .tournament_swiss import DEFAULT_TIE_BREAKERS, DRAW, LOSS, TIE_BREAKERS, WIN, Outcome, Standing, Table, bye, no_show, pair_round, standings

TOURNAMENT_NAME_LIMIT = 80
MAX_ROUNDS = 20


class TournamentNotFound(GameNotFound):
    """No tournament of that name (the web answers 404, as for an unknown game)."""


def player_key(name: str) -> str:
    """The key a typed player name stands for in a tournament (the one place: a player identity
    replaces the name here)."""
    return " ".join(name.split())


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored, its tables' outcomes read from their games."""

    name: str
    rounds: int
    ruleset: str | None
    tie_breakers: tuple[str, ...]
    seed: int | None
    players: list[str]
    tables: list[Table]
    kill_teams: dict[tuple[int, str], str]
    """(round, player) -> the kill team they played with."""

    @property
    def current_round(self) -> int:
        """The latest round paired (0 before the first)."""
        return max((t.round for t in self.tables), default=0)

    def round_tables(self, round_: int) -> list[Table]:
        return [t for t in self.tables if t.round == round_]

    def open_tables(self, round_: int) -> list[Table]:
        """The tables of a round still being played: the round closes when this is empty."""
        return [t for t in self.round_tables(round_) if t.outcome is None]

    def standings(self) -> list[Standing]:
        return standings(self.players, self.tables, self.tie_breakers)


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


def create(store: Store, name: str, rounds: int, ruleset: str | None, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> None:
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
    rows.create(store, name, rounds, ruleset, ",".join(tie_breakers))


def load(store: Store, name: str) -> Tournament:
    """The tournament named `name`, or an error that lists those there are."""
    row = rows.tournament(store, player_key(name))
    if row is None:
        there = rows.names(store)
        listed = f"the tournaments are: {', '.join(there)}" if there else "there is none yet: `ktlog tournament new NAME` creates one"
        raise TournamentNotFound(f"no tournament named {name!r}; {listed}")
    tables, kill_teams = [], {}
    for r in rows.tables(store, row["name"]):
        table = Table(r["round"], r["table_no"], r["player_a"], r["player_b"], game_id=r["game_id"])
        tables.append(replace(table, outcome=_outcome(table, r)))
        for player, team in r["kill_teams"].items():
            kill_teams[(r["round"], player_key(player))] = team
    breakers = tuple(b for b in (row["tie_breakers"] or "").split(",") if b)
    return Tournament(row["name"], row["rounds"], row["ruleset"], breakers, row["seed"], rows.players(store, row["name"]), tables, kill_teams)


def _outcome(table: Table, row: dict[str, Any]) -> Outcome | None:
    """A table's outcome: a bye, a no-show, or its game's result once the game is finished."""
    if table.b is None:
        return bye(table.round, table.table, table.a).outcome
    if row["no_show"]:
        return no_show(table, row["no_show"])
    if row["status"] != "finished":
        return None
    vp = {player_key(p): v for p, v in row["vp"].items()}
    winner = player_key(row["winner"]) if row["winner"] else None
    points = {p: DRAW if winner is None else WIN if p == winner else LOSS for p in table.players}
    conceded = player_key(row["conceded_by"]) if row["conceded_by"] else None
    return Outcome(points, {p: vp.get(p, 0) for p in table.players}, row["ended_by"] or "battle", conceded)


def add(store: Store, name: str, players: Sequence[str]) -> list[str]:
    """Register players; returns those new to the event."""
    event = load(store, name)
    typed = [check_name("a player's name", p) for p in players]
    if not typed:
        raise KtlogError("give the players' names: ktlog tournament add NAME PLAYER...")
    new = [p for p in dict.fromkeys(typed) if p not in event.players]
    rows.add_players(store, event.name, new)
    return new


def pair(store: Store, name: str, seed: int | None = None) -> list[Table]:
    """Pair the next round, once every table of the round before has ended."""
    event = load(store, name)
    current = event.current_round
    if current >= event.rounds:
        raise KtlogError(
            f"{event.name} has played all its {event.rounds} rounds; `ktlog tournament standings {shlex.quote(event.name)}` gives the final standings"
        )
    if still := event.open_tables(current):
        listed = ", ".join(f"table {t.table} ({' v '.join(t.players)})" for t in still)
        raise KtlogError(
            f"{event.name} round {current} is still being played: {listed}. A round closes when its games end "
            f"(or `ktlog tournament no-show {shlex.quote(event.name)} PLAYER` for a player who did not come)"
        )
    if current == 0:
        seed = secrets.randbelow(2**31) if seed is None else seed
    elif seed is not None:
        raise KtlogError(f"--seed draws the first round only; {event.name}'s later rounds are paired by the standings")
    made = pair_round(event.players, event.tables, current + 1, seed or 0, event.tie_breakers)
    rows.write_round(store, event.name, current + 1, seed if current == 0 else None, [(t.table, t.a, t.b) for t in made])
    return made


def table_of(event: Tournament, players: Sequence[str]) -> Table:
    """The open table of the latest round where these players meet."""
    keys = {player_key(p) for p in players}
    for table in event.open_tables(event.current_round):
        if set(table.players) == keys and table.game_id is None:
            return table
    names = " and ".join(sorted(keys))
    if not event.tables:
        raise KtlogError(f"{event.name} has no round paired yet: `ktlog tournament pair {shlex.quote(event.name)}` pairs round 1")
    pairs = "; ".join(f"table {t.table}: {' v '.join(t.players)}" for t in event.open_tables(event.current_round) if t.game_id is None and t.b)
    raise KtlogError(
        f"{event.name} round {event.current_round} has no table waiting for {names}; " + (f"waiting: {pairs}" if pairs else "every table has its game")
    )


def for_new_game(store: Store, name: str, players: Sequence[str], ruleset: str, labels: dict[str, str | None]) -> tuple[dict[str, str], Callable[[str], None]]:
    """Before `ktlog new --tournament NAME` creates its game: the labels the game gets (the
    round, the table, the tournament as its league) and the link its transaction writes."""
    event = load(store, name)
    if event.ruleset and ruleset != event.ruleset:
        raise KtlogError(f"{event.name} is played under {event.ruleset}, not {ruleset}: give --ruleset {event.ruleset}")
    table = table_of(event, players)
    wanted = {"league": labels.get("league") or event.name, "round": str(table.round), "table": str(table.table)}
    for label in ("round", "table"):
        if labels.get(label) not in (None, wanted[label]):
            raise KtlogError(
                f"--{label} {labels[label]}: the tournament pairs these players in round {table.round} at table {table.table}; leave --{label} out"
            )
    return wanted, lambda game_id: rows.link_game(store, event.name, table.round, table.table, game_id)


def link(store: Store, name: str, game_prefix: str) -> Table:
    """Link a stored game to the open table of its players."""
    event = load(store, name)
    game_id = store.resolve(game_prefix)
    game = store.game(game_id)
    if linked := rows.linked_to(store, game_id):
        raise KtlogError(f"game {game_id[:8]} is linked to {linked} already; nothing was changed")
    if event.ruleset and game.ruleset != event.ruleset:
        raise KtlogError(f"game {game_id[:8]} is a {game.ruleset} game; {event.name} is played under {event.ruleset}")
    table = table_of(event, game.players)
    rows.record_table(store, event.name, table.round, table.table, game_id=game_id)
    return table


def record_no_show(store: Store, name: str, player: str) -> Table:
    """The player did not come to their table of the current round: they lose, their opponent wins."""
    event = load(store, name)
    absent = player_key(player)
    for table in event.open_tables(event.current_round):
        if absent in table.players and table.b is not None:
            if table.game_id is not None:
                raise KtlogError(f"{absent}'s table {table.table} has game {table.game_id[:8]} linked: they came. Record their concession in the game instead")
            rows.record_table(store, event.name, table.round, table.table, no_show=absent)
            return table
    raise KtlogError(f"{absent} has no table being played in {event.name} round {event.current_round}")


RESULT_COLUMNS = ("round", "table", "player_a", "kill_team_a", "vp_a", "player_b", "kill_team_b", "vp_b", "result", "winner", "ended_by", "by", "game_id")
"""The columns, in order (docs/running-a-league.md says what each holds)."""


def results(event: Tournament) -> list[dict[str, Any]]:
    """One row per table, in round and table order (RESULT_COLUMNS)."""
    out = []
    for t in event.tables:
        o = t.outcome
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
            }
        )
    return out


STANDING_COLUMNS = ("rank", "player", "points", "sos", "vp_for", "vp_against", "vp_diff", "wins", "draws", "losses", "byes", "played", "kill_teams")
"""The columns, in order (docs/running-a-league.md says what each holds)."""


def standing_rows(event: Tournament) -> list[dict[str, Any]]:
    """The standings, a row per player (STANDING_COLUMNS)."""
    out = []
    for s in event.standings():
        teams = dict.fromkeys(event.kill_teams[(r, s.player)] for r in range(1, event.current_round + 1) if (r, s.player) in event.kill_teams)
        out.append(
            {
                "rank": s.rank,
                "player": s.player,
                "points": s.points,
                "sos": s.sos,
                "vp_for": s.vp_for,
                "vp_against": s.vp_against,
                "vp_diff": s.vp_diff,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "byes": s.byes,
                "played": s.played,
                "kill_teams": ", ".join(teams) or None,
            }
        )
    return out


def view(event: Tournament) -> dict[str, Any]:
    """The tournament as JSON: what the web page shows and `--json` gives."""
    current = event.current_round
    return {
        "name": event.name,
        "rounds": event.rounds,
        "ruleset": event.ruleset,
        "tie_breakers": list(event.tie_breakers),
        "seed": event.seed,
        "players": event.players,
        "round": current,
        "round_closed": bool(current) and not event.open_tables(current),
        "finished": current == event.rounds and not event.open_tables(current),
        "standings": standing_rows(event),
        "results": results(event),
    }
