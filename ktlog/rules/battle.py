"""The battle's sequence (pg 36-39): turning points, strategy phase, activations, counteracts."""

from __future__ import annotations

from ..events import (
    ActivationEnded,
    Annotation,
    AplModified,
    CommandPointsAdjusted,
    CounteractStarted,
    DisputeResolved,
    EventDisputed,
    FirefightPloyUsed,
    GambitPassed,
    GameConceded,
    ObjectivesControlled,
    OperativeActivated,
    StrategicGambitUsed,
    TurningPointEnded,
    TurningPointStarted,
)
from ..state import Activation, AplChange, Dispute, Note, RuleWarning, TurningPointRecord
from . import positions
from .context import Ctx, handles
from .guard import stand_down
from .team import COMMAND_REROLL, ploy_cost


@handles(TurningPointStarted)
def turning_point_started(ctx: Ctx, e: TurningPointStarted) -> None:
    s = ctx.state
    tp = s.turning_point + 1
    if e.turning_point != tp:
        ctx.invalid(f"the next turning point is {tp}, not {e.turning_point}", "pg 36")
    if ctx.ruleset.turning_points is not None and tp > ctx.ruleset.turning_points:
        ctx.invalid(f"the battle ends after {ctx.ruleset.turning_points} turning points", ctx.ruleset.source)
    if tp == 1:
        if s.phase != "setup":
            ctx.invalid("turning point 1 follows the set-up", "pg 110")
        not_set_up = [o.id for o in s.scan() if not o.set_up]
        if not s.operatives or not_set_up:
            ctx.invalid("set up every operative before the battle: " + (", ".join(not_set_up) or "no operatives selected"), "pg 110")
    else:
        if s.phase != "between":
            ctx.invalid(f"turning point {tp - 1} has not ended yet", "pg 36")
    s.turning_point = tp
    s.phase = "strategy"
    s.initiative = None
    s.decider = None
    for p in s.players.values():
        p.used_this_tp = []
        p.loot_vp_this_tp = 0
    for m in s.markers.values():
        m.transmitting = False  # transmitting until the start of the next turning point (pg 85)
    for guard in [o.id for o in s.scan() if o.on_guard]:
        s.operatives[guard].on_guard = False  # on guard until the start of the next turning point (pg 70)
    if tp == 1:
        ctx.ruleset.on_battle_start(ctx)


def order_established(ctx: Ctx, purpose: str, order: list[str]) -> None:
    """Initiative (or Multiplayer Ops player order, pg 99) is settled: in set-up it is the set-up
    initiative; in a turning point the ready step follows (pg 37)."""
    s = ctx.state
    s.order = order
    if purpose == "setup":
        s.setup_initiative = order[0]
        return
    s.initiative = order[0]
    s.turning_points.append(TurningPointRecord(seq=ctx.seq, turning_point=s.turning_point, initiative=order[0]))
    ready_step(ctx)


def ready_step(ctx: Ctx) -> None:
    """Ready step (pg 37): CP income, every operative ready; then the gambit step begins."""
    s = ctx.state
    for name in s.players:
        ctx.change_cp(name, ctx.ruleset.ready_cp(s, name), "income", f"turning point {s.turning_point}")
    for op in s.operatives.values():
        if op.in_killzone:
            s.change(op, status="ready")
    s.gambit_turn = s.order[0]
    s.passes_in_a_row = 0


def check_gambit_turn(ctx: Ctx, player: str) -> None:
    """Refuse a gambit-step event outside the gambit step or out of turn (pg 37)."""
    s = ctx.state
    ctx.player(player)
    if s.phase != "strategy" or s.gambit_turn is None:
        ctx.invalid("strategic gambits are used in the gambit step, after initiative is decided", "pg 37")
    if player != s.gambit_turn:
        ctx.broke(f"it is {s.gambit_turn}'s turn in the gambit step", "pg 37")


def _once_per_tp(ctx: Ctx, player: str, name: str, what: str) -> None:
    used = ctx.state.players[player].used_this_tp
    if name.casefold() in used:
        ctx.broke(f"{player} already used {what} {name!r} this turning point", "pg 37, pg 54")
    used.append(name.casefold())


@handles(StrategicGambitUsed)
def strategic_gambit_used(ctx: Ctx, e: StrategicGambitUsed) -> None:
    check_gambit_turn(ctx, e.player)
    if e.cp is not None and e.cp < 0:
        ctx.invalid("a gambit's CP cost cannot be negative", "cp")
    cp = ploy_cost(ctx, e)
    _once_per_tp(ctx, e.player, e.gambit, "the gambit")
    ctx.change_cp(e.player, -cp, "gambit", e.gambit)
    s = ctx.state
    s.passes_in_a_row = 0
    s.gambit_turn = s.next_in_order(e.player)


@handles(GambitPassed)
def gambit_passed(ctx: Ctx, e: GambitPassed) -> None:
    check_gambit_turn(ctx, e.player)
    s = ctx.state
    s.passes_in_a_row += 1
    s.gambit_turn = s.next_in_order(e.player)
    if s.passes_in_a_row == len(s.players):
        # Every player passed in succession: the Firefight phase begins (pg 37-38).
        s.phase = "firefight"
        s.gambit_turn = None
        s.next_player = s.order[0]


@handles(FirefightPloyUsed)
def firefight_ploy_used(ctx: Ctx, e: FirefightPloyUsed) -> None:
    ctx.player(e.player)
    if ctx.state.phase != "firefight":
        ctx.invalid("firefight ploys are used in the Firefight phase", "pg 54")
    if e.cp is not None and e.cp < 0:
        ctx.invalid("a ploy's CP cost cannot be negative", "cp")
    if e.operative:
        ctx.operative(e.operative)
    cp = ploy_cost(ctx, e)
    if e.ploy.casefold() != COMMAND_REROLL.casefold():
        _once_per_tp(ctx, e.player, e.ploy, "the ploy")
    ctx.change_cp(e.player, -cp, "ploy", e.ploy)


@handles(CommandPointsAdjusted)
def command_points_adjusted(ctx: Ctx, e: CommandPointsAdjusted) -> None:
    if not e.reason.strip():
        ctx.invalid("say which rule changes the CP", "reason")
    ctx.change_cp(e.player, e.delta, "adjustment", e.reason)
    ctx.state.warnings.append(RuleWarning(seq=ctx.seq, rule="rule outside the core book", message=f"{e.player} CP {e.delta:+d}", reason=e.reason))


# --- Firefight phase -------------------------------------------------------------------------


def _firefight(ctx: Ctx, what: str) -> None:
    if ctx.state.phase != "firefight":
        ctx.invalid(f"{what} happens in the Firefight phase (now: {ctx.state.phase})", "pg 38")
    active = ctx.state.activation
    if active is not None:
        ctx.invalid(f"{active.operative if active else ''} is still active; end its activation first", "pg 38")


@handles(OperativeActivated)
def operative_activated(ctx: Ctx, e: OperativeActivated) -> None:
    _firefight(ctx, "activating an operative")
    s = ctx.state
    op = ctx.living(e.operative)
    if op.status != "ready":
        ctx.broke(f"operative {op.id!r} is expended and cannot be activated again this turning point", "pg 38")
    turn = s.due_to_activate()
    if op.player != turn:
        ctx.broke(f"it is {turn}'s turn to activate an operative; players alternate activations", "pg 38")
    op.order = e.order
    for change in op.apl_changes:
        change.started = True
    s.activation = Activation(operative=op.id)


@handles(CounteractStarted)
def counteract_started(ctx: Ctx, e: CounteractStarted) -> None:
    _firefight(ctx, "a counteract")
    s = ctx.state
    op = ctx.living(e.operative)
    opponent_ready = any(s.has_ready(p) for p in s.players if p != op.player)
    if s.has_ready(op.player):
        ctx.broke(f"{op.player} still has ready operatives; counteract only when all yours are expended", "pg 39")
    if not opponent_ready:
        ctx.broke("no other player has ready operatives left, so there is nothing to counteract between", "pg 39")
    if s.next_player != op.player:
        ctx.broke(f"it is not {op.player}'s turn to counteract", "pg 39")
    if op.order != "engage":
        ctx.broke(f"operative {op.id!r} has a Conceal order and cannot counteract", "pg 39")
    if op.counteracted_tp == s.turning_point:
        ctx.broke(f"operative {op.id!r} already counteracted this turning point", "pg 39")
    s.activation = Activation(operative=op.id, counteract=True)


@handles(ActivationEnded)
def activation_ended(ctx: Ctx, e: ActivationEnded) -> None:
    s = ctx.state
    active = s.activation
    if active is None or active.operative != e.operative:
        ctx.invalid(f"operative {e.operative!r} is not active", "pg 39")
    end_activation(ctx)


def end_activation(ctx: Ctx) -> None:
    """Expend the active operative (or close a counteract) and pass the turn (pg 38-39)."""
    s = ctx.state
    active = s.activation
    assert active is not None, "ActivationEnded is refused when no operative is active"
    op = s.operatives[active.operative]
    if active.counteract:
        op.counteracted_tp = s.turning_point
    else:
        if not op.incapacitated:
            s.change(op, status="expended")
        op.apl_changes = [c for c in op.apl_changes if not c.started]
    stand_down(s, active)
    s.activation = None
    ctx.ruleset.after_activation(ctx, op)


@handles(AplModified)
def apl_modified(ctx: Ctx, e: AplModified) -> None:
    if ctx.state.phase not in ("strategy", "firefight"):
        ctx.invalid("APL changes happen during the battle", "pg 48")
    op = ctx.living(e.operative)
    if e.delta == 0:
        ctx.invalid("an APL change of 0 changes nothing", "delta")
    if not e.reason.strip():
        ctx.invalid("say which rule changes the APL", "reason")
    op.apl_changes.append(AplChange(delta=e.delta, reason=e.reason))


# --- end of the turning point and of the battle ----------------------------------------------


@handles(ObjectivesControlled)
def objectives_controlled(ctx: Ctx, e: ObjectivesControlled) -> None:
    s = ctx.state
    if s.phase != "firefight" or s.activation is not None:
        ctx.invalid("objective control is recorded at the end of the Firefight phase", "pg 85")
    for marker, player in e.control.items():
        if marker not in s.markers:
            ctx.invalid(f"no objective marker {marker!r} (markers: {', '.join(s.markers)})", "marker")
        if player is not None:
            ctx.player(player)
    positions.control(ctx, e.control)
    for held in s.markers.values():
        held.controlled_by = e.control.get(held.id)
    s.control_recorded_tp = s.turning_point


@handles(TurningPointEnded)
def turning_point_ended(ctx: Ctx, e: TurningPointEnded) -> None:
    s = ctx.state
    if e.turning_point != s.turning_point:
        ctx.invalid(f"turning point {s.turning_point} is under way, not {e.turning_point}", "pg 36")
    if s.phase != "firefight":
        ctx.invalid(f"turning point {s.turning_point} ends after its Firefight phase (now: {s.phase})", "pg 36")
    if s.activation is not None:
        ctx.invalid(f"{s.activation.operative if s.activation else ''} is still active; end its activation first", "pg 38")
    ready = [o.id for o in s.scan() if o.status == "ready"]
    if ready:
        ctx.broke(f"the Firefight phase ends when every operative is expended; still ready: {', '.join(ready)}", "pg 38")
    ctx.ruleset.on_turning_point_end(ctx)
    if s.turning_point == ctx.ruleset.turning_points:
        s.phase = "over"
        s.result = ctx.ruleset.result(s)
        s.result.seq = ctx.seq
    else:
        s.phase = "between"


@handles(GameConceded)
def game_conceded(ctx: Ctx, e: GameConceded) -> None:
    s = ctx.state
    ctx.player(e.player)
    s.activation = None
    s.phase = "over"
    s.result = ctx.ruleset.concession(s, e.player)
    s.result.seq = ctx.seq


@handles(Annotation)
def annotation(ctx: Ctx, e: Annotation) -> None:
    if not 1 <= e.target < ctx.seq:
        ctx.invalid(f"there is no earlier event at seq {e.target} to annotate", "target")
    if not e.text.strip():
        ctx.invalid("the annotation is empty", "text")
    ctx.state.notes.append(Note(seq=ctx.seq, target=e.target, text=e.text))


@handles(EventDisputed)
def event_disputed(ctx: Ctx, e: EventDisputed) -> None:
    if not 1 < e.target < ctx.seq:
        ctx.invalid(f"there is no earlier event at seq {e.target} to dispute (the game's creation cannot be)", "target")
    if not e.reason.strip():
        ctx.invalid("say why the event is disputed (reason=TEXT)", "reason")
    if (disputed := next((d for d in ctx.state.disputes if d.seq == e.target), None)) is not None:
        ctx.invalid(
            f"seq {e.target} is a dispute (of seq {disputed.target}), which is answered, not disputed: its raiser withdraws it, or seq {disputed.target} is corrected",
            "target",
        )
    if any(d.target == e.target for d in ctx.state.open_disputes):
        ctx.invalid(f"seq {e.target} is disputed already; resolve that dispute first", "target")
    ctx.state.disputes.append(Dispute(seq=ctx.seq, target=e.target, reason=e.reason.strip(), raised_by=e.seat))


@handles(DisputeResolved)
def dispute_resolved(ctx: Ctx, e: DisputeResolved) -> None:
    dispute = next((d for d in ctx.state.open_disputes if d.seq == e.dispute), None)
    if dispute is None:
        ctx.invalid(f"there is no open dispute at seq {e.dispute}; open ones: {', '.join(str(d.seq) for d in ctx.state.open_disputes) or 'none'}", "dispute")
    dispute.outcome = e.outcome
