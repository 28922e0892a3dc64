"""Each player's CP, VP by op and kill grade, as the reducer derives them."""

from __future__ import annotations

from ktlog.rules import get_ruleset
from ktlog.state import GameState

from .text_line import TextLine


class ScoreBoard(TextLine):
    DEFAULT_CSS = """
    ScoreBoard { height: 2; padding: 0 1; }
    """

    def show(self, state: GameState) -> None:
        if not state.players:
            self.set("no players yet")
            return
        ops = get_ruleset(state.ruleset).ops
        width = max(len(n) for n in state.players)
        lines = []
        for name, p in state.players.items():
            by_op = "  ".join(f"{op} {p.vp.get(op, 0)}" for op in ops)
            lines.append(f"[b]{name:<{width}}[/] {p.kill_team[:18]:<18} CP [b]{p.cp}[/]  VP [b]{p.total_vp}[/] ({by_op})  kill grade {p.kill_grade}")
        self.set("\n".join(lines))
