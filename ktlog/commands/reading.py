"""`ktlog games`, `show`, `log` and `score`: a game's state, events and result, as text or JSON."""

from __future__ import annotations

import click
import msgspec

from .. import events as ev
from ..data import sample_game_ids
from ..errors import KtlogError
from ..play.database import Store
from ..play.replay import Replay
from ..play.timeline import Timeline
from ..text.describe import describe
from ..text.json_views import game_row, score_view, state_view
from ..text.plural import counted
from ..text.render import render_score, render_state
from ..text.results import game_result
from .context import echo, echo_json, examples, open_store, warn_passed_over


@click.command(epilog=examples("ktlog games", "ktlog games --json"))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list (id, status, players, result, ...).")
@click.pass_context
def games(ctx, as_json) -> None:
    """List the games in the database, newest first (as the terminal UI does)."""
    rows = open_store(ctx).games()[::-1]
    if as_json:
        echo_json([game_row(g) for g in rows])
        return
    if not rows:
        echo("no games yet: `ktlog new` records one, `ktlog import FILE` loads one")
        return
    samples = sample_game_ids()
    for g in rows:
        who = " vs ".join(f"{p} ({t})" for p, t in zip(g.players, g.kill_teams))
        result = game_result(g.ruleset, g.result) if g.result else g.status
        echo(
            f"{g.id[:8]}  {g.date}  {g.ruleset:<17} {who}  [{result}]  {counted(g.head_seq, 'event')}{'  (simulated)' * g.simulated}{'  (sample)' * (g.id in samples)}"
        )


def _state_for(store: Store, game_id: str, at: int | None, tp: int | None):
    if at is not None and tp is not None:
        raise KtlogError("give --at SEQ or --tp N, not both")
    if tp is not None:
        replay = Replay.open(store, game_id)
        return replay.seek(replay.timeline.turning_point_end(tp))
    if at is not None and at < 0:
        raise KtlogError("--at takes a seq of 0 or more")
    state = store.state(game_id, at)
    if at is not None and at > state.seq:  # issue 24 #25: the end was shown as if it were seq `at`
        raise KtlogError(f"game {game_id[:8]} has {state.seq} events: give --at a seq from 0 to {state.seq}")
    return state


@click.command(epilog=examples("ktlog show 334f", "ktlog show 334f --tp 2", "ktlog show 334f --at 120 --json", "ktlog show 5d0c --spectator"))
@click.argument("game")
@click.option("--at", type=int, help="The state just after this seq.")
@click.option("--tp", type=int, help="The state at the end of this turning point.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON.")
@click.option("--spectator", is_flag=True, help="Hide secret choices (tac op, scouting, primary op) not yet revealed.")
@click.pass_context
def show(ctx, game, at, tp, as_json, spectator) -> None:
    """The state of a game at a moment (default: now)."""
    store = open_store(ctx)
    game_id = store.resolve(game)
    state = _state_for(store, game_id, at, tp)
    warn_passed_over(store)
    if as_json:
        echo_json(state_view(game_id, state, spectator=spectator))
    else:
        echo(render_state(game_id, state, spectator=spectator))


@click.command(epilog=examples("ktlog log 334f", "ktlog log 334f --json", "ktlog log 5d0c --spectator"))
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON envelopes.")
@click.option("--spectator", is_flag=True, help="Hide secret choices not yet revealed (JSON: their payload keeps only type and player).")
@click.pass_context
def log(ctx, game, as_json, spectator) -> None:
    """The events of a game in order; undone and corrected ones are marked, notes shown under their event."""
    store = open_store(ctx)
    game_id = store.resolve(game)
    timeline = Timeline(store.events(game_id))
    state = store.state(game_id)
    if as_json:
        shown = (
            (_redacted(e) if spectator and timeline.hidden(state, e.payload) else msgspec.to_builtins(e)) | {"by": e.payload.seat or "table"}
            for e in timeline.envelopes
        )
        echo("[" + ",\n".join(msgspec.json.encode(x).decode() for x in shown) + "]")
        return
    for e in timeline.envelopes:
        if isinstance(e.payload, ev.Annotation):
            continue
        mark = f"  [undone by seq {timeline.undone_by[e.seq]}]" if e.seq in timeline.undone_by else ""
        mark += f"  [corrected by seq {timeline.corrected_by[e.seq]}]" if e.seq in timeline.corrected_by else ""
        override = f"  [override: {e.payload.override}]" if e.payload.override else ""
        override += f"  [by {e.payload.seat}'s seat]" if e.payload.seat else ""
        echo(f"{e.seq:>5}  {describe(e.payload, spectator, state)}{override}{mark}")
        for text in timeline.notes.get(e.seq, []):
            echo(f"         # {text}")


def _redacted(envelope: ev.Envelope) -> dict:
    """An envelope whose secret payload a spectator may not see yet: type and player only."""
    data = msgspec.to_builtins(envelope)
    data["payload"] = {"type": envelope.type, "player": getattr(envelope.payload, "player", None), "hidden": True}
    return data


@click.command(epilog=examples("ktlog score 334f", "ktlog score 334f --json"))
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print the score as JSON (format in docs/file-formats.md).")
@click.pass_context
def score(ctx, game, as_json) -> None:
    """VP by op and in total, kill grade, and the winner or a draw."""
    store = open_store(ctx)
    game_id = store.resolve(game)
    state = store.state(game_id)
    warn_passed_over(store)
    if as_json:
        echo_json(score_view(game_id, state))
    else:
        echo(render_score(game_id, state))
