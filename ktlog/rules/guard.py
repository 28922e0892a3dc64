"""Guard (Killzone: Gallowdark, 000 pg 70): who is on guard, the interrupt, point-blank shots.

An operative goes on guard with the Guard action. Once during each enemy operative's activation,
after that operative performs an action, its player can interrupt with one friendly operative on
guard, which performs the Shoot or Fight action for free (a Shot or Fought with `guard`). Within
an enemy's control range, that Shoot is a point-blank shot: at an enemy within its control range,
its weapons' Hit worsened by 1, and it cannot retaliate until the interrupted activation ends.
"""

from __future__ import annotations

from ..events import Action
from ..state import Activation, GameState, OperativeState
from .context import Ctx

GUARD = "Guard, pg 70"
POINT_BLANK_HIT_PENALTY = 1
"""A point-blank shot worsens the Hit stat of the operative's weapons by 1 (pg 70)."""


def guarding(e: Action) -> bool:
    """Whether the action is an interrupt by an operative on guard (a Shot or Fought with `guard`)."""
    return getattr(e, "guard", False)


def point_blank(e: Action, op: OperativeState) -> bool:
    """A Shoot from guard while within an enemy's control range (pg 70)."""
    return guarding(e) and bool(op.engaged_with)


def check_interrupt(ctx: Ctx, op: OperativeState, e: Action) -> None:
    """Whether `op` may interrupt the activation under way from guard, now (pg 70)."""
    s = ctx.state
    act = s.activation
    if act is None or s.operatives[act.operative].player == op.player:
        ctx.broke(f"{op.id!r} interrupts from guard only during an enemy operative's activation, after one of its actions", GUARD)
        return
    if act.counteract:
        ctx.broke(f"{act.operative!r} is counteracting, which is not an activation (pg 39): an operative on guard cannot interrupt it", GUARD)
    if not op.on_guard:
        ctx.broke(
            f"{op.id!r} is not on guard: an operative goes on guard with the Guard action, until it performs an action, its order "
            "changes, an enemy ends an action within its control range and that activation is not interrupted, or the next turning point",
            GUARD,
        )
    if not act.actions:
        ctx.broke(f"an operative on guard interrupts after the enemy operative performs an action; {act.operative!r} has performed none yet", GUARD)
    if op.player in act.interrupted_by:
        ctx.broke(f"{op.player} already interrupted {act.operative!r}'s activation: once during each enemy operative's activation", GUARD)
    if e.ap not in (None, 0):
        ctx.broke(f"an operative on guard performs the {e.counts_as} action for free, not for {e.ap}AP", GUARD)


def note_near_guards(s: GameState, act: Activation, op: OperativeState) -> None:
    """After an action of the active operative: the enemy operatives on guard it ended within
    control range of (their guard ends unless this activation is interrupted, pg 70). Control
    range is mutual (Charge, Fall Back and incapacitation change `engaged_with` on both sides),
    so only the operatives within `op`'s are looked at, noted in the game's operative order."""
    near = [g for g in op.engaged_with if g not in act.near_guards and (other := s.peek(g)).on_guard and other.player != op.player]
    if len(near) > 1:
        order = {op_id: i for i, op_id in enumerate(s.operatives)}
        near.sort(key=order.__getitem__)
    act.near_guards += near


def stand_down(s: GameState, act: Activation) -> None:
    """The end of an activation: guard ends for each operative an enemy ended an action within
    control range of, when its player did not interrupt that activation (pg 70)."""
    for guard_id in act.near_guards:
        guard = s.operatives[guard_id]
        if guard.player not in act.interrupted_by:
            guard.on_guard = False
