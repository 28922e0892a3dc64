"""Both players' VP over the game so far (textual-plotext)."""

from __future__ import annotations

from textual_plotext import PlotextPlot

from ktlog.state import GameState


def vp_steps(state: GameState, player: str, upto: int) -> tuple[list[int], list[int]]:
    """The player's VP total as a step curve over seqs 0..upto."""
    xs, ys, total = [0], [0], 0
    for v in state.vp_log:
        if v.player == player and v.seq <= upto:
            xs += [v.seq, v.seq]
            ys += [total, total + v.vp]
            total += v.vp
    return xs + [upto], ys + [total]


class VPCurve(PlotextPlot):
    DEFAULT_CSS = """
    VPCurve { border: round $primary-darken-2; }
    """

    def __init__(self, head: int, top: int, turning_points: dict[int, str], **kwargs):
        super().__init__(**kwargs)
        self.head, self.top, self.turning_points = max(head, 1), max(top, 1), turning_points
        self.border_title = "VP"
        self._shown: tuple | None = None
        self.drawn: dict[str, tuple[list[int], list[int]]] = {}
        """Each player's curve as last drawn (seqs, VP totals)."""

    def show(self, state: GameState) -> None:
        """Drawn again only when a VP was scored (or undone) or a turning point began: drawing
        the plot is the costly part of a replay step. The curves run to the moment of drawing;
        the scrubber below shows the moment exactly."""
        key = (len(state.vp_log), state.turning_point, tuple(state.players))
        if key == self._shown:
            return
        self._shown = key
        self.draw({player: vp_steps(state, player, state.seq) for player in state.players})

    def draw(self, curves: dict[str, tuple[list[int], list[int]]]) -> None:
        """Each player's step curve (seqs, VP totals), on axes to `head` and `top`, with the
        turning points marked."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        self.drawn = curves
        for player, (xs, ys) in curves.items():
            plt.plot(xs, ys, label=f"{player} {ys[-1]}")
        plt.xlim(0, self.head)
        plt.ylim(0, self.top)
        if self.turning_points:
            plt.xticks(list(self.turning_points), list(self.turning_points.values()))
        self.refresh()

    def render(self):
        """Whole VP on the y axis, no more labels than rows to print them on (labels that share
        a row are dropped by plotext in an order that changes from run to run)."""
        rows = max(2, self.content_size.height - 3)
        step = -(-self.top // max(1, rows // 2))
        self.plt.yticks(list(range(0, self.top + 1, step)))
        return super().render()
