"""Seats: each player records their side of one game from their own device (`ktlog serve
--seats`), and the table seat (the terminal UI or command line at the table) records for everyone.

A seat is reached by a link holding a token in its fragment (`#...`: never in a request line, so
no access log holds it). The token is 256 random bits; the database keeps only its SHA-256, and a
token is looked up by that hash and compared in constant time. `ktlog seat GAME PLAYER` issues a
new token (the seat's earlier one stops working), `--revoke` ends it.

Who may record what: a seat records its own player's decisions (their operatives' activations
and actions, their ploys, gambits, secret choices and set-up) and the shared steps (roll-offs,
turning points, objectives); an event about another player's decision is refused, naming whose
it is. Every event a seat records carries the seat (`Event.seat`), inside the hash-chained payload.

Who may correct what: a seat corrects or undoes only the events its own player recorded; an
event the table or the other seat recorded is disputed from a seat, and its recorder corrects
it. Once every player has signed the game as it stands, its seats are read-only: a further
event would leave the signatures behind the head (the table may still add to it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import cast

import msgspec

from .. import events as ev
from ..envelopes import check_limits, now
from ..errors import ConcurrencyConflict, InvalidEvent, KtlogError
from ..rules.questions import Move
from ..rules.ruleset import listing
from ..rulesets import get_ruleset
from ..state import GameState
from ..storage.store import Store
from ..text.event_text import event_line
from .moves import Moves, owner
from .questions import answers_from, kind_named, kinds, legal_moves
from .session import Recorded, RecordingSession
from .signatures import signers
from .timeline import Timeline

DEFAULT_BASE = "http://127.0.0.1:8787"
"""Where `ktlog serve --seats` listens unless told otherwise (a phone needs the machine's own
address, and the server started with `--host 0.0.0.0`)."""
TOKEN_BYTES = 32
"""256 random bits a token (the issue asks for at least 128)."""
TABLE_ONLY = (ev.GameCreated, ev.PlayerJoined, ev.OperativeAdded)
"""The game's creation and its rosters: recorded at the table when the game is made."""


class NoSeat(KtlogError):
    """No token, or one that is not a live seat's (HTTP 401)."""


class NotYourSeat(KtlogError):
    """A seat's token for another game, or an event that is not the seat's to record (HTTP 403)."""


@dataclass(frozen=True)
class Seat:
    game_id: str
    player: str
    public_key: str | None = None
    """The Ed25519 public key (hex) the seat registered to sign with."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue(store: Store, game_id: str, player: str) -> str:
    """A new token for the player's seat of the game (its earlier token stops working)."""
    players = store.game(game_id).players
    if player not in players:
        raise KtlogError(f"no player {player!r} in game {game_id[:8]} (players: {', '.join(players) or 'none'}); a seat is a player's")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    store.seats.issue(game_id, player, token_hash(token))
    return token


def link(base: str, game_id: str, token: str) -> str:
    """The seat's link: the token in the fragment, which a browser never sends to a server."""
    return f"{base.rstrip('/')}/seat/{game_id}#{token}"


def revoke(store: Store, game_id: str, player: str) -> None:
    """End the seat's token: its link records nothing more."""
    if not store.seats.update(game_id, player, revoked_at=now()):
        raise KtlogError(f"{player!r} has no seat in game {game_id[:8]}; `ktlog seat {game_id[:8]} PLAYER` makes one")


def seat_of(store: Store, token: str | None, game_id: str) -> Seat:
    """The live seat a token opens, for a write to game `game_id`: NoSeat for none or a wrong
    one, NotYourSeat for a seat of another game."""
    if not token:
        raise NoSeat("this needs a seat's token: open the seat's link (`ktlog seat GAME PLAYER` prints it)")
    digest = token_hash(token)
    rows = store.seats.rows(token_hash=digest)
    if not rows or not hmac.compare_digest(rows[0]["token_hash"], digest):
        raise NoSeat("this token is not a seat's (wrong, or revoked): ask the table for a new link (`ktlog seat GAME PLAYER`)")
    row = rows[0]
    if row["game_id"] != game_id:
        raise NotYourSeat(f"this is {row['player']}'s seat of game {row['game_id'][:8]}, not of game {game_id[:8]}")
    return Seat(row["game_id"], row["player"], row["public_key"])


def register_key(store: Store, seat: Seat, public_key: str) -> Seat:
    """The public part (hex, 32 bytes) of the key the seat signs with, made on its device."""
    try:
        if len(bytes.fromhex(public_key)) != 32:
            raise ValueError
    except ValueError:
        raise KtlogError("public_key must be an Ed25519 public key: 64 hexadecimal digits") from None
    store.seats.update(seat.game_id, seat.player, public_key=public_key)
    return Seat(seat.game_id, seat.player, public_key)


# --- who may record what ----------------------------------------------------------------------


def whose(state: GameState, event: ev.Event) -> str | None:
    """The player whose decision `event` is, or None for a step both share (`Event.shared`)."""
    if event.shared:
        return None
    if isinstance(event, ev.InitiativeDecided):
        return state.decider
    if isinstance(event, ev.DamageInflicted) and event.by in state.operatives:
        return state.operatives[event.by].player
    operatives = getattr(event, "operatives", None)  # Joint Ops' reinforcements: the NPOs'
    if isinstance(operatives, tuple) and operatives:
        op = state.operatives.get(operatives[0])
        return op.player if op else None
    return owner(state, event)


class SeatMoves(Moves):
    """The legal moves from a state that are a seat's to record: its player's decisions and the
    steps both share (`whose`), as `refusal` lets them through."""

    def __init__(self, state: GameState, player: str):
        super().__init__(state)
        self.player = player

    def options(self, kind: str) -> list[ev.Event]:
        return [e for e in super().options(kind) if whose(self.state, e) in (None, self.player)]

    def legal(self, kind: str) -> bool:
        return bool(self.options(kind))


def seat_moves(state: GameState, player: str) -> tuple[list[Move], set[str]]:
    """The moves legal now that are the seat's to record, described as every face asks them
    (`play.questions`), and the kinds among them that are rare steps (offered under "more")."""
    moves = SeatMoves(state, player)
    return legal_moves(moves), {k.name for k in kinds(moves.ruleset) if k.more}


def move_answered(state: GameState, player: str, event_type: str, answers: list[tuple[str, str]]) -> Move | None:
    """The seat's legal move a form's answers are for: its event, its fixed fields among them."""
    given = dict(answers)
    moves, _ = seat_moves(state, player)
    return next((m for m in moves if m.event == event_type and all(given.get(f) == v for f, v in m.fixed.items())), None)


@dataclass(frozen=True)
class Correction:
    """A seat's own event to correct through its move's form: the move as it was legal at the
    state before the event, and the answers that make the event as it counts now."""

    seq: int
    line: str
    """The event's line as `ktlog event` takes it (the fallback: typed)."""
    move: Move | None = None
    answers: list[tuple[str, str]] | None = None


def correction(store: Store, game_id: str, seq: int, player: str | None = None) -> Correction:
    """The form that corrects the event at `seq`, from `player`'s seat (which recorded it) or the
    table (None: any event); refused with why for an event of the table or the other seat (dispute
    it), or one no form asks (an undo, a note, a dispute)."""
    session = RecordingSession(store, game_id)
    if not 1 < seq <= session.seq:
        raise KtlogError(f"there is no event at seq {seq} to correct (the game's events run 2 to {session.seq})")
    if player is not None and (why := signed_refusal(session) or not_the_recorder(session, player, seq, "corrects")):
        raise NotYourSeat(why)
    timeline = session.timeline
    counts = timeline.event(seq)
    if seq in timeline.corrected_by:
        counts = cast(ev.EventCorrected, timeline.event(timeline.corrected_by[seq])).event
    if isinstance(counts, ev.Annotation | ev.EventVoided | ev.EventCorrected | ev.EventDisputed | ev.DisputeResolved):
        raise KtlogError(f"seq {seq} is {type(counts).__name__}: undo it, or add another, rather than correct it")
    line = event_line(msgspec.structs.replace(counts, seat=None))
    before = store.state(game_id, seq - 1)
    moves = seat_moves(before, player)[0] if player is not None else legal_moves(Moves(before))
    for move in moves:
        if move.event == type(counts).__name__ and (answers := answers_from(move, counts)) is not None:
            return Correction(seq, line, move, answers)
    return Correction(seq, line)


def move_title(state: GameState, move: Move, moves: list[Move]) -> str:
    """A move as a button names it: its kind ("Dash", "End activation") when it is the only one
    of its kind, else its own label without the active operative's name ("Secure on centre")."""
    if sum(m.kind == move.kind for m in moves) == 1:
        return kind_named(get_ruleset(state.ruleset), move.kind).label
    active = state.activation.operative if state.activation else None
    return move.label.removeprefix(f"{active}: ") if active else move.label


def refusal(session: RecordingSession, player: str, event: ev.Event) -> str | None:
    """Why the seat of `player` may not record `event` (None: it may). The table seat may
    record anything; this is asked only of a player's seat."""
    state = session.state
    if event.seat is not None and event.seat != player:
        return f"a seat records as itself: this is {player}'s seat, not {event.seat}'s"
    if isinstance(event, TABLE_ONLY):
        return f"{type(event).__name__} is recorded at the table when the game is made, not from a seat"
    if signed := signed_refusal(session):
        return signed
    if isinstance(event, ev.Annotation | ev.EventDisputed):
        return None
    if isinstance(event, ev.EventVoided | ev.EventCorrected):
        if why := not_the_recorder(session, player, event.target, "undoes" if isinstance(event, ev.EventVoided) else "corrects"):
            return why
    if isinstance(event, ev.EventVoided):
        return None
    if isinstance(event, ev.DisputeResolved):
        dispute = next((d for d in state.disputes if d.seq == event.dispute), None)
        if dispute is not None and dispute.raised_by != player:
            return f"only the seat that raised the dispute at seq {event.dispute} ({dispute.raised_by or 'the table'}) resolves it"
        if dispute is not None and event.outcome == "accepted" and dispute.target not in session.timeline.corrected_by:
            return f"seq {dispute.target} has no correction to accept yet: its recorder corrects it first, or withdraw the dispute"
        return None
    if isinstance(event, ev.EventCorrected):
        return refusal(session, player, event.event)
    owner = whose(state, event)
    if owner is not None and owner != player:
        return f"{type(event).__name__} is {owner}'s decision: {owner}'s seat or the table records it, not {player}'s seat (dispute it if it is wrong)"
    return None


def not_the_recorder(session: RecordingSession, player: str, seq: int, verb: str) -> str | None:
    """Why `player`'s seat may not undo or correct (`verb`) the event at `seq`: another seat or
    the table recorded it (None: its own, or no such seq, which the rules refuse in their words)."""
    if not 1 <= seq <= session.seq:
        return None
    recorder = session.timeline.event(seq).seat
    if recorder == player:
        return None
    return (
        f"a seat {verb} only the events its player recorded; seq {seq} was recorded by {_who(recorder)}: dispute it instead, and {_who(recorder)} corrects it"
    )


def signed_refusal(session: RecordingSession) -> str | None:
    """Why a seat records nothing more: every player signed the game as it stands (None: they did not)."""
    signed = signed_by_every_player(session)
    if not signed:
        return None
    return f"the game is signed by {listing(signed)} as it stands: it is final, and a seat records nothing more (a note or a dispute goes to the table)"


def _who(seat: str | None) -> str:
    return f"{seat}'s seat" if seat else "the table"


def signed_by_every_player(session: RecordingSession) -> list[str]:
    """The players, when every one of them has signed the game as it stands (else [])."""
    found = signers(session.store, session.game_id)
    return list(found.players) if found.players and set(found.players) <= set(found.names) else []


def signed_at(store: Store, game_id: str, head_seq: int) -> list[str]:
    """Who kept a signature of the game at `head_seq` (as the seats sent them, in order)."""
    return store.keys.signers_at(game_id, head_seq)


def value_problem(event: ev.Event) -> str | None:
    """What a value of the event is that no event may hold (a control character, a number out of
    range: `envelopes.check_limits`), in a sentence; None when every value may be kept."""
    try:
        check_limits(event)
    except InvalidEvent as exc:
        return exc.message
    return None


def record(session: RecordingSession, seat: Seat, events: list[ev.Event], expected_seq: int | None = None) -> Recorded:
    """Record events from a seat, all or none, each carrying the seat: NotYourSeat (naming the
    first event refused and why) before anything is stored if one is not the seat's to record."""
    for index, event in enumerate(events):
        why = refusal(session, seat.player, event)
        if why:
            error = NotYourSeat(why if len(events) == 1 else f"line {index + 1}: {why}; nothing was recorded")
            error.index = index
            raise error
    marked = [msgspec.structs.replace(e, seat=seat.player) for e in events]
    if len(marked) == 1:
        return session.record(marked[0], expected_seq=expected_seq)
    if expected_seq is not None and expected_seq != session.seq + 1:
        raise ConcurrencyConflict(session.game_id, expected_seq, session.seq)
    return session.record_all(marked)


def cover_when_last_shot(timeline: Timeline) -> dict[str, bool]:
    """Each operative shot at so far: whether it was in cover the last time (a shot's sensible
    default: ktlog knows no positions, the players do)."""
    cover: dict[str, bool] = {}
    for _, event in timeline.counting:
        shot = event.event if isinstance(event, ev.EventCorrected) else event
        if isinstance(shot, ev.Shot):
            cover |= {attack.target: attack.cover for attack in shot.attacks}
    return cover
