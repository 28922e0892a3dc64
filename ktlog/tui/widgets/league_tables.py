"""The league's tables as `ktlog stats` computes them: the standings and the kill teams."""

from __future__ import annotations

import polars as pl
from rich.console import JustifyMethod
from rich.text import Text
from textual.widgets import DataTable


def whole(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String)


def tenths(column: str) -> pl.Expr:
    """Points (a draw is a half) and VP against in Multiplayer Ops (a mean of the opponents)."""
    return pl.col(column).round(1).cast(pl.String)


def percent(column: str) -> pl.Expr:
    return pl.format("{}%", (pl.col(column) * 100).round(0).cast(pl.Int64))


def interval(low: str, high: str) -> pl.Expr:
    return pl.format("{}-{}%", *((pl.col(c) * 100).round(0).cast(pl.Int64) for c in (low, high))).alias(low)


class FrameTable(DataTable):
    """A statistics frame, one row per row of it: COLUMNS are (label, expression giving the
    cell text); text columns are left-aligned, figures right-aligned."""

    COLUMNS: tuple[tuple[str, pl.Expr], ...] = ()
    TEXT: tuple[str, ...] = ()

    def __init__(self, **kwargs):
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.frame: pl.DataFrame | None = None
        """The frame shown, as the analytics gave it."""

    def on_mount(self) -> None:
        for label, expr in self.COLUMNS:
            self.add_column(label, key=expr.meta.output_name())

    def show(self, frame: pl.DataFrame) -> None:
        self.frame = frame
        cells = frame.select(expr.fill_null("-") for _, expr in self.COLUMNS)
        justify: list[JustifyMethod] = ["left" if c in self.TEXT else "right" for c in cells.columns]
        self.clear()
        for row in cells.iter_rows():
            self.add_row(*(Text(value, justify=j) for value, j in zip(row, justify)))


class StandingsTable(FrameTable):
    """`ktlog stats standings`: in league order (points, VP difference, VP scored, Elo, name)."""

    COLUMNS = (
        ("#", whole("rank")),
        ("player", pl.col("player")),
        ("games", whole("games")),
        ("W", whole("wins")),
        ("D", whole("draws")),
        ("L", whole("losses")),
        ("points", tenths("points")),
        ("win rate", percent("win_rate")),
        ("VP for", whole("vp_for")),
        ("VP against", tenths("vp_against")),
        ("VP diff", tenths("vp_diff")),
        ("Elo", whole("elo")),
    )
    TEXT = ("player",)


class TeamsTable(FrameTable):
    """`ktlog stats teams`: win rate (a draw half a win) with its 95% Wilson interval; mirror
    matches left out of the figures and counted apart."""

    COLUMNS = (
        ("kill team", pl.col("kill_team")),
        ("games", whole("games")),
        ("win rate", percent("win_rate")),
        ("95% interval", interval("win_rate_low", "win_rate_high")),
        ("avg VP", tenths("avg_vp_total")),
        ("kill grade", tenths("avg_kill_grade")),
        ("incapacitated", tenths("incapacitated_per_game")),
        ("lost", tenths("lost_per_game")),
        ("mirror games", whole("mirror_games")),
    )
    TEXT = ("kill_team",)
