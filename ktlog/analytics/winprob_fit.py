"""Fitting the win-probability models (`ktlog analyse fit`): one per ruleset, on the league's
finished games of that ruleset, scored by cross-validation split by game.

Each game is folded once and read at every moment (`winprob_features`); a row is a player at a
moment, with their outcome `y` (a win 1, a loss 0, a shared win or draw split between those
sharing it) and the VP margin still to come. The win model is a conditional logit (each player's
chance the softmax of their score; for two players a logistic regression), the margin model a
linear regression, both fitted by Newton's method over Polars sums with a light ridge penalty on
standardised terms, so neither needs more than the base install. The baseline is the same over
VP difference alone. Last, the win score is sharpened (or flattened toward a coin) by a multiplier
per player count and turning point, fitted on the chances the model gave games it was not fitted
on (`fit_sharpness`): where the board tells little (KT21's first turning point) the chances keep
near a coin.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence

import polars as pl

from ..errors import KtlogError
from ..events import Event, GameCreated
from ..rulesets import RULESETS
from ..state import GameState
from .winprob import BASELINE_FEATURES, MAX_SHARPNESS, MIN_GAMES, CalibrationBin, Score, TurningPointScore, WinModel
from .winprob_features import TERMS, Reader, features_of, in_battle, moves_the_board, states, terms

FOLDS = 5
BINS = 10
EPSILON = 1e-6
RIDGE = 1.0
"""The penalty on the standardised coefficients' squares (half of it): scikit-learn's default
for a logistic regression, enough to keep a small league's fit finite."""

SeqEvents = list[tuple[int, Event]]


def outcome(state: GameState) -> dict[str, float]:
    """Each player's share of the result: 1 to the winner, split between players sharing a win or a draw."""
    result = state.result
    assert result is not None, "only finished games are read"
    sharing = result.winners or ([result.winner] if result.winner else list(state.players) if result.draw else [])
    return {p: (1 / len(sharing) if p in sharing else 0.0) for p in state.players}


def final_margins(state: GameState) -> dict[str, float]:
    """Each player's VP less their opponents' mean, at the end."""
    vp = {p: s.total_vp for p, s in state.players.items()}
    n = len(vp)
    total = sum(vp.values())
    return {p: v - (total - v) / (n - 1) for p, v in vp.items()} if n > 1 else dict.fromkeys(vp, 0.0)


def game_rows(records: SeqEvents, reader: Reader, game_key: int) -> pl.DataFrame:
    """Every moment of one finished game, a row per player: game_key, seq, player, turning_point,
    left, each feature relative (`f0` ...), `y` and `future` (the VP margin still to come)."""
    cols: dict[str, list] = {"seq": [], "player": [], "turning_point": [], "left": [], **{f"f{i}": [] for i in range(len(reader.features))}}
    vp = reader.features.index("vp") if "vp" in reader.features else None
    state = GameState()
    for _, event, state in states(records):
        if not in_battle(state) or state.phase == "over" or (cols["seq"] and not moves_the_board(event)):
            continue
        m = reader.moment(state)
        for i, player in enumerate(m.players):
            cols["seq"].append(m.seq)
            cols["player"].append(player)
            cols["turning_point"].append(m.turning_point)
            cols["left"].append(m.left)
            for j, x in enumerate(m.relative[i]):
                cols[f"f{j}"].append(x)
    if state.result is None:
        raise KtlogError("only a finished game's moments are rows to fit on")
    y, end = outcome(state), final_margins(state)
    frame = pl.DataFrame(
        cols, schema={"seq": pl.Int64, "player": pl.String, "turning_point": pl.Int64, "left": pl.Float64} | {k: pl.Float64 for k in cols if k[0] == "f"}
    )
    now = pl.col(f"f{vp}") if vp is not None else pl.lit(0.0)
    return frame.with_columns(
        game_key=pl.lit(game_key, pl.Int64),
        y=pl.col("player").replace_strict(y, return_dtype=pl.Float64),
        future=pl.col("player").replace_strict(end, return_dtype=pl.Float64) - now,
    )


def with_terms(rows: pl.DataFrame, features: Sequence[str], columns: Sequence[str] | None = None) -> pl.DataFrame:
    """The rows with each feature's terms (`terms(features)` names), from `f0` ... (or `columns`)."""
    root = 1.0 / (pl.col("left") + 0.25).sqrt()
    made = []
    for f, c in zip(features, columns or [f"f{i}" for i in range(len(features))]):
        x = pl.col(c)
        made += [x.alias(f + TERMS[0]), (x * root).alias(f + TERMS[1]), (x * pl.col("left")).alias(f + TERMS[2])]
    return rows.with_columns(made)


# --- fitting ------------------------------------------------------------------------------------


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b by Gaussian elimination with partial pivoting (a small symmetric system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def _standardised(rows: pl.DataFrame, columns: Sequence[str]) -> tuple[pl.DataFrame, list[float]]:
    scale = [s if s and s > 0 else 1.0 for s in rows.select(pl.col(c).std() for c in columns).row(0)]
    frame = rows.select("game_key", "seq", "y", "future", *(pl.col(c) / s for c, s in zip(columns, scale)))
    return frame, scale


def _gram(frame: pl.DataFrame, columns: Sequence[str], weight: str | None = None) -> dict[str, float]:
    """Sum over rows of weight * x_i * x_j for every pair i <= j (keys "i_j")."""
    weighted = [pl.col(c) * pl.col(weight) for c in columns] if weight else [pl.col(c) for c in columns]
    return frame.select((w * pl.col(b)).sum().alias(f"{i}_{j}") for i, w in enumerate(weighted) for j, b in enumerate(columns) if j >= i).row(0, named=True)


def fit_softmax(rows: pl.DataFrame, columns: Sequence[str], iterations: int = 25, ridge: float = RIDGE) -> list[float]:
    """The conditional logit's coefficients (each moment's players compete: a player's chance is
    the softmax of their score), maximising the likelihood of `y` less half the ridge times the
    standardised coefficients' squares, by Newton's method."""
    frame, scale = _standardised(rows, columns)
    n = len(columns)
    w = [0.0] * n
    moment = ("game_key", "seq")
    for _ in range(iterations):
        scored = frame.with_columns(_s=pl.sum_horizontal(*(pl.col(c) * wi for c, wi in zip(columns, w))) if n else pl.lit(0.0))
        scored = scored.with_columns(_e=(pl.col("_s") - pl.col("_s").max().over(moment)).exp())
        scored = scored.with_columns(_p=pl.col("_e") / pl.col("_e").sum().over(moment))
        grad = scored.select(((pl.col("_p") - pl.col("y")) * pl.col(c)).sum().alias(c) for c in columns).row(0)
        own = _gram(scored, columns, "_p")
        means = scored.group_by(moment).agg((pl.col("_p") * pl.col(c)).sum().alias(c) for c in columns)
        shared = _gram(means, columns)
        hess = [[own[f"{min(i, j)}_{max(i, j)}"] - shared[f"{min(i, j)}_{max(i, j)}"] + (ridge if i == j else 0.0) for j in range(n)] for i in range(n)]
        step = _solve(hess, [g + ridge * wi for g, wi in zip(grad, w)])
        w = [wi - si for wi, si in zip(w, step)]
        if not step or max(abs(s) for s in step) < 1e-6:
            break
    return [wi / s for wi, s in zip(w, scale)]


def fit_linear(rows: pl.DataFrame, columns: Sequence[str], target: str = "future", ridge: float = RIDGE) -> list[float]:
    """Least squares of `target` on the columns (no intercept: a level game has nothing to come),
    with the same light ridge on the standardised coefficients."""
    frame, scale = _standardised(rows, columns)
    n = len(columns)
    gram = _gram(frame, columns)
    xy = frame.select((pl.col(c) * pl.col(target)).sum().alias(c) for c in columns).row(0)
    a = [[gram[f"{min(i, j)}_{max(i, j)}"] + (ridge if i == j else 0.0) for j in range(n)] for i in range(n)]
    return [wi / s for wi, s in zip(_solve(a, list(xy)), scale)]


def _score(columns: Sequence[str], w: Sequence[float]) -> pl.Expr:
    return pl.sum_horizontal(*(pl.col(c) * wi for c, wi in zip(columns, w))) if columns else pl.lit(0.0)


def _softmax(score: pl.Expr) -> pl.Expr:
    e = (score - score.max().over("game_key", "seq")).exp()
    return e / e.sum().over("game_key", "seq")


def probabilities(rows: pl.DataFrame, columns: Sequence[str], w: Sequence[float], name: str = "p") -> pl.DataFrame:
    """The rows with each player's chance under coefficients `w` (softmax within each moment)."""
    return rows.with_columns(_softmax(_score(columns, w)).alias(name))


# --- sharpness ----------------------------------------------------------------------------------


def _players_and_tp(rows: pl.DataFrame) -> pl.DataFrame:
    return rows.with_columns(_players=pl.len().over("game_key", "seq").cast(pl.Int64), _tp=pl.col("turning_point").clip(lower_bound=1))


def fit_sharpness(rows: pl.DataFrame, score: str = "score") -> dict[int, list[float]]:
    """Per player count, the multiplier of the win score `score` in each turning point (1, 2 ...,
    the last reached) that gives `rows` their likeliest outcomes (a conditional logit on the score
    alone, one coefficient a turning point), at least 0 (a coin). `rows` must be chances the model
    gave games it was not fitted on: on its own games it would look sharper than it is."""
    out: dict[int, list[float]] = {}
    for (players,), group in _players_and_tp(rows).partition_by("_players", as_dict=True).items():
        last: int = group.select(pl.col("_tp").max()).item() or 1
        named = [f"_tp{k}" for k in range(1, last + 1)]
        group = group.with_columns((pl.col(score) * (pl.col("_tp") == k)).alias(name) for k, name in enumerate(named, 1))
        out[int(players)] = [round(min(MAX_SHARPNESS, max(0.0, a)), 4) for a in fit_softmax(group, named)]
    return out


def sharpened(rows: pl.DataFrame, score: str, sharpness: dict[int, list[float]], name: str = "p") -> pl.DataFrame:
    """The rows with `name` the chances of win score `score` times its sharpness (`winprob.sharpness`)."""
    table = pl.DataFrame(
        [(n, tp, a) for n, by_tp in sharpness.items() for tp, a in enumerate(by_tp, 1)],
        schema={"_players": pl.Int64, "_tp": pl.Int64, "_a": pl.Float64},
        orient="row",
    )
    last = table.group_by("_players").agg(pl.col("_tp").max().alias("_last"))
    rows = _players_and_tp(rows).join(last, on="_players", how="left")
    rows = rows.with_columns(pl.min_horizontal("_tp", "_last").alias("_tp")).join(table, on=["_players", "_tp"], how="left")
    return rows.with_columns(_softmax(pl.col(score) * pl.col("_a").fill_null(1.0)).alias(name)).drop("_players", "_tp", "_last", "_a")


# --- scoring ------------------------------------------------------------------------------------


def score(rows: pl.DataFrame, p: str = "p") -> Score:
    """Brier score and log loss of the chances in column `p` against the outcome `y`."""
    clipped = pl.col(p).clip(EPSILON, 1 - EPSILON)
    brier, loss = rows.select(((pl.col(p) - pl.col("y")) ** 2).mean(), -(pl.col("y") * clipped.log() + (1 - pl.col("y")) * (1 - clipped).log()).mean()).row(0)
    return Score(round(brier, 4), round(loss, 4))


def calibration(rows: pl.DataFrame, p: str = "p", bins: int = BINS) -> list[CalibrationBin]:
    """Rows grouped by predicted chance in `bins` equal bands: the mean predicted and the share won."""
    band = (pl.col(p) * bins).floor().clip(0, bins - 1).cast(pl.Int64).alias("band")
    table = rows.group_by(band).agg(pl.len().alias("rows"), pl.col(p).mean().alias("predicted"), pl.col("y").mean().alias("observed")).sort("band")
    return [CalibrationBin(b / bins, (b + 1) / bins, n, round(pr, 3), round(ob, 3)) for b, n, pr, ob in table.iter_rows()]


def by_turning_point(rows: pl.DataFrame, p: str = "p") -> list[TurningPointScore]:
    """Brier score and how often the favourite won, at the moments of each turning point."""
    favoured = pl.col(p) != 0.5
    won = pl.when(pl.col(p) > 0.5).then(pl.col("y")).otherwise(1 - pl.col("y"))
    table = (
        rows.group_by("turning_point")
        .agg(pl.len().alias("rows"), ((pl.col(p) - pl.col("y")) ** 2).mean().alias("brier"), won.filter(favoured).mean().fill_null(0.5).alias("won"))
        .sort("turning_point")
    )
    return [TurningPointScore(tp, n, round(b, 4), round(f, 3)) for tp, n, b, f in table.iter_rows()]


def game_folds(rows: pl.DataFrame, folds: int = FOLDS, seed: int = 1) -> pl.DataFrame:
    """`rows` with a `fold` column 0..folds-1 given per game: every row of a game in one fold, the
    games shuffled (by a hash of their key and `seed`) so that folds do not follow the order played."""
    keys = rows.select("game_key").unique().sort("game_key")
    order = keys.with_columns(pl.col("game_key").hash(seed).rank("ordinal").alias("rank"))
    return rows.join(order.select("game_key", (pl.col("rank") % folds).cast(pl.Int64).alias("fold")), on="game_key")


class Fitted:
    """A ruleset's model fitted on `rows`, and the baseline, with what each predicts for `scored` rows."""

    def __init__(self, rows: pl.DataFrame, features: Sequence[str]):
        self.features = list(features)
        base = [self.features.index(f) for f in BASELINE_FEATURES]
        rows = with_terms(rows, self.features)
        rows = with_terms(rows, [f"base_{f}" for f in BASELINE_FEATURES], [f"f{i}" for i in base])
        self.columns = terms(self.features)
        self.base_columns = terms([f"base_{f}" for f in BASELINE_FEATURES])
        self.win = fit_softmax(rows, self.columns)
        self.margin = fit_linear(rows, self.columns)
        self.baseline = fit_softmax(rows, self.base_columns)
        self.base_margin = fit_linear(rows, self.base_columns)

    def model(self, ruleset: str, baseline: bool = False, **about) -> WinModel:
        """The fitted coefficients as a stored model (`baseline`: VP alone's; `about`: what it was
        fitted on, its scores ...)."""
        features, win, margin = (list(BASELINE_FEATURES), self.baseline, self.base_margin) if baseline else (self.features, self.win, self.margin)
        return WinModel(ruleset=ruleset, features=features, win=[round(c, 6) for c in win], margin=[round(c, 6) for c in margin], **about)

    def predict(self, rows: pl.DataFrame) -> pl.DataFrame:
        """The rows with `p` (the model), `p_baseline`, `p_coin`, `expected` (the margin still to
        come), and `score`, `score_baseline` (the win scores the chances are the softmax of)."""
        base = [self.features.index(f) for f in BASELINE_FEATURES]
        rows = with_terms(with_terms(rows, self.features), [f"base_{f}" for f in BASELINE_FEATURES], [f"f{i}" for i in base])
        rows = probabilities(probabilities(rows, self.columns, self.win), self.base_columns, self.baseline, "p_baseline")
        players = pl.len().over("game_key", "seq")
        return rows.with_columns(
            score=_score(self.columns, self.win),
            score_baseline=_score(self.base_columns, self.baseline),
            p_coin=1.0 / players,
            expected=pl.sum_horizontal(*(pl.col(c) * w for c, w in zip(self.columns, self.margin))),
            expected_baseline=pl.sum_horizontal(*(pl.col(c) * w for c, w in zip(self.base_columns, self.base_margin))),
        )


def league_model(
    ruleset: str, games: Iterable[tuple[SeqEvents, bool]], source: str, folds: int = FOLDS, progress: Callable[[int], None] | None = None
) -> WinModel | str:
    """The model of a ruleset fitted on its finished games ((events, simulated) each), scored out
    of fold; or why none is fitted (fewer than `MIN_GAMES` games)."""
    rows, simulated = read_games(ruleset, games, progress)
    count = rows.select("game_key").n_unique() if rows.height else 0
    if count < MIN_GAMES:
        return f"only {count} finished {ruleset} game(s), fewer than the {MIN_GAMES} needed to tell a model from the VP baseline"
    features = features_read(ruleset, rows)
    whole = Fitted(rows, features)
    scored = out_of_fold(rows, features, folds)
    return assemble(whole, ruleset, scored, held_out=f"{folds}-fold cross-validation split by game", games=count, simulated=simulated, source=source)


def out_of_fold(rows: pl.DataFrame, features: Sequence[str], folds: int = FOLDS) -> pl.DataFrame:
    """The rows, each with its `fold` and what a model fitted on the other folds' games predicts (`Fitted.predict`)."""
    folded = game_folds(rows, folds)
    return pl.concat(Fitted(folded.filter(pl.col("fold") != k), features).predict(folded.filter(pl.col("fold") == k)) for k in range(folds))


def read_games(ruleset: str, games: Iterable[tuple[SeqEvents, bool]], progress: Callable[[int], None] | None = None) -> tuple[pl.DataFrame, int]:
    """The rows of every game given (folded one by one), and how many were simulated. The
    ruleset's board features are read too, and kept when a game has positions (`features_read`)."""
    own = features_of(RULESETS[ruleset])
    reader = Reader(RULESETS[ruleset], features_of(RULESETS[ruleset], board=True))
    frames, simulated, positional = [], 0, False
    for key, (records, was_simulated) in enumerate(games):
        frames.append(game_rows(records, reader, key))
        simulated += was_simulated
        positional = positional or any(isinstance(e, GameCreated) and e.layout is not None for _, e in records[:1])
        if progress:
            progress(key + 1)
    rows = pl.concat(frames) if frames else pl.DataFrame()
    if not positional and rows.height:
        rows = rows.drop(f"f{i}" for i in range(len(own), len(reader.features)))
    return rows, simulated


def features_read(ruleset: str, rows: pl.DataFrame) -> tuple[str, ...]:
    """The features whose columns `read_games` kept: the ruleset's, and its board features when a game had positions."""
    every = features_of(RULESETS[ruleset], board=True)
    return every[: sum(c[0] == "f" and c[1:].isdigit() for c in rows.columns)]


def assemble(
    fitted: Fitted,
    ruleset: str,
    scored: pl.DataFrame,
    *,
    held_out: str,
    games: int,
    simulated: int,
    source: str,
    origin: str = "league",
    out_of_fold: pl.DataFrame | None = None,
) -> WinModel:
    """The model as stored: the coefficients fitted on every game, its sharpness fitted on the
    chances of `out_of_fold` (the fitting league's, `out_of_fold()`), the held-out scores of `scored`
    (the same rows when None: then each fold's rows are scored with the sharpness of the others').
    If the board did not beat VP alone held out, VP alone is kept (and the note says so)."""
    players = sorted(scored.group_by("game_key", "seq").len().get_column("len").unique().to_list())
    scores = {"model": score(scored, "p"), "baseline": score(scored, "p_baseline"), "coin": score(scored, "p_coin")}
    baseline = scores["model"].log_loss >= scores["baseline"].log_loss
    expected, kept = ("expected_baseline", "score_baseline") if baseline else ("expected", "score")
    sharpness = fit_sharpness(scored if out_of_fold is None else out_of_fold, kept)
    if out_of_fold is None:
        folds = scored.get_column("fold").unique().sort().to_list()
        scored = pl.concat(
            sharpened(scored.filter(pl.col("fold") == k), kept, fit_sharpness(scored.filter(pl.col("fold") != k), kept), "p_kept") for k in folds
        )
    else:
        scored = sharpened(scored, kept, sharpness, "p_kept")
    scores["unsharpened"] = scores["baseline" if baseline else "model"]
    p = "p_kept"
    note = (
        f"the board did not beat VP alone held out (log loss {scores['model'].log_loss} against {scores['baseline'].log_loss}): VP alone is kept"
        if baseline
        else ""
    )
    if baseline:
        scores = {"board": scores["model"], "baseline": scores["baseline"], "unsharpened": scores["unsharpened"], "coin": scores["coin"]}
    scores = {"model": score(scored, p), **{k: v for k, v in scores.items() if k != "model"}}
    error = scored.select(((pl.col(expected) - pl.col("future")) ** 2).mean().sqrt()).item()
    return fitted.model(
        ruleset,
        baseline,
        origin="default" if origin == "default" else "league",
        players=[int(n) for n in players],
        fitted_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        source=source,
        games=games,
        simulated_games=simulated,
        rows=scored.height,
        held_out=held_out,
        scores=scores,
        sharpness=sharpness,
        margin_error=round(error, 3),
        calibration=calibration(scored, p),
        by_turning_point=by_turning_point(scored, p),
        note=note,
    )
