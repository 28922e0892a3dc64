"""Setting up the battle (pg 110 steps 1-3, pg 81): players, operatives, initiative, markers."""

from __future__ import annotations

import datetime as dt
from math import ceil

from ..events import (
    CritOpRolled,
    Datacard,
    DropZoneChosen,
    EquipmentSelected,
    GameCreated,
    InitiativeDecided,
    ObjectiveMarkerSetUp,
    OperativeAdded,
    OperativeSetUp,
    PlayerJoined,
    RolledOff,
)
from ..state import PLAYER_SET_UP, GameState, MarkerState, OperativeState, PlayerState
from . import positions
from .battle import order_established
from .context import Ctx, handles
from .team import check_team, weapon_problem

MAX_EQUIPMENT = 4
SETUP_CP = 2


@handles(GameCreated)
def game_created(ctx: Ctx, e: GameCreated) -> None:
    if ctx.state.ruleset != "":
        ctx.invalid("the game is already created; GameCreated comes first and once", "event")
    try:
        dt.date.fromisoformat(e.date)
    except ValueError:
        ctx.invalid(f"date {e.date!r} is not a date like 2026-11-21", "date")
    if not e.killzone.strip():
        ctx.invalid("the killzone is empty; name it (e.g. volkus, gallowdark)", "killzone")
    s = ctx.state
    s.ruleset, s.killzone, s.date, s.simulated = e.ruleset, e.killzone, e.date, e.simulated
    s.labels = {k: v for k in ("dataslate", "mission", "league", "season", "round", "table") if (v := getattr(e, k))}
    positions.layout_created(ctx, e)


def _in_setup(ctx: Ctx, what: str) -> None:
    if ctx.state.phase != "setup":
        ctx.invalid(f"{what} happens while setting up the battle, not in turning point {ctx.state.turning_point}", "pg 110")


@handles(PlayerJoined)
def player_joined(ctx: Ctx, e: PlayerJoined) -> None:
    _in_setup(ctx, "a player joining")
    s = ctx.state
    if not e.player.strip():
        ctx.invalid("the player's name is empty", "player")
    if e.player in s.players:
        ctx.invalid(f"player {e.player!r} has already joined", "player")
    most = ctx.ruleset.players[1]
    if len(s.players) >= most:
        ctx.invalid(f"{ctx.ruleset.title} is for {most} players; {e.player!r} would be one more", ctx.ruleset.source)
    problems = check_team(e.ploys, e.equipment_options, e.resources)
    if problems:
        ctx.invalid(f"{e.player}'s kill team: " + "; ".join(problems), "roster")
    s.players[e.player] = PlayerState(
        name=e.player,
        kill_team=e.kill_team,
        faction=e.faction,
        vp=dict.fromkeys(ctx.ruleset.ops, 0),
        npo=e.npo,
        archetypes=list(e.archetypes),
        ploys=list(e.ploys),
        equipment_options=list(e.equipment_options),
        resources={r.name: r.start for r in e.resources},
    )


def check_datacard(card: Datacard) -> list[str]:
    """What is impossible about a datacard (pg 48), as messages naming the field."""
    problems = []
    if card.apl < 1:
        problems.append(f"APL {card.apl} is below 1")
    if card.wounds < 1:
        problems.append(f"Wounds {card.wounds} is below 1")
    if not 2 <= card.save <= 6:
        problems.append(f"Save {card.save}+ is not between 2+ and 6+")
    if card.move < 1:
        problems.append(f'Move {card.move}" is below 1"')
    if card.invulnerable_save is not None and not 2 <= card.invulnerable_save <= 6:
        problems.append(f"Invulnerable Save {card.invulnerable_save}+ is not between 2+ and 6+ (004)")
    if card.group_activation < 1 or card.defence < 0:
        problems.append(f"GA {card.group_activation} and DF {card.defence}: GA is at least 1 and DF at least 0 (001)")
    names = [w.name for w in card.weapons]
    if len(set(names)) != len(names):
        problems.append("two weapons have the same name")
    problems += [f"weapon {w.name!r}: {problem}" for w in card.weapons if (problem := weapon_problem(w))]
    return problems


@handles(OperativeAdded)
def operative_added(ctx: Ctx, e: OperativeAdded) -> None:
    _in_setup(ctx, "selecting operatives")
    s = ctx.state
    ctx.player(e.player)
    if not e.operative.strip():
        ctx.invalid("the operative's id is empty", "operative")
    if e.operative in s.operatives:
        ctx.invalid(f"operative {e.operative!r} is already in the game; give each operative its own id", "operative")
    if s.count(PLAYER_SET_UP).get((e.player, True)):
        ctx.invalid(f"{e.player} has begun setting up operatives; operatives are selected before ({ctx.ruleset.cite('pg 110')} step 2)", "pg 110")
    problems = check_datacard(e.datacard)
    if problems:
        ctx.invalid(f"datacard of {e.operative!r}: " + "; ".join(problems), "datacard, pg 48")
    s.add(OperativeState(id=e.operative, player=e.player, datacard=e.datacard, wounds=e.datacard.wounds))


@handles(RolledOff)
def rolled_off(ctx: Ctx, e: RolledOff) -> None:
    s = ctx.state
    for player, value in e.rolls.items():
        ctx.player(player)
        if not 1 <= value <= 6:
            ctx.invalid(f"{player}'s roll-off die {value} is not a D6 result", "pg 50")
    if e.purpose == "setup":
        _in_setup(ctx, "the set-up roll-off")
        if len(s.players) < ctx.ruleset.players[0]:
            ctx.invalid(f"at least {ctx.ruleset.players[0]} players join before the roll-off", "pg 110")
        if s.setup_initiative is not None:
            ctx.invalid("set-up initiative is already decided", "pg 110")
    elif s.phase != "strategy" or s.initiative is not None:
        ctx.invalid("the initiative roll-off comes at the start of a turning point, before initiative is decided", "pg 37")
    if s.rolloff == e.purpose and s.decider is not None:  # roll off again only on a tie (pg 55): a repeat is a double entry
        ctx.broke(
            f"the {e.purpose} roll-off is decided already: {s.decider} decides who has initiative next (roll off again only after a tie)", "roll-off, pg 55"
        )
    ctx.ruleset.rolled_off(ctx, e)


@handles(InitiativeDecided)
def initiative_decided(ctx: Ctx, e: InitiativeDecided) -> None:
    s = ctx.state
    ctx.player(e.player)
    if s.rolloff is None:
        ctx.invalid("initiative is decided after a roll-off; record the roll-off first", "pg 37")
    if s.decider is None:
        ctx.invalid(f"the roll-off was a tie; roll off again ({ctx.ruleset.cite('pg 55')})", "roll-off, pg 55")
    purpose, s.rolloff = s.rolloff, None
    order_established(ctx, purpose, ctx.ruleset.order_from(s, e.player))


@handles(ObjectiveMarkerSetUp)
def objective_marker_set_up(ctx: Ctx, e: ObjectiveMarkerSetUp) -> None:
    _in_setup(ctx, "setting up objective markers")
    s = ctx.state
    ctx.player(e.player)
    if s.setup_initiative is None:
        ctx.invalid("objective markers are set up after set-up initiative is decided", "pg 81")
    if e.marker in s.markers:
        ctx.invalid(f"marker {e.marker!r} is already set up", "marker")
    _, wanted = ctx.ruleset.marker_count(s)
    if wanted is not None and len(s.markers) >= wanted:
        ctx.broke(f"{ctx.ruleset.title} uses {wanted} objective markers", ctx.ruleset.marker_rule)
    expected = ctx.ruleset.marker_placer(s, len(s.markers)) or e.player
    if e.player != expected:
        ctx.broke(f"{expected} places objective marker {len(s.markers) + 1}, not {e.player}", ctx.ruleset.marker_rule)
    s.markers[e.marker] = MarkerState(id=e.marker, placed_by=e.player)


@handles(CritOpRolled)
def crit_op_rolled(ctx: Ctx, e: CritOpRolled) -> None:
    _in_setup(ctx, "rolling the crit op")
    s = ctx.state
    if s.setup_initiative is None:
        ctx.invalid("the player with initiative rolls the crit op; decide set-up initiative first", "pg 84")
    if s.crit_op is not None:
        ctx.invalid(f"the crit op is already {s.crit_op}", "pg 84")
    if e.roll not in ctx.ruleset.crit_ops:
        ctx.invalid(f"crit op roll {e.roll} is not a D3 result (1 to 3)", "pg 84")
    s.crit_op = ctx.ruleset.crit_ops[e.roll]


@handles(DropZoneChosen)
def drop_zone_chosen(ctx: Ctx, e: DropZoneChosen) -> None:
    _in_setup(ctx, "choosing drop zones")
    s = ctx.state
    player = ctx.player(e.player)
    if s.setup_initiative is None:
        ctx.invalid("drop zones are chosen after set-up initiative is decided", "pg 110")
    if player.drop_zone is not None:
        ctx.invalid(f"{e.player} already chose drop zone {player.drop_zone!r}", "pg 110")
    before = s.order[: s.order.index(e.player)]
    waiting = [p for p in before if s.players[p].drop_zone is None]
    if waiting:
        ctx.broke(f"{waiting[0]} chooses a drop zone first (drop zones are chosen in player order, initiative first)", "pg 110")
    taken = {p.drop_zone for p in s.players.values()}
    if e.drop_zone in taken:
        ctx.broke(f"drop zone {e.drop_zone!r} is taken; each player selects a different one", "pg 110")
    player.drop_zone = e.drop_zone


@handles(EquipmentSelected)
def equipment_selected(ctx: Ctx, e: EquipmentSelected) -> None:
    _in_setup(ctx, "selecting equipment")
    s = ctx.state
    player = ctx.player(e.player)
    if player.equipment is not None:
        ctx.ruleset.extra_equipment(ctx, e)
        return
    missing = _battle_not_set_up(ctx)
    if missing:
        # pg 110: the roll-off, objective markers and drop zones (1. Set up the battle) come
        # before operatives and equipment are selected and the 2CP gained (2. Select operatives).
        ctx.broke(f"equipment is selected after {', '.join(missing)} (set up the battle first, then select operatives and equipment)", "pg 110")
    if len(e.equipment) > MAX_EQUIPMENT:
        ctx.broke(f"{e.player} selected {len(e.equipment)} equipment options; at most {MAX_EQUIPMENT}", "pg 110")
    if len(set(e.equipment)) != len(e.equipment):
        ctx.broke("each equipment option can be selected once", "pg 50")
    player.equipment = list(e.equipment)
    if all(p.equipment is not None for p in s.players.values()) and len(s.players) >= ctx.ruleset.players[0]:
        # pg 110 step 2: once operatives and equipment are selected, each player gains 2CP.
        for name in s.players:
            if ctx.ruleset.gains_cp(s, name):
                ctx.change_cp(name, SETUP_CP, "income", "set-up")
        s.cp_setup_given = True


def _battle_not_set_up(ctx: Ctx) -> list[str]:
    """What of pg 110's "1. Set up the battle" is still to do: set-up initiative, the objective
    markers set up before the operatives, the mission's crit op (pg 84), drop zones."""
    s = ctx.state
    missing = []
    if s.setup_initiative is None:
        missing.append("set-up initiative")
    if len(s.markers) < ctx.ruleset.marker_count(s)[0]:
        missing.append("objective markers")
    if ctx.ruleset.crit_ops and s.crit_op is None:
        missing.append("the crit op")
    if any(p.drop_zone is None for p in s.players.values()):
        missing.append("drop zones")
    return missing


def next_to_set_up(s: GameState) -> str | None:
    """Who sets up next: a third of each kill team (rounding up) in turn, in player order,
    initiative first (pg 110)."""
    order = s.order
    counted = s.count(PLAYER_SET_UP)
    done = {p: counted.get((p, True), 0) for p in order}
    size = {p: done[p] + counted.get((p, False), 0) for p in order}
    placed = dict.fromkeys(order, 0)
    turn = 0
    while any(placed[p] < size[p] for p in order):
        p = order[turn % len(order)]
        if placed[p] < size[p]:
            placed[p] = min(size[p], placed[p] + ceil(size[p] / 3))
            if done[p] < placed[p]:
                return p
        turn += 1
    return None


@handles(OperativeSetUp)
def operative_set_up(ctx: Ctx, e: OperativeSetUp) -> None:
    _in_setup(ctx, "setting up operatives")
    s = ctx.state
    op = ctx.operative(e.operative)
    if op.set_up:
        ctx.invalid(f"operative {op.id!r} is already set up", "pg 110")
    missing = _battle_not_set_up(ctx)
    if not s.cp_setup_given:
        missing.append("equipment selection")
    if missing:
        ctx.invalid("operatives are set up after " + ", ".join(missing), "pg 110")
    expected = next_to_set_up(s)
    if op.player != expected:
        ctx.broke(f"{expected} sets up the next third of their kill team, not {op.player}", "pg 110")
    positions.set_up(ctx, e, op)
    s.change(op, set_up=True)
    op.order = "conceal"  # set up with a Conceal order (pg 110)
