"""Example Skirmish's own kind of move: the supply cache, and the question it asks (which reward)."""

from __future__ import annotations

from ktlog.rules.candidates import Candidates, in_battle, turn_order
from ktlog.rules.questions import Kind

from .events import SupplyCacheClaimed

MOVES: dict[str, Candidates] = {
    "supply_cache": in_battle(lambda s: (SupplyCacheClaimed(player=p, reward=reward) for p in turn_order(s) for reward in ("vp", "cp"))),
}

KINDS = (Kind("supply_cache", "Supply cache", "Y", asked=("reward",), after="end_activation"),)
"""How the kind is offered and asked: the record screen, `ktlog event --types` and a seat's page
ask its question (the reward, of those the rules allow now) from this."""
