"""The win-probability model: fitted on a league's finished two-player games, scored by
cross-validation split by game, stored as JSON beside the database.

Each row is a player at a moment of a game (`winprob_features.moments`); the outcome is 1 for a
win, 0 for a loss, 1/2 for a draw. The model is a logistic regression with no intercept over
`FEATURES` (scikit-learn, the optional extra `ktlog[analyse]`); the baseline is the same over
VP difference and VP difference late alone, fitted here by Newton's method with Polars sums, so
it needs no extra. A stored model is coefficients in JSON: loading one runs no code.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import msgspec
import polars as pl

from ..errors import KtlogError
from ..files.atomic import write_atomically
from .league import League, NothingToCompute
from .place import Folder, Place
from .winprob_features import BASELINE_FEATURES, FEATURES, LOG_COLUMNS, TABLE, moments

FORMAT = "ktlog-winprob"
VERSION = 1
"""The stored model's format version (a model of another version is refused, named)."""
FOLDS = 5
MIN_GAMES = 40
"""Fewer finished games than this: no model is fitted (five folds of eight games cannot tell it
from the baseline); the baseline is used, and the fitting says so."""
EXTRA_HINT = "pip install 'ktlog[analyse]' (scikit-learn) fits the full model"
BINS = 10
EPSILON = 1e-6


class Score(msgspec.Struct, frozen=True):
    brier: float
    log_loss: float


class CalibrationBin(msgspec.Struct, frozen=True):
    low: float
    high: float
    rows: int
    predicted: float
    observed: float


class TurningPointScore(msgspec.Struct, frozen=True):
    """How the kept model did out of fold at the moments of one turning point (0: before the first)."""

    turning_point: int
    rows: int
    brier: float
    favourite_won: float
    """Of the rows where it favoured a player (not 50%), the share whose favourite won (a draw half)."""


class WinModel(msgspec.Struct, frozen=True, kw_only=True):
    """A fitted model, as stored: what it reads, its coefficients, what it was fitted on and how well it did."""

    format: str = FORMAT
    version: int = VERSION
    kind: Literal["logistic", "baseline"]
    features: list[str]
    coefficients: list[float]
    fitted_at: str = ""
    source: str = ""
    games: list[str] = []
    """The ids of the games it was fitted on."""
    simulated_games: int = 0
    """How many of them `ktlog simulate` played."""
    rows: int = 0
    scores: dict[str, Score] = {}
    """Out-of-fold scores by name: model, baseline, coin."""
    calibration: list[CalibrationBin] = []
    by_turning_point: list[TurningPointScore] = []
    note: str = ""
    """Why the baseline is used, when it is."""

    def describe(self) -> str:
        """One line naming the model, its games and what to know about it."""
        fitted = f"{self.kind} model fitted on {len(self.games) or self.simulated_games} game(s)"
        if self.simulated_games:
            fitted += f", {self.simulated_games} of them simulated (`ktlog simulate`): not a model of real games"
        return fitted + (f"; {self.note}" if self.note else "")


def logit(model: WinModel) -> pl.Expr:
    """The model's log-odds of the row's player winning, as a Polars expression over the features."""
    return pl.sum_horizontal(*(pl.col(f) * w for f, w in zip(model.features, model.coefficients))) if model.features else pl.lit(0.0)


def probability(model: WinModel) -> pl.Expr:
    return (1.0 / (1.0 + (-logit(model)).exp())).alias("p")


# --- the rows of a league -------------------------------------------------------------------------


def league_rows(league: League) -> pl.DataFrame:
    """Every moment of the league's finished two-player games, with the outcome `y` and `simulated`."""
    league.read_ahead("game_results")
    finished = league.finished_ids.select("game_key")
    logs = {name: league.read(TABLE[name], tuple(columns)).join(finished, on="game_key", how="semi") for name, columns in LOG_COLUMNS.items()}
    results = league.results.select("game_key", "game_id", "player", "result")
    players = (
        results.with_columns(
            order=pl.col("player").rank("ordinal").over("game_key").cast(pl.Int64) - 1, y=pl.col("result").replace_strict(OUTCOME, default=None)
        )
        .join(league.games.select("game_key", pl.col("simulated").fill_null(0).cast(pl.Int64)), on="game_key", how="left")
        .select("game_key", "player", "order", "game_id", "y", "simulated")
    )
    return moments(logs, players).drop_nulls("y")


OUTCOME = {"win": 1.0, "loss": 0.0, "draw": 0.5}


# --- scoring ------------------------------------------------------------------------------------


def score(rows: pl.DataFrame, p: str = "p") -> Score:
    """Brier score and log loss of the probabilities in column `p` against the outcome `y`."""
    clipped = pl.col(p).clip(EPSILON, 1 - EPSILON)
    brier, loss = rows.select(((pl.col(p) - pl.col("y")) ** 2).mean(), -(pl.col("y") * clipped.log() + (1 - pl.col("y")) * (1 - clipped).log()).mean()).row(0)
    return Score(round(brier, 4), round(loss, 4))


def calibration(rows: pl.DataFrame, p: str = "p", bins: int = BINS) -> list[CalibrationBin]:
    """Rows grouped by predicted probability in `bins` equal bands: the mean predicted and the share won."""
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


# --- fitting ------------------------------------------------------------------------------------


def fit_newton(rows: pl.DataFrame, features: Sequence[str], iterations: int = 25, ridge: float = 1e-6) -> list[float]:
    """A logistic regression with no intercept by Newton's method (its sums in Polars): the
    weights minimising the log loss against the outcome `y` (fractional outcomes allowed)."""
    w = [0.0] * len(features)
    for _ in range(iterations):
        p = 1.0 / (1.0 + (-pl.sum_horizontal(*(pl.col(f) * wi for f, wi in zip(features, w)))).exp())
        sums = (
            rows.lazy()
            .with_columns(p.alias("_p"))
            .select(
                *(((pl.col("_p") - pl.col("y")) * pl.col(f)).sum().alias(f"g{i}") for i, f in enumerate(features)),
                *(
                    (pl.col("_p") * (1 - pl.col("_p")) * pl.col(a) * pl.col(b)).sum().alias(f"h{i}_{j}")
                    for i, a in enumerate(features)
                    for j, b in enumerate(features)
                    if j >= i
                ),
            )
        )
        got = sums.collect().row(0, named=True)
        n = len(features)
        grad = [got[f"g{i}"] for i in range(n)]
        hess = [[got[f"h{min(i, j)}_{max(i, j)}"] + (ridge * rows.height if i == j else 0.0) for j in range(n)] for i in range(n)]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


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


def fit_logistic(rows: pl.DataFrame, features: Sequence[str]) -> list[float]:
    """A logistic regression with no intercept by scikit-learn (its Newton-Cholesky solver, made
    for many rows and few features: 2.5 times L-BFGS' speed here; the default L2 penalty on
    standardised features): a draw is a win and a loss with half a weight each."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = rows.select(features).to_numpy()
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    y = rows.get_column("y").to_numpy()
    draws = y == 0.5
    xs = np.concatenate([x, x[draws]]) / scale
    ys = np.concatenate([np.where(draws, 1, y), np.zeros(int(draws.sum()))]).astype(int)
    weights = np.concatenate([np.where(draws, 0.5, 1.0), np.full(int(draws.sum()), 0.5)])
    if len(set(ys.tolist())) < 2:
        return fit_newton(rows, features)
    model = LogisticRegression(fit_intercept=False, solver="newton-cholesky", max_iter=100)
    model.fit(xs, ys, sample_weight=weights)
    return [float(c) for c in model.coef_[0] / scale]


def sklearn_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("sklearn") is not None


def _with_p(rows: pl.DataFrame, features: Sequence[str], w: list[float], name: str) -> pl.DataFrame:
    return rows.with_columns(probability(WinModel(kind="baseline", features=list(features), coefficients=w)).alias(name))


def fit(league: League, folds: int = FOLDS) -> WinModel:
    """Fit on the league's finished two-player games: the out-of-fold scores of the model, the
    baseline and a coin, the calibration table of the one kept, and its coefficients fitted on every
    game. The baseline is kept when there are fewer than `MIN_GAMES` games, when scikit-learn is
    not installed, or when the model does not beat it out of fold; `note` says which."""
    rows = league_rows(league)
    games = rows.select("game_key", "game_id", "simulated").unique()
    if games.is_empty():
        raise NothingToCompute("no finished two-player game to fit on: record or import games (`ktlog simulate` plays some, then --include-simulated)")
    use_sklearn = sklearn_available()
    note = ""
    if games.height < MIN_GAMES:
        note = f"only {games.height} finished game(s), fewer than the {MIN_GAMES} needed to tell a model from the baseline: the baseline is used"
    elif not use_sklearn:
        note = f"scikit-learn is not installed, so the baseline is used; {EXTRA_HINT}"
    full = use_sklearn and not note
    folds = min(folds, games.height) if games.height > 1 else 0
    rows = game_folds(rows, folds) if folds else rows.with_columns(fold=pl.lit(0, pl.Int64))
    out = []
    for k in range(folds):
        train, test = rows.filter(pl.col("fold") != k), rows.filter(pl.col("fold") == k)
        test = _with_p(test, BASELINE_FEATURES, fit_newton(train, BASELINE_FEATURES), "p_baseline")
        if full:
            test = _with_p(test, FEATURES, fit_logistic(train, FEATURES), "p_model")
        out.append(test)
    scored = pl.concat(out) if out else rows.with_columns(p_baseline=pl.lit(0.5))
    scores = {"coin": score(scored.with_columns(p_coin=pl.lit(0.5)), "p_coin"), "baseline": score(scored, "p_baseline")}
    if full:
        scores["model"] = score(scored, "p_model")
        if scores["model"].log_loss >= scores["baseline"].log_loss:
            full = False
            note = f"the model did not beat the baseline out of fold (log loss {scores['model'].log_loss} against {scores['baseline'].log_loss}): the baseline is used"
    features = FEATURES if full else BASELINE_FEATURES
    coefficients = fit_logistic(rows, features) if full else fit_newton(rows, features)
    return WinModel(
        kind="logistic" if full else "baseline",
        features=list(features),
        coefficients=[round(c, 6) for c in coefficients],
        fitted_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        source=str(league.db),
        games=sorted(games.get_column("game_id").to_list()),
        simulated_games=int(games.get_column("simulated").sum()),
        rows=rows.height,
        scores=scores,
        calibration=calibration(scored, "p_model" if full else "p_baseline"),
        by_turning_point=by_turning_point(scored, "p_model" if full else "p_baseline"),
        note=note,
    )


# --- storing ------------------------------------------------------------------------------------


def model_path(db: Path) -> Path:
    """Where a database's model is kept: beside it, `NAME.winprob.json`."""
    return db.with_name(db.name + ".winprob.json")


def save(model: WinModel, path: Path) -> None:
    text = msgspec.json.format(msgspec.json.encode(model), indent=1)
    write_atomically(path, lambda f: f.write(text))


def load(path: Path) -> WinModel | None:
    """The model stored at `path`, None if there is none; a file that is not one is refused, named.
    It is read as JSON numbers and names only (no pickle: loading runs no code)."""
    if not path.is_file():
        return None
    try:
        model = msgspec.json.decode(path.read_bytes(), type=WinModel)
    except (msgspec.DecodeError, OSError) as exc:
        raise KtlogError(f"{path} is not a ktlog win-probability model ({exc}); fit one again with `ktlog analyse fit`") from exc
    if model.format != FORMAT or model.version != VERSION:
        raise KtlogError(
            f"{path} is a model of format {model.format!r} version {model.version}, this ktlog reads {FORMAT} {VERSION}; fit again with `ktlog analyse fit`"
        )
    unknown = sorted(set(model.features) - set(FEATURES))
    if unknown or len(model.features) != len(model.coefficients) or not all(math.isfinite(c) for c in model.coefficients):
        raise KtlogError(
            f"{path} has features and coefficients this ktlog cannot use ({', '.join(unknown) or 'counts or numbers wrong'}); fit again with `ktlog analyse fit`"
        )
    return model


DEFAULT = WinModel(
    kind="baseline",
    features=list(BASELINE_FEATURES),
    coefficients=[0.880263, 0.198321],
    source="ktlog simulate --games 2000 --seed 1",
    simulated_games=2000,
    note="no model is stored for this database (`ktlog analyse fit` fits one on its games): the baseline as fitted on ktlog's simulated 2,000-game league is used",
)
"""The model of a database none was fitted for: the baseline as fitted on the simulated league of
docs/statistics.md, saying so."""


def model_for(db: Path | Place | None, path: Path | None = None) -> WinModel:
    """The model a database's games are read with, by every face: the one stored for it (`path`,
    by default beside it or beside a dataset's folder), or else `DEFAULT` (an in-memory database
    or a dataset in object storage has none stored)."""
    beside = db.path if isinstance(db, Folder) else db if isinstance(db, Path) else None
    where = path or (model_path(beside) if beside else None)
    stored = load(where) if where else None
    return stored or DEFAULT
