"""Approved Ops' own kinds of move: the secret choices (002 steps 2-5) and tac op VP. The
players' answers (which tac op, which option) are asked when the move is made."""

from __future__ import annotations

from collections.abc import Iterator

from ... import events as ev
from ...rules.candidates import Candidates, each_player, in_battle, in_setup, in_strategy, turn_order
from ...state import GameState
from .rules import ARCHETYPES


def _tac_op(s: GameState) -> Iterator[ev.Event]:
    for p in turn_order(s):
        yield ev.TacOpSelected(player=p, tac_op="a tac op", archetype=(s.players[p].archetypes or ARCHETYPES)[0])


def _reveal(s: GameState) -> Iterator[ev.Event]:
    yield ev.ScoutingRevealed()
    for p in turn_order(s):
        yield ev.TacOpRevealed(player=p)
        yield ev.PrimaryOpRevealed(player=p)


MOVES: dict[str, Candidates] = {
    "tac_op": in_setup(_tac_op),
    "scouting": in_setup(each_player(lambda p: ev.ScoutingSelected(player=p, option="equip"))),
    "reveal": _reveal,
    "primary_op": in_strategy(each_player(lambda p: ev.PrimaryOpSelected(player=p, op="crit"))),
    "tac_op_vp": in_battle(each_player(lambda p: ev.TacOpScored(player=p, vp=1, reason="the card"))),
}
