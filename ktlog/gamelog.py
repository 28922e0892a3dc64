"""Game-log files: JSON Lines, a header line with the game's metadata, then one envelope a line.

Import is all-or-nothing per file, idempotent (by event id and hash), and reports the line and
the field of any error. Merging the databases of several tables is importing their exports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from . import __version__
from .errors import GameLogError, KtlogError
from .events import Envelope
from .records import GENESIS, canonical, canonical_raw, chain_hash, decode_payload
from .reducer import describe_result
from .state import GameState
from .store import Store

FORMAT = "ktlog-game"
FORMAT_VERSION = 1


class HeaderPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kill_team: str


class HeaderResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The final result: winner (None for a draw), and each player's VP by op with `total`."""

    winner: str | None
    draw: bool
    ended_by: Literal["battle", "concession"]
    score: dict[str, dict[str, int]]


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Line 1 of a game-log file, like PGN's tag roster."""

    format: Literal["ktlog-game"]
    format_version: int
    game_id: str
    ruleset: str
    killzone: str
    date: str
    players: tuple[HeaderPlayer, ...]
    events: int
    mission: str | None = None
    league: str | None = None
    season: str | None = None
    round: str | None = None
    table: str | None = None
    result: HeaderResult | None = None
    description: str | None = None
    ktlog_version: str | None = None


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
    return HeaderResult(winner=r.winner, draw=r.draw, ended_by=r.ended_by, score=score)


def make_header(game_id: str, state: GameState, events: int, description: str | None = None) -> Header:
    return Header(
        format=FORMAT, format_version=FORMAT_VERSION, game_id=game_id, ruleset=state.ruleset,
        killzone=state.killzone, date=state.date, events=events,
        players=tuple(HeaderPlayer(n, p.kill_team) for n, p in state.players.items()),
        result=header_result(state), description=description, ktlog_version=__version__,
        **{k: state.labels.get(k) for k in ("mission", "league", "season", "round", "table")},
    )


def export_lines(store: Store, game_id: str, description: str | None = None) -> list[bytes]:
    """The game-log file of a game, as lines without newlines."""
    envelopes = store.events(game_id)
    header = make_header(game_id, store.state(game_id), len(envelopes), description)
    return [_encoder.encode(header)] + [_encoder.encode(e) for e in envelopes]


def write_game_log(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"\n".join(lines) + b"\n")


# --- reading ---------------------------------------------------------------------------------


def _field_error(exc: msgspec.ValidationError, prefix: str = "") -> str:
    """msgspec says `... - at `$.rolls[2]``; name the field the way a person would."""
    text = str(exc)
    if " - at `$" in text:
        message, _, path = text.partition(" - at `$")
        field = prefix + path.rstrip("`").lstrip(".")
        return f"field {field or '(the line)'}: {message}"
    return f"field {prefix.rstrip('.')}: {text}" if prefix else text


def read_game_log(path: Path) -> tuple[Header, list[tuple[Envelope, bytes]]]:
    """Parse and check a game-log file: every line decodes, seqs run 1, 2, 3 ..., the hash chain holds.

    Returns the header and each event's envelope with its canonical payload bytes.
    """
    where = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GameLogError(where, None, f"cannot read the file: {exc.strerror}") from exc
    lines = data.split(b"\n")
    if lines and lines[-1].strip() == b"":
        lines.pop()
    if not lines or not lines[0].strip():
        raise GameLogError(where, None, "the file is empty; a game-log file starts with a header line")
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, 1, f"not a ktlog game-log header: {_field_error(exc)}") from exc
    except msgspec.DecodeError as exc:
        raise GameLogError(where, 1, f"the header is not valid JSON ({exc})") from exc
    if header.format_version > FORMAT_VERSION:
        raise GameLogError(where, 1, f"format version {header.format_version} is newer than this ktlog reads ({FORMAT_VERSION}); upgrade ktlog")
    sealed: list[tuple[Envelope, bytes]] = []
    prev = GENESIS
    for number, raw_line in enumerate(lines[1:], 2):
        envelope, payload = _read_line(where, number, raw_line, header, len(sealed) + 1, prev)
        sealed.append((envelope, payload))
        prev = envelope.hash
    if not sealed:
        raise GameLogError(where, None, "the file has a header but no events")
    if len(sealed) != header.events:
        raise GameLogError(where, None, f"the header says {header.events} events but the file has {len(sealed)}: it may be truncated")
    return header, sealed


_envelope_decoder = msgspec.json.Decoder(Envelope)


def _read_line(where: str, number: int, raw_line: bytes, header: Header, seq: int, prev: str) -> tuple[Envelope, bytes]:
    try:
        envelope = _envelope_decoder.decode(raw_line)  # the common case: a current-version event
        payload = canonical(envelope.payload) if envelope.version == type(envelope.payload).version else None
    except (msgspec.ValidationError, msgspec.DecodeError):
        payload = None
    if payload is None:
        envelope, payload = _read_line_slowly(where, number, raw_line)
    if envelope.game_id != header.game_id:
        raise GameLogError(where, number, f"field game_id: {envelope.game_id} is not the header's game {header.game_id}")
    if envelope.seq != seq:
        raise GameLogError(where, number, f"field seq: expected {seq}, found {envelope.seq} (a line is missing, repeated or out of order)")
    if envelope.prev_hash != prev:
        raise GameLogError(where, number, "field prev_hash: does not match the previous event's hash (events were removed or reordered)")
    if chain_hash(prev, envelope.game_id, seq, envelope.event_id, envelope.version, envelope.recorded_at, payload) != envelope.hash:
        raise GameLogError(where, number, "field hash: does not match the event's content: it was changed after it was recorded")
    return envelope, payload


def _read_line_slowly(where: str, number: int, raw_line: bytes) -> tuple[Envelope, bytes]:
    """Decode a line step by step: to upcast an older event, or to say exactly what is wrong.

    An older event keeps its payload as recorded (its hash covers that); it is upcast on read.
    """
    try:
        line = msgspec.json.decode(raw_line, type=_Line)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, number, _field_error(exc)) from exc
    except msgspec.DecodeError as exc:
        raise GameLogError(where, number, f"not valid JSON ({exc}); the line may be truncated") from exc
    try:
        type_name = msgspec.json.decode(line.payload, type=_Tag).type
        event = decode_payload(type_name, line.version, line.payload)
    except msgspec.ValidationError as exc:
        raise GameLogError(where, number, _field_error(exc, "payload.")) from exc
    except KtlogError as exc:
        raise GameLogError(where, number, str(exc)) from exc
    envelope = Envelope(
        game_id=line.game_id, seq=line.seq, event_id=line.event_id, version=line.version,
        recorded_at=line.recorded_at, payload=event, prev_hash=line.prev_hash, hash=line.hash,
    )
    return envelope, canonical_raw(line.payload)


@dataclass
class ImportReport:
    path: str
    game_id: str
    status: Literal["imported", "extended", "unchanged"]
    events_added: int
    warnings: list[str] = field(default_factory=list)

    def describe(self) -> str:
        gid = self.game_id[:8]
        text = {
            "imported": f"{self.path}: imported game {gid} ({self.events_added} events)",
            "extended": f"{self.path}: added {self.events_added} new events to game {gid}",
            "unchanged": f"{self.path}: game {gid} is already in the database; nothing to import",
        }[self.status]
        return "\n".join([text, *(f"  warning: {w}" for w in self.warnings)])


def import_file(store: Store, path: Path) -> ImportReport:
    """Import one game-log file whole, or refuse it whole (GameLogError) leaving the database unchanged."""
    where = str(path)
    header, sealed = read_game_log(path)
    game_id = header.game_id
    stored = {e.seq: e for e in store.events(game_id)} if store.has_game(game_id) else {}
    if stored:
        for envelope, _ in sealed[: len(stored)]:
            mine = stored[envelope.seq]
            if mine.hash != envelope.hash:
                raise GameLogError(
                    where, envelope.seq + 1,
                    f"game {game_id[:8]} is already in {store.path or 'the database'} with different events from seq {envelope.seq} "
                    f"(database: {mine.type}, this file: {envelope.type}); they are two different recordings, so nothing was imported",
                )
        if len(sealed) <= len(stored):
            return ImportReport(where, game_id, "unchanged", 0)
    try:
        state = store.import_envelopes(game_id, sealed, already=len(stored))
    except KtlogError as exc:
        seq = getattr(exc, "seq", None)
        raise GameLogError(where, seq + 1 if seq else None, str(exc)) from exc
    report = ImportReport(where, game_id, "extended" if stored else "imported", len(sealed) - len(stored))
    expected = header.result
    if expected is not None and expected != header_result(state):
        report.warnings.append(f"the header's result differs from what the events give ({describe_result(state)})")
    return report

