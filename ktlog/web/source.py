"""The database the server reads: opened once, reopened when the file is replaced, and every
problem (missing, locked, replaced, not a ktlog file) turned into one sentence for the page.

Every read runs in a worker thread, one at a time (`run`, and the follower holding `lane`): a
lock held by another program makes the pages that read wait for it, never the event loop (the
stylesheet, the streams already open)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import anyio.to_thread

from ..errors import DatabaseError, KtlogError, StoreError
from ..play.database import Store, identity, locked, lost_under
from ..state import GameState

LOG = logging.getLogger("ktlog.serve")
"""The server's own log (standard error): what it found wrong with the file and did."""

READ_BUSY_TIMEOUT_MS = 900
"""How long a page waits for another program's lock before it says the database is busy."""
LOCKED_FOR_S = 1.0
"""After a read found the file locked, the reads asked within this long are answered at once
(503, Retry-After 1) instead of each waiting out the lock behind the one before (four pages asked
at once were answered after 2, 4, 6 and 8 s, issue 38)."""

T = TypeVar("T")
Version = tuple[int, int]
"""The connection (its count) and its `PRAGMA data_version` at one moment."""


def data_version(store: Store) -> int:
    """SQLite's count for the connection, which moves when another connection commits (the
    server's read connection never writes)."""
    return store.data_version()


class Unavailable(KtlogError):
    """The database cannot be read just now; the message says why and what to do."""


class Source:
    """One read-only view of a database file, read from one worker thread at a time."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lane = asyncio.Lock()
        """Held while a worker thread reads (and while the follower hands out what it read)."""
        self.in_use = threading.RLock()
        """Held by the thread using the connection: `close` waits for it. A read cancelled on the
        event loop (the server stopping) goes on in its thread after `lane` is let go, and a
        connection closed under it crashed the process (a segfault in the full suite)."""
        self._store: Store | None = None
        self._identity: tuple[int, int] | None = None
        self._not_waiting = False
        """Whether `unchanged` set the connection not to wait for locks (`reading` sets it back)."""
        self._asked: tuple[Version, bool] | None = None
        """`unchanged`'s answer in this turn of the event loop, and the version it was about."""
        self.problem: str | None = None
        """The latest problem in words, None while the file reads fine."""
        self.replacements = 0
        """How many times the file was found replaced by another (the follower starts over)."""
        self.opened = 0
        """How many times a connection was opened (a version is a connection's own count)."""
        self._locked_until = 0.0
        """`time.monotonic()` until which the file is taken as still locked (`LOCKED_FOR_S`)."""
        self.writers: list[Callable[[], None]] = []
        """Told when this reader finds the file lost, before it opens the file again: the write
        APIs let their stores go (`WritingApi.let_go_if_lost`), since SQLite shares a file's
        write-ahead index between one process's connections."""

    def identity(self) -> tuple[int, int] | None:
        """The file's device and inode (None when it is missing): a new pair means a new file."""
        return identity(self.path)

    def replaced(self) -> None:
        """Close the store if the file on disk is no longer the one it has open, or its write-ahead
        log was deleted under it (`lost_under`): the next read opens the file again, counts the
        replacement, and the server's log says so."""
        if self._store is not None and (lost := lost_under(self.path, self._identity)):
            LOG.warning("ktlog serve: %s; the pages read it again from the file as it now is", lost)
            self.close()
            for let_go in self.writers:
                let_go()

    def store(self) -> Store:
        if self._store is None:
            now = self.identity()
            if now is None:
                raise Unavailable(f"the database {self.path} is missing; start `ktlog serve --db FILE` with an existing database")
            if self._identity is not None and now != self._identity:
                self.replacements += 1
            self._identity = now
            self._store = Store(self.path, create=False, busy_timeout_ms=READ_BUSY_TIMEOUT_MS)
            self._not_waiting = False
            self.opened += 1
        return self._store

    def adopt(self, game_id: str, state: GameState, head_hash: str) -> None:
        """Hand the reading store the state at a game's head that the server's own write worked
        out (a seat's append, `Store.adopt`): the follower and the pages read it instead of
        folding the game again. Nothing when no store is open (the next one reads the file)."""
        store = self._store
        if store is not None:
            store.adopt(game_id, state, head_hash)

    def version(self, store: Store) -> Version:
        """What the file holds now, as a token (in the thread reading `store`): the same token
        later means nothing was committed in between."""
        return self.opened, data_version(store)

    def unchanged(self, version: Version) -> bool:
        """Whether nothing was committed since `version` was taken, asked on the event loop:
        never waits (a read under way, another program's lock, a replaced file: False, and
        the caller reads in the worker thread as usual). On a running loop one answer serves
        the requests that ask in the same turn (50 clients: one query, not 50). Each of them
        had arrived when it was worked out: a request's task is queued when its bytes are read,
        and the answer is forgotten by a callback queued at the first asking, so after them."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return self._unchanged(version)
        if self._asked is not None and self._asked[0] == version:
            return self._asked[1]
        if self._asked is None:
            loop.call_soon(self._forget)
        answer = self._unchanged(version)
        self._asked = (version, answer)
        return answer

    def _forget(self) -> None:
        self._asked = None

    def _unchanged(self, version: Version) -> bool:
        return self.now() == version

    def now(self) -> Version | None:
        """What the file holds now (as `version`), asked on the event loop: never waits (no
        store open, a read under way, another program's lock, a replaced file: None). Taken
        before a read, a page made from that read is current while `unchanged` says so."""
        store = self._store
        if store is None or not self.in_use.acquire(blocking=False):
            return None
        try:
            if self.identity() != self._identity:
                return None
            if not self._not_waiting:
                store.wait_for_locks(0)  # a lock is a no, never a wait on the event loop
                self._not_waiting = True
            return self.opened, data_version(store)
        except DatabaseError:
            return None
        finally:
            self.in_use.release()

    async def run(self, read: Callable[[Store], T]) -> T:
        """`read(store)` in a worker thread, after the reads before it; a database problem comes
        out as `Unavailable`."""
        self._not_while_locked()
        async with self.lane:
            self._not_while_locked()
            return await anyio.to_thread.run_sync(self._read, read)

    def _not_while_locked(self) -> None:
        if time.monotonic() < self._locked_until and self.problem:
            raise Unavailable(self.problem)

    def _read(self, read: Callable[[Store], T]) -> T:
        with self.reading() as store:
            return read(store)

    @contextlib.contextmanager
    def reading(self) -> Iterator[Store]:
        """The store to read from; any database problem comes out as `Unavailable`."""
        try:
            with self.in_use:
                self.replaced()
                store = self.store()
                if self._not_waiting:
                    store.wait_for_locks(READ_BUSY_TIMEOUT_MS)
                    self._not_waiting = False
                yield store
        except DatabaseError as exc:
            self.close()
            raise Unavailable(self._word(exc)) from exc
        except Unavailable as exc:
            self.problem = str(exc)
            raise
        except StoreError as exc:  # not a ktlog file, a newer one ...
            self.close()
            cause = exc.__cause__
            if cause is not None and locked(cause):
                raise Unavailable(self._word(cause)) from exc  # locked while it was being opened
            self.problem = str(exc)
            raise Unavailable(str(exc)) from exc

    def _word(self, exc: BaseException) -> str:
        text = str(exc)
        if "locked" in text or "busy" in text:
            self.problem = f"the database {self.path} is locked by another program; the page will catch up when it is released"
            self._locked_until = time.monotonic() + LOCKED_FOR_S
        else:
            self.problem = f"the database {self.path} cannot be read ({text}); the server keeps running and tries again"
        return self.problem

    def close(self) -> None:
        with self.in_use:
            if self._store is not None:
                with contextlib.suppress(DatabaseError):
                    self._store.close()
            self._store = None
