"""KT24 Preliminary Ops (pg 81-85): kill op and crit op (Secure, Loot, Transmission)."""

from __future__ import annotations

from ...events import Action, MarkerLooted
from ...rules import rulings
from ...rules.context import Ctx
from ...rules.critop import CRIT_OPS, crit_op_action, crit_op_actions, markers_held
from ...rules.killop import kill_grade
from ...state import GameState, OperativeState, RuleWarning
from ..kt24.rules import DAMAGE_AND_MISSION_ACTIONS, Kt24TwoPlayer

LOOT_VP_PER_TP = 2


BOARD_AND_CRIT_OP = (
    *(
        "vp",
        "room",
        "cp",
        "initiative",
        "operatives",
        "operatives_share",
        "wounds_share",
        "to_activate",
        "kill_grade",
        "top_kill_grade",
    ),  # the board, the kill op
    *("markers", "holds_marker", "most_markers", "loot_left", "vp@Loot", "vp@Transmission"),  # the crit op's scoring
    *DAMAGE_AND_MISSION_ACTIONS,
)
"""The features of KT24's two-player packs: the board, the kill op's end-of-battle VP and the crit
op's scoring (pg 84-85), the damage race and who has the operatives for the crit op's actions."""
POSITIONS = ("on_markers", "marker_distance", "in_cover")
"""Where the operatives stand, in a game with positions (issue 44): read after the other
features when a league's games have positions."""


class PreliminaryOps(Kt24TwoPlayer):
    name = "kt24-preliminary"
    title = "KT24 Preliminary Ops"
    source = "pg 81-85"
    simulator = "ktlog.ruleset_play.kt24.simulator"
    ops = ("crit", "kill")
    max_vp = {"crit": 6, "kill": 6}
    win_features = (*BOARD_AND_CRIT_OP, "vp:crit", "vp:kill")
    win_board_features = POSITIONS
    """The board, the kill op's end-of-battle VP and the crit op's scoring (pg 84-85) as the model reads them."""
    crit_ops = CRIT_OPS

    def on_battle_start(self, ctx: Ctx) -> None:
        """Flag kill grade rows outside the table (ruling 1)."""
        for player in ctx.state.players:
            _, warning = rulings.kill_grade_row(ctx.state.starting_operatives(player))
            if warning:
                message = f"{ctx.state.opponent(player)}'s kill op: {warning}"
                ctx.state.warnings.append(RuleWarning(seq=ctx.seq, rule="ruling 1, pg 84", message=message, reason="ruling"))

    # --- kill op (pg 84) --------------------------------------------------------------------

    def on_incapacitated(self, ctx: Ctx, victim: OperativeState, by_player: str | None) -> None:
        """Any incapacitated enemy raises its opponent's kill grade; each new grade scores 1VP."""
        scorer = ctx.state.players[ctx.state.opponent(victim.player)]
        scorer.enemies_incapacitated += 1
        grade = kill_grade(ctx.state.starting_operatives(victim.player), scorer.enemies_incapacitated)
        if grade > scorer.kill_grade:
            ctx.score(scorer.name, "kill", grade - scorer.kill_grade, f"kill grade {grade}")
            scorer.kill_grade = grade

    # --- crit op (pg 84-85) -----------------------------------------------------------------

    def mission_actions(self, state: GameState) -> tuple[type[Action], ...]:
        return crit_op_actions(state)

    def mission_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        marker = crit_op_action(ctx, event, operative, "pg 84-85")
        if isinstance(event, MarkerLooted):
            player = ctx.state.players[operative.player]
            if player.loot_vp_this_tp < LOOT_VP_PER_TP:
                player.loot_vp_this_tp += 1
                ctx.score(player.name, "crit", 1, f"looted {marker.id}")

    def on_turning_point_end(self, ctx: Ctx) -> None:
        state = ctx.state
        tp = state.turning_point
        if tp > 1 and state.crit_op in ("Secure", "Transmission"):
            counts = markers_held(ctx, "pg 85")  # markers secured by each kill team (Secure), or transmitting ones each controls
            for player in state.players:
                mine, theirs = counts[player], counts[state.opponent(player)]
                what = "secured" if state.crit_op == "Secure" else "transmitting, controlled"
                if mine:
                    ctx.score(player, "crit", 1, f"{mine} marker(s) {what}")
                if mine > theirs:
                    ctx.score(player, "crit", 1, f"more markers {what} than the opponent")
        if tp == self.turning_points:
            for player, p in state.players.items():
                if p.kill_grade > state.players[state.opponent(player)].kill_grade:
                    ctx.score(player, "kill", 1, "higher kill grade at the end of the battle")


RULESET = PreliminaryOps()
