"""KT21's own event types (001, 004): Normal Move, Pass, Overwatch and the VP the players work out
from the cards; with their words. Registered in ktlog's vocabulary when imported."""

from __future__ import annotations

from typing import Literal

from ...events import Action, Event, Shot, register_events, unchanged
from ...rules.words import Said, words


class NormalMoved(Action):
    name = "Normal Move"
    moves = True


class Passed(Action):
    """Pass (1AP): an operative does nothing; it may pass more than once."""

    name = "Pass"


class OverwatchFired(Shot):
    """Overwatch (0AP): a shooting attack with BS worsened by 1, by an Engage operative when its
    player has no ready operatives left and the opponent has (001). Version 2: a Shot's `guard`
    came with Shot version 2; Overwatch never has it."""

    name = "Overwatch"
    cost = 0


class MissionVPScored(Event):
    """KT21 VP as the players work them out from the mission and tac op cards, by category."""

    player: str
    vp: int
    category: Literal["mission", "tac"]
    reason: str


register_events(NormalMoved, Passed, OverwatchFired, MissionVPScored, upcasters={("OverwatchFired", 1): unchanged})


@words(OverwatchFired)
def _overwatch(e: OverwatchFired, said: Said) -> str:
    return f"{e.operative} performs Overwatch with {e.weapon} at {said.attacks(e.attacks)}"


@words(MissionVPScored)
def _mission_vp(e: MissionVPScored, said: Said) -> str:
    return f"{e.player} scores {e.vp}VP ({e.category}): {e.reason}"
