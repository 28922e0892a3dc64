"""Random legal Example Skirmish games: ktlog's two-player KT24 simulator (it plays the ruleset's
turning points) with the one centre marker, placed by the player without initiative, and the
supply cache claimed by the player who secured it, now and then."""

from __future__ import annotations

from ktlog.play.builder import GameBuilder
from ktlog.ruleset_play.kt24 import simulator

from .events import SupplyCacheClaimed
from .rules import CACHE_VP


class Simulator(simulator.Simulator):
    def setup(self, g: GameBuilder, rolls: list[dict[str, int]], initiative: str) -> None:
        without = next(p for p in g.state.players if p != initiative)
        g.setup(rolloff=rolls, initiative=initiative, crit_op=self.rng.randint(1, 3), markers=[("centre", without)])

    def end_turning_point(self, g: GameBuilder, tp: int) -> None:
        holder = g.state.markers["centre"].secured_by
        if holder is not None and self.rng.random() < 0.8:
            reward = "vp" if g.state.players[holder].vp.get("cache", 0) < CACHE_VP else "cp"
            g.add(SupplyCacheClaimed(player=holder, reward=reward))
        super().end_turning_point(g, tp)
