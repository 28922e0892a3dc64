"""The win-probability model's board features (issue 44 item 5): read from where the operatives
stand in a game with positions, by the board's own geometry; kept by a league's fit only when its
games have positions, so models of games without keep their columns."""

from __future__ import annotations

from ktlog.analytics.winprob_board import BOARD_FEATURES, board_figures
from ktlog.analytics.winprob_features import Reader, features_of, states
from ktlog.analytics.winprob_fit import features_read, read_games
from ktlog.board.geometry import contests, distance, targeting
from ktlog.files.layouts import find_layout
from ktlog.play.simulate import simulate_games
from ktlog.rules.positions import board, on_board
from ktlog.rulesets import RULESETS

PRELIM = RULESETS["kt24-preliminary"]


def records(g):
    return list(enumerate(g.events, 1))


def test_the_board_features_are_data_of_the_ruleset_after_its_own():
    own = features_of(PRELIM)
    assert features_of(PRELIM, board=True) == (*own, *BOARD_FEATURES) and not set(BOARD_FEATURES) & set(own)
    assert features_of(RULESETS["kt21"], board=True) == features_of(RULESETS["kt21"])  # no positions in its simulated games


def test_board_figures_count_operatives_on_markers_and_in_cover_by_the_board():
    ((_, g),) = simulate_games(1, 31, layout=find_layout("volkus-like"))
    seen = {"on_markers": 0, "in_cover": 0}
    for _, _, s in states(records(g)):
        if s.phase != "firefight" or s.activation is not None:
            continue
        b, standing = board(s.layout), on_board(s)
        markers = [m for m in s.layout.objectives if m.name in s.markers]
        figures = board_figures(s)
        for player, f in figures.items():
            mine = [o for o in standing if o.player == player]
            enemies = [o for o in standing if o.player != player]
            assert f.on_markers == sum(any(contests(b, o, m) for m in markers) for o in mine)
            if enemies:
                assert f.in_cover == sum(targeting(b, min(enemies, key=lambda e: distance(o, e)), o).in_cover() for o in mine)
            seen["on_markers"] += f.on_markers
            seen["in_cover"] += f.in_cover
            assert 0 <= f.marker_distance <= 40
    assert seen["on_markers"] > 0 and seen["in_cover"] > 0


def test_a_game_without_positions_reads_zero_board_features():
    ((_, g),) = simulate_games(1, 31)
    reader = Reader(PRELIM, features_of(PRELIM, board=True))
    board_columns = range(len(features_of(PRELIM)), len(reader.features))
    for _, _, s in states(records(g)):
        if s.phase == "firefight":
            assert all(reader.moment(s).relative[0][i] == 0.0 for i in board_columns)


def test_a_league_keeps_the_board_columns_only_when_its_games_have_positions():
    plain, _ = read_games("kt24-preliminary", ((records(g), True) for _, g in simulate_games(2, 7)))
    assert features_read("kt24-preliminary", plain) == features_of(PRELIM)
    placed, _ = read_games("kt24-preliminary", ((records(g), True) for _, g in simulate_games(2, 7, layout=find_layout("gallowdark-like"))))
    assert features_read("kt24-preliminary", placed) == features_of(PRELIM, board=True)
    on = len(features_of(PRELIM))
    assert placed.select(f"f{on}").to_series().abs().sum() > 0  # operatives on markers differ between the sides at some moment
