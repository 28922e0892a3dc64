"""Pages kept as sent (issue 26): made once a head in the source's worker thread (`Kept`), and
sent again straight from the event loop while the database says nothing was committed since
(`Sent`, answered by `SendAgain` before any routing), with an ETag so a browser that has the page
is answered 304."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .source import Source, Version

PAGES_KEPT = 32
"""Game and replay pages kept as sent (one per page, game and head)."""
T = TypeVar("T")


class Kept(Generic[T]):
    """What was worked out for a game at one head, by key (a new event makes a new head, so
    nothing kept is ever out of date), the most recently used kept. Reads run one at a time in
    the source's worker thread, so it needs no lock."""

    def __init__(self, kept: int):
        self.kept = kept
        self.values: OrderedDict[Hashable, T] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        if key not in self.values:
            self.values[key] = make()
            while len(self.values) > self.kept:
                self.values.popitem(last=False)
        self.values.move_to_end(key)
        return self.values[key]


@dataclass(frozen=True)
class Made:
    """A page as sent, and its ETag (a digest of its bytes), with its two answers made once:
    the page and the 304 (a Starlette response only sends what it holds, so one serves every
    request; making them again cost a tenth of the server's CPU a request, issue 26)."""

    body: bytes
    etag: str = field(init=False)
    page: Response = field(init=False, repr=False, compare=False)
    kept: Response = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        etag = '"' + hashlib.blake2b(self.body, digest_size=16).hexdigest() + '"'
        headers = {"etag": etag, "cache-control": "no-cache"}
        object.__setattr__(self, "etag", etag)
        object.__setattr__(self, "page", HTMLResponse(self.body, headers=headers))
        object.__setattr__(self, "kept", Response(status_code=304, headers=headers))

    def response(self, request: Request) -> Response:
        return self.answer(request.headers.get("if-none-match"))

    def answer(self, asked: str | None) -> Response:
        """The page, or 304 when If-None-Match (`asked`) names it (the browser has it).
        `no-cache`: a browser asks again each time (the page is live), and is sent 304 while
        nothing changed."""
        if asked and (asked.strip() == "*" or self.etag in (tag.strip().removeprefix("W/") for tag in asked.split(","))):
            return self.kept
        return self.page


class Sent:
    """The game page last sent for each path and query string asked (as the request gave them),
    with the version of the database it was read at; used on the event loop only."""

    def __init__(self, kept: int = PAGES_KEPT):
        self.kept = kept
        self.pages: OrderedDict[tuple[str, bytes], tuple[Version, Made]] = OrderedDict()

    def get(self, scope: Scope) -> tuple[Version, Made] | None:
        return self.pages.get((scope["path"], scope["query_string"]))

    def put(self, scope: Scope, version: Version, made: Made) -> None:
        key = scope["path"], scope["query_string"]
        self.pages[key] = (version, made)
        self.pages.move_to_end(key)
        while len(self.pages) > self.kept:
            self.pages.popitem(last=False)


class SendAgain:
    """The middleware that answers a GET of a page in `sent` (its path and query string as the
    request that made it gave them) before any routing, while the database says nothing was
    committed since: the same answer as the route's (the page, or 304), without routing, a
    `Request` or a read (issue 26: the route's way cost 1.3x a bare app's CPU a request).
    Anything else, and a page out of date, goes on to the routes."""

    def __init__(self, app: ASGIApp, sent: Sent, source: Source):
        self.app = app
        self.sent = sent
        self.source = source

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        last = self.sent.get(scope) if scope["type"] == "http" and scope["method"] == "GET" else None
        if last is not None and self.source.unchanged(last[0]):
            asked = next((value for name, value in scope["headers"] if name == b"if-none-match"), None)
            await last[1].answer(asked.decode("latin-1") if asked is not None else None)(scope, receive, send)
        else:
            await self.app(scope, receive, send)
