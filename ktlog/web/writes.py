"""What the write APIs share (the seats' and the organiser's): their own writing store, guarded
against a file lost under it; a write refused before it is tried; the bearer token a request
carries; and its JSON body read no further than BODY_LIMIT."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ..errors import KtlogError
from ..play.database import Store, identity, lost_under

LOG = logging.getLogger("ktlog.serve")
T = TypeVar("T")

BODY_LIMIT = 16_384
"""Bytes at most in a write's body (a move's line or a few of them)."""


class Refused(KtlogError):
    """A write refused before it reaches the session: its HTTP status and kind."""

    def __init__(self, status: int, kind: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.kind, self.extra = status, kind, extra


class WritingApi:
    """A write API's own store over the database `db`, used by one worker thread at a time.
    `lost()`: called when the file is found lost under the store, so the server's reader lets
    it go too (`Source.replaced`): SQLite shares a file's write-ahead index between the
    connections of one process, and one still holding a deleted index fails the next opened."""

    writers = "the writes"
    """Who is refused while the file is opened again, for the server's log."""

    def __init__(self, db: Path, lost: Callable[[], None] | None = None):
        self.db = db
        self.lost = lost
        self._store: Store | None = None
        self._opened: tuple[int, int] | None = None
        """The file the store opened (`identity`)."""
        self._lock = threading.Lock()
        """Held by the worker thread using the store (one connection, one user at a time)."""

    def store(self) -> Store:
        if self._store is None:
            self._opened = identity(self.db)
            self._store = Store(self.db, create=False)
        return self._store

    def still_the_file(self) -> None:
        """Refuse a write (503) if the file was replaced or its write-ahead log deleted under the
        store (`lost_under`): what it wrote would reach no one. The store is closed, the next
        write opens the file as it now is, and the server's log says so."""
        if self._store is not None and (lost := lost_under(self.db, self._opened)):
            LOG.warning("ktlog serve: %s; %s were refused until the file was opened again", lost, self.writers)
            self._store.close()
            self._store = None
            if self.lost is not None:
                self.lost()
            raise Refused(503, "unavailable", f"{lost}; nothing was recorded: the server opened it again, so send it once more", headers={"retry-after": "1"})

    def let_go_if_lost(self) -> None:
        """Close the store at once if the file was lost under it and no write is using it (the
        server's reader found the file lost first, `Source.writers`: it must not open the file
        again while this store holds the deleted write-ahead index). Never waits: a write under
        way finds the loss itself (`still_the_file`)."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            if self._store is not None and lost_under(self.db, self._opened):
                self._store.close()
                self._store = None
        finally:
            self._lock.release()

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    async def in_thread(self, work: Callable[[], T]) -> T:
        """`work` in a worker thread, one at a time: a write waiting for another program's lock
        (up to the store's busy timeout) never holds up the event loop (issue 25 #8)."""

        def serial() -> T:
            with self._lock:
                return work()

        return await run_in_threadpool(serial)


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
