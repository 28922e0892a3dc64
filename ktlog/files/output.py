"""Writing an output file (`-o` of export, report, stats and chart): never over the open database
or its -wal, -shm or -journal file, and whole or not at all (a temporary file in the same folder,
flushed to the disk, then renamed over the target, so a full disk leaves any old file as it was).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path

from ..errors import KtlogError

DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""Suffixes of the files SQLite keeps for a database: an output over any of them destroys it."""


def default_name(game_id: str, suffix: str) -> Path:
    """A file name in the current folder for a game's output: its id's first 8 characters, any
    that is not a lower-case letter, digit or hyphen replaced (an id an older file brought in may
    hold `../` or a slash)."""
    stem = re.sub(r"[^0-9a-z-]", "_", game_id[:8]) or "game"
    return Path(stem + suffix)


def refuse_database(output: Path, database: Path | None) -> None:
    """Raise if `output` is the database or one of its companion files (by path or by inode)."""
    if database is None:
        return
    target = output.resolve()
    for suffix in DATABASE_COMPANIONS:
        companion = Path(f"{database}{suffix}")
        same = target == companion.resolve()
        if not same and target.exists() and companion.exists():
            same = os.path.samefile(target, companion)
        if same:
            raise KtlogError(
                f"cannot write {output}: it is the database{' ' + suffix[1:] + ' file' if suffix else ''} in use ({database}); "
                "writing there would destroy it. Give another file with -o"
            )


def write_file(output: Path, content: bytes | str | Callable[[Path], None], *, database: Path | None) -> None:
    """Write `content` (bytes, text as UTF-8, or a function writing a given path) to `output`
    atomically, after refusing the open database. Errors name the output and why."""
    refuse_database(output, database)
    if output.exists() and not output.is_file():
        raise KtlogError(f"cannot write {output}: it is not a regular file; give a file path with -o")
    temporary = output.with_name(f".{output.name}.{secrets.token_hex(4)}.tmp")
    try:
        if callable(content):
            content(temporary)
            fd = os.open(temporary, os.O_RDONLY)
        else:
            data = content.encode() if isinstance(content, str) else content
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            _write_all(fd, data)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, output)
    except OSError as exc:
        raise KtlogError(f"cannot write {output}: {exc.strerror or exc}; nothing was written there") from exc
    finally:
        temporary.unlink(missing_ok=True)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
