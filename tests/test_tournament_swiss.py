"""Swiss pairing and the standings of a tournament (ktlog/play/tournament_swiss.py), pure: whole
events played with made-up results, checked for rematches, byes and equal-points pairing; every
event up to 12 players compared with a brute force over every possible pairing; standings and
their tie-breakers worked out by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.play.tournament_swiss import DRAW, LOSS, WIN, Outcome, PairingError, Ranking, Table, no_show, pair_round, standings


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
        for t in pair_round(players, tables, round_, Ranking(seed=seed)):
            pick = results.random()
            winner = None if pick < 0.1 else t.a if pick < 0.55 else t.b
            tables.append(ended(t, winner, (results.randint(0, 20), results.randint(0, 20))))
    return tables


def meetings(tables: list[Table]) -> list[frozenset[str]]:
    return [frozenset(t.players) for t in tables if t.b is not None]


@pytest.mark.parametrize(("count", "rounds"), [(16, 4), (15, 4), (8, 7), (7, 7), (64, 6), (301, 5)])
@pytest.mark.parametrize("seed", [1, 2])
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
    first = pair_round(players, [], 1, Ranking(seed=7))
    assert pair_round(players, [], 1, Ranking(seed=7)) == first
    assert pair_round(players, [], 1, Ranking(seed=8)) != first
    assert [(t.a, t.b) for t in first] != [(players[i], players[i + 1]) for i in range(0, 16, 2)], "not shuffled"


def test_round_two_pairs_winners_with_winners_and_the_bye_goes_to_the_lowest_placed() -> None:
    players = [f"P{i:02d}" for i in range(15)]
    first = pair_round(players, [], 1, Ranking(seed=3))
    tables = [ended(t, t.a, (3, 1)) for t in first]
    second = pair_round(players, tables, 2, Ranking(seed=3))
    points = {s.player: s.points for s in standings(players, tables)}
    games = [t for t in second if t.b is not None]
    # 8 on one point (7 winners and the bye) and 7 on none, of whom one rests: no pair crosses the groups
    assert sum(points[t.a] != points[t.b] for t in games) == 0 and len(games) == 7
    (resting,) = [t.a for t in second if t.b is None]
    assert points[resting] == 0 and resting not in {t.a for t in first if t.b is None}
    order = [s.player for s in standings(players, tables, Ranking(seed=3))]
    assert resting == [p for p in order if points[p] == 0][-1], "the bye goes to the lowest-placed player on 0 points"


def test_a_round_the_greedy_pairer_got_wrong_keeps_every_score_group_together() -> None:
    """A, B, C and D on 1 point, E and F on none; A-B, B-D, C-E and D-F have met. The only way to
    keep both groups together is A v D, B v C, E v F; pairing each player in turn with the
    highest-placed they have not met (the old pairer) took A v C whenever C was placed above D,
    and then B and D could only meet E and F: four players out of their group."""
    history = [("A", "B", 1), ("D", "F", 1), ("B", "D", 2), ("C", "E", 2)]
    tables = [ended(Table(round_, n, a, b), a) for n, (a, b, round_) in enumerate(history, 1)]
    for seed in range(8):  # whatever order the draw puts the tied players in
        paired = pair_round(list("ABCDEF"), tables, 3, Ranking(("vp_diff",), seed=seed))
        assert {frozenset(t.players) for t in paired} == {frozenset("AD"), frozenset("BC"), frozenset("EF")}


def test_strength_of_schedule_and_the_opponents_average() -> None:
    """Round 1: A beats B 5-2, C draws D 3-3. Round 2: A beats C 4-0, B beats D 6-1.
    Points: A 2, B 1, C 1/2, D 1/2. SoS: A = B + C = 1.5; B = A + D = 2.5; C = D + A = 2.5; D = C + B = 1.5.
    The opponents' average is SoS over the 2 games each."""
    r1 = [ended(Table(1, 1, "A", "B"), "A", (5, 2)), ended(Table(1, 2, "C", "D"), None, (3, 3))]
    r2 = [ended(Table(2, 1, "A", "C"), "A", (4, 0)), ended(Table(2, 2, "B", "D"), "B", (6, 1))]
    lines = {s.player: s for s in standings("ABCD", r1 + r2)}
    assert {p: s.points for p, s in lines.items()} == {"A": 2, "B": 1, "C": 0.5, "D": 0.5}
    assert {p: s.sos for p, s in lines.items()} == {"A": 1.5, "B": 2.5, "C": 2.5, "D": 1.5}
    assert {p: s.opp_avg for p, s in lines.items()} == {"A": 0.75, "B": 1.25, "C": 1.25, "D": 0.75}
    assert (lines["B"].vp_for, lines["B"].vp_against, lines["B"].vp_diff) == (8, 6, 2)
    assert [s.player for s in standings("ABCD", r1 + r2, Ranking(("sos",)))] == ["A", "B", "C", "D"]  # C and D tie on points: C's SoS is higher


def test_the_event_chooses_the_tie_breakers_order() -> None:
    """C and D on 1/2 point each: C has the higher SoS (2.5 v 1.5), D the higher VP difference (-1 v -4)."""
    r1 = [ended(Table(1, 1, "A", "B"), "A", (5, 2)), ended(Table(1, 2, "C", "D"), None, (3, 3))]
    r2 = [ended(Table(2, 1, "A", "C"), "A", (4, 0)), ended(Table(2, 2, "B", "D"), "B", (6, 5))]
    assert [s.player for s in standings("ABCD", r1 + r2, Ranking(("sos", "vp_diff")))][2:] == ["C", "D"]
    assert [s.player for s in standings("ABCD", r1 + r2, Ranking(("vp_diff", "sos")))][2:] == ["D", "C"]


def test_a_bye_counts_in_the_opponents_average_as_the_event_says() -> None:
    """A beats B, C has the bye (round 1); A beats C, B beats... B has the bye (round 2), C beats
    nobody. Points: A 2, B 1 (the bye), C 1 (the bye). B met A (2 points) and rested once; C met
    A and rested once. Left out, a bye makes B's and C's average A's 2 points; counted as an
    opponent with 0 points, (2 + 0) / 2 = 1; with 1 point, 1.5."""
    r1 = [ended(Table(1, 1, "A", "B"), "A"), Table(1, 2, "C", None, Outcome({"C": WIN}, {"C": 0}, "bye"))]
    r2 = [ended(Table(2, 1, "A", "C"), "A"), Table(2, 2, "B", None, Outcome({"B": WIN}, {"B": 0}, "bye"))]
    for bye_points, expected in ((None, 2.0), (0.0, 1.0), (1.0, 1.5)):
        lines = {s.player: s for s in standings("ABC", r1 + r2, Ranking(("opp_avg",), bye_points=bye_points))}
        assert (lines["B"].opp_avg, lines["C"].opp_avg) == (expected, expected)
        assert lines["A"].opp_avg == 1.0  # A met B and C, on 1 point each: no bye of A's


def test_head_to_head_ranks_the_players_still_tied_by_their_games_against_each_other() -> None:
    """A, B and C on 1 point each with the same VP: B beat A, C beat D... only the game B v A is
    between the tied: B ranks above A, whatever the seeded draw says."""
    tables = [
        ended(Table(1, 1, "B", "A"), "B", (3, 1)),
        ended(Table(1, 2, "C", "D"), "C", (3, 1)),
        ended(Table(2, 1, "A", "D"), "A", (3, 1)),
        ended(Table(2, 2, "C", "B"), "C", (3, 1)),
    ]
    for seed in range(12):
        order = [s.player for s in standings("ABCD", tables, Ranking(("h2h",), seed=seed))]
        assert order[0] == "C" and order.index("B") < order.index("A"), (seed, order)


def test_the_last_tie_breaker_is_a_seeded_draw_not_the_name() -> None:
    """Eight players with nothing played: their order is the draw, the same for a seed, another for another seed."""
    players = [f"P{i}" for i in range(8)]
    orders = {seed: [s.player for s in standings(players, [], Ranking((), seed=seed))] for seed in range(6)}
    assert all(sorted(o) == players for o in orders.values())
    assert len({tuple(o) for o in orders.values()}) > 1, "the seed changes the draw"
    assert [s.player for s in standings(players, [], Ranking((), seed=3))] == orders[3], "the same seed, the same draw"
    assert any(o != players for o in orders.values()), "not by name"


def test_a_bye_and_a_no_show_are_wins_and_an_open_table_counts_for_nobody() -> None:
    players = ["A", "B", "C"]
    first = pair_round(players, [], 1, Ranking(seed=1))
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
        tables += [ended(t, t.a) for t in pair_round(players, tables, round_, Ranking(seed=5))]
    with pytest.raises(PairingError, match="round 4 cannot be paired without a rematch or a second bye .* at most 3 rounds"):
        pair_round(players, tables, 4, Ranking(seed=5))


# --- every event up to 12 players, against a brute force ------------------------------------


def every_pairing(people: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way of pairing `people` (an even count) off."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for more in every_pairing(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


BYE = "(bye)"


def cost(pairs: list[tuple[str, str]], order: list[str], points: dict[str, float]) -> tuple[float, int, float, int, int]:
    """A round's cost by the documented criteria, in their order (lower is better): the bye's
    points, the pairs across score groups, their point gaps, the bye's place from the bottom, the
    distance in the standings between paired players."""
    place = {p: i for i, p in enumerate(order)}
    resting = [a if b == BYE else b for a, b in pairs if BYE in (a, b)]
    games = [(a, b) for a, b in pairs if BYE not in (a, b)]
    return (
        points[resting[0]] if resting else 0,
        sum(points[a] != points[b] for a, b in games),
        sum(abs(points[a] - points[b]) for a, b in games),
        len(order) - 1 - place[resting[0]] if resting else 0,
        sum(abs(place[a] - place[b]) for a, b in games),
    )


def best_by_brute_force(order: list[str], points: dict[str, float], met: set[frozenset[str]], rested: set[str]) -> tuple | None:
    people = order + ([BYE] if len(order) % 2 else [])
    best = None
    for pairs in every_pairing(people):
        if any(frozenset(p) in met for p in pairs) or any(BYE in p and (p[0] in rested or p[1] in rested) for p in pairs):
            continue
        key = cost(pairs, order, points)
        best = key if best is None or key < best else best
    return best


def random_history(rng: random.Random, players: list[str], rounds: int) -> list[Table]:
    """`rounds` rounds of random pairings (no rematch, no second bye where the dice allow) and results."""
    tables: list[Table] = []
    met: set[frozenset[str]] = set()
    for round_ in range(1, rounds + 1):
        here = [p for p in players if rng.random() > 0.15]  # now and then someone misses a round
        rng.shuffle(here)
        number = 1
        while len(here) >= 2:
            a = here.pop()
            b = next((p for p in here if frozenset((a, p)) not in met), None)
            if b is None:
                continue
            here.remove(b)
            met.add(frozenset((a, b)))
            pick = rng.random()
            tables.append(ended(Table(round_, number, a, b), None if pick < 0.2 else a if pick < 0.6 else b, (rng.randint(0, 9), rng.randint(0, 9))))
            number += 1
        if here:
            tables.append(Table(round_, number, here[0], None, Outcome({here[0]: WIN}, {here[0]: 0}, "bye")))
    return tables


def check_against_brute_force(count: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    players = [f"P{i:02d}" for i in range(count)]
    tables = random_history(rng, players, rounds)
    ranking = Ranking(("opp_avg", "vp_diff"), seed=seed)
    order = [s.player for s in standings(players, tables, ranking)]
    points = {s.player: s.points for s in standings(players, tables, ranking)}
    met = {frozenset(t.players) for t in tables if t.b is not None}
    rested = {t.a for t in tables if t.b is None}
    best = best_by_brute_force(order, points, met, rested)
    if best is None:
        with pytest.raises(PairingError):
            pair_round(players, tables, rounds + 1, ranking)
        return
    paired = pair_round(players, tables, rounds + 1, ranking)
    pairs = [(t.a, t.b if t.b is not None else BYE) for t in paired]
    assert sorted(p for pair in pairs for p in pair if p != BYE) == sorted(players)
    assert not any(frozenset(p) in met for p in pairs) and not any(BYE in p and p[0] in rested for p in pairs)
    assert cost(pairs, order, points) == best, (seed, pairs)


@pytest.mark.parametrize("count", range(2, 13))
def test_every_event_up_to_12_players_pairs_as_well_as_a_brute_force(count: int) -> None:
    for seed in range(6):
        check_against_brute_force(count, rounds=seed % 4 + 1, seed=seed * 31 + count)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 11), rounds=st.integers(0, 6), seed=st.integers(0, 2**32))
def test_random_events_pair_as_well_as_a_brute_force(count: int, rounds: int, seed: int) -> None:
    check_against_brute_force(count, rounds, seed)
