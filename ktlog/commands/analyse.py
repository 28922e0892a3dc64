"""`ktlog analyse fit` and `ktlog analyse GAME`: the win-probability models (one per ruleset), and
a game's chances, key moments, expected VP added, luck and what-ifs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import KtlogError
from .context import database_path, echo, echo_json, examples, open_store, warn_passed_over

if TYPE_CHECKING:  # Polars and the fitting load only for `analyse fit`
    from ..analytics.key_moments import Analysis
    from ..analytics.winprob import Models, WinModel
    from ..analytics.winprob_rollout import WhatIf
    from ..play.database import GameRow, Store


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
    """Win probability: fit the models (analyse fit), or read a game (analyse GAME).

    `analyse fit` fits one model per ruleset on the league's finished games; `analyse GAME` shows
    a game's chances, the moments that moved them, the expected VP each operative added, the luck
    of the dice by what it caused, and (--what-if SEQ) a move against simulated play."""


MODEL_OPTION = click.option("--model", "model_file", type=click.Path(path_type=Path), help="The models file (default: beside the database, DB.winprob.json).")


@analyse.command(epilog=examples("ktlog analyse fit", "ktlog analyse fit --ruleset kt21 --json"))
@click.option("--source", hidden=True, help="Refused: a dataset holds no events to read the board from.")
@click.option(
    "--include-simulated",
    "--simulated",
    "include_simulated",
    is_flag=True,
    help="Fit on the games `ktlog simulate` played too (the model then says so wherever it is shown).",
)
@click.option("--ruleset", help="Fit this ruleset's model only (the others stored are kept).")
@MODEL_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the stored models as JSON.")
@click.pass_context
def fit(ctx, source: str | None, include_simulated: bool, ruleset: str | None, model_file: Path | None, as_json: bool) -> None:
    """Fit one model per ruleset on its finished games, score each by cross-validation split by
    game against a coin and the VP baseline, and store them beside the database."""
    import msgspec

    from ..analytics import winprob
    from ..rulesets import RULESETS

    if source is not None:
        raise KtlogError(
            "the models read the board at every moment (markers, operatives, wounds ...), which only a game's events give, and a dataset"
            " holds none: fit on the database (`ktlog analyse fit`, --db FILE)"
        )
    if ruleset is not None and ruleset not in RULESETS:
        raise KtlogError(f"no ruleset {ruleset!r}; rulesets: {', '.join(RULESETS)}")
    store = open_store(ctx)
    db = database_path(ctx)
    path = model_file or winprob.model_path(db)
    kept = winprob.load(path)  # before anything is fitted or written: a folder, a pipe or a file too large is refused
    rows = [g for g in store.games() if g.status == "finished" and (include_simulated or not g.simulated) and g.ruleset in RULESETS]
    names = [ruleset] if ruleset else sorted({g.ruleset for g in rows})
    if not names:
        skipped = sum(g.status == "finished" for g in store.games())
        hint = " (they are all simulated: add --include-simulated)" if skipped else ""
        raise KtlogError(f"no finished game to fit on{hint}; record or import games (`ktlog simulate` plays some, then --include-simulated)")
    stored = fit_each(store, rows, names, kept if ruleset else None, str(db))
    winprob.save(stored, path)
    if as_json:
        echo_json(msgspec.to_builtins(stored))
        return
    echo(fit_text(stored, path))


def fit_each(store: Store, rows: list[GameRow], names: list[str], kept: Models | None, source: str) -> Models:
    """Each ruleset named fitted on its games among `rows` (or why not), the models `kept` of the
    others as they were."""
    from ..analytics import winprob
    from ..analytics.winprob_fit import league_model

    models = dict(kept.models) if kept else {}
    unfitted = dict(kept.unfitted) if kept else {}
    for name in names:
        games = [g for g in rows if g.ruleset == name]
        echo(f"fitting {name} on {len(games)} finished game(s)...", err=True)
        got = league_model(name, ((store.records(g.id), g.simulated) for g in games), source=source)
        models.pop(name, None)
        unfitted.pop(name, None)
        if isinstance(got, str):
            unfitted[name] = got
        else:
            models[name] = got
    return winprob.Models(models=models, unfitted=unfitted)


def fit_text(stored: Models, path: Path) -> str:
    """The fitting's report: each ruleset's model with its held-out scores, or why none was fitted."""
    from ..analytics.winprob import defaults

    lines = [f"stored in {path}"]
    for _, model in sorted(stored.models.items()):
        lines += ["", *model_text(model)]
    for name, why in sorted(stored.unfitted.items()):
        default = defaults().models.get(name)
        instead = f"its default is used: {default.describe()}" if default else "its games show no win probability"
        lines += ["", f"{name}: no model fitted ({why}); {instead}"]
    return "\n".join(lines)


def model_text(model: WinModel) -> list[str]:
    lines = [f"{model.describe()}; {model.rows} rows (a player at a moment)", f"held out ({model.held_out}):"]
    lines += [f"  {name:<9} Brier {s.brier:.4f}  log loss {s.log_loss:.4f}" for name, s in model.scores.items()]
    lines += [f"  expected VP margin at the end: root mean square error {model.margin_error:.2f} VP"]
    lines += ["calibration (held out): predicted  won  rows"]
    lines += [f"  {b.low:.1f}-{b.high:.1f}  {b.predicted:9.3f}  {b.observed:.3f}  {b.rows}" for b in model.calibration]
    lines += [
        f"sharpness ({n} players), the win score's multiplier in TP1, TP2 ... (fitted out of fold): " + " ".join(f"{a:.2f}" for a in by_tp)
        for n, by_tp in sorted(model.sharpness.items())
    ]
    lines += ["by turning point (held out): Brier  favourite won  rows"]
    lines += [f"  TP{t.turning_point}  {t.brier:.4f}  {t.favourite_won:.1%}  {t.rows}" for t in model.by_turning_point]
    return lines


@analyse.command(hidden=True, epilog=examples("ktlog analyse 334f", "ktlog analyse 334f --top 10 --spectator --json", "ktlog analyse 334f --what-if 120"))
@click.argument("game")
@click.option("--top", type=click.IntRange(1, 100), default=5, show_default=True, help="How many key moments to list.")
@click.option("--spectator", is_flag=True, help="Describe the events as a spectator sees them (secret choices hidden).")
@click.option(
    "--what-if", "what_if_seq", type=click.IntRange(1), help="Play on from the move at this seq, and from the moment before it, against simulated play."
)
@click.option("--continuations", type=click.IntRange(10, 5000), default=200, show_default=True, help="How many games --what-if plays on from each moment.")
@click.option("--seed", type=int, default=1, show_default=True, help="The dice of --what-if's continuations.")
@MODEL_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the curve, the key moments, EPA, luck and swings as JSON.")
@click.pass_context
def game(ctx, game: str, top: int, spectator: bool, what_if_seq: int | None, continuations: int, seed: int, model_file: Path | None, as_json: bool) -> None:
    """A game's chances, key moments, expected VP added by each operative, and luck."""
    import msgspec

    from ..analytics import winprob
    from ..analytics.key_moments import analyse as analyse_game

    if model_file is not None and not model_file.exists():
        raise KtlogError(f"{model_file}: no such file; give a models file `ktlog analyse fit --model {model_file}` wrote, or leave --model out")
    store = open_store(ctx)
    game_id = store.resolve(game)
    records = store.records(game_id)
    warn_passed_over(store)
    ruleset = store.game(game_id).ruleset
    result, _ = analyse_game(records, winprob.model_for(database_path(ctx), ruleset, model_file), top=top, spectator=spectator)
    asked = None
    if what_if_seq is not None:
        from ..analytics.winprob_rollout import what_if

        asked = what_if(records, what_if_seq, continuations, seed)
    if as_json:
        echo_json({"game": game_id, **msgspec.to_builtins(result), **({"what_if": msgspec.to_builtins(asked)} if asked else {})})
        return
    echo(game_text(game_id, result) + (f"\n\n{what_if_text(asked)}" if asked else ""))


def game_text(game_id: str, result: Analysis) -> str:
    """The chances now (or the result), the key moments, EPA, luck and each player's swing, in words."""
    from ..analytics.winprob import percent

    head = f"game {game_id[:8]} ({result.ruleset})"
    if not result.fitted or not result.curve:
        return f"{head}: no win probability\n{result.model}"
    seq, last = result.curve[-1]
    decided = result.decided is not None
    where = "the result" if decided else f"after seq {seq}"
    lines = [f"{head}, {where}: " + ", ".join(f"{p} {percent(c, decided)}" for p, c in zip(result.players, last)), f"model: {result.model}", "", "key moments:"]
    lines += [f"  seq {m.seq:>4} TP{m.turning_point}  {m.player} {m.change:+.0%} ({m.epa:+.1f} VP)  {m.description}" for m in result.moments] or [
        "  none: no move changed the chances"
    ]
    lines += ["", "expected VP added (EPA: the expected VP margin at the end, after each move less before), by operative:"]
    for player in result.players:
        mine = [c for c in result.epa if c.player == player]
        parts = ", ".join(f"{c.operative or 'ploys, gambits and scoring'} {c.epa:+.1f} ({c.events})" for c in mine if c.epa)
        lines.append(f"  {player}: {sum(c.epa for c in mine):+.1f} VP" + (f" ({parts})" if parts else ""))
    lines += ["", "luck of the dice, by what it caused:"]
    lines += [f"  {x.player}: {x.vp:+.2f} VP, {x.chance:+.0%} chance ({x.shots} shots)" for x in result.luck]
    lines += [f"  method: {result.luck_method}", "", "swing (chance at the end less at the start):"]
    lines += [f"  {s.player}: {s.total:+.0%} = dice {s.dice:+.0%} + the rest {s.rest:+.0%}" for s in result.swings]
    return "\n".join(lines)


def what_if_text(w: WhatIf) -> str:
    made = ", ".join(f"{p} {c:.0%}" for p, c in zip(w.made.players, w.made.chances))
    instead = ", ".join(f"{p} {c:.0%}" for p, c in zip(w.instead.players, w.instead.chances))
    return "\n".join(
        [
            f"what if, at seq {w.seq} ({w.event}), {w.made.label} ({w.made.continuations} continuations from each moment, the same dice):",
            f"  after the move made:                 {made}",
            f"  had simulated play moved instead:    {instead}",
            f"  the move was worth {w.swing:+.0%} to {w.player} ({w.vp:+.1f} VP at the end)",
        ]
    )
