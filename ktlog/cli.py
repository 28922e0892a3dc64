"""The `ktlog` command. Errors print one clear line and exit with status 1, never a traceback."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import typing
from pathlib import Path

import click
import msgspec

from . import __version__, events as ev
from .errors import KtlogError, RosterError
from .gamelog import export_lines, import_file
from .notation import parse_dice, parse_steps
from .reducer import effective
from .replay import Replay
from .rosters import game_id_for, load_roster
from .rules import RULESETS
from .store import BUSY_TIMEOUT_MS, UI_BUSY_TIMEOUT_MS, Store, default_db_path
from .views import changes, describe, game_result, render_score, render_state, score_view, state_view

SAMPLE_GAMES = Path(__file__).resolve().parent.parent / "sample_games"


class KtlogGroup(click.Group):
    """Turns every ktlog error into one line on stderr and exit status 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KtlogError as exc:
            _fail(str(exc))
        except sqlite3.Error as exc:
            _fail(f"database problem: {exc}. Nothing was recorded; check the file given with --db (or KTLOG_DB)")
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # a bug: say so plainly, keep the traceback for KTLOG_DEBUG=1
            if os.environ.get("KTLOG_DEBUG"):
                raise
            _fail(f"unexpected {type(exc).__name__}: {exc}. This is a bug in ktlog; nothing was changed. Run again with KTLOG_DEBUG=1 and report it")


def _fail(message: str) -> typing.NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def _store(ctx: click.Context, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Store:
    obj = ctx.find_root().obj
    if obj.get("store") is None:
        obj["store"] = Store(obj["db"], busy_timeout_ms=busy_timeout_ms)
    return obj["store"]


def _json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(cls=KtlogGroup, invoke_without_command=True)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), envvar="KTLOG_DB", default=None,
              help="The database file (default: KTLOG_DB, else ktlog.db in your user data folder).")
@click.version_option(__version__, prog_name="ktlog")
@click.pass_context
def cli(ctx: click.Context, db: Path | None) -> None:
    """Record Kill Team matches as an append-only event log; replay and score them.

    With no command, loads the sample games and opens the terminal UI (`ktlog demo` is the
    text version).
    """
    ctx.obj = {"db": db or default_db_path(), "store": None}
    if ctx.invoked_subcommand is None:
        from tui.app import make_app  # the core never imports Textual; only the UI commands do

        store = _store(ctx, UI_BUSY_TIMEOUT_MS)
        _, results = _load_samples(store, SAMPLE_GAMES)
        make_app(store, screen="start").run()
        for problem in (r for r in results if isinstance(r, KtlogError)):
            click.echo(f"note: a sample game was not loaded: {problem}", err=True)


# --- recording -------------------------------------------------------------------------------


def _parse_player(spec: str) -> tuple[str, Path, list[str] | None]:
    name, sep, rest = spec.partition("=")
    if not sep or not name.strip() or not rest:
        raise RosterError(f"--player {spec!r}: write NAME=ROSTER.toml or NAME=ROSTER.toml:op1,op2")
    path, _, ops = rest.partition(":")
    return name.strip(), Path(path), [o.strip() for o in ops.split(",") if o.strip()] or None


@cli.command()
@click.option("--ruleset", type=click.Choice(sorted(RULESETS)), default="kt24-preliminary", show_default=True, help="The ruleset the game is played under.")
@click.option("--killzone", required=True, help="volkus, gallowdark, bheta-decima, or another killzone's name.")
@click.option("--date", default=lambda: dt.date.today().isoformat(), help="The day of the game (YYYY-MM-DD); default today.")
@click.option("--dataslate", help="The balance dataslate or errata the game is played under.")
@click.option("--mission", help="Mission or map label.")
@click.option("--league", help="League label.")
@click.option("--season", help="Season label.")
@click.option("--round", "round_", help="Round label.")
@click.option("--table", help="Table label.")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=ROSTER[:OP,OP]",
              help="A player and the roster file of their kill team, optionally the operatives selected for this battle. Once per player.")
@click.option("--npo", "npos", multiple=True, metavar="NAME=ROSTER[:OP,OP]",
              help="Joint Ops: the non-player operatives' side and its roster (e.g. sample_games/rosters/npo.toml); an OP named "
                   "several times is selected that many times (ids OP-1, OP-2 ...).")
@click.option("--json", "as_json", is_flag=True, help="Print the new game as JSON.")
@click.pass_context
def new(ctx, ruleset, killzone, date, dataslate, mission, league, season, round_, table, players, npos, as_json) -> None:
    """Create a game from flags and roster files; prints its id."""
    created = ev.GameCreated(ruleset=ruleset, killzone=killzone, date=date, dataslate=dataslate, mission=mission, league=league,
                             season=season, round=round_, table=table)
    setup: list[ev.Event] = []
    taken: set[str] = set()
    for spec, npo in [(p, False) for p in players] + [(p, True) for p in npos]:
        name, path, select = _parse_player(spec)
        roster = load_roster(path)
        setup.append(ev.PlayerJoined(player=name, kill_team=roster.name, faction=roster.faction, archetypes=roster.archetypes, npo=npo))
        repeated = {i for i in select or () if select.count(i) > 1}
        seen: dict[str, int] = {}
        for op in roster.select(select):
            seen[op.id] = seen.get(op.id, 0) + 1
            op_id = game_id_for(f"{op.id}-{seen[op.id]}" if op.id in repeated else op.id, name, taken)
            taken.add(op_id)
            setup.append(ev.OperativeAdded(player=name, operative=op_id, datacard=op.datacard))
    store = _store(ctx)
    game_id = store.new_game(created, setup)
    if as_json:
        _json({"id": game_id, "players": [p.partition("=")[0] for p in players + npos], "events": len(setup) + 1})
        return
    click.echo(game_id)
    click.echo(f"created {RULESETS[ruleset].title} game {game_id[:8]} with {len(setup) + 1} events; next: the set-up roll-off, e.g.", err=True)
    names = [p.partition("=")[0] for p in players + npos]
    click.echo(f"  ktlog event {game_id[:8]} RolledOff purpose=setup rolls={','.join(f'{n}:4' for n in names)}", err=True)


def _field_types(cls: type[ev.Event]) -> dict[str, typing.Any]:
    """The event's fields and their types (class variables such as `secret` are not fields)."""
    hints = typing.get_type_hints(cls)
    return {f: hints[f] for f in cls.__struct_fields__}


def _convert_value(field: str, raw: str, annotation: typing.Any):
    """FIELD=VALUE as typed at the prompt: dice as digits, lists with commas, else JSON or text."""
    text = str(annotation)
    if "Dice" in text and raw.replace(" ", "").isdigit():
        return {"rolls": list(parse_dice(raw, field))}
    if "FightStep" in text and not raw.lstrip().startswith("["):
        return [msgspec.to_builtins(s) for s in parse_steps(raw)]
    if text.startswith("dict[str, int]") and not raw.lstrip().startswith("{"):
        pairs = [p.split(":", 1) for p in raw.split(",") if p]
        if any(len(p) != 2 or not p[1].strip().isdigit() for p in pairs):
            raise ValueError("write NAME:NUMBER pairs separated by commas, e.g. Alice:4,Bob:2")
        return {k.strip(): int(v) for k, v in pairs}
    if text.startswith("dict[str") and not raw.lstrip().startswith("{"):
        pairs = [p.split(":", 1) for p in raw.split(",") if p]
        return {k.strip(): (v.strip() or None) for k, v in pairs}
    if text.startswith("tuple[str") and not raw.lstrip().startswith("["):
        return [x.strip() for x in raw.split(",") if x.strip()]
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


SHOT_SHORTHAND = ("target", "dice", "saves", "cover", "obscured", "accurate", "damage", "rerolls", "save_rerolls")


def build_event(type_name: str, assignments: list[str], override: str | None) -> ev.Event:
    """An event from `TYPE FIELD=VALUE ...`. A Shot at one target may use the flat fields
    target, dice, saves, cover, obscured, accurate, damage, rerolls, save_rerolls."""
    try:
        cls = ev.event_type(type_name)
    except KeyError:
        raise KtlogError(f"unknown event type {type_name!r}; `ktlog event --types` lists them") from None
    hints = _field_types(cls)
    payload: dict[str, typing.Any] = {}
    shot: dict[str, typing.Any] = {}
    for item in assignments:
        field, sep, raw = item.partition("=")
        if not sep:
            raise KtlogError(f"{item!r} is not FIELD=VALUE")
        if issubclass(cls, ev.Shot) and field in SHOT_SHORTHAND:  # KT21 Overwatch too
            shot[field] = raw
            continue
        if field not in hints or field in ("version", "meta"):
            raise KtlogError(f"{cls.__name__} has no field {field!r}; its fields: {', '.join(f for f in hints if f not in ('version', 'meta', 'name', 'cost', 'moves', 'mission'))}")
        try:
            payload[field] = _convert_value(field, raw, hints[field])
        except ValueError as exc:
            raise KtlogError(f"{field}={raw!r}: {exc}; see `ktlog event --help` for how to write values") from None
    if shot:
        payload["attacks"] = [_shot_attack(shot)]
    if override:
        payload["override"] = override
    try:
        return msgspec.convert(payload, cls)
    except msgspec.ValidationError as exc:
        message, _, path = str(exc).partition(" - at `$")
        where = path.rstrip("`").lstrip(".")
        choices = typing.get_args(hints[where]) if typing.get_origin(hints.get(where)) is typing.Literal else ()
        if choices:
            message += f"; {where} is one of {', '.join(choices)}"
        raise KtlogError(f"{cls.__name__}: {message}" + (f" (field {where})" if where else "")) from None


def _shot_attack(shot: dict[str, str]) -> dict:
    from .notation import parse_rerolls

    attack: dict[str, typing.Any] = {"target": shot.get("target", "")}
    if "dice" in shot:
        attack["attack_dice"] = {"rolls": list(parse_dice(shot["dice"], "dice")), "rerolls": [msgspec.to_builtins(r) for r in parse_rerolls(shot.get("rerolls", ""))]}
        attack["defence_dice"] = {"rolls": list(parse_dice(shot.get("saves", ""), "saves")), "rerolls": [msgspec.to_builtins(r) for r in parse_rerolls(shot.get("save_rerolls", ""))]}
    for flag in ("cover", "obscured"):
        if flag in shot:
            attack[flag] = shot[flag].lower() in ("1", "true", "yes", "y")
    for number in ("accurate", "damage"):
        if number in shot:
            attack[number] = int(shot[number])
    return attack


def _types_help() -> str:
    lines = []
    for name, cls in ev.EVENT_TYPES.items():
        fields = [f for f in cls.__struct_fields__ if f != "override"]
        lines.append(f"  {name:<26} {' '.join(fields)}")
    return "\n".join(lines)


@cli.command("event")
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
        click.echo("Event types and their fields:\n" + _types_help())
        return
    store = _store(ctx)
    game_id = store.resolve(game)
    event = build_event(type_name, list(fields), override)
    before = store.state(game_id)
    envelope = store.append(game_id, event, expected_seq=expect_seq)
    after = store.state(game_id)
    click.echo(f"seq {envelope.seq}: {describe(event)}")
    for line in changes(before, after):
        click.echo(f"  {line}")


@cli.command()
@click.argument("game")
@click.option("--expect-seq", type=int, help="Refuse if another writer appended first.")
@click.pass_context
def undo(ctx, game, expect_seq) -> None:
    """Void the latest effective event (undo). Nothing is deleted: the undo is an event too."""
    store = _store(ctx)
    game_id = store.resolve(game)
    target = store.latest_effective(game_id)
    target_event = store.events(game_id, upto=target, after=target - 1)[0]
    envelope = store.undo(game_id, expected_seq=expect_seq)
    click.echo(f"seq {envelope.seq}: undid seq {target} ({describe(target_event.payload)})")


@cli.command()
@click.argument("game")
@click.argument("seq", type=int)
@click.argument("text")
@click.pass_context
def annotate(ctx, game, seq, text) -> None:
    """Attach a comment to the event at SEQ."""
    store = _store(ctx)
    envelope = store.annotate(store.resolve(game), seq, text)
    click.echo(f"seq {envelope.seq}: note on seq {seq}")


# --- reading ---------------------------------------------------------------------------------


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list (id, status, players, result, ...).")
@click.pass_context
def games(ctx, as_json) -> None:
    """List the games in the database."""
    rows = _store(ctx).games()
    if as_json:
        _json([
            {"id": g.id, "status": g.status, "ruleset": g.ruleset, "killzone": g.killzone, "date": g.date, "labels": g.labels,
             "players": g.players, "kill_teams": g.kill_teams, "result": g.result, "events": g.head_seq}
            for g in rows
        ])
        return
    if not rows:
        click.echo("no games yet: `ktlog new` records one, `ktlog import FILE` loads one")
        return
    for g in rows:
        who = " vs ".join(f"{p} ({t})" for p, t in zip(g.players, g.kill_teams))
        result = game_result(g) if g.result else g.status
        click.echo(f"{g.id[:8]}  {g.date}  {g.ruleset:<17} {who}  [{result}]  {g.head_seq} events")


def _state_for(store: Store, game_id: str, at: int | None, tp: int | None):
    if at is not None and tp is not None:
        raise KtlogError("give --at SEQ or --tp N, not both")
    if tp is not None:
        replay = Replay.open(store, game_id)
        return replay.seek(replay.turning_point_end(tp))
    if at is not None and at < 0:
        raise KtlogError("--at takes a seq of 0 or more")
    return store.state(game_id, at)


@cli.command()
@click.argument("game")
@click.option("--at", type=int, help="The state just after this seq.")
@click.option("--tp", type=int, help="The state at the end of this turning point.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
@click.option("--spectator", is_flag=True, help="Hide secret choices (tac op, scouting, primary op) not yet revealed.")
@click.pass_context
def show(ctx, game, at, tp, as_json, spectator) -> None:
    """The state of a game at a moment (default: now)."""
    store = _store(ctx)
    game_id = store.resolve(game)
    state = _state_for(store, game_id, at, tp)
    if as_json:
        _json(state_view(game_id, state, spectator=spectator))
    else:
        click.echo(render_state(game_id, state, spectator=spectator))


@cli.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON envelopes.")
@click.option("--spectator", is_flag=True, help="Hide secret choices not yet revealed (JSON: their payload keeps only type and player).")
@click.pass_context
def log(ctx, game, as_json, spectator) -> None:
    """The events of a game in order; undone ones are marked, notes shown under their event."""
    store = _store(ctx)
    game_id = store.resolve(game)
    envelopes = store.events(game_id)
    state = store.state(game_id)
    records = [(e.seq, e.payload) for e in envelopes]
    kept = {seq for seq, _ in effective(records)}
    voided_by = {e.payload.target: e.seq for e in envelopes if isinstance(e.payload, ev.EventVoided)}
    if as_json:
        hidden = RULESETS[state.ruleset].hidden if spectator else lambda state, event: False
        shown = (_redacted(e) if hidden(state, e.payload) else e for e in envelopes)
        click.echo("[" + ",\n".join(msgspec.json.encode(x).decode() for x in shown) + "]")
        return
    notes: dict[int, list[str]] = {}
    for e in envelopes:
        if isinstance(e.payload, ev.Annotation) and e.seq in kept:
            notes.setdefault(e.payload.target, []).append(e.payload.text)
    for e in envelopes:
        if isinstance(e.payload, ev.Annotation):
            continue
        mark = f"  [undone by seq {voided_by[e.seq]}]" if e.seq not in kept and e.seq in voided_by else ""
        override = f"  [override: {e.payload.override}]" if e.payload.override else ""
        click.echo(f"{e.seq:>5}  {describe(e.payload, spectator, state)}{override}{mark}")
        for text in notes.get(e.seq, []):
            click.echo(f"         # {text}")


def _redacted(envelope: ev.Envelope) -> dict:
    """An envelope whose secret payload a spectator may not see yet: type and player only."""
    data = msgspec.to_builtins(envelope)
    data["payload"] = {"type": envelope.type, "player": getattr(envelope.payload, "player", None), "hidden": True}
    return data


@cli.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON (format in the README).")
@click.pass_context
def score(ctx, game, as_json) -> None:
    """VP by op and in total, kill grade, and the winner or a draw."""
    store = _store(ctx)
    game_id = store.resolve(game)
    state = store.state(game_id)
    if as_json:
        _json(score_view(game_id, state))
    else:
        click.echo(render_score(game_id, state))


# --- files -----------------------------------------------------------------------------------


@cli.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.pass_context
def import_cmd(ctx, files) -> None:
    """Import game-log files (each whole or not at all; importing twice changes nothing)."""
    store = _store(ctx)
    failed = 0
    with store.batch():
        for path in files:
            try:
                click.echo(import_file(store, path).describe())
            except KtlogError as exc:
                failed += 1
                click.echo(f"error: {exc}", err=True)
    if failed:
        sys.exit(1)


@cli.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file instead of standard output.")
@click.pass_context
def export(ctx, game, output) -> None:
    """Write a game's game-log file (JSON Lines: a header, then one event per line)."""
    store = _store(ctx)
    data = b"\n".join(export_lines(store, store.resolve(game))) + b"\n"
    if output:
        try:
            output.write_bytes(data)
        except OSError as exc:
            raise KtlogError(f"cannot write {output}: {exc.strerror}") from exc
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(data.decode(), nl=False)


# --- maintenance -----------------------------------------------------------------------------


@cli.command("verify")
@click.argument("game", required=False)
@click.pass_context
def verify_cmd(ctx, game) -> None:
    """Re-check every game (or one): hash chain, event schemas, and the rules by re-folding."""
    from .verify import verify

    store = _store(ctx)
    verdicts = verify(store, [store.resolve(game)] if game else None)
    for v in verdicts:
        click.echo(v.describe())
    bad = [v for v in verdicts if not v.ok]
    if bad:
        click.echo(f"{len(bad)} of {len(verdicts)} games failed verification", err=True)
        sys.exit(1)
    click.echo(f"all {len(verdicts)} games verified")


@cli.command()
@click.pass_context
def rebuild(ctx) -> None:
    """Rebuild the projection tables and snapshots from the event log."""
    count = _store(ctx).rebuild()
    click.echo(f"rebuilt projections and snapshots of {count} games")


@cli.command()
@click.option("--games", "count", type=click.IntRange(1), default=10, show_default=True, help="How many games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed (the same seed plays the same games).")
@click.option("--league", default="Simulated League", show_default=True, help="League label of the games.")
@click.option("--ruleset", default="kt24-preliminary", show_default=True, help="The ruleset of the games (those with a simulator).")
@click.pass_context
def simulate(ctx, count, seed, league, ruleset) -> None:
    """Play random legal games through the rules and store them."""
    from .simulate import simulate_into

    store = _store(ctx)
    ids = simulate_into(store, count, seed, league=league, ruleset=ruleset)
    click.echo(f"simulated {len(ids)} games into {store.path or ':memory:'}")


@cli.command()
@click.option("--samples", type=click.Path(file_okay=False, path_type=Path), default=SAMPLE_GAMES, show_default=True, help="Folder of game-log files.")
@click.pass_context
def demo(ctx, samples) -> None:
    """Load the sample games into the database and replay one (ktlog's main job, for now)."""
    from .views import render_replay_summary

    store = _store(ctx)
    files, results = _load_samples(store, samples)
    for result in results:
        if isinstance(result, KtlogError):
            raise result
        click.echo(result.describe())
    games_by_id = {g.id: g for g in store.games()}
    first = _header_game_id(files[0])
    click.echo("")
    click.echo(render_replay_summary(first, Replay.open(store, first)))
    click.echo("")
    click.echo(render_score(first, store.state(first)))
    me = "ktlog" if shutil.which("ktlog") else sys.argv[0]
    click.echo(f"\nDatabase: {store.path}  ({len(games_by_id)} games). Try: {me} games, {me} show {first[:8]} --tp 2, {me} log {first[:8]}")


@cli.command()
@click.argument("game", required=False)
@click.pass_context
def record(ctx, game) -> None:
    """Record a game live in the terminal UI: a new one, or resume GAME."""
    from tui.app import make_app  # the core never imports Textual; only these commands do

    store = _store(ctx, UI_BUSY_TIMEOUT_MS)
    make_app(store, screen="record" if game else "new", game_id=store.resolve(game) if game else None).run()


@cli.command()
@click.argument("game")
@click.option("--spectator", is_flag=True, help="Hide secret choices until they are revealed.")
@click.pass_context
def replay(ctx, game, spectator) -> None:
    """Replay a game step by step in the terminal UI."""
    from tui.app import make_app

    store = _store(ctx, UI_BUSY_TIMEOUT_MS)
    make_app(store, screen="replay", game_id=store.resolve(game), spectator=spectator).run()


def _load_samples(store: Store, samples: Path):
    """Import the sample game-log files (again: importing twice changes nothing). Returns the
    files and, for each, its import report or the error that kept it out."""
    files = sorted(Path(samples).glob("*.jsonl"))
    if not files:
        raise KtlogError(f"no sample games (*.jsonl) in {samples}; pass --samples DIR")
    results = []
    with store.batch():
        for path in files:
            try:
                results.append(import_file(store, path))
            except KtlogError as exc:
                results.append(exc)
    return files, results


def _header_game_id(path: Path) -> str:
    with open(path, "rb") as f:
        return json.loads(f.readline())["game_id"]


def _add_analytics() -> None:
    from .analytics.commands import chart, report, stats

    for command in (stats, chart, report):
        cli.add_command(command)


_add_analytics()


def main() -> None:
    cli(prog_name="ktlog")
