"""The win-probability model: one per ruleset, stored with its held-out scores, read by every face.

A model reads a game at a moment (`winprob_features.Moment`: each player's features relative to
their opponents') and gives each player's chance to win (a softmax of each player's score, the
terms times `win`: for two players a logistic regression) and their expected VP margin at the end
(their VP less their opponents' mean, now, plus the terms times `margin`: a linear regression of
what is still to come). It is fitted by `winprob_fit` on a league's finished games of one ruleset;
a ruleset whose league has too few games is read by the default fitted for that ruleset on
simulated games (`ktlog/data/winprob.json`, made by tools/winprob_defaults.py), and a ruleset with
neither shows no chance, saying why: never another ruleset's model.

A stored model is coefficients in JSON (loading one runs no code). This module imports no Polars:
a game's chance is worked out in pure Python at every moment.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Literal

import msgspec

from ..data import WINPROB_DEFAULTS
from ..errors import KtlogError
from ..files.inputs import WINPROB_LIMIT, read_limited
from .winprob_features import TERMS, Moment, feature

FORMAT = "ktlog-winprob"
VERSION = 2
"""The stored models' format version (version 1 was one model for every ruleset: refused, named)."""
MIN_GAMES = 40
"""Fewer finished games of a ruleset than this: none is fitted for it (five folds of eight games
cannot tell a model from the VP baseline); its default is used, and the fitting says so."""
BASELINE_FEATURES = ("vp",)
"""The baseline's: VP difference alone (with its terms: as it is, over the battle left's square root, times it)."""
MAX_SHARPNESS = 10.0
"""The largest multiplier of a win score a models file may hold (a fit gives about 0.5-1.5)."""
DECIDED = 0.99
"""Above this a chance is shown as "> 99%" (below 1 - DECIDED as "< 1%") until the game is decided."""


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
    """How the model did held out at the moments of one turning point (0: before the first)."""

    turning_point: int
    rows: int
    brier: float
    favourite_won: float
    """Of the rows where it favoured a player (not 50%), the share whose favourite won (a draw half)."""


class WinModel(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset's fitted model, as stored: what it reads, its coefficients, what it was fitted
    on and how well it did on games it was not fitted on."""

    ruleset: str
    origin: Literal["league", "default"] = "league"
    """`league`: fitted on the database's own games; `default`: fitted by ktlog on simulated games of the ruleset."""
    players: list[int] = msgspec.field(default_factory=lambda: [2])
    """The player counts of the games it was fitted on."""
    features: list[str]
    win: list[float]
    """The win score's coefficient of each term (`terms(features)`, in that order)."""
    margin: list[float] = []
    """The VP margin still to come's coefficient of each term (none: no expected VP)."""
    sharpness: dict[int, list[float]] = {}
    """Per player count, the win score's multiplier in turning point 1, 2 ... (the last also for
    any later one, the first before it): 1 keeps the fitted chances, below 1 draws them toward a
    coin, 0 is a coin. Fitted on chances the model gave games it was not fitted on (`winprob_fit.
    fit_sharpness`); none for a player count: 1."""
    fitted_at: str = ""
    source: str = ""
    games: int = 0
    simulated_games: int = 0
    """How many of them `ktlog simulate` played."""
    rows: int = 0
    held_out: str = ""
    """How the scores were had: cross-validation by game, or a second league with other seeds."""
    scores: dict[str, Score] = {}
    """Held-out scores by name: model (the one stored), unsharpened (it without its `sharpness`),
    baseline (VP difference alone), coin; and board, the board's model, when it did not beat VP
    alone and VP alone was kept."""
    margin_error: float = 0.0
    """Held out: the root mean square error of the expected final VP margin."""
    calibration: list[CalibrationBin] = []
    by_turning_point: list[TurningPointScore] = []
    note: str = ""

    def describe(self) -> str:
        """One line naming the model, its games and what to know about it."""
        if self.origin == "default":
            text = f"{self.ruleset} default model, fitted on {self.games} simulated games of {self.ruleset} (random legal play, not people)"
        else:
            text = f"{self.ruleset} model fitted on this league's {self.games} game(s)"
            if self.simulated_games:
                text += f", {self.simulated_games} of them simulated (`ktlog simulate`): not a model of real games"
        return text + (f"; {self.note}" if self.note else "")


class Models(msgspec.Struct, frozen=True, kw_only=True):
    """The file of a database's models: one per ruleset fitted, and why each other has none."""

    format: str = FORMAT
    version: int = VERSION
    models: dict[str, WinModel] = {}
    unfitted: dict[str, str] = {}
    """Ruleset -> why no model was fitted for it (too few games ...): its default is used."""


class Choice(msgspec.Struct, frozen=True):
    """The model a game is read with, or None and why there is none."""

    model: WinModel | None
    why: str
    """What the faces show beside the chance: which model and what to know about it, or why none."""


# --- reading a moment ---------------------------------------------------------------------------


def chances(model: WinModel, moment: Moment) -> list[float]:
    """Each player's chance to win at the moment (in `moment.players` order; they add to 1)."""
    n = len(moment.players)
    if n < 2:
        return [1.0] * n
    sharp = sharpness(model, n, moment.turning_point)
    scores = [sharp * s for s in moment.scores(model.win)]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def sharpness(model: WinModel, players: int, turning_point: int) -> float:
    """The win score's multiplier at a moment of `turning_point` in a game of `players` (see `WinModel.sharpness`)."""
    by_tp = model.sharpness.get(players)
    return by_tp[min(max(turning_point, 1), len(by_tp)) - 1] if by_tp else 1.0


def expected_margins(model: WinModel, moment: Moment) -> list[float]:
    """Each player's expected VP margin at the end (their VP less their opponents' mean): the
    margin now (the `vp` feature, relative) plus what the model expects still to come."""
    vp = model.features.index("vp") if "vp" in model.features else None
    to_come = moment.scores(model.margin) if model.margin else [0.0] * len(moment.players)
    return [(row[vp] if vp is not None else 0.0) + more for row, more in zip(moment.relative, to_come)]


def percent(p: float, decided: bool = False) -> str:
    """A chance as the faces show it: whole percent, but "> 99%" and "< 1%" until the game is
    decided (a rounded 100% would say it was)."""
    if not decided and p > DECIDED:
        return "> 99%"
    if not decided and p < 1 - DECIDED:
        return "< 1%"
    return f"{round(100 * p)}%"


# --- storing ------------------------------------------------------------------------------------


def model_path(db: Path) -> Path:
    """Where a database's models are kept: beside it, `NAME.winprob.json`."""
    return db.with_name(db.name + ".winprob.json")


def save(models: Models, path: Path) -> None:
    from ..files.atomic import write_atomically

    text = msgspec.json.format(msgspec.json.encode(models), indent=1)
    write_atomically(path, lambda f: f.write(text))


def _checked(model: WinModel, where: str) -> WinModel:
    """A model whose features this ktlog reads and whose numbers are whole: else refused, named."""
    try:
        for f in model.features:
            feature(f)
    except KtlogError as exc:
        raise KtlogError(f"{where}: {exc}; fit again with `ktlog analyse fit`") from exc
    width = len(model.features) * len(TERMS)
    numbers = [*model.win, *model.margin]
    if len(model.win) != width or len(model.margin) not in (0, width) or not all(math.isfinite(c) for c in numbers):
        raise KtlogError(f"{where}: the {model.ruleset} model's coefficients are not one number per term; fit again with `ktlog analyse fit`")
    sharp = [a for by_tp in model.sharpness.values() for a in by_tp]
    if not all(math.isfinite(a) and 0 <= a <= MAX_SHARPNESS for a in sharp):
        raise KtlogError(f"{where}: the {model.ruleset} model's sharpness is not a number from 0 to {MAX_SHARPNESS} each; fit again with `ktlog analyse fit`")
    return model


def decode(data: bytes, where: str) -> Models:
    """Models from a file's bytes: JSON numbers and names only (no pickle: loading runs no code);
    anything else is refused, named."""
    try:
        head = msgspec.json.decode(data, type=dict[str, object])
    except msgspec.DecodeError as exc:
        raise KtlogError(f"{where} is not a ktlog win-probability model file ({exc}); fit again with `ktlog analyse fit`") from exc
    if head.get("format") != FORMAT or head.get("version") != VERSION:
        raise KtlogError(
            f"{where} is a model file of format {head.get('format')!r} version {head.get('version')}, this ktlog reads {FORMAT} {VERSION}"
            " (one model per ruleset); fit again with `ktlog analyse fit`"
        )
    try:
        models = msgspec.json.decode(data, type=Models)
    except msgspec.ValidationError as exc:
        raise KtlogError(f"{where} is not a ktlog win-probability model file ({exc}); fit again with `ktlog analyse fit`") from exc
    for name, model in models.models.items():
        if model.ruleset != name:
            raise KtlogError(f"{where}: the model filed under {name!r} is of ruleset {model.ruleset!r}; fit again with `ktlog analyse fit`")
        _checked(model, where)
    return models


def load(path: Path) -> Models | None:
    """The models stored at `path`, None if nothing is there (see `decode`). Only a regular file
    of at most `WINPROB_LIMIT` bytes is read: a folder, a pipe or a larger file is refused, named,
    before a byte is read."""
    if not path.exists():
        return None
    try:
        data = read_limited(path, "a win-probability model file", WINPROB_LIMIT)
    except OSError as exc:
        raise KtlogError(f"{path} cannot be read ({exc.strerror}); fit again with `ktlog analyse fit`") from exc
    return decode(data, str(path))


_defaults: Models | None = None


def defaults() -> Models:
    """The models ktlog ships, one per ruleset it simulates, fitted on simulated games."""
    global _defaults
    if _defaults is None:
        _defaults = decode(WINPROB_DEFAULTS.read_bytes(), "ktlog's default models") if WINPROB_DEFAULTS.is_file() else Models()
    return _defaults


def choose(ruleset: str, stored: Models | None) -> Choice:
    """The model a game of `ruleset` is read with: the league's own, else the ruleset's default
    (saying why), else none (saying why): never another ruleset's model."""
    mine = stored.models.get(ruleset) if stored else None
    if mine is not None:
        return Choice(mine, mine.describe())
    default = defaults().models.get(ruleset)
    why = (stored.unfitted.get(ruleset) if stored else None) or f"no {ruleset} model is fitted for this database (`ktlog analyse fit` fits one)"
    if default is not None:
        return Choice(default, f"{default.describe()}: {why}")
    return Choice(None, f"no win probability for {ruleset} games: ktlog has no default model of it and {why}")


def model_for(db: Path | None, ruleset: str, path: Path | None = None) -> Choice:
    """The model a game of `ruleset` in this database is read with, by every face (`path`: the
    models file, by default beside the database; neither: an in-memory database's, the defaults)."""
    where = path or (model_path(db) if db else None)
    return choose(ruleset, load(where) if where else None)
