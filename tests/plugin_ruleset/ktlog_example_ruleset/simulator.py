"""Random legal Example Skirmish games: ktlog's two-player KT24 simulator (it plays the ruleset's
turning points) with the one centre marker, placed by the player without initiative."""

from __future__ import annotations

from ktlog.play.builder import GameBuilder
from ktlog.rulesets.kt24 import simulator


class Simulator(simulator.Simulator):
    def setup(self, g: GameBuilder, rolls: list[dict[str, int]], initiative: str) -> None:
        without = next(p for p in g.state.players if p != initiative)
        g.setup(rolloff=rolls, initiative=initiative, crit_op=self.rng.randint(1, 3), markers=[("centre", without)])
