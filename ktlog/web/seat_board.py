"""Where a seat's set-up or move ends, judged by the server (issue 44, item 3): the seat page
shows the board and sends the spot a player tapped; this answers what the move counts there,
what is left, the levels under it, and whether the rules take the event there (the refusal
with its rule and page), all from `ktlog.play.placing`, as the terminal's board dialog asks it.
The page never judges a spot itself; recording it goes through the seat's ordinary record path.

A request is {"event": TYPE, "answers": [[FIELD, VALUE], ...]} (the seat's move, as its form
answers it) with, optionally, "x", "y" (inches from the board's top left corner, on the board),
"z" (a level: the floor unless a Vantage part's top is under the spot), "furthest": true (as far
along the line toward x, y as the move allows, the terminal's `f`) and "draw": true (the board's
SVG with the other operatives, drawn once when the form opens). Without x and y: where the
operative starts (the terminal's cursor)."""

from __future__ import annotations

import math
from typing import Any

from .. import events as ev
from ..play import seats
from ..play.moves import Moves
from ..play.placing import Placeable, Placing, Spot
from ..state import GameState
from ..text.board_svg import SCALE, board_svg
from ..text.event_text import parse_event
from .writes import Refused


def placeable_type(state: GameState, event_type: str) -> bool:
    """Whether the seat's form asks where a move of this event type ends (a game with a layout)."""
    cls = ev.EVENT_TYPES.get(event_type)
    return state.layout is not None and cls is not None and issubclass(cls, Placeable)


def position_answers(event: ev.Event) -> list[tuple[str, str]]:
    """Where a recorded set-up or move ended, as answers (x, y, and z when up): a correction's
    form keeps them, the position being no question of its move."""
    if not isinstance(event, Placeable) or event.x is None or event.y is None:
        return []
    return [("x", f"{event.x:g}"), ("y", f"{event.y:g}"), *([("z", f"{event.z:g}")] if event.z else [])]


def spot_answer(state: GameState, player: str, body: dict, line: str) -> dict[str, Any]:
    """The answer to a seat's spot: `line` is the form's event without a position (made from its
    answers as the record path makes it)."""
    if state.layout is None:
        raise Refused(409, "no_layout", "this game has no layout (ktlog new --layout): its moves are recorded without a position")
    event = parse_event(line)
    if not isinstance(event, Placeable):
        raise Refused(
            400, "bad_request", f"{type(event).__name__} has no position: only a set-up or a move that ends somewhere (Reposition, Dash, Fall Back, Charge)"
        )
    if seats.move_answered(state, player, type(event).__name__, [(f, v) for f, v in body["answers"]]) is None:
        raise Refused(403, "not_your_seat", f"{type(event).__name__} of {event.operative} is not {player}'s to record now")
    placing = Placing(Moves(state), event)
    x, y, z = _where(placing, body)
    if body.get("furthest") is True and x is not None and y is not None:
        x, y, z = placing.furthest(x, y, z)
    elif x is None or y is None:
        x, y, z = placing.origin()
    levels = placing.levels(x, y)
    z = z if z in levels else 0.0  # off the Vantage part: on the floor, as the terminal's cursor
    answer = _spot(placing, placing.judge(x, y, z), levels)
    if body.get("draw") is True:
        answer["board"] = _drawing(placing)
    return answer


def _where(placing: Placing, body: dict) -> tuple[float | None, float | None, float]:
    """x, y and z as the request gives them, checked: numbers, x and y on the board, z a level."""
    layout = placing.layout
    given: dict[str, float | None] = {}
    for name, most in (("x", layout.width), ("y", layout.depth), ("z", None)):
        value = body.get(name)
        if value is None:
            given[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise Refused(400, "bad_value", f"{name}: {value!r} is not a number of inches; give {name} as a number (e.g. {name}=10.5)")
        if value < 0 or (most is not None and value > most):
            edge = f"0 to {most:g}" if most is not None else "0 or more"
            raise Refused(400, "bad_value", f'{name}={value:g} is off the board ({layout.width:g}" x {layout.depth:g}"): {name} runs {edge}; tap on the board')
        given[name] = float(value)
    if (given["x"] is None) != (given["y"] is None):
        raise Refused(400, "bad_request", "give both x and y (the spot on the board), or neither (where the operative starts)")
    return given["x"], given["y"], given["z"] or 0.0


def _spot(placing: Placing, spot: Spot, levels: list[float]) -> dict[str, Any]:
    event = spot.event
    return {
        "x": event.x,
        "y": event.y,
        "z": event.z or 0.0,
        "levels": levels,
        "used": spot.used,
        "allowed": spot.allowed,
        "left": spot.left,
        "problem": spot.problem,
        "distance": placing.distance(spot),
    }


def _drawing(placing: Placing) -> dict[str, Any]:
    """The board with every operative but the one placed (the page draws it where it is tapped,
    and where it started), with what the page needs to draw it in the board's units."""
    start = placing.start
    here = placing.at(*placing.origin())
    return {
        "svg": board_svg(placing.layout, placing.others, title=f"Where {placing.op.id} ends"),
        "scale": SCALE,
        "width": placing.layout.width,
        "depth": placing.layout.depth,
        "operative": placing.op.id,
        "radius": here.radius,
        "start": [start.x, start.y] if start is not None else None,
    }
