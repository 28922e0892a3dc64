"""Game-log files: JSON Lines, a header line with the game's metadata, then one envelope a line.

Reading checks a file whole and names the line and the field of any error; writing replaces a
file whole (a temporary file beside it, then renamed). Importing files into a database is
`ktlog.play.importer`.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

import msgspec

from .. import __version__
from ..envelopes import GENESIS, NAME_LIMIT, NUMBER_LIMIT, canonical, canonical_raw, chain_hash, decode_payload, name_problem
from ..errors import GameLogError, KtlogError
from ..events import Envelope, decodable, vocabulary_version
from ..rulesets import get_ruleset
from ..state import GameState
from .inputs import GAME_LOG_LIMIT, LINE_LIMIT, read_limited
from .output_file import write_file

if TYPE_CHECKING:
    from ..storage.store import Store

FORMAT: Literal["ktlog-game"] = "ktlog-game"
FORMAT_VERSION = 1


class HeaderPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kill_team: str


Count = Annotated[int, msgspec.Meta(ge=0, le=NUMBER_LIMIT)]
"""A number of a header: checked against the limits of every number ktlog stores when the header is read."""
Score = Annotated[int, msgspec.Meta(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]


class HeaderResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The final result: winner (None for a draw or a shared win), each player's VP by op with
    `total`, and the players sharing the win (Multiplayer Ops, ruling 5; absent otherwise)."""

    winner: str | None
    draw: bool
    ended_by: Literal["battle", "concession", "report"]
    score: dict[str, dict[str, Score]]
    winners: tuple[str, ...] = ()


class HeaderSignature(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A recorder's Ed25519 signature of the game as it stood at `head_seq` (`play.signatures`):
    the signer's name as they gave it, their public key and the signature, both in hex."""

    signer: str
    public_key: str
    head_seq: int
    signature: str


class HeaderOrigin(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The database that recorded the game (`play.players`): its id, and its label then (the
    club's name, shown beside a namesake's). Its players with no pinned key are their names
    within it, whichever database the file is imported into."""

    database: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{32}$")]
    label: Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_LIMIT)]


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Line 1 of a game-log file, like PGN's tag roster."""

    format: Literal["ktlog-game"]
    format_version: Count
    game_id: str
    ruleset: str
    killzone: str
    date: str
    players: tuple[HeaderPlayer, ...]
    events: Count
    mission: str | None = None
    league: str | None = None
    season: str | None = None
    round: str | None = None
    table: str | None = None
    result: HeaderResult | None = None
    description: str | None = None
    ktlog_version: str | None = None
    signatures: tuple[HeaderSignature, ...] = ()
    recorded_in: HeaderOrigin | None = None


class _Line(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An envelope line with its payload left raw, for checking before decoding."""

    game_id: str
    seq: int
    event_id: str
    version: int
    recorded_at: str
    payload: msgspec.Raw
    prev_hash: str
    hash: str


class _Tag(msgspec.Struct):
    type: str


_encoder = msgspec.json.Encoder()


def header_result(state: GameState) -> HeaderResult | None:
    r = state.result
    if r is None:
        return None
    score = {n: {**p.vp, "total": p.total_vp} for n, p in state.players.items()}
    return HeaderResult(winner=r.winner, draw=r.draw, ended_by=r.ended_by, score=score, winners=tuple(get_ruleset(state.ruleset).shared_win(state)))


def make_header(game_id: str, state: GameState, events: int, description: str | None = None, origin: tuple[str, str] | None = None) -> Header:
    return Header(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        game_id=game_id,
        ruleset=state.ruleset,
        killzone=state.killzone,
        date=state.date,
        events=events,
        players=tuple(HeaderPlayer(n, p.kill_team) for n, p in state.players.items()),
        result=header_result(state),
        description=description,
        ktlog_version=__version__,
        recorded_in=HeaderOrigin(*origin) if origin else None,
        **{k: state.labels.get(k) for k in ("mission", "league", "season", "round", "table")},  # type: ignore[arg-type]  # the label fields, str | None
    )


def export_lines(store: Store, game_id: str, description: str | None = None) -> list[bytes]:
    """The game-log file of a game, as lines without newlines."""
    sealed = store.sealed(game_id)
    header = make_header(game_id, store.state(game_id), len(sealed), description, store.players.origin(game_id))
    return [_encoder.encode(header)] + [_encoder.encode(_as_recorded(e, payload)) for e, payload in sealed]


def _as_recorded(envelope: Envelope, payload: bytes) -> Envelope:
    """An event of an older version of its type with its payload as recorded, which its hash
    covers, rather than upcast to this ktlog's version."""
    if envelope.version == type(envelope.payload).version:
        return envelope
    return msgspec.structs.replace(envelope, payload=msgspec.Raw(payload))


def write_game_log(path: Path, lines: list[bytes]) -> None:
    """Write a game-log file whole or not at all (`output.write_file`)."""
    write_file(path, b"\n".join(lines) + b"\n", database=None)


# --- reading ---------------------------------------------------------------------------------


def _field_error(exc: msgspec.ValidationError, prefix: str = "") -> str:
    """msgspec says `... - at `$.rolls[2]``; name the field the way a person would."""
    text = str(exc)
    if " - at `$" in text:
        message, _, path = text.partition(" - at `$")
        field = prefix + path.rstrip("`").lstrip(".")
        return f"field {field or '(the line)'}: {message}"
    return f"field {prefix.rstrip('.')}: {text}" if prefix else text


def read_game_bytes(path: Path, what: str) -> bytes:
    """A game's file (a game-log file, a game file) whole, within GAME_LOG_LIMIT; GameLogError if not."""
    try:
        return read_limited(path, what, GAME_LOG_LIMIT)
    except OSError as exc:
        raise GameLogError(str(path), None, f"cannot read the file: {exc.strerror}") from exc
    except KtlogError as exc:
        raise GameLogError(str(path), None, str(exc)) from exc


def read_game_log(path: Path) -> tuple[Header, list[tuple[Envelope, bytes]]]:
    """Parse and check a game-log file: every line decodes, seqs run 1, 2, 3 ..., the hash chain holds.

    Returns the header and each event's envelope with its canonical payload bytes.
    """
    where = str(path)
    header, lines = _header_and_lines(where, read_game_bytes(path, "a game-log file"))
    sealed: list[tuple[Envelope, bytes]] = []
    lines_of_ids: dict[str, int] = {}
    prev, game_id, decode = GENESIS, header.game_id, _envelope_decoder(vocabulary_version()).decode
    for seq, raw_line in enumerate(lines[1:], 1):  # one loop, no call a line but the decode and the hash: 3/4 of reading's CPU
        try:
            envelope = decode(raw_line)  # the common case: a current-version event
            payload = canonical(envelope.payload) if envelope.version == type(envelope.payload).version else None
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            payload = None
        if payload is None:
            envelope, payload = _read_line_slowly(where, seq + 1, raw_line)
        if (
            envelope.game_id != game_id
            or envelope.seq != seq
            or envelope.prev_hash != prev
            or chain_hash(prev, game_id, seq, envelope.event_id, envelope.version, envelope.recorded_at, payload) != envelope.hash
            or _LONG_NUMBER in payload.translate(_DIGITS)
        ):
            _refuse_line(where, seq, envelope, payload, game_id, prev)
        first = lines_of_ids.setdefault(envelope.event_id, seq + 1)
        if first != seq + 1:
            raise GameLogError(where, seq + 1, f"field event_id: {envelope.event_id} is already the id of the event on line {first}; each event has its own id")
        sealed.append((envelope, payload))
        prev = envelope.hash
    _check_count(where, header, len(sealed), len(lines))
    return header, sealed


def _header_and_lines(where: str, data: bytes) -> tuple[Header, list[bytes]]:
    """A game-log file's lines (a byte-order mark and blank lines at its end left out), each within
    LINE_LIMIT, and its header, line 1, read and checked."""
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")  # a byte-order mark, as some editors write
    while lines and not lines[-1].strip():  # blank lines at the end, as editors and copies leave them
        lines.pop()
    long_line = next((number for number, line in enumerate(lines, 1) if len(line) > LINE_LIMIT), None)
    if long_line:
        raise GameLogError(where, long_line, f"the line is {len(lines[long_line - 1]):,} bytes long, more than the {LINE_LIMIT:,} a line may take")
    if not lines or not lines[0].strip():
        raise GameLogError(where, 1, "the file is empty; a game-log file starts with a header line")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, 1, f"not a ktlog game-log header: {_field_error(exc)}") from exc
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise GameLogError(where, 1, f"the header is not valid JSON ({_undecodable(exc)})") from exc
    if header.format_version > FORMAT_VERSION:
        raise GameLogError(where, 1, f"format version {header.format_version} is newer than this ktlog reads ({FORMAT_VERSION}); upgrade ktlog")
    if header.recorded_in is not None and (problem := name_problem(header.recorded_in.label, "recorded_in.label")):
        raise GameLogError(where, 1, f"not a ktlog game-log header: {problem}")
    return header, lines


def _check_count(where: str, header: Header, events: int, lines: int) -> None:
    """As many events as the header says: a file cut short or added to is refused, naming the line."""
    if not events:
        raise GameLogError(where, 2, "the file has a header but no events; a game starts with its GameCreated event on line 2")
    if events < header.events:
        raise GameLogError(where, lines + 1, f"the header says {header.events} events but the file has {events}: it is truncated here; export the game again")
    if events > header.events:
        raise GameLogError(
            where, max(header.events, 0) + 2, f"the header says {header.events} events but the file goes on: a line was added after it was written"
        )


@functools.cache
def _envelope_decoder(version: int) -> msgspec.json.Decoder[Envelope]:
    """The decoder of a current-version event's line, of any type registered by `version` of the
    vocabulary, made when first asked for (as `envelopes._event_decoder`)."""
    return msgspec.json.Decoder(cast(Any, Envelope)[decodable()])  # subscripted with a type made at run time


_DIGITS = bytes(ord("0") if bytes((i,)).isdigit() else ord(" ") for i in range(256))
_LONG_NUMBER = b"0" * 19
"""A payload with a whole number this long (its digits made "0", every other byte " ", found by
a plain byte search: 3x as fast as a regular expression) may not fit SQLite's 64-bit integers,
so it is checked."""
INT64 = range(-(2**63), 2**63)


def _undecodable(exc: Exception) -> str:
    """Why a line could not be parsed at all, in a person's words."""
    if isinstance(exc, UnicodeDecodeError):
        return f"byte {exc.start} is not UTF-8 text; save the file as UTF-8"
    if isinstance(exc, RecursionError):
        return "it is nested too deeply to be a ktlog event"
    return str(exc)


def _too_large(value, path: str = "payload") -> str | None:
    """The field holding the first whole number of a decoded payload outside SQLite's 64-bit range."""
    if isinstance(value, int):
        return None if value in INT64 else f"field {path}: {value} is too large; ktlog stores whole numbers between -2^63 and 2^63-1"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _too_large(item, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}")
        if found:
            return found
    return None


def _refuse_line(where: str, seq: int, envelope: Envelope, payload: bytes, game_id: str, prev: str) -> None:
    """Raise GameLogError saying what is wrong with the line of event `seq` that `read_game_log`
    doubts (the line after the header's is seq 1's); a long number that fits SQLite's integers passes."""
    number = seq + 1
    if _LONG_NUMBER in payload.translate(_DIGITS) and (problem := _too_large(msgspec.json.decode(payload))):
        raise GameLogError(where, number, problem)
    if envelope.game_id != game_id:
        raise GameLogError(where, number, f"field game_id: {envelope.game_id} is not the header's game {game_id}")
    if envelope.seq != seq:
        raise GameLogError(where, number, f"field seq: expected {seq}, found {envelope.seq} (a line is missing, repeated or out of order)")
    if envelope.prev_hash != prev:
        raise GameLogError(where, number, "field prev_hash: does not match the previous event's hash (events were removed or reordered)")
    if chain_hash(prev, envelope.game_id, seq, envelope.event_id, envelope.version, envelope.recorded_at, payload) != envelope.hash:
        raise GameLogError(where, number, "field hash: does not match the event's content: it was changed after it was recorded")


def _read_line_slowly(where: str, number: int, raw_line: bytes) -> tuple[Envelope, bytes]:
    """Decode a line step by step: to upcast an older event, or to say exactly what is wrong.

    An older event keeps its payload as recorded (its hash covers that); it is upcast on read.
    """
    try:
        raw_line.decode()  # so that a byte that is not UTF-8 is counted within the line, not within its payload
    except UnicodeDecodeError as exc:
        raise GameLogError(where, number, f"not valid JSON ({_undecodable(exc)})") from exc
    try:
        line = msgspec.json.decode(raw_line, type=_Line)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, number, _field_error(exc)) from exc
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise GameLogError(where, number, f"not valid JSON ({_undecodable(exc)}); the line may be truncated") from exc
    if line.version < 1:
        raise GameLogError(where, number, f"field version: {line.version} is not an event version (they start at 1)")
    try:
        type_name = msgspec.json.decode(line.payload, type=_Tag).type
        event = decode_payload(type_name, line.version, line.payload)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, number, _field_error(exc, "payload.")) from exc
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise GameLogError(where, number, f"field payload: not valid JSON ({_undecodable(exc)})") from exc
    except KtlogError as exc:
        raise GameLogError(where, number, str(exc)) from exc
    envelope = Envelope(
        game_id=line.game_id,
        seq=line.seq,
        event_id=line.event_id,
        version=line.version,
        recorded_at=line.recorded_at,
        payload=event,
        prev_hash=line.prev_hash,
        hash=line.hash,
    )
    return envelope, canonical_raw(line.payload)
