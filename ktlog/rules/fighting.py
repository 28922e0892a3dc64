"""The fight sequence from dice (pg 44-45), as a pure function."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..errors import InvalidEvent, RuleViolation
from ..events import Dice, FightStep, Weapon
from .dice import Rolled, Successes, apply_rerolls, attack_successes
from .weapons import WeaponProfile, weapon_profile


class Fighter(msgspec.Struct, frozen=True):
    """One side of a fight: its weapon (None: it cannot retaliate), Hit as modified, dice, wounds."""

    weapon: Weapon | None
    hit: int
    dice: Dice | None
    wounds: int


class SideResult(msgspec.Struct, frozen=True):
    attack_dice: int
    hits: Successes
    damage_dealt: int
    command_rerolls: int
    other_rerolls: int

    @property
    def normal(self) -> int:
        return self.hits.normal

    @property
    def critical(self) -> int:
        return self.hits.critical

    @property
    def critical_retained(self) -> bool:
        return self.hits.critical > 0


class FightResult(msgspec.Struct, frozen=True):
    attacker: SideResult
    defender: SideResult
    steps: tuple[FightStep, ...]
    """Every step as resolved, the recorded ones and those ktlog completed (ruling 7)."""


def _retained(side: Fighter, who: str) -> tuple[Successes, Rolled]:
    if side.weapon is None:
        if side.dice and side.dice.rolls:
            raise InvalidEvent(f"{who} has no melee weapon selected but dice were entered", "Fight, pg 44")
        return Successes(0, 0, 0), Rolled((), 0, 0)
    profile = weapon_profile(side.weapon.rules)
    rolled = apply_rerolls(side.dice or Dice(rolls=()), f"{who} ({side.weapon.name}) attack dice", profile)
    if len(rolled.results) != side.weapon.atk:
        raise RuleViolation(
            f"{who}'s {side.weapon.name} rolls {side.weapon.atk} attack dice but {len(rolled.results)} were entered",
            "Fight, pg 44",
        )
    return attack_successes(rolled.results, side.hit, profile), rolled


def _damage(weapon: Weapon, die: str) -> int:
    return weapon.crit_dmg if die == "critical" else weapon.normal_dmg


def resolve_fight(attacker: Fighter, defender: Fighter, steps: Sequence[FightStep] | None = None) -> FightResult:
    """Resolve a fight: both roll, then strike or block one die at a time, attacker first.

    The players alternate until one has resolved all their dice (the other then resolves the
    rest) or an operative is incapacitated. A normal success blocks a normal one, a critical
    blocks either; Brutal: the opponent blocks only with criticals; Shock: the first critical
    strike also discards an opposing normal success (a critical if none). Devastating
    inflicts its damage as the criticals are retained. Steps not recorded are strikes,
    best die first (ruling 7).
    """
    a_hits, a_roll = _retained(attacker, "the attacker")
    d_hits, d_roll = _retained(defender, "the defender")
    sides = (attacker, defender)
    pools = [{"critical": a_hits.critical, "normal": a_hits.normal}, {"critical": d_hits.critical, "normal": d_hits.normal}]
    wounds = [attacker.wounds, defender.wounds]
    dealt = [0, 0]
    profiles = [weapon_profile(s.weapon.rules) if s.weapon else None for s in sides]

    def hurt(by: int, amount: int) -> None:
        dealt[by] += amount
        wounds[1 - by] -= amount

    for i, hits in enumerate((a_hits, d_hits)):
        devastating = profiles[i]
        if devastating and devastating.devastating:
            hurt(i, hits.critical * devastating.devastating)

    recorded = list(steps or ())
    resolved: list[FightStep] = []
    shocked = [False, False]
    turn = 0
    while min(wounds) > 0:
        if not any(pools[turn].values()):
            turn = 1 - turn
            if not any(pools[turn].values()):
                break
        pool, opposing = pools[turn], pools[1 - turn]
        weapon, profile = sides[turn].weapon, profiles[turn]
        assert weapon is not None and profile is not None, "a side without a weapon has no successes to resolve"
        step = recorded.pop(0) if recorded else _default_step(pool, weapon)
        who = "attacker" if turn == 0 else "defender"
        n = len(resolved) + 1
        if pool[step.die] == 0:
            raise RuleViolation(f"fight step {n}: the {who} has no unresolved {step.die} success to {step.action} with", "Fight, pg 45")
        pool[step.die] -= 1
        if step.action == "strike":
            hurt(turn, _damage(weapon, step.die))
            if step.die == "critical" and profile.shock and not shocked[turn]:
                shocked[turn] = True
                lose = "normal" if opposing["normal"] else "critical"
                opposing[lose] = max(0, opposing[lose] - 1)
        else:
            _block(step, n, who, opposing, profiles[1 - turn])
        resolved.append(step)
        if any(pools[1 - turn].values()):
            turn = 1 - turn
    if recorded:
        raise RuleViolation(f"the fight ended after {len(resolved)} steps but {len(resolved) + len(recorded)} were entered", "Fight, pg 45")
    return FightResult(
        attacker=SideResult(len(a_roll.results), a_hits, dealt[0], a_roll.command_rerolls, a_roll.other_rerolls),
        defender=SideResult(len(d_roll.results), d_hits, dealt[1], d_roll.command_rerolls, d_roll.other_rerolls),
        steps=tuple(resolved),
    )


def _block(step: FightStep, n: int, who: str, opposing: dict[str, int], opposing_profile: WeaponProfile | None) -> None:
    if opposing_profile is not None and opposing_profile.brutal and step.die != "critical":
        raise RuleViolation(f"fight step {n}: against a Brutal weapon the {who} blocks only with criticals", "Brutal, pg 111")
    if step.blocks is None:
        return  # a block may be spent on nothing (pg 45)
    if step.die == "normal" and step.blocks == "critical":
        raise RuleViolation(f"fight step {n}: a normal success cannot block a critical success", "Fight, pg 45")
    if opposing[step.blocks] == 0:
        raise RuleViolation(f"fight step {n}: the opponent has no unresolved {step.blocks} success to block", "Fight, pg 45")
    opposing[step.blocks] -= 1


def _default_step(pool: dict[str, int], weapon: Weapon) -> FightStep:
    """Ruling 7: strike with the die that deals the most damage."""
    if pool["critical"] and (not pool["normal"] or weapon.crit_dmg >= weapon.normal_dmg):
        return FightStep(action="strike", die="critical")
    return FightStep(action="strike", die="normal")
