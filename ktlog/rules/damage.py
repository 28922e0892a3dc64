"""Damage and incapacitation (pg 47), from attacks and from other sources."""

from __future__ import annotations

from ..events import DamageInflicted, WoundsRegained
from ..state import Incapacitation, OperativeState, RuleWarning
from .context import Ctx, handles


def inflict(ctx: Ctx, victim: OperativeState, amount: int, by: OperativeState | None, source: str) -> bool:
    """Reduce wounds; at 0 or less the operative is incapacitated. Returns True if it was."""
    if amount <= 0 or victim.incapacitated:
        return False
    victim.wounds -= amount
    if victim.wounds > 0:
        return False
    s = ctx.state
    s.change(victim, status="incapacitated")
    if victim.carrying:
        # A carrier places its marker for 0AP before it is removed (Place Marker, pg 41).
        s.markers[victim.carrying].carried_by = None
        victim.carrying = None
    for other_id in victim.engaged_with:
        other = s.operatives[other_id]
        other.engaged_with = [x for x in other.engaged_with if x != victim.id]
    victim.engaged_with = []
    victim.incapacitated_by = by.id if by else None
    s.incapacitations.append(
        Incapacitation(
            seq=ctx.seq,
            turning_point=s.turning_point,
            player=victim.player,
            operative=victim.id,
            by_player=by.player if by else None,
            by_operative=by.id if by else None,
            source=source,
        )
    )
    ctx.ruleset.on_incapacitated(ctx, victim, by.player if by else None)
    return True


@handles(DamageInflicted)
def damage_inflicted(ctx: Ctx, e: DamageInflicted) -> None:
    s = ctx.state
    if s.phase not in ("strategy", "firefight"):
        ctx.invalid("damage is inflicted during the battle", "pg 47")
    if e.damage < 0:
        ctx.invalid("damage cannot be negative", "damage")
    victim = ctx.living(e.operative, "target")
    by = ctx.operative(e.by) if e.by else None
    inflict(ctx, victim, e.damage, by, e.source)


@handles(WoundsRegained)
def wounds_regained(ctx: Ctx, e: WoundsRegained) -> None:
    if ctx.state.phase not in ("strategy", "firefight"):
        ctx.invalid("wounds are regained during the battle", "pg 47")
    if e.wounds < 1:
        ctx.invalid("regain at least 1 wound", "wounds")
    if not e.reason.strip():
        ctx.invalid("say which rule restores the wounds", "reason")
    op = ctx.living(e.operative)
    gained = min(e.wounds, op.datacard.wounds - op.wounds)  # never above its starting wounds (pg 47)
    op.wounds += gained
    ctx.state.warnings.append(RuleWarning(seq=ctx.seq, rule="rule outside the core book", message=f"{op.id} regains {gained} wounds", reason=e.reason))
