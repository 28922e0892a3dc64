"""`ktlog new`, `event`, `undo` and `annotate`: a game recorded from the command line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TextIO

import click

from .. import events as ev
from ..errors import ConcurrencyConflict, KtlogError, RosterError, RuleViolation
from ..files.layouts import find_layout
from ..files.rosters import find_roster, load_roster
from ..play.creation import Side, check_killzone, opening_events, unapplied_rules
from ..play.moves import Moves, next_step, refusal_text
from ..play.questions import legal_moves
from ..play.session import Recorded, RecordingSession
from ..rulesets import RULESETS
from ..state import GameState
from ..text.describe import describe
from ..text.event_text import build_event, move_usage, parse_event, types_help
from ..text.render import changes, undo_text
from .context import echo_json, examples, json_option, open_store


def _parse_player(spec: str) -> tuple[str, Path, list[str] | None]:
    name, sep, rest = spec.partition("=")
    if not sep or not name.strip() or not rest:
        raise RosterError(f"--player {spec!r}: write NAME=ROSTER.toml or NAME=ROSTER.toml:op1,op2")
    roster, _, ops = rest.partition(":")
    return name.strip(), find_roster(roster), [o.strip() for o in ops.split(",") if o.strip()] or None


@click.command(
    epilog=examples(
        "ktlog new --killzone volkus --player Alice=kasrkin --player Bob=legionaries",
        "ktlog new --killzone volkus --player Alice=kasrkin:sergeant,medic --player Bob=my-team.toml --league Autumn --round 5",
        "GAME=$(ktlog new --killzone volkus --player Alice=kasrkin --player Bob=legionaries)   # the id, for the next commands",
    )
)
@click.option("--ruleset", type=click.Choice(sorted(RULESETS)), default="kt24-preliminary", show_default=True, help="The ruleset the game is played under.")
@click.option("--killzone", required=True, help="The killzone, one of the ruleset's: volkus, gallowdark or bheta-decima (KT24); octarius, chalnath ... (KT21).")
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
    help="A player and their kill team's roster: a file, or a roster's name in your roster folder or the samples (`ktlog roster list`); optionally the operatives selected for this battle. Once per player.",
)
@click.option(
    "--npo",
    "npos",
    multiple=True,
    metavar="NAME=ROSTER[:OP,OP]",
    help="Joint Ops: the non-player operatives' side and its roster (e.g. npo, the sample NPO roster); an OP named "
    "several times is selected that many times (ids OP-1, OP-2 ...).",
)
@click.option(
    "--tournament",
    help="Play the game at its players' table of this tournament's current round: the round, table and league labels are set, and the table is linked to the game.",
)
@click.option(
    "--layout",
    metavar="NAME|FILE",
    help="Record the operatives' positions on this killzone layout: a shipped one (volkus-like, gallowdark-like) or a layout file (docs/the-board.md).",
)
@json_option("the new game: id, players, rosters, events, warnings, not_applied")
@click.pass_context
def new(ctx, ruleset, killzone, date, dataslate, mission, league, season, round_, table, players, npos, tournament, layout, as_json) -> None:
    """Create a game from flags and roster files; prints its id."""
    killzone = check_killzone(ruleset, killzone)
    link = None
    if tournament is not None:
        from ..play.tournament_rounds import for_new_game

        labels, link = for_new_game(
            open_store(ctx), tournament, [p.partition("=")[0] for p in players + npos], ruleset, {"league": league, "round": round_, "table": table}
        )
        league, round_, table = labels["league"], labels["round"], labels["table"]
    created = ev.GameCreated(
        ruleset=ruleset,
        killzone=killzone,
        date=date,
        dataslate=dataslate,
        mission=mission,
        league=league,
        season=season,
        round=round_,
        table=table,
        layout=find_layout(layout) if layout is not None else None,
    )
    sides: list[Side] = []
    warnings: list[str] = []
    used: list[str] = []
    paths: dict[str, str] = {}
    for spec, npo in [(p, False) for p in players] + [(p, True) for p in npos]:
        name, path, select = _parse_player(spec)
        loaded = load_roster(path)
        warnings += loaded.warnings
        if str(path) != spec.partition("=")[2].partition(":")[0]:  # looked up by name: say which file
            used.append(f"{name}: {loaded.name} from {path}")
        paths[name] = str(path)
        sides.append(Side(name, loaded, select, npo=npo))
    setup = opening_events(created, sides)[1:]  # refused here, before the database is opened
    game_id = open_store(ctx, create=True).new_game(created, setup, then=link)
    unapplied = unapplied_rules(setup, ruleset)
    if as_json:
        echo_json(
            {
                "id": game_id,
                "players": [p.partition("=")[0] for p in players + npos],
                "rosters": paths,
                "events": len(setup) + 1,
                "warnings": warnings,
                "not_applied": unapplied,
            }
        )
        return
    click.echo(game_id)
    if tournament is not None:
        click.echo(f"{league}: round {round_}, table {table}", err=True)
    for line in [f"roster of {u}" for u in used] + [f"warning: {w}" for w in warnings] + [f"not applied: {u}" for u in unapplied]:
        click.echo(line, err=True)
    click.echo(f"created {RULESETS[ruleset].title} game {game_id[:8]} with {len(setup) + 1} events; next: the set-up roll-off, e.g.", err=True)
    names = [p.partition("=")[0] for p in players + npos]
    click.echo(f"  ktlog event {game_id[:8]} RolledOff purpose=setup rolls={','.join(f'{n}:4' for n in names)}", err=True)


@click.command(
    "event",
    epilog=examples(
        "ktlog event --types                     # every event type and its fields",
        "ktlog event 334f --types                # the moves legal now in game 334f, as lines to type",
        "ktlog event 334f RolledOff purpose=setup rolls=Alice:5,Bob:2",
        'ktlog event 334f Shot operative=gunner weapon="Plasma gun" target=b1 dice=6511 saves=31',
        "ktlog event 334f --file first-activations.txt --json",
    ),
)
@click.argument("game", required=False)
@click.argument("type_name", metavar="TYPE", required=False)
@click.argument("fields", nargs=-1, metavar="[FIELD=VALUE]...")
@click.option("--override", help="Record it although a rule check fails, with this reason (a kill team rule, pg 55).")
@click.option("--expect-seq", type=int, help="Refuse if the event would not get this seq (another writer got there first).")
@click.option(
    "--types", "list_types", is_flag=True, help="With a GAME: the moves legal now, as lines to type. Without: every event type and the shape of each field."
)
@click.option(
    "--file",
    "batch",
    type=click.File("r", encoding="utf-8"),
    help="Record the events of FILE (- for standard input), one `TYPE FIELD=VALUE ...` a line, all or none.",
)
@json_option("what was recorded: game, events (seq, type, text, warning), changes, next (with --types and a GAME: the legal moves, label and line)")
@click.pass_context
def event_cmd(ctx, game, type_name, fields, override, expect_seq, list_types, batch, as_json) -> None:
    """Record one event: ktlog event GAME TYPE FIELD=VALUE ...

    Dice are digits (dice=6542), lists are comma separated (targets=gunner,sergeant), roll-offs
    are NAME:ROLL pairs (rolls=Alice:4,Bob:2), fight steps are like "sc bnn sn", anything else
    is JSON or text. A Shot at one target can use target=, dice=, saves=, cover=, obscured=,
    splashed= (x" Devastating's other operatives).
    The shapes --types shows: DICE digits 1-6; STEPS fight steps (sc/sn strike with a critical
    or a normal; bcc/bcn/bnn/bnc block, the second letter the blocking die, the third the blocked;
    bc/bn block nothing); NAME:N,NAME:N; MARKER:PLAYER,MARKER: (empty: nobody); A,B a list;
    BOOL true or false; a|b one of; JSON a JSON value; FIELD? may be left out.
    With --file, each line is TYPE FIELD=VALUE ... (blank lines and # comments skipped) and
    the events are recorded together or not at all. Prints what is expected next, and whose.
    """
    if list_types and game is not None:
        _legal_moves(_session(ctx, game).state, as_json)
        return
    if list_types or (not type_name and batch is None):
        click.echo("Event types and their fields (`ktlog event --help` says how to write each shape):\n" + types_help())
        return
    if game is None:
        raise KtlogError("give the game: ktlog event GAME --file FILE (`ktlog games` lists the ids)")
    session = _session(ctx, game)
    if batch is not None:
        if type_name or fields or override:
            raise KtlogError("give the events in the --file, or one event as TYPE FIELD=VALUE, not both")
        recorded, events = _record_file(session, batch, expect_seq)
    else:
        event = build_event(type_name, list(fields), override)
        recorded = session.record(event, expected_seq=expect_seq)
        events = [(recorded.seq, event)]
    told = [
        {
            "seq": seq,
            "type": type(event).__name__,
            "text": _described(session, recorded, seq, event, batch is not None),
            "warning": warning,
        }
        for (seq, event), warning in zip(events, recorded.warnings, strict=True)
    ]
    upcoming = next_step(recorded.after)
    if as_json:
        echo_json({"game": session.game_id, "events": told, "changes": changes(recorded.before, recorded.after), "next": upcoming or None})
        return
    for row in told:
        click.echo(f"seq {row['seq']}: {row['text']}")
        if row["warning"]:
            click.echo(f"  warning: {row['warning']}")
    for line in changes(recorded.before, recorded.after):
        click.echo(f"  {line}")
    click.echo(f"next: {upcoming}" if upcoming else "the game is over")


def _legal_moves(state: GameState, as_json: bool) -> None:
    """The moves legal now, each as the line to type (ktlog.play.questions describes them)."""
    described = legal_moves(Moves(state))
    upcoming = next_step(state)
    if as_json:
        echo_json({"next": upcoming or None, "moves": [{"label": move.label, "line": move_usage(move)} for move in described]})
        return
    if not described:
        click.echo("No move is legal: the game is over" if state.phase == "over" else "No move is legal now")
        return
    click.echo("Legal moves now" + (f" (next: {upcoming})" if upcoming else "") + ", as `ktlog event GAME` takes them:")
    for move in described:
        click.echo(f"  {move.label:<30} {move_usage(move)}")


def _record_file(session: RecordingSession, lines: TextIO, expect_seq: int | None) -> tuple[Recorded, list[tuple[int, ev.Event]]]:
    """Every event of a batch file, or none: a refusal names its line. The outcome, and each
    event with its seq."""
    name = "standard input" if lines.name == "<stdin>" else lines.name
    numbered: list[tuple[int, ev.Event]] = []
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                numbered.append((number, parse_event(line)))
            except KtlogError as exc:
                raise KtlogError(f"{name} line {number}: {exc}; nothing was recorded") from None
    if not numbered:
        raise KtlogError(f"{name} holds no event (one `TYPE FIELD=VALUE ...` a line); nothing was recorded")
    if expect_seq is not None and expect_seq != session.seq + 1:
        raise ConcurrencyConflict(session.game_id, expect_seq, session.seq)
    try:
        recorded = session.record_all([event for _, event in numbered])
    except KtlogError as exc:
        index = getattr(exc, "index", None)
        if index is None:
            raise
        number, event = numbered[index]
        why = refusal_text(exc) + (
            ". If a kill team rule allows it, add override=REASON to the line" if isinstance(exc, RuleViolation) and exc.overridable else ""
        )
        raise KtlogError(f"{name} line {number} ({type(event).__name__}, would be seq {session.seq + 1 + index}): {why}; nothing was recorded") from None
    first = recorded.seq - len(numbered) + 1
    return recorded, [(seq, event) for seq, (_, event) in enumerate(numbered, first)]


def _described(session: RecordingSession, recorded: Recorded, seq: int, event: ev.Event, batch: bool) -> str:
    """An event just recorded, in words; one of a batch with the states around it where the reply
    says what the state gained (WoundsRegained), the batch's last state otherwise."""
    if not batch:
        return describe(event, state=recorded.after, before=recorded.before)
    before, after = _around(session, seq) if isinstance(event, ev.WoundsRegained) else (None, recorded.after)
    return describe(event, state=after, before=before)


def _around(session: RecordingSession, seq: int) -> tuple[GameState, GameState]:
    """The states before and after one event of a batch."""
    return session.store.state(session.game_id, seq - 1), session.store.state(session.game_id, seq)


@click.command(epilog=examples("ktlog undo 334f", "ktlog undo 334f --expect-seq 268 --json"))
@click.argument("game")
@click.option("--expect-seq", type=int, help="Refuse if another writer appended first.")
@json_option("the undo: game, seq, undone (the seq it voids), text")
@click.pass_context
def undo(ctx, game, expect_seq, as_json) -> None:
    """Void the latest effective event (undo). Nothing is deleted: the undo is an event too."""
    session = _session(ctx, game)
    recorded = session.undo(expected_seq=expect_seq)
    assert recorded.undone is not None, "an undo's outcome names the event it undid"
    text = undo_text(recorded.seq, *recorded.undone)
    if as_json:
        echo_json({"game": session.game_id, "seq": recorded.seq, "undone": recorded.undone[0], "text": text})
    else:
        click.echo(text)


@click.command(epilog=examples('ktlog correct 334f 36 Shot operative=gunner-plasma "weapon=Plasma gun (supercharge)" target=legionary-1 dice=6511 saves=65'))
@click.argument("game")
@click.argument("seq", type=int)
@click.argument("type_name", metavar="TYPE")
@click.argument("fields", nargs=-1, metavar="[FIELD=VALUE]...")
@click.option("--override", help="Keep the later events the correction makes illegal, for this reason.")
@click.option("--expect-seq", type=int, help="Refuse if another writer appended first.")
@json_option("the correction: game, seq, corrected (the seq), text, changes, kept (the later events kept with the override)")
@click.pass_context
def correct(ctx, game, seq, type_name, fields, override, expect_seq, as_json) -> None:
    """Correct the event at SEQ: it counts as TYPE FIELD=VALUE ... instead (a wrong die, target,
    damage). Nothing is deleted: the correction is an event, the log shows both, undo takes it
    back. The later events are checked again; one the correction makes illegal refuses it
    (naming its seq and the rule) unless --override gives the reason to keep it."""
    event = build_event(type_name, list(fields), None)
    session = _session(ctx, game)
    try:
        recorded = session.correct(seq, event, override=override, expected_seq=expect_seq)
    except RuleViolation as exc:
        if override and not exc.overridable:  # issue 25: the same refusal came back, as if the override had not been read
            raise KtlogError(
                f"{exc}; --override cannot keep this: it sets aside a game rule a kill team's own rule takes precedence over (pg 55), "
                "not an event that cannot be applied at all. Correct the event itself; nothing was recorded"
            ) from None
        raise
    text = describe(recorded.event)
    kept = [
        f"seq {warning.seq}, {warning.message} ({warning.rule})"
        for warning in recorded.after.warnings
        if warning.reason.startswith(f"corrected at seq {recorded.seq}:")
    ]
    if as_json:
        echo_json(
            {"game": session.game_id, "seq": recorded.seq, "corrected": seq, "text": text, "changes": changes(recorded.before, recorded.after), "kept": kept}
        )
        return
    click.echo(f"seq {recorded.seq}: {text}")
    for line in changes(recorded.before, recorded.after):
        click.echo(f"  {line}")
    for line in kept:
        click.echo(f"  kept with the override: {line}")


@click.command(epilog=examples('ktlog annotate 334f 36 "the turning point of the game"'))
@click.argument("game")
@click.argument("seq", type=int)
@click.argument("text")
@json_option("the note: game, seq (the note's own), note_on (the event's seq), text")
@click.pass_context
def annotate(ctx, game, seq, text, as_json) -> None:
    """Attach a comment to the event at SEQ."""
    session = _session(ctx, game)
    recorded = session.annotate(seq, text)
    if as_json:
        echo_json({"game": session.game_id, "seq": recorded.seq, "note_on": seq, "text": text})
    else:
        click.echo(f"seq {recorded.seq}: note on seq {seq}")


def _session(ctx, game: str) -> RecordingSession:
    store = open_store(ctx)
    return RecordingSession(store, store.resolve(game), expect_next=False)
