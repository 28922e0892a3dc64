"""The KT24 sequence shared by the mission packs (pg 36-39, pg 110), and its two-player form."""

from __future__ import annotations

from ... import events as ev
from ...rules.critop import CRIT_OPS
from ...rules.ruleset import Ruleset
from ...state import GameState, Result

DAMAGE_AND_MISSION_ACTIONS = ("firepower", "injured", "kill_pace", *(f"operatives@{op}" for op in CRIT_OPS.values()))
"""Win-probability features every KT24 pack reads: the damage race (who kills faster, whose
operatives are injured) and, in each crit op, the operatives left to take its mission actions (pg 85)."""

KT24_EVENTS = frozenset(
    {
        ev.GameCreated,
        ev.PlayerJoined,
        ev.OperativeAdded,
        ev.RolledOff,
        ev.InitiativeDecided,
        ev.ObjectiveMarkerSetUp,
        ev.CritOpRolled,
        ev.DropZoneChosen,
        ev.EquipmentSelected,
        ev.OperativeSetUp,
        ev.TurningPointStarted,
        ev.StrategicGambitUsed,
        ev.GambitPassed,
        ev.FirefightPloyUsed,
        ev.CommandPointsAdjusted,
        ev.ResourceAdjusted,
        ev.OperativeActivated,
        ev.ActivationEnded,
        ev.CounteractStarted,
        ev.AplModified,
        ev.Repositioned,
        ev.Dashed,
        ev.FellBack,
        ev.Charged,
        ev.MarkerPickedUp,
        ev.MarkerPlaced,
        ev.Shot,
        ev.Fought,
        ev.MarkerSecured,
        ev.MarkerLooted,
        ev.TransmissionInitiated,
        ev.KillzoneActionPerformed,
        ev.UniqueActionPerformed,
        ev.DamageInflicted,
        ev.WoundsRegained,
        ev.ObjectivesControlled,
        ev.TurningPointEnded,
        ev.GameConceded,
    }
)
"""The events of every KT24 mission pack (pg 36-55, pg 110)."""


class Kt24(Ruleset):
    events = KT24_EVENTS
    turning_points = 4
    killzones = ("volkus", "gallowdark", "bheta-decima")
    """The Core Book's killzones (000, pg 56-77)."""

    def order_from(self, state: GameState, first: str) -> list[str]:
        """Player order with `first` at its head (the player with initiative)."""
        names = list(state.players)
        i = names.index(first)
        return names[i:] + names[:i]


class Kt24TwoPlayer(Kt24):
    players = (2, 2)

    def rolled_off(self, ctx, e: ev.RolledOff) -> None:
        """The winner decides who has initiative (InitiativeDecided follows). Set-up: a tie is
        rolled again (pg 55); a turning point: a tie is decided by the tie rule (pg 37, pg 110)."""
        s = ctx.state
        winner = self.roll_off_winner(ctx, e, "roll-off, pg 55")
        if winner is not None:
            s.decider = winner
        else:
            s.decider = None if e.purpose == "setup" else self.tie_decider(s)
        s.rolloff = e.purpose

    def ready_cp(self, state: GameState, player: str) -> int:
        """1CP each; from TP2 the player without initiative gains 2CP instead (pg 37)."""
        return 2 if state.turning_point > 1 and player != state.initiative else 1

    def tie_decider(self, state: GameState) -> str:
        """TP1: the player without set-up initiative (pg 110); later: the player without
        initiative in the previous turning point (pg 37)."""
        before = state.setup_initiative if state.turning_point == 1 else state.initiative_in(state.turning_point - 1)
        assert before is not None, "a roll-off is tied only after set-up initiative is decided"
        return state.opponent(before)

    def marker_placer(self, state: GameState, index: int) -> str | None:
        """pg 81: the player without initiative places the centreline marker, then each player
        one, initiative first."""
        if state.setup_initiative is None or index >= 3:
            return None
        without = state.opponent(state.setup_initiative)
        return [without, state.setup_initiative, without][index]

    def result(self, state: GameState) -> Result:
        """Most VP wins; equal VP is a draw (pg 110)."""
        return most_vp(state)


def most_vp(state: GameState) -> Result:
    """The player with the most VP wins; players tied for the most share the win (a draw)."""
    best = max(p.total_vp for p in state.players.values())
    winners = [n for n, p in state.players.items() if p.total_vp == best]
    return Result(winner=winners[0] if len(winners) == 1 else None, draw=len(winners) > 1, ended_by="battle", winners=winners)
