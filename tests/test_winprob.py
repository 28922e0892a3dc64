"""The replay analyser (issue 28): features from the reducer's logs, the fitting and its scores,
the stored model, a game's key moments and the swings' dice."""

from __future__ import annotations

import json
import math
import random

import msgspec
import polars as pl
import pytest
from click.testing import CliRunner
from winprob_support import VP_MODEL, one_shot_game

from ktlog.analytics import winprob
from ktlog.analytics.key_moments import analyse
from ktlog.analytics.league import Filters, League
from ktlog.analytics.swings import moments_table, swings
from ktlog.analytics.winprob import WinModel
from ktlog.analytics.winprob_features import BASELINE_FEATURES, FEATURES, moments, state_logs, state_players
from ktlog.cli import cli
from ktlog.errors import KtlogError
from ktlog.play.simulate import simulate_into
from ktlog.storage.store import Store


@pytest.fixture(scope="module")
def simulated_db(tmp_path_factory):
    """Twelve random legal games, not marked simulated (a league as people would play it)."""
    db = tmp_path_factory.mktemp("winprob") / "league.db"
    with Store(db) as store:
        simulate_into(store, 12, seed=3)
    return db


def test_key_moments_of_a_game_one_shot_decides():
    g = one_shot_game()
    shot = next(a.seq for a in g.state.attacks)
    assert g.state.result.winner == "Alice"
    result = analyse(g.state, VP_MODEL, dict(enumerate(g.events, 1)), top=3)
    top = result.moments[0]
    assert (top.seq, top.gainer, top.turning_point) == (shot, "Alice", 4)
    assert top.change == pytest.approx(1 / (1 + math.exp(-2.5)) - 0.5, abs=1e-4)
    assert top.description.startswith("alice1 shoots Melta at bob1")
    assert all(m.change < top.change for m in result.moments[1:])
    assert result.curve[0] == (0, 0.5)
    alice, bob = result.swings
    assert alice.total == pytest.approx(-bob.total) and alice.total > 0.4
    assert alice.dice == 0 and alice.rest == alice.total  # the model reads no damage: no dice in the swing
    assert result.curve[-1] == (g.state.result.seq, 1.0)  # a finished game ends at its result, not at the model's guess


def test_the_dice_part_is_the_damage_beyond_the_expected():
    """With a damage weight, the Melta's 4 damage against an expected 10/3 is Alice's dice."""
    g = one_shot_game()
    model = WinModel(kind="logistic", features=["vp_diff_late", "damage_diff"], coefficients=[2.0, 0.3])
    result = analyse(g.state, model, dict(enumerate(g.events, 1)))
    alice, bob = result.swings
    rows = moments(state_logs(g.state), state_players(g.state))
    shot = next(a.seq for a in g.state.attacks)
    at = rows.filter(pl.col("seq") == shot, pl.col("player") == "Alice").row(0, named=True)
    logit = 2.0 * at["vp_diff_late"] + 0.3 * at["damage_diff"]
    expected = 1 / (1 + math.exp(-logit)) - 1 / (1 + math.exp(-(logit - 0.3 * (4 - 10 / 3))))
    assert alice.dice == pytest.approx(expected, abs=1e-4) and alice.dice > 0
    assert bob.dice == pytest.approx(-alice.dice, abs=1e-4)
    assert alice.dice + alice.rest == pytest.approx(alice.total, abs=1e-4)


def test_features_from_the_state_are_those_from_the_projection_tables(simulated_db):
    """The replay's state and the league's tables give the same rows (the same reducer logs)."""
    league = League(simulated_db)
    rows = winprob.league_rows(league)
    with Store(simulated_db, create=False) as store:
        for key, game_id in league.finished_ids.head(3).iter_rows():
            from_state = moments(state_logs(store.state(game_id), key), state_players(store.state(game_id), key))
            from_tables = rows.filter(pl.col("game_key") == key).select(from_state.columns)
            assert from_state.sort("seq", "player").equals(from_tables.sort("seq", "player"))
            assert from_state.height > 20


def test_both_players_probabilities_add_to_one(simulated_db):
    league = League(simulated_db)
    model = WinModel(kind="logistic", features=list(FEATURES), coefficients=[0.3, 1.0, 0.4, 0.1, 0.02, 0.05, 0.1])
    rows = winprob.league_rows(league).with_columns(winprob.probability(model))
    pairs = rows.group_by("game_key", "seq").agg(pl.col("p").sum())
    assert pairs.get_column("p").to_list() == pytest.approx([1.0] * pairs.height)


def test_cross_validation_folds_are_split_by_game():
    rows = pl.DataFrame({"game_key": [k for k in range(23) for _ in range(7)], "seq": list(range(23 * 7))})
    folded = winprob.game_folds(rows, 5)
    per_game = folded.group_by("game_key").agg(pl.col("fold").n_unique())
    assert per_game.get_column("fold").to_list() == [1] * 23  # every row of a game in one fold
    sizes = folded.group_by("fold").agg(pl.col("game_key").n_unique()).get_column("game_key").to_list()
    assert sorted(sizes) == [4, 4, 5, 5, 5]
    assert folded.height == rows.height


def synthetic_league(games: int, seed: int = 1) -> tuple[pl.DataFrame, list[float]]:
    """One moment per game whose true win probability is known: sigmoid(0.4 vp_diff + 1.2
    vp_diff_late) at a random turning point and VP difference, the outcome drawn from it."""
    rng = random.Random(seed)
    true = [0.4, 1.2]
    rows = []
    for game in range(games):
        tp, diff = rng.randint(1, 4), rng.randint(-4, 4)
        p = 1 / (1 + math.exp(-(true[0] * diff + true[1] * diff * tp / 4)))
        rows.append((game, 1, float(diff), diff * tp / 4, 1.0 if rng.random() < p else 0.0, p))
    return pl.DataFrame(rows, schema=["game_key", "seq", "vp_diff", "vp_diff_late", "y", "p_true"], orient="row"), true


def test_calibration_on_a_synthetic_league_whose_probabilities_are_known():
    last, true = synthetic_league(8000)
    w = winprob.fit_newton(last, BASELINE_FEATURES)
    assert w == pytest.approx(true, abs=0.25)
    fitted = last.with_columns(winprob.probability(WinModel(kind="baseline", features=list(BASELINE_FEATURES), coefficients=w)))
    for band in winprob.calibration(fitted):
        if band.rows >= 200:
            assert band.observed == pytest.approx(band.predicted, abs=0.06), band
    # the fitted model scores as well as the truth, and far better than a coin
    truth = winprob.score(last.with_columns(p=pl.col("p_true")))
    assert winprob.score(fitted).log_loss == pytest.approx(truth.log_loss, abs=0.01)
    assert winprob.score(fitted).log_loss < winprob.score(last.with_columns(p=pl.lit(0.5))).log_loss - 0.1


def test_scikit_learn_and_newton_give_the_same_probabilities():
    pytest.importorskip("sklearn")
    last, _ = synthetic_league(3000, seed=2)
    both = [
        last.with_columns(winprob.probability(WinModel(kind="logistic", features=list(BASELINE_FEATURES), coefficients=fit(last, BASELINE_FEATURES))))
        .get_column("p")
        .to_list()
        for fit in (winprob.fit_logistic, winprob.fit_newton)
    ]
    assert both[0] == pytest.approx(both[1], abs=0.01)  # scikit-learn's light L2 penalty apart, the same fit


def test_too_few_games_fall_back_to_the_baseline_saying_so(simulated_db):
    model = winprob.fit(League(simulated_db))
    assert model.kind == "baseline" and model.features == list(BASELINE_FEATURES)
    assert "only 12 finished game(s)" in model.note and "the baseline is used" in model.describe()
    assert set(model.scores) == {"coin", "baseline"} and model.scores["coin"].log_loss == pytest.approx(math.log(2), abs=1e-4)
    assert len(model.games) == 12 and model.simulated_games == 0
    assert [t.turning_point for t in model.by_turning_point] == [0, 1, 2, 3, 4] and sum(t.rows for t in model.by_turning_point) == model.rows
    assert model.by_turning_point[4].favourite_won > 0.5  # a VP lead at the last turning point mostly holds


def test_without_scikit_learn_the_baseline_says_how_to_install_it(simulated_db, monkeypatch):
    monkeypatch.setattr(winprob, "MIN_GAMES", 5)
    monkeypatch.setattr(winprob, "sklearn_available", lambda: False)
    model = winprob.fit(League(simulated_db))
    assert model.kind == "baseline" and "pip install 'ktlog[analyse]'" in model.note


def test_the_model_is_fitted_when_there_are_games_enough(simulated_db, monkeypatch):
    pytest.importorskip("sklearn")
    monkeypatch.setattr(winprob, "MIN_GAMES", 5)
    model = winprob.fit(League(simulated_db))
    assert set(model.scores) == {"coin", "baseline", "model"}
    if model.kind == "logistic":
        assert model.features == list(FEATURES) and model.scores["model"].log_loss < model.scores["baseline"].log_loss
    else:
        assert "did not beat the baseline" in model.note


def test_simulated_games_fit_only_when_asked_and_the_model_says_so(tmp_path):
    db = tmp_path / "sim.db"
    with Store(db) as store:
        simulate_into(store, 3, seed=5, simulated=True)
    with pytest.raises(KtlogError, match="only simulated games"):
        winprob.fit(League(db))
    model = winprob.fit(League(db, Filters(simulated=True)))
    assert model.simulated_games == 3 and "3 of them simulated" in model.describe() and "not a model of real games" in model.describe()


def test_the_model_is_stored_as_json_and_a_bad_file_is_refused(tmp_path):
    path = tmp_path / "league.db.winprob.json"
    winprob.save(VP_MODEL, path)
    assert json.loads(path.read_text())["coefficients"] == [0.5, 2.0]
    assert winprob.load(path) == VP_MODEL
    assert winprob.load(tmp_path / "none.json") is None
    for bad, words in (
        (b"\x80pickle", "is not a ktlog win-probability model"),
        (msgspec.json.encode({**msgspec.to_builtins(VP_MODEL), "features": ["os.system", "vp_diff"]}), "os.system"),
        (msgspec.json.encode({**msgspec.to_builtins(VP_MODEL), "version": 99}), "version 99"),
        (msgspec.json.encode({**msgspec.to_builtins(VP_MODEL), "coefficients": [1.0]}), "counts or numbers wrong"),
    ):
        path.write_bytes(bad)
        with pytest.raises(KtlogError, match=words):
            winprob.load(path)


def test_analyse_fit_and_a_game_from_the_command_line(simulated_db, tmp_path):
    db = tmp_path / "league.db"
    db.write_bytes(simulated_db.read_bytes())
    runner = CliRunner()
    fitted = runner.invoke(cli, ["--db", str(db), "analyse", "fit"])
    assert fitted.exit_code == 0, fitted.output
    assert "only 12 finished game(s)" in fitted.output and "coin      Brier 0.25" in fitted.output and "calibration" in fitted.output
    assert (tmp_path / "league.db.winprob.json").is_file()
    with Store(db, create=False) as store:
        game_id = store.games()[0].id
    shown = runner.invoke(cli, ["--db", str(db), "analyse", game_id[:8], "--json", "--top", "2"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert data["game"] == game_id and len(data["moments"]) == 2 and data["curve"][0] == [0, 0.5]
    assert data["model"].startswith("baseline model fitted on 12 game(s)")
    text = runner.invoke(cli, ["--db", str(db), "analyse", game_id[:8]])
    assert text.exit_code == 0 and "key moments:" in text.output and "= dice" in text.output
    missing = runner.invoke(cli, ["--db", str(db), "analyse", "ffffffff"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output


def test_league_moments_name_the_shot_that_decided_the_game(tmp_path):
    db = tmp_path / "one.db"
    game = "01000000-0000-4000-8000-000000000000"
    g = one_shot_game()
    with Store(db) as store:
        store.import_envelopes(game, g.sealed(game, "2026-11-21T19:00:00+00:00"))
    shot = next(a.seq for a in g.state.attacks)
    moments_ = swings(League(db), VP_MODEL)  # the model passed; the command's is the default baseline
    decided = moments_.filter(pl.col("decided"))
    assert decided.select("seq", "player", "action").rows() == [(shot, "Alice", "shoot: Melta")]
    table = moments_table(League(db), VP_MODEL).filter(pl.col("action") == "shoot: Melta").row(0, named=True)
    assert (table["moments"], table["games"], table["decided"], table["decided_rate"]) == (1, 1, 1, 1.0)
    assert table["mean_swing"] == pytest.approx(100 * (1 / (1 + math.exp(-2.5)) - 0.5), abs=1e-3)
    result = CliRunner().invoke(cli, ["--db", str(db), "stats", "moments", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "no model is stored for this database" in result.stderr and "shoot: Melta" in result.stdout
