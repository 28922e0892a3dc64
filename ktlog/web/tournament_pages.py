"""The tournament pages besides the event's own (`pages.tournament_page`): the list of events, the
projector's view for the hall (the round's tables and the standings side by side at 1920x1080,
each panel paged when it does not fit), and the organiser's page (the day's operations,
`web.organiser`). Skeletons with the figures as a JSON block: static/ktlog.js renders the
projector, static/organiser.js the organiser's page. Every text from a user is escaped here or
written as text by the scripts."""

from __future__ import annotations

from urllib.parse import quote

from .pages import data_block, escape, page

PAGE_SECONDS = 12
"""How long the projector shows each page of a panel that does not fit on the screen."""


def _where(event: dict) -> str:
    if event["finished"]:
        return "finished"
    return f"round {event['round']} of {event['rounds']}" if event["round"] else f"{event['rounds']} rounds, not paired yet"


def tournaments_page(events: list[dict]) -> str:
    """Every tournament, with links to its page and its projector view."""
    rows = "".join(
        f"<tr><td><a href='/tournaments/{quote(e['name'], safe='')}'>{escape(e['name'])}</a></td><td class='n'>{e['players']}</td>"
        f"<td>{_where(e)}</td><td>{escape(e['ruleset'] or 'any ruleset')}</td><td><a href='/projector/{quote(e['name'], safe='')}'>projector</a></td></tr>"
        for e in events
    )
    table = (
        "<table id='tournaments' class='stats'><thead><tr><th>tournament</th><th class='n'>players</th><th>round</th><th>ruleset</th><th></th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
        if events
        else "<p class='notice'>No tournament yet: <code>ktlog tournament new NAME</code> creates one.</p>"
    )
    return page("Tournaments", f"<h1>Tournaments</h1>{table}", kind="tournaments")


def projector_page(event: dict, seconds: int = PAGE_SECONDS) -> str:
    """The hall's screen: the event's name, round and timer on one line; the round's tables and
    the standings below, each panel filling the screen's height and turning its pages every
    `seconds` when its rows do not fit (the page's script measures them)."""
    api = "/api/tournaments/" + quote(event["name"], safe="")
    body = (
        "<header class='bar'><h1>" + escape(event["name"]) + "</h1><span id='round-line'></span><span id='timer' class='timer' hidden></span></header>"
        "<section class='panels'>"
        "<div class='panel' id='tables-panel'><h2><span id='pairings-title'>Tables</span> <span class='page-of'></span></h2>"
        "<table id='pairings' class='pairings'><thead><tr><th class='n'>table</th><th>player</th><th class='n'>VP</th><th class='n'>VP</th>"
        "<th>player</th><th>result</th></tr></thead><tbody></tbody></table></div>"
        "<div class='panel' id='standings-panel'><h2>Standings <span class='page-of'></span></h2>"
        "<table id='standings' class='standings'><thead><tr><th class='n'>#</th><th>player</th><th class='n'>points</th><th class='n' id='first-breaker'></th>"
        "<th class='n'>VP ±</th><th class='n'>W-D-L</th></tr></thead><tbody></tbody></table></div>"
        "</section><p class='sub' id='tie-breakers'></p>"
    )
    attrs: dict[str, str | int] = {"api": api, "stream": "/api/tables/events", "seconds": seconds}
    return page(event["name"], body + data_block("ktlog-tournament", event), kind="projector", attrs=attrs)


def organiser_page(event: dict, enabled: bool) -> str:
    """The organiser's page (static/organiser.js): the token is in the link's fragment, which the
    browser never sends; every operation posts to /api/organiser/NAME with it."""
    name = event["name"]
    if not enabled:
        note = (
            "<p class='notice'>This server does not take the organiser's operations: start it with "
            "<code>ktlog serve --organiser</code>, and open the link <code>ktlog tournament organiser NAME</code> prints.</p>"
        )
        return page(f"Organiser: {name}", f"<h1>{escape(name)}</h1>{note}", kind="message")
    api = "/api/organiser/" + quote(name, safe="")
    body = (
        f"<h1>{escape(name)}: organiser</h1><p class='sub' id='round-line'></p>"
        "<p id='outcome' class='outcome' role='status'></p>"
        "<section class='ops'>"
        "<div><h2>Round</h2><div class='row'><button id='pair'>Pair the next round</button><button id='re-pair'>Pair this round again</button></div>"
        "<div class='row'><label>timer <input id='minutes' type='number' min='1' max='1440' value='150' size='5'> minutes</label>"
        "<button id='timer-start'>Start</button><button id='timer-stop'>Stop</button><span id='timer' class='timer'></span></div>"
        "<div class='row'><button id='reopen'>Reopen the round before</button><button id='reopen-close'>Close the reopening</button></div>"
        "<div class='row'><label>swap <select id='swap-a'></select></label><label>with <select id='swap-b'></select></label><button id='swap'>Swap</button></div>"
        "<table id='round-tables' class='stats'><thead><tr><th class='n'>table</th><th>player</th><th>player</th><th>result</th>"
        "<th>score A-B</th><th></th></tr></thead><tbody></tbody></table></div>"
        "<div><h2>Players</h2><div class='row'><input id='add-names' placeholder='names, comma separated' size='30'><button id='add'>Register</button></div>"
        "<table id='entrants' class='stats'><thead><tr><th>player</th><th>club</th><th>status</th><th></th></tr></thead><tbody></tbody></table></div>"
        "</section>"
    )
    return page(f"Organiser: {name}", body + data_block("ktlog-tournament", event), kind="organiser", attrs={"api": api})
