"""A table of games and their results, from the store's `games` table."""

from __future__ import annotations

from rich.text import Text
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from ktlog.play.database import GameRow
from ktlog.text.results import game_result


def result_text(g: GameRow) -> Text:
    if not g.result:
        return Text(g.status, style="yellow" if g.status == "in progress" else "dim")
    return Text(game_result(g.ruleset, g.result), style="green")


class GameTable(DataTable):
    """One row per game, keyed by its id."""

    COLUMNS: tuple[tuple[str, str], ...] = (
        ("date", "date"),
        ("players", "players"),
        ("result", "result"),
        ("kill teams", "teams"),
        ("events", "events"),
        ("id", "id"),
    )
    """The result before the kill teams: three or four of them (Multiplayer Ops) would push it off an 80-100 column screen."""

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def row_height(self, cells: dict[str, object]) -> int:
        """The lines a game's row takes (one; a subclass may give more)."""
        return 1

    def on_mount(self) -> None:
        for label, key in self.COLUMNS:
            self.add_column(label, key=key)

    def cells(self, g: GameRow) -> dict[str, object]:
        return {
            "date": g.date,
            "players": " vs ".join(g.players),
            "teams": " vs ".join(t[:14] for t in g.kill_teams),
            "result": result_text(g),
            "events": Text(str(g.head_seq), justify="right"),
            "id": g.id[:8],
            "league": g.labels.get("league", ""),
            "round": g.labels.get("round", ""),
            "table": g.labels.get("table", ""),
        }

    def show(self, games: list[GameRow]) -> None:
        keep = self.cursor_row
        self.clear()
        for g in games:
            cells = self.cells(g)
            self.add_row(*(cells[key] for _, key in self.COLUMNS), key=g.id, height=self.row_height(cells))
        if games:
            self.move_cursor(row=min(keep, len(games) - 1), animate=False)

    @property
    def selected_game(self) -> str | None:
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key.value
