"""Candidate moves: the events a person might enter next, proposed from what the state holds (who
is ready, which markers exist, which weapons an operative carries). They are not checked here:
ktlog.play.moves keeps those the reducer accepts. These are the building blocks the shared kinds
of move and each ruleset's own kinds (ktlog/rulesets/NAME/moves.py) are made of."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .. import events as ev
from ..state import GameState, OperativeState
from .team import weapons_of

Candidates = Callable[[GameState], Iterator[ev.Event]]
"""The candidates of one kind of move."""


def active(s: GameState) -> OperativeState | None:
    return s.operatives[s.activation.operative] if s.activation else None


def enemies(s: GameState, op: OperativeState) -> list[OperativeState]:
    return [o for o in s.operatives.values() if o.player != op.player and not o.incapacitated and o.set_up]


def living(s: GameState) -> Iterator[OperativeState]:
    return (o for o in s.operatives.values() if not o.incapacitated and o.set_up)


def melee(s: GameState, op: OperativeState) -> list[ev.Weapon]:
    """The operative's melee weapons, its player's selected equipment weapons included."""
    return [w for w in weapons_of(s, op) if w.kind == "melee"]


def ranged(s: GameState, op: OperativeState) -> list[ev.Weapon]:
    """The operative's ranged weapons, its player's selected equipment weapons included."""
    return [w for w in weapons_of(s, op) if w.kind == "ranged"]


def turn_order(s: GameState) -> list[str]:
    """Players, the one whose turn it is first."""
    first = s.next_player or s.gambit_turn or s.initiative or s.setup_initiative
    return sorted(s.players, key=lambda p: p != first)


def during(*phases: str) -> Callable[[Candidates], Candidates]:
    """Candidates only in these phases."""
    return lambda fn: lambda s: fn(s) if s.phase in phases else iter(())


in_setup, in_strategy, in_battle = during("setup"), during("strategy"), during("strategy", "firefight")


def of_active(fn: Callable[[GameState, OperativeState], Iterator[ev.Event]]) -> Candidates:
    """Candidates for the active operative, if there is one."""

    def candidates(s: GameState) -> Iterator[ev.Event]:
        op = active(s) if s.activation else None
        return fn(s, op) if op else iter(())

    return candidates


def action(cls: Callable[..., ev.Event]) -> Candidates:
    """An action of the active operative that needs nothing more (Dash, Normal Move ...)."""
    return of_active(lambda s, op: iter([cls(operative=op.id)]))


def each_player(make: Callable[[str], ev.Event]) -> Candidates:
    return lambda s: (make(p) for p in turn_order(s))


def shot_probe(op: OperativeState, weapon: ev.Weapon, target: str, kind: Callable[..., ev.Shot] = ev.Shot) -> ev.Shot:
    """A shot in quick mode (0 damage): legal whenever a shot with dice at `target` could be."""
    return kind(operative=op.id, weapon=weapon.name, attacks=(ev.ShootingAttack(target=target, damage=0),))


def shots(s: GameState, op: OperativeState, kind: Callable[..., ev.Shot] = ev.Shot) -> Iterator[ev.Event]:
    for target in enemies(s, op):
        for weapon in ranged(s, op):
            yield shot_probe(op, weapon, target.id, kind)
