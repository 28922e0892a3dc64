"""The Starlette app of `ktlog serve`: its routes (`routes`, the one list), what they share
(`app.state`: the settings, the source, the follower, the replays, the game pages as made and as sent, the kept game logs, the overlays'
win probabilities, the league worker, the client streams), the middleware every request passes (`guard.py`, then
`kept.SendAgain`: a game page sent before and still current goes no further), the server that ends its
streams when it stops, and the socket it listens on."""

from __future__ import annotations

import contextlib
import errno
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import KtlogError
from . import handlers
from .follower import Follower
from .game_log import GameLogs
from .guard import STREAMS_PER_CLIENT, ClientStreams, Guard, allowed_hosts
from .handlers import CHANCES_KEPT, Replays, reads
from .kept import PAGES_KEPT, Kept, Made, SendAgain, Sent
from .league import LeagueWorker
from .organiser import OrganiserApi
from .responses import ERROR_HANDLERS
from .seats import SeatApi
from .source import Source


@dataclass(frozen=True)
class Settings:
    """How the server was started: its database, the names it answers to (`guard.allowed_hosts`),
    how often the follower looks, and the streams one address may hold."""

    db: Path
    names: frozenset[str]
    interval: float = 0.02
    streams_per_client: int = STREAMS_PER_CLIENT
    seats: bool = False
    """Players' seats may record (`web.seats`, `ktlog serve --seats`); without it every write is a 405."""
    organiser: bool = False
    """The organiser's page may run the tournaments (`web.organiser`, `ktlog serve --organiser`)."""


def routes() -> list[BaseRoute]:
    """Every route of the server (a new group of routes is added here)."""
    return [
        Route("/", reads(handlers.tables)),
        Route("/games/{game}", handlers.game),
        Route("/games/{game}/overlay", reads(handlers.overlay)),
        Route("/games/{game}/replay", reads(handlers.replay)),
        Route("/league", handlers.league),
        Route("/tournaments", reads(handlers.tournaments)),
        Route("/tournaments/", reads(handlers.tournaments)),
        Route("/tournaments/{name:path}", reads(handlers.tournament)),
        Route("/projector/{name:path}", reads(handlers.projector)),
        Route("/organiser/{name:path}", reads(handlers.organiser)),
        Route("/api/organiser/{name:path}", handlers.organiser_off, methods=["POST"]),
        Route("/api/tournaments/", reads(handlers.api_tournaments)),
        Route("/api/tournaments/{name:path}", reads(handlers.api_tournament)),
        Route("/api/games", reads(handlers.api_games)),
        Route("/api/games/{game}", reads(handlers.api_state)),
        Route("/api/games/{game}/score", reads(handlers.api_score)),
        Route("/api/games/{game}/board.svg", reads(handlers.api_board)),
        Route("/api/games/{game}/log", reads(handlers.api_log)),
        Route("/api/games/{game}/chance", reads(handlers.api_chance)),
        Route("/api/games/{game}/events", handlers.game_events),
        Route("/api/tables/events", handlers.tables_events),
        Mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static"),
    ]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    await app.state.follower.start()
    try:
        yield
    finally:
        await app.state.follower.stop()
        app.state.league.close()
        app.state.source.close()
        if app.state.seats is not None:
            app.state.seats.close()
        if app.state.organiser is not None:
            app.state.organiser.close()


def make_app(
    db: Path,
    *,
    interval: float = 0.02,
    hosts: Sequence[str] = ("127.0.0.1",),
    allow: Sequence[str] = (),
    streams_per_client: int = STREAMS_PER_CLIENT,
    seats: bool = False,
    organiser: bool = False,
) -> Starlette:
    """The web app over the database `db`, listening on `hosts` and answering to their names and
    to `allow`; the follower asks the database for new events every `interval` s."""
    settings = Settings(Path(db), allowed_hosts(hosts, allow), interval, streams_per_client, seats, organiser)
    source, sent = Source(settings.db), Sent(PAGES_KEPT)
    seat_api = SeatApi(settings.db, source.adopt, source.replaced) if seats else None
    organiser_api = OrganiserApi(settings.db, source.replaced) if organiser else None
    source.writers = [api.let_go_if_lost for api in (seat_api, organiser_api) if api is not None]
    app = Starlette(
        routes=[*(seat_api.routes() if seat_api else []), *(organiser_api.routes() if organiser_api else []), *routes()],
        exception_handlers=ERROR_HANDLERS,
        lifespan=lifespan,
        middleware=[Middleware(Guard, allowed=settings.names), Middleware(SendAgain, sent=sent, source=source)],
    )
    app.state.settings = settings
    app.state.seats = seat_api
    app.state.organiser = organiser_api
    app.state.source = source
    app.state.follower = Follower(source, interval)
    app.state.replays = Replays()
    app.state.pages = Kept[Made](PAGES_KEPT)
    app.state.sent = sent
    app.state.logs = GameLogs()
    app.state.chances = Kept[dict | None](CHANCES_KEPT)
    app.state.league = LeagueWorker()
    app.state.streams = ClientStreams(streams_per_client)
    return app


SERVER_SETTINGS: dict[str, Any] = {"log_level": "warning", "timeout_graceful_shutdown": 2, "proxy_headers": False}
"""uvicorn's settings for `ktlog serve` (no proxy: the client's own address); uvicorn picks its
HTTP parser and event loop itself. benchmarks/game_page_bench.py runs its bare app with these."""


class Server(uvicorn.Server):
    """uvicorn's server, ending the event streams first when asked to stop (a stream never
    ends by itself, and uvicorn waits for open responses before it stops)."""

    def __init__(self, app: Starlette, **config: Any):
        super().__init__(uvicorn.Config(app, **config))
        self.follower: Follower = app.state.follower

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.follower.end_streams()
        super().handle_exit(sig, frame)


def listen(host: str, port: int) -> socket.socket:
    """The socket the server will take its connections from, bound before anything is said to
    be served; a port in use or an address not of this machine is one sentence."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)  # as uvicorn binds: localhost is 127.0.0.1
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if isinstance(exc, socket.gaierror):
            raise KtlogError(f"cannot listen on {host}: it is not an address or a name this machine knows; give another with --host") from exc
        if exc.errno == errno.EADDRINUSE:
            raise KtlogError(f"port {port} is in use; give another with --port") from exc
        if exc.errno == errno.EACCES:
            raise KtlogError(f"port {port} needs administrator rights (ports below 1024 do); give another with --port") from exc
        if exc.errno == errno.EADDRNOTAVAIL:
            raise KtlogError(f"{host} is not an address of this machine; give one of its own with --host (0.0.0.0: every one)") from exc
        raise KtlogError(f"cannot listen on {host} port {port}: {exc.strerror}; give another --host or --port") from exc
    return sock
