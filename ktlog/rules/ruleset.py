"""The ruleset protocol: everything the shared machinery, the legal moves, the simulator and the
faces ask a ruleset. Each ruleset is a package in ktlog/rulesets/ whose `rules` module defines a
subclass and names its instance `RULESET`; the abstract hooks are those every ruleset supplies."""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..state import GameState, OperativeState, Result, VPScored
from . import rulings
from .context import Ctx

if TYPE_CHECKING:
    from ..events import Action, EquipmentSelected, Event, RolledOff, ShootingAttack, Weapon


@cache
def _mission_actions(events: frozenset[type]) -> tuple[type[Action], ...]:
    """The mission actions on a marker among these events, by name."""
    from ..events import Action

    return tuple(sorted((cls for cls in events if issubclass(cls, Action) and cls.mission and "marker" in cls.__struct_fields__), key=lambda cls: cls.__name__))


def listing(names: list[str]) -> str:
    """Names as a person lists them: "Ana", "Ana and Ben", "Ana, Ben and Cleo"."""
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


class Ruleset(ABC):
    """The hooks the shared machinery (sequence, actions, attacks) and the layers above ask a ruleset about."""

    # --- what the ruleset is ----------------------------------------------------------------

    name: ClassVar[str]
    title: ClassVar[str]
    source: ClassVar[str]
    events: ClassVar[frozenset[type]] = frozenset()
    """The event types a game of this ruleset accepts (meta events always)."""
    simulator: ClassVar[str | None] = None
    """The module whose `Simulator` class plays random games of it (loaded only when asked for)."""
    players: ClassVar[tuple[int, int]] = (2, 2)
    turning_points: ClassVar[int | None] = 4
    """None: the mission's victory or defeat ends the battle (Joint Ops)."""
    objective_markers: ClassVar[int] = 3
    marker_rule: ClassVar[str] = "pg 81"
    """Where the number and placing of the objective markers is written."""
    ops: ClassVar[tuple[str, ...]] = ()
    """The ops VP are scored in, in display order (each is shown by its name)."""
    max_vp: ClassVar[dict[str, int]] = {}
    """The most VP a player scores in each op (see `vp_caps`)."""
    crit_ops: ClassVar[dict[int, str]] = {}
    """Crit op by the initiative player's D3."""
    win_features: ClassVar[tuple[str, ...] | None] = None
    """What the win-probability model reads of its games, as data: names of
    `ktlog.analytics.winprob_features.CATALOGUE`, `vp:OP` and `room:OP` for its ops. None: the
    shared list and its ops' VP."""
    win_board_features: ClassVar[tuple[str, ...]] = ()
    """The features read from the board, added after `win_features` when a league's games have
    positions (issue 44): names of the same catalogue."""
    pve: ClassVar[bool] = False
    """Played against non-player operatives: no opponent to rank, so left out of the league
    unless asked for by name."""
    citations: ClassVar[dict[str, str]] = {}
    """Where this ruleset writes the rules the shared machinery cites by KT24 page: "pg 38" ->
    "001 Firefight phase". Empty: the KT24 pages are its own."""
    moves: ClassVar[str | None] = None
    """The module whose MOVES has the kinds of move only this ruleset has (tac op, Overwatch ...),
    by name, with their candidates (ktlog.play.moves adds them to the shared kinds)."""

    # --- what a new game asks for it ---------------------------------------------------------

    datacards: ClassVar[str] = "kt24"
    """The edition of the datacards its kill teams use (a roster file's `datacards`)."""
    labels: ClassVar[tuple[str, ...]] = ()
    """GameCreated labels a new game of it asks for besides the usual ones (KT21: the dataslate)."""
    label_hints: ClassVar[dict[str, str]] = {}
    """What the new-game form shows in each of `labels` while it is empty (an example, what empty means)."""
    missions: ClassVar[tuple[str, ...]] = ()
    """The missions a new game chooses from (the first by default); empty: any, or none."""
    killzones: ClassVar[tuple[str, ...]] = ()
    """The killzones a new game is played on (`ktlog new --killzone`, the new-game form; a
    stored or imported game keeps whatever it names); empty: any name."""
    npos: ClassVar[bool] = False
    """Whether one side is the non-player operatives (Joint Ops: the players' side is one player)."""

    def npo_budget(self, mission: str | None) -> tuple[str, int] | None:
        """The mission's title and the NPOs' combined Wounds at most, when `npos`."""
        return None

    def vp_caps(self, state: GameState) -> tuple[dict[str, int], int]:
        """The most VP a player scores in each op, and in all: the score's maximum."""
        return dict(self.max_vp), sum(self.max_vp.values())

    # --- the players ---------------------------------------------------------------------------

    def player_order(self, state: GameState) -> list[str]:
        """The players in the order they act once it is settled (initiative first, pg 36; the
        roll-offs' order in Multiplayer Ops, pg 99), else in the order they joined."""
        return list(state.order) or list(state.players)

    def npo_side(self, state: GameState) -> str | None:
        """The side of the non-player operatives (Joint Ops, pg 87), if there is one."""
        return next((name for name, p in state.players.items() if p.npo), None)

    def shared_win(self, state: GameState) -> list[str]:
        """The players sharing the win (ruling 5: tied leaders in Multiplayer Ops); [] when one
        player wins or every player draws."""
        r = state.result
        return list(r.winners) if r and r.draw and 0 < len(r.winners) < len(state.players) else []

    @property
    def kill_op(self) -> bool:
        """Whether a kill op scores, so a kill grade means something (not in KT21, Multiplayer or Joint Ops)."""
        return "kill" in self.ops

    # --- set-up and the turning point (every ruleset supplies these) --------------------------

    @abstractmethod
    def rolled_off(self, ctx: Ctx, e: RolledOff) -> None:
        """Who decides after a roll-off (state.decider), and what a tie means."""

    @abstractmethod
    def order_from(self, state: GameState, first: str) -> list[str]:
        """The player order once `first` has initiative."""

    @abstractmethod
    def marker_placer(self, state: GameState, index: int) -> str | None:
        """Who places the objective marker at `index` (None: any player)."""

    @abstractmethod
    def ready_cp(self, state: GameState, player: str) -> int:
        """CP a player gains in the ready step of the current turning point."""

    @abstractmethod
    def result(self, state: GameState) -> Result:
        """The result once the battle is over."""

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

    # --- hooks with the two-player KT24 behaviour by default ----------------------------------

    def on_battle_start(self, ctx: Ctx) -> None:
        """Anything to note when the first turning point starts."""

    def on_incapacitated(self, ctx: Ctx, victim: OperativeState, by_player: str | None) -> None:
        """Score what an incapacitation scores."""

    def mission_actions(self, state: GameState) -> tuple[type[Action], ...]:
        """The mission actions on an objective marker (Secure, Loot, Sabotage ...) the game's op
        may allow, by their events: every one of the ruleset's unless its op narrows them."""
        return _mission_actions(self.events)

    def mission_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        """Check and apply a mission action (Secure, Loot, ...)."""
        ctx.broke(f"{event.name} is not a mission action of {self.title}", self.source)

    def on_turning_point_end(self, ctx: Ctx) -> None:
        """Score the end of a turning point."""

    def can_pick_up(self, state: GameState, marker: str) -> bool:
        return False

    def concession(self, state: GameState, player: str) -> Result:
        """The result when a player concedes (ruling 8: they lose; the only other player wins)."""
        winner = rulings.concession_result(list(state.players), player)
        return Result(winner=winner, draw=False, ended_by="concession", conceded_by=player, winners=[winner] if winner else [])

    def check_event(self, ctx: Ctx, event: Event) -> None:
        """This ruleset's own checks on an event, made before the shared handler applies it."""

    def marker_count(self, state: GameState) -> tuple[int, int | None]:
        """Objective markers: how many are set up before the operatives, and at most how many
        (None: as many as the mission map shows)."""
        return self.objective_markers, self.objective_markers

    def gains_cp(self, state: GameState, player: str) -> bool:
        """Whether a player gains the set-up CP (pg 110)."""
        return True

    def move(self, state: GameState, operative: OperativeState) -> int:
        """The operative's Move now, in inches: 2" less when injured, never changed below 4" (pg 47-48)."""
        return operative.move

    def repeats(self, operative: OperativeState, action: str) -> int:
        """How many times the operative may perform an action in one activation (pg 39: once),
        twice when its datacard says so (double_action; precedence, pg 39; the Heavy NPOs, pg 89)."""
        return 2 if action in operative.datacard.double_action else 1

    def blast_secondary(self, ctx: Ctx, primary: ShootingAttack, secondary: ShootingAttack) -> None:
        """Check a Blast weapon's secondary target against its primary target: secondary targets
        are in cover and obscured if the primary target was (Blast, 000 pg 111)."""
        missing = [name for name in ("cover", "obscured") if getattr(primary, name) and not getattr(secondary, name)]
        if missing:
            was = " and ".join("in cover" if m == "cover" else m for m in missing)
            ctx.broke(
                f"{secondary.target!r} is a secondary target and the primary target {primary.target!r} was {was}, so {secondary.target!r} "
                f"is too: record its sequence with {' and '.join(missing)}",
                "Blast, pg 111",
            )

    def free_ploy(self, state: GameState, player: str, ploy: str, cp: int) -> bool:
        """Whether a ploy of the player's roster may cost `cp` instead of its printed CP here,
        without an override (Approved Ops: the Ploy scouting option makes one cost 0CP)."""
        return False

    def progress(self, state: GameState) -> dict[str, str | int]:
        """What `ktlog score` shows besides VP: the mission's progress (none for VP missions)."""
        return {}

    # --- secret choices and later equipment (Approved Ops) ------------------------------------

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

    # --- another edition's sequence and datacards (KT21) --------------------------------------

    def weapon_as_played(self, weapon: Weapon) -> Weapon:
        """The weapon with its rules in the shared vocabulary of pg 111 (KT21: AP1 is Piercing 1)."""
        return weapon

    def after_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        """What an action does after the shared handler resolved it, before the activation goes on."""

    def after_activation(self, ctx: Ctx, operative: OperativeState) -> None:
        """Who is to activate next once an activation (or counteract) ends: the next player (pg 38)."""
        ctx.state.next_player = ctx.state.next_in_order(operative.player)

    def cite(self, rule: str) -> str:
        """Where this ruleset writes a rule the shared machinery cites by KT24 page: each part of
        the citation ("Fight, pg 45") found in `citations` is replaced, any other KT24 page is
        named as KT24's; a ruleset without citations keeps the KT24 pages as they are."""
        if not self.citations:
            return rule
        parts = (self.citations.get(part, f"KT24 {part}" if part.startswith("pg ") else part) for part in rule.split(", "))
        return ", ".join(parts)
