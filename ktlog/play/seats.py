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
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

import msgspec

from .. import events as ev
from ..envelopes import now
from ..errors import ConcurrencyConflict, KtlogError
from ..rules.questions import Move
from ..state import GameState
from ..storage.store import Store
from .moves import Moves, owner
from .questions import kinds, legal_moves
from .session import Recorded, RecordingSession

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
    store.issue_seat(game_id, player, token_hash(token))
    return token


def link(base: str, game_id: str, token: str) -> str:
    """The seat's link: the token in the fragment, which a browser never sends to a server."""
    return f"{base.rstrip('/')}/seat/{game_id}#{token}"


def revoke(store: Store, game_id: str, player: str) -> None:
    """End the seat's token: its link records nothing more."""
    if not store.update_seat(game_id, player, revoked_at=now()):
        raise KtlogError(f"{player!r} has no seat in game {game_id[:8]}; `ktlog seat {game_id[:8]} PLAYER` makes one")


def seat_of(store: Store, token: str | None, game_id: str) -> Seat:
    """The live seat a token opens, for a write to game `game_id`: NoSeat for none or a wrong
    one, NotYourSeat for a seat of another game."""
    if not token:
        raise NoSeat("this needs a seat's token: open the seat's link (`ktlog seat GAME PLAYER` prints it)")
    digest = token_hash(token)
    rows = store.seat_rows(token_hash=digest)
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
    store.update_seat(seat.game_id, seat.player, public_key=public_key)
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


def refusal(session: RecordingSession, player: str, event: ev.Event) -> str | None:
    """Why the seat of `player` may not record `event` (None: it may). The table seat may
    record anything; this is asked only of a player's seat."""
    state = session.state
    if event.seat is not None and event.seat != player:
        return f"a seat records as itself: this is {player}'s seat, not {event.seat}'s"
    if isinstance(event, TABLE_ONLY):
        return f"{type(event).__name__} is recorded at the table when the game is made, not from a seat"
    if isinstance(event, ev.Annotation | ev.EventDisputed):
        return None
    if isinstance(event, ev.EventVoided):
        latest = session.latest()
        if latest is not None and latest[0] == event.target and latest[1].seat != player:
            return f"a seat undoes only its own latest event; seq {event.target} was recorded by {latest[1].seat or 'the table'}: dispute it instead"
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
