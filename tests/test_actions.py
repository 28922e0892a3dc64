"""Actions (pg 39-45): AP and APL, action restrictions, exclusions, orders, control range, damage."""

from __future__ import annotations

import pytest
from conftest import blade, card, game, gun

from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import (
    ActivationEnded,
    AplModified,
    DamageInflicted,
    Dashed,
    Dice,
    OperativeActivated,
    Repositioned,
    ShootingAttack,
    Shot,
    UniqueAction,
)
from ktlog.play.builder import attack, charge, dash, fall_back, fight, killzone_action, pick_up, reposition, shoot, unique


def active(g, op_id, order="engage"):
    return g.add(OperativeActivated(operative=op_id, order=order))


def test_ap_total_within_apl_pg39():
    g = game(2, 2)
    active(g, "a1")
    g.add(Repositioned(operative="a1"), Dashed(operative="a1"))
    with pytest.raises(RuleViolation, match="APL 2 and has spent 2AP"):
        g.add(shoot("Gun", "b1", "1111", "111")("a1"))


def test_fall_back_costs_2ap_pg40():
    g = game(2, 2)
    g.activate("a1", "engage", charge("b1"))
    g.activate("b1", "engage", fight("Blade", "a1", "Blade", "1111", "1111"), end=False)
    with pytest.raises(RuleViolation, match="APL 2 and has spent 1AP; Fall Back costs 2AP more"):
        g.add(fall_back()("b1"))


def test_the_same_action_twice_is_refused():
    g = game(2, 2)
    active(g, "a1")
    g.add(Repositioned(operative="a1"))
    with pytest.raises(RuleViolation, match="already performed Reposition this activation"):
        g.add(Repositioned(operative="a1"))


def test_apl_changes_are_capped_at_plus_or_minus_one_pg48():
    g = game(2, 2)
    g.add(AplModified(operative="a1", delta=1, reason="Support"), AplModified(operative="a1", delta=1, reason="Another support"))
    assert g.state.operatives["a1"].apl == 3
    active(g, "a1")
    g.add(Repositioned(operative="a1"), Dashed(operative="a1"), shoot("Gun", "b1", "1111", "111")("a1"))
    g.add(ActivationEnded(operative="a1"))
    assert g.state.operatives["a1"].apl == 2  # the changes end with its next activation
    g.add(AplModified(operative="b1", delta=-1, reason="Stun"), AplModified(operative="b1", delta=-1, reason="Stun grenade"))
    assert g.state.operatives["b1"].apl == 1


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        (dash(), charge("b1"), "Charge cannot be performed in the same activation as Dash"),
        (reposition(), charge("b1"), "Charge cannot be performed in the same activation as Reposition"),
        (charge("b1"), dash(), "within control range of b1 and cannot Dash"),
    ],
)
def test_action_exclusions_pg40_41(first, second, message):
    g = game(2, 2)
    active(g, "a1")
    g.add(first("a1"))
    with pytest.raises(RuleViolation, match=message):
        g.add(second("a1"))


def test_no_reposition_after_fall_back_pg40():
    g = game(2, {"b1": card(apl=3), "b2": card()})
    g.activate("a1", "engage", charge("b1"))
    g.activate("b1", "engage", fall_back(), end=False)
    with pytest.raises(RuleViolation, match="Reposition cannot be performed in the same activation as Fall Back"):
        g.add(reposition()("b1"))


def test_fall_back_only_within_control_range_and_leaves_it():
    g = game({"a1": card(apl=3), "a2": card()}, 2)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="no enemy within its control range to Fall Back from"):
        g.add(fall_back()("a1"))
    g.add(charge("b1")("a1"))
    assert g.state.operatives["b1"].engaged_with == ["a1"]
    with pytest.raises(RuleViolation, match="Fall Back cannot be performed in the same activation as Charge"):
        g.add(fall_back()("a1"))
    g.add(ActivationEnded(operative="a1"))
    g.activate("b1", "engage", fall_back())
    assert g.state.operatives["a1"].engaged_with == [] and g.state.operatives["b1"].engaged_with == []


def test_conceal_cannot_shoot_unless_silent_or_charge_pg38():
    silent = gun("Sniper", 4, 3, (3, 3), "Silent")
    g = game({"a1": card(weapons=(gun(), silent, blade()))}, 2)
    active(g, "a1", "conceal")
    with pytest.raises(RuleViolation, match="Conceal order and can only Shoot with a Silent weapon"):
        g.add(shoot("Gun", "b1", "1111", "111")("a1"))
    with pytest.raises(RuleViolation, match="Conceal order and cannot Charge"):
        g.add(charge("b1")("a1"))
    g.add(shoot("Sniper", "b1", "1111", "111")("a1"))


def test_shooting_needs_a_valid_target_pg42():
    g = game(2, 2)
    g.activate("a1", "engage", charge("b1"))
    g.activate("b2", "conceal", end=False)
    # b1 has Bob's enemy a1 within its control range, but a2's friend a1 makes b1 invalid for Alice.
    g.add(dash()("b2"), ActivationEnded(operative="b2"))
    active(g, "a2")
    with pytest.raises(RuleViolation, match="has friendly operatives within its control range"):
        g.add(shoot("Gun", "b1", "1111", "111")("a2"))
    # A Conceal target in cover is not a valid target.
    with pytest.raises(RuleViolation, match="Conceal order and is in cover"):
        g.add(shoot("Gun", "b2", "1111", "11", cover=True)("a2"))


def test_fight_needs_an_enemy_within_control_range_pg44():
    g = game(2, 2)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="not within 'a1''s control range; Charge it first"):
        g.add(fight("Blade", "b1", "Blade", "1111", "1111")("a1"))
    g.add(charge("b1")("a1"), fight("Blade", "b1", "Blade", "5511", "4111")("a1"))
    assert g.state.operatives["b1"].wounds == 10 - 6 + 0  # two normal strikes of 3; b1's normal struck back
    assert g.state.operatives["a1"].wounds == 10 - 3


def test_incapacitated_operatives_cannot_act_or_be_targeted_pg47():
    g = game(2, 2)
    g.add(DamageInflicted(operative="b1", damage=10, source="mine"))
    assert g.state.operatives["b1"].incapacitated
    with pytest.raises(InvalidEvent, match="incapacitated"):
        g.add(OperativeActivated(operative="b1", order="engage"))
    active(g, "a1")
    with pytest.raises(InvalidEvent, match="incapacitated"):
        g.add(shoot("Gun", "b1", "6666", "111")("a1"))


def test_injured_below_half_wounds_worsens_hit_pg47():
    g = game(2, {"b1": card(wounds=10), "b2": card(wounds=10)})
    g.add(DamageInflicted(operative="a1", damage=5, source="other"))
    assert not g.state.operatives["a1"].injured  # 5 of 10 left: not fewer than half
    g.add(DamageInflicted(operative="a1", damage=1, source="other"))
    op = g.state.operatives["a1"]
    assert op.injured and op.move == 4  # 6" - 2"
    active(g, "a1")
    g.add(shoot("Gun", "b1", "4411", "111")("a1"))  # Hit 4+ worsened to 5+: the 4s miss
    assert g.state.operatives["b1"].wounds == 10
    assert g.state.attacks[-1].hit == 5


def test_limited_weapons_pg111():
    krak = gun("Krak", 4, 4, (4, 5), "Limited 1")
    g = game({"a1": card(weapons=(krak, blade()))}, 2)
    g.activate("a1", "engage", shoot("Krak", "b1", "1111", "111"))
    g.activate("b1", "engage")
    from conftest import next_turning_point

    next_turning_point(g)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="Limited 1"):
        g.add(shoot("Krak", "b1", "1111", "111")("a1"))


def test_heavy_weapons_cannot_move_and_shoot_pg111():
    heavy = gun("Cannon", 4, 4, (5, 6), "Heavy")
    dash_only = gun("Rifle", 4, 4, (3, 3), "Heavy (Dash only)")
    g = game({"a1": card(weapons=(heavy, dash_only, blade()))}, 2)
    active(g, "a1")
    g.add(dash()("a1"))
    with pytest.raises(RuleViolation, match="Heavy"):
        g.add(shoot("Cannon", "b1", "1111", "111")("a1"))
    g.add(shoot("Rifle", "b1", "1111", "111")("a1"))


def test_hot_weapon_damages_its_user():
    plasma = gun("Plasma", 4, 4, (5, 6), "Hot")
    g = game({"a1": card(weapons=(plasma, blade()))}, 2)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="Hot: record the D6"):
        g.add(shoot("Plasma", "b1", "1111", "111")("a1"))
    g.add(shoot("Plasma", "b1", "1111", "111", hot=3)("a1"))
    assert g.state.operatives["a1"].wounds == 10 - 6


def test_stun_takes_one_apl_until_the_end_of_the_targets_next_activation():
    stunner = gun("Stunner", 4, 4, (1, 1), "Stun")
    g = game({"a1": card(weapons=(stunner, blade()))}, 2)
    g.activate("a1", "engage", shoot("Stunner", "b1", "6111", "111"))
    assert g.state.operatives["b1"].apl == 1
    g.activate("b1", "engage", dash())
    assert g.state.operatives["b1"].apl == 2


def test_objective_markers_cannot_be_picked_up_in_preliminary_ops():
    g = game(2, 2)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="cannot be picked up"):
        g.add(pick_up("centre")("a1"))


def test_unique_actions_come_from_the_datacard():
    g = game({"a1": card(unique_actions=(UniqueAction(name="Signal", ap=1),))}, 2)
    active(g, "a1")
    with pytest.raises(RuleViolation, match="not a unique action"):
        g.add(unique("Teleport")("a1"))
    g.add(unique("signal")("a1"))
    assert g.state.activation.actions == ["signal"]


def test_killzone_actions_belong_to_their_killzone():
    g = game(2, 2, killzone="volkus")
    active(g, "a1")
    with pytest.raises(RuleViolation, match="Killzone: Gallowdark"):
        g.add(killzone_action("Operate Hatch")("a1"))
    g2 = game(2, 2, killzone="gallowdark")
    active(g2, "a1")
    g2.add(killzone_action("Guard")("a1"))
    with pytest.raises(RuleViolation, match="already performed Shoot"):  # Guard counts as Shoot
        g2.add(shoot("Gun", "b1", "1111", "111")("a1"))


def test_override_accepts_a_rule_break_and_lists_it_as_a_warning():
    g = game(2, 2)
    active(g, "a1")
    g.add(Repositioned(operative="a1"))
    g.add(Repositioned(operative="a1", override="Kill team rule: may Reposition twice"))
    w = g.state.warnings[-1]
    assert (w.rule, w.reason) == ("action restrictions, pg 39", "Kill team rule: may Reposition twice")
    assert "already performed Reposition" in w.message


def test_structural_errors_cannot_be_overridden():
    g = game(2, 2)
    with pytest.raises(InvalidEvent, match="no operative 'zz'"):
        g.add(OperativeActivated(operative="zz", order="engage", override="because"))
    active(g, "a1")
    seven = ShootingAttack(target="b1", attack_dice=Dice(rolls=(7, 1, 1, 1)), defence_dice=Dice(rolls=(1, 1, 1)))
    with pytest.raises(InvalidEvent, match="not a D6 result"):
        g.add(Shot(operative="a1", weapon="Gun", attacks=(seven,), override="because"))


def test_wounds_regained_never_above_starting_wounds():
    from ktlog.events import WoundsRegained

    g = game(2, 2)
    g.add(DamageInflicted(operative="a1", damage=6, source="other"))
    assert g.state.operatives["a1"].injured
    g.add(WoundsRegained(operative="a1", wounds=9, reason="Medikit"))
    assert g.state.operatives["a1"].wounds == 10 and not g.state.operatives["a1"].injured
    assert g.state.warnings[-1].message == "a1 regains 6 wounds"


def test_rulebook_example_pg39_apl_2():
    # pg 39: "An operative with an APL of 2 could perform the Reposition (1AP) and Shoot (1AP)
    # actions, totalling 2AP, but couldn't perform the Fall Back (2AP) and Shoot (1AP) actions."
    g = game(2, 2)
    g.activate("a1", "engage", reposition(), shoot("Gun", "b1", "1111", "111"))
    assert g.state.operatives["a1"].status == "expended"
    g.activate("b1", "engage", charge("a2"))
    g.activate("a2", "engage", fall_back(), end=False)
    with pytest.raises(RuleViolation, match="APL 2 and has spent 2AP; Shoot costs 1AP more"):
        g.add(shoot("Gun", "b2", "1111", "111")("a2"))


def test_fight_assists_only_from_friends_in_the_targets_control_range_pg45():
    # 000 pg 45 (fight sequence, step 3): improve Hit by 1 for each friendly operative within
    # control range of the enemy in that fight and not within control range of another enemy.
    g = game(3, 3)
    g.activate("a1", "engage", charge("b1"))
    g.activate("b2", "conceal")
    g.activate("a3", "engage", charge("b1", "b3"))  # within b3's control range too: no assist
    g.activate("b3", "conceal")
    g.activate("a2", "engage", charge("b1"), end=False)
    with pytest.raises(RuleViolation, match=r"assists=2, but 1 friendly operative\(s\) of 'a2' can assist against 'b1' \(a1\).*Fight assists, pg 45"):
        g.add(fight("Blade", "b1", "Blade", "3311", "1111", assists=2)("a2"))
    # One assist: Blade's Hit 4+ becomes 3+, so both 3s are normal successes.
    g.add(fight("Blade", "b1", "Blade", "3311", "1111", assists=1)("a2"))
    mine = g.state.attacks[-2]
    assert (mine.hit, mine.normal_hits, mine.damage) == (3, 2, 6)


def test_fight_assists_with_no_friend_near_are_refused_unless_overridden_pg45():
    # The case: assists=3 with no other friendly operative near b1 made four 2s hits.
    g = game(2, 2)
    g.activate("a1", "engage", charge("b1"), end=False)
    with pytest.raises(RuleViolation, match=r"assists=3, but 0 friendly operative\(s\).*\(none\)"):
        g.add(fight("Blade", "b1", "Blade", "2222", "1111", assists=3)("a1"))
    with pytest.raises(RuleViolation, match=r"target_assists=1, but 0 friendly operative\(s\) of 'b1' can assist against 'a1'"):
        g.add(fight("Blade", "b1", "Blade", "1111", "1111", target_assists=1)("a1"))
    g.add(fight("Blade", "b1", "Blade", "2222", "1111", assists=3, override="a kill team rule gives the assists")("a1"))
    assert g.state.operatives["b1"].incapacitated  # four normal strikes of 3 against 10 wounds
    assert g.state.warnings[-1].rule == "Fight assists, pg 45"


def test_blast_secondary_targets_are_in_cover_and_obscured_if_the_primary_was_pg111():
    # 000 pg 111, Blast x: "Secondary targets are in cover and obscured if the primary target was."
    # Grenade 4 Atk, Hit 4+, Dmg 3/4. At b2, 5 5 1 1 are two normal successes: in the open with
    # saves 1 1 1 that is 6 damage; obscured discards one success and the cover save blocks the
    # other, so 0 damage (pg 43).
    grenade = gun("Grenade", 4, 4, (3, 4), 'Blast 2"')
    g = game({"a1": card(weapons=(grenade, blade())), "a2": card()}, 3)
    covered = attack("b1", "5511", "11", cover=True, obscured=True)
    g.activate("a2", "conceal").activate("b1", "engage")  # in cover, b1 is a valid target with an Engage order (pg 42)
    active(g, "a1")
    with pytest.raises(RuleViolation, match=r"'b2' is a secondary target and the primary target 'b1' was in cover and obscured.*\(Blast, pg 111\)"):
        g.add(shoot("Grenade", covered, extra=[attack("b2", "5511", "111")])("a1"))
    g.add(shoot("Grenade", covered, extra=[attack("b2", "5511", "11", cover=True, obscured=True)])("a1"))
    assert [g.state.operatives[t].wounds for t in ("b1", "b2")] == [10, 10]


def test_blast_secondary_targets_in_the_open_when_the_primary_was_pg111():
    grenade = gun("Grenade", 4, 4, (3, 4), 'Blast 2"')
    g = game({"a1": card(weapons=(grenade, blade()))}, 3)
    g.activate("a1", "engage", shoot("Grenade", "b1", "5511", "111", extra=[attack("b2", "5511", "111")]))
    assert [g.state.operatives[t].wounds for t in ("b1", "b2")] == [4, 4]
