"""Do the board features help the win-probability model? (issue 44 item 5; docs/performance.md)

    .venv/bin/python benchmarks/board_features.py [--fit-games 150] [--score-games 150] [--rulesets kt24-preliminary]

Per shipped layout and ruleset: a league of --fit-games positional simulated games (seed 41) and
another of --score-games (seed 4242), both played by `ktlog simulate --layout`'s simulator. Each
game is read twice in the same run, by the ruleset's features without the board ones and with
them (`winprob_board.BOARD_FEATURES`); the model (`winprob_fit.Fitted`, ktlog's fitter) is fitted
on the first league and scored on the second: Brier score and log loss of every battle moment,
and of turning point 1's. The same games, the same fitter: only the columns differ.
"""

from __future__ import annotations

import argparse

import polars as pl

from ktlog.analytics.winprob_board import BOARD_FEATURES
from ktlog.analytics.winprob_features import Reader, features_of
from ktlog.analytics.winprob_fit import Fitted, game_rows, score
from ktlog.files.layouts import find_layout, shipped
from ktlog.play.simulate import simulate_games
from ktlog.rulesets import RULESETS


def league(ruleset: str, layout: str, count: int, seed: int) -> list[list]:
    return [list(enumerate(g.events, 1)) for _, g in simulate_games(count, seed, ruleset=ruleset, layout=find_layout(layout))]


def rows(games: list[list], reader: Reader) -> pl.DataFrame:
    return pl.concat(game_rows(records, reader, key) for key, records in enumerate(games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit-games", type=int, default=150)
    parser.add_argument("--score-games", type=int, default=150)
    parser.add_argument("--rulesets", default="kt24-preliminary")
    args = parser.parse_args()
    print("| layout | ruleset | features | Brier | log loss | Brier TP1 | Brier TP4 |")
    print("|---|---|---|---|---|---|---|")
    for layout in sorted(shipped()):
        for ruleset in args.rulesets.split(","):
            fit, scored = league(ruleset, layout, args.fit_games, 41), league(ruleset, layout, args.score_games, 4242)
            with_board = features_of(RULESETS[ruleset], board=True)
            without = tuple(f for f in with_board if f.partition("@")[0] not in BOARD_FEATURES)
            assert len(without) < len(with_board), "the ruleset reads the board features"
            for name, features in (("without the board", without), ("with the board", with_board)):
                reader = Reader(RULESETS[ruleset], features)
                model = Fitted(rows(fit, reader), features)
                predicted = model.predict(rows(scored, reader))
                whole, first, last = (
                    score(predicted),
                    score(predicted.filter(pl.col("turning_point") == 1)),
                    score(predicted.filter(pl.col("turning_point") == 4)),
                )
                print(f"| {layout} | {ruleset} | {name} | {whole.brier:.4f} | {whole.log_loss:.4f} | {first.brier:.4f} | {last.brier:.4f} |", flush=True)


if __name__ == "__main__":
    main()
