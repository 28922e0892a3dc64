"""The evaluation bar beside the replay's board: each player's chance to win at the moment shown,
as a chess engine's bar: the first player's share fills it from the bottom, the next's from there
up, each in its player's colour (█ and ░ in turn, told apart without colour too). Each share is
labelled with its player's name (cut to the bar's width) and chance: "> 99%" or "< 1%" until the
game is decided, never a rounded 100%. Drawn by plotext, as the VP curves are: the TUI's one way
to draw a chart."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from ktlog.analytics.winprob import percent
from ktlog.text.safe import visible

COLOURS = ((43, 123, 214), (214, 69, 43), (43, 168, 74), (181, 139, 0))
"""Each player's colour, in the game's player order (the web pages' p0 ... p3)."""
WIDTH = 10


class EvalBar(PlotextPlot):
    DEFAULT_CSS = f"""
    EvalBar {{ width: {WIDTH}; height: 1fr; }}
    """

    def __init__(self, players: list[str], **kwargs):
        super().__init__(**kwargs)
        self.players = [visible(p) for p in players]
        self.chances = [1 / len(players)] * len(players)
        """Each player's chance at the moment shown."""
        self.decided = False

    def on_mount(self) -> None:
        self.draw()

    def show(self, chances: list[float], decided: bool, why: str) -> None:
        """The chances at the moment shown, whether the game is decided there, and which model
        gave them (the tooltip); drawn again only when any changed (most replay keys move it not at all)."""
        if why != self.tooltip:
            self.tooltip = why
        if chances != self.chances or decided != self.decided:
            self.chances, self.decided = list(chances), decided
            self.draw()

    def named(self, i: int) -> str:
        """A player's label: their name cut to leave room for their chance."""
        shown = percent(self.chances[i], self.decided)
        return f"{self.players[i][: WIDTH - len(shown) - 1]} {shown}"

    def draw(self) -> None:
        """The shares stacked from the bottom, no axes: the first player's labelled under the bar,
        the last's over it, any between inside its share."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        stacked = [sum(self.chances[: i + 1]) for i in range(len(self.chances))]
        for i in reversed(range(len(self.players))):  # the highest first: each share drawn over by those under it
            plt.bar([""], [stacked[i]], width=1, marker="█░"[i % 2], color=COLOURS[i % len(COLOURS)])
        for i in range(1, len(self.players) - 1):
            plt.text(self.named(i), x=1, y=stacked[i] - self.chances[i] / 2, color=COLOURS[i % len(COLOURS)])
        plt.ylim(0, 1)
        plt.frame(False)
        plt.xticks([])
        plt.yticks([])
        plt.title(self.named(len(self.players) - 1))
        plt.xlabel(self.named(0))
        self.refresh()

    @property
    def label(self) -> str:
        """The bar in words (for the tests, and the screen's moment line to quote)."""
        return " · ".join(f"{p} {percent(c, self.decided)}" for p, c in zip(self.players, self.chances))
