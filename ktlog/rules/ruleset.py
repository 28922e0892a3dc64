"""What a ruleset decides; each ruleset is a small subclass with its data (issue 3 adds more)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..state import GameState, OperativeState, Result

if TYPE_CHECKING:
    from ..events import Action
    from .context import Ctx


class Ruleset:
    """The hooks the shared machinery (sequence, actions, attacks) asks a ruleset about."""

    events: ClassVar[frozenset[type]] = frozenset()
    """The event types a game of this ruleset accepts (meta events always)."""
    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    players: ClassVar[tuple[int, int]] = (2, 2)
    turning_points: ClassVar[int | None] = 4
    """None: the mission's victory or defeat ends the battle (Joint Ops)."""
    objective_markers: ClassVar[int] = 3
    ops: ClassVar[tuple[str, ...]] = ()
    """The ops VP are scored in, in display order."""
    max_vp: ClassVar[dict[str, int]] = {}
    crit_ops: ClassVar[dict[int, str]] = {}
    """Crit op by the initiative player's D3."""

    def ready_cp(self, state: GameState, player: str) -> int:
        """CP a player gains in the ready step of the current turning point."""
        raise NotImplementedError

    def tie_decider(self, state: GameState) -> str:
        """Who decides initiative when the turning point's roll-off is a tie."""
        raise NotImplementedError

    def on_battle_start(self, ctx: Ctx) -> None:
        """Anything to note when the first turning point starts."""

    def on_incapacitated(self, ctx: Ctx, victim: OperativeState, by_player: str | None) -> None:
        """Score what an incapacitation scores."""

    def mission_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        """Check and apply a mission action (Secure, Loot, ...)."""
        ctx.broke(f"{event.name} is not a mission action of {self.title}", self.source)

    def on_turning_point_end(self, ctx: Ctx) -> None:
        """Score the end of a turning point."""

    def can_pick_up(self, state: GameState, marker: str) -> bool:
        return False

    def result(self, state: GameState) -> Result:
        """The result once the battle is over."""
        raise NotImplementedError
