"""The organiser's operations over the web (`ktlog serve --organiser`): the day's operations of
`ktlog tournament` from the tournament's organiser page, each the same function the command
line calls.

Every write is `POST /api/organiser/NAME` with `Authorization: Bearer TOKEN` (the token the
organiser's link carries in its fragment, `ktlog tournament organiser NAME`; only its hash is
stored) and a JSON body `{"action": ..., ...}` of at most BODY_LIMIT bytes. The answer is the
outcome in words and the tournament as the page shows it (`{"done": TEXT, "view": ...}`), or a
refusal in the seats' one shape, worded as the command line words it: 401 no token or a wrong
one, 404 no such tournament, 400 an action that does not read or is refused by the rules of
the event (with its sentence), 413 a body too large. Writes use a store of their own, one at a
time, in a worker thread (as the seats' do)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import GameNotFound, KtlogError, StoreError
from ..play import tournament, tournament_entry, tournament_results, tournament_rounds
from ..play.database import Store
from .responses import refusal
from .writes import Refused, WritingApi, bearer, json_body

T = TypeVar("T")


class OrganiserApi(WritingApi):
    """The organiser's route over the database `db`, with its own writing store."""

    writers = "the organiser's actions"

    def routes(self) -> list[Route]:
        return [Route("/api/organiser/{name:path}", self.act, methods=["POST"])]

    async def act(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            body = await json_body(request)
            done = await self.in_thread(lambda: self._act(name, bearer(request), body))
        except Refused as exc:
            return refusal(exc.status, exc.kind, str(exc), **exc.extra)
        except GameNotFound as exc:
            return refusal(404, "no_tournament", str(exc))
        except StoreError as exc:
            self.close()
            return refusal(503, "unavailable", str(exc))
        except KtlogError as exc:
            return refusal(400, "refused", str(exc))
        return JSONResponse(done)

    def _act(self, name: str, token: str | None, body: dict) -> dict[str, Any]:
        self.still_the_file()
        store = self.store()
        event = tournament.load(store, name)
        if not tournament.organiser_token_matches(event, token):
            raise Refused(401, "no_token", "this needs the organiser's token: open the link `ktlog tournament organiser NAME` prints (a new one ends the old)")
        action = body.get("action")
        if action not in ACTIONS:
            raise Refused(400, "bad_request", f"action {action!r}: one of {', '.join(ACTIONS)}")
        done = ACTIONS[action](store, event.name, body)
        return {"done": done, "view": tournament.view(tournament.load(store, event.name))}


def _text(body: dict, field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise Refused(400, "bad_request", f"give {field} as text")
    return value


def _number(body: dict, field: str, *, optional: bool = False) -> int | None:
    value = body.get(field)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refused(400, "bad_request", f"give {field} as a whole number")
    return value


def _add(store: Store, name: str, body: dict) -> str:
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Refused(400, "bad_request", 'give {"players": [NAME, ...]}')
    added = tournament_entry.add(store, name, players)
    return f"registered {', '.join(r.entrant.name for r in added)}"


def _check_in(store: Store, name: str, body: dict) -> str:
    changed = tournament_entry.check_in(store, name, [_text(body, "player")], undo=body.get("undo") is True)
    return f"{'checked out' if body.get('undo') is True else 'checked in'}: {', '.join(e.name for e in changed) or 'nobody new'}"


def _drop(store: Store, name: str, body: dict) -> str:
    entrant, table = tournament_entry.drop(store, name, _text(body, "player"))
    return f"{entrant.name} drops after round {entrant.dropped_after}" + (f"; their table {table.table} is still open" if table else "")


def _rejoin(store: Store, name: str, body: dict) -> str:
    entrant = tournament_entry.rejoin(store, name, _text(body, "player"))
    return f"{entrant.name} rejoins from round {entrant.joins_round}"


def _remove(store: Store, name: str, body: dict) -> str:
    return f"removed {tournament_entry.remove(store, name, _text(body, 'player')).name}"


def _pair(store: Store, name: str, body: dict) -> str:
    paired = tournament_rounds.pair(store, name, _number(body, "seed", optional=True))
    return f"round {paired.round} paired: {len(paired.tables)} tables"


def _re_pair(store: Store, name: str, body: dict) -> str:
    paired = tournament_rounds.re_pair(store, name, _number(body, "seed", optional=True))
    return f"round {paired.round} paired again: {len(paired.tables)} tables"


def _swap(store: Store, name: str, body: dict) -> str:
    one, two = tournament_rounds.swap(store, name, _text(body, "first"), _text(body, "second"))
    return f"swapped: table {one.table} {one.a} v {one.b or 'bye'}, table {two.table} {two.a} v {two.b or 'bye'}"


def _no_show(store: Store, name: str, body: dict) -> str:
    player = _text(body, "player")
    if body.get("undo") is True:
        t = tournament_rounds.undo_no_show(store, name, player)
        return f"table {t.table}: the no-show is taken back"
    t = tournament_rounds.record_no_show(store, name, player)
    return f"table {t.table}: {player} did not show"


def _result(store: Store, name: str, body: dict) -> str:
    reported = tournament_results.report(
        store, name, _number(body, "table") or 0, _text(body, "score"), round_=_number(body, "round", optional=True), confirmed=body.get("confirmed") is True
    )
    t = reported.table
    return f"table {t.table}: {t.a} {reported.vp[t.a]} - {reported.vp[t.b or '']} {t.b}"


def _timer(store: Store, name: str, body: dict) -> str:
    minutes = None if body.get("stop") is True else _number(body, "minutes")
    event = tournament_rounds.start_timer(store, name, minutes)
    shown = tournament.timer_view(event)
    return f"round {shown['round']} timer: {shown['seconds_left'] // 60} minutes" if shown else "timer stopped"


def _reopen(store: Store, name: str, body: dict) -> str:
    event = tournament_rounds.reopen(store, name, _number(body, "round", optional=True), close=body.get("close") is True)
    return tournament_rounds.reopened_warning(event) or "no round is reopened"


ACTIONS: dict[str, Callable[[Store, str, dict], str]] = {
    "add": _add,
    "check-in": _check_in,
    "drop": _drop,
    "rejoin": _rejoin,
    "remove": _remove,
    "pair": _pair,
    "re-pair": _re_pair,
    "swap": _swap,
    "no-show": _no_show,
    "result": _result,
    "timer": _timer,
    "reopen": _reopen,
}
"""Each action of the organiser's page, as `ktlog tournament`'s subcommand of the same name."""
