"""`ktlog tournament ...`: a Swiss event from registration to the final standings
(`play.tournament` runs it; docs/running-a-league.md walks through one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..play import tournament as events
from ..play.tournament_swiss import DEFAULT_TIE_BREAKERS, TIE_BREAKERS, Table
from ..rulesets import RULESETS
from .context import claim_output, database_path, echo, echo_json, open_store, output_options


@click.group()
def tournament() -> None:
    """A Swiss tournament: new, add, pair, standings, results, link, no-show."""


@tournament.command()
@click.argument("name")
@click.option("--rounds", type=int, default=4, show_default=True, help="How many rounds the event has.")
@click.option("--ruleset", type=click.Choice(sorted(RULESETS)), help="The ruleset every game of the event is played under (default: any).")
@click.option(
    "--tie-breakers",
    default=",".join(DEFAULT_TIE_BREAKERS),
    show_default=True,
    help=f"After points, in this order (comma separated): {'; '.join(f'{k}: {v}' for k, v in TIE_BREAKERS.items())}.",
)
@click.pass_context
def new(ctx, name, rounds, ruleset, tie_breakers) -> None:
    """Create a tournament NAME."""
    breakers = tuple(b.strip() for b in tie_breakers.split(",") if b.strip())
    events.create(open_store(ctx, create=True), name, rounds, ruleset, breakers)
    echo(f"created tournament {events.player_key(name)}: {rounds} rounds, tie-breakers after points: {', '.join(breakers) or 'none'}")


@tournament.command()
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.pass_context
def add(ctx, name, players) -> None:
    """Register PLAYERS for NAME (before round 1 is paired)."""
    new = events.add(open_store(ctx), name, players)
    echo(f"added {len(new)} player(s)" + (f": {', '.join(new)}" if new else " (all were registered already)"))


@tournament.command()
@click.argument("name")
@click.option("--seed", type=int, help="The seed that draws round 1 (the same seed, the same draw); later rounds follow the standings.")
@click.option("--json", "as_json", is_flag=True, help="Print the round's tables as JSON.")
@click.pass_context
def pair(ctx, name, seed, as_json) -> None:
    """Pair the next round of NAME once the round before has ended; prints its tables."""
    store = open_store(ctx)
    made = events.pair(store, name, seed)
    if as_json:
        echo_json([{"round": t.round, "table": t.table, "player_a": t.a, "player_b": t.b} for t in made])
        return
    event = events.load(store, name)
    echo(f"{event.name} round {made[0].round} of {event.rounds}" + (f" (seed {event.seed})" if made[0].round == 1 else ""))
    for t in made:
        echo(_table_line(t))


def _table_line(t: Table) -> str:
    return f"  table {t.table}: {t.a} v {t.b}" if t.b else f"  bye: {t.a} (a win, no VP)"


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
    """The standings of NAME: rank, points, strength of schedule, VP (docs/running-a-league.md
    describes each column)."""
    _write(ctx, events.standing_rows(events.load(open_store(ctx), name)), events.STANDING_COLUMNS, fmt, as_json, output, force)


@tournament.command()
@click.argument("name")
@_listing
@click.pass_context
def results(ctx, name, fmt, as_json, output, force) -> None:
    """One row per table of NAME: round, table, both players, their kill teams and VP, the result."""
    _write(ctx, events.results(events.load(open_store(ctx), name)), events.RESULT_COLUMNS, fmt, as_json, output, force)


@tournament.command()
@click.argument("name")
@click.argument("game")
@click.pass_context
def link(ctx, name, game) -> None:
    """Link GAME (created without --tournament) to its players' table in NAME's current round."""
    t = events.link(open_store(ctx), name, game)
    echo(f"linked game {game} to round {t.round} table {t.table} ({t.a} v {t.b})")


@tournament.command("no-show")
@click.argument("name")
@click.argument("player")
@click.pass_context
def no_show(ctx, name, player) -> None:
    """PLAYER did not come to their table of NAME's current round: they lose, their opponent wins."""
    t = events.record_no_show(open_store(ctx), name, player)
    echo(f"round {t.round} table {t.table}: {events.player_key(player)} did not show; {t.opponent(events.player_key(player))} wins")
