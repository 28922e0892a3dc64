"""Joint Ops' own event types (pg 87-95): the NPOs' reinforcements, the Sabotage mission action
and an operative's escape; with their words. Registered in ktlog's vocabulary when imported."""

from __future__ import annotations

from ...events import Action, Event, register_events
from ...rules.words import Said, words


class ReinforcementsArrived(Event):
    """NPOs incapacitated earlier return, as the NPOs' STRATEGIC GAMBIT (pg 92, pg 94)."""

    operatives: tuple[str, ...]


class MarkerSabotaged(Action):
    """The Sabotage mission action (Joint Ops 02, pg 92)."""

    name = "Sabotage"
    mission = True
    marker: str


class OperativeEscaped(Event):
    """A player operative moved wholly over the NPOs' killzone edge (Joint Ops 03, pg 94)."""

    operative: str


register_events(ReinforcementsArrived, MarkerSabotaged, OperativeEscaped)


@words(ReinforcementsArrived)
def _reinforcements(e: ReinforcementsArrived, said: Said) -> str:
    return f"reinforcements: {', '.join(e.operatives)} return"


@words(OperativeEscaped)
def _escaped(e: OperativeEscaped, said: Said) -> str:
    return f"{e.operative} escapes over the NPOs' killzone edge"
