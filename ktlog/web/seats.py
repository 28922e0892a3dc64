"""The seat API of `ktlog serve --seats` (issue 23): a player's phone records their side of a game.

Every write is `POST` with `Authorization: Bearer TOKEN` (the token the seat's link carries in
its fragment; no cookie is ever set, so no other site can make a browser write) and a JSON body
of at most BODY_LIMIT bytes. Each is recorded through the recording session `ktlog event` uses,
after `play.seats` has checked it is the seat's to record. Every refusal has one shape,
`{"error": TEXT, "status": N, "kind": ...}` (a conflict adds the current `seq`, a rule refusal its
`rule`), worded as the command line words it:

    201 recorded (`seq`: the last new seq)        401 no token, or a wrong or revoked one
    403 a token of another game, or an event that is not the seat's    404 no such game
    409 the game moved on since `expected_seq`    413 body too large    422 the rules refuse it
    429 too many writes from the seat (Retry-After)    400 a body or line that does not read

The writes use a store of their own (the server's read connection never writes: the log
follower notices commits by its `data_version`), on the event loop's thread.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import events as ev
from ..errors import ConcurrencyConflict, GameNotFound, KtlogError, RuleViolation, StoreError
from ..events import Envelope
from ..play import seats
from ..play.database import Store, identity, lost_under
from ..play.moves import next_step
from ..play.session import NothingToDo, RecordingSession
from ..play.signatures import signable_head, signed_bytes
from ..play.timeline import Timeline
from ..text.event_text import answers_line, event_line, parse_event
from ..text.json_views import state_view
from . import pages
from .responses import refusal
from .source import LOG
from .views import event_row, log_rows

BODY_LIMIT = 16_384
"""Bytes at most in a write's body (a batch of a whole activation is a few hundred)."""
RATE_PER_S, BURST = 5.0, 20
"""Writes a seat may make: BURST at once, then RATE_PER_S a second (a person taps far slower)."""
LOG_ROWS = 40
"""The latest rows of the log a seat's view carries."""


T = TypeVar("T")


class Refused(KtlogError):
    """A write refused before it reaches the session: its HTTP status and kind."""

    def __init__(self, status: int, kind: str, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.kind, self.extra = status, kind, extra


class SeatApi:
    """The seat routes over the database `db`, with their own writing store."""

    def __init__(self, db: Path):
        self.db = db
        self._store: Store | None = None
        self._opened: tuple[int, int] | None = None
        """The file the store opened (`identity`)."""
        self._lock = threading.Lock()
        """Held by the worker thread using the store (one connection, one user at a time)."""
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}
        """(game, player) -> (writes left, when counted): the rate limit's token buckets."""

    def store(self) -> Store:
        if self._store is None:
            self._opened = identity(self.db)
            self._store = Store(self.db, create=False)
        return self._store

    def _still_the_file(self) -> None:
        """Refuse a write (503) if the file was replaced or its write-ahead log deleted under the
        store (`lost_under`): what it wrote would reach no one. The store is closed, the next
        write opens the file as it now is, and the server's log says so."""
        if self._store is not None and (lost := lost_under(self.db, self._opened)):
            LOG.warning("ktlog serve: %s; the seats' writes were refused until the file was opened again", lost)
            self._store.close()
            self._store = None
            raise Refused(503, "unavailable", f"{lost}; nothing was recorded: the server opened it again, so send it once more", headers={"retry-after": "1"})

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    async def _in_thread(self, work: Callable[[], T]) -> T:
        """`work` in a worker thread, one at a time: a write waiting for another program's lock
        (up to the store's busy timeout) never holds up the event loop (issue 25 #8)."""

        def serial() -> T:
            with self._lock:
                return work()

        return await run_in_threadpool(serial)

    def routes(self) -> list[Route]:
        return [
            Route("/seat/{game}", self.page),
            Route("/api/games/{game}/events", self.record, methods=["POST"]),
            Route("/api/games/{game}/seat", self.view),
            Route("/api/games/{game}/seat/key", self.register_key, methods=["POST"]),
            Route("/api/games/{game}/seat/signature", self.sign, methods=["POST"]),
        ]

    # --- routes ----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        """The seat's page: the token stays in the fragment, which the browser never sends."""
        game = request.path_params["game"]
        return HTMLResponse(pages.seat_page(game))

    async def view(self, request: Request) -> Response:
        return await self._answer(request, self._view, write=False)

    async def record(self, request: Request) -> Response:
        return await self._answer(request, self._record)

    async def register_key(self, request: Request) -> Response:
        return await self._answer(request, self._register_key)

    async def sign(self, request: Request) -> Response:
        return await self._answer(request, self._sign)

    # --- the one way a request is answered -------------------------------------------------

    async def _answer(self, request: Request, handler, *, write: bool = True) -> Response:
        try:
            seat = await self._in_thread(lambda: self._seat(request.path_params["game"], _bearer(request), write))
            body: dict = await _json_body(request) if write else {}
            status, data = await self._in_thread(lambda: handler(self.store(), seat, body))
        except Refused as exc:
            return refusal(exc.status, exc.kind, str(exc), **exc.extra)
        except seats.NoSeat as exc:
            return refusal(401, "no_seat", str(exc), headers={"www-authenticate": "Bearer"})
        except seats.NotYourSeat as exc:
            return refusal(403, "not_your_seat", str(exc))
        except GameNotFound as exc:
            return refusal(404, "no_game", str(exc))
        except ConcurrencyConflict as exc:
            return refusal(409, "conflict", str(exc), seq=exc.head_seq)
        except RuleViolation as exc:
            return refusal(422, "rule", str(exc), rule=exc.rule)
        except StoreError as exc:
            self.close()
            return refusal(503, "unavailable", str(exc))
        except KtlogError as exc:  # a line that does not read, nothing to undo ...
            return refusal(400, "bad_request", str(exc))
        return JSONResponse(data, status_code=status)

    def _seat(self, game: str, token: str | None, write: bool) -> seats.Seat:
        """The seat a token holds for the game, a write taken from its bucket."""
        if write:
            self._still_the_file()
        store = self.store()
        seat = seats.seat_of(store, token, store.resolve(game))
        if write:
            self._spend(seat)
        return seat

    def _spend(self, seat: seats.Seat) -> None:
        """Take one write from the seat's bucket, or refuse with 429."""
        key = (seat.game_id, seat.player)
        now = time.monotonic()
        left, then = self.buckets.get(key, (float(BURST), now))
        left = min(float(BURST), left + (now - then) * RATE_PER_S)
        if left < 1:
            raise Refused(429, "rate", f"too many writes from {seat.player}'s seat: wait a moment", headers={"retry-after": "1"})
        self.buckets[key] = (left - 1, now)

    # --- handlers: (store, seat, body) -> (status, JSON) ------------------------------------

    def _view(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        return 200, seat_view(store, seat)

    def _record(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        session = RecordingSession(store, seat.game_id)
        expected = body.get("expected_seq")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise Refused(400, "bad_request", f"expected_seq must be a whole number (the seq the page expects next), not {expected!r}")
        events = _events(session, body)
        recorded = seats.record(session, seat, events, expected)
        answer = {"seq": recorded.seq, "first": recorded.seq - len(events) + 1, "next": next_step(recorded.after)}
        if body.get("view") is True:  # the page's own view after its tap, without asking again
            answer["view"] = seat_view(store, seat)
        return 201, answer

    def _register_key(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        key = body.get("public_key")
        if not isinstance(key, str):
            raise Refused(400, "bad_request", 'give {"public_key": HEX}: the Ed25519 public key made on this device')
        seats.register_key(store, seat, key)
        return 200, {"player": seat.player, "public_key": key}

    def _sign(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        if not seat.public_key:
            raise Refused(400, "bad_request", "this seat has no key yet: register its public key first (/seat/key)")
        head_seq, head_hash = signable_head(store, seat.game_id)
        if body.get("head_seq") != head_seq or not isinstance(body.get("signature"), str):
            raise Refused(409, "conflict", f"sign the game as it stands: head_seq {head_seq}", seq=head_seq)
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(seat.public_key)).verify(
                bytes.fromhex(body["signature"]), signed_bytes(seat.game_id, head_seq, head_hash)
            )
        except (InvalidSignature, ValueError):
            raise Refused(422, "signature", f"the signature does not hold for {seat.player}'s key over seq {head_seq}; nothing was kept") from None
        store.add_signatures(seat.game_id, [(head_seq, seat.player, seat.public_key, body["signature"])])
        return 201, {"signer": seat.player, "head_seq": head_seq}


def _bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def _json_body(request: Request) -> dict:
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


def _events(session: RecordingSession, body: dict) -> list[ev.Event]:
    """The events a write body asks for: {"line"}, {"lines"} (all or none), {"event", "answers"}
    (a move's answers, the line made as every face makes it), {"undo": true} (the seat's latest
    event), or {"correct": SEQ, "line"} (that event counts as the line instead)."""
    if body.get("undo") is True:
        latest = session.latest()
        if latest is None:
            raise NothingToDo("There is nothing to undo: only the game's creation is left")
        return [ev.EventVoided(target=latest[0])]
    if "answers" in body:
        body = {**body, "line": _answered(body)}
    lines = body.get("lines", [body["line"]] if "line" in body else None)
    if not isinstance(lines, list) or not lines or not all(isinstance(line, str) for line in lines):
        raise Refused(400, "bad_request", 'give {"line": "TYPE FIELD=VALUE ..."} or {"lines": [...]} (the syntax of `ktlog event --file`)')
    events = []
    for number, line in enumerate(lines, 1):
        try:
            events.append(parse_event(line))
        except KtlogError as exc:
            raise KtlogError(f"line {number}: {exc}; nothing was recorded" if len(lines) > 1 else f"{exc}; nothing was recorded") from None
    target = body.get("correct")
    if target is not None:
        if not isinstance(target, int) or len(events) != 1:
            raise Refused(400, "bad_request", 'a correction is {"correct": SEQ, "line": "TYPE FIELD=VALUE ..."}: one line')
        return [ev.EventCorrected(target=target, event=events[0])]
    return events


def _answered(body: dict) -> str:
    """The line of {"event": TYPE, "answers": [[FIELD, VALUE], ...]}: a move's fixed fields and
    answers (the seat page's form of `play.questions`' moves), as `text.event_text` joins them."""
    event, answers = body.get("event"), body.get("answers")
    if (
        not isinstance(event, str)
        or not isinstance(answers, list)
        or not all(isinstance(a, list) and len(a) == 2 and all(isinstance(x, str) for x in a) for a in answers)
    ):
        raise Refused(400, "bad_request", 'a move is {"event": TYPE, "answers": [[FIELD, VALUE], ...]} (the move\'s fixed fields, then its answers)')
    return answers_line(event, [(field, value) for field, value in answers])


# --- what a seat sees ---------------------------------------------------------------------------


def seat_view(store: Store, seat: seats.Seat) -> dict[str, Any]:
    """The game as the seat's player may see it (their own secret choices, in the score and the
    log, the opponent's hidden until revealed), the legal next steps that are theirs to record
    (`play.questions`' moves, as every face asks them), and their latest event."""
    state = store.state(seat.game_id)
    timeline = Timeline(store.events(seat.game_id))
    view = state_view(seat.game_id, state, spectator=True)
    own = state_view(seat.game_id, state)
    view["players"] = [mine if mine["name"] == seat.player else theirs for mine, theirs in zip(own["players"], view["players"])]
    for dispute in view.get("open_disputes", []):
        dispute["corrected"] = dispute["target"] in timeline.corrected_by  # only then may its raiser accept it

    def row_of(envelope: Envelope) -> dict[str, Any]:
        event = envelope.payload
        mine = seats.whose(state, event) == seat.player
        row = event_row(envelope, state, spectator=not mine)
        row["by"] = event.seat or "table"
        if row["by"] == seat.player:  # the line a correction starts from
            row["line"] = event_line(event)
        return row

    latest = timeline.latest()
    moves, rare = seats.seat_moves(state, seat.player)
    return {
        "game": seat.game_id,
        "player": seat.player,
        "seq": state.seq,
        "state": view,
        "moves": [{**msgspec.to_builtins(m), "more": m.kind in rare} for m in moves],
        "next": next_step(state),
        "undoable": latest[0] if latest and latest[1].seat == seat.player else None,
        "log": log_rows(timeline, state, LOG_ROWS, row_of),
        "head_hash": store.conn.execute("SELECT head_hash FROM games WHERE id = ?", (seat.game_id,)).fetchone()[0],
        "public_key": seat.public_key,
        "signers": [
            s for (s,) in store.conn.execute("SELECT signer FROM signatures WHERE game_id = ? AND head_seq = ? ORDER BY recorded_at", (seat.game_id, state.seq))
        ],
    }
