"""What the write APIs share (the seats' and the organiser's): a write refused before it is
tried, the bearer token a request carries, and its JSON body read no further than BODY_LIMIT."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from ..errors import KtlogError

BODY_LIMIT = 16_384
"""Bytes at most in a write's body (a move's line or a few of them)."""


class Refused(KtlogError):
    """A write refused before it reaches the session: its HTTP status and kind."""

    def __init__(self, status: int, kind: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.kind, self.extra = status, kind, extra


def bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def json_body(request: Request) -> dict:
    """The request's JSON object, read no further than BODY_LIMIT bytes."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > BODY_LIMIT:
        raise Refused(413, "too_large", f"the body is {declared} bytes; a write takes at most {BODY_LIMIT}")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > BODY_LIMIT:
            raise Refused(413, "too_large", f"the body is over {BODY_LIMIT} bytes; a write takes at most that")
    try:
        body = json.loads(data or b"{}")
    except (ValueError, RecursionError):
        raise Refused(400, "bad_request", 'the body is not JSON: send {"line": "TYPE FIELD=VALUE ..."}') from None
    if not isinstance(body, dict):
        raise Refused(400, "bad_request", 'the body is a JSON object: {"line": ...} or {"lines": [...]}')
    return body
