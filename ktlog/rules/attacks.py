"""The Shoot and Fight actions (pg 42-45): checks, resolution from dice or quick mode, effects."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from ..events import Fought, ShootingAttack, Shot, Weapon
from ..state import AplChange, AttackKind, AttackMode, AttackRecord, GameState, OperativeState
from . import positions
from .actions import KILLZONE_OF_ACTION, begin_action, finish_action, in_killzone, not_engaged
from .context import Ctx, handles
from .damage import inflict
from .dice import Successes, check_die, save_successes
from .fighting import Fighter, resolve_fight
from .guard import GUARD, POINT_BLANK_HIT_PENALTY, guarding, point_blank
from .shooting import hot_damage, resolve_shooting, splash_damage
from .team import equipment_weapon, limited_uses, weapons_of
from .weapons import WeaponProfile, weapon_profile

INJURED_HIT_PENALTY = 1
"""An injured operative's weapons have their Hit stat worsened by 1 (pg 47)."""


def find_weapon(ctx: Ctx, op: OperativeState, name: str, kind: str) -> Weapon:
    """A weapon of the operative's datacard by name, or of its player's equipment (pg 50)."""
    w = next((w for w in op.datacard.weapons if w.name.casefold() == name.casefold()), None) or equipment_weapon(ctx, op, name)
    if w is not None:
        if w.kind != kind:
            ctx.invalid(f"{op.id!r}'s {w.name} is a {w.kind} weapon, not a {kind} one", "datacards, pg 48")
        return ctx.ruleset.weapon_as_played(w)
    names = [w.name for w in weapons_of(ctx.state, op) if w.kind == kind]
    ctx.invalid(f"{op.id!r} has no {kind} weapon {name!r} (its {kind} weapons: {', '.join(names) or 'none'})", "datacards, pg 48")


def hit_stat(op: OperativeState, weapon: Weapon, improve: int = 0) -> int:
    """The weapon's Hit as modified: worse when injured (pg 47), better for each assist (pg 44)."""
    return weapon.hit + (INJURED_HIT_PENALTY if op.injured else 0) - improve


@lru_cache(maxsize=4096)
def killzone_profile(killzone: str, weapon: Weapon) -> WeaponProfile:
    """Gallowdark close quarters (pg 70): Blast, Torrent and x" Devastating weapons gain Lethal 5+."""
    profile = weapon_profile(weapon.rules)
    if "gallowdark" in killzone.casefold() and (profile.blast or profile.torrent or profile.devastating_splash):
        return msgspec.structs.replace(profile, lethal=min(profile.lethal or 5, 5))
    return profile


def _pay_rerolls(ctx: Ctx, player: str, command: int, other: int) -> None:
    """Command Re-roll costs 1CP a die (pg 54); a re-roll from another rule needs an override."""
    if command:
        ctx.change_cp(player, -command, "reroll", "Command Re-roll")
    if other:
        ctx.broke("a re-roll from a rule outside the core book", "pg 50")


def _dice_figures(rolled: int, hit: int, profile: WeaponProfile, hits: Successes) -> dict[str, Any]:
    """The attack dice columns of an AttackRecord."""
    return {
        "attack_dice": rolled,
        "hit": hit,
        "crit_on": min(profile.lethal or 6, 6),
        "rolled_successes": hits.rolled_successes,
        "rolled_criticals": hits.rolled_criticals,
        "normal_hits": hits.normal,
        "critical_hits": hits.critical,
    }


def _stun(target: OperativeState) -> None:
    """Stun (pg 111): APL -1 until the end of the target's next activation."""
    target.apl_changes.append(AplChange(delta=-1, reason="Stun"))


def _record(
    ctx: Ctx, kind: AttackKind, retaliation: bool, mode: AttackMode, op: OperativeState, weapon: Weapon, target: OperativeState, **figures: Any
) -> None:
    ctx.state.attacks.append(
        AttackRecord(
            seq=ctx.seq,
            turning_point=ctx.state.turning_point,
            kind=kind,
            retaliation=retaliation,
            mode=mode,
            player=op.player,
            operative=op.id,
            weapon=weapon.name,
            target_player=target.player,
            target=target.id,
            incapacitated=target.incapacitated,
            **figures,
        )
    )


@handles(Shot)
def shot(ctx: Ctx, e: Shot) -> None:
    op = begin_action(ctx, e)
    shooting_attacks(ctx, e, op)
    finish_action(ctx, e, op)


def shooting_attacks(ctx: Ctx, e: Shot, op: OperativeState, worsen: int = 0) -> None:
    """The Shoot action's checks and shooting sequences, Hot and Limited. `worsen`: the Hit stat
    worsened further (KT21 Overwatch, 001)."""
    s = ctx.state
    weapon = find_weapon(ctx, op, e.weapon, "ranged")
    profile = killzone_profile(s.killzone, weapon)
    close = point_blank(e, op)
    _check_shooter(ctx, e, op, weapon, profile, close)
    hit = hit_stat(op, weapon) + worsen + (POINT_BLANK_HIT_PENALTY if close else 0)
    positions.secondary_targets(ctx, op, e, profile)
    for i, attack in enumerate(e.attacks):
        target = ctx.living(attack.target, "target")
        if not target.set_up:
            ctx.invalid(f"{target.id!r} is not in the killzone", "pg 42")
        _check_target(ctx, e, i, op, target, profile, close)
        positions.shooting_attack(ctx, op, target, attack, profile, primary=(i == 0 and not close) or (i > 0 and bool(profile.torrent)))
        _shooting_sequence(ctx, attack, op, weapon, target, profile, hit)
    _hot(ctx, e, op, weapon, profile, hit)
    if profile.limited:
        op.weapon_uses[weapon.name] = op.weapon_uses.get(weapon.name, 0) + 1
    if close and s.activation is not None:
        s.activation.cannot_retaliate.append(op.id)  # until the end of the interrupted activation (pg 70)


def _check_shooter(ctx: Ctx, e: Shot, op: OperativeState, weapon: Weapon, profile: WeaponProfile, close: bool) -> None:
    """Who may shoot with this weapon now, and at how many targets (pg 42, pg 111)."""
    s = ctx.state
    if op.order != "engage" and not profile.silent:
        ctx.broke(f"operative {op.id!r} has a Conceal order and can only Shoot with a Silent weapon", "pg 42")
    if not close:
        not_engaged(ctx, op, "Shoot", "pg 42")
    if profile.limited and limited_uses(s, op, weapon) >= profile.limited:
        ctx.broke(f"{op.id!r} has used its {weapon.name} {profile.limited} time(s): Limited {profile.limited}", "Limited, pg 111")
    if profile.heavy and not guarding(e):  # from guard, the activation under way is the enemy's
        moves = [a for a in (s.activation.actions if s.activation else []) if a in ("Reposition", "Dash", "Fall Back", "Charge")]
        allowed = {profile.heavy_only} if profile.heavy_only else set()
        if any(m not in allowed for m in moves):
            ctx.broke(f"{weapon.name} is Heavy and {op.id!r} moved this activation", "Heavy, pg 111")
        if s.activation:
            s.activation.used_heavy, s.activation.heavy_only = True, profile.heavy_only
    if not e.attacks:
        ctx.invalid("a Shoot action has at least one target", "pg 42")
    if len(e.attacks) != 1 and not (profile.blast or profile.torrent):
        ctx.broke(f"{weapon.name} has neither Blast nor Torrent and shoots one target", "pg 111")
    targets = [a.target for a in e.attacks]
    if len(set(targets)) != len(targets):
        ctx.invalid("each target is shot once per action", "pg 111")


def _check_target(ctx: Ctx, e: Shot, i: int, op: OperativeState, target: OperativeState, profile: WeaponProfile, close: bool) -> None:
    """Whether the `i`th target is a valid one (pg 42): a point-blank shot's, the first or a
    Torrent one, or a Blast weapon's secondary target (the ruleset's rule)."""
    attack = e.attacks[i]
    if i == 0 and close:  # a valid target even if it would not normally be (pg 70)
        if target.id not in op.engaged_with:
            ctx.broke(f"a point-blank shot targets an enemy operative within {op.id!r}'s control range ({', '.join(op.engaged_with)})", GUARD)
    elif i == 0 or profile.torrent:
        if target.player == op.player:
            ctx.broke(f"{target.id!r} is a friendly operative; select an enemy operative", "pg 42")
        friends = [x for x in target.engaged_with if ctx.state.operatives[x].player == op.player]
        if friends:
            ctx.broke(f"{target.id!r} has friendly operatives within its control range ({', '.join(friends)}) and is not a valid target", "pg 42")
        if target.order == "conceal" and attack.cover and not (profile.seek or profile.seek_light) and not positions.judged(ctx.state, op, target):
            ctx.broke(f"{target.id!r} has a Conceal order and is in cover, so it is not a valid target", "pg 42")
    elif profile.blast:
        ctx.ruleset.blast_secondary(ctx, e.attacks[0], attack)


def _shooting_sequence(ctx: Ctx, attack: ShootingAttack, op: OperativeState, weapon: Weapon, target: OperativeState, profile: WeaponProfile, hit: int) -> None:
    """One target's shooting sequence: its dice resolved (pg 42-43), or its damage in quick mode."""
    dice_mode = attack.attack_dice is not None
    if dice_mode == (attack.damage is not None):
        ctx.invalid(f"attack on {target.id!r}: give the dice, or in quick mode the damage only", "Shoot, pg 42")
    save, against = target.datacard.save, profile
    if attack.invulnerable:
        if target.datacard.invulnerable_save is None:
            ctx.broke(f"{target.id!r} has no invulnerable save on its datacard; record the attack against its Save", "Invulnerable Save, 004")
        else:  # used like Save, but never modified and not affected by APx (004)
            save, against = target.datacard.invulnerable_save, msgspec.structs.replace(profile, piercing=0, piercing_crits=0)
    if (accurate := positions.vantage_accurate(ctx.state, op, target)) > against.accurate:  # from Vantage terrain (pg 60)
        against = msgspec.structs.replace(against, accurate=accurate)
    _check_splashed(ctx, attack, weapon, target, profile, dice_mode)
    if not dice_mode:
        if attack.damage is None or attack.damage < 0:  # None: refused above (quick mode gives the damage)
            ctx.invalid("damage cannot be negative", "damage")
        inflict(ctx, target, attack.damage, op, "shoot")
        _record(ctx, "shoot", False, "quick", op, weapon, target, damage=attack.damage, hit=hit, save=save)
        return
    result = resolve_shooting(weapon, attack, hit=hit, save=save, profile=against, defence=target.datacard.defence)
    _pay_rerolls(ctx, op.player, result.command_rerolls_attacker, result.other_rerolls)
    _pay_rerolls(ctx, target.player, result.command_rerolls_defender, 0)
    inflict(ctx, target, result.damage, op, "shoot")
    _splash(ctx, attack, op, target, profile, result.hits.critical)
    if result.critical_retained and profile.stun and not target.incapacitated:
        _stun(target)
    saves, critical_saves = save_successes(result.defence_rolled, save)
    _record(
        ctx,
        "shoot",
        False,
        "dice",
        op,
        weapon,
        target,
        **_dice_figures(result.attack_rolled, hit, profile, result.hits),
        defence_dice=len(result.defence_rolled),
        save=save,
        rolled_saves=saves,
        rolled_critical_saves=critical_saves,
        normal_saves=result.normal_saves,
        critical_saves=result.critical_saves,
        damage=result.damage,
        expected_damage=result.expected_damage,
    )


def _check_splashed(ctx: Ctx, attack: ShootingAttack, weapon: Weapon, target: OperativeState, profile: WeaponProfile, dice_mode: bool) -> None:
    """The operatives named in `splashed` (x" Devastating, pg 111): a weapon with the rule, other
    operatives than the target, each once, in the killzone and not incapacitated; and the dice,
    as only they say how many criticals were retained."""
    if not attack.splashed:
        return
    if not profile.devastating_splash:
        ctx.broke(f'{weapon.name} has no x" Devastating rule, so no other operative takes its damage: leave splashed out', "Devastating, pg 111")
    if target.id in attack.splashed:
        ctx.invalid(f"{target.id!r} is the target and takes Devastating once: name only the other operatives in splashed", "Devastating, pg 111")
    if len(set(attack.splashed)) != len(attack.splashed):
        ctx.invalid("each operative is named once in splashed", "Devastating, pg 111")
    for op_id in attack.splashed:
        if not ctx.living(op_id, "splashed operative").in_killzone:
            ctx.invalid(f"splashed operative {op_id!r} is not in the killzone", "Devastating, pg 111")
    if not dice_mode:
        ctx.invalid(
            "quick mode gives the target's damage only: give the dice, or record each splashed operative's damage as DamageInflicted source=devastating",
            "Devastating, pg 111",
        )


def _splash(ctx: Ctx, attack: ShootingAttack, op: OperativeState, target: OperativeState, profile: WeaponProfile, critical: int) -> None:
    """x" Devastating y (pg 111): each retained critical inflicts y on every other operative
    visible to and within x of the target, friend or foe, as it does on the target. With no
    critical retained the operatives named take nothing and the names are accepted: a player
    names those within x before the dice are sorted, and nothing is inflicted that could be
    wrong. With positions the board says who is reached (`positions.devastating_reach`)."""
    if not profile.devastating_splash or not critical:
        return
    positions.devastating_reach(ctx, target, attack, profile)
    for op_id in attack.splashed:
        inflict(ctx, ctx.state.operatives[op_id], critical * profile.devastating, op, "devastating")


def unrecorded_splash(state: GameState, event: object) -> str | None:
    """A warning for a shot whose x" Devastating retained a critical and names no other operative
    (pg 111), in a game that cannot say who is within x (no positions): said when it is
    recorded, as an unlisted ploy is (`team.unlisted`), and not kept in the state, so the games
    recorded before `splashed` fold as they did."""
    if not isinstance(event, Shot) or (op := state.operatives.get(event.operative)) is None:
        return None
    weapon = next((w for w in weapons_of(state, op) if w.name.casefold() == event.weapon.casefold()), None)
    if weapon is None:
        return None
    profile = killzone_profile(state.killzone, weapon)
    for attack in event.attacks:
        target = state.operatives.get(attack.target)
        if not profile.devastating_splash or attack.splashed or target is None or (state.layout is not None and target.x is not None):
            continue
        damage = splash_damage(profile, attack)
        if damage != 0:
            inches, each = profile.devastating_splash, f"{damage} damage" if damage else "its Devastating damage"
            return (
                f'{weapon.name} is {inches}" Devastating: each other operative visible to and within {inches}" of {target.id} takes {each} '
                f"(pg 111); name them with splashed=ID,ID (ktlog correct GAME SEQ ... splashed=ID,ID)"
            )
    return None


def _hot(ctx: Ctx, e: Shot, op: OperativeState, weapon: Weapon, profile: WeaponProfile, hit: int) -> None:
    """A Hot weapon's D6 after shooting (Hot, pg 111): damage to the shooter on a roll under its Hit."""
    if e.hot_roll is not None:
        if not profile.hot:
            ctx.invalid(f"{weapon.name} is not Hot; leave hot_roll out", "Hot, pg 111")
        check_die(e.hot_roll, "Hot roll")
        inflict(ctx, op, hot_damage(e.hot_roll, hit), None, "hot")
    elif profile.hot and e.attacks[0].attack_dice is not None:
        ctx.broke(f"{weapon.name} is Hot: record the D6 rolled after shooting (hot_roll)", "Hot, pg 111")


def assistants(s: GameState, fighter: OperativeState, enemy: OperativeState) -> list[str]:
    """The friendly operatives that can assist `fighter` against `enemy` (Fight, 000 pg 45): within
    the enemy's control range and not within control range of another enemy operative, as
    Charge and Fall Back left the control ranges."""
    return [
        f.id
        for f in s.scan()
        if f.player == fighter.player and f.id != fighter.id and f.in_killzone and enemy.id in f.engaged_with and set(f.engaged_with) == {enemy.id}
    ]


def _check_assists(ctx: Ctx, fighter: OperativeState, enemy: OperativeState, assists: int, field: str) -> None:
    """No more assists than friendly operatives that can assist (Fight, pg 45)."""
    if assists:
        can = assistants(ctx.state, fighter, enemy)
        if assists > len(can):
            ctx.broke(
                f"{field}={assists}, but {len(can)} friendly operative(s) of {fighter.id!r} can assist against {enemy.id!r} "
                f"({', '.join(can) or 'none'}): an assist is within {enemy.id!r}'s control range and not within another enemy's",
                "Fight assists, pg 45",
            )


@handles(Fought)
def fought(ctx: Ctx, e: Fought) -> None:
    op = begin_action(ctx, e)
    target = ctx.living(e.target, "target")
    weapon, target_weapon = _check_fight(ctx, e, op, target)
    dice_mode = e.attack_dice is not None or e.target_dice is not None
    quick = e.damage is not None or e.damage_taken is not None
    if dice_mode == quick:
        ctx.invalid("give both sides' dice, or in quick mode the damage dealt and taken", "Fight, pg 44")
    hit = hit_stat(op, weapon, e.assists)
    target_hit = hit_stat(target, target_weapon, e.target_assists) if target_weapon else 0
    if quick:
        _quick_fight(ctx, e, op, weapon, hit, target, target_weapon, target_hit)
    else:
        _fight_dice(ctx, e, op, weapon, hit, target, target_weapon, target_hit)
    finish_action(ctx, e, op)


def _check_fight(ctx: Ctx, e: Fought, op: OperativeState, target: OperativeState) -> tuple[Weapon, Weapon | None]:
    """Whom the operative may fight, and with which weapons (pg 44-45; Door and Hatchway Fight,
    pg 64, pg 70): its weapon and the target's, if it retaliates."""
    if target.player == op.player:
        ctx.invalid(f"{target.id!r} is a friendly operative; fight an enemy operative", "pg 44")
    if e.action == "Fight":
        if e.target not in op.engaged_with:
            ctx.broke(f"{target.id!r} is not within {op.id!r}'s control range; Charge it first", "pg 44")
    else:
        if e.action not in KILLZONE_OF_ACTION:
            ctx.broke(f"unknown fight action {e.action!r}", "pg 44")
        in_killzone(ctx, e.action)
        not_engaged(ctx, op, e.action, "pg 64, pg 70")
    weapon = find_weapon(ctx, op, e.weapon, "melee")
    target_weapon = find_weapon(ctx, target, e.target_weapon, "melee") if e.target_weapon else None
    act = ctx.state.activation
    held = act is not None and act.operative == op.id and target.id in act.cannot_retaliate
    if held and target_weapon is not None:
        ctx.broke(f"{target.id!r} made a point-blank shot during {op.id!r}'s activation and cannot retaliate until it ends: leave target_weapon out", GUARD)
    has_melee = any(w.kind == "melee" for w in weapons_of(ctx.state, target))
    if target_weapon is None and has_melee and not held:
        ctx.broke(f"{target.id!r} retaliates: select its melee weapon (target_weapon)", "pg 44")
    if e.assists < 0 or e.target_assists < 0:
        ctx.invalid("assists cannot be negative", "pg 44")
    _check_assists(ctx, op, target, e.assists, "assists")
    _check_assists(ctx, target, op, e.target_assists, "target_assists")
    return weapon, target_weapon


def _quick_fight(
    ctx: Ctx, e: Fought, op: OperativeState, weapon: Weapon, hit: int, target: OperativeState, target_weapon: Weapon | None, target_hit: int
) -> None:
    """A fight in quick mode: the damage dealt and taken."""
    dealt, taken = e.damage or 0, e.damage_taken or 0
    if dealt < 0 or taken < 0:
        ctx.invalid("damage cannot be negative", "damage")
    inflict(ctx, target, dealt, op, "fight")
    inflict(ctx, op, taken, target, "fight")
    _record(ctx, "fight", False, "quick", op, weapon, target, damage=dealt, hit=hit)
    if target_weapon:
        _record(ctx, "fight", True, "quick", target, target_weapon, op, damage=taken, hit=target_hit)


def _fight_dice(
    ctx: Ctx, e: Fought, op: OperativeState, weapon: Weapon, hit: int, target: OperativeState, target_weapon: Weapon | None, target_hit: int
) -> None:
    """A fight with both sides' dice, resolved strike by strike (pg 45)."""
    result = resolve_fight(
        Fighter(weapon, hit, e.attack_dice, op.wounds),
        Fighter(target_weapon, target_hit, e.target_dice, target.wounds),
        e.steps,
    )
    _pay_rerolls(ctx, op.player, result.attacker.command_rerolls, result.attacker.other_rerolls)
    _pay_rerolls(ctx, target.player, result.defender.command_rerolls, result.defender.other_rerolls)
    inflict(ctx, target, result.attacker.damage_dealt, op, "fight")
    inflict(ctx, op, result.defender.damage_dealt, target, "fight")
    if result.attacker.critical_retained and weapon_profile(weapon.rules).stun and not target.incapacitated:
        _stun(target)
    if target_weapon and result.defender.critical_retained and weapon_profile(target_weapon.rules).stun and not op.incapacitated:
        _stun(op)
    figures = _dice_figures(result.attacker.attack_dice, hit, weapon_profile(weapon.rules), result.attacker.hits)
    _record(ctx, "fight", False, "dice", op, weapon, target, damage=result.attacker.damage_dealt, **figures)
    if target_weapon:
        figures = _dice_figures(result.defender.attack_dice, target_hit, weapon_profile(target_weapon.rules), result.defender.hits)
        _record(ctx, "fight", True, "dice", target, target_weapon, op, damage=result.defender.damage_dealt, **figures)
