"""Actions (pg 40-45, RULES.md section 4): AP, action restrictions, exclusions, orders, movement."""

from __future__ import annotations

from ..events import (
    Action,
    Charged,
    Dashed,
    FellBack,
    KillzoneActionPerformed,
    MarkerLooted,
    MarkerPickedUp,
    MarkerPlaced,
    MarkerSecured,
    Moved,
    Repositioned,
    TransmissionInitiated,
    UniqueActionPerformed,
)
from ..state import GameState, OperativeState
from . import positions
from .battle import end_activation
from .context import Ctx, handles
from .guard import check_interrupt, guarding, note_near_guards

MOVES = ("Reposition", "Dash", "Fall Back", "Charge")
KILLZONE_PAGE = {"volkus": "pg 64", "gallowdark": "pg 70"}
KILLZONE_OF_ACTION = {"Operate Hatch": "gallowdark", "Guard": "gallowdark", "Door Fight": "volkus", "Hatchway Fight": "gallowdark"}


def printed_cost(op: OperativeState, e: Action) -> int:
    """The AP an action costs as printed: the rulebook's, or the datacard's for unique actions."""
    if isinstance(e, UniqueActionPerformed):
        for ua in op.datacard.unique_actions:
            if ua.name.casefold() == e.action.casefold():
                return ua.ap
        return e.ap if e.ap is not None else 1
    return e.cost


def begin_action(ctx: Ctx, e: Action) -> OperativeState:
    """Checks every action shares: who may act, AP within APL, once per activation (pg 39)."""
    op, cost = check_action(ctx, e)
    if cost and ctx.state.activation:  # a cost is counted only in the operative's own activation
        ctx.state.activation.ap_spent += cost
    op.on_guard = False  # guard ends when the operative performs any action (pg 70)
    if guarding(e) and ctx.state.activation is not None:
        ctx.state.activation.interrupted_by.append(op.player)
    return op


def check_action(ctx: Ctx, e: Action) -> tuple[OperativeState, int]:
    """The checks of `begin_action`, changing nothing: the operative, and the AP the action adds
    to its activation (0 in a counteract, or for an operative that is not active)."""
    s = ctx.state
    if s.phase != "firefight":
        ctx.invalid(f"actions are performed in the Firefight phase (now: {s.phase})", "pg 38")
    op = ctx.living(e.operative)
    if guarding(e):
        check_interrupt(ctx, op, e)
        return op, 0  # for free, and no action of the interrupted activation (pg 70)
    act = s.activation
    active = act is not None and act.operative == op.id
    if not active:
        guard = " (it is on guard: an interrupt from guard is a Shoot or Fight with guard=yes, Guard pg 70)" if op.on_guard else ""
        ctx.broke(f"operative {op.id!r} is not the active operative; activate it (or counteract with it) first{guard}", "pg 39")
    printed = printed_cost(op, e)
    cost = printed if e.ap is None else e.ap
    if cost < 0:
        ctx.invalid("an action costs at least 0AP", "pg 39")
    if cost != printed:
        ctx.broke(f"{e.counts_as} costs {printed}AP, not {cost}AP", "pg 40")
    if act is None or not active:
        return op, 0
    if act.counteract:
        if printed != 1:
            ctx.broke(f"a counteract performs a 1AP action; {e.counts_as} costs {printed}AP", "pg 39")
        return op, 0
    if act.ap_spent + cost > op.apl:
        ctx.broke(f"operative {op.id!r} has APL {op.apl} and has spent {act.ap_spent}AP; {e.counts_as} costs {cost}AP more", "pg 39")
    if e.counts_as in act.actions and act.actions.count(e.counts_as) >= ctx.ruleset.repeats(op, e.counts_as):
        ctx.broke(f"operative {op.id!r} already performed {e.counts_as} this activation", "action restrictions, pg 39")
    return op, cost


def finish_action(ctx: Ctx, e: Action, op: OperativeState) -> None:
    """Remember the action; a counteract, or an activation whose operative fell, ends now."""
    ctx.ruleset.after_action(ctx, e, op)
    s = ctx.state
    act = s.activation
    if act is None:
        return
    if act.operative != op.id:
        if guarding(e) and s.operatives[act.operative].incapacitated:
            end_activation(ctx)  # the interrupt incapacitated the interrupted operative
        return
    act.actions.append(e.counts_as)
    if e.counts_as in MOVES:
        act.moved = True
    note_near_guards(s, act, op)
    if act.counteract or op.incapacitated:
        end_activation(ctx)


def performed(s: GameState, *names: str) -> list[str]:
    """Which of these actions the active operative already performed this activation."""
    act = s.activation
    return [n for n in names if act and n in act.actions]


def not_engaged(ctx: Ctx, op: OperativeState, action: str, page: str) -> None:
    if op.engaged_with:
        ctx.broke(f"operative {op.id!r} is within control range of {', '.join(op.engaged_with)} and cannot {action}", page)


def _excluded(ctx: Ctx, action: str, others: tuple[str, ...], page: str) -> None:
    done = performed(ctx.state, *others)
    if done:
        ctx.broke(f"{action} cannot be performed in the same activation as {' or '.join(done)}", page)


def _heavy_allows_move(ctx: Ctx, move: str) -> None:
    act = ctx.state.activation
    if act and act.used_heavy:
        if act.heavy_only != move:
            ctx.broke(f"an operative cannot {move} after using a Heavy weapon in its activation", "Heavy, pg 111")


def disengage(s: GameState, op: OperativeState) -> None:
    for other_id in op.engaged_with:
        other = s.operatives[other_id]
        other.engaged_with = [x for x in other.engaged_with if x != op.id]
    op.engaged_with = []


@handles(Repositioned, Dashed, FellBack, Charged)
def moved(ctx: Ctx, e: Moved) -> None:
    op = begin_action(ctx, e)
    _heavy_allows_move(ctx, e.counts_as)
    s = ctx.state
    if isinstance(e, Repositioned):
        not_engaged(ctx, op, "Reposition", "pg 40")
        _excluded(ctx, "Reposition", ("Fall Back", "Charge"), "pg 40")
    elif isinstance(e, Dashed):
        not_engaged(ctx, op, "Dash", "pg 40")
        _excluded(ctx, "Dash", ("Charge",), "pg 40")
    elif isinstance(e, FellBack):
        if not op.engaged_with:
            ctx.broke(f"operative {op.id!r} has no enemy within its control range to Fall Back from", "pg 40")
        _excluded(ctx, "Fall Back", ("Reposition", "Charge"), "pg 40")
        disengage(s, op)
    elif isinstance(e, Charged):
        if op.order != "engage":
            ctx.broke(f"operative {op.id!r} has a Conceal order and cannot Charge", "pg 41")
        not_engaged(ctx, op, "Charge", "pg 41")
        _excluded(ctx, "Charge", ("Reposition", "Dash", "Fall Back"), "pg 41")
        if not e.targets:
            ctx.invalid("a Charge finishes within control range of an enemy operative: name it in targets", "pg 41")
        for target_id in e.targets:
            target = ctx.living(target_id, "charge target")
            if target.player == op.player:
                ctx.invalid(f"{target_id!r} is a friendly operative; a Charge ends within control range of enemies", "pg 41")
            if target_id not in op.engaged_with:
                op.engaged_with.append(target_id)
                target.engaged_with.append(op.id)
    positions.moved(ctx, e, op)
    finish_action(ctx, e, op)


@handles(MarkerPickedUp, MarkerPlaced)
def marker_moved(ctx: Ctx, e: MarkerPickedUp | MarkerPlaced) -> None:
    op = begin_action(ctx, e)
    s = ctx.state
    marker = s.markers.get(e.marker)
    if marker is None:
        ctx.invalid(f"no marker {e.marker!r} (markers: {', '.join(s.markers) or 'none'})", "marker")
    if isinstance(e, MarkerPickedUp):
        not_engaged(ctx, op, "pick up a marker", "pg 41")
        if op.carrying is not None:
            ctx.broke(f"operative {op.id!r} is already carrying {op.carrying!r}", "pg 41")
        if marker.carried_by is not None:
            ctx.invalid(f"marker {marker.id!r} is carried by {marker.carried_by!r}", "pg 41")
        if not ctx.ruleset.can_pick_up(s, marker.id):
            ctx.broke(f"marker {marker.id!r} cannot be picked up: only markers a rule allows can be ({ctx.ruleset.title} allows none)", "pg 41")
        if op.carrying is not None:
            s.markers[op.carrying].carried_by = None
        op.carrying, marker.carried_by = marker.id, op.id
    else:
        if op.carrying != marker.id:
            ctx.invalid(f"operative {op.id!r} is not carrying marker {marker.id!r}", "pg 41")
        _excluded(ctx, "Place Marker", ("Pick Up Marker",), "pg 41")
        op.carrying, marker.carried_by = None, None
    finish_action(ctx, e, op)


@handles(MarkerSecured, MarkerLooted, TransmissionInitiated)
def mission_action(ctx: Ctx, e: Action) -> None:
    op = begin_action(ctx, e)
    not_engaged(ctx, op, f"perform {e.name}", "pg 84-85")
    ctx.ruleset.mission_action(ctx, e, op)
    finish_action(ctx, e, op)


def in_killzone(ctx: Ctx, action: str) -> None:
    wanted = KILLZONE_OF_ACTION[action]
    if wanted not in ctx.state.killzone.casefold():
        ctx.broke(f"{action} is an action of Killzone: {wanted.title()}, not {ctx.state.killzone}", KILLZONE_PAGE[wanted])


@handles(KillzoneActionPerformed)
def killzone_action(ctx: Ctx, e: KillzoneActionPerformed) -> None:
    op = begin_action(ctx, e)
    in_killzone(ctx, e.action)
    if e.action == "Guard":
        not_engaged(ctx, op, "Guard", "Guard, pg 70")
        if op.order != "engage":
            ctx.broke(f"operative {op.id!r} has a Conceal order and cannot Guard", "Guard, pg 70")
    finish_action(ctx, e, op)
    if e.action == "Guard" and not op.incapacitated:
        op.on_guard = True


@handles(UniqueActionPerformed)
def unique_action(ctx: Ctx, e: UniqueActionPerformed) -> None:
    op = begin_action(ctx, e)
    names = [ua.name for ua in op.datacard.unique_actions]
    if e.action.casefold() not in (n.casefold() for n in names):
        ctx.broke(f"{e.action!r} is not a unique action on {op.id!r}'s datacard ({', '.join(names) or 'it has none'})", "datacards, pg 48")
    finish_action(ctx, e, op)
