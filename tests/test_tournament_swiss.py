"""Swiss pairing and the standings of a tournament (ktlog/play/tournament_swiss.py), pure: whole
events played with made-up results, checked for rematches, byes and equal-points pairing, and
standings worked out by hand."""

from __future__ import annotations

import random

import pytest

from ktlog.play.tournament_swiss import DRAW, LOSS, WIN, Outcome, PairingError, Table, no_show, pair_round, standings


def ended(t: Table, winner: str | None, vp: tuple[int, int] = (0, 0)) -> Table:
    """Table `t` ended: `winner` won (None: a draw), with VP (a, b)."""
    if t.b is None:
        return t
    points = {t.a: DRAW, t.b: DRAW} if winner is None else {p: WIN if p == winner else LOSS for p in t.players}
    return Table(t.round, t.table, t.a, t.b, Outcome(points, {t.a: vp[0], t.b: vp[1]}, "battle"), t.game_id)


def play_event(count: int, rounds: int, seed: int) -> list[Table]:
    """An event of `count` players over `rounds` rounds, each game won at random (a draw now and then)."""
    players = [f"P{i:02d}" for i in range(count)]
    results = random.Random(seed)
    tables: list[Table] = []
    for round_ in range(1, rounds + 1):
        for t in pair_round(players, tables, round_, seed):
            pick = results.random()
            winner = None if pick < 0.1 else t.a if pick < 0.55 else t.b
            tables.append(ended(t, winner, (results.randint(0, 20), results.randint(0, 20))))
    return tables


def meetings(tables: list[Table]) -> list[frozenset[str]]:
    return [frozenset(t.players) for t in tables if t.b is not None]


@pytest.mark.parametrize(("count", "rounds"), [(16, 4), (15, 4), (8, 7), (7, 7), (64, 6), (301, 9)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_rematch_every_player_seated_each_round_and_one_bye_at_most(count: int, rounds: int, seed: int) -> None:
    tables = play_event(count, rounds, seed)
    pairs = meetings(tables)
    assert len(pairs) == len(set(pairs)), "a rematch"
    for round_ in range(1, rounds + 1):
        seated = [p for t in tables if t.round == round_ for p in t.players]
        assert sorted(seated) == sorted(f"P{i:02d}" for i in range(count))
        assert [t.table for t in tables if t.round == round_] == list(range(1, (count + 1) // 2 + 1))
    byes = [t.a for t in tables if t.b is None]
    assert len(byes) == (rounds if count % 2 else 0)
    assert len(set(byes)) == len(byes), "a second bye"


def test_the_first_round_is_drawn_by_the_seed() -> None:
    players = [f"P{i}" for i in range(16)]
    first = pair_round(players, [], 1, seed=7)
    assert pair_round(players, [], 1, seed=7) == first
    assert pair_round(players, [], 1, seed=8) != first
    assert [(t.a, t.b) for t in first] != [(players[i], players[i + 1]) for i in range(0, 16, 2)], "not shuffled"


def test_round_two_pairs_winners_with_winners_and_the_bye_goes_to_the_lowest_placed() -> None:
    players = [f"P{i:02d}" for i in range(15)]
    first = pair_round(players, [], 1, seed=3)
    tables = [ended(t, t.a, (3, 1)) for t in first]
    second = pair_round(players, tables, 2, seed=3)
    points = {s.player: s.points for s in standings(players, tables)}
    games = [t for t in second if t.b is not None]
    # 8 on one point (7 winners and the bye) and 7 on none, of whom one rests: no pair crosses the groups
    assert sum(points[t.a] != points[t.b] for t in games) == 0 and len(games) == 7
    (resting,) = [t.a for t in second if t.b is None]
    assert points[resting] == 0 and resting not in {t.a for t in first if t.b is None}


def test_strength_of_schedule_is_the_sum_of_the_opponents_points() -> None:
    """Round 1: A beats B 5-2, C draws D 3-3. Round 2: A beats C 4-0, B beats D 6-1.
    Points: A 2, B 1, C 1/2, D 1/2. SoS: A = B + C = 1.5; B = A + D = 2.5; C = D + A = 2.5; D = C + B = 1.5."""
    r1 = [ended(Table(1, 1, "A", "B"), "A", (5, 2)), ended(Table(1, 2, "C", "D"), None, (3, 3))]
    r2 = [ended(Table(2, 1, "A", "C"), "A", (4, 0)), ended(Table(2, 2, "B", "D"), "B", (6, 1))]
    lines = {s.player: s for s in standings("ABCD", r1 + r2)}
    assert {p: s.points for p, s in lines.items()} == {"A": 2, "B": 1, "C": 0.5, "D": 0.5}
    assert {p: s.sos for p, s in lines.items()} == {"A": 1.5, "B": 2.5, "C": 2.5, "D": 1.5}
    assert (lines["B"].vp_for, lines["B"].vp_against, lines["B"].vp_diff) == (8, 6, 2)
    assert [s.player for s in standings("ABCD", r1 + r2)] == ["A", "B", "C", "D"]  # C and D tie on points: C's SoS is higher


def test_the_event_chooses_the_tie_breakers_order() -> None:
    """C and D on 1/2 point each: C has the higher SoS (2.5 v 1.5), D the higher VP difference (-1 v -4)."""
    r1 = [ended(Table(1, 1, "A", "B"), "A", (5, 2)), ended(Table(1, 2, "C", "D"), None, (3, 3))]
    r2 = [ended(Table(2, 1, "A", "C"), "A", (4, 0)), ended(Table(2, 2, "B", "D"), "B", (6, 5))]
    assert [s.player for s in standings("ABCD", r1 + r2, ("sos", "vp_diff"))][2:] == ["C", "D"]
    assert [s.player for s in standings("ABCD", r1 + r2, ("vp_diff", "sos"))][2:] == ["D", "C"]


def test_a_bye_and_a_no_show_are_wins_and_an_open_table_counts_for_nobody() -> None:
    players = ["A", "B", "C"]
    first = pair_round(players, [], 1, seed=1)
    (game,) = [t for t in first if t.b is not None]
    (rest,) = [t for t in first if t.b is None]
    absent = game.a
    tables = [rest, Table(1, 1, game.a, game.b, no_show(game, absent))]
    lines = {s.player: s for s in standings(players, tables)}
    assert lines[rest.a].points == 1 and lines[rest.a].byes == 1 and lines[rest.a].played == 0
    assert lines[game.b].points == 1 and lines[absent].losses == 1
    assert all(s.points == 0 for s in standings(players, [Table(1, 1, "A", "B"), Table(1, 2, "C", None)]))


def test_a_round_that_cannot_avoid_a_rematch_is_refused_in_words() -> None:
    players = ["A", "B", "C", "D"]
    tables: list[Table] = []
    for round_ in (1, 2, 3):
        tables += [ended(t, t.a) for t in pair_round(players, tables, round_, seed=5)]
    with pytest.raises(PairingError, match="round 4 cannot be paired without a rematch: 4 players .* at most 3 rounds"):
        pair_round(players, tables, 4, seed=5)
