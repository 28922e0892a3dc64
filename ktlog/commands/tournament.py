"""`ktlog tournament ...`: a Swiss event from registration to the final standings, the day's
operations included (`play.tournament` and its `tournament_*` modules run it;
docs/running-a-league.md walks through one). Every subcommand that reports an outcome takes
`--json` (one JSON object or array on standard output), every output file `-o`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import KtlogError
from ..play import tournament as events
from ..play.tournament_swiss import DEFAULT_TIE_BREAKERS, TIE_BREAKERS, Table
from ..rulesets import RULESETS
from .context import claim_output, database_path, echo, echo_json, open_store, output_options

JSON = click.option("--json", "as_json", is_flag=True, help="Print the outcome as JSON.")


@click.group()
def tournament() -> None:
    """A Swiss tournament: registration, check-in, pairing, results as scores or games, the day's corrections, standings."""


def _of_a_player(command: Callable) -> click.Command:
    """A subcommand `NAME PLAYER [--json]` of the group."""
    return tournament.command()(click.argument("name")(click.argument("player")(JSON(click.pass_context(command)))))


def _say(as_json: bool, data: Any, lines: list[str]) -> None:
    """The outcome: `data` as JSON, or the lines of text."""
    if as_json:
        echo_json(data)
        return
    for line in lines:
        echo(line)


def _table(t: Table) -> dict[str, Any]:
    return {"round": t.round, "table": t.table, "player_a": t.a, "player_b": t.b}


def _table_line(t: Table) -> str:
    return f"  table {t.table}: {t.a} v {t.b}" if t.b else f"  bye: {t.a} (a win, no VP)"


def _bye_counts(text: str) -> float | None:
    if text == "average":
        return None
    try:
        return float(text)
    except ValueError:
        raise KtlogError(f"--bye-counts {text!r}: give `average` or a number of points") from None


@tournament.command()
@click.argument("name")
@click.option("--rounds", type=int, default=4, show_default=True, help="How many rounds the event has.")
@click.option("--ruleset", type=click.Choice(sorted(RULESETS)), help="The ruleset every game of the event is played under (default: any).")
@click.option(
    "--tie-breakers",
    default=",".join(DEFAULT_TIE_BREAKERS),
    show_default=True,
    help=f"After points, in this order (comma separated; a draw seeded by the event's seed comes last): {'; '.join(f'{k}: {v}' for k, v in TIE_BREAKERS.items())}.",
)
@click.option(
    "--bye-counts",
    default="average",
    show_default=True,
    help="What a bye counts for in opp_avg: `average` (left out: the mean of the opponents met) or a number (an opponent with that many points).",
)
@JSON
@click.pass_context
def new(ctx, name, rounds, ruleset, tie_breakers, bye_counts, as_json) -> None:
    """Create a tournament NAME."""
    breakers = tuple(b.strip() for b in tie_breakers.split(",") if b.strip())
    store = open_store(ctx, create=True)
    events.create(store, name, rounds, ruleset, breakers, _bye_counts(bye_counts))
    event = events.load(store, name)
    _say(
        as_json,
        {k: v for k, v in events.view(event).items() if k in ("name", "rounds", "ruleset", "tie_breakers", "bye_counts")},
        [f"created tournament {event.name}: {rounds} rounds, tie-breakers after points: {', '.join(breakers) or 'none'}, then a seeded draw"],
    )


@tournament.command("list")
@JSON
@click.pass_context
def list_tournaments(ctx, as_json) -> None:
    """Every tournament: its rounds, players, the round it is at."""
    found = events.listing(open_store(ctx))
    lines = [
        f"{t['name']}: {t['players']} players, "
        + ("finished" if t["finished"] else f"round {t['round']} of {t['rounds']}" if t["round"] else f"{t['rounds']} rounds, not paired yet")
        for t in found
    ]
    _say(as_json, found, lines or ["no tournament yet: `ktlog tournament new NAME` creates one"])


@tournament.command()
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@JSON
@click.pass_context
def add(ctx, name, players, as_json) -> None:
    """Register PLAYERS for NAME (a name, a name as shown with its club, or a player id): before
    round 1, or late (they join the next round to be paired). All of them, or none."""
    from ..play.tournament_entry import add as register

    added = register(open_store(ctx), name, players)
    data = [
        {"player": r.entrant.name, "typed": r.typed, "player_id": r.entrant.player_id, "club": r.entrant.club, "joins_round": r.entrant.joins_round}
        for r in added
    ]
    late = added[0].entrant.joins_round > 1
    lines = [f"added {len(added)} player(s)" + (f", joining round {added[0].entrant.joins_round} (checked in)" if late else "") + ":"]
    lines += [f"  {r.entrant.name}  {r.entrant.player_id}  {r.entrant.club}" for r in added]
    _say(as_json, data, lines)


@tournament.command("check-in")
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.option("--undo", is_flag=True, help="Take the check-in back (before round 1 is paired).")
@JSON
@click.pass_context
def check_in(ctx, name, players, undo, as_json) -> None:
    """Check PLAYERS in: once anyone is checked in, only those checked in are paired. A player
    checking in after round 1 joins the next round."""
    from ..play.tournament_entry import check_in as checking

    changed = checking(open_store(ctx), name, players, undo=undo)
    what = "checked out" if undo else "checked in"
    lines = [f"{what}: {', '.join(e.name for e in changed)}" if changed else f"nobody new {what} (each was already)"]
    lines += [f"  {e.name} joins round {e.joins_round}" for e in changed if e.joins_round > 1 and not undo]
    _say(as_json, [{"player": e.name, "checked_in": e.checked_in, "joins_round": e.joins_round} for e in changed], lines)


@_of_a_player
def drop(ctx, name, player, as_json) -> None:
    """PLAYER leaves NAME after the current round: not paired from the next round on."""
    from ..play.tournament_entry import drop as dropping

    entrant, table = dropping(open_store(ctx), name, player)
    lines = [f"{entrant.name} drops after round {entrant.dropped_after}: not paired from round {entrant.dropped_after + 1}"]  # type: ignore[operator]
    if table is not None:
        lines.append(f"their round {table.round} table {table.table} is still open: record its game, or `ktlog tournament no-show` them")
    _say(as_json, {"player": entrant.name, "dropped_after": entrant.dropped_after, "open_table": _table(table) if table else None}, lines)


@_of_a_player
def rejoin(ctx, name, player, as_json) -> None:
    """A dropped PLAYER comes back: paired again from the next round to be paired."""
    from ..play.tournament_entry import rejoin as rejoining

    entrant = rejoining(open_store(ctx), name, player)
    _say(as_json, {"player": entrant.name, "joins_round": entrant.joins_round}, [f"{entrant.name} rejoins {name}: paired from round {entrant.joins_round}"])


@_of_a_player
def remove(ctx, name, player, as_json) -> None:
    """Take PLAYER's registration back (only a player never paired: `drop` one who played)."""
    from ..play.tournament_entry import remove as removing

    entrant = removing(open_store(ctx), name, player)
    _say(as_json, {"player": entrant.name, "removed": True}, [f"removed {entrant.name} from {name}"])


def _pair(ctx: click.Context, name: str, seed: int | None, as_json: bool, *, again: bool) -> None:
    """Pair the next round (`again`: the current one again) and say its tables and who sits out."""
    from ..play import tournament_rounds

    store = open_store(ctx)
    paired = (tournament_rounds.re_pair if again else tournament_rounds.pair)(store, name, seed)
    event = events.load(store, name)
    lines = [f"{event.name} round {paired.round} of {event.rounds}" + (f" (seed {paired.seed})" if paired.round == 1 else "")]
    lines += [_table_line(t) for t in paired.tables]
    lines += [f"  not paired: {p} ({why})" for p, why in paired.left_out.items()]
    data = {
        "round": paired.round,
        "seed": paired.seed if paired.round == 1 else None,
        "tables": [_table(t) for t in paired.tables],
        "left_out": [{"player": p, "why": why} for p, why in paired.left_out.items()],
    }
    _say(as_json, data, lines)


SEED = click.option(
    "--seed", type=int, help="The seed that draws round 1 (the same seed, the same draw) and the last tie-breaker; later rounds follow the standings."
)


@tournament.command()
@click.argument("name")
@SEED
@JSON
@click.pass_context
def pair(ctx, name, seed, as_json) -> None:
    """Pair the next round of NAME once the round before has ended; prints its tables."""
    _pair(ctx, name, seed, as_json, again=False)


@tournament.command("re-pair")
@click.argument("name")
@SEED
@JSON
@click.pass_context
def re_pair(ctx, name, seed, as_json) -> None:
    """Pair NAME's current round again (after a late arrival, a drop ...), before any of its tables has a game or a result."""
    _pair(ctx, name, seed, as_json, again=True)


@tournament.command()
@click.argument("name")
@click.argument("first")
@click.argument("second")
@JSON
@click.pass_context
def swap(ctx, name, first, second, as_json) -> None:
    """Swap FIRST and SECOND between their tables of the current round (before either starts)."""
    from ..play.tournament_rounds import swap as swapping

    tables = swapping(open_store(ctx), name, first, second)
    _say(as_json, [_table(t) for t in tables], ["swapped:", *(_table_line(t) for t in tables)])


@tournament.command("no-show")
@click.argument("name")
@click.argument("player")
@click.option("--undo", is_flag=True, help="Take back a no-show recorded against PLAYER (the wrong player, say): the table is open again.")
@JSON
@click.pass_context
def no_show(ctx, name, player, undo, as_json) -> None:
    """PLAYER did not come to their table of NAME's current round: they lose, their opponent wins."""
    from ..play.tournament_rounds import record_no_show, undo_no_show

    store = open_store(ctx)
    if undo:
        t = undo_no_show(store, name, player)
        absent = events.load(store, name).entrant(player).name
        _say(
            as_json,
            {**_table(t), "no_show": None, "undone": absent},
            [f"round {t.round} table {t.table}: {absent}'s no-show taken back; the table is open again"],
        )
        return
    t = record_no_show(store, name, player)
    absent = events.load(store, name).entrant(player).name
    _say(
        as_json,
        {**_table(t), "no_show": absent, "winner": t.opponent(absent)},
        [f"round {t.round} table {t.table}: {absent} did not show; {t.opponent(absent)} wins"],
    )


@tournament.command()
@click.argument("name")
@click.argument("table", type=int)
@click.argument("score", metavar="A_VP-B_VP")
@click.option("--round", "round_", type=int, help="The round (default: the current one).")
@click.option("--confirmed", is_flag=True, help="Both players confirmed the score (signed the slip).")
@click.option("--by-op", metavar="A_OPS/B_OPS", help="Each player's VP by op, player A's then B's, e.g. crit=4,tac=3,kill=5/crit=2,tac=4,kill=3.")
@click.option("--killzone", help="The killzone, for a table with no game yet (default: unknown).")
@click.option("--kill-team", "kill_teams", multiple=True, metavar="PLAYER=TEAM", help="A player's kill team, for a table with no game yet (repeatable).")
@JSON
@click.pass_context
def result(ctx, name, table, score, round_, confirmed, by_op, killzone, kill_teams, as_json) -> None:
    """Record TABLE's result as a score: player A's VP, then player B's (e.g. 12-9). A game
    recorded in full at the table keeps its own result; a different report is flagged."""
    from ..play.tournament_results import report

    teams = {}
    for spec in kill_teams:
        player, sep, team = spec.partition("=")
        if not sep or not player.strip() or not team.strip():
            raise click.BadParameter(f"{spec!r}: write PLAYER=TEAM", param_hint="--kill-team")
        teams[events.player_key(player)] = team.strip()
    store = open_store(ctx)
    reported = report(store, name, table, score, round_=round_, confirmed=confirmed, killzone=killzone, kill_teams=teams, by_op=by_op)
    t = reported.table
    row = next(r for r in events.results(events.load(store, name)) if (r["round"], r["table"]) == (t.round, t.table))
    line = f"round {t.round} table {t.table}: {t.a} {reported.vp[t.a]} - {reported.vp[t.b]} {t.b} reported"  # type: ignore[index]
    _say(as_json, row, [line + (f"; {row['flag']}" if row["flag"] else "")])


@tournament.command("import-results")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@JSON
@click.pass_context
def import_results(ctx, name, file, as_json) -> None:
    """Record a round's results from a CSV FILE (columns round, table, player_a, player_b, vp_a,
    vp_b, and optionally confirmed, ops_a and ops_b): every line, or none if one is wrong (it is named)."""
    from ..play.tournament_results import import_file

    store = open_store(ctx)
    reports = import_file(store, name, file)
    done = {(r.table.round, r.table.table) for r in reports}
    rows = [r for r in events.results(events.load(store, name)) if (r["round"], r["table"]) in done]
    _say(as_json, rows, [f"recorded {len(reports)} result(s) of round {reports[0].table.round} from {file}"])


@tournament.command()
@click.argument("name")
@click.argument("game")
@JSON
@click.pass_context
def link(ctx, name, game, as_json) -> None:
    """Link GAME (created without --tournament) to its players' table in NAME's current round."""
    from ..play.tournament_rounds import link as linking

    t = linking(open_store(ctx), name, game)
    _say(as_json, {**_table(t), "game_id": game}, [f"linked game {game} to round {t.round} table {t.table} ({t.a} v {t.b})"])


@tournament.command()
@click.argument("name")
@click.option("--minutes", type=int, help="Start the current round's timer for this many minutes (again: restart it).")
@click.option("--stop", is_flag=True, help="Stop the timer.")
@JSON
@click.pass_context
def timer(ctx, name, minutes, stop, as_json) -> None:
    """The current round's timer, which the projector page counts down."""
    from ..play.tournament_rounds import start_timer

    if stop == (minutes is not None):
        raise click.UsageError("give --minutes N to start the timer, or --stop")
    event = start_timer(open_store(ctx), name, None if stop else minutes)
    shown = events.timer_view(event)
    lines = [f"round {shown['round']} timer: ends at {shown['ends_at']} ({shown['seconds_left'] // 60} minutes left)" if shown else "timer stopped"]
    _say(as_json, {"timer": shown}, lines)


@tournament.command()
@click.argument("name")
@click.argument("round_", metavar="ROUND", type=int, required=False)
@click.option("--close", is_flag=True, help="End the reopening, keeping the later round as it was paired.")
@JSON
@click.pass_context
def reopen(ctx, name, round_, close, as_json) -> None:
    """Reopen ROUND's results (the round before the current one) to change one: a game's end
    undone or corrected, a no-show taken back. The current round is marked as paired on results
    since changed until it is re-paired or the reopening is closed."""
    from ..play.tournament_rounds import reopen as reopening
    from ..play.tournament_rounds import reopened_warning

    event = reopening(open_store(ctx), name, round_, close=close)
    warning = reopened_warning(event)
    _say(as_json, {"reopened_round": event.reopened_round, "warning": warning}, [warning or f"{event.name}: no round is reopened"])


@tournament.command()
@click.argument("name")
@click.option("--url", "base", default="http://127.0.0.1:8787", show_default=True, help="Where `ktlog serve --organiser` is reached.")
@click.option("--revoke", is_flag=True, help="End the organiser page's link.")
@JSON
@click.pass_context
def organiser(ctx, name, base, revoke, as_json) -> None:
    """The organiser page's link for NAME (`ktlog serve --organiser`): a new token each time, the
    earlier link stops working. Keep it to yourself: it runs the event."""
    from urllib.parse import quote

    store = open_store(ctx)
    if revoke:
        events.revoke_organiser_token(store, name)
        _say(as_json, {"link": None}, ["the organiser link is revoked"])
        return
    token = events.issue_organiser_token(store, name)
    url = f"{base.rstrip('/')}/organiser/{quote(events.load(store, name).name, safe='')}#{token}"
    _say(as_json, {"link": url}, [url])


@tournament.command()
@click.argument("name")
@JSON
@click.pass_context
def show(ctx, name, as_json) -> None:
    """NAME as it stands: its round, the round's tables, who is not playing, the timer."""
    from ..play.tournament_rounds import reopened_warning

    event = events.load(open_store(ctx), name)
    data = events.view(event)
    if as_json:
        echo_json(data)
        return
    current = event.current_round
    echo(f"{event.name}: {len(event.entrants)} players, " + (f"round {current} of {event.rounds}" if current else f"{event.rounds} rounds, not paired yet"))
    for r in data["results"]:
        if r["round"] == current:
            outcome = "open" if r["result"] == "open" else f"{r['vp_a']}-{r['vp_b']} {r['ended_by']}" if r["player_b"] else "bye"
            echo(f"  table {r['table']}: {r['player_a']} v {r['player_b'] or '(bye)'}: {outcome}" + (f" [{r['flag']}]" if r["flag"] else ""))
    for e in data["entrants"]:
        if e["status"] != "playing":
            echo(f"  {e['player']}: {e['status']}")
    if data["timer"]:
        echo(f"  timer: {data['timer']['seconds_left'] // 60} minutes left")
    if warning := reopened_warning(event):
        echo(f"warning: {warning}", err=True)


def _listing(command: Callable) -> Callable:
    """The output options of standings and results: a table, CSV or JSON, to a file with -o."""
    command = click.option("--json", "as_json", is_flag=True, help="The same as --format json.")(command)
    command = click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True, help="Output format.")(command)
    return output_options()(command)


def _write(ctx: click.Context, rows: list[dict[str, Any]], columns: tuple[str, ...], fmt: str, as_json: bool, output: Path | None, force: bool) -> None:
    import polars as pl

    from ..analytics.formats import write

    claim_output(ctx, output, force)
    if fmt == "table" and not as_json:  # a table shows nothing where CSV and JSON give empty and null
        rows = [{k: "" if v is None else v for k, v in row.items()} for row in rows]
    frame = pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame(schema=dict.fromkeys(columns, pl.String))
    write(frame, "json" if as_json else fmt, output, database=database_path(ctx))


@tournament.command()
@click.argument("name")
@_listing
@click.pass_context
def standings(ctx, name, fmt, as_json, output, force) -> None:
    """The standings of NAME: rank, points, tie-breakers, VP, status (docs/running-a-league.md
    describes each column)."""
    _write(ctx, events.standing_rows(events.load(open_store(ctx), name)), events.STANDING_COLUMNS, fmt, as_json, output, force)


@tournament.command()
@click.argument("name")
@_listing
@click.pass_context
def results(ctx, name, fmt, as_json, output, force) -> None:
    """One row per table of NAME: round, table, both players, their kill teams and VP, the result, a reported score and its flag."""
    _write(ctx, events.results(events.load(open_store(ctx), name)), events.RESULT_COLUMNS, fmt, as_json, output, force)
