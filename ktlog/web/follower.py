"""Following the log: one background task watches the database (`PRAGMA data_version` on the
server's read connection, which never writes, then the events stored after the last position
seen) and pushes each new event to the viewers of its game, and each changed game to the viewers
of the tables page. While nobody watches, it does not look: the first viewer wakes it, and its
first look finds what was committed in between.

A message is built once per game and batch, and a new viewer's catch-up once per game, moment
and starting seq, whatever the number of viewers: they share the same bytes. The reading runs in
the source's worker thread (`look`); the handing out on the event loop (`deliver`). A catch-up
is sent whole, however long; after it, each viewer has a bounded queue (messages and bytes): one
that stops reading is dropped when it is full, its queue let go at once, never waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread

from ..events import Envelope, Event
from ..play.database import Store
from ..play.live_tables import table_rows
from ..play.timeline import Timeline
from ..rulesets import get_ruleset
from ..state import GameState
from ..text.describe import describe
from .source import Source, Unavailable, data_version
from .views import event_row, stream_messages

QUEUE_SIZE = 1000
"""Messages a viewer may fall behind by, after its catch-up, before it is dropped."""
VIEWER_BYTES = 16 * 2**20
"""Bytes of messages a viewer may fall behind by before it is dropped (a state of a long game
with many notes is about 2 MB; messages are shared between viewers, so this bounds what one
stalled viewer keeps alive)."""
CATCH_UPS_KEPT = 8
"""Catch-ups kept per game (one per starting seq asked since its last event)."""
KEEP_ALIVE_S = 15.0
"""A comment line sent to an idle stream, so proxies and browsers keep it open."""
LOCKED_BACK_OFF_S = 0.5
"""How long the follower waits before it looks again at a database another program has locked
(its look waits up to the read busy timeout; the pages get their turn in between)."""


def sse(data: Any, *, seq: int | None = None, kind: str | None = None) -> bytes:
    """One server-sent event: `id:` is the game's seq, so a browser reconnecting sends it back as
    Last-Event-ID. The JSON is ASCII with every control character escaped: one line, always."""
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {kind}\n" if kind else "")
    return f"{head}data: {json.dumps(data, ensure_ascii=True, separators=(',', ':'))}\n\n".encode()


class Viewer:
    """One open event stream: its catch-up (sent first, whole), then its bounded queue of
    encoded messages (None ends the stream)."""

    def __init__(self, backlog: Iterable[bytes] = (), *, size: int = QUEUE_SIZE, max_bytes: int = VIEWER_BYTES, **wants: str | None):
        self.backlog = deque(backlog)
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(size)
        self.max_bytes = max_bytes
        self.held = 0
        """Bytes of the messages in the queue."""
        self.dropped = False
        self.wants = wants
        """What a tables viewer filters on (league, round)."""

    def push(self, chunk: bytes | None) -> bool:
        """Queue a message; False (and dropped) when the viewer has fallen too far behind."""
        if self.dropped:
            return False
        size = len(chunk) if chunk else 0
        if self.queue.full() or self.held + size > self.max_bytes:
            self.drop()
            return False
        self.queue.put_nowait(chunk)
        self.held += size
        return True

    def drop(self) -> None:
        """Let go of everything queued and end the stream (a browser reconnects with its
        Last-Event-ID and catches up)."""
        self.dropped = True
        self.backlog.clear()
        while not self.queue.empty():
            self.queue.get_nowait()
        self.held = 0
        self.queue.put_nowait(None)

    async def chunks(self, keep_alive: float = KEEP_ALIVE_S) -> AsyncIterator[bytes]:
        while self.backlog:
            yield self.backlog.popleft()
        while True:
            try:
                async with asyncio.timeout(keep_alive):  # no task a wait, as wait_for makes
                    chunk = await self.queue.get()
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if chunk is None:
                return
            self.held -= len(chunk)
            yield chunk


@dataclass
class GameFeed:
    """One game's viewers, the seq they have been sent up to, the events a spectator could not
    see yet (re-worded for them once a later event reveals them), and the catch-ups made since
    the last event (starting seq -> messages)."""

    game_id: str
    seq: int
    hidden: dict[int, Event]
    viewers: set[Viewer] = field(default_factory=set)
    catch_ups: OrderedDict[int | None, list[bytes]] = field(default_factory=OrderedDict)

    def advance(self, envelopes: list[Envelope], state: GameState) -> list[bytes]:
        """The messages of events after `seq`, `state` being the state after the last of them."""
        ruleset = get_ruleset(state.ruleset)
        revealed = {seq: describe(e, True, state) for seq, e in self.hidden.items() if not ruleset.hidden(state, e)}
        for seq in revealed:
            del self.hidden[seq]
        self.hidden.update({e.seq: e.payload for e in envelopes if ruleset.hidden(state, e.payload)})
        self.seq = envelopes[-1].seq if envelopes else self.seq
        self.catch_ups.clear()
        rows = [event_row(e, state) for e in envelopes]
        return [sse(message, seq=seq) for seq, message in stream_messages(self.game_id, rows, state, revealed)]

    def catch_up(self, store: Store, after: int | None) -> list[bytes]:
        """What a viewer that has seen up to seq `after` is sent first (None: a fresh viewer, sent
        the state now), made once for every viewer asking the same."""
        key = None if after is None or after > self.seq else after
        if key not in self.catch_ups:
            self.catch_ups[key] = self._catch_up(store, key)
            while len(self.catch_ups) > CATCH_UPS_KEPT:
                self.catch_ups.popitem(last=False)
        return self.catch_ups[key]

    def _catch_up(self, store: Store, after: int | None) -> list[bytes]:
        if after == self.seq:
            return []
        state = store.state(self.game_id, self.seq)
        if after is None:
            return [sse(message, seq=seq) for seq, message in stream_messages(self.game_id, [], state, {})]
        timeline = Timeline(store.events(self.game_id, upto=self.seq))
        rows = [event_row(e, state) for e in timeline.envelopes[after:]]
        rewrite = {seq: describe(timeline.event(seq), True, state) for seq in timeline.revealed_later(state) if seq <= after}
        return [sse(message, seq=seq) for seq, message in stream_messages(self.game_id, rows, state, rewrite)]


@dataclass
class News:
    """What one look at the database found, to hand out on the event loop."""

    replaced: bool = False
    games: list[tuple[GameFeed, list[bytes]]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)


class Follower:
    """The log follower of one server (`interval`: how often it asks the database whether
    anything was committed)."""

    def __init__(self, source: Source, interval: float = 0.02):
        self.source = source
        self.interval = interval
        self.games: dict[str, GameFeed] = {}
        self.tables: set[Viewer] = set()
        self.position = 0
        self.version: int | None = None
        self.replacements = 0
        self.shown_problem: str | None = None
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.wanted = asyncio.Event()
        """Set when a viewer comes: while nobody watches, the follower does not look (a server
        nobody follows costs no CPU between requests)."""

    # --- running ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Look once, for the position the server starts from (a change committed after it
        reaches the first viewer, however late that viewer's first look), then follow."""
        self._loop = asyncio.get_running_loop()
        async with self.source.lane:
            await anyio.to_thread.run_sync(self.look)
        self._task = self._loop.create_task(self._run())

    def end_streams(self) -> None:
        """End every open stream (from any thread): the server is stopping."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._end_streams)

    def _end_streams(self) -> None:
        for viewer in self._every_viewer():
            viewer.push(None)

    async def stop(self) -> None:
        self._end_streams()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            if not self._every_viewer():  # nobody to tell: the next look, after a viewer comes, finds what was committed since
                self.wanted.clear()
                await self.wanted.wait()
            async with self.source.lane:
                news = await anyio.to_thread.run_sync(self.look)
                self.deliver(news)
            locked = self.source.problem is not None and "locked" in self.source.problem
            await asyncio.sleep(LOCKED_BACK_OFF_S if locked else self.interval)

    def tick(self) -> None:
        """Look once and hand out what was found, in this thread (the tests' follower)."""
        self.deliver(self.look())

    def look(self) -> News:
        """Read what is new (in the source's worker thread); a database problem is kept for
        `deliver` to tell every viewer (and cleared when the file reads again), never raised."""
        news = News()
        try:
            with self.source.reading() as store:
                if self.source.replacements != self.replacements:
                    self.replacements = self.source.replacements
                    self.version = None
                    news.replaced = True
                else:
                    self._follow(store, news)
            self.source.problem = None
        except Unavailable:
            pass
        return news

    def deliver(self, news: News) -> None:
        """Hand out what `look` found (on the event loop)."""
        if news.replaced:
            self._start_over()
        for feed, chunks in news.games:
            for viewer in list(feed.viewers):
                if not all(viewer.push(chunk) for chunk in chunks):
                    feed.viewers.discard(viewer)
        if news.tables:
            self._publish_tables(news.tables)
        if self.source.problem != self.shown_problem:
            self.shown_problem = self.source.problem
            self._broadcast(sse({"problem": self.shown_problem}, kind="problem"))

    def _start_over(self) -> None:
        """A new file under the same name: its seqs mean other events, so every stream ends
        (browsers reconnect with their Last-Event-ID and are sent what the new file holds)."""
        replaced = f"the database {self.source.path} was replaced while the server ran; reload the page to be sure of what it shows"
        self._broadcast(sse({"problem": replaced}, kind="problem"))
        self._end_streams()
        self.games.clear()
        self.tables.clear()

    def _follow(self, store: Store, news: News) -> None:
        for game_id in [g for g, feed in self.games.items() if not feed.viewers]:
            del self.games[game_id]  # its last viewer left
        version = data_version(store)
        if version == self.version:
            return
        if self.version is None:  # the position the server starts from
            self.version = version
            self.position = store.position()
            return
        self.version = version
        changed = store.changed_since(self.position)
        if not changed:
            return
        self.position = max(position for _, position in changed)
        for game_id, _ in changed:
            feed = self.games.get(game_id)
            envelopes = store.events(game_id, after=feed.seq) if feed else []
            if feed and envelopes:
                news.games.append((feed, feed.advance(envelopes, store.state(game_id, envelopes[-1].seq))))
        if self.tables:
            news.tables = table_rows(store, ids=[game_id for game_id, _ in changed])

    def _publish_tables(self, rows: list[dict[str, Any]]) -> None:
        for viewer in list(self.tables):
            league, round_ = viewer.wants.get("league"), viewer.wants.get("round")
            shown = [r for r in rows if (not league or r["labels"].get("league") == league) and (not round_ or r["labels"].get("round") == round_)]
            if shown and not viewer.push(sse({"games": shown})):
                self.tables.discard(viewer)

    def _broadcast(self, chunk: bytes) -> None:
        for viewer in self._every_viewer():
            viewer.push(chunk)

    def _every_viewer(self) -> list[Viewer]:
        return [*self.tables, *(v for feed in self.games.values() for v in feed.viewers)]

    # --- viewers ----------------------------------------------------------------------------

    def watch_game(self, store: Store, game_id: str, after: int | None) -> Viewer:
        """A new viewer of a game (in the source's worker thread), first sent what it missed
        after seq `after` (None: a fresh viewer, sent the state now)."""
        feed = self.games.get(game_id)
        if feed is None:
            head = store.game(game_id).head_seq
            state = store.state(game_id, head)
            ruleset = get_ruleset(state.ruleset)
            hidden: dict[int, Event] = {e.seq: e.payload for e in store.events(game_id) if ruleset.hidden(state, e.payload)}
            feed = self.games[game_id] = GameFeed(game_id, head, hidden)
        viewer = Viewer(feed.catch_up(store, after))
        if self.source.problem:
            viewer.backlog.append(sse({"problem": self.source.problem}, kind="problem"))
        feed.viewers.add(viewer)
        self._wake()
        return viewer

    def tell(self, game_id: str, kind: str, data: dict[str, Any]) -> None:
        """Tell the viewers of a game something that is not an event (a seat's signature kept),
        as a named message (`event: KIND`): a page listens for it by name (on the event loop)."""
        feed = self.games.get(game_id)
        if feed is None:
            return
        for viewer in list(feed.viewers):
            if not viewer.push(sse(data, kind=kind)):
                feed.viewers.discard(viewer)

    def leave_game(self, game_id: str, viewer: Viewer) -> None:
        """A viewer's stream ended (its feed goes at the next look, if it was the last)."""
        feed = self.games.get(game_id)
        if feed is not None:
            feed.viewers.discard(viewer)

    def watch_tables(self, league: str | None, round_: str | None) -> Viewer:
        viewer = Viewer(league=league, round=round_)
        if self.source.problem:
            viewer.push(sse({"problem": self.source.problem}, kind="problem"))
        self.tables.add(viewer)
        self._wake()
        return viewer

    def _wake(self) -> None:
        """Look again (from any thread): a viewer came."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.wanted.set)

    def leave_tables(self, viewer: Viewer) -> None:
        self.tables.discard(viewer)
