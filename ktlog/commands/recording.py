"""`ktlog new`, `event`, `undo` and `annotate`: a game recorded from the command line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from .. import events as ev
from ..errors import RosterError
from ..files.rosters import joining, load_roster
from ..play.session import RecordingSession
from ..rules.not_applied import not_applied_in_setup
from ..rulesets import RULESETS
from ..text.describe import describe
from ..text.event_text import build_event, types_help
from ..text.render import changes, undo_text
from .context import echo_json, open_store


def _parse_player(spec: str) -> tuple[str, Path, list[str] | None]:
    name, sep, rest = spec.partition("=")
    if not sep or not name.strip() or not rest:
        raise RosterError(f"--player {spec!r}: write NAME=ROSTER.toml or NAME=ROSTER.toml:op1,op2")
    path, _, ops = rest.partition(":")
    return name.strip(), Path(path), [o.strip() for o in ops.split(",") if o.strip()] or None


@click.command()
@click.option("--ruleset", type=click.Choice(sorted(RULESETS)), default="kt24-preliminary", show_default=True, help="The ruleset the game is played under.")
@click.option("--killzone", required=True, help="volkus, gallowdark, bheta-decima, or another killzone's name.")
@click.option("--date", default=lambda: dt.date.today().isoformat(), help="The day of the game (YYYY-MM-DD); default today.")
@click.option("--dataslate", help="The balance dataslate or errata the game is played under.")
@click.option("--mission", help="Mission or map label.")
@click.option("--league", help="League label.")
@click.option("--season", help="Season label.")
@click.option("--round", "round_", help="Round label.")
@click.option("--table", help="Table label.")
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    metavar="NAME=ROSTER[:OP,OP]",
    help="A player and the roster file of their kill team, optionally the operatives selected for this battle. Once per player.",
)
@click.option(
    "--npo",
    "npos",
    multiple=True,
    metavar="NAME=ROSTER[:OP,OP]",
    help="Joint Ops: the non-player operatives' side and its roster (e.g. ktlog/data/rosters/npo.toml); an OP named "
    "several times is selected that many times (ids OP-1, OP-2 ...).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the new game as JSON.")
@click.pass_context
def new(ctx, ruleset, killzone, date, dataslate, mission, league, season, round_, table, players, npos, as_json) -> None:
    """Create a game from flags and roster files; prints its id."""
    created = ev.GameCreated(
        ruleset=ruleset, killzone=killzone, date=date, dataslate=dataslate, mission=mission, league=league, season=season, round=round_, table=table
    )
    setup: list[ev.Event] = []
    taken: set[str] = set()
    warnings: list[str] = []
    for spec, npo in [(p, False) for p in players] + [(p, True) for p in npos]:
        name, path, select = _parse_player(spec)
        loaded = load_roster(path)
        warnings += loaded.warnings
        setup += joining(name, loaded, select, taken, npo=npo)
    store = open_store(ctx)
    game_id = store.new_game(created, setup)
    unapplied = not_applied_in_setup(setup, RULESETS[ruleset])
    if as_json:
        echo_json(
            {"id": game_id, "players": [p.partition("=")[0] for p in players + npos], "events": len(setup) + 1, "warnings": warnings, "not_applied": unapplied}
        )
        return
    click.echo(game_id)
    for line in [f"warning: {w}" for w in warnings] + [f"not applied: {u}" for u in unapplied]:
        click.echo(line, err=True)
    click.echo(f"created {RULESETS[ruleset].title} game {game_id[:8]} with {len(setup) + 1} events; next: the set-up roll-off, e.g.", err=True)
    names = [p.partition("=")[0] for p in players + npos]
    click.echo(f"  ktlog event {game_id[:8]} RolledOff purpose=setup rolls={','.join(f'{n}:4' for n in names)}", err=True)


@click.command("event")
@click.argument("game", required=False)
@click.argument("type_name", metavar="TYPE", required=False)
@click.argument("fields", nargs=-1, metavar="[FIELD=VALUE]...")
@click.option("--override", help="Record it although a rule check fails, with this reason (a kill team rule, pg 55).")
@click.option("--expect-seq", type=int, help="Refuse if the event would not get this seq (another writer got there first).")
@click.option("--types", "list_types", is_flag=True, help="List the event types and their fields.")
@click.pass_context
def event_cmd(ctx, game, type_name, fields, override, expect_seq, list_types) -> None:
    """Record one event: ktlog event GAME TYPE FIELD=VALUE ...

    Dice are digits (dice=6542), lists are comma separated (targets=gunner,sergeant), roll-offs
    are NAME:ROLL pairs (rolls=Alice:4,Bob:2), fight steps are like "sc bnn sn", anything else
    is JSON or text. A Shot at one target can use target=, dice=, saves=, cover=, obscured=.
    """
    if list_types or not type_name:
        click.echo("Event types and their fields:\n" + types_help())
        return
    event = build_event(type_name, list(fields), override)
    recorded = _session(ctx, game).record(event, expected_seq=expect_seq)
    click.echo(f"seq {recorded.seq}: {describe(event)}")
    for line in changes(recorded.before, recorded.after):
        click.echo(f"  {line}")


@click.command()
@click.argument("game")
@click.option("--expect-seq", type=int, help="Refuse if another writer appended first.")
@click.pass_context
def undo(ctx, game, expect_seq) -> None:
    """Void the latest effective event (undo). Nothing is deleted: the undo is an event too."""
    recorded = _session(ctx, game).undo(expected_seq=expect_seq)
    click.echo(undo_text(recorded.seq, *recorded.undone))


@click.command()
@click.argument("game")
@click.argument("seq", type=int)
@click.argument("text")
@click.pass_context
def annotate(ctx, game, seq, text) -> None:
    """Attach a comment to the event at SEQ."""
    recorded = _session(ctx, game).annotate(seq, text)
    click.echo(f"seq {recorded.seq}: note on seq {seq}")


def _session(ctx, game: str) -> RecordingSession:
    store = open_store(ctx)
    return RecordingSession(store, store.resolve(game), expect_next=False)
