"""`ktlog analyse fit` and `ktlog analyse GAME`: the win-probability model and a game's key moments."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import KtlogError
from .context import database_path, echo, echo_json, examples, open_store, warn_passed_over

if TYPE_CHECKING:  # scikit-learn, Polars and the analytics load only when a subcommand runs
    from ..analytics.key_moments import Analysis
    from ..analytics.winprob import WinModel


class GameOrCommand(click.Group):
    """`analyse fit ...` runs `fit`; `analyse GAME ...` runs the hidden `game` command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["game", *args]
        return super().parse_args(ctx, args)


@click.group(
    cls=GameOrCommand,
    epilog=examples(
        "ktlog analyse fit", "ktlog analyse 334f              # a game's key moments and swings (GAME: its id or the start of it)", "ktlog analyse 334f --json"
    ),
)
def analyse() -> None:
    """Win probability: fit the model (analyse fit), or a game's key moments and swings (analyse GAME).

    `analyse fit` fits the model on the league's finished games; `analyse GAME` lists the events
    that moved a game's win probability most, and each player's swing split into their dice and
    the rest."""


MODEL_OPTION = click.option(
    "--model", "model_file", type=click.Path(dir_okay=False, path_type=Path), help="The model file (default: beside the database, DB.winprob.json)."
)


@analyse.command(epilog=examples("ktlog analyse fit", "ktlog analyse fit --source league-dataset --json"))
@click.option(
    "--source",
    help="Fit on this Parquet dataset (`ktlog dataset export`: a folder or s3://BUCKET/PREFIX) instead of the database.",
)
@click.option(
    "--include-simulated",
    "--simulated",
    "include_simulated",
    is_flag=True,
    help="Fit on the games `ktlog simulate` played too (the model then says so wherever it is shown).",
)
@MODEL_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the stored model as JSON.")
@click.pass_context
def fit(ctx, source: str | None, include_simulated: bool, model_file: Path | None, as_json: bool) -> None:
    """Fit the model on the finished two-player games, score it by cross-validation split by game
    against a coin and the baseline (VP difference with turning point), and store it beside the
    database."""
    import msgspec

    from ..analytics import winprob
    from ..analytics.columns import METADATA, check_layout, is_dataset
    from ..analytics.league import Filters, League
    from ..analytics.place import Place

    db = database_path(ctx)
    place = Place.of(source) if source is not None else None
    if place is not None and not is_dataset(place):
        raise KtlogError(f"{source} is not a ktlog dataset (it has no {METADATA}); write one with `ktlog dataset export {source}`")
    if place is not None:
        check_layout(place)
    else:
        open_store(ctx)  # a missing or wrong file gets the store's message; an older one is migrated
    league = League(place or db, Filters(simulated=True if include_simulated else None))
    model = winprob.fit(league)
    path = model_file or winprob.model_path(db)
    winprob.save(model, path)
    if as_json:
        echo_json(msgspec.to_builtins(model))
        return
    echo(fit_text(model, path))


def fit_text(model: WinModel, path: Path) -> str:
    """The fitting's report: the model, the out-of-fold scores and the calibration table."""
    lines = [f"{model.describe()}; {model.rows} rows (a player at a moment)", f"stored in {path}", "", "cross-validated by game (5 folds):"]
    lines += [f"  {name:<9} Brier {s.brier:.4f}  log loss {s.log_loss:.4f}" for name, s in model.scores.items()]
    lines += ["", "calibration (out of fold): predicted  won  rows"]
    lines += [f"  {b.low:.1f}-{b.high:.1f}  {b.predicted:9.3f}  {b.observed:.3f}  {b.rows}" for b in model.calibration]
    lines += ["", "by turning point (out of fold): Brier  favourite won  rows"]
    lines += [f"  TP{t.turning_point}  {t.brier:.4f}  {t.favourite_won:.1%}  {t.rows}" for t in model.by_turning_point]
    lines += ["", "coefficients: " + ", ".join(f"{f} {c:+.4f}" for f, c in zip(model.features, model.coefficients))]
    return "\n".join(lines)


@analyse.command(hidden=True, epilog=examples("ktlog analyse 334f", "ktlog analyse 334f --top 10 --spectator --json"))
@click.argument("game")
@click.option("--top", type=click.IntRange(1, 100), default=5, show_default=True, help="How many moments to list.")
@click.option("--spectator", is_flag=True, help="Describe the events as a spectator sees them (secret choices hidden).")
@MODEL_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the curve, the moments and the swings as JSON.")
@click.pass_context
def game(ctx, game: str, top: int, spectator: bool, model_file: Path | None, as_json: bool) -> None:
    """A game's key moments and each player's swing (dice and the rest)."""
    import msgspec

    from ..analytics import winprob
    from ..analytics.key_moments import analyse as analyse_game

    store = open_store(ctx)
    game_id = store.resolve(game)
    envelopes = store.events(game_id)
    state = store.state(game_id)
    warn_passed_over(store)
    model = winprob.model_for(database_path(ctx), model_file)
    result = analyse_game(state, model, {e.seq: e.payload for e in envelopes}, top=top, spectator=spectator)
    if as_json:
        echo_json({"game": game_id, **msgspec.to_builtins(result)})
        return
    echo(game_text(game_id, result))


def game_text(game_id: str, result: Analysis) -> str:
    """The end's probability, the key moments and each player's swing, in words."""
    first, second = result.players
    end = result.curve[-1][1]
    lines = [f"game {game_id[:8]}: {first} {end:.0%} to win, {second} {1 - end:.0%} at the end", f"model: {result.model}", "", "key moments:"]
    lines += [f"  seq {m.seq:>4} TP{m.turning_point}  {m.gainer} {m.change:+.0%}  {m.description}" for m in result.moments] or ["  none: no event moved it"]
    lines += ["", "swing (probability at the end less at the start):"]
    lines += [f"  {s.player}: {s.total:+.0%} = dice {s.dice:+.0%} + the rest {s.rest:+.0%}" for s in result.swings]
    return "\n".join(lines)
