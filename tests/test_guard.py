"""Guard (Killzone: Gallowdark, 000 pg 70): going on guard, the interrupt, point-blank shots, and
when guard ends."""

from __future__ import annotations

import pytest
from conftest import game, next_turning_point

from ktlog.errors import RuleViolation
from ktlog.events import ActivationEnded, CounteractStarted, OperativeActivated
from ktlog.play.builder import charge, dash, fight, killzone_action, reposition, shoot


def on_guard(g, *operatives):
    return [o for o in operatives if g.state.operatives[o].on_guard]


def gallowdark(alice=2, bob=2):
    """Alice's a1 goes on guard; Bob's b1 is active and has repositioned."""
    g = game(alice, bob, killzone="gallowdark")
    g.activate("a1", "engage", killzone_action("Guard"))
    assert on_guard(g, "a1") == ["a1"]
    g.add(OperativeActivated(operative="b1", order="engage"))
    return g


def test_an_operative_on_guard_shoots_for_free_after_an_enemy_action_pg70():
    g = gallowdark()
    with pytest.raises(RuleViolation, match=r"interrupts after the enemy operative performs an action; 'b1' has performed none yet \(Guard, pg 70\)"):
        g.add(shoot("Gun", "b1", "5411", "111", guard=True)("a1"))
    g.add(reposition()("b1"))
    # Without guard=yes, a1 is no active operative (pg 39); the message points to the interrupt.
    with pytest.raises(RuleViolation, match=r"not the active operative.*it is on guard: .*guard=yes"):
        g.add(shoot("Gun", "b1", "5411", "111")("a1"))
    # Gun 4 Atk, Hit 4+, Dmg 3/4: 5 and 4 are two normal successes, saves 1 1 1 fail: 6 damage.
    g.add(shoot("Gun", "b1", "5411", "111", guard=True)("a1"))
    assert g.state.operatives["b1"].wounds == 4
    assert on_guard(g, "a1") == []  # guard ends when it performs an action
    act = g.state.activation
    assert (act.operative, act.actions, act.ap_spent) == ("b1", ["Reposition"], 1)  # b1's activation goes on
    g.add(dash()("b1"), ActivationEnded(operative="b1"))
    assert g.state.operatives["a1"].status == "expended"


def test_once_during_each_enemy_activation_pg70():
    g = game(3, 2, killzone="gallowdark")
    g.activate("a1", "engage", killzone_action("Guard"))
    g.activate("b2", "conceal")
    g.activate("a2", "engage", killzone_action("Guard"))
    g.add(OperativeActivated(operative="b1", order="engage"), reposition()("b1"))
    g.add(shoot("Gun", "b1", "1111", "111", guard=True)("a1"))
    with pytest.raises(RuleViolation, match=r"Alice already interrupted 'b1''s activation: once during each enemy operative's activation"):
        g.add(shoot("Gun", "b1", "1111", "111", guard=True)("a2"))
    assert on_guard(g, "a1", "a2") == ["a2"]


def test_only_an_operative_on_guard_interrupts_pg70():
    g = game(2, 2, killzone="gallowdark")
    g.activate("a1", "engage", reposition())
    g.add(OperativeActivated(operative="b1", order="engage"), reposition()("b1"))
    with pytest.raises(RuleViolation, match=r"'a1' is not on guard: an operative goes on guard with the Guard action"):
        g.add(shoot("Gun", "b1", "1111", "111", guard=True)("a1"))


def test_a_point_blank_shot_worsens_hit_by_1_and_its_shooter_cannot_retaliate_pg70():
    g = gallowdark()
    g.add(charge("a1")("b1"))  # b1 ends its Charge within a1's control range
    with pytest.raises(RuleViolation, match=r"a point-blank shot targets an enemy operative within 'a1''s control range \(b1\)"):
        g.add(shoot("Gun", "b2", "5511", "111", guard=True)("a1"))
    # Point-blank: Hit 4+ worsened by 1 is 5+, so of 5 4 1 1 only the 5 succeeds: 3 damage.
    g.add(shoot("Gun", "b1", "5411", "111", guard=True)("a1"))
    shot = g.state.attacks[-1]
    assert (shot.hit, shot.normal_hits, shot.damage) == (5, 1, 3)
    # Until the end of b1's activation, a1 cannot retaliate.
    with pytest.raises(RuleViolation, match=r"'a1' made a point-blank shot during 'b1''s activation and cannot retaliate"):
        g.add(fight("Blade", "a1", "Blade", "5411", "6111")("b1"))
    g.add(fight("Blade", "a1", None, "5411")("b1"))
    assert g.state.operatives["a1"].wounds == 10 - 6
    g.add(ActivationEnded(operative="b1"))
    assert g.state.activation is None


def test_guard_ends_when_an_enemy_ends_an_action_in_control_range_and_is_not_interrupted_pg70():
    g = gallowdark()
    g.add(charge("a1")("b1"))
    assert on_guard(g, "a1") == ["a1"]  # the interrupt may still come, after any action of b1
    g.add(ActivationEnded(operative="b1"))
    assert on_guard(g, "a1") == []


def test_guard_ends_at_the_start_of_the_next_turning_point_pg70():
    g = gallowdark()
    g.add(ActivationEnded(operative="b1"))
    assert on_guard(g, "a1") == ["a1"]
    next_turning_point(g)
    assert on_guard(g, "a1") == []


def test_a_counteract_is_no_activation_to_interrupt_pg39_pg70():
    g = game(3, 1, killzone="gallowdark")
    g.activate("a1", "engage", killzone_action("Guard"))
    g.activate("b1", "engage")
    g.activate("a2", "conceal")
    g.add(CounteractStarted(operative="b1"))  # Bob's only operative is expended, Alice has a3 ready
    with pytest.raises(RuleViolation, match=r"'b1' is counteracting, which is not an activation \(pg 39\)"):
        g.add(shoot("Gun", "b1", "1111", "111", guard=True)("a1"))
    g.add(reposition()("b1"))  # the counteract's one action ends it
    with pytest.raises(RuleViolation, match=r"'a1' interrupts from guard only during an enemy operative's activation"):
        g.add(shoot("Gun", "b1", "1111", "111", guard=True)("a1"))


def test_an_operative_on_guard_fights_for_free_and_the_enemy_retaliates_pg70():
    g = gallowdark()
    g.add(charge("a1")("b1"))
    # Blade 4 Atk, Hit 4+, Dmg 3/4 each way: a1 strikes 6 (4) and 5 (3), b1 strikes its 4 (3).
    g.add(fight("Blade", "b1", "Blade", "6511", "4111", guard=True)("a1"))
    assert [g.state.operatives[o].wounds for o in ("a1", "b1")] == [7, 3]
    assert g.state.activation.ap_spent == 1 and g.state.activation.actions == ["Charge"]
    assert on_guard(g, "a1") == []
