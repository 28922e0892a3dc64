"""Writing an output file (`-o` of export, report, stats and chart): never over the open database
or its -wal, -shm or -journal file, and whole or not at all (a temporary file in the same folder,
flushed to the disk, then renamed over the target, so a full disk leaves any old file as it was).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from ..errors import KtlogError
from ..storage.dbfile import companion_of
from .atomic import write_atomically


def default_name(game_id: str, suffix: str) -> Path:
    """A file name in the current folder for a game's output: its id's first 8 characters, any
    that is not a lower-case letter, digit or hyphen replaced (an id an older file brought in may
    hold `../` or a slash)."""
    stem = re.sub(r"[^0-9a-z-]", "_", game_id[:8]) or "game"
    return Path(stem + suffix)


def refuse_database(output: Path, database: Path | None) -> None:
    """Raise if `output` is the database or one of its companion files (by path or by inode)."""
    suffix = companion_of(output, database)
    if suffix is not None:
        raise KtlogError(
            f"cannot write {output}: it is the database{' ' + suffix[1:] + ' file' if suffix else ''} in use ({database}); "
            "writing there would destroy it. Give another file with -o"
        )


def write_file(output: Path, content: bytes | str | Callable[[BinaryIO], object], *, database: Path | None) -> None:
    """Write `content` (bytes, text as UTF-8, or a function writing into a binary file) to
    `output` whole or not at all (`atomic.write_atomically`), after refusing the open database.
    Errors name the output and why."""
    refuse_database(output, database)
    if output.exists() and not output.is_file():
        raise KtlogError(f"cannot write {output}: it is not a regular file; give a file path with -o")
    if callable(content):
        writer = content
    else:
        data = content.encode() if isinstance(content, str) else content
        writer = lambda f: f.write(data)  # noqa: E731
    try:
        write_atomically(output, writer)
    except OSError as exc:
        raise KtlogError(f"cannot write {output}: {exc.strerror or exc}; nothing was written there") from exc
