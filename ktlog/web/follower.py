"""Following the log: one background task watches the database (`PRAGMA data_version` on the
server's read connection, which never writes, then the events stored after the last position
seen) and pushes each new event to the viewers of its game, and each changed game to the viewers
of the tables page.

A message is built once per game and batch, whatever the number of viewers. Each viewer has a
bounded queue: one that stops reading is dropped when its queue is full, never waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from ..events import Envelope, Event
from ..play.database import Store
from ..play.timeline import Timeline
from ..rulesets import get_ruleset
from ..state import GameState
from ..text.describe import describe
from .source import Source, Unavailable
from .tables import table_rows
from .views import event_row, stream_messages

QUEUE_SIZE = 1000
"""Messages a viewer may fall behind by before it is dropped."""
KEEP_ALIVE_S = 15.0
"""A comment line sent to an idle stream, so proxies and browsers keep it open."""


def sse(data: Any, *, seq: int | None = None, kind: str | None = None) -> bytes:
    """One server-sent event: `id:` is the game's seq, so a browser reconnecting sends it back as
    Last-Event-ID. The JSON is ASCII with every control character escaped: one line, always."""
    head = (f"id: {seq}\n" if seq is not None else "") + (f"event: {kind}\n" if kind else "")
    return f"{head}data: {json.dumps(data, ensure_ascii=True, separators=(',', ':'))}\n\n".encode()


class Viewer:
    """One open event stream: its bounded queue of encoded messages."""

    def __init__(self, size: int = QUEUE_SIZE, **wants: str | None):
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(size)
        self.dropped = False
        self.wants = wants
        """What a tables viewer filters on (league, round)."""

    def push(self, chunk: bytes | None) -> bool:
        """Queue a message; False (and dropped) when the viewer has fallen too far behind."""
        try:
            self.queue.put_nowait(chunk)
        except asyncio.QueueFull:
            self.dropped = True
        return not self.dropped

    async def chunks(self, keep_alive: float = KEEP_ALIVE_S) -> AsyncIterator[bytes]:
        while not (self.dropped and self.queue.empty()):
            try:
                chunk = await asyncio.wait_for(self.queue.get(), keep_alive)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if chunk is None:
                return
            yield chunk


@dataclass
class GameFeed:
    """One game's viewers, the seq they have been sent up to, and the events a spectator could
    not see yet (re-worded for them once a later event reveals them)."""

    game_id: str
    seq: int
    hidden: dict[int, Event]
    viewers: set[Viewer] = field(default_factory=set)

    def advance(self, envelopes: list[Envelope], state: GameState) -> list[bytes]:
        """The messages of events after `seq`, `state` being the state after the last of them."""
        ruleset = get_ruleset(state.ruleset)
        revealed = {seq: describe(e, True, state) for seq, e in self.hidden.items() if not ruleset.hidden(state, e)}
        for seq in revealed:
            del self.hidden[seq]
        self.hidden.update({e.seq: e.payload for e in envelopes if ruleset.hidden(state, e.payload)})
        self.seq = envelopes[-1].seq if envelopes else self.seq
        rows = [event_row(e, state) for e in envelopes]
        return [sse(message, seq=seq) for seq, message in stream_messages(self.game_id, rows, state, revealed)]


class Follower:
    """The log follower of one server (runs on its event loop; `interval`: how often it asks the
    database whether anything was committed)."""

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

    # --- running ----------------------------------------------------------------------------

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
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
            self.tick()
            await asyncio.sleep(self.interval)

    def tick(self) -> None:
        """Look once for new events and push them; a database problem is told to every viewer
        (and cleared when the file reads again), never raised."""
        try:
            with self.source.reading() as store:
                if self.source.replacements != self.replacements:
                    self.replacements = self.source.replacements
                    self._start_over()
                self._follow(store)
            self.source.problem = None
        except Unavailable:
            pass
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
        self.version = None

    def _follow(self, store: Store) -> None:
        version = store.conn.execute("PRAGMA data_version").fetchone()[0]
        if version == self.version:
            return
        if self.version is None:  # the position the server starts from
            self.version = version
            self.position = store.conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
            return
        self.version = version
        changed = store.conn.execute(
            "SELECT g.id, max(e.position) FROM events e JOIN games g USING (game_key) WHERE e.position > ? GROUP BY e.game_key", (self.position,)
        ).fetchall()
        if not changed:
            return
        self.position = max(position for _, position in changed)
        for game_id, _ in changed:
            if game_id in self.games:
                self._publish(store, self.games[game_id])
        if self.tables:
            self._publish_tables(store, [game_id for game_id, _ in changed])

    def _publish(self, store: Store, feed: GameFeed) -> None:
        envelopes = store.events(feed.game_id, after=feed.seq)
        if not envelopes:
            return
        chunks = feed.advance(envelopes, store.state(feed.game_id, envelopes[-1].seq))
        for viewer in list(feed.viewers):
            if not all(viewer.push(chunk) for chunk in chunks):
                feed.viewers.discard(viewer)

    def _publish_tables(self, store: Store, game_ids: list[str]) -> None:
        rows = table_rows(store, ids=game_ids)
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
        """A new viewer of a game, first sent what it missed after seq `after` (None: a fresh
        viewer, sent the state now)."""
        feed = self.games.get(game_id)
        if feed is None:
            head = store.game(game_id).head_seq
            state = store.state(game_id, head)
            ruleset = get_ruleset(state.ruleset)
            hidden: dict[int, Event] = {e.seq: e.payload for e in store.events(game_id) if ruleset.hidden(state, e.payload)}
            feed = self.games[game_id] = GameFeed(game_id, head, hidden)
        viewer = Viewer()
        for chunk in self._catch_up(store, feed, after):
            viewer.push(chunk)
        if self.source.problem:
            viewer.push(sse({"problem": self.source.problem}, kind="problem"))
        feed.viewers.add(viewer)
        return viewer

    def _catch_up(self, store: Store, feed: GameFeed, after: int | None) -> list[bytes]:
        if after == feed.seq:
            return []
        state = store.state(feed.game_id, feed.seq)
        if after is None or after > feed.seq:
            return [sse(message, seq=seq) for seq, message in stream_messages(feed.game_id, [], state, {})]
        timeline = Timeline(store.events(feed.game_id, upto=feed.seq))
        rows = [event_row(e, state) for e in timeline.envelopes[after:]]
        rewrite = {seq: describe(timeline.event(seq), True, state) for seq in timeline.revealed_later(state) if seq <= after}
        return [sse(message, seq=seq) for seq, message in stream_messages(feed.game_id, rows, state, rewrite)]

    def leave_game(self, game_id: str, viewer: Viewer) -> None:
        feed = self.games.get(game_id)
        if feed is not None:
            feed.viewers.discard(viewer)
            if not feed.viewers:
                del self.games[game_id]

    def watch_tables(self, league: str | None, round_: str | None) -> Viewer:
        viewer = Viewer(league=league, round=round_)
        if self.source.problem:
            viewer.push(sse({"problem": self.source.problem}, kind="problem"))
        self.tables.add(viewer)
        return viewer

    def leave_tables(self, viewer: Viewer) -> None:
        self.tables.discard(viewer)
