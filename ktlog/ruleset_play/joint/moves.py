"""Joint Ops' own kinds of move: the NPOs' reinforcements (pg 92, 94) and escapes (pg 94)."""

from __future__ import annotations

from collections.abc import Iterator

from ... import events as ev
from ...play.moves import Moves
from ...play.questions import operative_label
from ...rules.candidates import Candidates, action
from ...rules.questions import Choice, Kind, Move, Question
from ...rulesets.joint.events import OperativeEscaped, ReinforcementsArrived
from ...rulesets.joint.rules import is_heavy, npo_side
from ...state import GameState


def _reinforcements(s: GameState) -> Iterator[ev.Event]:
    """One Heavy NPO, or two that are not Heavy, of those incapacitated (which ones is asked)."""
    npo = npo_side(s)
    down = [o for o in s.operatives_of(npo) if o.incapacitated] if npo and s.phase == "strategy" else []
    heavy = [o.id for o in down if is_heavy(o)]
    light = [o.id for o in down if not is_heavy(o)]
    if heavy:
        yield ReinforcementsArrived(operatives=(heavy[0],))
    if light:
        yield ReinforcementsArrived(operatives=tuple(light[:2]))


MOVES: dict[str, Candidates] = {
    "reinforcements": _reinforcements,
    "escape": action(OperativeEscaped),
}


def _reinforcements_asked(moves: Moves) -> list[Move]:
    """The incapacitated NPOs that return: one Heavy one, or two that are not (pg 92, 94): the
    second question has no legal choice after a Heavy one (nor when only one is down), so it is
    not asked then."""
    s = moves.state
    down = [o for o in s.operatives_of(npo_side(s) or "") if o.incapacitated]
    light = [o.id for o in down if not is_heavy(o)]
    first = Question(
        "operatives", "operatives", "Reinforcements: the NPOs that return", shape="A,B", choices=tuple(Choice(o.id, operative_label(o)) for o in down)
    )
    second = Question(
        "operatives",
        "operatives",
        "Reinforcements: the second NPO that returns",
        shape="A,B",
        choices=tuple(Choice(o, operative_label(s.operatives[o]), when={"operatives": tuple(x for x in light if x != o)}) for o in light),
    )
    return [Move("reinforcements", "Reinforcements", "ReinforcementsArrived", npo_side(s), questions=(first, second))]


KINDS = (
    Kind("reinforcements", "Reinforcements", "G", describe=_reinforcements_asked, after="pass"),
    Kind("escape", "Escape", "E", exact=True, after="killzone"),
)
"""How each of these kinds is offered and asked (ktlog.play.questions)."""
