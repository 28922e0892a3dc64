"""The evaluation bar beside the replay's board: the first player's chance to win at the moment
shown, filling the bar from the bottom (the second player's is the rest), as a chess engine's bar;
each end names its player by initial and percentage."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from ktlog.text.safe import visible


class EvalBar(Widget):
    DEFAULT_CSS = """
    EvalBar { width: 6; height: 1fr; }
    """

    def __init__(self, players: list[str], **kwargs):
        super().__init__(**kwargs)
        self.players = [visible(p) for p in players]
        self.probability = 0.5
        """The first player's chance at the moment shown."""

    def show(self, probability: float, why: str) -> None:
        """The chance at the moment shown, and which model gave it (the tooltip); drawn again
        only when either changed (most replay keys move it not at all)."""
        if why != self.tooltip:
            self.tooltip = why
        if probability != self.probability:
            self.probability = probability
            self.refresh()

    def render(self) -> Text:
        height = max(3, self.content_region.height)
        p = self.probability
        filled = round(p * (height - 2))
        first, second = (name[:1] for name in self.players[:2])
        rows = [f"{second}{round(100 * (1 - p)):>3}%", *["  ░░░"] * (height - 2 - filled), *["  ███"] * filled, f"{first}{round(100 * p):>3}%"]
        return Text("\n".join(rows))

    @property
    def label(self) -> str:
        """The bar in words (for the tests, and the screen's moment line to quote)."""
        return f"{self.players[0]} {self.probability:.0%} · {self.players[1]} {1 - self.probability:.0%}"
