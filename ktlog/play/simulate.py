"""Random legal games, played through the reducer: for property tests, benchmarks and demo data.

Each ruleset has its own simulator module (a `Simulator` class whose `play(date, **labels)`
returns a finished GameBuilder); `SIMULATORS` maps ruleset names to them.
"""

from __future__ import annotations

import datetime as dt
import importlib
import random
import uuid
from collections.abc import Iterator

from ..errors import KtlogError
from ..files.rosters import Roster
from ..rulesets.kt24.simulator import ROSTERS, Simulator, load_sim_rosters
from ..storage.store import Store
from .builder import GameBuilder

SIMULATORS = {"kt24-preliminary": "kt24", "kt24-approved": "approved", "kt24-multiplayer": "multiplayer", "kt24-joint": "joint", "kt21": "kt21"}
"""Ruleset name -> the package in ktlog/rulesets/ whose `simulator` module has its `Simulator`
class (constructed with a Random and the rosters)."""


def simulator_for(ruleset: str):
    module = SIMULATORS.get(ruleset)
    try:
        return importlib.import_module(f"ktlog.rulesets.{module}.simulator").Simulator if module else None
    except ModuleNotFoundError as exc:
        if exc.name != f"ktlog.rulesets.{module}.simulator":
            raise
        return None

__all__ = ["ROSTERS", "SIMULATORS", "Simulator", "load_sim_rosters", "simulate_games", "simulate_into", "simulator_for"]


def simulate_games(count: int, seed: int, league: str = "Simulated League", rosters: list[Roster] | None = None,
                   ruleset: str = "kt24-preliminary") -> Iterator[tuple[str, GameBuilder]]:
    """Yield (game_id, builder) for `count` random legal games; the same seed plays the same games."""
    simulator = simulator_for(ruleset)
    if simulator is None:
        have = ", ".join(r for r in SIMULATORS if simulator_for(r))
        raise KtlogError(f"no simulator for ruleset {ruleset!r}; simulators: {have}")
    rng = random.Random(seed)
    sim = simulator(rng, rosters or load_sim_rosters())
    start = dt.date(2026, 1, 5)
    for i in range(count):
        date = (start + dt.timedelta(days=i // 4)).isoformat()
        game_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        yield game_id, sim.play(date, league=league, season="1", round=str(i // 8 + 1), table=str(i % 8 + 1))


def simulate_into(store: Store, count: int, seed: int, league: str = "Simulated League", ruleset: str = "kt24-preliminary") -> list[str]:
    ids = []
    with store.batch():
        for game_id, g in simulate_games(count, seed, league, ruleset=ruleset):
            store.import_envelopes(game_id, g.sealed(game_id, g.state.date + "T18:00:00+00:00"))
            ids.append(game_id)
    return ids
