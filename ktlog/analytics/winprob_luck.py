"""The luck of a shot with dice, counted by what it caused: the model's expected VP margin and
chance after the shot as it fell, less their average over every way its dice could fall.

Each way is played by the rules: the same shot in quick mode with that damage, applied to the
state before it, so an incapacitation and the VP the rules score for it (kill grade, elimination)
count as the roll's consequence. The chance of each damage is the rules' own
(`rules.shooting.damage_chances`, the distribution whose mean every attack records as its
expected damage); damage short of incapacitating is read between none and 1 damage (the model is
linear in wounds left), so a shot costs three trials.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from .. import events as ev
from ..errors import KtlogError
from ..reducer import apply_in_place
from ..rules.attacks import killzone_profile
from ..rules.shooting import damage_chances
from ..rules.team import weapons_of
from ..rulesets import RULESETS
from ..state import Checkpoint, GameState

LUCK_METHOD = (
    "each shot with dice at one target is credited with what its dice caused (its damage, an operative incapacitated and the VP"
    " the rules scored for it), read by the model as expected VP and chance, less their average over every way its dice could fall"
    " (the rules' chances; damage short of incapacitating read between none and 1); a player's luck is their shots' less the shots"
    " at them. Fights, several targets, re-rolls and quick-mode shots are not counted"
)

Read = Callable[[GameState], tuple[list[float], list[float]]]
"""A state's chances and expected VP margins, per player."""


class ShotLuck(msgspec.Struct, frozen=True):
    seq: int
    player: str
    target_player: str
    vp: float
    """The shooter's expected VP margin after the shot less its average over the dice."""
    chance: float
    """The same in the shooter's chance to win."""


def shot_luck(
    before: Checkpoint, shot: ev.Shot, after: GameState, read: Read, actual: tuple[list[float], list[float]], unharmed: tuple[list[float], list[float]]
) -> ShotLuck | None:
    """The luck of a shot with dice at one target (`after`: the state it left, read as `actual`;
    `unharmed`: the moment before it, which a shot doing no damage leaves as it was unless it
    is Hot); None for one it cannot be counted for (the rules' chances do not give its recorded
    expected damage)."""
    record = after.attacks[-1] if after.attacks else None
    attack = shot.attacks[0]
    if record is None or record.seq != after.seq or record.mode != "dice" or record.expected_damage is None or attack.invulnerable:
        return None
    start = before.restore(logs=False)
    op, target = start.operatives[shot.operative], start.operatives[record.target]
    found = next((w for w in weapons_of(start, op) if w.name.casefold() == shot.weapon.casefold()), None)
    if found is None:
        return None
    weapon = RULESETS[start.ruleset].weapon_as_played(found)
    chances = damage_chances(
        weapon, killzone_profile(start.killzone, weapon), record.hit, record.save, attack.accurate, attack.cover, attack.obscured, target.datacard.defence
    )
    if abs(sum(p * d for d, p in chances.items()) - record.expected_damage) > 1e-6:
        return None
    wounds = target.wounds
    trials = before.trials(start)
    try:
        outcomes = {
            d: unharmed if d == 0 and shot.hot_roll is None else _outcome(next(trials), shot, d, after.seq, read) for d in sorted({0, min(1, wounds), wounds})
        }
    except KtlogError:
        return None
    i = list(after.players).index(op.player)
    values = []
    for which in (0, 1):  # chances, then margins
        at = {d: outcomes[d][which][i] for d in outcomes}
        per_damage = at[min(1, wounds)] - at[0]
        average = sum(p * (at[wounds] if d >= wounds else at[0] + d * per_damage) for d, p in chances.items())
        values.append(actual[which][i] - average)
    return ShotLuck(after.seq, op.player, target.player, round(values[1], 4), round(values[0], 5))


def _outcome(state: GameState, shot: ev.Shot, damage: int, seq: int, read: Read) -> tuple[list[float], list[float]]:
    """The chances and margins had the shot done `damage` (`state`: the state before it, a
    trial's, changed here): the shot in quick mode, by the rules."""
    quick = msgspec.structs.replace(shot.attacks[0], attack_dice=None, defence_dice=None, damage=damage)
    apply_in_place(state, msgspec.structs.replace(shot, attacks=(quick,)), seq)
    return read(state)
