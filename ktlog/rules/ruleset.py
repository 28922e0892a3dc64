"""What a ruleset decides; each ruleset is a small subclass with its data (issue 3 adds more)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..state import GameState, OperativeState, Result, VPScored
from . import rulings

if TYPE_CHECKING:
    from ..events import Action, EquipmentSelected, Event, RolledOff, Weapon
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
    marker_rule: ClassVar[str] = "pg 81"
    """Where the number and placing of the objective markers is written."""
    ops: ClassVar[tuple[str, ...]] = ()
    """The ops VP are scored in, in display order."""

    @property
    def kill_op(self) -> bool:
        """Whether a kill op scores, so a kill grade means something (not in KT21, Multiplayer or Joint Ops)."""
        return "kill" in self.ops
    max_vp: ClassVar[dict[str, int]] = {}
    crit_ops: ClassVar[dict[int, str]] = {}
    """Crit op by the initiative player's D3."""

    def ready_cp(self, state: GameState, player: str) -> int:
        """CP a player gains in the ready step of the current turning point."""
        raise NotImplementedError

    def tie_decider(self, state: GameState) -> str:
        """Who decides initiative when the turning point's roll-off is a tie."""
        raise NotImplementedError

    @staticmethod
    def roll_off_winner(ctx: Ctx, e: RolledOff, rule: str) -> str | None:
        """The one player with the highest of a two-player roll-off's D6s (one for each player,
        `rule` says where), or None on a tie."""
        s = ctx.state
        if set(e.rolls) != set(s.players):
            ctx.invalid(f"a roll-off needs one D6 for each player ({', '.join(s.players)})", rule)
        best = max(e.rolls.values())
        leaders = [p for p, v in e.rolls.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

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

    def concession(self, state: GameState, player: str) -> Result:
        """The result when a player concedes (ruling 8: they lose; the only other player wins)."""
        winner = rulings.concession_result(list(state.players), player)
        return Result(winner=winner, draw=False, ended_by="concession", conceded_by=player, winners=[winner] if winner else [])

    # --- hooks whose defaults keep the two-player behaviour (Joint Ops needs them) -----------

    def check_event(self, ctx: Ctx, event: Event) -> None:
        """This ruleset's own checks on an event, made before the shared handler applies it."""

    def marker_count(self, state: GameState) -> tuple[int, int | None]:
        """Objective markers: how many are set up before the operatives, and at most how many
        (None: as many as the mission map shows)."""
        return self.objective_markers, self.objective_markers

    def gains_cp(self, state: GameState, player: str) -> bool:
        """Whether a player gains the set-up CP (pg 110)."""
        return True

    def repeats(self, operative: OperativeState, action: str) -> int:
        """How many times the operative may perform an action in one activation (pg 39: once)."""
        return 1

    def progress(self, state: GameState) -> dict[str, str | int]:
        """What `ktlog score` shows besides VP: the mission's progress (none for VP missions)."""
        return {}

    # --- hooks for secret choices and later equipment (Approved Ops needs them) --------------

    def extra_equipment(self, ctx: Ctx, event: EquipmentSelected) -> None:
        """A player's second EquipmentSelected (Approved Ops: the Equip scouting option)."""
        ctx.invalid(f"{event.player} already selected equipment", "pg 110")

    def secrets(self, state: GameState, player: str) -> dict[str, tuple[str | None, bool]]:
        """A player's secret choices: name -> (the choice, or None before it is made; revealed yet)."""
        return {}

    def hidden(self, state: GameState | None, event: Event) -> bool:
        """Whether a spectator must not yet see what the event says, at the moment `state`
        (None: no moment given, so nothing is revealed)."""
        return event.secret

    def hidden_score(self, state: GameState, scored: VPScored) -> bool:
        """Whether a spectator must not yet see why VP were scored (the reason names a secret)."""
        return False

    # --- hooks for another edition's sequence and datacards (KT21 needs them) ----------------

    def weapon_as_played(self, weapon: Weapon) -> Weapon:
        """The weapon with its rules in the shared vocabulary of pg 111 (KT21: AP1 is Piercing 1)."""
        return weapon

    def after_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        """What an action does after the shared handler resolved it, before the activation goes on."""

    def after_activation(self, ctx: Ctx, operative: OperativeState) -> None:
        """Who is to activate next once an activation (or counteract) ends: the next player (pg 38)."""
        ctx.state.next_player = ctx.state.next_in_order(operative.player)

    def cite(self, rule: str) -> str:
        """Where this ruleset writes a rule the shared machinery cites by KT24 page ("pg 38")."""
        return rule
