"""Example Skirmish's own event type: the supply cache a player claims once they have secured the
centre marker (an illustrative house rule), with its words. Registered in ktlog's vocabulary when
imported, as a ruleset built into ktlog registers its own."""

from __future__ import annotations

from typing import Literal

from ktlog.events import Event, register_events
from ktlog.rules.words import Said, words

Reward = Literal["vp", "cp"]


class SupplyCacheClaimed(Event):
    """A player who has secured the centre marker claims the supply cache, once a turning point:
    1VP (2VP at most in the battle) or 1CP."""

    player: str
    reward: Reward


register_events(SupplyCacheClaimed)


@words(SupplyCacheClaimed)
def _claimed(e: SupplyCacheClaimed, said: Said) -> str:
    return f"{e.player} claims the supply cache: 1{e.reward.upper()}"
