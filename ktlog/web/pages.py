"""The HTML pages: a skeleton each, with the figures as a JSON block the page's script
(static/ktlog.js) renders and keeps up to date. Every text from a game is escaped here; the
script writes text into the page only as text (never as HTML)."""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

if TYPE_CHECKING:
    from .game_log import LogPage

TITLE = "ktlog"
CONTROL_PICTURES = {code: 0x2400 + code for code in range(0x20)} | {0x7F: 0x2421}
"""Control characters shown as their pictures (a bell as ␇): visible, and never raw in a page."""


def escape(text: str) -> str:
    """Text from a game, safe in HTML text and in quoted attributes."""
    return html.escape(text).translate(CONTROL_PICTURES)


def data_block(name: str, data: Any) -> str:
    """JSON the script reads, in a block the browser never runs (`<`, `>` and `&` escaped, so no
    text from a game can end the block)."""
    text = json.dumps(data, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{name}">{text}</script>'


def page(title: str, body: str, *, kind: str, attrs: dict[str, str | int] | None = None) -> str:
    """A whole page: the stylesheet and the script from /static, no inline script or style."""
    data = "".join(f' data-{k}="{escape(str(v))}"' for k, v in (attrs or {}).items())
    nav = "" if kind in ("overlay", "projector") else '<nav><a href="/">Tables</a> <a href="/league">League</a> <a href="/tournaments/">Tournaments</a></nav>'
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><link rel='icon' href='data:,'>"
        f"<title>{escape(title)} · {TITLE}</title>"
        "<link rel='stylesheet' href='/static/ktlog.css'><script src='/static/ktlog.js' defer></script></head>"
        f"<body class='{kind}' data-page='{kind}'{data}>{nav}"
        "<p id='problem' class='problem' hidden></p>"
        f"{body}<noscript><p>These figures update with JavaScript; the same data is at /api/games.</p></noscript></body></html>"
    )


def tables_page(rows: list[dict], league: str | None, round_: str | None, choices: dict[str, list[str]]) -> str:
    form = (
        "<form class='filters' method='get' action='/'>"
        + _select("league", choices.get("league", []), league)
        + _select("round", choices.get("round", []), round_)
        + "<button>Filter</button></form>"
    )
    body = f"<h1>Tables</h1>{form}<table id='tables' class='tables'><thead><tr><th>table</th><th>players</th><th>TP</th><th>VP</th><th>CP</th><th>last event</th><th>status</th></tr></thead><tbody></tbody></table>"
    stream = "/api/tables/events" + _query(league=league, round=round_)
    return page("Tables", body + data_block("ktlog-games", rows), kind="tables", attrs={"stream": stream})


def game_page(game_id: str, title: str, state: dict, log: LogPage, *, board: bool = False) -> str:
    """A game's page with one page of its log: the latest rows follow the game live; an older
    page (`?before=SEQ`) keeps its rows and links to the pages beside it. A game with positions
    (`board`) shows its battle on the killzone, drawn again after each event."""
    base = f"/games/{escape(game_id)}"
    older = f"<p class='pager'><a id='older' rel='prev' href='{base}?before={log.older}'>older events</a></p>" if log.older is not None else ""
    newer = (
        f"<p class='pager'><a id='newer' rel='next' href='{base}{f'?before={log.newer}' if log.newer else ''}'>newer events</a>"
        f" · <a id='latest' href='{base}'>latest events</a></p>"
        if log.newer is not None
        else ""
    )
    body = (
        f"<h1>{escape(title)}</h1><p class='sub' id='sub'></p>"
        "<section id='scoreboard' class='scoreboard'></section>"
        + (
            f"<figure class='battle'><img id='battle' alt='the battle on its killzone' src='/api/games/{escape(game_id)}/board.svg?at={state['seq']}'></figure>"
            if board
            else ""
        )
        + "<section class='columns'><div><h2>Operatives</h2><div id='operatives'></div><h2>Markers</h2><div id='markers'></div></div>"
        f"<div><h2>Events</h2>{older}<ol id='log' class='log'{'' if log.newer is None else ' data-past'}></ol>{newer}</div></section>"
        f"<p class='links'><a href='{base}/overlay'>overlay</a> · <a href='{base}/replay'>replay</a>"
        f" · <a href='/api/games/{escape(game_id)}'>JSON</a></p>"
    )
    return page(title, body + data_block("ktlog-state", state) + data_block("ktlog-rows", log.rows), kind="game", attrs=_stream(game_id, state))


def overlay_page(game_id: str, title: str, state: dict, chance: dict | None = None) -> str:
    """The scoreboard for a stream, and under it the live win probability with the model that
    gives it (or why there is none); the script asks /api/games/GAME/chance again after each event.
    `chance`: as that answers (None: the players have not all joined)."""
    body = "<section id='scoreboard' class='scoreboard compact'></section>"
    attrs = _stream(game_id, state)
    body += "<section id='chance' class='chance live-chance' hidden><div class='bar'></div><p class='odds'></p><p class='model'></p></section>"  # hidden until all have joined
    attrs["chance"] = f"/api/games/{game_id}/chance"
    return page(title, body + data_block("ktlog-state", state) + data_block("ktlog-chance", chance), kind="overlay", attrs=attrs)


def replay_page(game_id: str, title: str, state: dict, rows: list[dict], winprob: dict | None = None, *, board: bool = False) -> str:
    """The replay: controls, the VP curve, the win-probability curve (two players), the battle on
    its killzone (a game with positions: the board's SVG at each moment), the board and the log."""
    body = (
        f"<h1>{escape(title)}</h1>"
        "<div class='controls'><button id='start' title='start (Home)'>Start</button><button id='back' title='back (←)'>◀</button>"
        "<button id='step' title='step (→)'>▶</button><button id='end' title='end (End)'>End</button><span id='tps'></span>"
        f"<input id='scrubber' type='range' min='0' max='{state['seq']}' value='0'><output id='at'></output></div>"
        "<p id='moment' class='moment'></p><svg id='curve' class='curve' viewBox='0 0 600 160' preserveAspectRatio='none'></svg>"
        + (
            "<p id='chance' class='chance'></p><svg id='winprob' class='curve winprob' viewBox='0 0 600 180'></svg>"
            f"<p class='model'>{escape(winprob['model'])}</p>"
            if winprob and winprob["fitted"]
            else f"<p class='model'>no win probability: {escape(winprob['model'])}</p>"
            if winprob
            else ""
        )
        + ("<figure class='battle'><img id='battle' alt='the battle on its killzone at this moment'></figure>" if board else "")
        + "<section id='scoreboard' class='scoreboard'></section>"
        "<section class='columns'><div><h2>Operatives</h2><div id='operatives'></div></div><div><h2>Events</h2><ol id='log' class='log'></ol></div></section>"
    )
    blocks = data_block("ktlog-state", state) + data_block("ktlog-rows", rows) + (data_block("ktlog-winprob", winprob) if winprob else "")
    return page(f"Replay: {title}", body + blocks, kind="replay", attrs={"game": game_id})


def league_page(filters: dict[str, str | None], choices: dict[str, list[str]], tables: list[tuple[str, list[str], list[tuple]]], message: str | None) -> str:
    fields = "".join(_select(k, choices[k], v) if k in choices else _text(k, v) for k, v in filters.items())
    parts = ["<h1>League</h1>", f"<form class='filters' method='get' action='/league'>{fields}<button>Filter</button></form>"]
    if message:
        parts.append(f"<p class='notice'>{escape(message)}</p>")
    for heading, columns, rows in tables:
        head = "".join(f"<th>{escape(c.replace('_', ' '))}</th>" for c in columns)
        body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
        parts.append(f"<h2>{escape(heading)}</h2><div class='wide'><table class='stats'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")
    return page("League", "".join(parts), kind="league")


def tournament_page(event: dict) -> str:
    """A tournament for the hall's screen and a phone: the current round's tables and the live
    standings side by side (stacked on a narrow screen), then every round's results."""
    api = "/api/tournaments/" + quote(event["name"], safe="")
    body = (
        f"<h1>{escape(event['name'])}</h1><p class='sub' id='round-line'></p>"
        "<section class='event'>"
        "<div><h2 id='pairings-title'>Tables</h2><div class='wide'><table id='pairings' class='pairings'><thead><tr><th>table</th><th>player</th>"
        "<th class='n'>VP</th><th class='n'>VP</th><th>player</th><th>result</th></tr></thead><tbody></tbody></table></div></div>"
        "<div><h2>Standings</h2><div class='wide'><table id='standings' class='standings'><thead><tr><th class='n'>#</th><th>player</th><th class='n'>points</th>"
        "<th class='n' title='strength of schedule: the sum of the opponents&#39; points'>SoS</th><th class='n'>VP ±</th><th class='n more'>VP</th>"
        "<th class='n'>W-D-L</th><th class='more'>kill teams</th></tr></thead><tbody></tbody></table></div>"
        "<p class='sub' id='tie-breakers'></p></div></section>"
        "<h2>Results</h2><div class='wide'><table id='results' class='stats'><thead><tr><th>round</th><th>table</th><th>player</th><th>kill team</th>"
        "<th class='n'>VP</th><th class='n'>VP</th><th>player</th><th>kill team</th><th>result</th></tr></thead><tbody></tbody></table></div>"
    )
    return page(event["name"], body + data_block("ktlog-tournament", event), kind="tournament", attrs={"api": api, "stream": "/api/tables/events"})


def message_page(heading: str, message: str) -> str:
    """A page that says what went wrong (an unknown game, an unreadable database)."""
    return page(heading, f"<h1>{escape(heading)}</h1><p class='notice'>{escape(message)}</p><p><a href='/'>All tables</a></p>", kind="message")


def _stream(game_id: str, state: dict) -> dict[str, str | int]:
    return {"game": game_id, "seq": state["seq"], "stream": f"/api/games/{game_id}/events?after={state['seq']}"}


def _select(name: str, options: list[str], chosen: str | None) -> str:
    items = "".join(f"<option{' selected' if o == chosen else ''}>{escape(o)}</option>" for o in options)
    return f"<label>{name} <select name='{name}'><option value=''>all</option>{items}</select></label>"


def _text(name: str, value: str | None) -> str:
    kind = "date" if name in ("since", "until") else "text"
    return f"<label>{name} <input type='{kind}' name='{name}' size='12' value='{escape(value or '')}'></label>"


def _query(**values: str | None) -> str:
    kept = {k: v for k, v in values.items() if v}
    return "?" + urlencode(kept) if kept else ""


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return "" if value is None else escape(str(value))
