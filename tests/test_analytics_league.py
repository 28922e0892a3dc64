"""League statistics on the hand-made league of tests/league.py: every figure worked out by hand.

The games, with the VP each player had after each turning point (see league.py for the events):

    G01 Alice 1 2 3 4 W  Bob   0 1 1 1 L       G07 Bob   1 1 3 5 W  Dan   0 2 3 3 L
    G02 Carol 0 1 4 6 W  Dan   1 2 2 2 L       G08 Erin  0 1 2 5 W  Carol 0 0 1 1 L
    G03 Erin  0 1 2 2 D  Alice 0 1 1 2 D       G09 Alice 0 2 3 4 L  Dan   0 0 1 5 W
    G04 Bob   0 2 3 4 L  Carol 1 2 3 6 W       G10 Bob   0 2 3 3 W  Erin  1 1 1 2 L
    G05 Dan   2 4 7 8 W  Erin  0 1 1 1 L       G11 Carol 1 1 1 5 W  Alice 0 2 3 3 L
    G06 Alice 1 1 W      Carol 0 1 L (Carol concedes after TP2)   G12 Dan 0 1 2 3 W  Bob 0 1 1 1 L

Per player and game: (crit VP, kill VP, kill grade = enemies incapacitated, operatives lost,
CP gained, CP spent, turning points with initiative / turning points, initiative in TP1):

    Alice G01 (1,3,2,0, 8,3, 2/4,y) G03 (1,1,1,1, 7,1, 2/4,n) G06 (0,1,1,1, 5,1, 0/2,n) G09 (4,0,0,2, 8,0, 2/4,y) G11 (2,1,1,2, 8,2, 2/4,y)
    Bob   G01 (1,0,0,2, 7,1, 2/4,n) G04 (4,0,0,2, 8,2, 2/4,y) G07 (2,3,2,1, 8,1, 2/4,y) G10 (2,1,1,1, 7,1, 2/4,n) G12 (1,0,0,1, 7,0, 2/4,n)
    Carol G02 (3,3,2,1, 8,2, 2/4,y) G04 (3,3,2,0, 7,2, 2/4,n) G06 (0,1,1,1, 4,1, 2/2,y) G08 (0,1,1,2, 7,1, 3/4,y) G11 (2,3,2,1, 7,1, 2/4,n)
    Dan   G02 (1,1,1,2, 7,1, 2/4,n) G05 (2,6,5,0, 6,1, 4/4,y) G07 (2,1,1,2, 7,2, 2/4,n) G09 (2,3,2,0, 7,1, 2/4,n)* G12 (1,2,1,0, 8,1, 2/4,y)
    Erin  G03 (1,1,1,1, 8,2, 2/4,y) G05 (1,0,0,5, 9,2, 0/4,n) G08 (2,3,2,1, 8,1, 1/4,n) G10 (1,1,1,1, 8,0, 2/4,y)
    (* Dan played Hearthkyn in G09, Kasrkin otherwise; Alice Kasrkin, Bob Legionaries, Carol
    Pathfinders, Erin Hearthkyn.) Kill VP = kill grade, +1 for the higher kill grade at the end.

Figures the code rounds to 3 decimals are compared with the exact value to within half a unit
of the third decimal (`ROUNDED`).
"""

from __future__ import annotations

import json
import sqlite3

import polars as pl
import pytest
from click.testing import CliRunner
from league import IN_PROGRESS, game_id, league_fixture  # noqa: F401 (the `league` fixture)
from raw_log import RawLog

from ktlog.analytics import curves
from ktlog.analytics.dice import dice
from ktlog.analytics.integrity import suspicious_games
from ktlog.analytics.league import Filters, League, filter_choices
from ktlog.analytics.matchups import matchups, matrix
from ktlog.analytics.ops import ops
from ktlog.analytics.performance import entity_stats
from ktlog.analytics.standings import elo_history, standings
from ktlog.cli import cli

ROUNDED = 5e-4 + 1e-9
G = {n: game_id(n) for n in range(1, 14)}


def assert_rows(frame, columns: list, expected: list[tuple], tolerance: float = ROUNDED) -> None:
    """The frame's rows (these columns, in order) are the expected ones, numbers to `tolerance`."""
    got = frame.select(columns).rows()
    assert len(got) == len(expected), got
    for row, want in zip(got, expected):
        assert row == pytest.approx(want, abs=tolerance), (row, want)


def stats(db, *args: str, ok: bool = True):
    result = CliRunner().invoke(cli, ["--db", str(db), "stats", *args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def json_rows(result) -> list[dict]:
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def all_games(league):
    return League(league.db)


def test_the_league_is_as_written(league, all_games):
    assert all_games.games.sort("game_id").get_column("status").to_list() == ["finished"] * 12 + ["in progress"]
    results = {(gid[:2], p): r for gid, p, r in all_games.results.select("game_id", "player", "result").rows()}
    assert (results[("03", "Erin")], results[("03", "Alice")]) == ("draw", "draw")
    db = sqlite3.connect(league.db)
    ended_by = dict(db.execute("SELECT DISTINCT game_id, ended_by FROM game_results").fetchall())
    assert ended_by.pop(G[6]) == "concession" and set(ended_by.values()) == {"battle"}
    # G05: all five of Erin's operatives incapacitated, the last in TP3.
    erin = db.execute("SELECT seq, turning_point FROM incapacitations WHERE game_id = ? AND player = 'Erin'", (G[5],)).fetchall()
    assert len(erin) == 5 and max(tp for _, tp in erin) == 3
    assert max(seq for seq, _ in erin) == league.marks[G[5]]["wiped out"]


# --- standings and Elo -----------------------------------------------------------------------

STANDINGS = ["rank", "player", "games", "wins", "draws", "losses", "points", "win_rate", "vp_for", "vp_against", "vp_diff", "elo"]


def test_standings(all_games):
    # VP for / against per player, from the table above:
    #   Dan   2+8+3+5+3 = 21 / 6+1+5+4+1 = 17 (+4)    Carol 6+6+1+1+5 = 19 / 2+4+1+5+3 = 15 (+4)
    #   Alice 4+2+1+4+3 = 14 / 1+2+1+5+5 = 14 (0)     Bob   1+4+5+3+1 = 14 / 4+6+3+2+3 = 18 (-4)
    #   Erin  2+1+5+2 = 10 / 2+8+1+3 = 14 (-4)
    # Dan and Carol: 3 points and +4 each; Dan scored more VP (21 > 19), so Dan is first.
    # Elo: see test_elo_history (rounded to whole points here).
    assert_rows(
        standings(all_games),
        STANDINGS,
        [
            (1, "Dan", 5, 3, 0, 2, 3.0, 3 / 5, 21, 17, 4, 1518),
            (2, "Carol", 5, 3, 0, 2, 3.0, 3 / 5, 19, 15, 4, 1513),
            (3, "Alice", 5, 2, 1, 2, 2.5, 2.5 / 5, 14, 14, 0, 1497),
            (4, "Bob", 5, 2, 0, 3, 2.0, 2 / 5, 14, 18, -4, 1487),
            (5, "Erin", 4, 1, 1, 2, 1.5, 1.5 / 4, 10, 14, -4, 1485),
        ],
    )


def test_elo_history(all_games):
    # Date order, then start time: G02 (18:00) before G01 (19:00) on 2026-09-05; G07 and G08
    # share day and start, so the id decides (G07 first). K = 32, everyone starts at 1500.
    # E(a) = 1 / (1 + 10^((Rb - Ra) / 400)); R'a = Ra + 32 (S - E(a)), and Rb moves the other way.
    #   G02 Carol 1500 v Dan 1500: E = 0.5; Carol wins: 1500 + 32 * 0.5 = 1516, Dan 1484.
    #   G01 Alice 1500 v Bob 1500: the same, Alice 1516, Bob 1484.
    #   G03 Erin 1500 v Alice 1516, a draw: E(Erin) = 1 / (1 + 10^(16/400)) = 0.476990;
    #       Erin 1500 + 32 (0.5 - 0.476990) = 1500.7363, Alice 1516 - 0.7363 = 1515.2637.
    #   G04 Bob 1484 v Carol 1516, Carol wins: E(Bob) = 1 / (1 + 10^(32/400)) = 0.454078;
    #       Bob 1484 - 32 * 0.454078 = 1469.4695, Carol 1530.5305.
    #   G05 Dan 1484 v Erin 1500.7363, Dan wins: E(Dan) = 0.475933; Dan 1484 + 32 * 0.524067 = 1500.7701.
    #   G06 Alice 1515.2637 v Carol 1530.5305, Alice wins by concession: E(Alice) = 0.478043 -> 1531.9663.
    #   G07 Bob 1469.4695 beats Dan 1500.7701: E(Bob) = 0.455076 -> 1486.9071, Dan 1483.3326.
    #   G08 Erin 1483.9662 beats Carol 1513.8279: E(Erin) = 0.457131 -> 1501.3380, Carol 1496.4561.
    #   G09 Alice 1531.9663 loses to Dan 1483.3326: E(Alice) = 0.569536 -> 1513.7412, Dan 1501.5577.
    #   G10 Bob 1486.9071 beats Erin 1501.3380: E(Bob) = 0.479244 -> 1503.5712, Erin 1484.6738.
    #   G11 Carol 1496.4561 beats Alice 1513.7412: E(Carol) = 0.475145 -> 1513.2514, Alice 1496.9458.
    #   G12 Dan 1501.5577 beats Bob 1503.5712: E(Dan) = 0.497102 -> 1517.6505, Bob 1487.4785.
    game = pl.col("game_id").str.slice(0, 2)
    assert_rows(
        elo_history(all_games.results),
        [game, "player", "elo_before", "elo"],
        [
            ("02", "Carol", 1500.0, 1516.0),
            ("02", "Dan", 1500.0, 1484.0),
            ("01", "Alice", 1500.0, 1516.0),
            ("01", "Bob", 1500.0, 1484.0),
            ("03", "Alice", 1516.0, 1515.2637),
            ("03", "Erin", 1500.0, 1500.7363),
            ("04", "Bob", 1484.0, 1469.4695),
            ("04", "Carol", 1516.0, 1530.5305),
            ("05", "Dan", 1484.0, 1500.7701),
            ("05", "Erin", 1500.7363, 1483.9662),
            ("06", "Alice", 1515.2637, 1531.9663),
            ("06", "Carol", 1530.5305, 1513.8279),
            ("07", "Bob", 1469.4695, 1486.9071),
            ("07", "Dan", 1500.7701, 1483.3326),
            ("08", "Carol", 1513.8279, 1496.4561),
            ("08", "Erin", 1483.9662, 1501.3380),
            ("09", "Alice", 1531.9663, 1513.7412),
            ("09", "Dan", 1483.3326, 1501.5577),
            ("10", "Bob", 1486.9071, 1503.5712),
            ("10", "Erin", 1501.3380, 1484.6738),
            ("11", "Alice", 1513.7412, 1496.9458),
            ("11", "Carol", 1496.4561, 1513.2514),
            ("12", "Bob", 1503.5712, 1487.4785),
            ("12", "Dan", 1501.5577, 1517.6505),
        ],
        tolerance=1e-4,
    )


def test_elo_of_one_player(league):
    rows = json_rows(stats(league.db, "elo", "--player", "Dan", "--format", "json"))
    # --player Dan shows Dan's five games with his league ratings (the whole history of
    # test_elo_history, worked out there): 1500 -> 1484 (G02), -> 1500.7701 (G05), -> 1483.3326
    # (G07), -> 1501.5577 (G09), -> 1517.6505 (G12).
    assert [(r["game_id"][:2], r["player"], r["elo_before"], r["elo"]) for r in rows] == [
        ("02", "Dan", 1500.0, 1484.0),
        ("05", "Dan", 1484.0, 1500.8),
        ("07", "Dan", 1500.8, 1483.3),
        ("09", "Dan", 1483.3, 1501.6),
        ("12", "Dan", 1501.6, 1517.7),
    ]


# --- players and kill teams ------------------------------------------------------------------

PERFORMANCE = [
    "games",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "avg_vp_crit",
    "avg_vp_kill",
    "avg_vp_tac",
    "avg_vp_primary",
    "avg_vp_total",
    "avg_kill_grade",
    "incapacitated_per_game",
    "lost_per_game",
    "cp_gained_per_game",
    "cp_spent_per_game",
    "win_rate_tp1_initiative",
    "win_rate_no_tp1_initiative",
    "most_used_ploys",
]

# Wilson 95% interval, z = 1.959964: centre (p + z^2/2n) / (1 + z^2/n) -/+ z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2).
#   3/5:   (0.6 + 0.384146) / 1.768292 = 0.556552 -/+ 1.108394 * sqrt(0.048 + 0.038415) = 0.325827 -> 0.231, 0.882
#   2.5/5: (0.5 + 0.384146) / 1.768292 = 0.5      -/+ 1.108394 * sqrt(0.05 + 0.038415) = 0.329576 -> 0.170, 0.830
#   2/5:   (0.4 + 0.384146) / 1.768292 = 0.443448 -/+ 1.108394 * sqrt(0.048 + 0.038415) = 0.325827 -> 0.118, 0.769
#   1.5/4: (0.375 + 0.480182) / 1.960365 = 0.436236 -/+ 0.999796 * sqrt(0.058594 + 0.060023) = 0.344337 -> 0.092, 0.781
#   4.5/9: (0.5 + 0.213414) / 1.426829 = 0.5      -/+ 1.373650 * sqrt(0.027778 + 0.011856) = 0.273471 -> 0.227, 0.773
CAROL = (
    5,
    3 / 5,
    0.231,
    0.882,
    8 / 5,
    11 / 5,
    0,
    0,
    19 / 5,
    8 / 5,
    8 / 5,
    5 / 5,
    33 / 5,
    7 / 5,
    1 / 3,
    2 / 2,
    "Recon Sweep (5), Markerlight (2)",
)  # TP1 initiative in G02 (W), G06 (L), G08 (L); not in G04, G11 (both W)
BOB = (
    5,
    2 / 5,
    0.118,
    0.769,
    10 / 5,
    4 / 5,
    0,
    0,
    14 / 5,
    3 / 5,
    3 / 5,
    7 / 5,
    37 / 5,
    5 / 5,
    1 / 2,
    1 / 3,
    "Dark Pact (3), Malicious Volleys (2)",
)  # TP1 initiative in G04 (L), G07 (W); not in G01, G10 (W), G12


def test_players(all_games):
    # Averages per game from the table in the module docstring, e.g. Alice: crit (1+1+0+4+2)/5
    # = 1.6, kill (3+1+1+0+1)/5 = 1.2, total 14/5, grade (2+1+1+0+1)/5 = 1.0, lost (0+1+1+2+2)/5
    # = 1.2, CP gained (8+7+5+8+8)/5 = 7.2, spent (3+1+1+0+2)/5 = 1.4; with TP1 initiative G01 (W),
    # G09 (L), G11 (L): 1/3; without: G03 (D), G06 (W): 1.5/2. Ploys: Take Aim in G01, G03, G11;
    # Covering Fire in G01, G06; Combined Arms (0CP) in G09 and Grenadier in G11, one use each:
    # the tie goes to the name, so Grenadier is the fourth and is left out. (Command Re-rolls are
    # CP spent. Counted among the ploys or not, they would change no list here: one for Alice and
    # Dan, two for the Kasrkin, and "Combined Arms" sorts before "Command Re-roll".)
    # Order: win rate, then games, then name (Carol and Dan both 0.6 in 5 games).
    assert_rows(
        entity_stats(all_games, "player"),
        ["player", *PERFORMANCE],
        [
            ("Carol", *CAROL),
            (
                "Dan",
                5,
                3 / 5,
                0.231,
                0.882,
                8 / 5,
                13 / 5,
                0,
                0,
                21 / 5,
                10 / 5,
                10 / 5,
                4 / 5,
                35 / 5,
                6 / 5,
                2 / 2,
                1 / 3,
                "Take Aim (3), Ancestral Grudge (1), Combined Arms (1)",
            ),
            (
                "Alice",
                5,
                2.5 / 5,
                0.170,
                0.830,
                8 / 5,
                6 / 5,
                0,
                0,
                14 / 5,
                5 / 5,
                5 / 5,
                6 / 5,
                36 / 5,
                7 / 5,
                1 / 3,
                1.5 / 2,
                "Take Aim (3), Covering Fire (2), Combined Arms (1)",
            ),
            ("Bob", *BOB),
            (
                "Erin",
                4,
                1.5 / 4,
                0.092,
                0.781,
                5 / 4,
                5 / 4,
                0,
                0,
                10 / 4,
                4 / 4,
                4 / 4,
                8 / 4,
                33 / 4,
                5 / 4,
                0.5 / 2,
                1 / 2,
                "Ancestral Grudge (3), Void Armour (2)",
            ),
        ],
    )


def test_teams(all_games):
    # Kasrkin: Alice's five games and Dan's G02, G05, G07, G12 (nine): points 2.5 + 2 = 4.5;
    # crit 8 + 6 = 14, kill 6 + 10 = 16, total 14 + 16 = 30, grade 5 + 8 = 13, lost 6 + 4 = 10,
    # CP gained 36 + 28 = 64, spent 7 + 5 = 12; TP1 initiative G01 W, G09 L, G11 L, G05 W, G12 W
    # = 3/5, without G03 D, G06 W, G02 L, G07 L = 1.5/4; Take Aim 3 + 3, Covering Fire 2 + 1
    # (Dan, G12), Combined Arms 1 + 1 (Alice G09, Dan G02).
    # Hearthkyn: Erin's four games and Dan's G09 (W 5-4: crit 2, kill 3, grade 2, lost 0, CP 7/1,
    # no TP1 initiative, Ancestral Grudge).
    # Legionaries and Pathfinders are Bob's and Carol's figures.
    assert_rows(
        entity_stats(all_games, "kill_team"),
        ["kill_team", *PERFORMANCE],
        [
            ("Pathfinders", *CAROL),
            (
                "Kasrkin",
                9,
                4.5 / 9,
                0.227,
                0.773,
                14 / 9,
                16 / 9,
                0,
                0,
                30 / 9,
                13 / 9,
                13 / 9,
                10 / 9,
                64 / 9,
                12 / 9,
                3 / 5,
                1.5 / 4,
                "Take Aim (6), Covering Fire (3), Combined Arms (2)",
            ),
            (
                "Hearthkyn",
                5,
                2.5 / 5,
                0.170,
                0.830,
                7 / 5,
                8 / 5,
                0,
                0,
                15 / 5,
                6 / 5,
                6 / 5,
                8 / 5,
                40 / 5,
                6 / 5,
                0.5 / 2,
                2 / 3,
                "Ancestral Grudge (4), Void Armour (2)",
            ),
            ("Legionaries", *BOB),
        ],
    )


def _initiative_rates(games: League) -> dict[str, float]:
    rates = {}
    for by in ("player", "kill_team"):
        rates.update(entity_stats(games, by).select(by, "initiative_rate").rows())
    return rates


def test_initiative_rate_when_every_game_has_four_turning_points(all_games):
    # Bob 2 of 4 in each game: 0.5; Dan 2+4+2+2+2 = 12 of 20; Erin 2+0+1+2 = 5 of 16; the
    # Hearthkyn 5 + 2 (Dan, G09) = 7 of 20.
    rates = _initiative_rates(all_games)
    assert {k: rates[k] for k in ("Bob", "Dan", "Erin", "Legionaries", "Hearthkyn")} == pytest.approx(
        {"Bob": 10 / 20, "Dan": 12 / 20, "Erin": 5 / 16, "Legionaries": 10 / 20, "Hearthkyn": 7 / 20}, abs=ROUNDED
    )


def test_initiative_rate_is_the_share_of_turning_points(all_games):
    # Alice: 2+2+0+2+2 = 8 of 4+4+2+4+4 = 18 turning points; Carol 2+2+2+3+2 = 11 of 18;
    # Kasrkin: Alice's 8 of 18 and Dan's 2+4+2+2 = 10 of 16: 18 of 34.
    rates = _initiative_rates(all_games)
    assert {k: rates[k] for k in ("Alice", "Carol", "Kasrkin", "Pathfinders")} == pytest.approx(
        {"Alice": 8 / 18, "Carol": 11 / 18, "Kasrkin": 18 / 34, "Pathfinders": 11 / 18}, abs=ROUNDED
    )


# --- matchups --------------------------------------------------------------------------------


def test_matchups_long_and_matrix(all_games):
    # Kasrkin v Legionaries: G01 W, G07 L, G12 W; v Pathfinders: G02 L, G06 W, G11 L; v Hearthkyn:
    # G03 D, G05 W, G09 L (Dan's Hearthkyn); Hearthkyn v Pathfinders G08 W; v Legionaries G10 L;
    # Legionaries v Pathfinders G04 L. Each pairing is seen from both sides.
    long = matchups(all_games)
    assert_rows(
        long,
        ["kill_team", "opponent_team", "games", "wins", "draws", "losses", "win_rate"],
        [
            ("Hearthkyn", "Kasrkin", 3, 1, 1, 1, 1.5 / 3),
            ("Hearthkyn", "Legionaries", 1, 0, 0, 1, 0.0),
            ("Hearthkyn", "Pathfinders", 1, 1, 0, 0, 1.0),
            ("Kasrkin", "Hearthkyn", 3, 1, 1, 1, 1.5 / 3),
            ("Kasrkin", "Legionaries", 3, 2, 0, 1, 2 / 3),
            ("Kasrkin", "Pathfinders", 3, 1, 0, 2, 1 / 3),
            ("Legionaries", "Hearthkyn", 1, 1, 0, 0, 1.0),
            ("Legionaries", "Kasrkin", 3, 1, 0, 2, 1 / 3),
            ("Legionaries", "Pathfinders", 1, 0, 0, 1, 0.0),
            ("Pathfinders", "Hearthkyn", 1, 0, 0, 1, 0.0),
            ("Pathfinders", "Kasrkin", 3, 2, 0, 1, 2 / 3),
            ("Pathfinders", "Legionaries", 1, 1, 0, 0, 1.0),
        ],
    )
    grid = matrix(long)
    assert grid.columns == ["kill_team", "Hearthkyn", "Kasrkin", "Legionaries", "Pathfinders"]
    assert grid.rows() == [
        ("Hearthkyn", "-", "50% (3)", "0% (1)", "100% (1)"),
        ("Kasrkin", "50% (3)", "-", "67% (3)", "33% (3)"),
        ("Legionaries", "100% (1)", "33% (3)", "-", "0% (1)"),
        ("Pathfinders", "0% (1)", "67% (3)", "100% (1)", "-"),
    ]


# --- curves ----------------------------------------------------------------------------------

VP_AFTER_TP = {  # game -> player -> VP after TP1..TP4 (a conceded game keeps its VP to the end)
    1: {"Alice": (1, 2, 3, 4), "Bob": (0, 1, 1, 1)},
    2: {"Carol": (0, 1, 4, 6), "Dan": (1, 2, 2, 2)},
    3: {"Erin": (0, 1, 2, 2), "Alice": (0, 1, 1, 2)},
    4: {"Bob": (0, 2, 3, 4), "Carol": (1, 2, 3, 6)},
    5: {"Dan": (2, 4, 7, 8), "Erin": (0, 1, 1, 1)},
    6: {"Alice": (1, 1, 1, 1), "Carol": (0, 1, 1, 1)},
    7: {"Bob": (1, 1, 3, 5), "Dan": (0, 2, 3, 3)},
    8: {"Erin": (0, 1, 2, 5), "Carol": (0, 0, 1, 1)},
    9: {"Alice": (0, 2, 3, 4), "Dan": (0, 0, 1, 5)},
    10: {"Bob": (0, 2, 3, 3), "Erin": (1, 1, 1, 2)},
    11: {"Carol": (1, 1, 1, 5), "Alice": (0, 2, 3, 3)},
    12: {"Dan": (0, 1, 2, 3), "Bob": (0, 1, 1, 1)},
}


def test_vp_after_each_turning_point_of_every_game(all_games):
    table = curves.by_turning_point(all_games)
    got = {}
    for gid, player, _tp, vp in table.select("game_id", "player", "turning_point", "vp_so_far").rows():
        got.setdefault(int(gid[:2]), {}).setdefault(player, []).append(vp)
    assert got == {n: {p: list(v) for p, v in players.items()} for n, players in VP_AFTER_TP.items()}


def test_average_curves_of_winners_and_losers(all_games):
    # Winners (11; the draw G03 left out): G01 Alice, G02 Carol, G04 Carol, G05 Dan, G06 Alice,
    # G07 Bob, G08 Erin, G09 Dan, G10 Bob, G11 Carol, G12 Dan.
    #   TP1 1+0+1+2+1+1+0+0+0+1+0 = 7; TP2 2+1+2+4+1+1+1+0+2+1+1 = 16;
    #   TP3 3+4+3+7+1+3+2+1+3+1+2 = 30; TP4 4+6+6+8+1+5+5+5+3+5+3 = 51.
    # Losers: G01 Bob, G02 Dan, G04 Bob, G05 Erin, G06 Carol, G07 Dan, G08 Carol, G09 Alice,
    # G10 Erin, G11 Alice, G12 Bob.
    #   TP1 0+1+0+0+0+0+0+0+1+0+0 = 2; TP2 1+2+2+1+1+2+0+2+1+2+1 = 15;
    #   TP3 1+2+3+1+1+3+1+3+1+3+1 = 20; TP4 1+2+4+1+1+3+1+4+2+3+1 = 23.
    assert_rows(
        curves.average_curves(all_games),
        ["result", "turning_point", "avg_vp", "players"],
        [
            ("win", 1, 7 / 11, 11),
            ("win", 2, 16 / 11, 11),
            ("win", 3, 30 / 11, 11),
            ("win", 4, 51 / 11, 11),
            ("loss", 1, 2 / 11, 11),
            ("loss", 2, 15 / 11, 11),
            ("loss", 3, 20 / 11, 11),
            ("loss", 4, 23 / 11, 11),
        ],
    )


def test_comebacks(all_games):
    # Trailing after TP2: G01 Bob (L), G02 Carol (W), G05 Erin (L), G07 Bob (W), G08 Carol (L),
    # G09 Dan (W), G10 Erin (L), G11 Carol (W): 4 of 8 (G03, G04, G06, G12 level).
    # After TP3: G01 Bob, G02 Dan, G03 Alice (a draw is no win), G05 Erin, G08 Carol, G09 Dan (W),
    # G10 Erin, G11 Carol (W), G12 Bob: 2 of 9 (G04, G06, G07 level).
    assert_rows(
        curves.comebacks(all_games),
        ["trailing_after_tp", "trailing_players", "came_back_to_win", "comeback_rate"],
        [
            (2, 8, 4, 4 / 8),
            (3, 9, 2, 2 / 9),
        ],
    )


@pytest.mark.parametrize(
    ("n", "steps"),
    [
        # G01: Alice kills bob4 in TP1, Bob and Alice loot in TP2 (a second Loot of Alice's was
        # undone and counts for nothing), Alice kills bob5 in TP3, +1 for the higher kill grade.
        (1, [("A kills bob4", 1, 1, 0), ("B loots", 2, 1, 1), ("A loots", 2, 2, 1), ("A kills bob5", 3, 3, 1), ("end", 4, 4, 1)]),
        # G02: Dan kills carol4; both loot in TP2; Carol loots twice and kills dan4 in TP3, kills dan5
        # in TP4 and has the higher kill grade (2 against 1) at the end.
        (
            2,
            [
                ("D kills carol4", 1, 0, 1),
                ("C loots south", 2, 1, 1),
                ("D loots north", 2, 1, 2),
                ("C loots north", 3, 2, 2),
                ("C loots south again", 3, 3, 2),
                ("C kills dan4", 3, 4, 2),
                ("C kills dan5", 4, 5, 2),
                ("end", 4, 6, 2),
            ],
        ),
    ],
)
def test_one_games_vp_after_every_event(league, n, steps):
    rows = json_rows(stats(league.db, "curves", "--game", G[n][:2], "--format", "json"))
    first, second = rows[0]["player"], rows[1]["player"]
    marks = league.marks[G[n]]
    assert [(r["seq"], r["turning_point"], r["player"], r["vp"]) for r in rows] == [
        row for name, tp, a, b in steps for row in ((marks[name], tp, first, a), (marks[name], tp, second, b))
    ]


def test_the_curve_of_a_game_in_progress_is_refused(league):
    result = stats(league.db, "curves", "--game", G[13][:2], ok=False)
    assert result.exit_code == 1
    assert "in progress" in result.stderr and G[13][:8] in result.stderr


def test_one_games_race_to_draw(league, all_games):
    """G01 as the charts and the TUI draw it: from zeros at seq 0 to the final VP at the last
    event, with a boundary where each turning point starts."""
    race, boundaries = curves.game_race(all_games, G[1])
    assert race.columns == ["seq", "turning_point", "player", "vp"]
    assert race.head(2).rows() == [(0, 0, "Alice", 0), (0, 0, "Bob", 0)]
    assert race.slice(2, race.height - 4).rows() == curves.game_curve(all_games, G[1]).rows()
    last = sqlite3.connect(league.db).execute("SELECT MAX(seq) FROM events WHERE game_key = (SELECT game_key FROM games WHERE id = ?)", (G[1],)).fetchone()[0]
    assert race.tail(2).rows() == [(last, 4, "Alice", 4), (last, 4, "Bob", 1)]
    assert boundaries.get_column("label").to_list() == ["TP1", "TP2", "TP3", "TP4"]
    assert boundaries.get_column("seq").is_sorted() and boundaries.get_column("seq").max() < league.marks[G[1]]["end"]


def test_the_filters_to_pick_from(league):
    assert filter_choices(league.db) == {
        "league": ["Autumn League", "Winter League"],
        "season": ["2026", "2027"],
        "round": ["1", "2"],
        "ruleset": ["kt24-preliminary"],
    }


# --- ops -------------------------------------------------------------------------------------


def test_ops(all_games):
    # Crit op VP per player, by crit op and killzone (two rows a game):
    #   Loot/gallowdark: G03 1, 1; G06 0, 0 -> [0, 0, 1, 1]; kill 1, 1, 1, 1; totals 2, 2, 1, 1;
    #     the only win is G06's concession at 1-1 (margin 0); G03 a draw: 2 draw rows of 4.
    #   Loot/volkus: G01 1, 1; G02 3, 1; G05 2, 1; G07 2, 2; G08 2, 0; G10 2, 1; G11 2, 2; G12 1, 1
    #     -> one 0, seven 1s, seven 2s, one 3: sum 24; kill 3+0+3+1+6+0+3+1+3+1+1+1+3+1+2+0 = 29;
    #     totals per game 5+8+9+8+6+5+8+4 = 53;
    #     winning margins 3, 4, 7, 2, 4, 1, 2, 2 = 25 over 8.
    #   Secure/gallowdark: G09 Alice 4 (L), Dan 2 (W, kill 3): margin 1.  Secure/volkus: G04 Bob 4
    #     (L), Carol 3 (W, kill 3): margin 2.
    # Quartiles are Polars' default: the value at the nearest of the ranks (n-1)q, counting from 0:
    # of 16 values ranks 3.75 -> 4 (a 1) and 11.25 -> 11 (a 2); of 4, ranks 0.75 -> 1 and 2.25 -> 2;
    # of 2, ranks 0.25 -> 0 and 0.75 -> 1. Medians are the middle values' mean.
    assert_rows(
        ops(all_games),
        [
            "crit_op",
            "killzone",
            "games",
            "crit_vp_mean",
            "crit_vp_p25",
            "crit_vp_median",
            "crit_vp_p75",
            "crit_vp_max",
            "kill_vp_mean",
            "total_vp_mean",
            "winning_margin_mean",
            "draw_rate",
        ],
        [
            ("Loot", "gallowdark", 2, 2 / 4, 0, 0.5, 1, 1, 4 / 4, 6 / 4, 0, 2 / 4),
            ("Loot", "volkus", 8, 24 / 16, 1, 1.5, 2, 3, 29 / 16, 53 / 16, 25 / 8, 0),
            ("Secure", "gallowdark", 1, 6 / 2, 2, 3, 4, 4, 3 / 2, 9 / 2, 1, 0),
            ("Secure", "volkus", 1, 7 / 2, 3, 3.5, 4, 4, 3 / 2, 10 / 2, 2, 0),
        ],
    )


# --- dice ------------------------------------------------------------------------------------
# Attacks recorded with dice (G01 and G02, TP1), against targets with Save 4+. Expected hit rate
# per die: Hit 4+ 3/6, Hit 3+ 4/6; critical: a 6 (1/6), Lethal 5+ 2/6; a defence die saves on 4+
# (3/6). Expected damage per attack (league.py): Pistol 13/48, Sniper 7/24, Melta 10/3.
#
#   attack                     attack dice   hits  crits  defence dice  saves  damage
#   G01 Alice Pistol -> Bob    6              1     1      3 2 1         0      3
#   G01 Bob Pistol -> Alice    4              1     0      5 2 1         1      0
#   G01 Alice Sniper -> Bob    5              1     1      6 4 1         2      0  (the 6 saves the critical)
#   G01 Bob Melta -> Alice     3 6            1     1      -             -      4
#   G01 Alice Pistol -> Bob    2, re-rolled 5 1     0      3 3 2         0      2  (Command Re-roll)
#   G01 Bob Pistol -> Alice    1              0     0      6 1 2         1      0
#   G02 Carol Sniper -> Dan    4              1     0      5 5 3         2      0
#   G02 Dan Pistol -> Carol    2, re-rolled 6 1     1      4 3 1         1      3  (one normal save cannot block a critical)
#   G02 Carol Melta -> Dan     4 5            2     0      -             -      6
#   G02 Dan Sniper -> Carol    3              1     0      2 2 6         1      0
#   G02 Carol Pistol -> Dan    5              1     0      1 2 3         0      2
#   G02 Dan Pistol -> Carol    1              0     0      4 4 4         3      0

DICE = [
    "attacks",
    "dice_rolled",
    "hit_rate",
    "expected_hit_rate",
    "crit_rate",
    "expected_crit_rate",
    "shooting_damage",
    "expected_shooting_damage",
    "luck_index",
]


def test_dice_by_player(all_games):
    # Alice: Pistol, Sniper, Pistol: expected hits (3/6 + 4/6 + 3/6) / 3 = 5/9, crits (1/6 + 2/6 +
    #   1/6) / 3 = 2/9; damage 5 against 13/48 + 7/24 + 13/48 = 5/6. Saves: 6 dice (Melta has none), 2 saves.
    # Carol: Sniper, Melta (2 dice), Pistol: hits (4/6 + 2 * 3/6 + 3/6) / 4 = 13/24, crits (2/6 +
    #   2/6 + 1/6) / 4 = 5/24; damage 8 against 7/24 + 10/3 + 13/48 = 187/48. Saves: 5 of 9.
    # Dan: Pistol, Sniper, Pistol: like Alice's; damage 3 against 5/6. Saves: 2 of 6.
    # Bob: Pistol, Melta, Pistol: hits (3/6 + 2 * 3/6 + 3/6) / 4 = 1/2, crits 4/6 / 4 = 1/6;
    #   damage 4 against 13/48 + 10/3 + 13/48 = 31/8. Saves: 2 of 9.
    # Ordered by luck index (damage minus expected damage). Erin recorded no dice.
    assert_rows(
        dice(all_games, "player"),
        ["player", *DICE, "save_dice_rolled", "save_rate", "expected_save_rate"],
        [
            ("Alice", 3, 3, 3 / 3, 5 / 9, 2 / 3, 2 / 9, 5, 5 / 6, 5 - 5 / 6, 6, 2 / 6, 1 / 2),
            ("Carol", 3, 4, 4 / 4, 13 / 24, 0 / 4, 5 / 24, 8, 187 / 48, 8 - 187 / 48, 9, 5 / 9, 1 / 2),
            ("Dan", 3, 3, 2 / 3, 5 / 9, 1 / 3, 2 / 9, 3, 5 / 6, 3 - 5 / 6, 6, 2 / 6, 1 / 2),
            ("Bob", 3, 4, 2 / 4, 1 / 2, 1 / 4, 1 / 6, 4, 31 / 8, 4 - 31 / 8, 9, 2 / 9, 1 / 2),
        ],
    )


def test_dice_by_weapon(all_games):
    # Pistol: 7 attacks of 1 die, 5 hits (6, 4, 5, 5, 6 succeed; two 1s), 2 crits (the 6s);
    #   damage 3+0+2+0+2+3+0 = 10 against 7 * 13/48 = 91/48.
    # Melta: 2 attacks of 2 dice: 3 hits, 1 crit; damage 4 + 6 against 2 * 10/3.
    # Sniper: 3 attacks: 5, 4 and 3 all hit (Hit 3+), the 5 critical (Lethal 5+); no damage against 3 * 7/24.
    assert_rows(
        dice(all_games, "weapon"),
        ["weapon", *DICE],
        [
            ("Pistol", 7, 7, 5 / 7, 1 / 2, 2 / 7, 1 / 6, 10, 91 / 48, 10 - 91 / 48),
            ("Melta", 2, 4, 3 / 4, 1 / 2, 1 / 4, 1 / 6, 10, 20 / 3, 10 - 20 / 3),
            ("Sniper", 3, 3, 3 / 3, 2 / 3, 1 / 3, 1 / 3, 0, 7 / 8, -7 / 8),
        ],
    )


# --- filters ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        # Autumn League, G01-G06. Elo from those games only, which are the league's first six:
        # Alice 1531.97, Carol 1513.83, Dan 1500.77, Erin 1483.97, Bob 1469.47.
        (
            ["--league", "Autumn League"],
            [
                (1, "Alice", 3, 2, 1, 0, 2.5, 2.5 / 3, 7, 4, 3, 1532),  # G01 W 4-1, G03 D 2-2, G06 W 1-1
                (2, "Carol", 3, 2, 0, 1, 2.0, 2 / 3, 13, 7, 6, 1514),  # G02 W 6-2, G04 W 6-4, G06 L 1-1
                (3, "Dan", 2, 1, 0, 1, 1.0, 1 / 2, 10, 7, 3, 1501),  # G02 L 2-6, G05 W 8-1
                (4, "Erin", 2, 0, 1, 1, 0.5, 0.5 / 2, 3, 10, -7, 1484),  # G03 D, G05 L 1-8
                (5, "Bob", 2, 0, 0, 2, 0.0, 0.0, 5, 10, -5, 1469),  # G01 L 1-4, G04 L 4-6
            ],
        ),
        # Season 2027: G11 and G12 (G13 is in progress). Two first games: 1516 and 1484 each.
        # Carol and Dan: 1 point, +2 each; Carol scored 5, Dan 3. Alice and Bob: -2 each; 3 against 1.
        (
            ["--season", "2027"],
            [
                (1, "Carol", 1, 1, 0, 0, 1.0, 1.0, 5, 3, 2, 1516),
                (2, "Dan", 1, 1, 0, 0, 1.0, 1.0, 3, 1, 2, 1516),
                (3, "Alice", 1, 0, 0, 1, 0.0, 0.0, 3, 5, -2, 1484),
                (4, "Bob", 1, 0, 0, 1, 0.0, 0.0, 1, 3, -2, 1484),
            ],
        ),
        # Round 2 of both leagues: G04, G05, G06, G09, G10, G12. Elo over those six in order:
        #   G04 Carol beats Bob (1516, 1484); G05 Dan beats Erin (1516, 1484); G06 Alice 1500 beats
        #   Carol 1516: E = 0.477 -> 1516.736, Carol 1499.264; G09 Dan 1516 beats Alice 1516.736:
        #   E(Dan) = 0.4989 -> 1532.034, Alice 1500.702; G10 Bob 1484 beats Erin 1484 -> 1500, 1468;
        #   G12 Dan 1532.034 beats Bob 1500: E = 0.546 -> 1546.563, Bob 1485.471.
        (
            ["--round", "2"],
            [
                (1, "Dan", 3, 3, 0, 0, 3.0, 1.0, 16, 6, 10, 1547),  # 8-1, 5-4, 3-1
                (2, "Carol", 2, 1, 0, 1, 1.0, 1 / 2, 7, 5, 2, 1499),  # 6-4, 1-1 (conceded)
                (3, "Alice", 2, 1, 0, 1, 1.0, 1 / 2, 5, 6, -1, 1501),  # 1-1 (W), 4-5
                (4, "Bob", 3, 1, 0, 2, 1.0, 1 / 3, 8, 11, -3, 1485),  # 4-6, 3-2, 1-3
                (5, "Erin", 2, 0, 0, 2, 0.0, 0.0, 3, 11, -8, 1468),  # 1-8, 2-3
            ],
        ),
        # 2026-10-01 to 2026-12-31: G05-G10. Elo: G05 Dan 1516, Erin 1484; G06 Alice 1516, Carol 1484;
        # G07 Bob 1500 beats Dan 1516: E = 0.477 -> 1516.736, Dan 1499.264; G08 Erin 1484 beats Carol
        # 1484 -> 1500, 1468; G09 Dan 1499.264 beats Alice 1516: E = 0.4759 -> 1516.034, Alice 1499.230;
        # G10 Bob 1516.736 beats Erin 1500: E = 0.5241 -> 1531.966, Erin 1484.770.
        (
            ["--since", "2026-10-01", "--until", "2026-12-31"],
            [
                (1, "Dan", 3, 2, 0, 1, 2.0, 2 / 3, 16, 10, 6, 1516),  # 8-1, 3-5, 5-4
                (2, "Bob", 2, 2, 0, 0, 2.0, 1.0, 8, 5, 3, 1532),  # 5-3, 3-2
                (3, "Alice", 2, 1, 0, 1, 1.0, 1 / 2, 5, 6, -1, 1499),  # 1-1 (W), 4-5
                (4, "Erin", 3, 1, 0, 2, 1.0, 1 / 3, 8, 12, -4, 1485),  # 1-8, 5-1, 2-3
                (5, "Carol", 2, 0, 0, 2, 0.0, 0.0, 2, 6, -4, 1468),  # 1-1 (conceded), 1-5
            ],
        ),
        # The days are inclusive: 2026-09-05 alone is G01 and G02; Bob (-3) ranks above Dan (-4).
        (
            ["--until", "2026-09-05"],
            [
                (1, "Carol", 1, 1, 0, 0, 1.0, 1.0, 6, 2, 4, 1516),
                (2, "Alice", 1, 1, 0, 0, 1.0, 1.0, 4, 1, 3, 1516),
                (3, "Bob", 1, 0, 0, 1, 0.0, 0.0, 1, 4, -3, 1484),
                (4, "Dan", 1, 0, 0, 1, 0.0, 0.0, 2, 6, -4, 1484),
            ],
        ),
        # Every game is kt24-preliminary: the whole table.
        (
            ["--ruleset", "kt24-preliminary"],
            [
                (1, "Dan", 5, 3, 0, 2, 3.0, 3 / 5, 21, 17, 4, 1518),
                (2, "Carol", 5, 3, 0, 2, 3.0, 3 / 5, 19, 15, 4, 1513),
                (3, "Alice", 5, 2, 1, 2, 2.5, 2.5 / 5, 14, 14, 0, 1497),
                (4, "Bob", 5, 2, 0, 3, 2.0, 2 / 5, 14, 18, -4, 1487),
                (5, "Erin", 4, 1, 1, 2, 1.5, 1.5 / 4, 10, 14, -4, 1485),
            ],
        ),
        # Alice's games only (G01, G03, G06, G09, G11) and only her row, with her league Elo
        # (1496.9458 after G11, test_elo_history). She ranks first among the players of her games.
        (
            ["--player", "Alice"],
            [
                (1, "Alice", 5, 2, 1, 2, 2.5, 2.5 / 5, 14, 14, 0, 1497),
            ],
        ),
    ],
)
def test_filters_narrow_the_standings(league, filters, expected):
    rows = json_rows(stats(league.db, "standings", *filters, "--format", "json"))
    got = [tuple(r[c] for c in STANDINGS) for r in rows]
    assert len(got) == len(expected)
    for row, want in zip(got, expected):
        assert row == pytest.approx(want, abs=ROUNDED), (row, want)


def test_player_and_team_filters_keep_their_rows(league, all_games):
    alice = json_rows(stats(league.db, "players", "--player", "Alice", "--format", "json"))
    assert [r["player"] for r in alice] == ["Alice"]
    assert alice[0] == entity_stats(all_games, "player").filter(player="Alice").to_dicts()[0]  # all her games count
    hearthkyn = json_rows(stats(league.db, "teams", "--team", "Hearthkyn", "--format", "json"))
    assert hearthkyn == entity_stats(all_games, "kill_team").filter(kill_team="Hearthkyn").to_dicts()
    kasrkin = json_rows(stats(league.db, "matchups", "--long", "--team", "Kasrkin", "--format", "json"))
    assert [(r["opponent_team"], r["games"], r["win_rate"]) for r in kasrkin] == [("Hearthkyn", 3, 0.5), ("Legionaries", 3, 0.667), ("Pathfinders", 3, 0.333)]
    dan = json_rows(stats(league.db, "dice", "--player", "Dan", "--format", "json"))
    assert [(r["player"], r["attacks"], r["save_dice_rolled"]) for r in dan] == [("Dan", 3, 6)]


def test_filters_narrow_the_league_frames(league):
    # --team Pathfinders: Carol's five games. Their winners: G02 Carol 6, G04 Carol 6, G06 Alice 1,
    # G08 Erin 5, G11 Carol 5: an average of 23/5 VP after TP4.
    pathfinders = League(league.db, Filters(team="Pathfinders"))
    assert sorted(pathfinders.finished_ids.get_column("game_id").str.slice(0, 2).to_list()) == ["02", "04", "06", "08", "11"]
    winners = curves.average_curves(pathfinders).filter(result="win", turning_point=4)
    assert winners.select("avg_vp", "players").row(0) == pytest.approx((23 / 5, 5), abs=ROUNDED)
    autumn_2 = League(league.db, Filters(league="Autumn League", round="2"))
    assert sorted(autumn_2.finished_ids.get_column("game_id").str.slice(0, 2).to_list()) == ["04", "05", "06"]
    assert autumn_2.in_progress.is_empty()
    winter_27 = League(league.db, Filters(league="Winter League", season="2027"))
    assert winter_27.in_progress.get_column("game_id").to_list() == [IN_PROGRESS]


# --- integrity warnings ----------------------------------------------------------------------


@pytest.fixture
def tampered(league, tmp_path):
    """A copy of the league database to break."""
    copy = tmp_path / "copy.db"
    with sqlite3.connect(league.db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    return copy


def test_a_clean_league_has_no_warnings(all_games):
    assert suspicious_games(all_games) == []


def test_a_result_edited_in_place_is_named(tampered):
    with sqlite3.connect(tampered) as db:
        db.execute("UPDATE game_results SET vp_total = 9 WHERE game_id = ? AND player = 'Bob'", (G[7],))
    problem = "its result rows do not match the score recorded with the game"
    assert suspicious_games(League(tampered)) == [(G[7], problem)]
    result = stats(tampered, "standings")
    assert f"warning: game {G[7][:8]} failed verification: {problem}" in result.stderr


def test_a_result_row_renamed_in_place_is_named_and_a_name_of_any_characters_is_not(tampered):
    """The recorded score is compared as typed columns (the VP by op recorded with the game, the
    game's winner), never read out of text: a result row renamed alone no longer matches; a
    player whose name holds a colon and digits ("Bob:3") is no warning."""
    problem = "its result rows do not match the score recorded with the game"
    with sqlite3.connect(tampered) as db:
        db.execute("UPDATE game_results SET player = 'Bob:3' WHERE game_id = ? AND player = 'Bob'", (G[7],))
    assert suspicious_games(League(tampered)) == [(G[7], problem)]
    with sqlite3.connect(tampered) as db:
        db.execute("UPDATE vp_by_op SET player = 'Bob:3' WHERE game_id = ? AND player = 'Bob'", (G[7],))
        db.execute("UPDATE games SET winner = 'Bob:3' WHERE id = ? AND winner = 'Bob'", (G[7],))
    assert suspicious_games(League(tampered)) == []


def test_a_winner_edited_in_place_is_named(tampered):
    with sqlite3.connect(tampered) as db:
        db.execute("UPDATE game_results SET result = 'win' WHERE game_id = ? AND result = 'loss'", (G[7],))
    assert suspicious_games(League(tampered)) == [(G[7], "its result rows do not match the score recorded with the game")]


def test_a_failed_verify_verdict_is_named(tampered):
    with sqlite3.connect(tampered) as db:
        raw = RawLog(db, G[5])  # a finished game: archived (tests/raw_log.py edits either layout)
        seq = next(s for s in range(1, raw.head + 1) if raw.get(s)["type"] == "DamageInflicted")
        db.execute("DROP TRIGGER archives_no_update")
        raw.update(seq, payload=raw.get(seq)["payload"].replace('"damage":99', '"damage":98'))
    assert suspicious_games(League(tampered)) == []  # the quick checks cannot see it: `ktlog verify` can
    verified = CliRunner().invoke(cli, ["--db", str(tampered), "verify"])
    assert verified.exit_code == 1
    assert f"{G[5][:8]}  FAILED at seq {seq}: the hash does not match" in verified.stdout
    problem = f"`ktlog verify` found the hash does not match the event's content: it was changed after it was recorded at seq {seq}"
    assert suspicious_games(League(tampered)) == [(G[5], problem)]
    assert f"warning: game {G[5][:8]} failed verification: {problem}" in stats(tampered, "players").stderr


def test_a_statistic_reads_through_the_driver_without_pandas_where_pandas_is_installed(league):
    """The driver's DB-API module imports pyarrow's datasets, and with them pandas where both are
    installed (this test environment has both): 0.4 CPU-s of every `ktlog stats` command spent on
    libraries ktlog never calls. The league reads through the driver's own handles instead."""
    import subprocess
    import sys

    pytest.importorskip("pandas")
    script = (
        "import sys; from pathlib import Path; from ktlog.analytics.league import League; from ktlog.analytics.standings import standings;"
        f"rows = standings(League(Path({str(league.db)!r}))).height;"
        "print(rows, sorted(m for m in ('pandas', 'pyarrow', 'adbc_driver_manager.dbapi') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.split(maxsplit=1) == ["5", "[]\n"]
