"""Joint Ops' own kinds of move: the NPOs' reinforcements (pg 92, 94) and escapes (pg 94)."""

from __future__ import annotations

from collections.abc import Iterator

from ... import events as ev
from ...rules.candidates import Candidates, action
from ...state import GameState
from .rules import is_heavy, npo_side


def _reinforcements(s: GameState) -> Iterator[ev.Event]:
    """One Heavy NPO, or two that are not Heavy, of those incapacitated (which ones is asked)."""
    npo = npo_side(s)
    down = [o for o in s.operatives_of(npo) if o.incapacitated] if npo and s.phase == "strategy" else []
    heavy = [o.id for o in down if is_heavy(o)]
    light = [o.id for o in down if not is_heavy(o)]
    if heavy:
        yield ev.ReinforcementsArrived(operatives=(heavy[0],))
    if light:
        yield ev.ReinforcementsArrived(operatives=tuple(light[:2]))


MOVES: dict[str, Candidates] = {
    "reinforcements": _reinforcements,
    "escape": action(ev.OperativeEscaped),
}
