"""Crit ops (Secure, Loot, Transmission): their mission actions and the markers each player
holds, shared by the mission packs that use them (Preliminary Ops pg 84-85, Multiplayer Ops
pg 103). How they score is each mission pack's own."""

from __future__ import annotations

from ..events import Action, MarkerLooted, MarkerSecured, TransmissionInitiated
from ..state import GameState, MarkerState, OperativeState
from .context import Ctx

CRIT_OPS = {1: "Secure", 2: "Loot", 3: "Transmission"}
"""The crit op by the initiative (or first) player's D3."""
MISSION_ACTION_OF: dict[str, type[Action]] = {"Secure": MarkerSecured, "Loot": MarkerLooted, "Transmission": TransmissionInitiated}


def crit_op_actions(state: GameState) -> tuple[type[Action], ...]:
    """The mission action of the game's crit op, once it is known (`Ruleset.mission_actions`)."""
    action = MISSION_ACTION_OF.get(state.crit_op or "")
    return (action,) if action is not None else ()


def crit_op_action(ctx: Ctx, event: Action, operative: OperativeState, page: str) -> MarkerState:
    """Check a crit op's mission action and apply it to its marker: Secure (secured by the
    operative's kill team until an enemy secures it), Loot (once per marker per turning point),
    Initiate Transmission (transmitting until the next turning point starts)."""
    state = ctx.state
    wanted = MISSION_ACTION_OF.get(state.crit_op or "")
    if wanted is None or not isinstance(event, wanted):
        ctx.broke(f"{event.name} is not an action of this game's crit op ({state.crit_op})", page)
    if state.turning_point <= 1:
        ctx.broke(f"{event.name} cannot be performed during the first turning point", page)
    name: str = event.marker  # type: ignore[attr-defined]  # each of MISSION_ACTION_OF's actions names its marker
    marker = state.markers.get(name)
    if marker is None:
        ctx.invalid(f"no objective marker {name!r} (markers: {', '.join(state.markers)})", "marker")
    if isinstance(event, MarkerSecured):
        marker.secured_by = operative.player
    elif isinstance(event, MarkerLooted):
        if marker.looted_tp == state.turning_point:
            ctx.broke(f"marker {marker.id!r} was already looted this turning point", f"Loot, {page}")
        marker.looted_tp = state.turning_point
    elif isinstance(event, TransmissionInitiated):
        marker.transmitting = True
    return marker


def markers_held(ctx: Ctx, page: str) -> dict[str, int]:
    """Per player: the markers their kill team has secured (Secure), or the transmitting markers
    their operatives control as last recorded (Transmission)."""
    state = ctx.state
    counts = dict.fromkeys(state.players, 0)
    if state.crit_op == "Secure":
        for m in state.markers.values():
            if m.secured_by:
                counts[m.secured_by] += 1
        return counts
    transmitting = [m for m in state.markers.values() if m.transmitting]
    if transmitting and state.control_recorded_tp != state.turning_point:
        ctx.invalid(
            "record who controls each objective marker (ObjectivesControlled) before ending the turning point: "
            "Transmission scores the transmitting markers each side controls",
            f"Transmission, {page}",
        )
    for m in transmitting:
        if m.controlled_by:
            counts[m.controlled_by] += 1
    return counts
