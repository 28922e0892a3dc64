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

`POST /api/games/ID/seat/place` judges where a set-up or move would end in a game with a layout
(`seat_board`): a tap on the seat's board, token-checked and counted as a write, recording nothing.

The writes use a store of their own (the server's read connection never writes: the log
follower notices commits by its `data_version`), on the event loop's thread.
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import events as ev
from ..errors import ConcurrencyConflict, GameNotFound, KtlogError, RuleViolation, StoreError
from ..events import Envelope
from ..play import seats
from ..play.database import Store
from ..play.moves import next_steps
from ..play.questions import in_player_words, refused_question
from ..play.session import NothingToDo, RecordingSession
from ..play.signatures import signable_head, signed_bytes
from ..play.timeline import Timeline
from ..state import GameState
from ..text.event_text import answers_line, event_line, field_types, parse_event
from ..text.json_views import state_view
from ..text.results import describe_result
from .guard import CSP
from .responses import refusal
from .seat_board import placeable_type, position_answers, spot_answer
from .seat_page import seat_page
from .source import Version
from .views import event_row, log_rows
from .writes import Refused, WritingApi, bearer, json_body

"""Bytes at most in a write's body (a batch of a whole activation is a few hundred)."""
RATE_PER_S, BURST = 5.0, 20
"""Writes a seat may make: BURST at once, then RATE_PER_S a second (a person taps far slower)."""
LOG_ROWS = 40
"""The latest rows of the log a seat's view carries."""
VIEWS_KEPT = 16
"""Seats' views kept (a few games' two seats): each is made again once its game moves on."""
SEAT_COOKIE = "ktlog_seat"
"""The cookie the seat's page keeps its token in (its own path only; read only to draw that page)."""


class Assets:
    """The seat's script, read once, with the digest of its content."""

    def __init__(self, folder: Path, names: tuple[str, ...]):
        self.files = {name: (folder / name).read_bytes() for name in names}
        self.types = {name: "text/javascript" if name.endswith(".js") else "text/css" for name in names}

    def digest(self, name: str) -> str:
        return hashlib.sha256(self.files[name]).hexdigest()[:16]

    @property
    def paths(self) -> dict[str, str]:
        return {name: f"/seat-static/{self.digest(name)}/{name}" for name in self.files}


ASSETS = Assets(Path(__file__).parent / "static", ("seat.js", "seat-board.js"))
STYLE = (Path(__file__).parent / "static" / "seat.css").read_text(encoding="utf-8")
"""The seat's stylesheet, in its page: nothing but the page to wait for before the seat is drawn."""
PAGE_CSP = CSP.replace("style-src 'self'", f"style-src 'self' 'sha256-{base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()}'")
"""The seat page's policy: the server's, with the one inline stylesheet allowed by its hash (no inline script)."""


T = TypeVar("T")


NextOf = Callable[[GameState], "tuple[str, str] | None"]
"""The next step of a state both ways (`play.moves.next_steps`), or what a caller worked out already."""


class SeatApi(WritingApi):
    """The seat routes over the database `db`, with their own writing store."""

    writers = "the seats' writes"

    def __init__(self, db: Path, share: Callable[[str, GameState, str], None] | None = None, lost: Callable[[], None] | None = None):
        """`share(game, state, head hash)`: given the state at a game's head after each write, so
        the server's reader does not fold the game again (`Source.adopt`); `lost` as `WritingApi`'s."""
        super().__init__(db, lost)
        self.share = share
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}
        """(game, player) -> (writes left, when counted): the rate limit's token buckets."""
        self.views: dict[tuple, dict[str, Any]] = {}
        """The seats' views lately made, by what they follow from (`_seat_view`), oldest first."""
        self.pages: dict[tuple[str, str], tuple[Version | None, Response]] = {}
        """The seats' pages lately sent, by game and token digest, with the version of the file
        they were read at (`Source.now`), oldest first; used on the event loop only."""

    def routes(self) -> list[Route]:
        return [
            Route("/seat/{game}", self.page),
            Route("/seat-static/{version}/{name}", self.asset),
            Route("/api/games/{game}/events", self.record, methods=["POST"]),
            Route("/api/games/{game}/seat", self.view),
            Route("/api/games/{game}/seat/correction", self.correction),
            Route("/api/games/{game}/seat/key", self.register_key, methods=["POST"]),
            Route("/api/games/{game}/seat/signature", self.sign, methods=["POST"]),
            Route("/api/games/{game}/seat/place", self.place, methods=["POST"]),
        ]

    # --- routes ----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        """The seat's page. The token never travels in its address (the link carries it in the
        fragment, which a browser never sends); the page keeps it in a cookie of its own path,
        which comes back only with this page, so a reopened seat's page carries its view and is
        drawn at once. The cookie opens nothing else: every write and every API read needs the
        token in the Authorization header. A seat's page is kept as sent, and sent again from the
        event loop while the database says nothing was committed since (`Source.unchanged`: a
        new event, a signature, a revoked link each make it again)."""
        game = request.path_params["game"]
        token = request.cookies.get(SEAT_COOKIE)
        if not token:
            return self._page(game, None)
        source = request.app.state.source
        key = (game, seats.token_hash(token))
        kept = self.pages.pop(key, None)
        if kept is None or not source.unchanged(kept[0]):
            version = source.now()  # before the read: a commit after it makes the page again
            try:
                view = await self.in_thread(lambda: self._view(self.store(), self._seat(game, token, write=False), {})[1])
            except KtlogError:  # a revoked or wrong token, no such game: the page asks, and says so
                view = None
            kept = (version, self._page(game, view))
        if kept[0] is not None:
            self.pages[key] = kept
            while len(self.pages) > VIEWS_KEPT:
                self.pages.pop(next(iter(self.pages)))
        return kept[1]

    @staticmethod
    def _page(game: str, view: dict | None) -> Response:
        body = seat_page(game, view, ASSETS.paths["seat.js"], STYLE, ASSETS.paths["seat-board.js"])
        return HTMLResponse(body, headers={"cache-control": "no-store", "content-security-policy": PAGE_CSP})

    async def asset(self, request: Request) -> Response:
        """The seat's script under its content's digest: kept by the browser for a year (a new ktlog
        serves it under another digest)."""
        name = request.path_params["name"]
        if name not in ASSETS.files:
            return refusal(404, "not_found", f"no seat file {name!r}")
        current = request.path_params["version"] == ASSETS.digest(name)
        cache = "public, max-age=31536000, immutable" if current else "no-cache"
        return Response(ASSETS.files[name], media_type=ASSETS.types[name], headers={"cache-control": cache})

    async def view(self, request: Request) -> Response:
        return await self._answer(request, self._view, write=False)

    async def correction(self, request: Request) -> Response:
        return await self._answer(request, self._correction, write=False)

    async def record(self, request: Request) -> Response:
        return await self._answer(request, self._record)

    async def register_key(self, request: Request) -> Response:
        return await self._answer(request, self._register_key)

    async def sign(self, request: Request) -> Response:
        return await self._answer(request, self._sign)

    async def place(self, request: Request) -> Response:
        """Where a set-up or move would end (`seat_board`): a POST spent from the seat's writes
        (a tap on the board each), though it records nothing."""
        return await self._answer(request, self._place)

    # --- the one way a request is answered -------------------------------------------------

    async def _answer(self, request: Request, handler, *, write: bool = True) -> Response:
        try:
            seat = await self.in_thread(lambda: self._seat(request.path_params["game"], bearer(request), write))
            body: dict = await json_body(request) if write else dict(request.query_params)
            if write:
                self._spend(seat, _writes(body))
            status, data = await self.in_thread(lambda: handler(self.store(), seat, body))
            if handler == self._sign and status == 201:
                request.app.state.follower.tell(seat.game_id, "signed", {"signers": data["signers"], "head_seq": data["head_seq"]})
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
        """The seat a token holds for the game (for a write, on the file the server opened)."""
        if write:
            self.still_the_file()
        store = self.store()
        return seats.seat_of(store, token, store.resolve(game))

    def _spend(self, seat: seats.Seat, writes: int) -> None:
        """Take `writes` (a batch's events, each one) from the seat's bucket, or refuse with 429."""
        if writes > BURST:
            raise Refused(429, "rate", f"{writes} events in one write; a seat sends at most {BURST} at once: send them in smaller batches")
        key = (seat.game_id, seat.player)
        now = time.monotonic()
        left, then = self.buckets.get(key, (float(BURST), now))
        left = min(float(BURST), left + (now - then) * RATE_PER_S)
        if left < writes:
            raise Refused(429, "rate", f"too many writes from {seat.player}'s seat: wait a moment", headers={"retry-after": "1"})
        self.buckets[key] = (left - writes, now)

    # --- handlers: (store, seat, body) -> (status, JSON) ------------------------------------

    def _view(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        return 200, self._seat_view(store, seat)

    def _seat_view(self, store: Store, seat: seats.Seat, next_of: NextOf = next_steps) -> dict[str, Any]:
        """The seat's view, made once for the game as it stands (its head, its signatures, the
        seat's key): a page reopened, or both of a player's tabs, share it."""
        head_seq, head_hash = store.listing.head(seat.game_id)
        key = (seat.game_id, seat.player, seat.public_key, head_seq, head_hash, tuple(seats.signed_at(store, seat.game_id, head_seq)))
        view = self.views.pop(key, None) or seat_view(store, seat, next_of)
        self.views[key] = view
        while len(self.views) > VIEWS_KEPT:
            self.views.pop(next(iter(self.views)))
        return view

    def _correction(self, store: Store, seat: seats.Seat, query: dict) -> tuple[int, dict]:
        """The form that corrects one of the seat's own events (`?seq=N`): its move as it was legal
        before it and the answers that make it; its line, to type when no move asks it."""
        seq = query.get("seq", "")
        if not seq.isdigit():
            raise Refused(400, "bad_request", "say which event to correct: ?seq=N, its seq in the log")
        form = seats.correction(store, seat.game_id, int(seq), seat.player)
        answers = form.answers and [*form.answers, *position_answers(parse_event(form.line))]  # where a move ended is kept
        return 200, {"seq": form.seq, "line": form.line, "move": msgspec.to_builtins(form.move), "answers": answers}

    def _record(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        session = RecordingSession(store, seat.game_id)
        expected = body.get("expected_seq")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise Refused(400, "bad_request", f"expected_seq must be a whole number (the seq the page expects next), not {expected!r}")
        events = _events(session, body)
        try:
            recorded = seats.record(session, seat, events, expected)
        except RuleViolation as exc:
            raise _marked(exc, store, seat, body) from None
        if self.share is not None:  # a copy of its own: the reader's, once handed over
            self.share(seat.game_id, store.state(seat.game_id), store.listing.head(seat.game_id)[1])
        upcoming = next_steps(recorded.after)  # the rules probed once for the reply and the view
        answer = {"seq": recorded.seq, "first": recorded.seq - len(events) + 1, "next": upcoming[0] if upcoming else None}
        if body.get("view") is True:  # the page's own view after its tap, without asking again
            answer["view"] = self._seat_view(store, seat, lambda state: upcoming)
        return 201, answer

    def _register_key(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        key = body.get("public_key")
        if not isinstance(key, str):
            raise Refused(400, "bad_request", 'give {"public_key": HEX}: the Ed25519 public key made on this device')
        seats.register_key(store, seat, key)
        return 200, {"player": seat.player, "public_key": key}

    def _place(self, store: Store, seat: seats.Seat, body: dict) -> tuple[int, dict]:
        return 200, spot_answer(store.state(seat.game_id), seat.player, body, _answered(body))

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
        signed = seats.signed_at(store, seat.game_id, head_seq)
        if seat.player in signed:
            return 200, {
                "signer": seat.player,
                "head_seq": head_seq,
                "kept": False,
                "message": f"{seat.player} signed seq {head_seq} already; nothing new was kept",
            }
        store.keys.add_signatures(seat.game_id, [(head_seq, seat.player, seat.public_key, body["signature"])])
        return 201, {"signer": seat.player, "head_seq": head_seq, "kept": True, "signers": [*signed, seat.player]}


def _marked(exc: RuleViolation, store: Store, seat: seats.Seat, body: dict) -> Refused:
    """A rule's refusal of a move's answers (422), naming the question it is about (`field`) and
    its sentence in the form's words (`sentence`), so the page keeps the answers and marks it."""
    extra: dict[str, Any] = {"rule": exc.rule}
    if isinstance(body.get("answers"), list) and isinstance(body.get("event"), str):
        answers = [(f, v) for f, v in body["answers"]]
        target = body.get("correct")
        before = store.state(seat.game_id, target - 1) if isinstance(target, int) else store.state(seat.game_id)
        move = seats.move_answered(before, seat.player, body["event"], answers)
        if move is not None:
            question = refused_question(move, answers, exc.message, exc.rule)
            extra |= {"field": question.field if question else None, "sentence": in_player_words(move, f"{exc.message} ({exc.rule})")}
    return Refused(422, "rule", str(exc), **extra)


def _writes(body: dict) -> int:
    """The events a write body asks for, as the rate limit counts them (each line of a batch)."""
    lines = body.get("lines")
    return len(lines) if isinstance(lines, list) else 1


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
        where = f"line {number}: " if len(lines) > 1 else ""
        try:
            events.append(event := parse_event(line))
        except KtlogError as exc:
            raise KtlogError(f"{where}{exc}; nothing was recorded") from None
        if problem := seats.value_problem(event):  # a value no event may hold (a control character ...): the input, not a rule
            raise Refused(400, "bad_value", f"{where}{problem}; nothing was recorded")
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
    cls = ev.EVENT_TYPES.get(event)
    for field, value in answers:
        if cls is not None and _whole_number(cls, field) and not re.fullmatch(r"[+-]?\d{1,9}", value.strip()):
            raise Refused(400, "bad_value", f"{field.replace('_', ' ')}: {value!r} is not a whole number; type digits only (a sign for a change: +1, -1)")
    return answers_line(event, [(field, value) for field, value in answers])


def _whole_number(cls: type, field: str) -> bool:
    """Whether the event's field holds a whole number (an amount, CP, VP, a Hot roll)."""
    shape = field_types(cls).get(field)
    if shape is None and issubclass(cls, ev.Shot):  # a Shot's one-target fields (damage=, accurate=)
        shape = typing.get_type_hints(ev.ShootingAttack).get(field)
    return shape is int or (typing.get_origin(shape) in (typing.Union, types.UnionType) and int in typing.get_args(shape))


# --- what a seat sees ---------------------------------------------------------------------------


def seat_view(store: Store, seat: seats.Seat, next_of: NextOf = next_steps) -> dict[str, Any]:
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
        "moves": [
            {**msgspec.to_builtins(m), "more": m.kind in rare, "title": seats.move_title(state, m, moves)}
            | ({"place": True} if placeable_type(state, m.event) else {})
            for m in moves
        ],
        "next": upcoming[1] if (upcoming := next_of(state)) else None,
        "result": describe_result(state) if state.phase == "over" else None,
        "datacards": {op.datacard.name: msgspec.to_builtins(op.datacard) for op in state.operatives.values()},
        "cover": seats.cover_when_last_shot(timeline),
        "undoable": latest[0] if latest and latest[1].seat == seat.player else None,
        "log": log_rows(timeline, state, LOG_ROWS, row_of),
        "head_hash": store.listing.head(seat.game_id)[1],
        "public_key": seat.public_key,
        "signers": seats.signed_at(store, seat.game_id, state.seq),
    }
