"""Random legal KT24 Multiplayer Ops games (pg 98-103): three or four players, player order by
roll-offs, activations round the order, elimination op and crit op.

The Preliminary Ops player (kt24.py) chooses the actions; this one seats more players,
establishes player order instead of initiative and lets whoever is due activate or counteract.
"""

from __future__ import annotations

from ...events import RolledOff, TurningPointStarted
from ...play.builder import GameBuilder
from ...rulesets.multiplayer.rules import split_by_roll
from ..kt24 import simulator as kt24
from ..kt24.simulator import PLAYERS


class Simulator(kt24.Simulator):
    positional = False  # the shipped layouts have two drop zones

    def play(self, date: str, **labels: str) -> GameBuilder:
        rng = self.rng
        names = rng.sample(PLAYERS, rng.choice((3, 4)))
        g = GameBuilder(ruleset=self.ruleset, killzone=rng.choice(["volkus", "gallowdark", "bheta-decima"]), date=date, **labels)
        for name in names:
            g.player(name, rng.choice(self.rosters))  # a kill team may be chosen twice (a mirror)
        g.setup_multiplayer(self.order_rolls(names), crit_op=rng.randint(1, 3), markers=len(names) + rng.choice((0, 1)))
        return self.battle(g, 1)

    def battle(self, g: GameBuilder, first: int) -> GameBuilder:
        """The turning points from `first` on (nobody concedes a Multiplayer Ops game here)."""
        for tp in range(first, self.turning_points + 1):
            self.turning_point(g, tp)
        return g

    def decide_initiative(self, g: GameBuilder) -> None:
        """Player order when a turning point's start was cut short: the tied players roll on."""
        s = g.state
        while s.initiative_in(s.turning_point) is None:
            tied = next((group for group in s.order_ties if len(group) > 1), list(s.players))
            g.add(RolledOff(purpose="initiative", rolls={p: self.rng.randint(1, 6) for p in tied}))

    def order_rolls(self, names: list[str]) -> list[dict[str, int]]:
        """Every player's D6, then each group still tied rolls again, until the order is settled (pg 99)."""
        rounds, groups = [], [names]
        while tied := next((g for g in groups if len(g) > 1), None):
            rolls = {p: self.rng.randint(1, 6) for p in tied}
            rounds.append(rolls)
            i = groups.index(tied)
            groups = groups[:i] + split_by_roll(tied, rolls) + groups[i + 1 :]
        return rounds

    def strategy_phase(self, g: GameBuilder, tp: int) -> None:
        g.add(TurningPointStarted(turning_point=tp))
        g.player_order("initiative", self.order_rolls(list(g.state.players)))
        self.gambits(g)
