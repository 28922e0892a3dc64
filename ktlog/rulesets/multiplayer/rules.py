"""KT24 Multiplayer Ops (pg 98-103): three or four players, player order, elimination op and
crit op (Secure, Loot, Transmission), the most VP wins.

Player order replaces initiative everywhere (pg 99): every player rolls a D6, highest first, and
players tied keep rolling among themselves. Each roll is a `RolledOff` (set-up, then each
turning point); once the order is established the shared machinery takes it from there (drop
zones, set-up thirds, gambits and activations go round `state.order`).
"""

from __future__ import annotations

from ...events import Action, Event, InitiativeDecided, MarkerLooted, PlayerJoined, RolledOff
from ...rules import rulings
from ...rules.battle import order_established
from ...rules.context import Ctx
from ...rules.critop import CRIT_OPS, crit_op_action, crit_op_actions, markers_held
from ...rules.ruleset import listing
from ...state import GameState, OperativeState, Result, RuleWarning
from ..kt24.rules import DAMAGE_AND_MISSION_ACTIONS, KT24_EVENTS, Kt24, most_vp

PLAYER_ORDER = "player order, pg 99"
CRIT_OP_VP_PER_TP = 3
"""Each crit op scores at most 3VP per turning point (pg 103)."""
ELIMINATION_VP = {1: 2, 2: 1}
"""Elimination op VP by rank; 3rd and 4th score nothing (pg 102)."""
COUNTS_TWICE_FROM = 12
"""An enemy operative with a Wounds stat of 12 or more counts as two (pg 102)."""
NOT_BY_AN_OPERATIVE = ("hot", "mine")
"""Incapacitations the elimination op ignores even when an operative is named (pg 102: e.g. Hot)."""


def ranks(counts: dict[str, int]) -> dict[str, int]:
    """Rank the players who incapacitated any enemy: 1 + how many incapacitated more; tied
    players share the higher rank, and the next rank after a tie is skipped (pg 102)."""
    scoring = {p: n for p, n in counts.items() if n > 0}
    return {p: 1 + sum(other > n for other in scoring.values()) for p, n in scoring.items()}


def ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")


def split_by_roll(players: list[str], rolls: dict[str, int]) -> list[list[str]]:
    """Players grouped by their roll, highest first (each group in the order given)."""
    return [[p for p in players if rolls[p] == value] for value in sorted({rolls[p] for p in players}, reverse=True)]


class MultiplayerOps(Kt24):
    events = KT24_EVENTS - {InitiativeDecided}
    """Player order comes from the roll-offs alone: nobody decides initiative (pg 99)."""
    name = "kt24-multiplayer"
    title = "KT24 Multiplayer Ops"
    source = "pg 98-103"
    simulator = "ktlog.ruleset_play.multiplayer.simulator"
    players = (3, 4)
    marker_rule = "ruling 9, pg 99"
    ops = ("elimination", "crit")
    win_features = (
        "vp",
        "room",
        "cp",
        "initiative",
        "operatives",
        "operatives_share",
        "wounds_share",
        "to_activate",
        "markers",
        "vp:elimination",
        "vp:crit",
        "eliminations",
        *DAMAGE_AND_MISSION_ACTIONS,
    )
    max_vp = {"elimination": 6, "crit": 9}
    """Elimination: 2VP at the end of TP2, TP3 and TP4; crit: 3VP in each of them."""
    crit_ops = CRIT_OPS

    # --- player order (pg 99) ---------------------------------------------------------------

    def check_event(self, ctx: Ctx, event: Event) -> None:
        """Every player is in the player order: nobody joins once it is being established."""
        s = ctx.state
        if isinstance(event, PlayerJoined) and (s.setup_initiative or s.order_ties):
            ctx.invalid(f"{event.player!r} joins too late: every player joins before the roll-off for player order", PLAYER_ORDER)

    def rolled_off(self, ctx: Ctx, e: RolledOff) -> None:
        """One round of rolls towards player order: all players first, then each group still tied
        on its own, until every place is settled."""
        s = ctx.state
        if not s.order_ties:
            missing = [p for p in s.players if p not in e.rolls]
            if missing:
                ctx.invalid(f"every player rolls one D6 to establish player order; no roll for {listing(missing)}", PLAYER_ORDER)
            groups = [list(s.players)]
            tied = groups[0]
        else:
            groups = s.order_ties
            tied = next((g for g in groups if len(g) > 1 and set(g) == set(e.rolls)), [])
            if not tied:
                ctx.invalid(self._not_the_tied_players(groups, e.rolls), PLAYER_ORDER)
        i = groups.index(tied)
        groups = groups[:i] + split_by_roll(tied, e.rolls) + groups[i + 1 :]
        if any(len(g) > 1 for g in groups):
            s.order_ties, s.rolloff = groups, e.purpose
            return
        s.order_ties, s.rolloff, s.decider = [], None, None
        order_established(ctx, e.purpose, [g[0] for g in groups])

    @staticmethod
    def _not_the_tied_players(groups: list[list[str]], rolls: dict[str, int]) -> str:
        tied = [g for g in groups if len(g) > 1]
        still = f"still tied: {'; '.join(listing(g) for g in tied)}"
        others = [p for p in rolls if not any(p in g for g in tied)]
        if others:
            return f"{listing(others)} {'is' if len(others) == 1 else 'are'} not tied: only the players tied on a roll keep rolling ({still})"
        touched = [g for g in tied if set(g) & set(rolls)]
        if len(touched) > 1:
            return f"{listing(list(rolls))} are not tied with each other: each group of tied players rolls on its own ({still})"
        return f"{listing(touched[0])} are tied: all of them roll again, and only them ({still})"

    def ready_cp(self, state: GameState, player: str) -> int:
        return rulings.multiplayer_ready_cp(state.turning_point, player == state.order[0])

    # --- objective markers (ruling 9) -------------------------------------------------------

    def marker_count(self, state: GameState) -> tuple[int, int | None]:
        return rulings.MULTIPLAYER_MARKERS_PER_PLAYER * len(state.players), None

    def marker_placer(self, state: GameState, index: int) -> str | None:
        return rulings.multiplayer_marker_placer(state.order, index)

    # --- elimination op (pg 102) ------------------------------------------------------------

    def on_incapacitated(self, ctx: Ctx, victim: OperativeState, by_player: str | None) -> None:
        """Count an enemy operative incapacitated by one of the player's operatives (Wounds 12 or
        more counts as two); Hot, mines and friendly fire count for nobody."""
        source = ctx.state.incapacitations[-1].source
        if by_player is None or by_player == victim.player or source in NOT_BY_AN_OPERATIVE:
            return
        ctx.state.players[by_player].eliminations_this_tp += 2 if victim.datacard.wounds >= COUNTS_TWICE_FROM else 1

    def _score_elimination(self, ctx: Ctx) -> None:
        s = ctx.state
        counts = {name: p.eliminations_this_tp for name, p in s.players.items()}
        for player, rank in ranks(counts).items():
            ctx.score(
                player,
                "elimination",
                ELIMINATION_VP.get(rank, 0),
                f"ranked {ordinal(rank)} with {counts[player]} enemy operative(s) incapacitated in TP{s.turning_point}",
            )

    # --- crit op (pg 103) -------------------------------------------------------------------

    def mission_actions(self, state: GameState) -> tuple[type[Action], ...]:
        return crit_op_actions(state)

    def mission_action(self, ctx: Ctx, event: Action, operative: OperativeState) -> None:
        marker = crit_op_action(ctx, event, operative, "pg 103")
        if isinstance(event, MarkerLooted):
            player = ctx.state.players[operative.player]
            if player.loot_vp_this_tp >= CRIT_OP_VP_PER_TP:
                self._capped(ctx, f"{player.name} has scored {CRIT_OP_VP_PER_TP}VP from Loot this turning point; looting {marker.id} scores nothing more")
                return
            player.loot_vp_this_tp += 1
            ctx.score(player.name, "crit", 1, f"looted {marker.id}")

    def _score_crit_op(self, ctx: Ctx) -> None:
        """Secure: 1VP per marker the kill team has secured; Transmission: 1VP per transmitting
        marker its operatives control; at most 3VP a turning point."""
        s = ctx.state
        if s.crit_op not in ("Secure", "Transmission"):
            return
        what = "secured" if s.crit_op == "Secure" else "transmitting and controlled"
        for player, held in markers_held(ctx, "pg 103").items():
            if held > CRIT_OP_VP_PER_TP:
                self._capped(ctx, f"{player} has {held} markers {what}; {s.crit_op} scores at most {CRIT_OP_VP_PER_TP}VP")
            ctx.score(player, "crit", min(held, CRIT_OP_VP_PER_TP), f"{held} marker(s) {what}")

    @staticmethod
    def _capped(ctx: Ctx, message: str) -> None:
        """Flag VP the 3VP cap withholds (pg 103), so the score sheet says why."""
        ctx.state.warnings.append(RuleWarning(seq=ctx.seq, rule="pg 103", message=message, reason="at most 3VP per turning point"))

    # --- end of a turning point and of the battle -------------------------------------------

    def on_turning_point_end(self, ctx: Ctx) -> None:
        """Elimination op and crit op score at the end of each turning point after the first
        (pg 102-103); TP1's eliminations are not ranked. The count starts again each TP."""
        s = ctx.state
        if s.turning_point > 1:
            self._score_elimination(ctx)
            self._score_crit_op(ctx)
        for p in s.players.values():
            p.eliminations_this_tp = 0

    def result(self, state: GameState) -> Result:
        """The most VP wins; players tied for the most share the win (ruling 5, pg 102)."""
        return most_vp(state)

    def concession(self, state: GameState, player: str) -> Result:
        """Ruling 8 with three or four players: the player who concedes loses, and the battle
        ends as scored: the most VP among the others wins (tied: they share the win)."""
        others = {name: p.total_vp for name, p in state.players.items() if name != player}
        winners = [name for name, vp in others.items() if vp == max(others.values())]
        return Result(winner=winners[0] if len(winners) == 1 else None, draw=len(winners) > 1, ended_by="concession", conceded_by=player, winners=winners)


RULESET = MultiplayerOps()
