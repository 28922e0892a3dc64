"""A game's result in words: "Ana won", "a draw", "Pia and Quinn share the win".

A leaf of the text package (it imports only the state and the rulesets), so the reducer's
refusal of an event after the end and the game-log file check say a result the same way.
"""

from __future__ import annotations

from ..rules.ruleset import listing
from ..rulesets import RULESETS
from ..state import GameState


def outcome_text(winner: str | None, draw: bool, shared: list[str] | tuple[str, ...] = ()) -> str:
    """ "Ana won", "a draw", or "Pia and Quinn share the win"."""
    if shared:
        return f"{listing(list(shared))} share the win"
    return "a draw" if draw else f"{winner} won"


def describe_result(state: GameState) -> str:
    r = state.result
    if r is None:
        return "in progress"
    if r.ended_by == "concession":
        return f"{r.conceded_by} conceded" + (f", {r.winner} wins" if r.winner else "")
    if r.ended_by == "report":
        return outcome_text(r.winner, r.draw) + " (reported)"
    return outcome_text(r.winner, r.draw, RULESETS[state.ruleset].shared_win(state))


def game_result(ruleset_name: str, r: dict) -> str:
    """A finished game's result in a line, from the `result` of its row in the games table:
    "Ana won 8-7", "a draw 7-7", "Pia and Quinn share the win 9-9-5-5", "Hugo won" (Joint Ops: no VP)."""
    outcome = outcome_text(r["winner"], r["draw"], r.get("winners", ()))
    if r.get("conceded_by"):
        outcome += f" ({r['conceded_by']} conceded)"
    ruleset = RULESETS.get(ruleset_name)
    if ruleset is not None and not ruleset.ops:
        return outcome
    return f"{outcome} " + "-".join(str(v) for v in r["score"].values())


def provisional_text(state: GameState) -> str | None:
    """Why the result is provisional (open disputes, each with its seq and reason), or None."""
    if not state.open_disputes:
        return None
    each = "; ".join(f"seq {d.target} disputed by {d.raised_by or 'the table'} at seq {d.seq}: {d.reason}" for d in state.open_disputes)
    return f"provisional: {each}"
