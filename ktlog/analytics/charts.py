"""Charts with Altair (Polars' own plotting library), saved as PNG or SVG by vl-convert, which
the charts extra installs (`ktlog[charts]`: about 90 MB that only chart files need)."""

from __future__ import annotations

from pathlib import Path

import altair as alt
import polars as pl

from ..errors import KtlogError
from ..text.safe import visible
from . import curves
from .key_moments import Analysis
from .league import League
from .performance import entity_stats
from .standings import league_elo

WIDTH, HEIGHT = 640, 320
PLAYER_COLOURS = ("#2b7bd6", "#d6452b", "#2ba84a", "#b58b00")
"""Each player's colour in the game's order, as the web pages and the terminal's bar show them."""
alt.data_transformers.disable_max_rows()  # charts are rendered here, not sent to a browser


def visible_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with any control character of its text shown as an escape (the chart renderer
    aborts on some, and a name is drawn as it is)."""
    return frame.with_columns(pl.col(c).map_elements(visible, return_dtype=pl.String) for c, t in frame.schema.items() if t == pl.String)


def game_vp_chart(league: League, game_id: str) -> alt.LayerChart:
    """Both players' VP by event (a step line), with the turning point boundaries marked."""
    race, boundaries = curves.game_race(league, game_id)
    lines = (
        alt.Chart(visible_frame(race.rename({"vp": "VP"})))
        .mark_line(interpolate="step-after", strokeWidth=2.5)
        .encode(x=alt.X("seq:Q", title="event (seq)"), y=alt.Y("VP:Q", title="VP", scale=alt.Scale(domainMin=0)), color=alt.Color("player:N", title=None))
    )
    rules = alt.Chart(boundaries).mark_rule(strokeDash=[4, 4], color="gray").encode(x="seq:Q")
    labels = alt.Chart(boundaries).mark_text(align="left", dx=3, dy=-6, color="gray").encode(x="seq:Q", y=alt.value(10), text=alt.Text("label:N"))
    return (rules + labels + lines).properties(width=WIDTH, height=HEIGHT, title=f"VP race, game {game_id[:8]} (dashed: turning points)")


def win_probability_chart(analysis: Analysis, game_id: str) -> alt.LayerChart:
    """Each player's chance to win after each moment (a step line in their colour), the key moments as points."""
    names = [visible(p) for p in analysis.players]
    curve = pl.DataFrame(
        [(seq, names[i], p) for seq, chances in analysis.curve for i, p in enumerate(chances)],
        schema={"seq": pl.Int64, "player": pl.String, "p": pl.Float64},
        orient="row",
    )
    moments = pl.DataFrame(
        {"seq": [m.seq for m in analysis.moments], "player": [visible(m.player) for m in analysis.moments]}, schema={"seq": pl.Int64, "player": pl.String}
    )  # typed: a game with no key moment (conceded before the battle) has none to join
    keys = curve.join(moments, on=["seq", "player"])
    y = alt.Y("p:Q", title="chance to win", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%"))
    colour = alt.Color("player:N", scale=alt.Scale(domain=names, range=list(PLAYER_COLOURS[: len(names)])), title=None)
    line = alt.Chart(curve).mark_line(interpolate="step-after", strokeWidth=2.5).encode(x=alt.X("seq:Q", title="event (seq)"), y=y, color=colour)
    points = alt.Chart(keys).mark_point(filled=True, size=70).encode(x="seq:Q", y="p:Q", color=colour)
    even = alt.Chart(pl.DataFrame({"p": [1 / len(names)]})).mark_rule(strokeDash=[4, 4], color="gray").encode(y="p:Q")
    return (even + line + points).properties(width=WIDTH, height=HEIGHT, title=f"Win probability, game {game_id[:8]} (points: key moments)")


def average_curves_chart(league: League) -> alt.Chart:
    data = curves.average_curves(league)
    return (
        alt.Chart(data)
        .mark_line(point=True)
        .encode(x=alt.X("turning_point:O", title="after turning point"), y=alt.Y("avg_vp:Q", title="average VP"), color=alt.Color("result:N", title=None))
        .properties(width=WIDTH, height=HEIGHT, title="Average VP of winners and losers")
    )


def team_win_rates_chart(league: League) -> alt.LayerChart:
    data = entity_stats(league, "kill_team")
    base = alt.Chart(visible_frame(data)).encode(y=alt.Y("kill_team:N", sort="-x", title=None))
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("win_rate_low:Q", title="win rate (95% Wilson interval)", scale=alt.Scale(domain=[0, 1])), x2="win_rate_high:Q"
    )
    points = base.mark_point(filled=True, size=80).encode(x="win_rate:Q", tooltip=["kill_team", "games", "win_rate"])
    return (bars + points).properties(width=WIDTH, height=max(120, 40 * data.height), title="Win rate per kill team")


def elo_chart(league: League, top: int = 8) -> alt.Chart:
    history = league_elo(league)
    best = history.group_by("player").agg(pl.col("elo").last()).sort("elo", descending=True).head(top).get_column("player")
    data = history.filter(pl.col("player").is_in(best.implode())).with_columns(pl.int_range(pl.len()).over("player").alias("game"))
    return (
        alt.Chart(visible_frame(data))
        .mark_line()
        .encode(x=alt.X("game:Q", title="games played"), y=alt.Y("elo:Q", title="Elo", scale=alt.Scale(zero=False)), color=alt.Color("player:N", title=None))
        .properties(width=WIDTH, height=HEIGHT, title=f"Elo over time (top {top})")
    )


EXTRA = "PNG and SVG charts need ktlog's charts extra: pipx install 'ktlog[charts]' (from a checkout: pipx install '.[charts]'), or pip install 'ktlog[charts]'"
"""The sentence a chart asked for without the charts extra says."""


class ChartsExtraMissing(KtlogError):
    """vl-convert, which renders a chart to PNG or SVG, is not installed (the charts extra)."""


def converter():
    """vl-convert, or the sentence naming the extra that brings it."""
    try:
        import vl_convert
    except ImportError:
        raise ChartsExtraMissing(f"{EXTRA}; nothing was written") from None
    return vl_convert


def render(chart: alt.TopLevelMixin, path: Path) -> bytes | str:
    """The chart as PNG or SVG by the file's extension, rendered offline by vl-convert."""
    vlc = converter()
    suffix = path.suffix.lower()
    if suffix == ".png":
        return vlc.vegalite_to_png(chart.to_json(), scale=2)
    if suffix == ".svg":
        return vlc.vegalite_to_svg(chart.to_json())
    raise KtlogError(f"{path}: charts are written as .png or .svg; name the file with one of those")


def svg(chart: alt.TopLevelMixin) -> str:
    return converter().vegalite_to_svg(chart.to_json())
