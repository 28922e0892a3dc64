"""The evaluation bar beside the replay's board: each player's chance to win at the moment shown,
as a chess engine's bar: the first player's share fills it from the bottom, the next from there
up (two players: the second's is the rest). Each share is labelled with its player's name (cut to
the bar's width) and chance: "> 99%" or "< 1%" until the game is decided, never a rounded 100%."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from ktlog.analytics.winprob import percent
from ktlog.text.safe import visible

COLOURS = ("#2b7bd6", "#d6452b", "#2ba84a", "#b58b00")
"""Each player's colour, in the game's player order (the web pages' p0 ... p3)."""
WIDTH = 8


class EvalBar(Widget):
    DEFAULT_CSS = f"""
    EvalBar {{ width: {WIDTH}; height: 1fr; }}
    """

    def __init__(self, players: list[str], **kwargs):
        super().__init__(**kwargs)
        self.players = [visible(p) for p in players]
        self.chances = [1 / len(players)] * len(players)
        """Each player's chance at the moment shown."""
        self.decided = False

    def show(self, chances: list[float], decided: bool, why: str) -> None:
        """The chances at the moment shown, whether the game is decided there, and which model
        gave them (the tooltip); drawn again only when any changed."""
        if why != self.tooltip:
            self.tooltip = why
        if chances != self.chances or decided != self.decided:
            self.chances, self.decided = list(chances), decided
            self.refresh()

    def render(self) -> Text:
        height = max(2 * len(self.players) + 1, self.content_region.height)
        labels = 2 * len(self.players)
        free = height - labels
        shares = [round(p * free) for p in self.chances]
        shares[-1] = free - sum(shares[:-1])  # the rounding's rest to the last, so the bar is full
        text = Text()
        for i in reversed(range(len(self.players))):  # the first player at the bottom
            colour = COLOURS[i % len(COLOURS)]
            name = self.players[i][: WIDTH - 1]
            fill = "█░"[i % 2] * (WIDTH - 2)  # told apart without colour too
            block = [name, percent(self.chances[i], self.decided), *[fill] * max(0, shares[i])]
            if i == 0:
                block.reverse()  # the bottom player's label under its share
            for line in block:
                text.append(f"{line:<{WIDTH}}"[:WIDTH] + "\n", style=colour)
        text.rstrip()
        return text

    @property
    def label(self) -> str:
        """The bar in words (for the tests, and the screen's moment line to quote)."""
        return " · ".join(f"{p} {percent(c, self.decided)}" for p, c in zip(self.players, self.chances))
