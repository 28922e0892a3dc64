"""A player's seat's page (`static/seat.js` runs it), drawn by the server when the seat's view
comes with the request (issue 39 #8): the parts `seat.js`'s `render()` fills from the view (who,
the score, the end, the next step, the active operative, the move buttons) as the same elements
with the same text, and the stylesheet in the page, so a reopened seat is drawn in one round trip
with nothing else blocking it; the script, last in the page and `async` (the document never waits
for it), then draws them again from the same view with their handlers attached, and the log with
them: its rows are not in the page, so the browser's first frame is the seat's first screen alone
(their layout, paint and raster put the page's first paint about 0.1x of a static file's later:
docs/performance.md).
Every text from a game is escaped. The two drawings are kept the same by
tests/test_web_seats_browser.py (the page without its script against the page with it)."""

from __future__ import annotations

from typing import Any

from .pages import TITLE, data_block, escape

FIRST = ("fight", "charge", "dash", "reposition", "end_activation", "shoot")
"""The common moves, first (above the fold): seat.js's FIRST."""
BY_CHOICE = ("operative", "player")
"""A move whose first question chooses one of these is a button for each choice: seat.js's BY_CHOICE."""

Sections = dict[str, str]
"""Each drawn element's id -> its inner HTML."""
NO_VIEW: tuple[Sections, set[str]] = ({}, {"provisional", "active", "end"})
"""A page without the seat's view: the script asks for it with the token."""


def seat_page(game: str, view: dict[str, Any] | None, script: str, style: str, board: str) -> str:
    """The seat's page: its token is in the link's fragment, which the browser never sends, then
    in a cookie of this page's path; `view`, the seat's view when the cookie came with the
    request, is in the page as JSON and drawn (else the script asks for it with the token).
    `script`: the script's address; `style`: the stylesheet, in the page (allowed by its hash);
    `board`: the board's script's address, which `script` loads only when a form shows the board."""
    sections, hidden = first_screen(view) if view else NO_VIEW

    def part(tag: str, name: str, cls: str, inner: str = "") -> str:
        attrs = (f" class='{cls}'" if cls else "") + (" hidden" if name in hidden else "")
        return f"<{tag} id='{name}'{attrs}>{sections.get(name, inner)}</{tag}>"

    undo = " disabled" if view and view.get("undoable") is None else ""
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><link rel='icon' href='data:,'>"
        f"<title>Seat · {TITLE}</title><style>{style}</style></head>"
        f"<body class='seat' data-game='{escape(game)}' data-board='{escape(board)}'>"
        + (data_block("seat-view", view) if view else "")
        + f"<header>{part('h1', 'who', '', 'Seat')}<span id='net' class='net'>connecting</span></header>"
        "<p id='problem' class='problem' role='alert' hidden></p>"
        f"<section id='end' class='end'{' hidden' if 'end' in hidden else ''}><h2>The game is over</h2>{part('p', 'result', 'result')}{part('ul', 'end-vp', 'end-vp')}"
        f"{part('p', 'end-disputes', '')}{part('p', 'end-signed', '')}<button id='sign' class='ok'{' hidden' if 'sign' in hidden else ''}>Sign the result</button></section>"
        + part("p", "provisional", "provisional")
        + part("section", "score", "score")
        + part("p", "next", "next")
        + part("div", "active", "active")
        + part("div", "moves", "moves")
        + f"<details id='more' class='more'><summary>More</summary>{part('div', 'more-moves', 'moves')}"
        f"<div class='tools'><button id='undo'{undo}>Undo my last</button><button id='note'>Note</button><button id='type-line'>Type a line</button></div></details>"
        "<section id='form' class='sheet' role='dialog' aria-labelledby='form-what' hidden><h2 id='form-what'></h2><div id='form-answered' class='answered'></div>"
        "<p id='form-problem' class='problem' role='alert' hidden></p><div id='form-body'></div>"
        "<div id='pad' class='pad' hidden>"
        + "".join(f"<button data-die='{d}'>{d}</button>" for d in range(1, 7))
        + "<button data-die='back' aria-label='delete a die'>⌫</button></div>"
        "<div class='actions'><button id='form-ok' class='ok'>Record</button><button id='form-cancel'>Cancel</button></div></section>"
        "<section id='fix' class='sheet' role='dialog' aria-labelledby='fix-what' hidden><h2 id='fix-what'></h2><p id='fix-hint' class='hint'></p><textarea id='fix-line' rows='3' autocomplete='off'></textarea>"
        "<div class='actions'><button id='fix-send' class='ok'>Send</button><button id='fix-cancel'>Cancel</button></div></section>"
        "<section id='card' class='sheet' role='dialog' aria-labelledby='card-name' hidden><h2 id='card-name'></h2><div id='card-body'></div>"
        "<div class='actions'><button id='card-close'>Close</button></div></section>"
        "<section class='log-part'><h2>Log</h2><ol id='log' class='log' reversed></ol></section>"
        f"<noscript><p>The seat needs JavaScript.</p></noscript><script src='{script}' async></script></body></html>"
    )


def first_screen(view: dict[str, Any]) -> tuple[Sections, set[str]]:
    """The inner HTML of each part of the seat's page the view fills, and the parts left hidden."""
    me, state = view["player"], view["state"]
    disputes = state.get("open_disputes", [])
    over = view.get("result") is not None
    active = next((o for o in state["operatives"] if o["id"] == state.get("active_operative")), None)
    common = sorted((m for m in view["moves"] if not m.get("more")), key=lambda m: FIRST.index(m["kind"]) if m["kind"] in FIRST else len(FIRST))
    sections = {
        "who": escape(f"{me}'s seat"),
        "score": _score(state, me),
        "provisional": escape("Provisional: " + "; ".join(f"seq {d['target']} disputed by {d['by']}: {d['reason']}" for d in disputes)) if disputes else "",
        "next": "" if over or not view.get("next") else escape("Next: " + view["next"]),
        "active": _active(active) if active else "",
        "moves": "".join(b for m in common for b in _move_buttons(m, view)),
        "more-moves": "".join(_button(m.get("title") or m["label"], "move", kind=m["kind"]) for m in view["moves"] if m.get("more")),
    }
    hidden = {name for name, shown in (("provisional", disputes), ("active", active), ("end", over)) if not shown}
    if over:
        sections |= _end(view, disputes)
        if me in view["signers"] or disputes:
            hidden.add("sign")
    return sections, hidden


def _button(text: str, cls: str = "small", **data: str) -> str:
    attrs = "".join(f" data-{k}='{escape(v)}'" for k, v in data.items())
    return f"<button type='button' class='{cls}'{attrs}>{escape(text)}</button>"


def _score(state: dict[str, Any], me: str) -> str:
    lines = []
    for p in state["players"]:
        said = [(k.replace("_", " "), "none" if s["choice"] is None else s["choice"]) for k, s in (p.get("secrets") or {}).items()]
        secrets = "".join(f"<span class='secret'>{escape(f' · {k}: {choice}')}</span>" for k, choice in said)
        line = f"{p['name']}: {p['vp']['total']} VP, {p['cp']} CP"
        lines.append(f"<p class='{'me' if p['name'] == me else ''}'>{escape(line)}{secrets}</p>")
    if state.get("turning_point"):
        lines.append(f"<p class='tp'>Turning point {state['turning_point']}</p>")
    return "".join(lines)


def _active(op: dict[str, Any]) -> str:
    text = f"Active: {op['id']} · {op['name']} · {max(op['wounds'], 0)}/{op['max_wounds']} W · {op['order']}"
    return f"<span>{escape(text)}</span>{_button('Card')}"


def _move_buttons(move: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """A move's button, or one for each choice of its first question (seat.js's moveButtons)."""
    title = move.get("title") or move["label"]
    first = (move.get("questions") or [None])[0]
    by_choice = first is not None and (first["kind"] in BY_CHOICE or (first["kind"] == "target" and move["kind"] == "shoot"))
    if not by_choice or first.get("optional") or any(c.get("when") for c in first.get("choices", [])):
        return [_button(title, "move", kind=move["kind"])]
    covered = lambda c: " · in cover when last shot" if first["kind"] == "target" and view["cover"].get(c["value"]) else ""  # noqa: E731
    return [_button(f"{title}: {c['label']}{covered(c)}", "move", kind=move["kind"], value=c["value"]) for c in first.get("choices", [])]


def _end(view: dict[str, Any], disputes: list[dict[str, Any]]) -> Sections:
    """The game-over section's parts (seat.js's renderEnd)."""
    result, signers = view["result"], view["signers"]
    players = view["state"]["players"]
    vp = []
    for p in players:
        ops = [f"{op} {n}" for op, n in p["vp"].items() if op != "total"]
        line = f"{p['name']}: {p['vp']['total']} VP" + (f" ({', '.join(ops)})" if ops else "")
        vp.append(f"<li>{escape(line)}</li>")
    n = len(disputes)
    unsigned = [p["name"] for p in players if p["name"] not in signers]
    signed = (f"Signed by {', '.join(signers)}" if signers else "Not signed yet") + (
        f"; waiting for {', '.join(unsigned)}" if signers and unsigned else "" if unsigned else ": final"
    )
    return {
        "result": escape(result[:1].upper() + result[1:]),
        "end-vp": "".join(vp),
        "end-disputes": escape(f"{n} open dispute{'s' if n > 1 else ''}: the result is provisional and cannot be signed yet" if n else "No open dispute."),
        "end-signed": escape(signed),
    }
