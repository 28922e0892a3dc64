"""The win score's sharpness per player count and turning point (issue 41): fitted on chances out
of fold, it draws a turning point where the score tells nothing to a coin and keeps the chances in
the order the score gives them."""

from __future__ import annotations

import math
import random

import msgspec
import polars as pl
import pytest
from winprob_support import VP_MODEL

from ktlog.analytics.winprob import chances, sharpness
from ktlog.analytics.winprob_features import Moment
from ktlog.analytics.winprob_fit import fit_sharpness, sharpened


def league(games: int, players: int, truth: dict[int, float], seed: int = 3) -> pl.DataFrame:
    """A fixture league's out-of-fold rows: a moment a game, in turning point 1-4 in turn, each
    player's `score` drawn at random; the outcome drawn from a softmax of `truth[tp]` times the
    scores (none for a turning point: the score tells nothing there)."""
    rng = random.Random(seed)
    rows = []
    for g in range(games):
        tp, scores = 1 + g % 4, [rng.gauss(0, 1.5) for _ in range(players)]
        won = rng.choices(range(players), weights=[math.exp(truth.get(tp, 0.0) * s) for s in scores])[0]
        rows += [(g, 1, tp, s, 1.0 if k == won else 0.0, 0.0) for k, s in enumerate(scores)]
    return pl.DataFrame(rows, schema=["game_key", "seq", "turning_point", "score", "y", "future"], orient="row")


def brier(rows: pl.DataFrame, p: str) -> float:
    return rows.select(((pl.col(p) - pl.col("y")) ** 2).mean()).item()


@pytest.mark.parametrize("players", [2, 3])
def test_a_turning_point_whose_score_tells_nothing_is_drawn_to_a_coin(players):
    # the outcome follows TP4's score alone: TP1-3's scores are noise the model took for a signal
    fitting, scoring = league(8000, players, {4: 1.0}), league(8000, players, {4: 1.0}, seed=4)
    sharp = fit_sharpness(fitting)
    assert set(sharp) == {players} and len(sharp[players]) == 4
    assert sharp[players][:3] == pytest.approx([0.0, 0.0, 0.0], abs=0.06) and sharp[players][3] == pytest.approx(1.0, abs=0.1)
    scored = sharpened(scoring.with_columns(coin=pl.lit(1 / players)), "score", sharp)
    tp1 = scored.filter(pl.col("turning_point") == 1)
    raw = sharpened(tp1, "score", {})  # the score as the model gave it: worse than a coin
    assert brier(tp1, "p") <= brier(tp1, "coin") + 0.001 < brier(raw, "p")


def test_a_timid_score_is_sharpened_and_the_chances_keep_the_scores_order():
    fitting = league(8000, 2, {tp: 2.0 for tp in (1, 2, 3, 4)})  # the score half as sure as it should be: in each turning point the truth is twice it
    scoring = league(1000, 2, {tp: 2.0 for tp in (1, 2, 3, 4)}, seed=5)
    sharp = fit_sharpness(fitting)
    assert all(a == pytest.approx(2.0, rel=0.25) for a in sharp[2])
    lead = pl.col("score") - (pl.col("score").sum() - pl.col("score")).over("game_key", "seq")  # a player's score less the other's
    scored = sharpened(scoring, "score", sharp).sort("turning_point", lead)
    assert brier(scored, "p") < brier(sharpened(scoring, "score", {}), "p")
    for (_,), tp in scored.partition_by("turning_point", as_dict=True).items():  # monotone: a higher lead never a lower chance
        p = tp.get_column("p").to_list()
        assert p == sorted(p)
    assert scored.group_by("game_key", "seq").agg(pl.col("p").sum()).get_column("p").to_list() == pytest.approx([1.0] * 1000)


def test_the_stored_sharpness_is_what_the_faces_read():
    model = msgspec.structs.replace(VP_MODEL, sharpness={2: [0.0, 0.5, 1.0]})
    lead = [[1.0], [-1.0]]
    at = {tp: Moment(seq=1, turning_point=tp, left=1.0, players=["Alice", "Bob"], relative=lead) for tp in (0, 1, 2, 3, 4)}
    assert chances(model, at[1]) == chances(model, at[0]) == [0.5, 0.5]  # before TP1 reads as TP1
    assert chances(model, at[3]) == chances(model, at[4]) == chances(VP_MODEL, at[4])  # the last multiplier for any later turning point
    logit = lambda p: math.log(p / (1 - p))  # noqa: E731
    assert logit(chances(model, at[2])[0]) == pytest.approx(0.5 * logit(chances(VP_MODEL, at[2])[0]))
    assert sharpness(model, 3, 2) == 1.0  # no sharpness fitted for three players: the fit's chances


def test_analyse_fit_prints_each_player_counts_sharpness():
    from ktlog.commands.analyse import model_text

    model = msgspec.structs.replace(VP_MODEL, sharpness={2: [0.31, 1.0, 1.05, 0.98]})
    assert "sharpness (2 players), the win score's multiplier in TP1, TP2 ... (fitted out of fold): 0.31 1.00 1.05 0.98" in model_text(model)
