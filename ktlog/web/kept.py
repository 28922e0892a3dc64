"""Pages kept as sent (issue 26): made once a head in the source's worker thread (`Kept`), and
sent again straight from the event loop while the database says nothing was committed since
(`Sent`), with an ETag so a browser that has the page is answered 304."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from .source import Version

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
        """The page, or 304 when the request's If-None-Match names it (the browser has it).
        `no-cache`: a browser asks again each time (the page is live), and is sent 304 while
        nothing changed."""
        asked = request.headers.get("if-none-match")
        if asked and (asked.strip() == "*" or self.etag in (tag.strip().removeprefix("W/") for tag in asked.split(","))):
            return self.kept
        return self.page


class Sent:
    """The page last sent for each address asked (game prefix and page), with the version of
    the database it was read at; used on the event loop only."""

    def __init__(self, kept: int = PAGES_KEPT):
        self.kept = kept
        self.pages: OrderedDict[Hashable, tuple[Version, Made]] = OrderedDict()

    def get(self, key: Hashable) -> tuple[Version, Made] | None:
        return self.pages.get(key)

    def put(self, key: Hashable, version: Version, made: Made) -> None:
        self.pages[key] = (version, made)
        self.pages.move_to_end(key)
        while len(self.pages) > self.kept:
            self.pages.popitem(last=False)
