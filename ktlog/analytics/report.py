"""`ktlog report GAME`: one HTML file (inline SVG and CSS, no script, no network) for a game."""

from __future__ import annotations

import html
from collections.abc import Callable

import altair as alt

from ..events import Annotation
from ..play.timeline import Timeline
from ..rulesets import get_ruleset
from ..storage.store import Store
from ..text.describe import describe
from ..text.results import describe_result
from ..text.safe import visible
from .charts import EXTRA, ChartsExtraMissing, game_vp_chart, svg, win_probability_chart
from .key_moments import analyse
from .league import League
from .winprob import Choice, model_for

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #222; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } .sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: 1rem 0; } td, th { padding: .25rem .7rem; border-bottom: 1px solid #ddd; text-align: left; }
th { background: #f4f4f4; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.undone td { color: #999; text-decoration: line-through; } tr.tp td { font-weight: 600; background: #fafafa; }
.note { color: #6a4; font-style: italic; } .warn { color: #b60; } .result { font-size: 1.2rem; font-weight: 600; }
"""


def game_report(store: Store, league: League, game_id: str) -> str:
    state = store.state(game_id)
    timeline = Timeline(store.events(game_id))
    ruleset = get_ruleset(state.ruleset)

    def esc(text: str) -> str:
        return html.escape(visible(text))

    who = " vs ".join(f"{esc(n)} ({esc(p.kill_team)})" for n, p in state.players.items())
    labels = ", ".join(f"{esc(k)} {esc(v)}" for k, v in state.labels.items())
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{who}</title><style>{STYLE}</style></head><body>",
        f"<h1>{who}</h1>",
        f"<p class='sub'>{esc(ruleset.title)} &middot; {esc(state.killzone)} &middot; {esc(state.date)}"
        + (f" &middot; crit op {esc(state.crit_op)}" if state.crit_op else "")
        + (f" &middot; {labels}" if labels else "")
        + "</p>",
        f"<p class='result'>{esc(describe_result(state)[0].upper() + describe_result(state)[1:])}</p>",
        "<table><tr><th>player</th><th>kill team</th>"
        + "".join(f"<th>{op} VP</th>" for op in ruleset.ops)
        + "<th>total</th>"
        + ("<th>kill grade</th>" if ruleset.kill_op else "")
        + "</tr>",
    ]
    for name, p in state.players.items():
        cells = "".join(f"<td class='n'>{p.vp.get(op, 0)}</td>" for op in ruleset.ops)
        parts.append(
            f"<tr><td>{esc(name)}</td><td>{esc(p.kill_team)}</td>{cells}<td class='n'><b>{p.total_vp}</b></td>"
            + (f"<td class='n'>{p.kill_grade}</td>" if ruleset.kill_op else "")
            + "</tr>"
        )
    parts.append("</table>")
    if state.result is not None:
        parts.append(drawn(lambda: game_vp_chart(league, game_id), esc))
    parts += win_probability(timeline, model_for(store.path, state.ruleset), game_id, esc)
    if state.warnings:
        parts.append(
            "<h2>Warnings</h2><ul>"
            + "".join(f"<li class='warn'>seq {w.seq}: {esc(w.message)} ({esc(w.rule)}); {esc(w.reason)}</li>" for w in state.warnings)
            + "</ul>"
        )
    parts.append("<h2>Events</h2><table><tr><th>seq</th><th>event</th></tr>")
    for e in timeline.envelopes:
        if isinstance(e.payload, Annotation):
            continue
        kind = "tp" if type(e.payload).__name__.startswith("TurningPoint") else ("undone" if e.seq in timeline.undone_by else "")
        text = esc(describe(e.payload)) + "".join(f"<div class='note'>{esc(t)}</div>" for t in timeline.notes.get(e.seq, []))
        parts.append(f"<tr class='{kind}'><td class='n'>{e.seq}</td><td>{text}</td></tr>")
    parts.append("</table></body></html>")
    return "\n".join(parts)


def drawn(chart: Callable[[], alt.TopLevelMixin], esc: Callable[[str], str]) -> str:
    """A chart as SVG, or, without the charts extra, a line naming it: the report is written all
    the same, its figures and events whole."""
    try:
        return svg(chart())
    except ChartsExtraMissing:
        return f"<p class='warn'>The chart is left out: {esc(EXTRA)}.</p>"


def win_probability(timeline: Timeline, choice: Choice, game_id: str, esc: Callable[[str], str]) -> list[str]:
    """The win-probability curve, the key moments, the expected VP each operative added, the luck
    and each player's swing (`ktlog analyse GAME`); or why there is none."""
    result, _ = analyse(timeline.records, choice)
    if not result.curve:
        return ["<h2>Win probability</h2>", f"<p class='sub'>no win probability: {esc(result.model)}</p>"]
    parts = ["<h2>Win probability</h2>", drawn(lambda: win_probability_chart(result, game_id), esc), f"<p class='sub'>{esc(result.model)}</p>"]
    parts.append("<table><tr><th>seq</th><th>TP</th><th>key moment</th><th>for</th><th>change</th><th>expected VP</th></tr>")
    for m in result.moments:
        parts.append(
            f"<tr><td class='n'>{m.seq}</td><td class='n'>{m.turning_point}</td><td>{esc(m.description)}</td><td>{esc(m.player)}</td>"
            f"<td class='n'>{m.change:+.0%}</td><td class='n'>{m.epa:+.1f}</td></tr>"
        )
    parts.append("</table><table><tr><th>player</th><th>operative</th><th>expected VP added</th><th>events</th></tr>")
    for c in result.epa:
        parts.append(
            f"<tr><td>{esc(c.player)}</td><td>{esc(c.operative or 'ploys, gambits and scoring')}</td><td class='n'>{c.epa:+.2f}</td><td class='n'>{c.events}</td></tr>"
        )
    parts.append("</table><table><tr><th>player</th><th>swing</th><th>dice</th><th>the rest</th><th>dice luck (VP)</th></tr>")
    for s, luck in zip(result.swings, result.luck):
        parts.append(
            f"<tr><td>{esc(s.player)}</td><td class='n'>{s.total:+.0%}</td><td class='n'>{s.dice:+.0%}</td><td class='n'>{s.rest:+.0%}</td><td class='n'>{luck.vp:+.2f}</td></tr>"
        )
    parts.append(f"</table><p class='sub'>luck: {esc(result.luck_method)}</p>")
    return parts
