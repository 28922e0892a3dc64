"""What the server answers with besides a page: JSON in ASCII, and every problem worded for
the one who asked (JSON under /api/, a page elsewhere), never a traceback."""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ..errors import GameNotFound, KtlogError
from ..text.safe import clipped
from . import pages
from .source import Unavailable


class AsciiJSON(JSONResponse):
    """JSON with every character beyond ASCII escaped (`\\u00e9`), as the docs promise."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class TooManyStreams(KtlogError):
    """A client address holds as many event streams as one may (429)."""


def refusal(status: int, kind: str, message: str, headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    """Every refused API request's one JSON shape: `{"error": TEXT, "status": N, "kind": ...}`
    (and what the kind adds: a conflict's `seq`, a rule refusal's `rule`)."""
    return AsciiJSON({"error": clipped(message), "status": status, "kind": kind, **extra}, status_code=status, headers=headers)


def problem(request: Request, status: int, kind: str, heading: str, message: str) -> Response:
    """A problem as the JSON refusal under /api/, else as a page saying it."""
    if request.url.path.startswith("/api/"):
        return refusal(status, kind, message)
    return HTMLResponse(pages.message_page(heading, clipped(message)), status_code=status)


async def not_found(request: Request, exc: Exception) -> Response:
    return problem(request, 404, "no_game", "Not found", str(exc))


async def unavailable(request: Request, exc: Exception) -> Response:
    response = problem(request, 503, "unavailable", "Database unavailable", str(exc))
    response.headers["retry-after"] = "1"
    return response


async def too_many(request: Request, exc: Exception) -> Response:
    return problem(request, 429, "rate", "Too many streams", str(exc))


async def bad_request(request: Request, exc: Exception) -> Response:
    return problem(request, 400, "bad_request", "Bad request", str(exc))


HTTP_KINDS = {404: ("not_found", "Not found"), 405: ("read_only", "Not allowed")}
"""Starlette's own refusals: their kind and heading."""


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    texts = {
        404: f"there is no page {request.url.path}; the tables are at /",
        405: "this route is read-only: only GET requests are answered (recording from seats is `ktlog serve --seats`)",
    }
    kind, heading = HTTP_KINDS.get(exc.status_code, ("bad_request", "Not allowed"))
    response = problem(request, exc.status_code, kind, heading, texts.get(exc.status_code, exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


ERROR_HANDLERS: dict[Any, Any] = {
    GameNotFound: not_found,
    Unavailable: unavailable,
    TooManyStreams: too_many,
    KtlogError: bad_request,
    HTTPException: http_error,
}
"""Each kind of problem and its answer (the most particular kind first)."""
