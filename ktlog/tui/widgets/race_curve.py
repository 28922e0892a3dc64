"""A finished game's VP race, read from the league's projections and drawn as the replay
draws its curve."""

from __future__ import annotations

from typing import cast

import polars as pl

from .vp_curve import VPCurve


def race_steps(race: pl.DataFrame) -> dict[str, tuple[list[int], list[int]]]:
    """Each player's curve as `VPCurve` draws it from `curves.game_race` (long form): at each
    seq that changed the VP, the VP before it and after it."""
    steps = {}
    for player in race.get_column("player").unique(maintain_order=True):
        curve = race.filter(pl.col("player") == player)
        seqs = curve.select(pl.concat_list("seq", "seq").explode()).to_series().to_list()
        vps = curve.select(pl.concat_list(pl.col("vp").shift(1, fill_value=0), "vp").explode()).to_series().to_list()
        steps[player] = (seqs, vps)
    return steps


class RaceCurve(VPCurve):
    """Every player's VP by event, with the turning point boundaries marked."""

    def __init__(self, **kwargs):
        super().__init__(head=1, top=1, turning_points={}, **kwargs)
        self.game_id: str | None = None
        """The game drawn."""

    def show_race(self, game_id: str, race: pl.DataFrame, boundaries: pl.DataFrame) -> None:
        self.game_id = game_id
        self.head = max(1, cast(int, race.get_column("seq").max()))
        self.top = cast(int, race.get_column("vp").max()) + 1
        self.turning_points = dict(boundaries.iter_rows())
        self.draw(race_steps(race))
        self.display = True

    def hide(self) -> None:
        self.display = False
        self.drawn = {}
        self.game_id = None
