"""Game-log files: JSON Lines, a header line with the game's metadata, then one envelope a line.

Import is all-or-nothing per file, idempotent (by event id and hash), and reports the line and
the field of any error. Merging the databases of several tables is importing their exports.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from .. import __version__
from ..errors import GameLogError, KtlogError
from ..events import Envelope
from ..records import GENESIS, canonical, canonical_raw, chain_hash, decode_payload
from ..reducer import fold_with_snapshots
from ..text.results import describe_result
from ..rulesets.multiplayer.rules import shared_win
from ..state import GameState, decode_state, encode_state
from ..storage.store import SNAPSHOT_EVERY, Store, event_rows

FORMAT = "ktlog-game"
FORMAT_VERSION = 1


class HeaderPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    kill_team: str


class HeaderResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The final result: winner (None for a draw or a shared win), each player's VP by op with
    `total`, and the players sharing the win (Multiplayer Ops, ruling 5; absent otherwise)."""

    winner: str | None
    draw: bool
    ended_by: Literal["battle", "concession"]
    score: dict[str, dict[str, int]]
    winners: tuple[str, ...] = ()


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
    return HeaderResult(winner=r.winner, draw=r.draw, ended_by=r.ended_by, score=score, winners=tuple(shared_win(state)))


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
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")  # a byte-order mark, as some editors write
    if lines and lines[-1].strip() == b"":
        lines.pop()
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
    sealed: list[tuple[Envelope, bytes]] = []
    lines_of_ids: dict[str, int] = {}
    prev = GENESIS
    for number, raw_line in enumerate(lines[1:], 2):
        envelope, payload = _read_line(where, number, raw_line, header, len(sealed) + 1, prev)
        first = lines_of_ids.setdefault(envelope.event_id, number)
        if first != number:
            raise GameLogError(where, number, f"field event_id: {envelope.event_id} is already the id of the event on line {first}; each event has its own id")
        sealed.append((envelope, payload))
        prev = envelope.hash
    if not sealed:
        raise GameLogError(where, 2, "the file has a header but no events; a game starts with its GameCreated event on line 2")
    if len(sealed) < header.events:
        raise GameLogError(
            where, len(lines) + 1,
            f"the header says {header.events} events but the file has {len(sealed)}: it is truncated here; export the game again",
        )
    if len(sealed) > header.events:
        raise GameLogError(where, max(header.events, 0) + 2, f"the header says {header.events} events but the file goes on: a line was added after it was written")
    return header, sealed


_envelope_decoder = msgspec.json.Decoder(Envelope)
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


def _read_line(where: str, number: int, raw_line: bytes, header: Header, seq: int, prev: str) -> tuple[Envelope, bytes]:
    try:
        envelope = _envelope_decoder.decode(raw_line)  # the common case: a current-version event
        payload = canonical(envelope.payload) if envelope.version == type(envelope.payload).version else None
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        payload = None
    if payload is None:
        envelope, payload = _read_line_slowly(where, number, raw_line)
    if _LONG_NUMBER in payload.translate(_DIGITS) and (problem := _too_large(msgspec.json.decode(payload))):
        raise GameLogError(where, number, problem)
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
                db = store.path or "the database"
                raise GameLogError(
                    where, envelope.seq + 1,
                    f"game {game_id[:8]} is already in {db} with different events from seq {envelope.seq}: "
                    f"{db} has {mine.type} recorded at {mine.recorded_at} (event id {mine.event_id}); "
                    f"{where} has {envelope.type} recorded at {envelope.recorded_at} (event id {envelope.event_id}). "
                    f"They are two recordings of one game: compare them (`ktlog export {game_id[:8]}` writes the stored one) "
                    "and import only the right one",
                )
        if len(sealed) <= len(stored):
            return ImportReport(where, game_id, "unchanged", 0)
    with _named_line(where):
        state = store.import_envelopes(game_id, sealed, already=len(stored))
    return _report(where, header, state, "extended" if stored else "imported", len(sealed) - len(stored))


def import_files(store: Store, paths: list[Path]) -> Iterator[ImportReport | KtlogError]:
    """Import game-log files in order, each as `import_file` does, yielding each file's report
    or the error that kept it out. With several files a second process reads and checks files
    while this one writes (see `_checked_in_order`)."""
    for path, checked in zip(paths, _checked_in_order(paths)):
        if isinstance(checked, GameLogError):
            yield checked
        elif store.has_game(checked.header.game_id):  # unchanged, extended or conflicting: compared with the stored events
            yield _either(import_file, store, path)
        else:
            yield _either(_import_checked, store, checked)


def _checked_in_order(paths: list[Path]) -> Iterator[_Checked | GameLogError]:
    """Each file read and folded, in order. A forked process and this one take turns claiming
    the next file to check: that process whenever it is free, this one whenever the file it
    must write next is not ready. So the two share the work whatever writing costs here
    (see the README's benchmarks). Without fork (or memory for it) this process checks every
    file; if the checker dies, this process checks what it had claimed."""
    if len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_checked, paths)
        return
    fork = multiprocessing.get_context("fork")
    unclaimed, results, unread = fork.Value("q", 0), fork.Queue(), fork.BoundedSemaphore(CHECKED_AHEAD)
    checker = fork.Process(target=_check_claimed, args=(paths, unclaimed, results, unread), daemon=True)
    try:
        checker.start()
    except OSError:
        yield from map(_checked, paths)
        return
    results._writer.close()  # (the queue's private end) so the pipe ends when the checker does, even mid-message
    ready: dict[int, _Checked | GameLogError] = {}
    sending = True
    try:
        for i in range(len(paths)):
            while i not in ready:
                if sending and not results.empty():
                    sending = _receive(results, ready, unread)
                elif (k := _claim(unclaimed)) < len(paths):
                    ready[k] = _checked(paths[k])
                elif sending:  # file i is being checked there
                    sending = _receive(results, ready, unread, timeout=0.1)
                else:  # the checker died with file i claimed
                    ready[i] = _checked(paths[i])
            yield ready.pop(i)
    finally:
        checker.kill()
        checker.join()


def _receive(results, ready: dict, unread, timeout: float | None = None) -> bool:
    """Read the checker's next (index, result) into `ready`, waiting at most `timeout`. False
    once it will send no more: it has finished, or died (perhaps in the middle of a result)."""
    try:
        k, result = results.get(timeout=timeout)
    except queue.Empty:
        return True
    except (EOFError, OSError):  # OSError: "got end of file during message"
        return False
    ready[k] = result
    unread.release()
    return True


CHECKED_AHEAD = 32
"""At most this many files checked and not yet read by the writing process (bounds the memory
when writing is the slower part)."""


def _claim(unclaimed) -> int:
    """The index of the next file no process has claimed, claimed."""
    with unclaimed.get_lock():
        unclaimed.value += 1
        return unclaimed.value - 1


def _check_claimed(paths: list[Path], unclaimed, results, unread) -> None:
    """The checking process: check files as it claims them, sending each (index, result), at
    most CHECKED_AHEAD of them unread. It leaves ctrl+c to the importing process, and stops
    quietly on anything unexpected: that process then checks the file itself and reports what
    went wrong."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        while unread.acquire() and (k := _claim(unclaimed)) < len(paths):
            results.put((k, _checked(paths[k])))
    results.close()
    results.join_thread()


@dataclass
class _Checked:
    """A game-log file read and its events folded (by the checking process), ready to write."""

    path: str
    header: Header
    rows: list[tuple]
    state: bytes
    snapshots: list[tuple[int, bytes]]


def _checked(path: Path) -> _Checked | GameLogError:
    """Read a file and fold its events (in the checking process): what the store writes."""
    try:
        header, sealed = read_game_log(path)
        with _named_line(str(path)):
            state, snapshots = fold_with_snapshots([(e.seq, e.payload) for e, _ in sealed], SNAPSHOT_EVERY)
    except GameLogError as exc:
        return exc
    return _Checked(str(path), header, event_rows(sealed), encode_state(state), snapshots)


def _import_checked(store: Store, checked: _Checked) -> ImportReport:
    with _named_line(checked.path):
        state = store.import_folded(checked.header.game_id, checked.rows, decode_state(checked.state), checked.snapshots)
    return _report(checked.path, checked.header, state, "imported", len(checked.rows))


def _either(importer, store: Store, source) -> ImportReport | KtlogError:
    """The report, or the error (a bad file, a locked database...) that kept the file out."""
    try:
        return importer(store, source)
    except KtlogError as exc:
        return exc


@contextlib.contextmanager
def _named_line(where: str) -> Iterator[None]:
    """An illegal event, or an event id taken, as an error of the file's line."""
    try:
        yield
    except KtlogError as exc:
        seq = getattr(exc, "seq", None)
        raise GameLogError(where, seq + 1 if seq else None, str(exc)) from exc


def _report(where: str, header: Header, state: GameState, status: Literal["imported", "extended"], added: int) -> ImportReport:
    report = ImportReport(where, header.game_id, status, added)
    if header.result is not None and header.result != header_result(state):
        report.warnings.append(f"the header's result differs from what the events give ({describe_result(state)})")
    return report
