"""The Starlette app of `ktlog serve`: read-only routes (GET only) for the pages and the JSON
API, the event streams fed by the log follower, and the static script and stylesheet. Every
response carries a Content-Security-Policy that allows only the app's own files."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import OrderedDict
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import GameNotFound, KtlogError
from ..play.replay import Replay
from ..play.timeline import Timeline
from ..storage.store import Store
from ..text.json_views import score_view, state_view
from . import pages
from .follower import Follower, Viewer
from .seats import SeatApi
from .source import Source, Unavailable
from .tables import table_rows
from .views import log_rows

CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'"
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer")]
REPLAYS_KEPT = 8
"""Replay cursors kept open (one per game being replayed; the oldest is dropped first)."""


class BadRequest(KtlogError):
    """A query parameter the route cannot use."""


class SecurityHeaders:
    """Adds the Content-Security-Policy and its companions to every response (streams too)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers if scope["type"] == "http" else send)


def make_app(db: Path, *, interval: float = 0.02, seats: bool = False) -> Starlette:
    """The web app over the database `db`; the follower asks it for new events every `interval` s.
    `seats`: players' seats may record (`web.seats`); without it every write is answered 405."""
    source = Source(db)
    seat_api = SeatApi(db) if seats else None
    follower = Follower(source, interval)
    replays: OrderedDict[tuple[str, int], Replay] = OrderedDict()

    def game_of(store: Store, request: Request) -> tuple[str, str]:
        game_id = store.resolve(request.path_params["game"])
        row = store.game(game_id)
        return game_id, " vs ".join(f"{p} ({t})" for p, t in zip(row.players, row.kill_teams))

    def replay_of(store: Store, game_id: str) -> Replay:
        key = (game_id, store.game(game_id).head_seq)
        if key not in replays:
            replays[key] = Replay.open(store, game_id)
            while len(replays) > REPLAYS_KEPT:
                replays.popitem(last=False)
        replays.move_to_end(key)
        return replays[key]

    def state_at(store: Store, game_id: str, request: Request):
        at, tp = _int(request, "at"), _int(request, "tp")
        if at is not None and tp is not None:
            raise BadRequest("give at=SEQ or tp=N, not both")
        if at == 0:
            raise BadRequest("at=0 is before the game was created; the first state is at=1")
        if tp is not None:
            replay = replay_of(store, game_id)
            return replay.seek(replay.timeline.turning_point_end(tp))
        return store.state(game_id, at)

    # --- pages ------------------------------------------------------------------------------

    async def tables(request: Request) -> Response:
        league, round_ = request.query_params.get("league") or None, request.query_params.get("round") or None
        with source.reading() as store:
            rows = table_rows(store, league, round_)
            choices = _labels(store)
        return HTMLResponse(pages.tables_page(rows, league, round_, choices))

    async def game(request: Request) -> Response:
        with source.reading() as store:
            game_id, title = game_of(store, request)
            state = store.state(game_id)
            rows = log_rows(Timeline(store.events(game_id, upto=state.seq)), state)
            return HTMLResponse(pages.game_page(game_id, title, state_view(game_id, state, spectator=True), rows))

    async def overlay(request: Request) -> Response:
        with source.reading() as store:
            game_id, title = game_of(store, request)
            return HTMLResponse(pages.overlay_page(game_id, title, state_view(game_id, store.state(game_id), spectator=True)))

    async def replay(request: Request) -> Response:
        with source.reading() as store:
            game_id, title = game_of(store, request)
            cursor = replay_of(store, game_id)
            rows = log_rows(cursor.timeline, cursor.final)
            return HTMLResponse(pages.replay_page(game_id, title, state_view(game_id, cursor.final, spectator=True), rows))

    async def league(request: Request) -> Response:
        filters = {k: request.query_params.get(k) or None for k in ("league", "season", "round", "since", "until", "ruleset", "player", "team")}
        for day in ("since", "until"):
            if filters[day] and not _is_day(filters[day]):
                raise BadRequest(f"{day} must be a day as YYYY-MM-DD, not {filters[day]!r}")
        with source.reading():  # a missing or foreign file gets the same page as everywhere else
            pass
        message, frames, choices = await run_in_threadpool(_league_tables, source.path, filters)
        return HTMLResponse(pages.league_page(filters, choices, frames, message))

    # --- JSON -------------------------------------------------------------------------------

    async def api_games(request: Request) -> Response:
        with source.reading() as store:
            return JSONResponse(table_rows(store, request.query_params.get("league") or None, request.query_params.get("round") or None))

    async def api_state(request: Request) -> Response:
        with source.reading() as store:
            game_id, _ = game_of(store, request)
            return JSONResponse(state_view(game_id, state_at(store, game_id, request), spectator=True))

    async def api_score(request: Request) -> Response:
        with source.reading() as store:
            game_id, _ = game_of(store, request)
            return JSONResponse(score_view(game_id, state_at(store, game_id, request), spectator=True))

    async def api_log(request: Request) -> Response:
        with source.reading() as store:
            game_id, _ = game_of(store, request)
            state = state_at(store, game_id, request)
            return JSONResponse(log_rows(Timeline(store.events(game_id)), state))

    async def api_events(request: Request) -> Response:
        after = _int(request, "after")
        last = request.headers.get("last-event-id")
        if last:
            if not last.isdigit():
                raise BadRequest(f"Last-Event-ID must be a seq (a whole number), not {last!r}")
            after = int(last)
        with source.reading() as store:
            game_id, _ = game_of(store, request)
            viewer = follower.watch_game(store, game_id, after)
        return _stream(viewer, lambda: follower.leave_game(game_id, viewer))

    async def api_tables_events(request: Request) -> Response:
        viewer = follower.watch_tables(request.query_params.get("league") or None, request.query_params.get("round") or None)
        return _stream(viewer, lambda: follower.leave_tables(viewer))

    # --- errors -----------------------------------------------------------------------------

    def problem(request: Request, status: int, heading: str, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        return HTMLResponse(pages.message_page(heading, message), status_code=status)

    async def not_found(request: Request, exc: Exception) -> Response:
        return problem(request, 404, "Not found", str(exc))

    async def unavailable(request: Request, exc: Exception) -> Response:
        return problem(request, 503, "Database unavailable", str(exc))

    async def bad_request(request: Request, exc: Exception) -> Response:
        return problem(request, 400, "Bad request", str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        texts = {404: f"there is no page {request.url.path}; the tables are at /", 405: "this server is read-only: only GET requests are answered"}
        response = problem(request, exc.status_code, "Not found" if exc.status_code == 404 else "Not allowed", texts.get(exc.status_code, exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        follower.start()
        try:
            yield
        finally:
            await follower.stop()
            source.close()
            if seat_api is not None:
                seat_api.close()

    routes = [
        *(seat_api.routes() if seat_api is not None else []),
        Route("/", tables),
        Route("/games/{game}", game),
        Route("/games/{game}/overlay", overlay),
        Route("/games/{game}/replay", replay),
        Route("/league", league),
        Route("/api/games", api_games),
        Route("/api/games/{game}", api_state),
        Route("/api/games/{game}/score", api_score),
        Route("/api/games/{game}/log", api_log),
        Route("/api/games/{game}/events", api_events),
        Route("/api/tables/events", api_tables_events),
        Mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static"),
    ]
    handlers: dict[Any, Any] = {GameNotFound: not_found, Unavailable: unavailable, KtlogError: bad_request, HTTPException: http_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.follower = follower
    app.state.source = source
    app.add_middleware(SecurityHeaders)
    return app


class Server(uvicorn.Server):
    """uvicorn's server, ending the event streams first when asked to stop (a stream never
    ends by itself, and uvicorn waits for open responses before it stops)."""

    def __init__(self, app: Starlette, **config: Any):
        super().__init__(uvicorn.Config(app, **config))
        self.follower: Follower = app.state.follower

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.follower.end_streams()
        super().handle_exit(sig, frame)


def _stream(viewer: Viewer, leave) -> StreamingResponse:
    async def chunks():
        try:
            async for chunk in viewer.chunks():
                yield chunk
        finally:
            leave()

    return StreamingResponse(chunks(), media_type="text/event-stream", headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


def _int(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    if not value.isdigit():
        raise BadRequest(f"{name} must be a whole number of 0 or more, not {value!r}")
    return int(value)


def _is_day(text: str) -> bool:
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _labels(store: Store) -> dict[str, list[str]]:
    """The leagues and rounds of the games, for the tables page's filter."""
    return {
        label: [v for (v,) in store.conn.execute(f"SELECT DISTINCT {label} FROM games WHERE coalesce({label}, '') != '' ORDER BY {label}")]
        for label in ("league", "round")
    }


def _league_tables(db: Path, filters: dict[str, str | None]) -> tuple[str | None, list[tuple[str, list[str], list[tuple]]], dict[str, list[str]]]:
    """The standings and the kill-team table of `ktlog stats` (run in a worker thread: Polars
    reads the file through its own connection)."""
    from ..analytics.league import Filters, League, filter_choices
    from ..analytics.performance import entity_stats
    from ..analytics.standings import standings

    choices = filter_choices(db)
    days = {k: dt.date.fromisoformat(v) for k, v in filters.items() if k in ("since", "until") and v}
    try:
        league = League(db, Filters(**(filters | days)))
        frames = [("Standings", standings(league)), ("Kill teams", entity_stats(league, "kill_team"))]
    except KtlogError as exc:  # nothing to compute, an unknown player ...
        return str(exc), [], choices
    return None, [(heading, frame.columns, frame.rows()) for heading, frame in frames], choices
