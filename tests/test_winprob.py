"""The analyser (issues 28 and 41): the board a model reads, one model per ruleset stored with its
held-out scores, the fitting, a game's key moments, expected VP added (EPA) and luck of the dice,
the display of a chance, and the command line."""

from __future__ import annotations

import json
import math
import os
import random

import msgspec
import polars as pl
import pytest
from click.testing import CliRunner
from conftest import card, expend_all
from league import Played, tp
from winprob_support import MELTA, SHOT_CHANCE, VP_MODEL, fragile_teams, one_shot_game

from ktlog.analytics import winprob
from ktlog.analytics.key_moments import analyse, chance_now
from ktlog.analytics.winprob import Choice, Models, WinModel, percent
from ktlog.analytics.winprob_features import CATALOGUE, Reader, feature, features_of, figures, moves_the_board, states
from ktlog.analytics.winprob_fit import fit_linear, fit_softmax, game_folds, league_model, probabilities
from ktlog.cli import cli
from ktlog.errors import KtlogError
from ktlog.events import OperativeAdded, PlayerJoined, Shot
from ktlog.play.builder import GameBuilder, loot, shoot
from ktlog.play.simulate import simulate_games, simulate_into
from ktlog.reducer import apply_in_place, fold
from ktlog.rulesets import RULESETS
from ktlog.state import Checkpoint, GameState
from ktlog.storage.store import Store

HAND_SET = Choice(VP_MODEL, "a hand-set model")


def records(g) -> list:
    return list(enumerate(g.events, 1))


@pytest.fixture(scope="module")
def simulated_db(tmp_path_factory):
    """Twelve random legal games, not marked simulated (a league as people would play it)."""
    db = tmp_path_factory.mktemp("winprob") / "league.db"
    with Store(db) as store:
        simulate_into(store, 12, seed=3)
    return db


# --- a game's moments, EPA, luck ---------------------------------------------------------------


def test_the_shot_that_decides_the_game_is_its_key_moment_labelled_with_what_followed():
    g = one_shot_game()
    shot = next(a.seq for a in g.state.attacks)
    result, _ = analyse(records(g), HAND_SET, top=10)
    made = [m for m in result.moments if m.kind != "missed"]
    top = made[0]
    assert (top.seq, top.player, top.turning_point, top.kind) == (shot, "Alice", 4, "action")
    assert top.change == pytest.approx(SHOT_CHANCE - 0.5, abs=1e-4)
    assert top.description.startswith("alice1 shoots Melta at bob1") and "bob1 incapacitated" in top.description and "Alice +1VP (kill)" in top.description
    assert top.epa == 1.0  # the kill grade's VP: the expected margin now (the hand-set model expects nothing to come)
    assert result.curve[0][1] == [0.5, 0.5]  # level at the battle's start
    assert result.decided == g.state.result.seq and result.curve[-1] == (g.state.result.seq, [1.0, 0.0])
    assert all(m.seq != result.decided for m in result.moments)  # the result's own step is no key moment
    alice, bob = result.swings
    assert alice.total == 0.5 and bob.total == -0.5


def test_a_missed_mission_action_is_a_moment_when_the_model_says_it_mattered():
    """Loot is the crit op and the battle is in turning point 4: each of Bob's operatives ended its
    activation with AP left and no Loot, which would have scored 1VP (pg 84-85). One missed Loot a
    player is listed, the one worth most, labelled as what might have been."""
    g = one_shot_game()
    result, _ = analyse(records(g), HAND_SET, top=10)
    missed = [m for m in result.moments if m.kind == "missed"]
    assert {m.player for m in missed} == {"Alice", "Bob"} and len(missed) == 2
    bob = next(m for m in missed if m.player == "Bob")
    assert "Loot" in bob.description and "if it was within reach" in bob.description and bob.change > 0.3 and bob.epa == 1.0


def test_epa_credits_the_operative_that_acted():
    g = one_shot_game()
    result, _ = analyse(records(g), HAND_SET)
    by = {(c.player, c.operative): c.epa for c in result.epa}
    assert by["Alice", "alice1"] == 1.0 and all(v == 0.0 for k, v in by.items() if k != ("Alice", "alice1"))


def test_luck_is_what_the_dice_caused_against_their_average_by_the_rules():
    """The Melta (Atk 2, Hit 4+, Piercing 3: no defence dice) incapacitates the 3-wound bob1 with
    any success: 1 - (1/2)^2 = 3/4 of the time, for the kill grade's 1VP. Its dice did: 1VP less
    3/4 of 1VP = +1/4 VP for Alice, and the chance the same way."""
    g = one_shot_game()
    result, _ = analyse(records(g), HAND_SET)
    alice, bob = result.luck
    assert alice.vp == pytest.approx(0.25) and bob.vp == pytest.approx(-0.25)
    assert alice.chance == pytest.approx(0.25 * (SHOT_CHANCE - 0.5), abs=1e-4) and alice.shots == 1
    assert result.swings[0].dice == pytest.approx(alice.chance, abs=1e-4)
    assert "the rules' chances" in result.luck_method and "Fights" in result.luck_method


def test_the_curve_is_what_the_overlay_works_out_from_the_game_cut_there():
    _, game = next(iter(simulate_games(1, 5, ruleset="kt24-approved")))
    choice = winprob.model_for(None, "kt24-approved")
    result, _ = analyse(records(game), choice)
    checked = 0
    for seq, chances in result.curve[:-1][::3]:
        now = chance_now(fold(game.events[:seq]), choice)
        assert now.chances == chances, seq
        checked += 1
    assert checked > 40


def test_only_a_move_that_changes_the_board_is_a_moment():
    assert not moves_the_board(next(e for e in one_shot_game().events if type(e).__name__ == "OperativeActivated"))
    g = one_shot_game()
    result, _ = analyse(records(g), HAND_SET)
    kinds = {type(g.events[s - 1]).__name__ for s, _ in result.curve}
    assert not kinds & {"OperativeActivated", "Repositioned", "Dashed", "Annotation"} and "Shot" in kinds


# --- the board's features -----------------------------------------------------------------------


def test_the_features_read_the_board_relative_to_the_opponent():
    g = one_shot_game()
    shot = next(a.seq for a in g.state.attacks)
    reader = Reader(RULESETS["kt24-preliminary"])
    state = fold(g.events[:shot])
    m = reader.moment(state)
    row = dict(zip(reader.features, m.relative[0]))
    assert m.players == ["Alice", "Bob"] and m.turning_point == 4 and m.left == 1.0  # every operative still to activate: alice1 is active, not expended
    assert row["vp"] == 1 and row["vp:kill"] == 1 and row["kill_grade"] == 1 and row["operatives"] == 1
    assert row["operatives_share"] == pytest.approx(1 - 4 / 5) and row["wounds_share"] == pytest.approx(1 - 12 / 15)
    assert m.relative[1] == [-x for x in m.relative[0]]  # two players: each one's is the other's turned round
    assert row["to_activate"] == 1  # bob1 is incapacitated: 5 of Alice's to activate, 4 of Bob's


def test_the_damage_race_is_read_from_the_datacards_by_the_rules_dice_sums():
    """Alice's five and Bob's four 7-wound Melta gunners (Atk 2, Hit 4+, Dmg 3/4, Piercing 3: no
    defence dice, so 2 * (2/6 * 3 + 1/6 * 4) = 10/3 damage an attack against any save). alice1's
    critical hit leaves bob1 3 of 7 wounds: injured, fewer than half (pg 47). kill_pace: a side's
    attacks over the enemy's mean wounds left an operative (Bob's 24/4, Alice's 7), times 5 grades
    over the enemy's starting operatives (Alice's 5: a grade a kill; Bob's 4 read on the 5 row as
    the kill table is, pg 84: a grade a kill too)."""
    gunner = card("Gunner", wounds=7, weapons=(MELTA,))
    g = GameBuilder(date="2026-11-21")
    for player, count in (("Alice", 5), ("Bob", 4)):
        g.add(PlayerJoined(player=player, kill_team="Gunners"))
        for i in range(1, count + 1):
            g.add(OperativeAdded(player=player, operative=f"{player.lower()}{i}", datacard=gunner))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, markers=[("centre", "Bob"), ("north", "Alice"), ("south", "Bob")])
    tp(tp(Played(g, "2026-11-21T19:00:00+00:00"), "Alice"), "Alice")
    g.activate("alice1", "engage", shoot("Melta", "bob1", "36"))
    reader = Reader(RULESETS["kt24-preliminary"])
    alice = dict(zip(reader.features, reader.moment(g.state).relative[0]))
    each = round(1000 * 10 / 3) / 1000  # an operative's figure is kept in thousandths of a wound
    assert figures(gunner) == (4, *(3333,) * 5)  # its save, then its firepower against each save
    assert alice["firepower"] == pytest.approx(each) and alice["injured"] == -1
    assert alice["kill_pace"] == pytest.approx(5 * each / (24 / 4) * 5 / 5 - 4 * each / 7 * 5 / 5)
    assert alice["operatives@Secure"] == 1 and alice["operatives@Loot"] == 0  # the crit op is Secure


def test_a_trial_is_read_as_a_state_of_its_own_though_only_what_it_changed_is_summed_again():
    """Every dice shot of a simulated game, read after a checkpoint taken before it (`since`:
    only the operatives the shot changed are summed again), then played again at each damage
    from none to the target's wounds from that checkpoint (as the luck plays it) and read beside
    the state the shot left (`trial_of`: only the operatives either changed are summed again),
    reads as a fresh reader reads it; so does a trial that incapacitates another enemy than the
    shot's, and a trial read beside a state changed since it was read (it is summed in full)."""
    _, game = next(iter(simulate_games(1, 11, ruleset="kt24-preliminary")))
    reader = Reader(RULESETS["kt24-preliminary"])
    state, trials, elsewhere = GameState(), 0, 0

    def fresh(s: GameState) -> list[list[float]]:
        return Reader(RULESETS["kt24-preliminary"]).moment(s).relative

    for seq, event in enumerate(game.events, 1):
        shot = isinstance(event, Shot) and event.attacks[0].attack_dice is not None
        before = Checkpoint(state) if shot and reader._last is not None else None
        apply_in_place(state, event, seq)
        read = reader.moment(state, event, since=before.operatives if before is not None else None)
        if before is None:
            continue
        assert read.relative == fresh(state), seq
        start = before.restore(logs=False)
        target = dict.get(start.operatives, event.attacks[0].target)
        for damage in range(target.wounds + 1):
            trial = before.restore(logs=False)
            quick = msgspec.structs.replace(event.attacks[0], attack_dice=None, defence_dice=None, damage=damage)
            apply_in_place(trial, msgspec.structs.replace(event, attacks=(quick,)), seq)
            assert reader.moment(trial, trial_of=state).relative == fresh(trial), (seq, damage)
            trials += 1
        for other in (o for o in start.scan() if o.player == target.player and o.id != target.id and o.in_killzone):
            trial = before.restore(logs=False)
            quick = msgspec.structs.replace(event.attacks[0], target=other.id, attack_dice=None, defence_dice=None, damage=other.wounds)
            try:
                apply_in_place(trial, msgspec.structs.replace(event, attacks=(quick,)), seq)
            except KtlogError:
                continue  # not a valid target then
            assert reader.moment(trial, trial_of=state).relative == fresh(trial), (seq, other.id)
            elsewhere += 1
            break
    assert trials > 50 and elsewhere > 10
    hit = next(a.seq for a in state.attacks if a.damage)  # a shot that wounded
    moved = fold(game.events[: hit - 1])
    reader.moment(moved, game.events[hit - 2])
    trial = Checkpoint(moved).restore(logs=False)
    apply_in_place(moved, game.events[hit - 1], hit)  # changed since it was read: its operatives summed then are not used
    assert reader.moment(trial, trial_of=moved).relative == Reader(RULESETS["kt24-preliminary"]).moment(trial).relative


def test_each_ruleset_names_its_features_as_data_and_a_bad_name_is_refused():
    assert features_of(RULESETS["kt21"]) == RULESETS["kt21"].win_features and "vp:mission" in features_of(RULESETS["kt21"])
    assert "vp:tac" in features_of(RULESETS["kt24-approved"]) and "kill_grade" in features_of(RULESETS["kt24-preliminary"])
    names = {name for r in RULESETS.values() for name in features_of(r)}
    assert all(callable(feature(name)) for name in names)  # each one a name the catalogue reads: refused otherwise
    assert {"vp@Loot", "vp@Transmission"} <= names and all(name.partition("@")[0] in CATALOGUE or ":" in name for name in names)
    with pytest.raises(KtlogError, match="no feature 'os.system'"):
        feature("os.system")


def test_secrets_are_not_read():
    """Approved Ops: the tac op and primary op chosen in secret change no feature until revealed."""
    _, game = next(iter(simulate_games(1, 2, ruleset="kt24-approved")))
    reader = Reader(RULESETS["kt24-approved"])
    for _, event, state in states(records(game)):
        if type(event).__name__ == "PrimaryOpRevealed":
            break
        if state.phase in ("strategy", "firefight"):
            before = reader.moment(state).relative
            secrets = [(p, p.primary_op, p.tac_op) for p in state.players.values()]
            for p, primary, _ in secrets:
                p.primary_op, p.tac_op = ("kill" if primary != "kill" else "crit") if primary else None, "Something else"
            assert reader.moment(state).relative == before
            for p, primary, tac in secrets:
                p.primary_op, p.tac_op = primary, tac


# --- one model per ruleset ----------------------------------------------------------------------


def test_a_ruleset_is_read_by_its_own_model_or_its_default_never_another_rulesets():
    prelim = msgspec.structs.replace(VP_MODEL, ruleset="kt24-preliminary")
    stored = Models(models={"kt24-preliminary": prelim}, unfitted={"kt21": "only 3 finished kt21 game(s)"})
    assert winprob.choose("kt24-preliminary", stored).model is prelim
    kt21 = winprob.choose("kt21", stored)
    assert kt21.model is not None and kt21.model.ruleset == "kt21" and kt21.model.origin == "default"
    assert "kt21 default model, fitted on" in kt21.why and "simulated games of kt21" in kt21.why and "only 3 finished kt21 game(s)" in kt21.why
    joint = winprob.choose("kt24-joint", stored)
    assert joint.model is None and "no win probability for kt24-joint games" in joint.why
    _, game = next(iter(simulate_games(1, 4, ruleset="kt24-joint")))
    result, _ = analyse(records(game), joint)
    assert not result.fitted and result.curve == [] and result.model == joint.why


def test_every_default_is_its_rulesets_with_its_held_out_scores():
    shipped = winprob.defaults().models
    assert set(shipped) >= {"kt24-preliminary", "kt24-approved", "kt21", "kt24-multiplayer"}
    for name, model in shipped.items():
        assert model.ruleset == name and model.origin == "default" and model.features in (list(features_of(RULESETS[name])), ["vp"])
        assert "second simulated league" in model.held_out and set(model.scores) - {"board"} == {"model", "unsharpened", "baseline", "coin"}
        assert model.scores["model"].log_loss <= model.scores["baseline"].log_loss  # never worse than VP alone held out (else VP alone is kept)
        assert model.scores["model"].brier < model.scores["coin"].brier and len(model.calibration) == 10
        assert sorted(model.sharpness) == model.players and all(len(by_tp) == 4 for by_tp in model.sharpness.values())  # fitted out of fold, per player count
    assert shipped["kt24-multiplayer"].players == [3, 4]


@pytest.mark.slow  # 300 simulated games: 9 CPU-s
def test_a_kt21_database_with_no_model_never_shows_100_percent_for_a_player_who_then_loses(tmp_path):
    """Issue 41: 300 simulated KT21 games read by the KT21 default (the one such a database gets):
    before the result, a chance is shown as "> 99%" at most, and the eventual loser's is never
    shown as 100%. The default is the KT21 one, named."""
    choice = winprob.model_for(tmp_path / "none.db", "kt21")
    assert choice.model.ruleset == "kt21" and "kt21 default model" in choice.why
    high_for_losers = 0
    for _, game in simulate_games(300, 24, ruleset="kt21"):
        result, state = analyse(records(game), choice)
        loser = [i for i, p in enumerate(state.players) if state.result.winner and p != state.result.winner]
        for seq, chances in result.curve:
            decided = seq >= result.decided
            for i in loser:
                assert percent(chances[i], decided) != "100%" or decided
                assert not decided or chances[i] == 0.0
                high_for_losers += not decided and chances[i] > 0.99
    assert high_for_losers == 0  # not even "> 99%" for a player who then lost (the highest such chance: 98.0%, before the KT21 default: 16 games at 100%)


def test_a_chance_is_never_rounded_to_certain_before_the_result():
    assert [percent(p) for p in (0.996, 0.004, 0.5, 0.991, 0.0)] == ["> 99%", "< 1%", "50%", "> 99%", "< 1%"]
    assert [percent(p, decided=True) for p in (1.0, 0.0, 0.5)] == ["100%", "0%", "50%"]


# --- fitting ------------------------------------------------------------------------------------


def synthetic(groups: int, players: int, true: list[float], seed: int = 1) -> pl.DataFrame:
    """Moments whose players' chances are a softmax of known coefficients over two columns; the
    outcome drawn from them."""
    rng = random.Random(seed)
    rows = []
    for g in range(groups):
        xs = [[rng.uniform(-2, 2), rng.uniform(-1, 1)] for _ in range(players)]
        scores = [true[0] * a + true[1] * b for a, b in xs]
        e = [math.exp(s) for s in scores]
        won = rng.choices(range(players), weights=e)[0]
        rows += [(g, 1, a, b, 1.0 if k == won else 0.0, 2.0 * a - b) for k, (a, b) in enumerate(xs)]
    return pl.DataFrame(rows, schema=["game_key", "seq", "a", "b", "y", "future"], orient="row")


@pytest.mark.parametrize("players", [2, 3])
def test_the_conditional_logit_recovers_known_coefficients(players):
    rows = synthetic(6000, players, [1.2, -0.8])
    w = fit_softmax(rows, ["a", "b"], ridge=0.0)
    assert w == pytest.approx([1.2, -0.8], abs=0.1)
    fitted = probabilities(rows, ["a", "b"], w)
    assert fitted.group_by("game_key").agg(pl.col("p").sum()).get_column("p").to_list() == pytest.approx([1.0] * 6000)


def test_the_margin_regression_recovers_known_coefficients():
    rows = synthetic(500, 2, [1.0, 1.0])
    assert fit_linear(rows, ["a", "b"], ridge=0.0) == pytest.approx([2.0, -1.0], abs=1e-6)


def test_folds_split_by_game():
    rows = pl.DataFrame({"game_key": [k for k in range(23) for _ in range(7)], "seq": list(range(23 * 7))})
    folded = game_folds(rows, 5)
    assert folded.group_by("game_key").agg(pl.col("fold").n_unique()).get_column("fold").to_list() == [1] * 23
    assert sorted(folded.group_by("fold").agg(pl.col("game_key").n_unique()).get_column("game_key").to_list()) == [4, 4, 5, 5, 5]


def test_too_few_games_fit_no_model_and_say_why():
    games = [(records(g), True) for _, g in simulate_games(3, 9, ruleset="kt21")]
    assert league_model("kt21", games, "test") == "only 3 finished kt21 game(s), fewer than the 40 needed to tell a model from the VP baseline"


def test_a_league_model_is_scored_out_of_fold(monkeypatch):
    from ktlog.analytics import winprob_fit

    monkeypatch.setattr(winprob_fit, "MIN_GAMES", 5)
    games = [(records(g), False) for _, g in simulate_games(15, 9, ruleset="kt24-preliminary")]
    model = league_model("kt24-preliminary", games, "test.db")
    assert isinstance(model, WinModel) and model.origin == "league" and model.games == 15 and model.simulated_games == 0
    assert model.held_out == "5-fold cross-validation split by game" and set(model.scores) == {"model", "unsharpened", "board", "baseline", "coin"}
    # 15 games are too few for the board's terms: held out they did worse than VP alone, so VP alone is kept, saying so
    assert model.scores["board"].log_loss >= model.scores["baseline"].log_loss and model.scores["unsharpened"] == model.scores["baseline"]
    assert set(model.sharpness) == {2} and len(model.sharpness[2]) == 4 and all(a >= 0 for a in model.sharpness[2])
    assert model.note.startswith("the board did not beat VP alone held out") and model.features == ["vp"]
    assert model.scores["coin"].brier == pytest.approx(0.25, abs=0.02) and model.margin_error > 0
    assert [t.turning_point for t in model.by_turning_point] == [1, 2, 3, 4] and sum(b.rows for b in model.calibration) == model.rows
    assert "kt24-preliminary model fitted on this league's 15 game(s)" in model.describe()


# --- storing ------------------------------------------------------------------------------------


def test_the_models_are_stored_as_json_and_a_bad_file_is_refused(tmp_path):
    path = tmp_path / "league.db.winprob.json"
    stored = Models(models={"kt24-preliminary": VP_MODEL})
    winprob.save(stored, path)
    assert json.loads(path.read_text())["models"]["kt24-preliminary"]["win"] == [0.0, 1.25, 0.0]
    assert winprob.load(path) == stored and winprob.load(tmp_path / "none.json") is None
    good = msgspec.to_builtins(stored)
    model = good["models"]["kt24-preliminary"]
    for bad, words in (
        (b"\x80pickle", "is not a ktlog win-probability model file"),
        (msgspec.json.encode({"format": "ktlog-winprob", "version": 1, "kind": "baseline"}), "version 1, this ktlog reads ktlog-winprob 2"),
        (msgspec.json.encode({**good, "models": {"kt24-preliminary": {**model, "features": ["os.system"]}}}), "no feature 'os.system'"),
        (msgspec.json.encode({**good, "models": {"kt24-preliminary": {**model, "win": [1.0]}}}), "not one number per term"),
        (msgspec.json.encode({**good, "models": {"kt24-preliminary": {**model, "sharpness": {"2": [1.0, -3.0]}}}}), "sharpness is not a number from 0 to 10"),
        (msgspec.json.encode({**good, "models": {"kt21": model}}), "filed under 'kt21' is of ruleset 'kt24-preliminary'"),
    ):
        path.write_bytes(bad)
        with pytest.raises(KtlogError, match=words):
            winprob.load(path)


# --- the command line ---------------------------------------------------------------------------


def test_analyse_fit_and_a_game_from_the_command_line(simulated_db, tmp_path):
    db = tmp_path / "league.db"
    db.write_bytes(simulated_db.read_bytes())
    runner = CliRunner()
    fitted = runner.invoke(cli, ["--db", str(db), "analyse", "fit"])
    assert fitted.exit_code == 0, fitted.output
    assert "kt24-preliminary: no model fitted (only 12 finished kt24-preliminary game(s)" in fitted.output
    assert "its default is used: kt24-preliminary default model" in fitted.output
    assert winprob.load(winprob.model_path(db)).unfitted["kt24-preliminary"].startswith("only 12")
    with Store(db, create=False) as store:
        game_id = store.games()[0].id
    shown = runner.invoke(cli, ["--db", str(db), "analyse", game_id[:8], "--json", "--top", "2"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert data["game"] == game_id and len(data["moments"]) == 2 and data["fitted"] and data["curve"][0][1] == pytest.approx([0.5, 0.5], abs=0.2)
    assert data["model"].startswith("kt24-preliminary default model") and data["decided"] == data["curve"][-1][0]
    text = runner.invoke(cli, ["--db", str(db), "analyse", game_id[:8]])
    assert text.exit_code == 0 and "key moments:" in text.output and "expected VP added (EPA" in text.output and "luck of the dice" in text.output
    assert "method: each shot with dice" in text.output and "= dice" in text.output and "100%" in text.output.splitlines()[0]
    missing = runner.invoke(cli, ["--db", str(db), "analyse", "ffffffff"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    dataset = runner.invoke(cli, ["--db", str(db), "analyse", "fit", "--source", str(tmp_path)])
    assert dataset.exit_code == 1 and "a dataset" in dataset.output and "holds none" in dataset.output


@pytest.mark.parametrize("kind", ["folder", "pipe", "too large"])
def test_a_models_file_that_is_not_a_regular_file_within_its_limit_is_refused_before_it_is_read(simulated_db, tmp_path, kind):
    """Issue 38: `--model FILE` (and the file beside the database) is read only as a regular file of
    at most WINPROB_LIMIT bytes; anything else is refused, named with the limit, before a byte is
    read (a pipe with no writer would block for ever) and before `analyse fit` writes anything."""
    from ktlog.files.inputs import WINPROB_LIMIT

    path = tmp_path / "models.json"
    if kind == "folder":
        path.mkdir()
        words = f"{path} is a folder, not a regular file; give the path of a win-probability model file"
    elif kind == "pipe":
        os.mkfifo(path)
        words = f"{path} is a pipe, not a regular file; give the path of a win-probability model file"
    else:
        with open(path, "wb") as f:
            f.truncate(WINPROB_LIMIT + 1)  # sparse: its size is what is refused, before reading
        words = f"{path} is larger than 4 MB, the most ktlog reads as a win-probability model file"
    with Store(simulated_db, create=False) as store:
        game_id = store.games()[0].id
    runner = CliRunner()
    for args in (["analyse", game_id[:8], "--model", str(path)], ["analyse", "fit", "--include-simulated", "--model", str(path)]):
        got = runner.invoke(cli, ["--db", str(simulated_db), *args])
        assert got.exit_code == 1, got.output
        assert words in " ".join(got.output.split()) and "Traceback" not in got.output
    assert path.is_dir() if kind == "folder" else path.is_fifo() if kind == "pipe" else path.stat().st_size == WINPROB_LIMIT + 1  # nothing written over it


def test_a_models_file_named_but_missing_is_refused_not_passed_over(simulated_db, tmp_path):
    with Store(simulated_db, create=False) as store:
        game_id = store.games()[0].id
    got = CliRunner().invoke(cli, ["--db", str(simulated_db), "analyse", game_id[:8], "--model", str(tmp_path / "gone.json")])
    assert got.exit_code == 1 and f"{tmp_path / 'gone.json'}: no such file" in " ".join(got.output.split())
    assert "ktlog analyse fit --model" in " ".join(got.output.split())


def test_a_what_if_from_the_command_line(simulated_db):
    with Store(simulated_db, create=False) as store:
        game = store.games()[0]
        shot = next(e.seq for e in store.events(game.id) if type(e.payload).__name__ == "Shot")
    shown = CliRunner().invoke(cli, ["--db", str(simulated_db), "analyse", game.id[:8], "--what-if", str(shot), "--continuations", "20", "--json"])
    assert shown.exit_code == 0, shown.output
    w = json.loads(shown.output)["what_if"]
    assert w["seq"] == shot and w["made"]["label"] == "against simulated play" and w["made"]["continuations"] == 20
    assert sum(w["made"]["chances"]) == pytest.approx(1.0) and sum(w["instead"]["chances"]) == pytest.approx(1.0)
    i = w["made"]["players"].index(w["player"])
    assert w["swing"] == pytest.approx(w["made"]["chances"][i] - w["instead"]["chances"][i], abs=1e-4)
    text = CliRunner().invoke(cli, ["--db", str(simulated_db), "analyse", game.id[:8], "--what-if", "1", "--continuations", "20"])
    assert text.exit_code == 1 and "not a move of the battle" in text.output


def test_league_moments_epa_and_operatives_from_the_command_line(tmp_path):
    db = tmp_path / "one.db"
    game = "01000000-0000-4000-8000-000000000000"
    g = one_shot_game()
    with Store(db) as store:
        store.import_envelopes(game, g.sealed(game, "2026-11-21T19:00:00+00:00"))
    winprob.save(Models(models={"kt24-preliminary": VP_MODEL}), winprob.model_path(db))
    runner = CliRunner()
    moments = runner.invoke(cli, ["--db", str(db), "stats", "moments", "--format", "json"])
    assert moments.exit_code == 0, moments.output
    shot = next(r for r in json.loads(moments.stdout) if r["action"] == "shoot: Melta")
    assert (shot["moments"], shot["games"], shot["decided"], shot["mean_epa"]) == (1, 1, 1, 1.0)
    assert shot["mean_swing"] == pytest.approx(100 * (SHOT_CHANCE - 0.5), abs=1e-2)
    players = runner.invoke(cli, ["--db", str(db), "stats", "players", "--epa", "--format", "json"])
    assert players.exit_code == 0, players.output
    alice = next(r for r in json.loads(players.stdout) if r["player"] == "Alice")
    assert alice["epa_per_game"] == 1.0 and alice["luck_vp_per_game"] == 0.25 and alice["games_read"] == 1
    operatives = runner.invoke(cli, ["--db", str(db), "stats", "operatives", "--format", "json"])
    assert operatives.exit_code == 0, operatives.output
    rows = json.loads(operatives.stdout)
    assert rows[0]["player"] == "Alice" and rows[0]["operative"] == "alice1" and rows[0]["epa"] == 1.0 and rows[0]["games"] == 1


def test_fit_keeps_other_rulesets_models_when_one_is_asked(tmp_path):
    db = tmp_path / "two.db"
    with Store(db) as store:
        simulate_into(store, 2, seed=5, ruleset="kt21")
    path = winprob.model_path(db)
    winprob.save(Models(models={"kt24-preliminary": VP_MODEL}), path)
    done = CliRunner().invoke(cli, ["--db", str(db), "analyse", "fit", "--ruleset", "kt21"])
    assert done.exit_code == 0, done.output
    kept = winprob.load(path)
    assert kept.models == {"kt24-preliminary": VP_MODEL} and kept.unfitted["kt21"].startswith("only 2 finished kt21")
    wrong = CliRunner().invoke(cli, ["--db", str(db), "analyse", "fit", "--ruleset", "kt99"])
    assert wrong.exit_code == 1 and "no ruleset 'kt99'" in wrong.output


def test_a_turning_point_of_loot_the_simulated_way():
    """A hand-written turning point in which alice1 loots in TP2 (1VP) is a key moment of kind `objective`."""
    g, played = fragile_teams()
    tp(played, "Alice")
    tp(played, "Alice")
    g.activate("alice1", "engage", loot("centre"))
    expend_all(g)
    result, _ = analyse(records(g), HAND_SET, top=3)
    looted = next(m for m in result.moments if m.kind == "objective")
    assert looted.player == "Alice" and "Loot on centre" in looted.description and "Alice +1VP (crit)" in looted.description


def test_a_drawn_game_is_read_without_a_warning(tmp_path):
    """Sample game 03 is a draw: each player's share of the result is a half, and nothing else is
    printed (a Polars warning once was)."""
    from ktlog.data import SAMPLE_GAMES

    db = tmp_path / "draw.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(db), "import", str(SAMPLE_GAMES / "03_transmission_draw.jsonl")]).exit_code == 0
    with Store(db, create=False) as store:
        game_id = store.games()[0].id
    shown = runner.invoke(cli, ["--db", str(db), "analyse", game_id[:8], "--json"])
    assert shown.exit_code == 0 and shown.stderr == ""
    data = json.loads(shown.stdout)
    assert data["curve"][-1][1] == [0.5, 0.5] and [s["total"] for s in data["swings"]] == pytest.approx([0.5 - c for c in data["curve"][0][1]], abs=1e-4)


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_simulator_plays_a_game_on_from_any_moment_of_its_battle(ruleset):
    """Rollouts start anywhere: in a turning point's start, its gambits, an activation or a
    counteract under way, its end's scoring. Every continuation ends with a result, every event
    of it accepted by the rules."""
    from ktlog.analytics.winprob_rollout import Roller

    _, game = next(iter(simulate_games(1, 12, ruleset=ruleset)))
    roller = Roller(ruleset, seed=3)
    played = set()
    for seq, event, state in states(records(game)):
        if state.phase in ("strategy", "firefight", "between") and (seq % 5 == 0 or type(event).__name__ not in played):
            played.add(type(event).__name__)
            got = roller.rollout(state, 2)
            assert got.continuations == 2 and sum(got.chances) == pytest.approx(1.0, abs=1e-3) and state.result is None
    assert {"TurningPointStarted", "OperativeActivated", "ActivationEnded"} <= played


def test_a_rollout_chooses_again_what_a_viewer_cannot_know():
    """Approved Ops: an unrevealed primary op (002 step 5) is chosen again for each continuation,
    as the simulator chooses it; a revealed one is kept."""
    from ktlog.analytics.winprob_rollout import Roller

    _, game = next(iter(simulate_games(1, 2, ruleset="kt24-approved")))
    roller = Roller("kt24-approved", seed=1)
    state = next(s for _, e, s in states(records(game)) if s.turning_point == 2 and type(e).__name__ == "TurningPointStarted")
    chosen = set()
    for _ in range(40):
        copy = fold(game.events[: state.seq])
        roller.simulator.resample_secrets(copy)
        chosen.add(tuple(p.primary_op for p in copy.players.values()))
        assert [p.tac_op_archetype in p.archetypes for p in copy.players.values()] == [True, True]
    assert len(chosen) > 4
    revealed = fold(game.events[: state.seq])
    for p in revealed.players.values():
        p.primary_op_revealed = True
    kept = [p.primary_op for p in revealed.players.values()]
    roller.simulator.resample_secrets(revealed)
    assert [p.primary_op for p in revealed.players.values()] == kept


def test_the_same_seed_plays_the_same_what_if():
    from ktlog.analytics.winprob_rollout import what_if

    _, game = next(iter(simulate_games(1, 8, ruleset="kt24-preliminary")))
    shot = next(seq for seq, e in records(game) if type(e).__name__ == "Shot")
    first, again = what_if(records(game), shot, 30, seed=4), what_if(records(game), shot, 30, seed=4)
    assert first == again and first.made.label == "against simulated play"
