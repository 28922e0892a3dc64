"""Each player's CP, VP by the ruleset's ops and kill grade (when the kill op is one of them),
then on a line of their own the kill team's resources and secret choices (Approved Ops), and how
the mission stands (Joint Ops has no VP)."""

from __future__ import annotations

from ktlog.rulesets import get_ruleset
from ktlog.state import GameState
from ktlog.text.render import secret_text

from ..markup import escape
from .text_line import TextLine

WIDTH = 76
"""The progress lines are packed for an 80-column terminal."""


def score_lines(state: GameState, spectator: bool = False) -> list[str]:
    """A line per player (two with resources or secret choices), then the mission's progress, as markup. A
    spectator sees each secret choice not yet revealed as "hidden"."""
    ruleset = get_ruleset(state.ruleset)
    width = max(len(n) for n in state.players)
    teams = min(18, max(len(p.kill_team) for p in state.players.values()))
    lines = []
    for name, p in state.players.items():
        line = f"[b]{escape(name):<{width}}[/] {escape(p.kill_team[:teams]):<{teams}} CP [b]{p.cp}[/]"
        if ruleset.ops:
            line += f"  VP [b]{p.total_vp}[/] (" + "  ".join(f"{op} {p.vp.get(op, 0)}" for op in ruleset.ops) + ")"
        grade = [f"kill grade {p.kill_grade}"] if ruleset.kill_op else []
        resources = [f"{escape(resource)} [b]{count}[/]" for resource, count in p.resources.items()]
        secrets = [f"[dim]{key.replace('_', ' ')}[/] {escape(secret_text(*secret, spectator))}" for key, secret in ruleset.secrets(state, name).items()]
        lines.append("  ".join([line, *grade]))
        if resources or secrets:  # a line of their own: beside VP and kill grade they did not fit 72 columns
            lines.append("  " + " · ".join(resources + secrets))
    progress = [f"{key.replace('_', ' ')} {value}" for key, value in ruleset.progress(state).items() if key != "mission"]
    return lines + packed(progress)


def packed(items: list[str], width: int = WIDTH) -> list[str]:
    """Items joined with " · " into as few lines as fit `width`."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += " · " + item
        else:
            lines.append(item)
    return lines


class ScoreBoard(TextLine):
    DEFAULT_CSS = """
    ScoreBoard { height: 2; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, spectator: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.spectator = spectator

    def show(self, state: GameState) -> None:
        lines = score_lines(state, self.spectator) if state.players else ["no players yet"]
        height = max(2, len(lines))
        if self.styles.height is None or self.styles.height.value != height:  # more players, secrets or progress: a taller board (once)
            self.styles.height = height
        self.set("\n".join(lines))
