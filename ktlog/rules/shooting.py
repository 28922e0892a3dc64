"""The shooting sequence from dice (pg 42-43), as a pure function."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleViolation
from ..events import ShootingAttack, Weapon
from . import rulings
from .dice import Rolled, apply_rerolls, attack_successes, save_successes
from .weapons import WeaponProfile, weapon_profile

DEFENCE_DICE = 3
"""The defender collects three defence dice (pg 43)."""


@dataclass(frozen=True)
class ShootingResult:
    attack_dice: int
    normal_hits: int
    critical_hits: int
    defence_dice: int
    normal_saves: int
    critical_saves: int
    damage: int
    critical_retained: bool
    command_rerolls_attacker: int = 0
    command_rerolls_defender: int = 0
    other_rerolls: int = 0

    @property
    def stun(self) -> bool:
        return self.critical_retained


def defence_dice_collected(profile: WeaponProfile, critical_retained: bool) -> int:
    """Three dice, less Piercing x, less Piercing Crits x when a critical was retained (pg 111)."""
    piercing = max(profile.piercing, profile.piercing_crits if critical_retained else 0)
    return max(0, DEFENCE_DICE - piercing)


def expected_attack_dice(weapon: Weapon, accurate: int) -> int:
    return weapon.atk - accurate


def resolve_shooting(
    weapon: Weapon, attack: ShootingAttack, *, hit: int, save: int, profile: WeaponProfile | None = None
) -> ShootingResult:
    """Resolve one shooting sequence from the dice recorded in `attack`.

    `hit` is the weapon's Hit stat as modified (e.g. worsened when the shooter is injured) and
    `save` the target's Save stat. Rerolls are checked against the weapon's rules. A cover
    save is one normal save retained without rolling (not against Saturate). Saves are
    allocated to block the most damage (ruling 4). `profile` replaces the weapon's own rules
    when the killzone adds one.
    """
    profile = profile or weapon_profile(weapon.rules)
    if attack.accurate > profile.accurate:
        raise RuleViolation(
            f"{weapon.name}: {attack.accurate} dice retained by Accurate but the weapon has Accurate {profile.accurate}",
            "Accurate, pg 111",
        )
    assert attack.attack_dice is not None
    rolled = apply_rerolls(attack.attack_dice, f"{weapon.name} attack dice", profile)
    expected = expected_attack_dice(weapon, attack.accurate)
    if len(rolled.results) != expected:
        raise RuleViolation(
            f"{weapon.name} rolls {expected} attack dice (Atk {weapon.atk}"
            + (f", {attack.accurate} retained by Accurate" if attack.accurate else "")
            + f") but {len(rolled.results)} were entered",
            "Shoot, pg 42",
        )
    hits = attack_successes(
        rolled.results, hit, profile, accurate=attack.accurate, obscured=attack.obscured
    )

    collected = defence_dice_collected(profile, hits.critical_retained)
    cover_save = 1 if attack.cover and not profile.saturate and collected > 0 else 0
    to_roll = collected - cover_save
    defence = attack.defence_dice
    defence_rolled = (
        apply_rerolls(defence, f"defence dice against {weapon.name}", None) if defence else Rolled((), 0, 0)
    )
    if len(defence_rolled.results) != to_roll:
        why = [f"{DEFENCE_DICE} dice"]
        if collected < DEFENCE_DICE:
            why.append(f"less {DEFENCE_DICE - collected} for Piercing")
        if cover_save:
            why.append("less 1 retained as a cover save")
        raise RuleViolation(
            f"the defender rolls {to_roll} defence dice ({', '.join(why)}) but {len(defence_rolled.results)} were entered",
            "Shoot, pg 43",
        )
    normal_saves, critical_saves = save_successes(defence_rolled.results, save)
    normal_saves += cover_save

    unblocked_normal, unblocked_critical = rulings.allocate_saves(
        hits.normal, hits.critical, normal_saves, critical_saves, weapon.normal_dmg, weapon.crit_dmg
    )
    damage = (
        hits.critical * profile.devastating
        + unblocked_normal * weapon.normal_dmg
        + unblocked_critical * weapon.crit_dmg
    )
    return ShootingResult(
        attack_dice=len(rolled.results) + attack.accurate,
        normal_hits=hits.normal,
        critical_hits=hits.critical,
        defence_dice=collected,
        normal_saves=normal_saves,
        critical_saves=critical_saves,
        damage=damage,
        critical_retained=hits.critical_retained,
        command_rerolls_attacker=rolled.command_rerolls,
        command_rerolls_defender=defence_rolled.command_rerolls,
        other_rerolls=rolled.other_rerolls + defence_rolled.other_rerolls,
    )


def hot_damage(hot_roll: int, hit: int) -> int:
    """Hot (pg 111): a D6 after use; below the weapon's Hit stat inflicts twice the result."""
    return 2 * hot_roll if hot_roll < hit else 0
