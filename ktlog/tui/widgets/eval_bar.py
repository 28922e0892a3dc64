"""The evaluation bar beside the replay's board: the first player's chance to win at the moment
shown, filling the bar from the bottom (the second player's is the rest), as a chess engine's bar;
each end names its player by initial and percentage. Drawn by plotext, as the VP curves are: the
TUI's one way to draw a chart."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from ktlog.text.safe import visible


class EvalBar(PlotextPlot):
    DEFAULT_CSS = """
    EvalBar { width: 6; height: 1fr; }
    """

    def __init__(self, players: list[str], **kwargs):
        super().__init__(**kwargs)
        self.players = [visible(p) for p in players]
        self.probability = 0.5
        """The first player's chance at the moment shown."""

    def on_mount(self) -> None:
        self.draw()

    def show(self, probability: float, why: str) -> None:
        """The chance at the moment shown, and which model gave it (the tooltip); drawn again
        only when either changed (most replay keys move it not at all)."""
        if why != self.tooltip:
            self.tooltip = why
        if probability != self.probability:
            self.probability = probability
            self.draw()

    def draw(self) -> None:
        """One bar, the first player's share from the bottom (█, the rest ░), each end labelled, no axes."""
        plt, p = self.plt, self.probability
        first, second = (name[:1] for name in self.players[:2])
        plt.clear_data()
        plt.clear_figure()
        plt.bar([""], [1], width=1, marker="░")  # the second player's share: what the first's leaves
        plt.bar([""], [p], width=1, marker="█")
        plt.ylim(0, 1)
        plt.frame(False)
        plt.xticks([])
        plt.yticks([])
        plt.title(f"{second}{round(100 * (1 - p)):>3}%")
        plt.xlabel(f"{first}{round(100 * p):>3}%")
        self.refresh()

    @property
    def label(self) -> str:
        """The bar in words (for the tests, and the screen's moment line to quote)."""
        return f"{self.players[0]} {self.probability:.0%} · {self.players[1]} {1 - self.probability:.0%}"
