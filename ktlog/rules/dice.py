"""Dice (pg 50): checking rolls, applying re-rolls, and sorting results into successes."""

from __future__ import annotations

import msgspec

from ..errors import InvalidEvent, RuleViolation
from ..events import Dice
from .weapons import WeaponProfile


def check_die(value: int, what: str) -> None:
    if not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidEvent(f"{what}: {value!r} is not a D6 result; enter digits 1 to 6", "dice, pg 50")


class Rolled(msgspec.Struct, frozen=True):
    """Dice after re-rolls, and how many Command Re-rolls (1CP each) were used."""

    results: tuple[int, ...]
    command_rerolls: int
    other_rerolls: int


def apply_rerolls(dice: Dice, what: str, profile: WeaponProfile | None) -> Rolled:
    """Apply re-rolls in order, checking each against the rule that allows it.

    Attack dice may be re-rolled by the weapon's Balanced, Ceaseless or Relentless and by
    Command Re-roll; defence dice (`profile` None) only by Command Re-roll. A die is never
    re-rolled twice (pg 50). A source called "other" is a rule outside the core book.
    """
    for value in dice.rolls:
        check_die(value, what)
    results = list(dice.rolls)
    seen: set[int] = set()
    balanced = command = other = 0
    ceaseless_value: int | None = None
    for reroll in dice.rerolls:
        check_die(reroll.result, f"{what} re-roll")
        if not 1 <= reroll.die <= len(results):
            raise InvalidEvent(f"{what}: re-roll of die {reroll.die} but {len(results)} dice were rolled", "dice, pg 50")
        index = reroll.die - 1
        if index in seen:
            raise RuleViolation(f"{what}: die {reroll.die} is re-rolled twice; a die is re-rolled once at most", "pg 50")
        seen.add(index)
        original = dice.rolls[index]
        source = reroll.source
        if source == "command":
            command += 1
        elif source == "other":
            other += 1
        elif profile is None:
            raise RuleViolation(f"{what}: defence dice can only be re-rolled with Command Re-roll", "pg 54")
        elif source == "balanced":
            balanced += 1
            _allow(profile.balanced, what, "Balanced")
            if balanced > 1:
                raise RuleViolation(f"{what}: Balanced re-rolls one attack die only", "Balanced, pg 111")
        elif source == "ceaseless":
            _allow(profile.ceaseless, what, "Ceaseless")
            if ceaseless_value is not None and original != ceaseless_value:
                raise RuleViolation(
                    f"{what}: Ceaseless re-rolls dice of one result only ({ceaseless_value}s, not a {original})",
                    "Ceaseless, pg 111",
                )
            ceaseless_value = original
        elif source == "relentless":
            _allow(profile.relentless, what, "Relentless")
        results[index] = reroll.result
    return Rolled(tuple(results), command, other)


def _allow(has_rule: bool, what: str, rule: str) -> None:
    if not has_rule:
        raise RuleViolation(f"{what}: a {rule} re-roll needs a weapon with {rule}", f"{rule}, pg 111")


class Successes(msgspec.Struct, frozen=True):
    """Retained attack dice (pg 42 step 3, pg 44 step 3) after weapon rules and obscuring,
    with what the dice themselves showed (`rolled_*`, before weapon rules)."""

    normal: int
    critical: int
    fails: int
    rolled_successes: int = 0
    rolled_criticals: int = 0

    @property
    def critical_retained(self) -> bool:
        return self.critical > 0


def die_outcome(r: int, hit: int, lethal: int | None) -> str:
    """'critical', 'normal' or 'fail' for one attack die: a 6 always critical, a 1 always
    fails, Lethal x+ makes successes of x or more critical (pg 42, pg 111)."""
    if r == 6:
        return "critical"
    if r == 1 or r < hit:
        return "fail"
    return "critical" if lethal is not None and r >= lethal else "normal"


def retain(fails: int, normal: int, critical: int, profile: WeaponProfile, *, accurate: int = 0, obscured: bool = False) -> Successes:
    """Apply Accurate, then obscuring or Severe, Rending and Punishing (pg 42, pg 111) to sorted dice.

    Obscured: one success is discarded and every critical is retained as normal. Otherwise
    Severe, Rending and Punishing apply in that order.
    """
    rolled = (normal + critical, critical)
    normal += accurate
    if obscured:
        return Successes(max(0, normal + critical - 1), 0, fails, *rolled)
    if profile.severe and critical == 0 and normal > 0:
        normal, critical = normal - 1, critical + 1
    if profile.rending and critical and normal:
        normal, critical = normal - 1, critical + 1
    if profile.punishing and critical and fails:
        normal, fails = normal + 1, fails - 1
    return Successes(normal, critical, fails, *rolled)


def attack_successes(results: tuple[int, ...], hit: int, profile: WeaponProfile, *, accurate: int = 0, obscured: bool = False) -> Successes:
    """Sort attack dice results, then retain them (see `retain`)."""
    counts = {"fail": 0, "normal": 0, "critical": 0}
    for r in results:
        counts[die_outcome(r, hit, profile.lethal)] += 1
    return retain(counts["fail"], counts["normal"], counts["critical"], profile, accurate=accurate, obscured=obscured)


def save_successes(results: tuple[int, ...], save: int) -> tuple[int, int]:
    """Defence dice (pg 43): (normal, critical). A 6 is critical, a 1 fails."""
    normal = critical = 0
    for r in results:
        if r == 6:
            critical += 1
        elif r != 1 and r >= save:
            normal += 1
    return normal, critical
