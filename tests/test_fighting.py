"""The fight sequence (pg 44-45), from hand-worked dice."""

from __future__ import annotations

import pytest
from conftest import blade

from ktlog.errors import RuleViolation
from ktlog.events import Dice, FightStep
from ktlog.rules.fighting import Fighter, resolve_fight
from ktlog.text.notation import parse_dice, parse_steps


def fighter(weapon, dice, wounds=10, hit=None):
    return Fighter(weapon, weapon.hit if hit is None else hit, Dice(rolls=parse_dice(dice)), wounds)


def fight(a, d, steps=None):
    return resolve_fight(a, d, parse_steps(steps) if steps is not None else None)


def test_default_resolution_strikes_best_die_first_alternating_ruling_7():
    # Attacker 6,5 -> 1 critical, 1 normal; defender 4 -> 1 normal (Hit 4+).
    # Attacker strikes the critical (4), defender strikes (3), attacker strikes the normal (3).
    r = fight(fighter(blade(), "6511"), fighter(blade(), "4221"))
    assert (r.attacker.critical, r.attacker.normal, r.defender.normal) == (1, 1, 1)
    assert (r.attacker.damage_dealt, r.defender.damage_dealt) == (7, 3)
    assert r.steps == parse_steps("sc sn sn")


def test_a_critical_blocks_a_normal_then_the_attacker_resolves_the_rest():
    # pg 45: when one player has resolved all their dice, the other resolves the rest.
    r = fight(fighter(blade(), "6511"), fighter(blade(), "4221"), "bcn sn")
    assert (r.attacker.damage_dealt, r.defender.damage_dealt) == (3, 0)


def test_a_normal_success_cannot_block_a_critical():
    with pytest.raises(RuleViolation, match="normal success cannot block a critical"):
        resolve_fight(fighter(blade(), "5511"), fighter(blade(), "6111"), (FightStep(action="block", die="normal", blocks="critical"),))


def test_blocking_what_the_opponent_does_not_have_is_refused():
    with pytest.raises(RuleViolation, match="no unresolved normal success to block"):
        fight(fighter(blade(), "5511"), fighter(blade(), "6111"), "bnn")


def test_brutal_opponent_blocks_only_with_criticals():
    brutal = blade("Daemon blade", 4, 4, (3, 4), "Brutal")
    with pytest.raises(RuleViolation, match="Brutal"):
        fight(fighter(brutal, "5511"), fighter(blade(), "5111"), "sn bnn")
    r = fight(fighter(brutal, "5511"), fighter(blade(), "6111"), "sn bcn")
    assert r.defender.damage_dealt == 0 and r.attacker.damage_dealt == 3


def test_shock_first_critical_strike_discards_an_opposing_normal():
    shock = blade("Chainsword", 4, 4, (3, 4), "Shock")
    # Defender has two normals; the attacker's critical strike discards one of them.
    r = fight(fighter(shock, "6111"), fighter(blade(), "5411"))
    assert (r.attacker.damage_dealt, r.defender.damage_dealt) == (4, 3)
    assert len(r.steps) == 2


def test_fight_stops_when_an_operative_is_incapacitated():
    # The defender has 3 wounds: the attacker's first normal strike (3) ends the fight, so the
    # defender's critical is never resolved.
    r = fight(fighter(blade(), "5111"), fighter(blade(), "6111", wounds=3))
    assert (r.attacker.damage_dealt, r.defender.damage_dealt) == (3, 0)
    assert len(r.steps) == 1


def test_assists_improve_the_hit_stat():
    # Hit 4+ improved by one assist is 3+: the 3s succeed.
    r = fight(fighter(blade(), "3311", hit=3), fighter(blade(), "1111"))
    assert r.attacker.normal == 2


def test_devastating_in_a_fight_strikes_on_retention():
    dev = blade("Hammer", 4, 4, (3, 4), "Devastating 2")
    r = fight(fighter(dev, "6111"), fighter(blade(), "6111"), "bcc")
    # Devastating 2 is inflicted as the critical is retained; the defender's critical then
    # blocks nothing (the attacker spent its critical blocking the defender's).
    assert r.attacker.damage_dealt == 2
    assert r.defender.damage_dealt == 0


def test_cannot_retaliate():
    r = resolve_fight(fighter(blade(), "5511"), Fighter(None, 0, None, 10))
    assert r.attacker.damage_dealt == 6 and r.defender.damage_dealt == 0


def test_too_many_steps_are_refused():
    with pytest.raises(RuleViolation, match="fight ended after 1 steps but 2 were entered"):
        fight(fighter(blade(), "5111"), fighter(blade(), "1111"), "sn sn")


def test_the_step_bnc_parses_and_the_rules_refuse_it_with_pg_45():
    # Issue 16 #17: the notation knows every step; a normal blocking a critical is the rules' to refuse.
    assert parse_steps("bnc") == (FightStep(action="block", die="normal", blocks="critical"),)
    with pytest.raises(RuleViolation, match=r"normal success cannot block a critical") as caught:
        fight(fighter(blade(), "5511"), fighter(blade(), "6111"), "bnc")
    assert caught.value.rule == "Fight, pg 45"
