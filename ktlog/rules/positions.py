"""The rules the board decides, in a game with a layout whose operatives have positions
(docs/the-board.md): where an operative is set up and where a move ends (pg 40-41, 46, 56, 110),
valid targets, cover and obscured (pg 42, 47, 53, 55, 60) and objective control (pg 52). A value
the player declares that the geometry contradicts is refused with both values; an override
accepts it and is stored as the game's warning. A game without a layout, or an operative without
a position, is judged as before: on the players' word."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..board.checks import MAX_HEIGHT, problems_of, summary
from ..board.geometry import (
    Board,
    Placed,
    Reason,
    blast_targets,
    control_range,
    devastating_targets,
    distance,
    marker_control,
    target_problem,
    targeting,
    vantage,
    within,
)
from ..board.layout import Layout
from ..board.movement import JUMP_UP_IGNORED, Waypoint, counted, placement_problem
from ..board.shapes import Point, inside, seg_point_distance
from ..events import Charged, Dashed, GameCreated, Moved, OperativeSetUp, ShootingAttack, Shot
from ..state import GameState, OperativeState
from .context import Ctx
from .weapons import WeaponProfile

if TYPE_CHECKING:
    from .ruleset import Ruleset

DASH = 3
CHARGE_EXTRA = 2
COUNTERACT_MOVE = 2
"""Inches: a counteracting operative moves no more than this (pg 39)."""
BOARDS_KEPT = 8
_BOARDS: list[tuple[Layout, Board]] = []
"""The boards made lately, the latest first: a state copied or decoded holds its layout as a new
object, which compares equal (8 us) where making its board again takes 260 us."""


def board(layout: Layout) -> Board:
    for kept, made in _BOARDS:
        if kept is layout or kept == layout:
            return made
    made = Board(layout)
    _BOARDS.insert(0, (layout, made))
    del _BOARDS[BOARDS_KEPT:]
    return made


def placed(op: OperativeState, x: float | None = None, y: float | None = None, z: float | None = None) -> Placed | None:
    """The operative where it stands (or at x, y, z), None when it has no position."""
    x, y, z = (op.x, op.y, op.z) if x is None else (x, y, z)
    if x is None or y is None:
        return None
    return Placed(op.id, op.player, x, y, z or 0.0, base_mm=op.datacard.base_mm, order=op.order, apl=op.apl, wounds=op.wounds, max_wounds=op.datacard.wounds)


def on_board(s: GameState, *, but: str | None = None) -> list[Placed]:
    """Every operative in the killzone that has a position (but one)."""
    return [p for o in s.scan() if o.in_killzone and o.id != but and (p := placed(o)) is not None]


def _broke(ctx: Ctx, reason: Reason | None) -> None:
    if reason is not None:
        ctx.broke(reason.text, reason.rule)


# --- the layout and where an operative is set up ---------------------------------------------


def layout_created(ctx: Ctx, e: GameCreated) -> None:
    """A game's layout is checked as a layout file is: an imported log may carry any."""
    if e.layout is not None:
        problems = problems_of(e.layout)
        if problems:
            ctx.invalid(f"the game's layout: {summary(problems)}", "layout")
        if e.layout.killzone not in ("open", e.killzone):
            ctx.invalid(f"the layout is a {e.layout.killzone} killzone and the game is played in {e.killzone}: give a layout of its killzone", "layout")
        ctx.state.layout = e.layout


def _position(ctx: Ctx, e: OperativeSetUp | Moved) -> tuple[float, float, float] | None:
    """The position an event gives, checked: both x and y or neither, in a game with a layout."""
    if e.x is None and e.y is None:
        if e.z is not None:
            ctx.invalid("z is a level: give x and y with it", "z")
        return None
    if e.x is None or e.y is None:
        ctx.invalid("give both x and y (inches from the board's left and top edges), or neither", "x" if e.x is None else "y")
    if ctx.state.layout is None:
        ctx.invalid("the game has no layout, so its operatives have no positions: leave out x, y and z (or create it with --layout)", "x")
    layout = ctx.state.layout
    for name, value, most in (("x", e.x, layout.width), ("y", e.y, layout.depth), ("z", e.z or 0.0, MAX_HEIGHT)):
        if not (math.isfinite(value) and 0 <= value <= most):
            ctx.invalid(f"{name}={value} is off the {layout.width:g} x {layout.depth:g} board: give inches from 0 to {most:g}", name)
    return e.x, e.y, e.z or 0.0


def set_up(ctx: Ctx, e: OperativeSetUp, op: OperativeState) -> None:
    """Set up wholly within its player's drop zone (pg 110), where a base can be placed (pg 46, 56)."""
    at = _position(ctx, e)
    if at is None:
        return
    s = ctx.state
    layout = s.layout
    assert layout is not None
    here = placed(op, *at)
    assert here is not None
    b = board(layout)
    _broke(ctx, placement_problem(b, here, on_board(s, but=op.id)))
    zone = b.drop_zones.get(s.players[op.player].drop_zone or "")
    if zone is not None and not wholly_within(here, zone):
        ctx.broke(f"{op.id} is not wholly within {op.player}'s drop zone {s.players[op.player].drop_zone!r}", "Set Up Operatives, pg 110")
    op.x, op.y, op.z = at


def wholly_within(op: Placed, zone: Sequence[Point]) -> bool:
    """Every part of the base within the area (pg 50): its centre inside, its edge no nearer."""
    edges = zip(zone, [*zone[1:], zone[0]], strict=True)
    return inside(op.centre, zone) and min(seg_point_distance(a, b, op.centre) for a, b in edges) >= op.radius - 0.01


# --- moves -----------------------------------------------------------------------------------


def allowance(ruleset: Ruleset, s: GameState, op: OperativeState, action: str) -> int:
    """How far the action (`Moved.name`: Reposition, Dash, Fall Back, Charge) moves (pg 40-41),
    no more than 2" when counteracting (pg 39)."""
    move = DASH if action == Dashed.name else ruleset.move(s, op) + (CHARGE_EXTRA if action == Charged.name else 0)
    act = s.activation
    return min(move, COUNTERACT_MOVE) if act is not None and act.counteract else move


def moved(ctx: Ctx, e: Moved, op: OperativeState) -> None:
    """Where a move ends: within the action's distance, where a base can be placed, and, for a
    Charge, within control range of its targets; the other moves outside every enemy's (pg 40-41)."""
    at = _position(ctx, e)
    s = ctx.state
    if at is None:
        if s.layout is not None and op.x is not None:
            op.x = op.y = op.z = None  # moved, nobody said where: no check uses where it was
        return
    start = placed(op)  # None: set up or moved without a position; from here it has one
    layout = s.layout
    assert layout is not None
    b = board(layout)
    others = on_board(s, but=op.id)
    end = placed(op, *at)
    assert end is not None
    _broke(ctx, placement_problem(b, end, others))
    if start is not None:
        _distance(ctx, e, b, start, at, allowance(ctx.ruleset, s, op, e.name), others)
    enemies = [o for o in others if o.player != op.player]
    near = [o.id for o in enemies if control_range(b, end, o)]
    if isinstance(e, Charged):
        far = [t for t in e.targets if t not in near]
        if far:
            ctx.broke(
                f"{op.id} ends its Charge at ({end.x:g}, {end.y:g}) not within control range of {', '.join(far)} (within control range there: {', '.join(near) or 'none'})",
                "Charge, pg 41",
            )
    elif near:
        ctx.broke(f"{op.id} ends its {e.name} within control range of {', '.join(near)}: it cannot finish a {e.name} there", f"{e.name}, pg 40")
    op.x, op.y, op.z = at


def _distance(ctx: Ctx, e: Moved, b: Board, start: Placed, at: Waypoint, allowed: int, others: Sequence[Placed]) -> None:
    """The move's distance (`movement.counted`): the cheapest of the straight ways there when one
    is open; else no less than the straight line."""
    dash = isinstance(e, Dashed)
    inches, open_way = counted(b, start, at, others, climb=not dash)
    rule = "Charge, pg 41" if isinstance(e, Charged) else f"{e.name}, pg 40"
    if inches > allowed:
        ctx.broke(
            f'{start.id} moves {inches}" to ({at[0]:g}, {at[1]:g}) (increments rounded up, climbs at least 2", drops past the first 2"); its {e.name} allows {allowed}"',
            rule,
        )
    if dash and not open_way and at[2] - start.z > JUMP_UP_IGNORED + 0.01:
        ctx.broke(f'{start.id} cannot climb during a Dash: it ends {at[2] - start.z:g}" higher', "Dash, pg 40")


# --- shooting --------------------------------------------------------------------------------


def judged(s: GameState, op: OperativeState, target: OperativeState) -> bool:
    """Whether the board judges the attacker's shot at the target (both have positions)."""
    return s.layout is not None and op.x is not None and target.x is not None


def shooting_attack(ctx: Ctx, op: OperativeState, target: OperativeState, attack: ShootingAttack, profile: WeaponProfile, *, primary: bool) -> None:
    """Within the weapon's Range (pg 111), a valid target from the board (pg 42, 55, 60), and the
    declared cover and obscured against the terrain between (pg 47, 53): a contradiction is
    refused with both values."""
    s = ctx.state
    if not judged(s, op, target):
        return
    assert s.layout is not None
    b = board(s.layout)
    shooter, aimed = placed(op), placed(target)
    assert shooter is not None and aimed is not None
    if profile.range is not None and (apart := distance(shooter, aimed)) > profile.range + 1e-9:
        ctx.broke(f'{target.id} is {apart:.1f}" from {op.id}, beyond the weapon\'s Range {profile.range}"', "Range, pg 111")
    seek = "seek" if profile.seek else "seek light" if profile.seek_light else None
    if primary:
        _broke(ctx, target_problem(b, shooter, aimed, on_board(s), seek=seek))
    cover, obscured = cover_and_obscured(b, shooter, aimed, profile)
    if attack.cover != cover:
        ctx.broke(
            f"{target.id} is {'' if cover else 'not '}in cover from {op.id} by the terrain between; declared cover={attack.cover}, the board gives cover={cover}",
            "Cover, pg 47",
        )
    if attack.obscured != obscured:
        ctx.broke(
            f"{target.id} is {'' if obscured else 'not '}obscured from {op.id}; declared obscured={attack.obscured}, the board gives obscured={obscured}",
            "Obscured, pg 53",
        )


def cover_and_obscured(b: Board, shooter: Placed, aimed: Placed, profile: WeaponProfile) -> tuple[bool, bool]:
    """Whether the target is in cover (pg 47; none against Seek, no Light cover against Seek
    Light, pg 111) and obscured (pg 53) from the shooter, by the terrain between."""
    lines = targeting(b, shooter, aimed)
    return (False if profile.seek else lines.in_cover(ignore_light=profile.seek_light)), lines.obscured


def vantage_accurate(s: GameState, op: OperativeState, target: OperativeState) -> int:
    """The Accurate x Vantage terrain gives the shooter's weapon against this target (pg 60): 1
    against an Engage target 2" lower, 2 at 4"; 0 when the board does not judge the shot."""
    if not judged(s, op, target):
        return 0
    assert s.layout is not None
    shooter, aimed = placed(op), placed(target)
    assert shooter is not None and aimed is not None
    return vantage(board(s.layout), shooter, aimed).accurate


def secondary_targets(ctx: Ctx, op: OperativeState, e: Shot, profile: WeaponProfile) -> None:
    """A Blast weapon attacks every other operative visible to and within x of the primary
    target, and only those; a Torrent weapon's other targets are within x of it (pg 111)."""
    s = ctx.state
    if s.layout is None or len(e.attacks) == 0 or not (profile.blast or profile.torrent):
        return
    primary = s.operatives.get(e.attacks[0].target)
    first = placed(primary) if primary is not None else None
    if first is None or placed(op) is None:
        return
    b = board(s.layout)
    others = {a.target for a in e.attacks[1:]}
    where = {p.id: p for p in on_board(s)}
    if profile.blast:
        reached = {p.id for p in blast_targets(b, first, profile.blast, list(where.values()))}
        extra = sorted(t for t in others - reached if t in where)
        missed = sorted(reached - others)
        if extra:
            ctx.broke(
                f'{", ".join(extra)} {"is" if len(extra) == 1 else "are"} not within {profile.blast}" of {first.id} and visible to it: Blast does not reach',
                "Blast, pg 111",
            )
        if missed:
            ctx.broke(
                f'{", ".join(missed)} {"is" if len(missed) == 1 else "are"} within {profile.blast}" of {first.id} and visible to it: Blast attacks them too',
                "Blast, pg 111",
            )
    if profile.torrent:
        far = sorted(t for t in others if t in where and not within(first, where[t], profile.torrent))
        if far:
            ctx.broke(f'{", ".join(far)} {"is" if len(far) == 1 else "are"} not within {profile.torrent}" of {first.id}, the primary target', "Torrent, pg 111")


def devastating_reach(ctx: Ctx, target: OperativeState, attack: ShootingAttack, profile: WeaponProfile) -> None:
    """x" Devastating (pg 111): the operatives named in `splashed` are every other operative
    visible to and within x of the target, and only those; one without a position is on the
    player's word. Without a layout, or a position for the target, the player's word."""
    s = ctx.state
    aimed = placed(target) if s.layout is not None else None
    if aimed is None:
        return
    assert s.layout is not None
    where = {p.id: p for p in on_board(s)}
    reached = {p.id for p in devastating_targets(board(s.layout), aimed, profile.devastating_splash, list(where.values()))}
    declared = set(attack.splashed)
    if reached != declared & where.keys():
        ctx.broke(
            f"declared splashed={','.join(sorted(declared)) or 'nobody'}, the board gives {','.join(sorted(reached)) or 'nobody'}: "
            f'the other operatives visible to and within {profile.devastating_splash}" of {target.id}',
            "Devastating, pg 111",
        )


# --- objective control -----------------------------------------------------------------------


def holders(s: GameState, positions: Sequence[Placed]) -> dict[str, str | None]:
    """Who controls each objective marker set up on the layout (pg 52): the greater total APL of
    the operatives in `positions` within control range of it, or its carrier."""
    assert s.layout is not None
    b = board(s.layout)
    out: dict[str, str | None] = {}
    for marker in s.layout.objectives:
        if marker.name in s.markers:
            carrier = next((p for p in positions if p.id == s.markers[marker.name].carried_by), None)
            out[marker.name] = marker_control(b, marker, positions, carrier)
    return out


def control(ctx: Ctx, declared: dict[str, str | None]) -> None:
    """Each marker of the layout the players named: who controls it from the operatives within
    control range of it (pg 52), when every operative in the killzone has a position."""
    s = ctx.state
    if s.layout is None:
        return
    operatives = [o for o in s.scan() if o.in_killzone]
    positions = [p for o in operatives if (p := placed(o)) is not None]
    if len(positions) != len(operatives):
        return
    for name, held in holders(s, positions).items():
        said = declared.get(name)
        if said != held:
            ctx.broke(
                f"marker {name!r}: declared controlled by {said or 'nobody'}, the board gives {held or 'nobody'} (total APL of the operatives within control range)",
                "Markers, pg 52",
            )
