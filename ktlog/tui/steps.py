"""The record screen's steps: which key and label each kind of move has, and why a step cannot
be taken now, in a line. The legal moves themselves are ktlog.play.moves'."""

from __future__ import annotations

from dataclasses import dataclass

from ktlog.play.moves import Moves, refusal_text
from ktlog.state import GameState


@dataclass(frozen=True)
class StepKind:
    """A kind of move a person can take next (ktlog.play.moves names them), with its key on the record screen."""

    action: str
    key: str
    label: str
    more: bool = False
    """Rare steps, offered from the "more" menu rather than the action bar."""
    exact: bool = False
    """The probe is the very event entered (no choices to make), so a refused one can be
    recorded with an override."""


KINDS: tuple[StepKind, ...] = (
    # set-up (pg 110, pg 81)
    StepKind("roll_off", "o", "Roll off"),
    StepKind("initiative", "i", "Initiative"),
    StepKind("marker", "m", "Objective marker"),
    StepKind("crit_op", "k", "Crit op"),
    StepKind("drop_zone", "z", "Drop zone"),
    StepKind("equipment", "q", "Equipment"),
    StepKind("set_up", "u", "Set up operative"),
    StepKind("tac_op", "T", "Tac op"),
    StepKind("scouting", "S", "Scouting"),
    StepKind("reveal", "R", "Reveal"),
    # turning points and the strategy phase (pg 36-37)
    StepKind("start_tp", "t", "Start turning point"),
    StepKind("gambit", "g", "Gambit"),
    StepKind("pass", "p", "Pass"),
    StepKind("primary_op", "G", "Primary op"),
    StepKind("reinforcements", "G", "Reinforcements"),
    # the firefight phase (pg 38-39)
    StepKind("activate", "a", "Activate"),
    StepKind("counteract", "x", "Counteract"),
    StepKind("overwatch", "O", "Overwatch"),
    StepKind("reposition", "r", "Reposition", exact=True),
    StepKind("normal_move", "v", "Normal Move", exact=True),
    StepKind("dash", "d", "Dash", exact=True),
    StepKind("fall_back", "b", "Fall Back", exact=True),
    StepKind("charge", "c", "Charge"),
    StepKind("shoot", "s", "Shoot"),
    StepKind("fight", "f", "Fight"),
    StepKind("mission", "m", "Mission action"),
    StepKind("pick_up", "p", "Pick up marker"),
    StepKind("place", "P", "Place marker"),
    StepKind("unique", "u", "Unique action"),
    StepKind("killzone", "k", "Killzone action"),
    StepKind("guard", "I", "Interrupt from guard"),
    StepKind("pass_action", "w", "Pass action", exact=True),
    StepKind("escape", "E", "Escape", exact=True),
    StepKind("end_activation", "e", "End activation", exact=True),
    StepKind("ploy", "y", "Ploy"),
    StepKind("control", "o", "Objectives"),
    StepKind("end_tp", "t", "End turning point", exact=True),
    # VP the players work out from cards that are not in the sources (the flows ask how many and why)
    StepKind("tac_op_vp", "V", "Tac op VP"),
    StepKind("mission_vp", "V", "VP"),
    # the kill team's own resources, counted at any moment (its roster names them)
    StepKind("resource", "h", "Resource"),
    # rare steps, from the "more" menu
    StepKind("damage", "1", "Damage from outside an attack", more=True),
    StepKind("regain", "2", "Wounds regained", more=True),
    StepKind("apl", "3", "APL change", more=True),
    StepKind("cp", "4", "CP adjustment", more=True),
    StepKind("concede", "5", "Concede", more=True),
)
KIND = {k.action: k for k in KINDS}


class Steps(Moves):
    """The legal moves from one state, as the record screen offers them."""

    def available(self, *, more: bool = False) -> list[StepKind]:
        return [k for k in KINDS if k.more == more and self.legal(k.action)]

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
