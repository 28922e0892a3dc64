"""The shooting sequence from dice (pg 42-43), as a pure function."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from math import comb

import msgspec

from ..errors import RuleViolation
from ..events import ShootingAttack, Weapon
from . import rulings
from .dice import Rolled, Successes, apply_rerolls, attack_successes, die_outcome, retain, save_successes
from .weapons import WeaponProfile, weapon_profile

DEFENCE_DICE = 3
"""The defender collects three defence dice (pg 43); a KT21 datacard says how many (DF, 001)."""


class ShootingResult(msgspec.Struct, frozen=True):
    attack_rolled: int
    """Attack dice rolled (not those retained by Accurate)."""
    accurate: int
    hits: Successes
    defence_rolled: tuple[int, ...]
    """The defence dice rolled (after re-rolls), not counting a cover save."""
    defence_dice: int
    """Defence dice collected (Piercing taken off), the cover save included."""
    normal_saves: int
    critical_saves: int
    damage: int
    expected_damage: float
    """What these dice would inflict on average, for the luck index (re-rolls not modelled)."""
    command_rerolls_attacker: int = 0
    command_rerolls_defender: int = 0
    other_rerolls: int = 0

    @property
    def critical_retained(self) -> bool:
        return self.hits.critical_retained

    @property
    def normal_hits(self) -> int:
        return self.hits.normal

    @property
    def critical_hits(self) -> int:
        return self.hits.critical

    @property
    def attack_dice(self) -> int:
        """The weapon's attack dice: those rolled and those retained by Accurate."""
        return self.attack_rolled + self.accurate


def defence_dice_collected(profile: WeaponProfile, critical_retained: bool, defence: int = DEFENCE_DICE) -> int:
    """Three dice (KT21: the DF stat), less Piercing x, less Piercing Crits x when a critical was
    retained (pg 111)."""
    piercing = max(profile.piercing, profile.piercing_crits if critical_retained else 0)
    return max(0, defence - piercing)


def expected_attack_dice(weapon: Weapon, accurate: int) -> int:
    return weapon.atk - accurate


def resolve_shooting(
    weapon: Weapon,
    attack: ShootingAttack,
    *,
    hit: int,
    save: int,
    profile: WeaponProfile | None = None,
    defence: int = DEFENCE_DICE,
) -> ShootingResult:
    """Resolve one shooting sequence from the dice recorded in `attack`.

    `hit` is the weapon's Hit stat as modified (e.g. worsened when the shooter is injured),
    `save` the target's Save stat and `defence` its defence dice (KT21 DF). Rerolls are checked
    against the weapon's rules. A cover save is one normal save retained without rolling (not
    against Saturate). Saves are allocated to block the most damage (ruling 4). `profile`
    replaces the weapon's own rules when the killzone adds one.
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
    hits = attack_successes(rolled.results, hit, profile, accurate=attack.accurate, obscured=attack.obscured)

    collected = defence_dice_collected(profile, hits.critical_retained, defence)
    cover_save = 1 if attack.cover and not profile.saturate and collected > 0 else 0
    to_roll = collected - cover_save
    saves_rolled = attack.defence_dice
    defence_rolled = apply_rerolls(saves_rolled, f"defence dice against {weapon.name}", None) if saves_rolled else Rolled((), 0, 0)
    if len(defence_rolled.results) != to_roll:
        why = [f"{defence} dice"]
        if collected < defence:
            why.append(f"less {defence - collected} for Piercing")
        if cover_save:
            why.append("less 1 retained as a cover save")
        raise RuleViolation(
            f"the defender rolls {to_roll} defence dice ({', '.join(why)}) but {len(defence_rolled.results)} were entered",
            "Shoot, pg 43",
        )
    normal_saves, critical_saves = save_successes(defence_rolled.results, save)
    return ShootingResult(
        attack_rolled=len(rolled.results),
        accurate=attack.accurate,
        hits=hits,
        defence_rolled=defence_rolled.results,
        defence_dice=collected,
        normal_saves=normal_saves + cover_save,
        critical_saves=critical_saves,
        damage=_damage(weapon, profile, hits.normal, hits.critical, normal_saves + cover_save, critical_saves),
        expected_damage=expected_damage(weapon, profile, hit, save, attack.accurate, attack.cover, attack.obscured, defence),
        command_rerolls_attacker=rolled.command_rerolls,
        command_rerolls_defender=defence_rolled.command_rerolls,
        other_rerolls=rolled.other_rerolls + defence_rolled.other_rerolls,
    )


def splash_damage(profile: WeaponProfile, attack: ShootingAttack) -> int | None:
    """What x" Devastating inflicts on each operative in `attack.splashed` (pg 111): x for each
    retained critical, from the dice as recorded, unchecked (the words of any event, even a
    refused one). None when the dice cannot say without the Hit stat as modified (Severe and
    Rending turn a normal success into a critical) or there are none (quick mode)."""
    if attack.attack_dice is None or profile.severe or profile.rending:
        return None
    results = list(attack.attack_dice.rolls)
    for reroll in attack.attack_dice.rerolls:
        if 1 <= reroll.die <= len(results):
            results[reroll.die - 1] = reroll.result
    hits = attack_successes(tuple(results), 2, profile, accurate=attack.accurate, obscured=attack.obscured)  # criticals whatever the Hit
    return hits.critical * profile.devastating


def _damage(weapon: Weapon, profile: WeaponProfile, normal: int, critical: int, normal_saves: int, critical_saves: int) -> int:
    """Devastating on each retained critical, then the hits the saves do not block (ruling 4)."""
    return _hits_damage(normal, critical, normal_saves, critical_saves, weapon.normal_dmg, weapon.crit_dmg, profile.devastating)


def _hits_damage(normal: int, critical: int, normal_saves: int, critical_saves: int, normal_dmg: int, crit_dmg: int, devastating: int) -> int:
    unblocked_normal, unblocked_critical = rulings.allocate_saves(normal, critical, normal_saves, critical_saves, normal_dmg, crit_dmg)
    return critical * devastating + unblocked_normal * normal_dmg + unblocked_critical * crit_dmg


def _outcomes(n: int, p: dict[str, float]) -> list[tuple[float, int, int, int]]:
    """Every (probability, fails, normals, criticals) of n dice with these chances per die."""
    out = []
    for crit in range(n + 1):
        for normal in range(n - crit + 1):
            fail = n - crit - normal
            ways = comb(n, crit) * comb(n - crit, normal)
            out.append((ways * p["critical"] ** crit * p["normal"] ** normal * p["fail"] ** fail, fail, normal, crit))
    return out


def _chances(outcome_of: Callable[[int], str]) -> dict[str, float]:
    chances = {"fail": 0.0, "normal": 0.0, "critical": 0.0}
    for r in range(1, 7):
        chances[outcome_of(r)] += 1 / 6
    return chances


@lru_cache(maxsize=8192)
def expected_damage(
    weapon: Weapon, profile: WeaponProfile, hit: int, save: int, accurate: int, cover: bool, obscured: bool, defence: int = DEFENCE_DICE
) -> float:
    """The average damage of one shooting sequence (the same rules as `resolve_shooting`,
    over every way the dice can fall; re-rolls are not modelled)."""
    return expected_damages(weapon, profile, hit, (save,), accurate, cover, obscured, defence)[0]


def expected_damages(
    weapon: Weapon, profile: WeaponProfile, hit: int, saves: Sequence[int], accurate: int, cover: bool, obscured: bool, defence: int = DEFENCE_DICE
) -> tuple[float, ...]:
    """`expected_damage` against each of `saves`, the ways the attack dice fall worked out once."""
    terms: list[list[float]] = [[] for _ in saves]
    for p_attack, defended in _attacks(weapon, profile, hit, accurate, cover, obscured, defence):
        for mine, save in zip(terms, saves):
            mine += [p_attack * p_defence * damage for p_defence, damage in defended(save)]
    return tuple(map(sum, terms))


@lru_cache(maxsize=8192)
def damage_chances(
    weapon: Weapon, profile: WeaponProfile, hit: int, save: int, accurate: int, cover: bool, obscured: bool, defence: int = DEFENCE_DICE
) -> dict[int, float]:
    """The chance of each damage one shooting sequence can inflict (as `expected_damage`)."""
    chances: dict[int, float] = {}
    for p_attack, defended in _attacks(weapon, profile, hit, accurate, cover, obscured, defence):
        for p_defence, damage in defended(save):
            chances[damage] = chances.get(damage, 0.0) + p_attack * p_defence
    return chances


def _attacks(
    weapon: Weapon, profile: WeaponProfile, hit: int, accurate: int, cover: bool, obscured: bool, defence: int
) -> Iterator[tuple[float, Callable[[int], tuple[tuple[float, int], ...]]]]:
    """(chance, defended) of each way the attack dice can fall: `defended(save)` gives the
    (chance, damage) of each way the defence dice then fall against that save."""
    for p_attack, fails, normal, critical in _attack_outcomes(weapon.atk - accurate, hit, profile.lethal):
        hits = retain(fails, normal, critical, profile, accurate=accurate, obscured=obscured)
        collected = defence_dice_collected(profile, hits.critical_retained, defence)
        cover_save = 1 if cover and not profile.saturate and collected > 0 else 0
        yield (
            p_attack,
            partial(_defended, hits.normal, hits.critical, collected - cover_save, cover_save, weapon.normal_dmg, weapon.crit_dmg, profile.devastating),
        )


@lru_cache(maxsize=8192)
def _defended(
    normal: int, critical: int, rolled: int, cover_save: int, normal_dmg: int, crit_dmg: int, devastating: int, save: int
) -> tuple[tuple[float, int], ...]:
    """(chance, damage) of each way `rolled` defence dice can fall against these retained hits
    (`_damage`, with a cover save retained besides): the same for every weapon with these
    figures, so an import works each out once rather than once a weapon and target."""
    return tuple(
        (p, _hits_damage(normal, critical, saves + cover_save, critical_saves, normal_dmg, crit_dmg, devastating))
        for p, _, saves, critical_saves in _defence_outcomes(rolled, save)
    )


@lru_cache(maxsize=1024)
def _attack_outcomes(dice: int, hit: int, lethal: int) -> tuple[tuple[float, int, int, int], ...]:
    """Every (probability, fails, normals, criticals) of `dice` attack dice hitting on `hit`, critical on `lethal`."""
    return tuple(_outcomes(dice, _chances(lambda r: die_outcome(r, hit, lethal))))


@lru_cache(maxsize=1024)
def _defence_outcomes(dice: int, save: int) -> tuple[tuple[float, int, int, int], ...]:
    """Every (probability, fails, normal saves, critical saves) of `dice` defence dice saving on `save`."""
    return tuple(_outcomes(dice, _chances(lambda r: "critical" if r == 6 else ("normal" if r != 1 and r >= save else "fail"))))


def hot_damage(hot_roll: int, hit: int) -> int:
    """Hot (pg 111): a D6 after use; below the weapon's Hit stat inflicts twice the result."""
    return 2 * hot_roll if hot_roll < hit else 0
