"""Random legal games, played through the reducer: for property tests, benchmarks and demo data.

Each ruleset names its simulator module (`Ruleset.simulator`): a `Simulator` class, constructed
with a Random, the rosters and the ruleset that asked (its games are stored under its name), whose `play(date, **labels)` returns a finished GameBuilder.
A simulator given no rosters starts no game: it only plays one on (`play_on`, a rollout).
One whose `positional` is true also takes a `layout`: its games are played on it, with positions.
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib
import random
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..board.layout import Layout
from ..data import SAMPLE_ROSTERS
from ..errors import KtlogError
from ..events import Event
from ..files.rosters import Roster, load_roster
from ..reducer import apply_in_place
from ..rulesets import RULESETS
from ..state import GameState
from ..storage.store import Store
from .builder import GameBuilder


def load_sim_rosters(folder: Path = SAMPLE_ROSTERS) -> list[Roster]:
    """The KT24 kill teams of a folder of rosters (not the NPOs, not KT21 datacards)."""
    rosters = [r for p in sorted(folder.glob("*.toml")) if p.stem != "npo" and (r := load_roster(p)).datacards == "kt24"]
    if len(rosters) < 2:
        raise KtlogError(f"the simulator needs at least two kill-team rosters in {folder}")
    return rosters


def simulator_for(ruleset: str) -> Callable[..., Any]:
    """The `Simulator` of a ruleset, loaded now and told the ruleset (its games are stored under
    its name): called with a Random and the rosters, and `layout=` when it is `positional`."""
    module = RULESETS[ruleset].simulator if ruleset in RULESETS else None
    if module is None:
        have = ", ".join(name for name, r in RULESETS.items() if r.simulator)
        raise KtlogError(f"no simulator for ruleset {ruleset!r}; simulators: {have}")
    return functools.partial(importlib.import_module(module).Simulator, ruleset=RULESETS[ruleset])


def plays_positions(ruleset: str) -> bool:
    """Whether the ruleset's simulator plays games on a layout (its `Simulator.positional`)."""
    module = RULESETS[ruleset].simulator if ruleset in RULESETS else None
    return module is not None and bool(getattr(importlib.import_module(module).Simulator, "positional", False))


def positional_check(ruleset: str, layout: Layout) -> None:
    """Refuse a layout the ruleset's simulator cannot play on: one without positions, or a
    layout with fewer than two drop zones."""
    if not plays_positions(ruleset):
        have = ", ".join(name for name in RULESETS if plays_positions(name))
        raise KtlogError(f"the {ruleset} simulator plays no games with positions; --layout plays with: {have}")
    if len(layout.drop_zones) < 2:
        raise KtlogError(f"layout {layout.name!r} has {len(layout.drop_zones)} drop zone(s): a simulated game needs two, one for each player (pg 108)")


class Continuation(GameBuilder):
    """A game played on from a state the caller owns, by a simulator's `play_on` (a rollout):
    each event applied to the state in place at the next seq, none kept (so none can be undone:
    the simulator's `mistakes` set to 0)."""

    def __init__(self, state: GameState):  # no GameCreated: the game exists
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> GameBuilder:
        for event in events:
            apply_in_place(self.state, event, self.state.seq + 1)
        return self


def simulate_games(
    count: int,
    seed: int,
    league: str = "Simulated League",
    rosters: list[Roster] | None = None,
    ruleset: str = "kt24-preliminary",
    simulated: bool = False,
    layout: Layout | None = None,
) -> Iterator[tuple[str, GameBuilder]]:
    """Yield (game_id, builder) for `count` random legal games; the same seed plays the same games.
    `simulated` marks them so (GameCreated.simulated: statistics leave them out unless asked), as
    `ktlog simulate` does; tests and benchmarks leave it off to play a league as people would.
    `layout`: the games are played on it, their operatives placed and moved by its geometry."""
    simulator = simulator_for(ruleset)
    rng = random.Random(seed)
    if layout is None:
        sim = simulator(rng, rosters or load_sim_rosters())
    else:
        positional_check(ruleset, layout)
        sim = simulator(rng, rosters or load_sim_rosters(), layout=layout)
    start = dt.date(2026, 1, 5)
    for i in range(count):
        date = (start + dt.timedelta(days=i // 4)).isoformat()
        game_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        labels = {"simulated": True} if simulated else {}
        yield game_id, sim.play(date, league=league, season="1", round=str(i // 8 + 1), table=str(i % 8 + 1), **labels)


def simulate_into(
    store: Store,
    count: int,
    seed: int,
    league: str = "Simulated League",
    ruleset: str = "kt24-preliminary",
    ids: list[str] | None = None,
    simulated: bool = False,
    progress: Callable[[int, int], None] | None = None,
    layout: Layout | None = None,
) -> list[str]:
    """Play and store `count` games, each whole (marked `simulated` if asked, as `simulate_games`);
    their ids (also appended to `ids` as each is stored, so that an interrupted run can say what
    it stored; and `progress` told (stored, count))."""
    ids = [] if ids is None else ids
    with store.batch():
        for game_id, g in simulate_games(count, seed, league, ruleset=ruleset, simulated=simulated, layout=layout):
            store.import_envelopes(game_id, g.sealed(game_id, g.state.date + "T18:00:00+00:00"))
            ids.append(game_id)
            if progress:
                progress(len(ids), count)
    return ids
