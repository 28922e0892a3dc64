"""A tournament's rounds: pairing the next one once the one before has ended, pairing the
current one again before any of its results, swapping two tables' players, no-shows (and taking
one back), games linked to their tables, the round timer, and a round reopened."""

from __future__ import annotations

import datetime as dt
import secrets
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import KtlogError
from ..storage import tournaments as rows
from .database import Store
from .tournament import Table, Tournament, check_seed, load, player_key
from .tournament_swiss import PairingError, Ranking, pair_round

MAX_TIMER_MINUTES = 24 * 60


@dataclass(frozen=True)
class Paired:
    """A round as paired: its tables, and the registered players it left out, with why."""

    round: int
    tables: list[Table]
    left_out: dict[str, str]
    seed: int | None


def pair(store: Store, name: str, seed: int | None = None) -> Paired:
    """Pair the next round, once every table of the round before has ended."""
    event = load(store, name)
    current = event.current_round
    check_seed(seed)
    if current >= event.rounds:
        raise KtlogError(
            f"{event.name} has played all its {event.rounds} rounds; `ktlog tournament standings {shlex.quote(event.name)}` gives the final standings"
        )
    if event.reopened_round is not None:
        raise KtlogError(_reopened(event))
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
    return _pair(store, event, current + 1, seed, [t for t in event.tables if t.round <= current])


def re_pair(store: Store, name: str, seed: int | None = None) -> Paired:
    """Pair the current round again (after a late arrival, a drop, a check-in ...), before any of
    its tables has a result, a game or a no-show. Round 1 is drawn again (`seed`, or a new one)."""
    event = load(store, name)
    current = event.current_round
    check_seed(seed)
    if not current:
        raise KtlogError(f"{event.name} has no round paired yet: `ktlog tournament pair {shlex.quote(event.name)}` pairs round 1")
    started = [t for t in event.round_tables(current) if t.b is not None and (t.game_id or t.outcome)]
    if started:
        listed = ", ".join(f"table {t.table} ({'game ' + t.game_id[:8] if t.game_id else t.outcome.ended_by if t.outcome else ''})" for t in started)
        raise KtlogError(f"{event.name} round {current} has results or games already ({listed}): it can no longer be paired again; nothing was changed")
    if current > 1 and seed is not None:
        raise KtlogError(f"--seed draws the first round only; {event.name}'s round {current} is paired by the standings")
    if current == 1 and seed is None:
        seed = secrets.randbelow(2**31)
    return _pair(store, event, current, seed, [t for t in event.tables if t.round < current], again=True)


def _pair(store: Store, event: Tournament, round_: int, seed: int | None, before: list[Table], *, again: bool = False) -> Paired:
    taking_part = event.taking_part(round_)
    ranking = Ranking(event.ranking.tie_breakers, event.ranking.seed if seed is None else seed, event.ranking.bye_points)
    try:
        made = pair_round(taking_part, before, round_, ranking)
    except PairingError as exc:
        raise PairingError(f"{exc}; nothing was paired") from None
    rows.write_round(store, event.name, round_, seed, [(t.table, t.a, t.b) for t in made], again=again)
    left_out = {e.name: _why_out(e, round_, event.check_in) for e in event.entrants if e.name not in set(taking_part)}
    return Paired(round_, made, left_out, seed)


def _why_out(entrant, round_: int, check_in: bool) -> str:
    if entrant.dropped_after is not None and entrant.dropped_after < round_:
        return f"dropped after round {entrant.dropped_after}"
    if check_in and not entrant.checked_in:
        return "not checked in"
    return f"joins round {entrant.joins_round}"


def swap(store: Store, name: str, first: str, second: str) -> tuple[Table, Table]:
    """Swap two players of the current round between their tables (a player with the bye takes
    the other's seat), before either table has a game or a result; refused if it makes a
    rematch or a second bye. Returns the two tables as they are now."""
    event = load(store, name)
    current = event.current_round
    one, two = event.entrant(first).name, event.entrant(second).name
    tables = {p: next((t for t in event.round_tables(current) if p in t.players), None) for p in (one, two)}
    for player, table in tables.items():
        if table is None:
            raise KtlogError(f"{player} has no table in {event.name} round {current}; nothing was swapped")
        if table.game_id or (table.outcome and table.b is not None):
            raise KtlogError(
                f"{player}'s table {table.table} has {'game ' + table.game_id[:8] if table.game_id else 'its result'}: swap before a table starts; nothing was swapped"
            )
    t1, t2 = tables[one], tables[two]
    assert t1 is not None and t2 is not None
    if t1.table == t2.table:
        raise KtlogError(f"{one} and {two} play each other at table {t1.table}: swap players of two tables; nothing was swapped")
    new = [_seat(t1, one, two), _seat(t2, two, one)]
    before = [t for t in event.tables if t.round < current]
    met = {frozenset(t.players) for t in before if t.b is not None}
    rested = {t.a for t in before if t.b is None}
    for t in new:
        if t.b is None and t.a in rested:
            raise KtlogError(f"{t.a} has had a bye already: nobody has two; nothing was swapped")
        if t.b is not None and frozenset(t.players) in met:
            raise KtlogError(f"{t.a} and {t.b} have met already: no pair meets twice; nothing was swapped")
    rows.swap(store, event.name, current, [(t.table, t.a, t.b) for t in new])
    return new[0], new[1]


def _seat(table: Table, leaving: str, coming: str) -> Table:
    a, b = (coming, table.b) if table.a == leaving else (table.a, coming)
    return Table(table.round, table.table, a, b)


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
    absent = event.entrant(player).name
    for table in event.open_tables(event.current_round):
        if absent in table.players and table.b is not None:
            if table.game_id is not None:
                raise KtlogError(f"{absent}'s table {table.table} has game {table.game_id[:8]} linked: they came. Record their concession in the game instead")
            rows.record_table(store, event.name, table.round, table.table, no_show=absent)
            return table
    raise KtlogError(f"{absent} has no table being played in {event.name} round {event.current_round}")


def undo_no_show(store: Store, name: str, player: str) -> Table:
    """Take back a no-show recorded against the player (the wrong one, say): their table is open
    again. Refused once a later round was paired on it, unless its round was reopened."""
    event = load(store, name)
    absent = event.entrant(player).name
    found = [t for t in event.tables if t.outcome is not None and t.outcome.ended_by == "no-show" and t.outcome.by == absent]
    if not found:
        raise KtlogError(f"{absent} has no no-show recorded in {event.name}; nothing was changed")
    table = found[-1]
    event.refuse_final(table.round, f"taking back {absent}'s no-show at table {table.table}")
    rows.undo_no_show(store, event.name, table.round, table.table, absent)
    return table


def reopen(store: Store, name: str, round_: int | None, *, close: bool = False) -> Tournament:
    """Reopen the results of the round before the current one (a game's end undone, a no-show taken
    back, another score), marking the current round as paired on results since changed until it
    is paired again (`re_pair`) or the reopening is closed (`close`)."""
    event = load(store, name)
    current = event.current_round
    if close:
        if event.reopened_round is None:
            raise KtlogError(f"{event.name} has no round reopened; nothing was changed")
        rows.set_columns(store, event.name, reopened_round=None)
        return load(store, name)
    if round_ is None or round_ != current - 1 or current < 2:
        rounds = f"round {current - 1}" if current >= 2 else "none yet: a round is final only once the next is paired"
        raise KtlogError(f"round {round_}: only the round before the current one (round {current}) is reopened; here that is {rounds}; nothing was changed")
    rows.set_columns(store, event.name, reopened_round=round_)
    return load(store, name)


def _reopened(event: Tournament) -> str:
    r = event.reopened_round or 0
    quoted = shlex.quote(event.name)
    return (
        f"{event.name} round {r} is reopened, and round {r + 1} was paired on its results before they changed: pair round {r + 1} again "
        f"(`ktlog tournament re-pair {quoted}`, before any of its results) or keep it (`ktlog tournament reopen {quoted} --close`) first"
    )


def reopened_warning(event: Tournament) -> str | None:
    """What the faces say while a round is reopened."""
    return _reopened(event) if event.reopened_round is not None else None


def start_timer(store: Store, name: str, minutes: int | None) -> Tournament:
    """Start the current round's timer for `minutes` (the projector counts it down); None stops it."""
    event = load(store, name)
    current = event.current_round
    if minutes is None:
        rows.set_columns(store, event.name, timer_round=None, timer_ends_at=None)
        return load(store, name)
    if not current:
        raise KtlogError(f"{event.name} has no round paired yet: the timer times the current round; pair round 1 first")
    if not 1 <= minutes <= MAX_TIMER_MINUTES:
        raise KtlogError(f"--minutes {minutes}: a round's timer runs 1 to {MAX_TIMER_MINUTES} minutes")
    ends = (dt.datetime.now(dt.UTC) + dt.timedelta(minutes=minutes)).isoformat(timespec="seconds")
    rows.set_columns(store, event.name, timer_round=current, timer_ends_at=ends)
    return load(store, name)
