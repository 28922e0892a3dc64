"""The record screen's steps: the kinds of move of every ruleset (their keys and labels are
ktlog.play.questions'), and why a step cannot be taken now, in a line. The legal moves
themselves are ktlog.play.moves', their questions ktlog.play.questions'."""

from __future__ import annotations

from ktlog.play.moves import Moves, refusal_text
from ktlog.play.questions import describe_kind, every_kind
from ktlog.rules.questions import Kind, Move
from ktlog.state import GameState

KINDS: tuple[Kind, ...] = every_kind()
"""Every ruleset's kinds of move, each with its key and label (ktlog.play.questions)."""
KIND = {k.name: k for k in KINDS}


class Steps(Moves):
    """The legal moves from one state, as the record screen offers them."""

    def __init__(self, state: GameState, override: str | None = None):
        super().__init__(state, override)
        self._described: dict[str, list[Move]] = {}

    def available(self, *, more: bool = False) -> list[Kind]:
        return [k for k in KINDS if k.more == more and self.legal(k.name)]

    def describe(self, kind: str) -> list[Move]:
        """The moves of this kind legal now, with their questions (found once)."""
        if kind not in self._described:
            self._described[kind] = describe_kind(self, kind)
        return self._described[kind]

    def why_not(self, action: str) -> str:
        """Why no step of this kind is legal now, in the rules' words when they said no."""
        if self.legal(action):
            return ""
        label = KIND[action].label
        refusal = self.refusal(action)
        if refusal is None and self.foreign(action):
            return f"{label} is not part of {self.ruleset.title}"
        if refusal is None:
            return f"{label} is not a step of this moment ({moment(self.state)})"
        return f"{label}: {refusal_text(refusal)}"


def moment(s: GameState) -> str:
    """Where the game stands, in a few words."""
    if s.phase == "setup":
        return "setting up the battle"
    if s.phase == "over":
        return "the battle is over"
    if s.phase == "between":
        return f"turning point {s.turning_point} has ended"
    if s.activation:
        return f"{s.activation.operative} is {'counteracting' if s.activation.counteract else 'active'}"
    return f"turning point {s.turning_point}, {s.phase} phase"
