"""Preliminary Ops scoring (pg 84-85): kill grades, Secure, Loot, Transmission, winner or draw."""

from __future__ import annotations

import pytest
from conftest import card, expend_all, game, gun, next_turning_point, play_out

from ktlog.errors import RuleViolation
from ktlog.events import ActivationEnded, DamageInflicted, GameConceded, OperativeActivated
from ktlog.play.builder import dash, loot, secure, shoot, transmit
from ktlog.rules.killop import KILL_GRADE_TABLE, kill_grade
from ktlog.rulesets import RULESETS
from ktlog.state import GameState

# pg 84, transcribed independently of ktlog/rules/killop.py: starting enemies -> grades 1..5.
PG84 = """
5 1 2 3 4 5
6 1 2 4 5 6
7 1 3 4 6 7
8 2 3 5 6 8
9 2 4 5 7 9
10 2 4 6 8 10
11 2 4 7 9 11
12 2 5 7 10 12
13 3 5 8 10 13
14 3 6 8 11 14
"""


def test_kill_grade_table_is_pg84():
    rows = {int(r.split()[0]): tuple(map(int, r.split()[1:])) for r in PG84.strip().splitlines()}
    assert KILL_GRADE_TABLE == rows


@pytest.mark.parametrize("starting", range(5, 15))
def test_kill_grade_every_row(starting):
    thresholds = KILL_GRADE_TABLE[starting]
    for killed in range(starting + 1):
        assert kill_grade(starting, killed) == sum(killed >= t for t in thresholds)
    assert kill_grade(starting, starting) == 5


def test_rulebook_example_eight_starting_operatives():
    # pg 84: "if the starting number of enemy operatives was eight, two enemy operatives must
    # have been incapacitated to reach kill grade 1, and then another one (totalling three) to
    # reach kill grade 2."
    assert [kill_grade(8, n) for n in (1, 2, 3)] == [0, 1, 2]


def test_rows_outside_the_table_are_clamped_ruling_1():
    assert kill_grade(4, 4) == kill_grade(5, 4) == 4
    assert kill_grade(16, 14) == kill_grade(14, 14) == 5


def kill(g, op_id, by="Alice"):
    """Incapacitate an operative with damage from an unnamed source."""
    return g.add(DamageInflicted(operative=op_id, damage=99, source="other"))


def test_each_new_kill_grade_scores_1vp_and_crossing_two_scores_2():
    g = game(5, 6)  # Alice's kill op uses Bob's row 6: 1, 2, 4, 5, 6
    kill(g, "b1")
    assert (g.state.players["Alice"].kill_grade, g.state.players["Alice"].vp["kill"]) == (1, 1)
    kill(g, "b2")
    kill(g, "b3")
    assert g.state.players["Alice"].kill_grade == 2  # 3 kills: still grade 2 (grade 3 needs 4)
    # Blast-style: two at once is one event but two grades would need 2 kills; use the log.
    kill(g, "b4")
    assert (g.state.players["Alice"].kill_grade, g.state.players["Alice"].vp["kill"]) == (3, 3)
    assert [v.reason for v in g.state.vp_log] == ["kill grade 1", "kill grade 2", "kill grade 3"]


def test_crossing_two_grades_in_one_action_scores_2vp():
    # Row 5: every kill is a grade. A Blast shot incapacitating two scores 2VP at one seq.
    blast = gun("Frag", 4, 4, (9, 9), 'Blast 2"')
    g = game({"a1": card(weapons=(blast,))}, {"b1": card(save=6), "b2": card(save=6), "b3": card(), "b4": card(), "b5": card()})
    from ktlog.play.builder import attack

    g.activate("a1", "engage", shoot("Frag", "b1", "4411", "111", extra=[attack("b2", "4411", "111")]))
    p = g.state.players["Alice"]
    assert (p.kill_grade, p.vp["kill"]) == (2, 2)
    assert {v.seq for v in g.state.vp_log} == {g.seq - 1}


def test_incapacitation_by_any_source_counts():
    g = game(5, 5)
    g.add(DamageInflicted(operative="b1", damage=10, source="mine"))
    assert g.state.players["Alice"].kill_grade == 1


def test_tp4_bonus_for_strictly_higher_kill_grade():
    g = game(5, 5)
    kill(g, "b1")
    kill(g, "b2")
    kill(g, "a1")
    play_out(g)
    alice, bob = g.state.players["Alice"], g.state.players["Bob"]
    assert alice.vp["kill"] == 2 + 1 and bob.vp["kill"] == 1
    assert g.state.result.winner == "Alice"
    assert g.state.vp_log[-1].reason == "higher kill grade at the end of the battle"


def test_equal_vp_is_a_draw():
    g = game(5, 5)
    kill(g, "b1")
    kill(g, "a1")
    play_out(g)
    assert g.state.result.draw and g.state.result.winner is None
    assert g.state.phase == "over"


def test_secure_scores_at_the_end_of_each_tp_after_the_first():
    g = game(5, 5, crit_op=1)
    g.activate("a1", "engage", end=False)
    with pytest.raises(RuleViolation, match="first turning point"):
        g.add(secure("centre")("a1"))
    next_turning_point(g)  # TP2
    g.activate("a1", "engage", secure("centre"))
    g.activate("b1", "engage", secure("Bob-marker"))
    g.activate("a2", "engage", secure("Alice-marker"))
    expend_all(g)
    g.end_turning_point()
    # Alice secured 2, Bob 1: Alice 1 + 1 (more), Bob 1.
    assert g.state.players["Alice"].vp["crit"] == 2 and g.state.players["Bob"].vp["crit"] == 1
    g.turning_point(3, {"Alice": 5, "Bob": 2}, "Alice")
    g.activate("a1", "engage", dash())
    g.activate("b2", "engage", secure("centre"))  # Bob takes the centre from Alice
    expend_all(g)
    g.end_turning_point()
    # Alice keeps her own marker (1), Bob holds his and the centre (2): Alice 1, Bob 1 + 1 (more).
    assert g.state.players["Alice"].vp["crit"] == 3 and g.state.players["Bob"].vp["crit"] == 3


def test_loot_one_vp_each_at_most_two_per_tp_once_per_marker():
    g = game(5, 5, crit_op=2)
    next_turning_point(g)
    g.activate("a1", "engage", loot("centre"))
    g.activate("b1", "engage", end=False)
    with pytest.raises(RuleViolation, match="already looted this turning point"):
        g.add(loot("centre")("b1"))
    g.add(loot("Bob-marker")("b1"), ActivationEnded(operative="b1"))
    g.activate("a2", "engage", loot("Alice-marker"))
    assert g.state.players["Alice"].vp["crit"] == 2
    next_turning_point(g)  # TP3: markers can be looted again
    g.activate("a1", "engage", loot("centre"))
    g.activate("b1", "engage", loot("Bob-marker"))
    g.activate("a2", "engage", loot("Alice-marker"))
    assert g.state.players["Alice"].vp["crit"] == 4  # 2 in TP2, 2 in TP3
    # A third loot in one TP scores nothing (max 2VP per TP).
    assert g.state.players["Bob"].vp["crit"] == 2


def test_wrong_crit_op_action_is_refused():
    g = game(5, 5, crit_op=2)
    next_turning_point(g)
    g.activate("a1", "engage", end=False)
    with pytest.raises(RuleViolation, match="not an action of this game's crit op"):
        g.add(secure("centre")("a1"))


@pytest.mark.parametrize("crit_op", [1, 2, 3])
def test_the_mission_actions_listed_are_the_crit_ops_and_the_rules_refuse_the_others(crit_op):
    """`Ruleset.mission_actions`, which the analyser tries for a missed action: the crit op's
    own (pg 84-85), none before it is rolled; every other mission action is refused."""
    ruleset = RULESETS["kt24-preliminary"]
    g = game(5, 5, crit_op=crit_op)
    next_turning_point(g)
    listed = ruleset.mission_actions(g.state)
    assert [cls.__name__ for cls in listed] == [("MarkerSecured", "MarkerLooted", "TransmissionInitiated")[crit_op - 1]]
    g.activate("a1", "engage", end=False)
    for make in (secure, loot, transmit):
        event = make("centre")("a1")
        if type(event) in listed:
            continue
        with pytest.raises(RuleViolation, match="not an action of this game's crit op"):
            g.add(event)
    assert ruleset.mission_actions(GameState()) == ()  # no crit op yet


def test_transmission_scores_transmitting_markers_each_side_controls():
    g = game(5, 5, crit_op=3)
    next_turning_point(g)
    g.activate("a1", "engage", transmit("centre"))
    g.activate("b1", "engage", transmit("Bob-marker"))
    g.activate("a2", "engage", transmit("Alice-marker"))
    expend_all(g)
    with pytest.raises(RuleViolation, match="ObjectivesControlled"):
        g.end_turning_point()
    # Control decides, not who started it: Bob now controls the centre Alice transmitted.
    g.end_turning_point(control={"centre": "Bob", "Alice-marker": "Alice", "Bob-marker": "Bob"})
    assert g.state.players["Bob"].vp["crit"] == 2 and g.state.players["Alice"].vp["crit"] == 1
    g.turning_point(3, {"Alice": 5, "Bob": 2}, "Alice")
    assert not any(m.transmitting for m in g.state.markers.values())  # until the start of the next TP


def test_concession_ends_the_game_and_the_other_player_wins():
    g = game(5, 5)
    kill(g, "a1")
    g.add(GameConceded(player="Alice"))
    assert g.state.phase == "over"
    assert g.state.result.winner == "Bob" and g.state.result.ended_by == "concession"
    with pytest.raises(RuleViolation, match="the game is over"):
        g.add(OperativeActivated(operative="a2", order="engage"))


def test_vp_never_exceeds_the_op_caps():
    # The whole of one side's kill op: every grade, then the TP4 bonus: 6VP.
    g = game(5, 5)
    for i in range(1, 6):
        kill(g, f"b{i}")
    play_out(g)
    assert g.state.players["Alice"].vp["kill"] == 6
