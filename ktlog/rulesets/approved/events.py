"""Approved Ops' own event types (002): the secret tac op, scouting option and primary op, their
reveals, and tac op VP; with their words. Registered in ktlog's vocabulary when imported."""

from __future__ import annotations

from typing import ClassVar, Literal

from ...events import Event, register_events
from ...rules.words import Said, words

ScoutingOption = Literal["equip", "ploy", "reposition"]
PrimaryOp = Literal["crit", "kill", "tac"]


class TacOpSelected(Event):
    """A player's secret tac op, from one of their kill team's archetypes (hidden until revealed)."""

    secret: ClassVar[bool] = True
    player: str
    tac_op: str
    archetype: str


class TacOpRevealed(Event):
    player: str


class TacOpScored(Event):
    """Tac op VP, as the players work them out from the card (the cards are not in the sources)."""

    player: str
    vp: int
    reason: str


class ScoutingSelected(Event):
    """A player's secret scouting option (hidden until ScoutingRevealed)."""

    secret: ClassVar[bool] = True
    player: str
    option: ScoutingOption


class ScoutingRevealed(Event):
    """Both scouting options are revealed together; they decide TP1 initiative."""

    shared = True


class PrimaryOpSelected(Event):
    """A player's secret primary op, chosen as a STRATEGIC GAMBIT in TP1 (hidden until revealed)."""

    secret: ClassVar[bool] = True
    player: str
    op: PrimaryOp


class PrimaryOpRevealed(Event):
    player: str


register_events(TacOpSelected, TacOpRevealed, TacOpScored, ScoutingSelected, ScoutingRevealed, PrimaryOpSelected, PrimaryOpRevealed)


# --- their words: a secret choice is hidden from a spectator until its reveal -------------------


@words(TacOpSelected)
def _tac_op_selected(e: TacOpSelected, said: Said) -> str:
    return f"{e.player} selects a tac op" + (" (hidden)" if said.hide else f": {e.tac_op} ({e.archetype})")


@words(TacOpRevealed)
def _tac_op_revealed(e: TacOpRevealed, said: Said) -> str:
    p = said.state.players.get(e.player) if said.state and not said.hide else None
    return f"{e.player} reveals their tac op" + (f": {p.tac_op} ({p.tac_op_archetype})" if p and p.tac_op else "")


@words(TacOpScored)
def _tac_op_scored(e: TacOpScored, said: Said) -> str:
    return f"{e.player} scores {e.vp}VP on their tac op" + (" (reason hidden)" if said.hide else f": {e.reason}")


@words(ScoutingSelected)
def _scouting_selected(e: ScoutingSelected, said: Said) -> str:
    return f"{e.player} picks a scouting option" + (" (hidden)" if said.hide else f": {e.option}")


@words(ScoutingRevealed)
def _scouting_revealed(e: ScoutingRevealed, said: Said) -> str:
    picks = [f"{n} {p.scouting}" for n, p in said.state.players.items() if p.scouting] if said.state and not said.hide else []
    return "scouting options revealed" + (": " + ", ".join(picks) if picks else "")


@words(PrimaryOpSelected)
def _primary_op_selected(e: PrimaryOpSelected, said: Said) -> str:
    return f"{e.player} selects a primary op" + (" (hidden)" if said.hide else f": {e.op}")


@words(PrimaryOpRevealed)
def _primary_op_revealed(e: PrimaryOpRevealed, said: Said) -> str:
    p = said.state.players.get(e.player) if said.state and not said.hide else None
    return f"{e.player} reveals their primary op" + (f": {p.primary_op}" if p and p.primary_op else "")
