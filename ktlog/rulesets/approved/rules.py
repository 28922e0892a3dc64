"""KT24 Approved Ops (002; the core book, file 000, for everything 002 does not summarise).

Preliminary Ops' crit op and kill op (pg 84-85), plus:
- a tac op each player secretly selects from their kill team's archetypes before set-up; its VP
  are recorded by the players (the cards are not in the sources), at most 6 (002 "Max 6VP");
- the scouting step after set-up (Equip, Ploy, Reposition), which decides TP1 initiative;
- a primary op each player secretly selects in TP1 as a STRATEGIC GAMBIT, revealed at the end
  of the battle: it scores half of that op's VP again, rounded up (002 "score*1.5").

Page references "002 step N" are the numbered parts of 002's PvP game sequence.
"""

from __future__ import annotations

from math import ceil

from ...events import EquipmentSelected, Event, GambitPassed, InitiativeDecided, OperativeSetUp, RolledOff, StrategicGambitUsed, TurningPointStarted
from ...rules.battle import check_gambit_turn
from ...rules.context import Ctx, handles
from ...rules.critop import CRIT_OPS
from ...state import GameState, PlayerState, VPScored
from ..preliminary.rules import BOARD_AND_CRIT_OP, POSITIONS, PreliminaryOps
from .events import (
    PrimaryOp,
    PrimaryOpRevealed,
    PrimaryOpSelected,
    ScoutingRevealed,
    ScoutingSelected,
    TacOpRevealed,
    TacOpScored,
    TacOpSelected,
)

BY_CRIT_OP = (
    *(f"{feature}@{crit_op}" for feature in ("firepower", "kill_grade", "markers") for crit_op in CRIT_OPS.values()),
    *("most_markers@Secure", "most_markers@Transmission", "holds_marker@Loot"),
)
"""The damage race, the kill grade and the markers held, each also read in the games of each crit op
alone, as what they are worth differs by crit op (issue 41: the model's distance to the rollout
floor 0.0037 -> 0.0033 on seven held-out leagues)."""

ARCHETYPES = ("Infiltration", "Recon", "Security", "Seek & Destroy")
"""The kill team archetypes tac ops come from (002 step 2; RULES.md section 2)."""
BEATS: dict[str, str] = {"equip": "ploy", "ploy": "reposition", "reposition": "equip"}
"""Scouting option -> the option it beats for TP1 initiative: 1 Equip beats 2 Ploy, 2 beats
3 Reposition, 3 beats 1 (002 step 5)."""
PRIMARY_OPS: tuple[PrimaryOp, ...] = ("crit", "kill", "tac")
OP_CAP = 6
"""Max 6VP from each op (002 step 5)."""
CHECKED = frozenset({OperativeSetUp, TurningPointStarted, RolledOff, InitiativeDecided, StrategicGambitUsed, GambitPassed})
"""The events `ApprovedOps.check_event` checks: any other passes it at once (a rollout applies
hundreds of thousands)."""


class ApprovedOps(PreliminaryOps):
    name = "kt24-approved"
    title = "KT24 Approved Ops"
    source = "002"
    simulator = "ktlog.ruleset_play.approved.simulator"
    moves = "ktlog.ruleset_play.approved.moves"
    events = PreliminaryOps.events | {
        TacOpSelected,
        TacOpRevealed,
        TacOpScored,
        ScoutingSelected,
        ScoutingRevealed,
        PrimaryOpSelected,
        PrimaryOpRevealed,
    }
    ops = ("crit", "kill", "tac", "primary")
    max_vp = {"crit": OP_CAP, "kill": OP_CAP, "tac": OP_CAP, "primary": OP_CAP // 2}
    win_features = (*BOARD_AND_CRIT_OP, "tac_op_revealed", "vp:crit", "vp:kill", "vp:tac", "vp:primary", *BY_CRIT_OP)
    win_board_features = POSITIONS

    # --- the shared sequence, as Approved Ops changes it ------------------------------------

    def check_event(self, ctx: Ctx, event: Event) -> None:
        if type(event) not in CHECKED:
            return
        s = ctx.state
        match event:
            case OperativeSetUp() if s.cp_setup_given:
                waiting = [n for n, p in s.players.items() if p.tac_op is None]
                if waiting:
                    ctx.invalid(
                        f"operatives are set up after each player has selected a tac op (TacOpSelected); still to select: {', '.join(waiting)}", "002 step 2"
                    )
            case TurningPointStarted(turning_point=1) if not all(p.scouting_revealed for p in s.players.values()):
                ctx.invalid(
                    "the scouting step comes before the battle: each player selects a scouting option (ScoutingSelected), "
                    "then they are revealed together (ScoutingRevealed)",
                    "002 step 4",
                )
            case RolledOff(purpose="initiative") if s.turning_point == 1:
                winner = scouting_winner(s)
                who = f"{winner}, whose scouting option won" if winner else f"the player {s.decider} chooses (the same scouting option)"
                ctx.invalid(
                    f"the scouting options decide initiative in the first turning point, without a roll-off: record InitiativeDecided for {who}", "002 step 5"
                )
            case InitiativeDecided() if s.turning_point == 1 and s.phase == "strategy" and s.initiative is None:
                winner = scouting_winner(s)
                if winner is not None and event.player != winner:
                    loser = s.opponent(winner)
                    ctx.broke(
                        f"{winner}'s scouting option ({s.players[winner].scouting}) beats {loser}'s "
                        f"({s.players[loser].scouting}), so {winner} has initiative in the first turning point",
                        "002 step 5",
                    )
            case StrategicGambitUsed(cp=0) if s.turning_point == 1:
                player = s.players.get(event.player)
                if player is not None and player.scouting == "ploy":
                    self._ploy_discount(ctx, player, event.gambit)
            case GambitPassed() if s.turning_point == 1 and s.gambit_turn is not None:
                player = s.players.get(event.player)
                if player is not None and player.primary_op is None:
                    ctx.broke(
                        f"{player.name} has not selected a primary op: in the first turning point each player selects one "
                        "(PrimaryOpSelected, a STRATEGIC GAMBIT) before passing",
                        "002 step 5",
                    )

    def _ploy_discount(self, ctx: Ctx, player: PlayerState, gambit: str) -> None:
        """Ploy: one strategy ploy costs 0CP in the first turning point (002 step 4)."""
        if player.scouting_used is not None:
            ctx.broke(
                f"{player.name} already used the Ploy scouting option on {player.scouting_used}; it makes one strategy ploy "
                f"cost 0CP in the first turning point, so {gambit} costs its CP",
                "002 step 4",
            )
            return
        player.scouting_used = gambit

    def free_ploy(self, state: GameState, player: str, ploy: str, cp: int) -> bool:
        """The strategy ploy the Ploy scouting option was spent on costs 0CP in TP1 (002 step 4;
        check_event has recorded which one before the shared handler asks)."""
        return cp == 0 and state.turning_point == 1 and state.players[player].scouting_used == ploy

    def extra_equipment(self, ctx: Ctx, event: EquipmentSelected) -> None:
        """Equip: select one new additional equipment option, after the scouting reveal (002 step 4)."""
        player = ctx.state.players[event.player]
        if not (player.scouting == "equip" and player.scouting_revealed):
            ctx.broke(f"{event.player} already selected equipment; only the Equip scouting option, once revealed, adds one more option", "002 step 4")
        elif player.scouting_used is not None:
            ctx.invalid(f"{event.player} already took the Equip scouting option's extra equipment ({player.scouting_used})", "002 step 4")
        if len(event.equipment) != 1:
            ctx.invalid(f"Equip adds exactly one new equipment option, not {len(event.equipment)}", "002 step 4")
        option = event.equipment[0]
        player.equipment = player.equipment or []
        if option in player.equipment:
            ctx.broke(f"{event.player} already has {option}; each equipment option can be selected once", "pg 50")
        player.equipment.append(option)
        if player.scouting == "equip":
            player.scouting_used = option

    def on_battle_start(self, ctx: Ctx) -> None:
        """The revealed scouting options stand in for TP1's roll-off (002 step 5): the winner
        has initiative; with the same option the player without set-up initiative decides."""
        super().on_battle_start(ctx)
        s = ctx.state
        s.rolloff = "initiative"
        assert s.setup_initiative is not None, "set-up initiative is decided before the battle"
        s.decider = scouting_winner(s) or s.opponent(s.setup_initiative)

    def on_turning_point_end(self, ctx: Ctx) -> None:
        s = ctx.state
        last = s.turning_point == self.turning_points
        if last:
            hidden = [n for n, p in s.players.items() if p.primary_op and not p.primary_op_revealed]
            if hidden:
                ctx.invalid(f"reveal each primary op (PrimaryOpRevealed) before the battle ends; still hidden: {', '.join(hidden)}", "002 step 7")
        super().on_turning_point_end(ctx)
        if last:
            for name, p in s.players.items():
                if p.primary_op:
                    vp = p.vp.get(p.primary_op, 0)
                    ctx.score(name, "primary", ceil(vp / 2), f"primary op {p.primary_op}: half of its {vp}VP, rounded up")

    # --- what a spectator may see -----------------------------------------------------------

    def secrets(self, state: GameState, player: str) -> dict[str, tuple[str | None, bool]]:
        p = state.players[player]
        return {
            "tac_op": (f"{p.tac_op} ({p.tac_op_archetype})" if p.tac_op else None, p.tac_op_revealed),
            "scouting": (p.scouting, p.scouting_revealed),
            "primary_op": (p.primary_op, p.primary_op_revealed),
        }

    def hidden(self, state: GameState | None, event: Event) -> bool:
        """Secret choices, their reveals and tac op VP reasons, until the reveal at `state`."""
        if state is None:
            return event.secret or isinstance(event, TacOpScored)
        p = state.players.get(getattr(event, "player", ""))
        match event:
            case TacOpSelected() | TacOpRevealed() | TacOpScored():
                return not (p and p.tac_op_revealed)
            case ScoutingSelected():
                return not (p and p.scouting_revealed)
            case ScoutingRevealed():
                return not any(q.scouting_revealed for q in state.players.values())
            case PrimaryOpSelected() | PrimaryOpRevealed():
                return not (p and p.primary_op_revealed)
        return False

    def hidden_score(self, state: GameState, scored: VPScored) -> bool:
        return scored.op == "tac" and not state.players[scored.player].tac_op_revealed


def scouting_winner(s: GameState) -> str | None:
    """The player whose revealed scouting option beats the other's (None: the same option)."""
    (a, pa), (b, pb) = s.players.items()
    if pa.scouting and BEATS.get(pa.scouting) == pb.scouting:
        return a
    if pb.scouting and BEATS.get(pb.scouting) == pa.scouting:
        return b
    return None


# --- tac op (002 step 2) -----------------------------------------------------------------------


@handles(TacOpSelected)
def tac_op_selected(ctx: Ctx, e: TacOpSelected) -> None:
    s = ctx.state
    player = ctx.player(e.player)
    if s.phase != "setup" or any(o.set_up for o in s.scan()):
        ctx.invalid("tac ops are selected during the set-up, after operatives and equipment and before operatives are set up", "002 step 2")
    if not s.cp_setup_given:
        ctx.invalid("tac ops are selected after every player has selected operatives and equipment", "002 step 2")
    if player.tac_op is not None:
        ctx.invalid(f"{e.player} already selected a tac op", "002 step 2")
    if not e.tac_op.strip():
        ctx.invalid("the tac op's name is empty; give it as printed on the card", "tac_op")
    archetype = next((a for a in ARCHETYPES if a.casefold() == e.archetype.strip().casefold()), None)
    if archetype is None:
        ctx.invalid(f"{e.archetype!r} is not an archetype; tac ops come from {', '.join(ARCHETYPES)}", "002 step 2")
    own = [a.casefold() for a in player.archetypes]
    if not own:
        ctx.broke(
            f"{e.player}'s kill team has no archetypes recorded (PlayerJoined.archetypes, the roster's `archetypes`), so "
            "the tac op cannot be checked against them",
            "002 step 2",
        )
    elif archetype.casefold() not in own:
        ctx.broke(
            f"{player.kill_team} ({e.player}) has the archetypes {', '.join(player.archetypes)}, not {archetype}; a tac op "
            "is selected from one of the kill team's archetypes",
            "002 step 2",
        )
    player.tac_op, player.tac_op_archetype = e.tac_op.strip(), archetype


@handles(TacOpRevealed)
def tac_op_revealed(ctx: Ctx, e: TacOpRevealed) -> None:
    player = ctx.player(e.player)
    if player.tac_op is None:
        ctx.invalid(f"{e.player} has not selected a tac op to reveal", "002 step 2")
    if player.tac_op_revealed:
        ctx.invalid(f"{e.player}'s tac op ({player.tac_op}) is already revealed", "002")
    player.tac_op_revealed = True


@handles(TacOpScored)
def tac_op_scored(ctx: Ctx, e: TacOpScored) -> None:
    """Tac op VP as the players work them out from the card (not in the sources), capped at 6."""
    s = ctx.state
    player = ctx.player(e.player)
    if s.turning_point < 1:
        ctx.invalid("tac op VP are scored during the battle", "002")
    if player.tac_op is None:
        ctx.invalid(f"{e.player} has no tac op; select one in the set-up (TacOpSelected)", "002 step 2")
    if e.vp < 1:
        ctx.invalid(f"a tac op scores 1VP or more at a time, not {e.vp}", "vp")
    if not e.reason.strip():
        ctx.invalid("say what on the tac op card scored the VP", "reason")
    have = player.vp.get("tac", 0)
    if have + e.vp > OP_CAP:
        ctx.invalid(f"{e.player} has {have}VP from their tac op; {e.vp}VP more would pass its cap of {OP_CAP}VP (at most {OP_CAP - have}VP more)", "002 step 5")
    ctx.score(e.player, "tac", e.vp, e.reason.strip())


# --- scouting (002 step 4) ---------------------------------------------------------------------


@handles(ScoutingSelected)
def scouting_selected(ctx: Ctx, e: ScoutingSelected) -> None:
    s = ctx.state
    player = ctx.player(e.player)
    if s.phase != "setup":
        ctx.invalid("the scouting step is part of the set-up, before the first turning point", "002 step 4")
    if not s.operatives or not all(o.set_up for o in s.scan()):
        ctx.invalid("scouting options are selected after every operative is set up", "002 step 4")
    if e.option not in BEATS:
        ctx.invalid(f"{e.option!r} is not a scouting option; pick equip, ploy or reposition", "002 step 4")
    if player.scouting is not None:
        ctx.invalid(f"{e.player} already selected a scouting option", "002 step 4")
    player.scouting = e.option


@handles(ScoutingRevealed)
def scouting_revealed(ctx: Ctx, e: ScoutingRevealed) -> None:
    s = ctx.state
    if any(p.scouting_revealed for p in s.players.values()):
        ctx.invalid("the scouting options were already revealed; they are revealed once, together", "002 step 4")
    waiting = [n for n, p in s.players.items() if p.scouting is None]
    if waiting:
        ctx.invalid(f"the scouting options are revealed together once each player has selected one; still to select: {', '.join(waiting)}", "002 step 4")
    for p in s.players.values():
        p.scouting_revealed = True


# --- primary op (002 step 5, step 7) -----------------------------------------------------------


@handles(PrimaryOpSelected)
def primary_op_selected(ctx: Ctx, e: PrimaryOpSelected) -> None:
    """A STRATEGIC GAMBIT of the first turning point: it takes the player's turn in the gambit step."""
    s = ctx.state
    player = ctx.player(e.player)
    if s.turning_point != 1 or s.phase != "strategy":
        when = "the set-up" if s.phase == "setup" else f"turning point {s.turning_point}, {s.phase} phase"
        ctx.invalid(f"a primary op is selected in the first turning point's gambit step, not in {when}", "002 step 5")
    if e.op not in PRIMARY_OPS:
        ctx.invalid(f"{e.op!r} is not an op; the primary op is one of {', '.join(PRIMARY_OPS)}", "002 step 5")
    if player.primary_op is not None:
        ctx.invalid(f"{e.player} already selected a primary op", "002 step 5")
    check_gambit_turn(ctx, e.player)
    player.primary_op = e.op
    s.passes_in_a_row = 0
    s.gambit_turn = s.next_in_order(e.player)


@handles(PrimaryOpRevealed)
def primary_op_revealed(ctx: Ctx, e: PrimaryOpRevealed) -> None:
    """Revealed at the end of the battle: after turning point 4's last activation, before it ends."""
    s = ctx.state
    player = ctx.player(e.player)
    last = ctx.ruleset.turning_points
    ended = s.turning_point == last and s.phase == "firefight" and s.activation is None and not any(o.status == "ready" for o in s.scan())
    if not ended:
        ctx.invalid(
            f"primary ops are revealed at the end of the battle: once every operative is expended in turning point {last}, before it ends", "002 step 7"
        )
    if player.primary_op is None:
        ctx.invalid(f"{e.player} has no primary op to reveal", "002 step 5")
    if player.primary_op_revealed:
        ctx.invalid(f"{e.player}'s primary op is already revealed", "002 step 7")
    player.primary_op_revealed = True


RULESET = ApprovedOps()
