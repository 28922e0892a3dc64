"""One game through the win-probability model: the probability at every moment, the events that
moved it most, and each player's swing split into their dice and the rest.

The dice part of an attack's swing is what the model gives for the damage the dice did beyond
the expected damage of such dice (`AttackRecord.expected_damage`, as `stats dice` counts luck:
shooting with dice only): the probability at that moment less the probability had the damage
been the expected one. What followed from the damage (an incapacitation, VP) is not undone: that
would be playing the rules again. Everything else is the rest.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
import polars as pl

from ..errors import KtlogError
from ..events import Event
from ..state import GameState
from ..text.describe import describe
from .winprob import WinModel, logit, probability
from .winprob_features import moments, state_logs, state_players

TOP = 5


class Moment(msgspec.Struct, frozen=True):
    seq: int
    turning_point: int
    description: str
    gainer: str
    change: float
    """How much the gainer's probability rose at this event (0..1)."""
    probability: float
    """The first player's probability after it."""


class Swing(msgspec.Struct, frozen=True):
    player: str
    total: float
    """Their probability at the end less at the start."""
    dice: float
    rest: float


class Analysis(msgspec.Struct, frozen=True):
    players: list[str]
    curve: list[tuple[int, float]]
    """(seq, the first player's probability) at seq 0 and each moment."""
    moments: list[Moment]
    swings: list[Swing]
    model: str


def curve_rows(state: GameState, model: WinModel) -> pl.DataFrame:
    """Every moment of a two-player game, seen by each player, with the probability `p`; a
    finished game's last moment is its result (1 to the winner, 0.5 each for a draw)."""
    if len(state.players) != 2:
        raise KtlogError(f"the win-probability model reads two-player games; this one has {len(state.players)} players")
    rows = moments(state_logs(state), state_players(state)).with_columns(logit(model).alias("logit"), probability(model)).sort("seq")
    if state.result is None:
        return rows
    ended = state.result.seq or state.seq
    last = rows.filter(pl.col("seq") == rows.get_column("seq").max()).with_columns(
        seq=pl.lit(ended, rows.schema["seq"]),
        p=pl.when(pl.lit(state.result.draw)).then(0.5).when(pl.col("player") == state.result.winner).then(1.0).otherwise(0.0),
    )
    return pl.concat([rows.filter(pl.col("seq") != ended), last]).sort("seq")


class Chance(msgspec.Struct, frozen=True):
    """The win probability at a game's latest moment, as a live overlay shows it."""

    seq: int
    players: list[str]
    probability: float
    """The first player's chance (a finished game's: 1, 0 or 1/2 by its result)."""
    features: dict[str, float]
    """What the model read, seen from the first player: only the logs' public figures (VP, CP,
    operatives incapacitated, attack damage, turning point, initiative), never a secret choice."""


def chance_now(state: GameState, model: WinModel) -> Chance:
    """The first player's chance at `state` (a two-player game's latest moment), and what it read."""
    last = curve_rows(state, model).filter(pl.col("player") == next(iter(state.players))).tail(1)
    read = ("turning_point", *model.features)
    return Chance(state.seq, list(state.players), round(last.get_column("p").item(), 4), {f: float(last.get_column(f).item()) for f in read})


def analyse(state: GameState, model: WinModel, events: Mapping[int, Event], top: int = TOP, spectator: bool = False) -> Analysis:
    """The curve, the `top` moments by change, and the swings of a game at `state` (its events by seq, to describe them)."""
    rows = curve_rows(state, model)
    players = list(state.players)
    first = rows.filter(pl.col("player") == players[0]).select("seq", "turning_point", "p").with_columns(change=pl.col("p").diff().fill_null(0.0))
    biggest = first.filter(pl.col("change") != 0).sort(pl.col("change").abs(), "seq", descending=[True, False]).head(top)
    listed = [
        Moment(
            seq,
            tp,
            describe(events[seq], spectator=spectator, state=state) if seq in events else f"seq {seq}",
            players[0] if change > 0 else players[1],
            round(abs(change), 4),
            round(p, 4),
        )
        for seq, tp, p, change in biggest.select("seq", "turning_point", "p", "change").iter_rows()
    ]
    return Analysis(
        players,
        [(s, round(p, 4)) for s, p in first.select("seq", "p").iter_rows()],
        listed,
        swings(state, model, rows),
        model.describe(),
    )


def dice_effects(state: GameState, model: WinModel, rows: pl.DataFrame) -> pl.DataFrame:
    """Per shooting attack with dice: seq, attacker, target and what its luck did to the
    attacker's probability at that moment (`dice`)."""
    weight = dict(zip(model.features, model.coefficients)).get("damage_diff", 0.0)
    luck = pl.DataFrame(
        [(a.seq, a.player, a.target_player, a.damage - a.expected_damage) for a in state.attacks if a.expected_damage is not None and a.mode == "dice"],
        schema={"seq": pl.Int64, "player": pl.String, "target": pl.String, "luck": pl.Float64},
        orient="row",
    )
    luck = luck.group_by("seq", "player", "target").agg(pl.col("luck").sum())
    return luck.join(rows.select("seq", "player", "logit"), on=["seq", "player"]).select(
        "seq", "player", "target", dice=_sigmoid(pl.col("logit")) - _sigmoid(pl.col("logit") - weight * pl.col("luck"))
    )


def _sigmoid(logit: pl.Expr) -> pl.Expr:
    return 1.0 / (1.0 + (-logit).exp())


def swings(state: GameState, model: WinModel, rows: pl.DataFrame) -> list[Swing]:
    """Each player's swing over the game, and the part their dice and their opponent's made."""
    effects = dice_effects(state, model, rows)
    out = []
    for player in state.players:
        mine = rows.filter(pl.col("player") == player).get_column("p")
        total = mine[-1] - mine[0]
        dice = effects.select((pl.when(pl.col("player") == player).then(pl.col("dice")).otherwise(-pl.col("dice"))).sum()).item()
        out.append(Swing(player, round(total, 4), round(dice, 4), round(total - dice, 4)))
    return out
