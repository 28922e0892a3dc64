"""What a rule handler works with: the state being built, the event, and the checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from ..errors import InvalidEvent, RuleViolation
from ..events import Event
from ..state import CPChanged, CPKind, GameState, OperativeState, PlayerState, RuleWarning, VPScored

if TYPE_CHECKING:
    from .ruleset import Ruleset

E = TypeVar("E", bound=Event)
Handler = Callable[["Ctx", E], None]
HANDLERS: dict[type[Event], Handler[Any]] = {}


def handles(*types: type[Event]) -> Callable[[Handler[Any]], Handler[Any]]:
    """Register a rule handler for event types (one handler per type)."""

    def register(fn: Handler[Any]) -> Handler[Any]:
        for t in types:
            assert t not in HANDLERS, f"two handlers for {t.__name__}"
            HANDLERS[t] = fn
        return fn

    return register


class Ctx:
    """One event being applied to a private copy of the state."""

    __slots__ = ("state", "event", "seq", "ruleset")

    def __init__(self, state: GameState, event: Event, seq: int, ruleset: Ruleset):
        self.state = state
        self.event = event
        self.seq = seq
        self.ruleset = ruleset

    # --- checks -----------------------------------------------------------------------------

    def broke(self, message: str, rule: str) -> None:
        """A rule is broken: raise RuleViolation, or with an override record a warning and go on.

        Handlers call it as `if <rule broken>: ctx.broke(...)`, so messages are only built
        when a rule is broken (folding a log checks tens of rules per event).
        """
        if self.event.override:  # in the ruleset's words (the reducer cites a raised rule alike)
            self.state.warnings.append(RuleWarning(seq=self.seq, rule=self.ruleset.cite(rule), message=message, reason=self.event.override))
            return
        raise RuleViolation(message, rule)

    def invalid(self, message: str, rule: str = "event") -> NoReturn:
        """The event cannot be applied at all, whatever override it carries."""
        raise InvalidEvent(message, rule)

    # --- look-ups ---------------------------------------------------------------------------

    def player(self, name: str) -> PlayerState:
        player = self.state.players.get(name)
        if player is None:
            known = ", ".join(self.state.players) or "none yet"
            raise InvalidEvent(f"no player called {name!r} in this game (players: {known})", "player")
        return player

    def operative(self, op_id: str) -> OperativeState:
        op = self.state.operatives.get(op_id)
        if op is None:
            raise InvalidEvent(f"no operative {op_id!r} in this game; `ktlog show GAME` lists them", "operative")
        return op

    def living(self, op_id: str, role: str = "operative") -> OperativeState:
        op = self.operative(op_id)
        if op.incapacitated:
            self.invalid(f"{role} {op_id!r} is incapacitated and can neither act nor be targeted", "pg 47")
        if op.status == "escaped":
            self.invalid(f"{role} {op_id!r} has escaped the killzone and can neither act nor be targeted", "Escape, pg 94")
        return op

    # --- effects ----------------------------------------------------------------------------

    def score(self, player: str, op: str, vp: int, reason: str) -> None:
        """Score VP for an op, remembering the moment (seq and turning point)."""
        if vp <= 0:
            return
        p = self.state.players[player]
        p.vp[op] = p.vp.get(op, 0) + vp
        self.state.vp_log.append(VPScored(seq=self.seq, turning_point=self.state.turning_point, player=player, op=op, vp=vp, reason=reason))

    def change_cp(self, player: str, delta: int, kind: CPKind, source: str) -> None:
        """Gain or spend CP; CP never goes below 0 (pg 54). Ploys and gambits are logged even
        when they cost 0CP, so statistics count every use."""
        p = self.player(player)
        if p.cp + delta < 0:
            raise RuleViolation(
                f"{player} has {p.cp}CP and cannot spend {-delta}CP on {source}; CP never goes below 0",
                "pg 54",
                overridable=False,
            )
        if delta or kind in ("gambit", "ploy"):
            p.cp += delta
            self.state.cp_log.append(CPChanged(seq=self.seq, turning_point=self.state.turning_point, player=player, delta=delta, kind=kind, source=source))
