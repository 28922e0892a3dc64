"""The line at the top of the record and replay screens: where the battle stands."""

from __future__ import annotations

from ktlog.reducer import describe_result
from ktlog.state import GameState

from .text_line import TextLine


def standing(s: GameState) -> str:
    """Turning point, phase, initiative and whose activation it is, as markup."""
    if s.phase == "setup":
        parts = ["[b]Set-up[/]"]
        if s.setup_initiative:
            parts.append(f"set-up initiative [b]{s.setup_initiative}[/]")
        if s.crit_op:
            parts.append(f"crit op [b]{s.crit_op}[/]")
        return " · ".join(parts)
    if s.phase == "over":
        return f"[b]Battle over[/] · {describe_result(s)} · " + " - ".join(f"{n} {p.total_vp}" for n, p in s.players.items())
    parts = [f"[b]TP{s.turning_point}[/]", {"strategy": "Strategy", "firefight": "Firefight", "between": "TP ended"}[s.phase]]
    if s.initiative:
        parts.append(f"initiative [b]{s.initiative}[/]")
    if s.phase == "strategy" and s.gambit_turn:
        parts.append(f"gambit step: [b]{s.gambit_turn}[/]")
    if s.phase == "firefight":
        act = s.activation
        if act:
            op = s.operatives[act.operative]
            verb = "counteracting" if act.counteract else "active"
            parts.append(f"{verb}: [b]{op.id}[/] ({op.player}, {act.ap_spent}/{op.apl} AP)")
        elif s.next_player:
            parts.append(f"[b]{s.next_player}[/] to activate")
    if s.crit_op:
        parts.append(f"crit op {s.crit_op}")
    return " · ".join(parts)


class GameHeader(TextLine):
    DEFAULT_CSS = """
    GameHeader { height: 1; background: $primary-background; padding: 0 1; }
    """

    def show(self, state: GameState) -> None:
        self.set(standing(state))
