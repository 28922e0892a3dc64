"""Approved Ops' own kinds of move: the secret choices (002 steps 2-5) and tac op VP, and the
questions each asks (which tac op, which option)."""

from __future__ import annotations

from collections.abc import Iterator

from ... import events as ev
from ...play.questions import number, options, text
from ...rules.candidates import Candidates, each_player, in_battle, in_setup, in_strategy, turn_order
from ...rules.questions import Kind, Question
from ...rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, ScoutingRevealed, ScoutingSelected, TacOpRevealed, TacOpScored, TacOpSelected
from ...rulesets.approved.rules import ARCHETYPES, BEATS, PRIMARY_OPS
from ...state import GameState


def _tac_op(s: GameState) -> Iterator[ev.Event]:
    for p in turn_order(s):
        yield TacOpSelected(player=p, tac_op="a tac op", archetype=(s.players[p].archetypes or ARCHETYPES)[0])


def _reveal(s: GameState) -> Iterator[ev.Event]:
    yield ScoutingRevealed()
    for p in turn_order(s):
        yield TacOpRevealed(player=p)
        yield PrimaryOpRevealed(player=p)


MOVES: dict[str, Candidates] = {
    "tac_op": in_setup(_tac_op),
    "scouting": in_setup(each_player(lambda p: ScoutingSelected(player=p, option="equip"))),
    "reveal": _reveal,
    "primary_op": in_strategy(each_player(lambda p: PrimaryOpSelected(player=p, op="crit"))),
    "tac_op_vp": in_battle(each_player(lambda p: TacOpScored(player=p, vp=1, reason="the card"))),
}


def _tac_op_questions(s: GameState, e: TacOpSelected) -> tuple[Question, ...]:
    """One of the player's kill team's archetypes, then the card's name (002 step 2)."""
    archetypes = s.players[e.player].archetypes or list(ARCHETYPES)
    return (
        options("archetype", f"{e.player}'s tac op: its archetype", ((a, a) for a in archetypes)),
        text("tac_op", f"{e.player}'s tac op: its name", "as on the card; spectators see it once revealed"),
    )


KINDS = (
    Kind("tac_op", "Tac op", "T", free=_tac_op_questions, after="set_up"),
    Kind(
        "scouting",
        "Scouting",
        "S",
        free=lambda s, e: (options("option", f"{e.player}'s scouting option (002 step 4)", ((o, o.title()) for o in BEATS)),),
        after="set_up",
    ),
    Kind("reveal", "Reveal", "R", after="set_up"),
    Kind("primary_op", "Primary op", "G", free=lambda s, e: (options("op", f"{e.player}'s primary op", ((o, f"{o} op") for o in PRIMARY_OPS)),), after="pass"),
    Kind(
        "tac_op_vp",
        "Tac op VP",
        "V",
        free=lambda s, e: (number("vp", "Tac op VP"), text("reason", "what on the card scored them", "e.g. 2 Flank: both flanks held")),
        after="end_tp",
    ),
)
"""How each of these kinds is offered and asked (ktlog.play.questions)."""
