"""Envelopes: canonical payload bytes, the per-game SHA-256 hash chain, decoding with upcasting."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

import msgspec

from .characters import unsafe_character
from .errors import InvalidEvent
from .events import EVENT_TYPES, Envelope, Event, decodable, upcast, vocabulary_version

GENESIS = "0" * 64
"""The `prev_hash` of a game's first event."""

_encoder = msgspec.json.Encoder(order="sorted")


@functools.cache
def _event_decoder(version: int) -> msgspec.json.Decoder[Event]:
    """The JSON decoder of every event type registered by `version` of the vocabulary, made when
    first asked for: it takes 10-20 ms of CPU to make, which a command that decodes no event (the
    start screen, `--help`) need not pay."""
    return msgspec.json.Decoder(decodable())


def canonical(event: Event) -> bytes:
    """The payload as stored and hashed: compact JSON, every key sorted, defaults left out."""
    try:
        return _encoder.encode(event)
    except UnicodeEncodeError:  # a lone surrogate: a byte of a command line that was not UTF-8
        check_limits(event)  # names the field
        raise


def canonical_raw(payload: bytes) -> bytes:
    """The same canonical form for a payload kept as recorded (an older version of its type)."""
    return _encoder.encode(msgspec.json.decode(payload))


def chain_hash(prev_hash: str, game_id: str, seq: int, event_id: str, version: int, recorded_at: str, payload: bytes) -> str:
    """SHA-256 over the previous hash, the envelope's identity and the canonical payload."""
    return hashlib.sha256(f"{prev_hash}\n{game_id}\n{seq}\n{event_id}\n{version}\n{recorded_at}\n".encode() + payload).hexdigest()


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


def event_uuid(recorded_at: str, random_bits: int | None = None) -> str:
    """A version 7 UUID (RFC 9562, section 5.7) for an event: its time recorded in milliseconds,
    then 74 random bits. Events recorded together sort together, so the database's unique index
    of event ids grows at a few pages instead of at random ones (an import writes 2x faster)."""
    ms = int(dt.datetime.fromisoformat(recorded_at).timestamp() * 1000)
    rand = secrets.randbits(74) if random_bits is None else random_bits & (2**74 - 1)
    value = (ms & (2**48 - 1)) << 80 | 0x7 << 76 | (rand >> 62) << 64 | 0b10 << 62 | rand & (2**62 - 1)
    return _dashed(f"{value:032x}")


def seal(game_id: str, seq: int, event: Event, prev_hash: str, *, event_id: str | None = None, recorded_at: str | None = None) -> tuple[Envelope, bytes]:
    """The envelope for a new event, and its canonical payload bytes."""
    payload = canonical(event)
    recorded_at = recorded_at or now()
    event_id = event_id or event_uuid(recorded_at)
    version = type(event).version
    digest = chain_hash(prev_hash, game_id, seq, event_id, version, recorded_at, payload)
    envelope = Envelope(
        game_id=game_id,
        seq=seq,
        event_id=event_id,
        version=version,
        recorded_at=recorded_at,
        payload=event,
        prev_hash=prev_hash,
        hash=digest,
    )
    return envelope, payload


# --- the event boundary: values every writer checks before anything is written -------------

NUMBER_LIMIT = 10**9
"""Whole numbers in an event lie within +-NUMBER_LIMIT: far beyond any Kill Team number, and
sums of many of them stay inside SQLite's 64-bit integers and JSON's exact range."""
NAME_LIMIT = 200
"""Characters at most in a name, id, label or other short text (players, operatives, teams ...)."""
TEXT_LIMIT = 4000
"""Characters at most in free text: a note, a reason, an override, a printed rule."""
FREE_TEXT = frozenset({"text", "reason", "override", "rules", "critical_rules"})
"""Fields holding free text: longer, and a tab is allowed in them."""
_SURROGATE = re.compile("[\ud800-\udfff]")
"""Half of a UTF-16 pair alone: what Python makes of a byte that is not UTF-8 in a command line."""
_UNSAFE_UTF8 = re.compile(rb"\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]")
"""A C1 control, or a bidirectional override or isolate, as UTF-8 bytes."""
_DIGITS = bytes(ord("0") if bytes((i,)).isdigit() else ord(" ") for i in range(256))
_TEN_DIGITS = b"0" * 10


def _plainly_within_limits(payload: bytes) -> bool:
    """Whether an event's canonical JSON holds nothing the check could refuse, found by byte
    searches (4x as fast as walking the event): no backslash but a quote's inside a text (`\\"`,
    the inch mark of `Blast 2"`: every escaped control character has one), DEL, C1 control or
    bidirectional override, no number of 10 digits, no run between quotes longer than NAME_LIMIT
    (an escaped quote counted as two bytes of its run, so a run is never shorter than its text)."""
    if b"\\" in payload and b"\\" in (payload := payload.replace(b'\\"', b"''")):
        return False
    if b"\x7f" in payload or (not payload.isascii() and _UNSAFE_UTF8.search(payload)):
        return False
    if _TEN_DIGITS in payload.translate(_DIGITS):
        return False
    return len(payload) <= NAME_LIMIT or max(map(len, payload.split(b'"'))) <= NAME_LIMIT


def check_limits(event: Event, payload: bytes | None = None) -> None:
    """Refuse an event holding a value ktlog cannot store and show safely: a whole number outside
    +-NUMBER_LIMIT, a text too long, or a control character (C0 and C1, a tab only in free text)
    or a bidirectional override. Raises InvalidEvent naming the field; every writer calls it
    (through `storage.rows.event_rows`) before anything is written. `payload`, the event's
    canonical JSON, lets most events pass on a byte search."""
    if payload is not None and _plainly_within_limits(payload):
        return
    try:
        problem = _bad_value(msgspec.to_builtins(event), type(event).__name__, "")
    except RecursionError:  # a value nested deeper than Python walks (msgspec reads deeper)
        problem = "a value is nested too deeply to be a ktlog value"
    if problem:
        raise InvalidEvent(problem, "limits of docs/file-formats.md")


def name_problem(name: str, field: str) -> str | None:
    """What is wrong with a name given outside an event (a signer's), by the limits every name in
    an event meets: empty, too long, a control character; None if it is fine."""
    if not name.strip():
        return f"field {field}: the name is empty"
    return _bad_value(name, field, field)


def _bad_value(value: object, field: str, path: str) -> str | None:
    if isinstance(value, str):
        free = field in FREE_TEXT
        limit = TEXT_LIMIT if free else NAME_LIMIT
        if len(value) > limit:
            return f"field {path}: {len(value):,} characters is too long (at most {limit:,}); shorten it"
        not_text = _SURROGATE.search(value)
        if not_text:
            return f"field {path}: holds U+{ord(not_text.group()):04X}, which is not a character (a byte that is not UTF-8?); type it again"
        bad = unsafe_character(value, tab=free)
        if bad:
            return f"field {path}: holds the control character {bad}; names and notes are plain text (remove it)"
        return None
    if isinstance(value, bool) or not isinstance(value, int | dict | list | tuple):
        return None
    if isinstance(value, int):
        if -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
            return None
        return f"field {path}: {value} is out of range; ktlog stores whole numbers from -{NUMBER_LIMIT:,} to {NUMBER_LIMIT:,}"
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(key, str):
            problem = _bad_value(key, "", f"{path}.{key}".lstrip(".")) or _bad_value(item, key, f"{path}.{key}".lstrip("."))
        else:
            problem = _bad_value(item, field, f"{path}[{key}]")
        if problem:
            return problem
    return None


# --- game ids ---------------------------------------------------------------------------------

UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A UUID as ktlog writes them: 36 characters, lower case (game ids; the event ids it makes)."""


def check_ids(game_id: str, event_id: str) -> None:
    """Refuse an envelope whose game id is not a UUID as ktlog writes them (36 characters, lower
    case: any other text could be unreachable, shadow another game's prefix, or name a file
    outside the current folder), or whose event id is not a short plain text."""
    check_game_id(game_id)
    problem = _bad_value(event_id, "event_id", "event_id")
    if problem:
        raise InvalidEvent(problem, "event_id")


def check_game_id(game_id: str) -> None:
    """Refuse a game id that is not a UUID as ktlog writes them (`check_ids`)."""
    if not UUID_TEXT.fullmatch(game_id):
        hint = "; write it in lower case" if UUID_TEXT.fullmatch(game_id.lower()) else ""
        raise InvalidEvent(
            f"field game_id: {game_id[:60]!r} is not a ktlog id (a UUID in lower case, e.g. 334f68f6-0dcb-4490-9503-74563ac46dc6){hint}", "game_id"
        )


def event_id_bytes(event_id: str) -> bytes | str:
    """How the database stores an event id: a UUID as ktlog writes them (lower case) as its 16
    bytes, any other id (a game-log file may carry any short text) as it is, text (never taken
    for bytes)."""
    if len(event_id) == 36 and UUID_TEXT.fullmatch(event_id):
        return bytes.fromhex(event_id.replace("-", ""))
    return event_id


UUID_LINES = re.compile(rf"(?:{UUID_TEXT.pattern}\n)*{UUID_TEXT.pattern}")
"""UUIDs as ktlog writes them, one a line."""


def event_ids_bytes(event_ids: list[str]) -> list[bytes | str]:
    """`event_id_bytes` of each id: when all are UUIDs as ktlog writes them (as in every file
    ktlog exports), checked by one match and converted by one `bytes.fromhex` (5x as fast)."""
    joined = "\n".join(event_ids)
    digits = bytes.fromhex(joined.replace("-", "")) if UUID_LINES.fullmatch(joined) else b""  # fromhex skips the newlines
    if len(digits) != 16 * len(event_ids):  # not all UUIDs, or an id holding a newline between two
        return [event_id_bytes(event_id) for event_id in event_ids]
    return [digits[i : i + 16] for i in range(0, len(digits), 16)]


def event_id_text(stored: bytes | str) -> str:
    """The event id `event_id_bytes` stored."""
    return _dashed(stored.hex()) if isinstance(stored, bytes) else stored


def _dashed(digits: str) -> str:
    """A UUID's 32 hex digits as its text (what str(uuid.UUID) writes, without making the object)."""
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def game_prefix(text: str) -> str:
    """A game id or the start of one as typed (`334F`, ` 334f `): the one form every lookup
    compares, exactly, with the start of a stored id (no wildcard)."""
    return text.strip().lower()


def decode_payload(type_name: str, version: int, payload: bytes | str) -> Event:
    """A stored payload as its event, upcast from an older version if needed. The type is one
    registered (ktlog's own, or a ruleset's: the registry in ktlog.rulesets loads them)."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise InvalidEvent(
            f"unknown event type {type_name!r}; this ktlog knows {len(EVENT_TYPES)} types (a ruleset's own types are known once it is installed)", "type"
        )
    if version > cls.version:
        raise InvalidEvent(
            f"{type_name} version {version} is newer than this ktlog understands (version {cls.version}); upgrade ktlog",
            "version",
        )
    if version == cls.version:
        event = _event_decoder(vocabulary_version()).decode(payload)
    else:
        data = upcast(type_name, version, msgspec.json.decode(payload))
        event = msgspec.convert(data, decodable())
    if type(event) is not cls:
        raise InvalidEvent(f"payload says {type(event).__name__} but the envelope says {type_name}", "type")
    return event


@dataclass(frozen=True)
class GameRow:
    """A game as the games table lists it."""

    id: str
    created_at: str
    ruleset: str
    killzone: str
    date: str
    labels: dict[str, str]
    players: list[str]
    kill_teams: list[str]
    status: str
    result: dict[str, Any] | None
    head_seq: int
    simulated: bool = False
    """Played by `ktlog simulate` (GameCreated.simulated)."""
