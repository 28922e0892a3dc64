"""The KT24 two-player sequence shared by the PvP mission packs (pg 36-39, pg 110)."""

from __future__ import annotations

from ..state import GameState, Result
from .ruleset import Ruleset


class Kt24TwoPlayer(Ruleset):
    players = (2, 2)
    turning_points = 4

    def ready_cp(self, state: GameState, player: str) -> int:
        """1CP each; from TP2 the player without initiative gains 2CP instead (pg 37)."""
        return 2 if state.turning_point > 1 and player != state.initiative else 1

    def tie_decider(self, state: GameState) -> str:
        """TP1: the player without set-up initiative (pg 110); later: the player without
        initiative in the previous turning point (pg 37)."""
        if state.turning_point == 1:
            return state.opponent(state.setup_initiative)
        return state.opponent(state.initiative_in(state.turning_point - 1))

    def result(self, state: GameState) -> Result:
        """Most VP wins; equal VP is a draw (pg 110)."""
        totals = sorted(((p.total_vp, name) for name, p in state.players.items()), reverse=True)
        (best, leader), (second, _) = totals[0], totals[1]
        return Result(winner=None if best == second else leader, draw=best == second, ended_by="battle")
