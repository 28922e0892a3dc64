"""Rollouts: a game played on from a moment many times by its ruleset's simulator (its random
legal play, `Simulator.play_on`), each player's share of the results an estimate of their chance
"against simulated play". What a viewer cannot know (a secret tac op or primary op not yet
revealed) is chosen again for each continuation, as the simulator would choose it.

On simulated games this is the floor any model of the moment can reach (benchmarks/winprob_bench.py
scores the model against it); and comparing the rollouts after the move made with those from the
moment before it, where the simulator makes its own move, gives a counterfactual swing at a key
moment: what the move made was worth against what simulated play does there (`what_if`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from ..errors import KtlogError
from ..events import Event
from ..play.simulate import Continuation, simulator_for
from ..state import Checkpoint, GameState
from .winprob_features import in_battle, states

CONTINUATIONS = 200
LABEL = "against simulated play"


class Rollout(msgspec.Struct, frozen=True):
    seq: int
    players: list[str]
    chances: list[float]
    """Each player's share of the continuations' results."""
    margins: list[float]
    """Each player's mean VP margin at the end (their VP less their opponents' mean)."""
    continuations: int
    label: str = LABEL


class WhatIf(msgspec.Struct, frozen=True):
    seq: int
    event: str
    player: str
    """Who made the move."""
    made: Rollout
    """The continuations after the move made."""
    instead: Rollout
    """The continuations from the moment before it, the simulator making the move."""
    swing: float
    """The mover's chance after the move made less after simulated play's: what it was worth."""
    vp: float
    """The same in VP margin at the end."""


class Roller:
    """A ruleset's simulator set to play games on (no mistakes to undo), with its own dice: given
    no rosters, as it starts no game."""

    def __init__(self, ruleset: str, seed: int = 1):
        self.rng = random.Random(seed)
        self.simulator = simulator_for(ruleset)(self.rng, [])
        self.simulator.mistakes = 0.0

    def rollout(self, state: GameState, n: int = CONTINUATIONS, seeds: list[int] | None = None) -> Rollout:
        """`n` continuations of the game from `state` (not changed); `seeds`: each continuation's
        dice (the same seeds from two moments compare them on the same luck)."""
        if not in_battle(state):
            raise KtlogError("a rollout starts once the battle has begun (the set-up done)")
        players = list(state.players)
        if state.result is not None:
            return Rollout(state.seq, players, _shares(state), _margins(state), 0)
        kept = Checkpoint(state)
        won = [0.0] * len(players)
        margin = [0.0] * len(players)
        for k in range(n):
            game = kept.restore()
            self.rng.seed(seeds[k] if seeds else self.rng.getrandbits(64))
            self.simulator.resample_secrets(game)
            self.simulator.play_on(Continuation(game))
            for i, (share, m) in enumerate(zip(_shares(game), _margins(game))):
                won[i] += share
                margin[i] += m
        return Rollout(state.seq, players, [round(w / n, 4) for w in won], [round(m / n, 3) for m in margin], n)


def _shares(state: GameState) -> list[float]:
    r = state.result
    assert r is not None, "a continuation ends with a result"
    sharing = r.winners or ([r.winner] if r.winner else list(state.players) if r.draw else [])
    return [1 / len(sharing) if p in sharing else 0.0 for p in state.players]


def _margins(state: GameState) -> list[float]:
    vp = [p.total_vp for p in state.players.values()]
    n, total = len(vp), sum(vp)
    return [v - (total - v) / (n - 1) for v in vp]


def what_if(records: Sequence[tuple[int, Event]], seq: int, n: int = CONTINUATIONS, seed: int = 1) -> WhatIf:
    """The move at `seq` against simulated play: `n` continuations after it, and `n` from the
    moment before it with the same seeds, the simulator making the move."""
    from ..play.moves import owner
    from ..text.describe import describe

    before: Checkpoint | None = None
    for at, event, state in states(records):
        if at == seq:
            if before is None or not in_battle(state):
                raise KtlogError(f"seq {seq} is not a move of the battle: a what-if asks about one made after the set-up")
            mover = owner(before.restore(logs=False), event)
            if mover is None:
                raise KtlogError(f"seq {seq} ({describe(event)}) is no player's move: a what-if asks about one")
            roller = Roller(state.ruleset, seed)
            seeds = [roller.rng.getrandbits(64) for _ in range(n)]
            made = roller.rollout(state, n, seeds)
            instead = roller.rollout(before.restore(), n, seeds)
            i = made.players.index(mover)
            return WhatIf(
                seq,
                describe(event, spectator=True, state=state),
                mover,
                made,
                instead,
                round(made.chances[i] - instead.chances[i], 4),
                round(made.margins[i] - instead.margins[i], 3),
            )
        before = Checkpoint(state) if in_battle(state) and state.result is None else None
    raise KtlogError(f"no event at seq {seq} counts in this game (undone, or past its end)")
