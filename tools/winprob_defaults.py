"""Write ktlog/data/winprob.json: the default win-probability model of each ruleset ktlog
simulates, fitted on a simulated league of that ruleset (its sharpness on that league's chances
out of fold) and scored on a second league played with other seeds (its held-out scores are
stored with it and quoted in docs/statistics.md).

    .venv/bin/python tools/winprob_defaults.py [--games 2000] [--held-out 600] [--rulesets kt24-preliminary,...]

A ruleset left out of the file has no default: its games show no chance until a league fits one.
The models of rulesets not asked for are kept as they are in the file.
"""

from __future__ import annotations

import argparse
import sys
import time

from ktlog.analytics.winprob import Models, WinModel, load, save
from ktlog.analytics.winprob_features import features_of
from ktlog.analytics.winprob_fit import Fitted, assemble, out_of_fold, read_games
from ktlog.data import WINPROB_DEFAULTS
from ktlog.play.simulate import simulate_games
from ktlog.rulesets import RULESETS

RULESETS_FITTED = ("kt24-preliminary", "kt24-approved", "kt21", "kt24-multiplayer")
"""Joint Ops is left out: its battles have no set length, and its simulated missions are seldom won."""
FIT_SEED = 41
HELD_OUT_SEED = 4141


def league(ruleset: str, games: int, seed: int):
    """The (events, simulated) of `games` simulated games of the ruleset."""
    for _, g in simulate_games(games, seed, ruleset=ruleset):
        yield list(enumerate(g.events, 1)), True


def fit_default(ruleset: str, games: int, held_out: int) -> WinModel:
    t = time.process_time()
    rows, _ = read_games(ruleset, league(ruleset, games, FIT_SEED))
    scoring, _ = read_games(ruleset, league(ruleset, held_out, HELD_OUT_SEED))
    features = features_of(RULESETS[ruleset])
    fitted = Fitted(rows, features)
    model = assemble(
        fitted,
        ruleset,
        fitted.predict(scoring),
        held_out=f"a second simulated league of {held_out} games (seed {HELD_OUT_SEED})",
        games=games,
        simulated=games,
        source=f"ktlog simulate --ruleset {ruleset} --games {games} --seed {FIT_SEED}",
        origin="default",
        out_of_fold=out_of_fold(rows, features),
    )
    print(f"{ruleset}: {games} games fitted, {held_out} held out, {time.process_time() - t:.0f} s CPU; held out: {model.scores}", file=sys.stderr)
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--held-out", type=int, default=600)
    parser.add_argument("--rulesets", default=",".join(RULESETS_FITTED))
    args = parser.parse_args()
    models = dict(load(WINPROB_DEFAULTS).models) if WINPROB_DEFAULTS.is_file() else {}  # the other rulesets' kept
    models |= {name: fit_default(name, args.games, args.held_out) for name in args.rulesets.split(",")}
    save(Models(models=dict(sorted(models.items()))), WINPROB_DEFAULTS)
    print(f"wrote {WINPROB_DEFAULTS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
