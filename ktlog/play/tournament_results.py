"""Results reported as scores (`ResultReported`): one table's (`ktlog tournament result NAME TABLE
12-9`, the organiser's page), or a round's from a results file, all of its lines or none.

A report goes into the table's game: the game linked to the table, or, for a table with none, a
game made for it (its creation, the two players and the report, linked in the same transaction:
the players' kill teams and the killzone as given, else UNKNOWN). A game that was not played
out event by event ends with the report; beside a game recorded in full the report is kept and
the game's own result stands (`play.tournament` flags a difference).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import KtlogError
from ..events import GameCreated, PlayerJoined, ResultReported
from ..files.gamefile import DEFAULT_RULESET
from ..files.inputs import read_limited
from ..storage import tournaments as rows
from .database import Store
from .tournament import UNKNOWN, Table, Tournament, load, player_key

RESULTS_FILE_LIMIT = 2**20
"""Bytes at most in a results file (a line a table: thousands of tables)."""
RESULTS_COLUMNS = ("round", "table", "player_a", "player_b", "vp_a", "vp_b")
"""A results file's columns (a header row names them; `confirmed` may follow: yes when both players
signed; `ops_a` and `ops_b` may follow: each player's VP by op, e.g. crit=4 tac=3 kill=5)."""
VP_LIMIT = 999
SCORE = re.compile(r"\s*(\d{1,3})\s*[-:]\s*(\d{1,3})\s*")
OP_VP = re.compile(r"\s*([a-z_]{1,20})\s*=\s*(\d{1,3})\s*")


@dataclass(frozen=True)
class Report:
    """A table's reported score, checked: the table and each player's VP."""

    table: Table
    vp: dict[str, int]
    confirmed: bool = False
    vp_by_op: dict[str, dict[str, int]] = field(default_factory=dict)


def parse_score(text: str) -> tuple[int, int]:
    """'12-9' -> (12, 9): player A's VP, then player B's."""
    found = SCORE.fullmatch(text)
    if not found:
        raise KtlogError(f"score {text!r}: give player A's VP, a dash, then player B's, e.g. 12-9 (whole numbers, at most {VP_LIMIT})")
    return int(found[1]), int(found[2])


def parse_ops(text: str) -> dict[str, int]:
    """'crit=4 tac=3 kill=5' (or with commas) -> a player's VP by op; the ruleset's reducer checks
    the ops' names and that they add up to the player's VP."""
    parts = [part for part in re.split(r"[,\s]+", text.strip()) if part]
    found = [OP_VP.fullmatch(part) for part in parts]
    if not parts or not all(found):
        raise KtlogError(f"VP by op {text!r}: give each op and its VP, e.g. crit=4,tac=3,kill=5 (whole numbers, at most {VP_LIMIT})")
    ops = {m[1]: int(m[2]) for m in found if m}
    if len(ops) < len(parts):
        raise KtlogError(f"VP by op {text!r} names an op twice")
    return ops


def check(event: Tournament, round_: int, number: int, vp: tuple[int, int], confirmed: bool = False, ops: tuple[str, str] | None = None) -> Report:
    """A score for a table (each player's VP by op too, when `ops` gives player A's and B's),
    refused (naming why) for a bye, a no-show, a round that is final, or a table whose game ended
    by a report of other figures."""
    table = event.table(round_, number)
    if table.b is None:
        raise KtlogError(f"{event.name} round {round_} table {number} is {table.a}'s bye: it has no score")
    o = table.outcome
    if o is not None and o.ended_by == "no-show":
        raise KtlogError(f"{event.name} round {round_} table {number} has a no-show of {o.by}: take it back first (`ktlog tournament no-show --undo`)")
    if not (o is not None and o.ended_by in ("battle", "concession")):  # beside a game recorded in full a report changes nothing
        event.refuse_final(round_, f"reporting {vp[0]}-{vp[1]} at table {number}")
    by_op = {} if ops is None else {table.a: parse_ops(ops[0]), table.b: parse_ops(ops[1])}
    return Report(table, {table.a: vp[0], table.b: vp[1]}, confirmed, by_op)


def report(
    store: Store,
    name: str,
    number: int,
    score: str,
    *,
    round_: int | None = None,
    confirmed: bool = False,
    killzone: str | None = None,
    kill_teams: dict[str, str] | None = None,
    by_op: str | None = None,
) -> Report:
    """Record a table's score (`by_op`: player A's VP by op, a slash, then B's; the killzone and the
    players' kill teams, if given, for a table with no game yet)."""
    event = load(store, name)
    ops = None
    if by_op is not None:
        a, slash, b = by_op.partition("/")
        if not slash:
            raise KtlogError(f"VP by op {by_op!r}: player A's ops, a slash, then player B's, e.g. crit=4,tac=3,kill=5/crit=2,tac=4,kill=3")
        ops = (a, b)
    checked = check(event, round_ or event.current_round, number, parse_score(score), confirmed, ops)
    write(store, event, [checked], killzone=killzone, kill_teams=kill_teams)
    return checked


def write(store: Store, event: Tournament, reports: list[Report], *, killzone: str | None = None, kill_teams: dict[str, str] | None = None) -> None:
    """Record the reports in one transaction: each in its table's game, a game made for a table with none."""
    kill_teams = kill_teams or {}
    with store.writing():
        for r in reports:
            t = r.table
            confirmed = tuple(t.players) if r.confirmed else ()
            if t.game_id is not None:
                names = {player_key(p): p for p in store.game(t.game_id).players}  # as the game spells them
                store.append(
                    t.game_id,
                    ResultReported(
                        vp={names.get(p, p): v for p, v in r.vp.items()},
                        vp_by_op={names.get(p, p): ops for p, ops in r.vp_by_op.items()},
                        confirmed_by=tuple(names.get(p, p) for p in confirmed),
                    ),
                )
                continue
            created = GameCreated(
                ruleset=event.ruleset or DEFAULT_RULESET,
                killzone=killzone or UNKNOWN,
                date=dt.date.today().isoformat(),
                league=event.name,
                round=str(t.round),
                table=str(t.table),
            )
            joined = [PlayerJoined(player=p, kill_team=kill_teams.get(p, UNKNOWN)) for p in t.players]
            store.new_game(
                created,
                [*joined, ResultReported(vp=r.vp, vp_by_op=r.vp_by_op, confirmed_by=confirmed)],
                then=lambda game_id, t=t: rows.link_game(store, event.name, t.round, t.table, game_id),  # type: ignore[misc]
            )


def import_file(store: Store, name: str, path: Path) -> list[Report]:
    """A round's results from a CSV file (RESULTS_COLUMNS), recorded all together or, at the
    first line that is wrong, not at all, the line named."""
    event = load(store, name)
    text = read_limited(path, "a results file", RESULTS_FILE_LIMIT).decode("utf-8-sig", errors="strict")
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in RESULTS_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise KtlogError(
            f"{path}: line 1, the header, lacks {', '.join(missing)}; a results file has the columns {', '.join(RESULTS_COLUMNS)}; nothing was recorded"
        )
    reports: list[Report] = []
    rounds: set[int] = set()
    for line, row in enumerate(reader, 2):
        try:
            reports.append(_line(event, row, rounds, {r.table.table for r in reports}))
        except KtlogError as exc:
            raise KtlogError(f"{path}: line {line}: {exc}; nothing was recorded") from None
    if not reports:
        raise KtlogError(f"{path} has a header and no line: nothing was recorded")
    write(store, event, reports)
    return reports


def _line(event: Tournament, row: dict[str, str | None], rounds: set[int], done: set[int]) -> Report:
    values = {c: (row.get(c) or "").strip() for c in (*RESULTS_COLUMNS, "confirmed", "ops_a", "ops_b")}
    numbers = {}
    for column in ("round", "table", "vp_a", "vp_b"):
        if not values[column].isdigit() or len(values[column]) > 4:
            raise KtlogError(f"{column} {values[column]!r} is not a whole number")
        numbers[column] = int(values[column])
    round_, number = numbers["round"], numbers["table"]
    if rounds and round_ not in rounds:
        raise KtlogError(f"round {round_}: a results file is one round's, and the lines before are round {min(rounds)}'s")
    rounds.add(round_)
    if number in done:
        raise KtlogError(f"table {number} is on an earlier line already")
    table = event.table(round_, number)
    typed = (player_key(values["player_a"]), player_key(values["player_b"]))
    if set(typed) != set(table.players):
        raise KtlogError(f"round {round_} table {number} is {' v '.join(table.players)}, not {' v '.join(typed)}")
    if max(numbers["vp_a"], numbers["vp_b"]) > VP_LIMIT:
        raise KtlogError(f"VP are at most {VP_LIMIT}")
    vp = {typed[0]: numbers["vp_a"], typed[1]: numbers["vp_b"]}
    confirmed = values["confirmed"].lower() in ("yes", "true", "1")
    if values["confirmed"] and not confirmed and values["confirmed"].lower() not in ("no", "false", "0"):
        raise KtlogError(f"confirmed {values['confirmed']!r}: yes or no")
    ops = None
    if values["ops_a"] or values["ops_b"]:
        by_player = {typed[0]: values["ops_a"], typed[1]: values["ops_b"]}
        ops = (by_player[table.a], by_player[table.b] if table.b else "")
    return check(event, round_, number, (vp[table.a], vp[table.b] if table.b else 0), confirmed, ops)
