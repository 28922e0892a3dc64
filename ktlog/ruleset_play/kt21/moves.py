"""KT21's own kinds of move (001): Overwatch, Normal Move, Pass, and the VP the players work out
from the mission and tac op cards."""

from __future__ import annotations

from collections.abc import Iterator

from ... import events as ev
from ...play.questions import number, shots_described, text
from ...rules.candidates import Candidates, action, in_battle, shots, turn_order
from ...rules.questions import Kind
from ...rulesets.kt21.events import MissionVPScored, NormalMoved, OverwatchFired, Passed
from ...state import GameState


def _overwatch(s: GameState) -> Iterator[ev.Event]:
    """Between activations, by an expended operative of the player whose turn it is once they
    have no ready operative left (001 Overwatch)."""
    player = s.next_player
    if s.phase == "firefight" and not s.activation and player and not s.ready_operatives(player):
        for op in s.operatives_of(player):
            if op.status == "expended":
                yield from shots(s, op, OverwatchFired)


def _mission_vp(s: GameState) -> Iterator[ev.Event]:
    """VP from the mission or a tac op card (001), which the players work out."""
    for p in turn_order(s):
        for category in ("mission", "tac"):
            yield MissionVPScored(player=p, vp=1, category=category, reason="the card")


MOVES: dict[str, Candidates] = {
    "overwatch": _overwatch,
    "normal_move": action(NormalMoved),
    "pass_action": action(Passed),
    "mission_vp": in_battle(_mission_vp),
}

SHOOTING = {"overwatch": OverwatchFired}
"""Its kinds of move that are shooting attacks, and how their events are made (ktlog.play.moves.shooting)."""

KINDS = (
    Kind("overwatch", "Overwatch", "O", describe=lambda moves: shots_described(moves, "overwatch"), after="counteract"),
    Kind("normal_move", "Normal Move", "v", exact=True, after="reposition"),
    Kind("pass_action", "Pass action", "w", exact=True, after="killzone"),
    Kind(
        "mission_vp",
        "VP",
        "V",
        asked=("category",),
        free=lambda s, e: (number("vp", "VP", "then what scored them; e.g. 3 controls two markers"), text("reason", "what scored them")),
        after="end_tp",
        first=("vp", "reason"),
    ),
)
"""How each of these kinds is offered and asked (ktlog.play.questions)."""
