"""What a request names: its whole numbers (`?at=`, `?tp=`, `?after=`, `Last-Event-ID`),
checked before anything is read."""

from __future__ import annotations

from starlette.requests import Request

from ..errors import KtlogError

MAX_DIGITS = 18
"""The longest whole number a request may give: any seq or turning point fits, and so does
SQLite's 64-bit integer."""


class BadRequest(KtlogError):
    """A query parameter or header the route cannot use (400)."""


def whole_number(text: str, name: str) -> int:
    """`text` as a whole number of 0 or more: ASCII digits only (`str.isdigit` takes '²' and
    '٣'), at most MAX_DIGITS of them."""
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"
        raise BadRequest(f"{name} must be a whole number of 0 or more (at most {MAX_DIGITS} digits 0-9), not {shown}")
    return int(text)


def query_number(request: Request, name: str) -> int | None:
    """The query parameter `name` as a whole number (None when it is missing or empty)."""
    value = request.query_params.get(name)
    return None if value in (None, "") else whole_number(value, name)


def query_text(request: Request, name: str) -> str | None:
    """The query parameter `name`, None when it is missing or empty."""
    return request.query_params.get(name) or None
