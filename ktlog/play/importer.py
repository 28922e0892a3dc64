"""Importing game-log files into a database: each file whole or not at all, idempotent (by
event id and hash), errors naming the file's line. Merging the databases of several tables is
importing their exports.

With several files, forked processes (as many as the cores this process may use, less this one:
`--jobs`) read and check files while this one writes them (see `_checked_in_order`); each
checker's results come through a pipe this module owns, ended by that checker's exit whatever it
was doing.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import queue
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.synchronize import BoundedSemaphore
from pathlib import Path
from typing import BinaryIO, Literal

import msgspec

from ..errors import GameLogError, KtlogError
from ..events import Envelope
from ..files.gamefile import SUFFIX as GAME_FILE_SUFFIX
from ..files.gamelog import Header, header_result, read_game_log
from ..files.inputs import LINE_LIMIT
from ..reducer import fold_with_snapshots
from ..state import GameState
from ..storage.dbfile import Origin, companion_of
from ..storage.rows import Folded, event_rows, folded
from ..storage.snapshots import SNAPSHOT_EVERY
from ..storage.store import Raced, Store
from ..text.plural import counted
from ..text.results import describe_result
from .game_files import read_typed_game
from .matches import match_of


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
            "imported": f"{self.path}: imported game {gid} ({counted(self.events_added, 'event')})",
            "extended": f"{self.path}: added {self.events_added} new events to game {gid}",
            "unchanged": f"{self.path}: game {gid} is already in the database; nothing to import",
        }[self.status]
        return "\n".join([text, *(f"  warning: {w}" for w in self.warnings)])


def import_file(store: Store, path: Path) -> ImportReport:
    """Import one game-log file whole, or refuse it whole (GameLogError) leaving the database
    unchanged. A file whose game is stored in full is recognised from its header and last line
    (`stored_in_full`) without checking the rest."""
    for _ in range(RACES):
        try:
            return stored_in_full(store, path) or _import_file(store, path)
        except Raced:
            continue  # another writer stored events of this game meanwhile: compare again
    raise GameLogError(str(path), None, f"other writers kept adding to its game while it was imported ({RACES} tries); import it again when they are done")


RACES = 5
"""How often an import compares a file again with a game another writer keeps changing."""


def _import_file(store: Store, path: Path) -> ImportReport:
    where = str(path)
    header, sealed = _read(path, store)
    game_id = header.game_id
    stored = {e.seq: e for e in store.events(game_id)} if store.has_game(game_id) else {}
    if stored:
        for envelope, _ in sealed[: len(stored)]:
            mine = stored[envelope.seq]
            if mine.hash != envelope.hash:
                db = store.path or "the database"
                raise GameLogError(
                    where,
                    envelope.seq + 1,
                    f"game {game_id[:8]} is already in {db} with different events from seq {envelope.seq}: "
                    f"{db} has {mine.type} recorded at {mine.recorded_at} (event id {mine.event_id}); "
                    f"{where} has {envelope.type} recorded at {envelope.recorded_at} (event id {envelope.event_id}). "
                    f"They are two recordings of one game: compare them (`ktlog export {game_id[:8]}` writes the stored one) "
                    "and import only the right one",
                )
        if len(sealed) <= len(stored):
            return ImportReport(where, game_id, "unchanged", 0)
    with _named_line(where):
        state = store.import_envelopes(game_id, sealed, already=len(stored), origin=_origin(header))
    return _report(where, header, state, "extended" if stored else "imported", len(sealed) - len(stored), _recorded_twice(store, game_id))


def _read(path: Path, store: Store | None = None) -> tuple[Header, list[tuple[Envelope, bytes]]]:
    """A game-log file, or a typed game file by its suffix (`play.game_files`: `store` lets
    the events it holds already keep their stored envelopes)."""
    return read_typed_game(path, store) if path.suffix == GAME_FILE_SUFFIX else read_game_log(path)


def stored_in_full(store: Store, path: Path) -> ImportReport | None:
    """The report for a file whose game is stored with exactly its events, or None. Only the
    header and the last line are read: the header's event count and the last line's seq and
    hash equal the stored head (a hash covers the chain before it: the rest is the stored
    chain, checked when it was stored). Anything else (another head, a line that does not
    parse) is left to the full check."""
    if not os.path.isfile(path):  # before opening: opening a FIFO waits for a writer
        return None
    try:
        with open(path, "rb") as f:
            header = _HEADER.decode(f.readline().removeprefix(b"\xef\xbb\xbf"))
            last = _TAIL.decode(_last_line(f))
        head = store.conn.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", (header.game_id,)).fetchone()
    except (OSError, ValueError, msgspec.DecodeError, RecursionError):  # left to the full check, which says why
        return None
    if head is None or not (header.events == last.seq == head[0] and last.game_id == header.game_id and last.hash == head[1]):
        return None
    return ImportReport(str(path), header.game_id, "unchanged", 0)


class _HeaderStart(msgspec.Struct):
    game_id: str
    events: int


class _Tail(msgspec.Struct):
    game_id: str
    seq: int
    hash: str


_HEADER = msgspec.json.Decoder(_HeaderStart)
_TAIL = msgspec.json.Decoder(_Tail)


def _last_line(f: BinaryIO, chunk: int = 65536) -> bytes:
    """The file's last line that is not blank, read from its end in linear time; ValueError if
    it is longer than a line may be (LINE_LIMIT: the full check then says so), found once that
    many bytes are read, whatever the file's length."""
    end = f.seek(0, os.SEEK_END)
    blocks: list[bytes] = []
    length = 0
    while end > 0:
        start = max(0, end - chunk)
        f.seek(start)
        block = f.read(end - start)
        end = start
        if not blocks:
            block = block.rstrip()  # the blank lines and spaces at the end, as editors leave them
            if not block:
                continue
        cut = block.rfind(b"\n")
        blocks.append(block[cut + 1 :])
        length += len(blocks[-1])
        if length > LINE_LIMIT:
            raise ValueError("the last line is longer than a line may be")
        if cut >= 0:
            break
    return b"".join(reversed(blocks))


def import_files(store: Store, paths: list[Path], jobs: int | None = None) -> Iterator[ImportReport | KtlogError]:
    """Import game-log files in order, each as `import_file` does, yielding each file's report
    or the error that kept it out. Files whose games are stored in full are recognised first;
    the others are read and checked by `jobs` processes (this one and forked checkers; by
    default as many as the cores this process may use, `available_cores`; 1: this process
    alone) while this one writes (see `_checked_in_order`)."""
    own = {
        i: KtlogError(f"{path} is {_database_file(suffix)} ktlog imports into, not a game-log file; nothing from it was imported")
        for i, path in enumerate(paths)
        if (suffix := companion_of(path, store.path)) is not None
    }  # never opened: `dbfile`
    known = {i: report for i, path in enumerate(paths) if i not in own and (report := stored_in_full(store, path))}
    rest = [path for i, path in enumerate(paths) if i not in known and i not in own]
    checked = _checked_in_order(rest, available_cores() if jobs is None else jobs)
    for i, path in enumerate(paths):
        if i in own or i in known:
            yield own.get(i) or known[i]
            continue
        result = next(checked)
        if isinstance(result, GameLogError):
            yield result
        elif store.has_game(result.header.game_id):  # unchanged, extended or conflicting: compared with the stored events
            yield _either(import_file, store, path)
        else:
            yield _either(_import_checked, store, result)


def _database_file(suffix: str) -> str:
    return f"the {suffix[1:]} file of the database" if suffix else "the database"


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container or `taskset` limits
    it), not the machine's count."""
    if hasattr(os, "process_cpu_count"):  # Python 3.13
        return os.process_cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


CHECKED_AHEAD = 32
"""At most this many files checked and not yet read by the writing process (bounds the memory
when writing is the slower part)."""


def _checked_in_order(paths: list[Path], jobs: int) -> Iterator[_Checked | GameLogError]:
    """Each file read and folded, in order, by `jobs` processes. Forked checkers and this one
    take turns claiming the next file to check: a checker whenever it is free, this one whenever
    the file it must write next is not ready. So they share the work whatever writing costs here
    (see docs/performance.md). With one job, without fork (or memory for it) this process checks
    every file; if a checker dies, this process checks what it had claimed."""
    if jobs < 2 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_checked, paths)
        return
    fork = multiprocessing.get_context("fork")
    unclaimed, unread = fork.Value("q", 0), fork.BoundedSemaphore(CHECKED_AHEAD)
    checkers: list[_Checker] = []
    try:
        for _ in range(min(jobs, len(paths)) - 1):
            if (checker := _start_checker(fork, paths, unclaimed, unread)) is None:
                break  # no process (or memory) for another: the ones started share the work
            checkers.append(checker)
        ready: dict[int, _Checked | GameLogError] = {}
        for i in range(len(paths)):
            while i not in ready:
                sending = [c for c in checkers if c.sending]
                if any([c.receive(ready, timeout=0) for c in sending]):
                    pass
                elif (k := _claim(unclaimed)) < len(paths):
                    ready[k] = _checked(paths[k])
                elif sending:  # file i is being checked by one of them
                    if wait([end for c in sending for end in (c.results, c.process.sentinel)], 0.1):
                        for c in sending:
                            c.receive(ready, timeout=0)
                else:  # the checkers ended with file i claimed
                    ready[i] = _checked(paths[i])
            yield ready.pop(i)
    finally:
        for checker in checkers:
            checker.process.kill()
        for checker in checkers:
            checker.process.join()
            checker.results.close()


def _start_checker(fork, paths: list[Path], unclaimed, unread: BoundedSemaphore) -> _Checker | None:
    """A forked checking process and this process's end of its pipe, or None if none could start."""
    results, sender = fork.Pipe(duplex=False)
    process = fork.Process(target=_check_claimed, args=(paths, unclaimed, sender, unread, os.getpid()), daemon=True)
    try:
        process.start()
    except OSError:
        results.close()
        sender.close()
        return None
    sender.close()  # the checker's copy is the only one left: its exit ends the pipe, even mid-message
    return _Checker(process, results, unread)


@dataclass
class _Checker:
    """A checking process and the importing process's end of its pipe."""

    process: multiprocessing.process.BaseProcess
    results: Connection
    unread: BoundedSemaphore
    """Released for each result read: the checker may check one more file ahead."""
    sending: bool = True
    """False once the checker will send no more: it has finished, or died."""

    def receive(self, ready: dict, timeout: float) -> bool:
        """Read the checker's next (index, result) into `ready`, waiting at most `timeout`.
        Whether one came."""
        if not wait([self.results, self.process.sentinel], timeout):
            return False
        if not self.results.poll():  # ended, and everything it sent is read
            self.sending = False
            return False
        try:
            k, result = self.results.recv()
        except (EOFError, OSError):  # it ended, perhaps in the middle of a result ("got end of file during message")
            self.sending = False
            return False
        ready[k] = result
        self.unread.release()
        return True


def _claim(unclaimed) -> int:
    """The index of the next file no process has claimed, claimed."""
    with unclaimed.get_lock():
        unclaimed.value += 1
        return unclaimed.value - 1


def _check_claimed(paths: list[Path], unclaimed, sender: Connection, unread, parent: int) -> None:
    """The checking process: check files as it claims them, sending each (index, result), at
    most CHECKED_AHEAD of them unread. A thread sends while the next file is checked (a send
    waits for the importing process to read). It leaves ctrl+c to the importing process, and
    stops quietly on anything unexpected: that process then checks the file itself and reports
    what went wrong."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop in (signal.SIGTERM, signal.SIGHUP):  # the importing process's handlers are not this one's
        signal.signal(stop, signal.SIG_DFL)
    outbox: queue.SimpleQueue = queue.SimpleQueue()
    feeder = threading.Thread(target=_send_all, args=(outbox, sender), daemon=True)
    feeder.start()
    with contextlib.suppress(Exception):
        while unread.acquire() and (k := _claim(unclaimed)) < len(paths):
            outbox.put((k, _checked(paths[k])))
    outbox.put(None)
    feeder.join()


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: a signal the kernel sends this process when its parent ends."""


def _die_with(parent: int) -> None:
    """End the checking process when the importing one ends, however it ends (even SIGKILL),
    so no checker is left holding the terminal or a pipe (`ktlog import ... | tee`): on Linux
    the kernel kills it (PR_SET_PDEATHSIG); elsewhere a thread watches for the parent to go."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
    except (OSError, AttributeError):
        armed = False
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it ended before the kernel was asked to tell
        os._exit(0)


def _watch_parent(parent: int, every: float = 0.2) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _send_all(outbox: queue.SimpleQueue, sender: Connection) -> None:
    with contextlib.suppress(OSError), sender:
        while (item := outbox.get()) is not None:
            sender.send(item)


@dataclass
class _Checked:
    """A game-log file read and its events folded (by the checking process), as rows ready to
    insert: the importing process only writes them."""

    path: str
    header: Header
    game: Folded
    warnings: list[str]


def _checked(path: Path) -> _Checked | GameLogError:
    """Read a file and fold its events (in the checking process): what the store writes."""
    try:
        header, sealed = _read(path)
        with _named_line(str(path)):
            rows = event_rows(sealed)  # every value checked before the rules see it
            state, snapshots = fold_with_snapshots([(e.seq, e.payload) for e, _ in sealed], SNAPSHOT_EVERY)
            game = folded(header.game_id, rows, state, snapshots)
    except GameLogError as exc:
        return exc
    return _Checked(str(path), header, game, _warnings(header, state))


def _import_checked(store: Store, checked: _Checked) -> ImportReport:
    try:
        with _named_line(checked.path):
            store.import_folded(checked.header.game_id, checked.game, origin=_origin(checked.header))
    except Raced:  # another import stored this game first: compare with what it stored
        return import_file(store, Path(checked.path))
    return ImportReport(
        checked.path, checked.header.game_id, "imported", len(checked.game.rows), checked.warnings + _recorded_twice(store, checked.header.game_id)
    )


def _origin(header: Header) -> Origin | None:
    """The database that recorded a file's game, as its header says (`play.players`)."""
    return (header.recorded_in.database, header.recorded_in.label) if header.recorded_in else None


def _either(importer, store: Store, source) -> ImportReport | KtlogError:
    """The report, or the error (a bad file, a locked or full database...) that kept the file out."""
    try:
        return importer(store, source)
    except KtlogError as exc:
        return exc
    except sqlite3.Error as exc:
        path = getattr(source, "path", source)
        return GameLogError(str(path), None, f"the database refused it ({exc})")


@contextlib.contextmanager
def _named_line(where: str) -> Iterator[None]:
    """An illegal event, or an event id taken, as an error of the file's line."""
    try:
        yield
    except Raced:
        raise
    except KtlogError as exc:
        seq = getattr(exc, "seq", None)
        raise GameLogError(where, seq + 1 if seq else None, str(exc)) from exc


def _report(where: str, header: Header, state: GameState, status: Literal["imported", "extended"], added: int, also: list[str]) -> ImportReport:
    return ImportReport(where, header.game_id, status, added, _warnings(header, state) + also)


def _recorded_twice(store: Store, game_id: str) -> list[str]:
    """What an import says of a game that another database recorded too (`play.matches`): the
    league counts the match once, and says so, or flags recordings that disagree."""
    match = match_of(store, game_id)
    return [match.describe()] if match else []


def _warnings(header: Header, state: GameState) -> list[str]:
    """What an import says of a file whose events are good: a header's result they do not give."""
    if header.result is not None and header.result != header_result(state):
        return [f"the header's result differs from what the events give ({describe_result(state)})"]
    return []
